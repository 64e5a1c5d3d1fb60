/* SPDX-License-Identifier: MIT */
/* The explorer panel of the page (issue 30 point 3): a position's moves in the game database as
 * the JSON web/explore.js shows, for pgnkit html --db (embedded in the page) and pgnkit serve
 * --db (GET /api/explore?fen=FEN, answered through pgn_db_explore behind one lock: the server's
 * threads share one read-only connection). */
#define _POSIX_C_SOURCE 200809L
#include "db.h"
#include "serve.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ex_json {
    const pgn_pos *pos;
    cli_membuf *b;
    int first, bad;
} ex_json;

static int put_move(void *user, const pgn_db_move *m) {
    ex_json *x = user;
    if (!pgn_pos_is_legal(x->pos, m->move)) {
        return 0; /* never stored: the import plays only legal moves */
    }
    char san[PGN_SAN_MAX], uci[PGN_UCI_MAX], fen[PGN_FEN_MAX];
    pgn_san_write(x->pos, m->move, san);
    pgn_uci_write(x->pos, m->move, uci);
    pgn_pos after = *x->pos;
    pgn_pos_play(&after, m->move);
    pgn_fen_write(&after, 0, fen, sizeof fen);
    double elo = m->elo_games ? (double)m->elo_sum / (double)m->elo_games : 0.0;
    x->bad =
        serve_printf(x->b,
                     "%s{\"san\":\"%s\",\"uci\":\"%s\",\"games\":%" PRIu64 ",\"white\":%" PRIu64
                     ",\"draws\":%" PRIu64 ",\"black\":%" PRIu64 ",\"elo\":%.0f,\"fen\":\"%s\"}",
                     x->first ? "" : ",", san, uci, m->games, m->white, m->draws, m->black, elo,
                     fen) < 0;
    x->first = 0;
    return x->bad;
}

int cli_explore_json(pgn_db *db, const pgn_pos *pos, cli_membuf *b, uint64_t *games, char *msg,
                     size_t cap) {
    char fen[PGN_FEN_MAX];
    pgn_fen_write(pos, 0, fen, sizeof fen);
    ex_json x = {pos, b, 1, 0};
    uint64_t n = 0;
    if (serve_printf(b, "{\"fen\":\"%s\",\"moves\":[", fen) < 0) {
        return -2;
    }
    if (pgn_db_explore(db, pos, put_move, &x, &n, msg, cap) != PGN_OK) {
        return x.bad ? -2 : -1;
    }
    if (games) {
        *games = n;
    }
    return serve_printf(b, "],\"games\":%" PRIu64 "}", n) < 0 ? -2 : 0;
}

int cli_explore_open(pgn_db **db, const char *path, const char *cmd) {
    char msg[512];
    if (pgn_db_open(db, path, PGN_DB_READONLY, msg, sizeof msg) != PGN_OK) {
        cli_error(NULL, "error: %s --db: %s: %s", cmd, path, msg);
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}

/* The slot of key in the set (cap > 0): where it is, or the free slot where it would go. */
static size_t slot(const uint64_t *keys, size_t cap, uint64_t key) {
    size_t j = (size_t)(key * 0x9E3779B97F4A7C15u >> 20) & (cap - 1);
    while (keys[j] && keys[j] != key) {
        j = (j + 1) & (cap - 1);
    }
    return j;
}

/* Adds key (not 0) to the set: 0, or -1 out of memory. */
static int set_add(cli_explore_set *x, uint64_t key) {
    if (2 * (x->n + 1) > x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 1024;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t) {
            return -1;
        }
        for (size_t i = 0; i < x->cap; i++) {
            if (x->keys[i]) {
                t[slot(t, cap, x->keys[i])] = x->keys[i];
            }
        }
        free(x->keys);
        x->keys = t;
        x->cap = cap;
    }
    x->keys[slot(x->keys, x->cap, key)] = key;
    x->n++;
    return 0;
}

/* The answer for pos unless given before: 1 (go on along the line), 0 (stop: no game has it, or
 * one: the line from here is that one game's), -1 / -2 as cli_explore_json. */
static int answer_once(cli_explore_set *x, const pgn_pos *pos, char *msg, size_t cap) {
    uint64_t key = pos->key ? pos->key : 1; /* 0 marks a free slot */
    if (x->cap && x->keys[slot(x->keys, x->cap, key)] == key) {
        return 1;
    }
    size_t mark = x->json.len;
    uint64_t games = 0;
    if (x->answers && serve_put(&x->json, ",\n", 2) < 0) {
        return -2;
    }
    int st = cli_explore_json(x->db, pos, &x->json, &games, msg, cap);
    if (st != 0 || games == 0) {
        x->json.len = mark; /* a position no game has is left out: the panel says so */
        return st != 0 ? st : 0;
    }
    x->answers++;
    if (set_add(x, key) < 0) {
        return -2;
    }
    return games > 1; /* past a position one game reached, only that game goes on */
}

int cli_explore_game(cli_explore_set *x, const pgn_game *g, char *msg, size_t cap) {
    pgn_pos pos = *pgn_game_start(g);
    if (pos.variant != PGN_VARIANT_STANDARD) {
        return 0; /* the database indexes standard chess */
    }
    const pgn_node *n = pgn_game_root(g);
    int st;
    while ((st = answer_once(x, &pos, msg, cap)) == 1 && (n = pgn_node_child(n)) != NULL) {
        pgn_pos_play(&pos, pgn_node_move(n));
    }
    return st < 0 ? st : 0;
}

void cli_explore_set_free(cli_explore_set *x) {
    free(x->keys);
    free(x->json.p);
}

#ifdef PGNKIT_HAVE_MHD
#include "serve_http.h"

#include <pthread.h>

struct serve_explorer {
    pgn_db *db;
    pthread_mutex_t mu;
};

static int explore_open(server *s, const char *path) {
    if (!path) {
        return 0;
    }
    serve_explorer *e = calloc(1, sizeof *e);
    if (!e) {
        cli_error(NULL, "out of memory");
        return -1;
    }
    if (cli_explore_open(&e->db, path, "serve") != EXIT_OK) {
        free(e);
        return -1;
    }
    pthread_mutex_init(&e->mu, NULL);
    s->explore = e;
    return 0;
}

int serve_open_page(server *s, const char *db) {
    if (explore_open(s, db) != 0) {
        return -1;
    }
    if (serve_build_page(s) == 0) {
        return 0;
    }
    cli_error(NULL, "out of memory");
    free(s->page.p);
    s->page = (cli_membuf){0};
    serve_explore_close(s);
    return -1;
}

void serve_explore_close(server *s) {
    if (s->explore) {
        pgn_db_close(s->explore->db);
        pthread_mutex_destroy(&s->explore->mu);
        free(s->explore);
        s->explore = NULL;
    }
}

int serve_explore(server *s, const char *fen, cli_membuf *b) {
    pgn_pos pos;
    char msg[512];
    if (!s->explore) {
        return serve_error_json(b, 404, "no database: start pgnkit serve with --db FILE");
    }
    if (!fen || pgn_fen_parse(&pos, fen, strlen(fen), 0, NULL) != PGN_OK) {
        return serve_error_json(b, 400, "fen must be a position in FEN");
    }
    pthread_mutex_lock(&s->explore->mu);
    int st = cli_explore_json(s->explore->db, &pos, b, NULL, msg, sizeof msg);
    pthread_mutex_unlock(&s->explore->mu);
    if (st == 0) {
        return 200;
    }
    return st == -2 ? serve_nomem(b) : serve_error_json(b, 500, msg);
}
#endif
