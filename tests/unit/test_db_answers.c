/* SPDX-License-Identifier: MIT */
/* The explorer's answers as JSON (db.h: pgn_db_explore_json, pgn_db_answers): three games imported
 * into a fresh database, their counts checked against the games as written here (two play 1. e4,
 * one 1. d4; results 1-0, 1/2-1/2, 0-1; Elos given), the FEN after each move as the FEN writer
 * gives it after playing the move, and the answers along a main line cut where one game goes on
 * alone or none goes on, each position given once. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <pgnkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char games[] =
    "[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"2000\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n"
    "[White \"C\"]\n[Black \"D\"]\n[WhiteElo \"2200\"]\n[Result \"1/2-1/2\"]\n\n1. e4 c5 "
    "1/2-1/2\n\n"
    "[White \"E\"]\n[Black \"F\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";

static pgn_db *imported(const char *path) {
    char msg[256] = "";
    pgn_db *db = NULL;
    remove(path);
    CHECK_EQ_INT(pgn_db_open(&db, path, PGN_DB_CREATE, msg, sizeof msg), PGN_OK);
    pgn_source *src = NULL;
    CHECK_EQ_INT(pgn_source_open_mem(&src, games, sizeof games - 1, NULL, msg, sizeof msg), PGN_OK);
    pgn_db_import_opts o = {1, 0, 0, NULL, NULL};
    pgn_db_import_totals t;
    if (db && src) {
        CHECK_EQ_INT(pgn_db_import(db, src, &o, &t, msg, sizeof msg), PGN_OK);
        CHECK_EQ_U64(t.stored, 3);
    }
    pgn_source_free(src);
    return db;
}

static void test_explore_json(pgn_db *db) {
    pgn_pos start;
    pgn_pos_init(&start);
    pgn_membuf b = {0};
    char msg[256] = "";
    uint64_t n = 0;
    CHECK_EQ_INT(pgn_db_explore_json(db, &start, &b, &n, msg, sizeof msg), PGN_OK);
    CHECK_EQ_U64(n, 3);
    const char *want =
        "{\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\",\"moves\":["
        "{\"san\":\"e4\",\"uci\":\"e2e4\",\"games\":2,\"white\":1,\"draws\":1,\"black\":0,"
        "\"elo\":2100,\"fen\":\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"},"
        "{\"san\":\"d4\",\"uci\":\"d2d4\",\"games\":1,\"white\":0,\"draws\":0,\"black\":1,"
        "\"elo\":0,\"fen\":\"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\"}],"
        "\"games\":3}";
    char *got = strndup(b.ptr ? b.ptr : "", b.len);
    CHECK_EQ_STR(got, want);
    free(got);
    /* a position no game reached: no moves, and the buffer appended to, not replaced */
    pgn_pos e4 = start;
    pgn_san_result mv = {0, 0};
    CHECK_EQ_INT(pgn_san_parse(&e4, "h4", 2, 0, &mv), PGN_OK);
    pgn_pos_play(&e4, mv.move);
    size_t before = b.len;
    CHECK_EQ_INT(pgn_db_explore_json(db, &e4, &b, &n, msg, sizeof msg), PGN_OK);
    CHECK_EQ_U64(n, 0);
    got = strndup(b.ptr + before, b.len - before);
    CHECK_EQ_STR(got, "{\"fen\":\"rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq - 0 "
                      "1\",\"moves\":[],\"games\":0}");
    free(got);
    pgn_membuf_free(&b);
}

static void test_answers(pgn_db *db) {
    pgn_db_answers *a = NULL;
    char msg[256] = "";
    CHECK_EQ_INT(pgn_db_answers_new(&a, db), PGN_OK);
    if (!a) {
        return;
    }
    size_t len = 1;
    CHECK_EQ_STR(pgn_db_answers_json(a, &len), "");
    CHECK_EQ_INT((int)len, 0);
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, games, sizeof games - 1), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    /* game 1: the start (3 games went on), after 1. e4 (2 games), after 1... e5 (1 game: the line
     * stops there, its answer kept) */
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    CHECK_EQ_INT(pgn_db_answers_add_game(a, g, msg, sizeof msg), PGN_OK);
    CHECK_EQ_INT((int)pgn_db_answers_count(a), 3);
    /* game 2: the start and 1. e4 were given; after 1... c5 no game went on: left out */
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    CHECK_EQ_INT(pgn_db_answers_add_game(a, g, msg, sizeof msg), PGN_OK);
    CHECK_EQ_INT((int)pgn_db_answers_count(a), 3);
    /* game 3: after 1. d4 one game went on (d5) */
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    CHECK_EQ_INT(pgn_db_answers_add_game(a, g, msg, sizeof msg), PGN_OK);
    CHECK_EQ_INT((int)pgn_db_answers_count(a), 4);
    const char *answers = pgn_db_answers_json(a, &len);
    char *json = strndup(answers, len);
    int starts = 0;
    for (const char *p = json; p && (p = strstr(p, "{\"fen\"")) != NULL; p++) {
        starts++;
    }
    CHECK_EQ_INT(starts, 4);
    CHECK(strncmp(json, "{\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", 52) == 0);
    CHECK(strstr(json, "}],\"games\":3},\n{\"fen\"") != NULL);
    free(json);
    pgn_game_free(g);
    pgn_reader_free(r);
    pgn_db_answers_free(a);
    pgn_db_answers_free(NULL);
}

int main(void) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/pgnkit_answers_%ld.db", (long)getpid());
    pgn_db *db = imported(path);
    if (db) {
        test_explore_json(db);
        test_answers(db);
    }
    pgn_db_close(db);
    remove(path);
    char side[80];
    snprintf(side, sizeof side, "%s-wal", path);
    remove(side);
    snprintf(side, sizeof side, "%s-shm", path);
    remove(side);
    return harness_finish();
}
