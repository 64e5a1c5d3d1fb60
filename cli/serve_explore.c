/* SPDX-License-Identifier: MIT */
/* The explorer panel of the page (issue 30 point 3): the database of pgnkit html --db and serve
 * --db opened, and serve's GET /api/explore?fen=FEN, answered by the library (pgn_db_explore_json)
 * behind one lock: the server's threads share one read-only connection. */
#define _POSIX_C_SOURCE 200809L
#include "db.h"
#include "serve.h"

#include <stdlib.h>
#include <string.h>

int cli_explore_open(pgn_db **db, const char *path, const char *cmd) {
    char msg[512];
    if (pgn_db_open(db, path, PGN_DB_READONLY, msg, sizeof msg) != PGN_OK) {
        cli_error(NULL, "error: %s --db: %s: %s", cmd, path, msg);
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
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
    free(s->page.ptr);
    s->page = (pgn_membuf){0};
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

int serve_explore(server *s, const char *fen, pgn_membuf *b) {
    pgn_pos pos;
    char msg[512];
    if (!s->explore) {
        return serve_error_json(b, 404, "no database: start pgnkit serve with --db FILE");
    }
    if (!fen || pgn_fen_parse(&pos, fen, strlen(fen), 0, NULL) != PGN_OK) {
        return serve_error_json(b, 400, "fen must be a position in FEN");
    }
    pgn_membuf json = {0};
    pthread_mutex_lock(&s->explore->mu);
    pgn_status st = pgn_db_explore_json(s->explore->db, &pos, &json, NULL, msg, sizeof msg);
    pthread_mutex_unlock(&s->explore->mu);
    int bad = st == PGN_E_NOMEM || (st == PGN_OK && serve_put(b, json.ptr, json.len) < 0);
    pgn_membuf_free(&json);
    return bad ? serve_nomem(b) : st != PGN_OK ? serve_error_json(b, 500, msg) : 200;
}
#endif
