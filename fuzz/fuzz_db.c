/* SPDX-License-Identifier: MIT */
/* Fuzz target: the database reader (src/db, issue 30) on a damaged database file (STYLE C11).
 * The input is written to a temporary file and opened read-only; when it opens, the stats, the
 * integrity check, the explorer and the position index at the start and after 1. e4, and the
 * first stored games are asked. Each call either answers or fails with a status and a message;
 * nothing may crash, leak or read out of bounds, and a failed call leaves a message.
 * Seeds: a small database made by pgnkit db import (tools/fuzz-smoke.sh). */
#include "fuzz_common.h"

#include <unistd.h>

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

static int fz_db_move(void *user, const pgn_db_move *m) {
    unsigned *n = user;
    (void)m;
    return ++*n > 1000;
}

static int fz_db_id(void *user, int64_t id) {
    unsigned *n = user;
    (void)id;
    return ++*n > 1000;
}

static int fz_db_game(void *user, int64_t id, pgn_str raw) {
    unsigned *n = user;
    (void)id;
    size_t sum = 0;
    for (size_t i = 0; i < raw.len; i++) {
        sum += (unsigned char)raw.ptr[i]; /* every byte readable */
    }
    (void)sum;
    return ++*n > 50;
}

static void fz_db_ask(pgn_db *db) {
    char msg[256];
    pgn_db_stats st;
    msg[0] = '\0';
    if (pgn_db_get_stats(db, &st, msg, sizeof msg) != PGN_OK) {
        FUZZ_CHECK(msg[0] != '\0', "stats failed without a message");
    }
    (void)pgn_db_check(db, msg, sizeof msg);
    pgn_pos pos;
    pgn_pos_init(&pos);
    for (int k = 0; k < 2; k++) {
        unsigned n = 0;
        uint64_t games = 0;
        msg[0] = '\0';
        if (pgn_db_explore(db, &pos, fz_db_move, &n, &games, msg, sizeof msg) != PGN_OK) {
            FUZZ_CHECK(msg[0] != '\0', "explore failed without a message");
        }
        n = 0;
        (void)pgn_db_games_at(db, &pos, fz_db_id, &n, msg, sizeof msg);
        if (k == 0) {
            pgn_pos_play(&pos, PGN_MOVE_MAKE(12, 28, PGN_MOVE_NORMAL, 0)); /* 1. e4 */
        }
    }
    unsigned n = 0;
    (void)pgn_db_games(db, 1, fz_db_game, &n, msg, sizeof msg);
    (void)pgn_db_game(db, 1, fz_db_game, &n, msg, sizeof msg);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/pgnkit-fuzz-db-%ld.db", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return 0;
    }
    size_t put = fwrite(data, 1, size, f);
    fclose(f);
    if (put == size) {
        pgn_db *db = NULL;
        char msg[256];
        msg[0] = '\0';
        pgn_status s = pgn_db_open(&db, path, PGN_DB_READONLY, msg, sizeof msg);
        if (s == PGN_OK) {
            FUZZ_CHECK(db != NULL, "open gave no handle");
            fz_db_ask(db);
            pgn_db_close(db);
        } else {
            FUZZ_CHECK(db == NULL && msg[0] != '\0', "open failed without a message");
        }
    }
    char side[80];
    snprintf(side, sizeof side, "%s-wal", path);
    remove(side);
    snprintf(side, sizeof side, "%s-shm", path);
    remove(side);
    remove(path);
    return 0;
}
