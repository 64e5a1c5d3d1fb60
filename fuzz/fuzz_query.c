/* SPDX-License-Identifier: MIT */
/* Fuzz target: the selection language (docs/query.md). The input is an expression. Whatever it
 * is, compiling it returns a status without crashing or leaking; a refused expression names a
 * column inside the text (or just past it). A compiled expression printed in canonical form
 * compiles again to the same canonical form (the same tree), and runs over a few games (main
 * lines, a variation, comments with clocks and evals, a promotion, a mate) without a failure. */
#include "fuzz_common.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

static const char fz_query_games[] =
    "[White \"Carlsen, Magnus\"]\n[Date \"2020.05.??\"]\n[WhiteElo \"2850\"]\n"
    "[TimeControl \"180+2\"]\n\n1. e4 {[%clk 0:02:59]} e5 2. Qh5 Nc6 (2... Nf6 3. Qxe5+) 3. Bc4 "
    "Nf6 $4 4. Qxf7# 1-0\n\n[FEN \"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. b8=N {[%eval 1.5]} "
    "Kd7 2. Kd2 {[%eval #3]} 1/2-1/2\n";

enum { FZ_QUERY_GAMES = 2 };

/* Runs q over the games with visitor v and reader flags; with want, the results must be those
 * of want (the visitors for q, pgn_query_visitor_for and pgn_query_visitor_fast, against the full
 * one). */
static void fz_query_run(const pgn_query *q, const pgn_visitor *v, uint32_t flags,
                         pgn_query_result *want) {
    pgn_query_result got[FZ_QUERY_GAMES];
    pgn_query_matcher *m;
    pgn_reader *r;
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = flags;
    size_t k = 0;
    if (pgn_query_matcher_new(&m, q, NULL) != PGN_OK) {
        return;
    }
    if (pgn_reader_new_mem(&r, &ro, fz_query_games, sizeof fz_query_games - 1) == PGN_OK) {
        while (pgn_reader_visit(r, v, m) == PGN_OK && k < FZ_QUERY_GAMES) {
            pgn_query_result *res = &got[k++];
            FUZZ_CHECK(pgn_query_matcher_result(m, res) == PGN_OK, "matcher status");
            FUZZ_CHECK(res->matched == 0 || res->matched == 1, "matched is not a boolean");
            FUZZ_CHECK(!want || (res->matched == want[k - 1].matched &&
                                 res->first_ply == want[k - 1].first_ply),
                       "pgn_query_visitor_for or _fast and pgn_query_visitor disagree");
        }
        pgn_reader_free(r);
    }
    pgn_query_matcher_free(m);
    if (!want && k == FZ_QUERY_GAMES) {
        fz_query_run(q, pgn_query_visitor_for(q), pgn_query_reader_flags(q), got);
        uint32_t fast = 0;
        const pgn_visitor *fv = pgn_query_visitor_fast(q, &fast);
        fz_query_run(q, fv, fast, got);
    }
}

int FUZZ_ENTRY(const uint8_t *data, size_t size) {
    pgn_query *q = NULL, *q2 = NULL;
    pgn_query_error e;
    pgn_status st = pgn_query_compile(&q, (const char *)data, size, NULL, &e);
    if (st != PGN_OK) {
        FUZZ_CHECK(st == PGN_E_UNEXPECTED_TOKEN || st == PGN_E_LIMIT || st == PGN_E_NOMEM,
                   "an unexpected status");
        FUZZ_CHECK(st != PGN_E_UNEXPECTED_TOKEN || (e.column >= 1 && e.column <= size + 1),
                   "an error outside the expression");
        return 0;
    }
    size_t n = pgn_query_print(q, NULL, 0);
    char *a = malloc(n + 1), *b = malloc(n + 1);
    if (a && b) {
        pgn_query_print(q, a, n + 1);
        st = pgn_query_compile(&q2, a, n, NULL, &e);
        if (st != PGN_OK) {
            fprintf(stderr, "canonical form '%s' refused at %u: %s\n", a, e.column, e.message);
            FUZZ_FAIL("the canonical form does not compile");
        } else {
            FUZZ_CHECK(pgn_query_print(q2, b, n + 1) == n && memcmp(a, b, n) == 0,
                       "the canonical form is not a fixed point");
        }
    }
    fz_query_run(q, pgn_query_visitor(), pgn_query_reader_flags(q), NULL);
    free(a);
    free(b);
    pgn_query_free(q2);
    pgn_query_free(q);
    return 0;
}
