/* SPDX-License-Identifier: MIT */
/* The explorer's answers as JSON (issue 30 point 3): one position's moves as the page's panel
 * (web/explore.js) reads them, for pgnkit serve --db (one answer per request) and pgnkit html --db
 * (the answers of the games' main lines, each position once: pgn_db_answers). */
#include "db_int.h"
#include "../base/alloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ex_json {
    const pgn_pos *pos;
    pgn_membuf *out;
    int first, bad;
} ex_json;

/* text to out: 0, or -1 when it cannot grow */
static int put(pgn_membuf *out, const char *text) {
    return pgn_membuf_write(out, text, strlen(text)) < 0 ? -1 : 0;
}

static int put_move(void *user, const pgn_db_move *m) {
    ex_json *x = user;
    if (!pgn_pos_is_legal(x->pos, m->move)) {
        return 0; /* never stored: the import plays only legal moves */
    }
    char san[PGN_SAN_MAX], uci[PGN_UCI_MAX], fen[PGN_FEN_MAX], text[PGN_FEN_MAX + 256];
    pgn_san_write(x->pos, m->move, san);
    pgn_uci_write(x->pos, m->move, uci);
    pgn_pos after = *x->pos;
    pgn_pos_play(&after, m->move);
    pgn_fen_write(&after, 0, fen, sizeof fen);
    double elo = m->elo_games ? (double)m->elo_sum / (double)m->elo_games : 0.0;
    snprintf(text, sizeof text,
             "%s{\"san\":\"%s\",\"uci\":\"%s\",\"games\":%" PRIu64 ",\"white\":%" PRIu64
             ",\"draws\":%" PRIu64 ",\"black\":%" PRIu64 ",\"elo\":%.0f,\"fen\":\"%s\"}",
             x->first ? "" : ",", san, uci, m->games, m->white, m->draws, m->black, elo, fen);
    x->bad = put(x->out, text);
    x->first = 0;
    return x->bad;
}

pgn_status pgn_db_explore_json(pgn_db *db, const pgn_pos *pos, pgn_membuf *out, uint64_t *games,
                               char *msg, size_t cap) {
    char fen[PGN_FEN_MAX], text[PGN_FEN_MAX + 64];
    if (pgnk_alloc_check(out->alloc) != PGN_OK) {
        return PGN_E_BAD_ALLOCATOR;
    }
    pgn_fen_write(pos, 0, fen, sizeof fen);
    ex_json x = {pos, out, 1, 0};
    uint64_t n = 0;
    size_t mark = out->len;
    snprintf(text, sizeof text, "{\"fen\":\"%s\",\"moves\":[", fen);
    pgn_status st = put(out, text) != 0 ? PGN_E_NOMEM : PGN_OK;
    if (st == PGN_OK && pgn_db_explore(db, pos, put_move, &x, &n, msg, cap) != PGN_OK) {
        st = x.bad ? PGN_E_NOMEM : PGN_E_IO;
    }
    snprintf(text, sizeof text, "],\"games\":%" PRIu64 "}", n);
    if (st == PGN_OK && put(out, text) != 0) {
        st = PGN_E_NOMEM;
    }
    if (st != PGN_OK) {
        out->len = mark;
    } else if (games) {
        *games = n;
    }
    return st;
}

struct pgn_db_answers {
    pgn_db *db;
    pgn_membuf json;
    uint64_t *keys; /* open addressing, 0 free; the key 0 is stored as 1 */
    size_t n, cap;
    unsigned long answers;
};

pgn_status pgn_db_answers_new(pgn_db_answers **out, pgn_db *db) {
    *out = calloc(1, sizeof **out);
    if (!*out) {
        return PGN_E_NOMEM;
    }
    (*out)->db = db;
    return PGN_OK;
}

void pgn_db_answers_free(pgn_db_answers *a) {
    if (a) {
        free(a->keys);
        pgn_membuf_free(&a->json);
        free(a);
    }
}

const char *pgn_db_answers_json(const pgn_db_answers *a, size_t *len) {
    *len = a->json.len;
    return a->json.ptr ? a->json.ptr : "";
}

unsigned long pgn_db_answers_count(const pgn_db_answers *a) {
    return a->answers;
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
static int set_add(pgn_db_answers *x, uint64_t key) {
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
 * one: the line from here is that one game's), -1 (*st says why). */
static int answer_once(pgn_db_answers *x, const pgn_pos *pos, pgn_status *st, char *msg,
                       size_t cap) {
    uint64_t key = pos->key ? pos->key : 1; /* 0 marks a free slot */
    if (x->cap && x->keys[slot(x->keys, x->cap, key)] == key) {
        return 1;
    }
    size_t mark = x->json.len;
    uint64_t games = 0;
    if (x->answers && pgn_membuf_write(&x->json, ",\n", 2) < 0) {
        *st = PGN_E_NOMEM;
        return -1;
    }
    *st = pgn_db_explore_json(x->db, pos, &x->json, &games, msg, cap);
    if (*st != PGN_OK || games == 0) {
        x->json.len = mark; /* a position no game has is left out: the panel says so */
        return *st != PGN_OK ? -1 : 0;
    }
    x->answers++;
    if (set_add(x, key) < 0) {
        *st = PGN_E_NOMEM;
        return -1;
    }
    return games > 1; /* past a position one game reached, only that game goes on */
}

pgn_status pgn_db_answers_add_game(pgn_db_answers *a, const pgn_game *g, char *msg, size_t cap) {
    pgn_pos pos = *pgn_game_start(g);
    if (pos.variant != PGN_VARIANT_STANDARD) {
        return PGN_OK; /* the database indexes standard chess */
    }
    const pgn_node *n = pgn_game_root(g);
    pgn_status st = PGN_OK;
    int r;
    while ((r = answer_once(a, &pos, &st, msg, cap)) == 1 && (n = pgn_node_child(n)) != NULL) {
        pgn_pos_play(&pos, pgn_node_move(n));
    }
    return r < 0 ? st : PGN_OK;
}
