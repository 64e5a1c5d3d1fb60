/* SPDX-License-Identifier: MIT */
/* Fuzz target: reader -> writer -> reader (STYLE C11, cmark's roundtrip). Every sound game is
 * exported (A), A is read back into a second tree, which must have the same moves, NAGs,
 * variations, start position and result, and whose export must be A again (fmt is idempotent). */
#include "fuzz_common.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

/* The same start: board, side, castling rights, variant, pockets and check counters. */
static int rt_same_start(const pgn_pos *x, const pgn_pos *y) {
    return memcmp(x->board, y->board, 64) == 0 && x->side == y->side && x->castle == y->castle &&
           x->variant == y->variant && memcmp(x->pocket, y->pocket, sizeof x->pocket) == 0 &&
           memcmp(x->checks, y->checks, sizeof x->checks) == 0;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size) {
    pgn_reader *r = NULL, *r2 = NULL;
    pgn_writer *w = NULL;
    pgn_game *g = NULL, *g2 = NULL;
    pgn_membuf a = {0}, b = {0};
    fz_diags d;
    pgn_reader_opts ro;
    fz_diag_opts(&ro, &d);
    if (pgn_reader_new_mem(&r, NULL, data, size) != PGN_OK || pgn_game_new(&g, NULL) != PGN_OK ||
        pgn_game_new(&g2, NULL) != PGN_OK ||
        pgn_writer_new(&w, NULL, pgn_membuf_write, &a) != PGN_OK) {
        goto done;
    }
    pgn_status st;
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        if (pgn_reader_summary(r)->broken) {
            continue;
        }
        a.len = 0;
        FUZZ_CHECK(pgn_writer_write(w, g) == PGN_OK, "write A");
        pgn_reader_free(r2);
        r2 = NULL;
        if (pgn_reader_new_mem(&r2, &ro, a.ptr, a.len) != PGN_OK) {
            break;
        }
        FUZZ_CHECK(pgn_reader_next(r2, g2) == PGN_OK, "A does not re-read as a game");
        FUZZ_CHECK(!pgn_reader_summary(r2)->broken, "A re-reads broken");
        fz_check_no_diags(&d, "A re-reads with diagnostics");
        FUZZ_CHECK(fz_same_tree(g, g2), "the re-read tree differs");
        FUZZ_CHECK(pgn_game_result(g) == pgn_game_result(g2) ||
                       (pgn_game_result(g) == PGN_RESULT_NONE &&
                        pgn_game_result(g2) == PGN_RESULT_UNKNOWN),
                   "the result differs");
        FUZZ_CHECK(rt_same_start(pgn_game_start(g), pgn_game_start(g2)),
                   "the start position differs");
        size_t alen = a.len;
        pgn_membuf keep = a;
        a.ptr = NULL;
        a.len = a.cap = 0;
        FUZZ_CHECK(pgn_writer_write(w, g2) == PGN_OK, "write B");
        b = a;
        a = keep;
        FUZZ_CHECK(b.len == alen && memcmp(a.ptr, b.ptr, alen) == 0, "fmt(fmt(x)) != fmt(x)");
        FUZZ_CHECK(pgn_reader_next(r2, g2) == PGN_END, "A re-reads as more than one game");
        free(b.ptr);
        b.ptr = NULL;
    }
done:
    pgn_reader_free(r);
    pgn_reader_free(r2);
    pgn_writer_free(w);
    pgn_game_free(g);
    pgn_game_free(g2);
    free(a.ptr);
    return 0;
}
