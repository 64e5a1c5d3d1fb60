/* SPDX-License-Identifier: MIT */
/* A collection's statistics (include/pgnkit/collection.h, pgn_stats_*): four games whose counts
 * are worked out by hand here (results from the Result tag or else the movetext, players' scores
 * from their side, rating ranges, time-control classes, years, ply summary, White's score), the
 * diagnostics by code, and running out of memory at each allocation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

static const char GAMES[] =
    "[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"2500\"]\n[BlackElo \"2400\"]\n[Result \"1-0\"]\n"
    "[ECO \"B01\"]\n[Event \"E1\"]\n[Date \"2020.01.01\"]\n[TimeControl \"180+2\"]\n\n"
    "1. e4 d5 1-0\n\n"
    "[White \"B\"]\n[Black \"A\"]\n[Result \"?\"]\n[TimeControl \"-\"]\n\n1. d4 1/2-1/2\n\n"
    "1. e4 e5 2. Nf3 0-1\n\n"
    "[White \"A\"]\n[WhiteElo \"2600\"]\n[Result \"0-1\"]\n[TimeControl \"40/7200:3600\"]\n\n0-1\n";

/* The item of key in list l of s, or NULL. */
static const pgn_tally_item *item(pgn_stats *s, unsigned l, const char *key) {
    pgn_tally *t = pgn_stats_tally(s, l);
    pgn_tally_item *const *v = pgn_tally_sorted(t);
    for (size_t i = 0; v && i < pgn_tally_count(t); i++) {
        if (v[i]->len == strlen(key) && memcmp(v[i]->key, key, v[i]->len) == 0) {
            return v[i];
        }
    }
    return NULL;
}

static pgn_status count_games(pgn_stats *s) {
    pgn_reader *r = NULL;
    pgn_stats_game g;
    pgn_status st = pgn_reader_new_mem(&r, NULL, GAMES, sizeof GAMES - 1);
    while (st == PGN_OK && (st = pgn_reader_visit(r, pgn_stats_game_visitor(), &g)) == PGN_OK) {
        st = pgn_stats_add(s, &g);
    }
    pgn_reader_free(r);
    return st == PGN_END ? PGN_OK : st;
}

static void test_hand_counts(void) {
    pgn_stats *s = NULL;
    CHECK(pgn_stats_new(&s, NULL) == PGN_OK);
    CHECK(count_games(s) == PGN_OK);
    pgn_stats_summary p = pgn_stats_summarize(s, 4);
    CHECK(p.results[PGN_RESULT_WHITE_WINS] == 1 && p.results[PGN_RESULT_BLACK_WINS] == 2);
    CHECK(p.results[PGN_RESULT_DRAW] == 1 && p.results[PGN_RESULT_UNKNOWN] == 0);
    CHECK(p.plies_min == 0 && p.plies_median == 1 && p.plies_max == 3);
    CHECK(p.plies_mean == 1.5 && p.white_score == 37.5);
    const pgn_tally_item *a = item(s, PGN_STATS_LIST_PLAYERS, "A"),
                         *b = item(s, PGN_STATS_LIST_PLAYERS, "B"),
                         *q = item(s, PGN_STATS_LIST_PLAYERS, "?");
    CHECK(a && a->n == 3 && a->wins == 1 && a->draws == 1 && a->losses == 1);
    CHECK(a && a->min_elo == 2500 && a->max_elo == 2600);
    CHECK(b && b->n == 2 && b->wins == 0 && b->draws == 1 && b->losses == 1);
    CHECK(b && b->min_elo == 2400 && b->max_elo == 2400);
    CHECK(q && q->n == 3 && q->wins == 2 && q->losses == 1 && q->max_elo == 0);
    static const char *const tcs[] = {"blitz", "none", "unknown", "classical"};
    for (size_t i = 0; i < 4; i++) {
        const pgn_tally_item *t = item(s, PGN_STATS_LIST_TIME_CONTROLS, tcs[i]);
        CHECK(t && t->n == 1);
    }
    CHECK_EQ_U64(pgn_tally_count(pgn_stats_tally(s, PGN_STATS_LIST_TIME_CONTROLS)), 4);
    CHECK(item(s, PGN_STATS_LIST_YEARS, "2020") && item(s, PGN_STATS_LIST_YEARS, "????")->n == 3);
    CHECK(item(s, PGN_STATS_LIST_ECO, "B01") && item(s, PGN_STATS_LIST_ECO, "?")->n == 3);
    CHECK(item(s, PGN_STATS_LIST_EVENTS, "E1") && item(s, PGN_STATS_LIST_EVENTS, "?")->n == 3);
    CHECK(item(s, PGN_STATS_LIST_VARIANTS, "standard")->n == 4);
    pgn_diag d;
    memset(&d, 0, sizeof d);
    d.code = PGN_E_ILLEGAL_MOVE;
    pgn_stats_diag(s, &d);
    pgn_stats_diag(s, &d);
    CHECK_EQ_U64(pgn_stats_diag_count(s, PGN_E_ILLEGAL_MOVE), 2);
    CHECK_EQ_U64(pgn_stats_diag_count(s, PGN_E_BAD_SAN), 0);
    pgn_stats_free(s);
}

/* Allocation k fails: PGN_E_NOMEM from pgn_stats_new or pgn_stats_add, nothing leaked. */
static void test_nomem(void) {
    int failed = 0, passed = 0;
    for (long k = 0; k < 60; k++) {
        limit_alloc la = {k, 0};
        pgn_allocator a = limit_allocator(&la);
        pgn_stats *s = NULL;
        pgn_status st = pgn_stats_new(&s, &a);
        st = st == PGN_OK ? count_games(s) : st;
        CHECK(st == PGN_OK || st == PGN_E_NOMEM);
        failed += st == PGN_E_NOMEM;
        passed += st == PGN_OK;
        pgn_stats_free(s);
        CHECK_EQ_INT(la.live, 0);
    }
    CHECK(failed >= 10 && passed > 0);
}

int main(void) {
    test_hand_counts();
    test_nomem();
    return harness_finish();
}
