/* SPDX-License-Identifier: MIT */
/* Whole and chunked reads give the same events (STYLE C7: the reader handles any chunk boundary).
 * Each text is read from memory, then through a read callback that hands out 1, 2 or 3 bytes at a
 * time, as much as asked, or random sizes (a fixed seed), so that chunk boundaries cut games,
 * tokens, comments and the movetext scan's 64-byte blocks anywhere; every callback is logged as a
 * line of text (fuzz/fuzz_log.h: games, tags, moves with their place and position, comments,
 * NAGs, variations, summaries, diagnostics with line, column and game number) for each kind of
 * reading: no visitor, without boards, the tree builder (its games written out), a loud visitor,
 * one under PGN_READ_MOVE_AFTER, and under PGN_READ_MOVE_GATE (select's reading) one whose gate
 * opens and closes and one whose gate stays closed, which answer CONTINUE, SKIP or STOP at
 * different moves. The logs must be identical. Inputs: six slices of 60 games of TWIC 1427, every
 * corpus/edge file and the reader's fuzz regressions; or the files named on the command line. */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <stdlib.h>

#include "../../fuzz/fuzz_log.h"

/* The line of log holding byte at, for a failure's message. */
static void line_at(const pgn_membuf *log, size_t at, const char **p, int *n) {
    size_t a = at, e = at;
    while (a > 0 && log->ptr[a - 1] != '\n') {
        a--;
    }
    while (e < log->len && log->ptr[e] != '\n') {
        e++;
    }
    *p = log->ptr + a;
    *n = (int)(e - a > 300 ? 300 : e - a);
}

static const char *step_name(size_t step, char *tmp, size_t cap) {
    if (step == SIZE_MAX) {
        return "random sizes";
    }
    if (step == 0) {
        return "as much as asked";
    }
    snprintf(tmp, cap, "%zu bytes a read", step);
    return tmp;
}

/* text read whole and in each chunking, as each kind: the same log. Returns the failures. */
static unsigned compare(const char *what, const char *text, size_t len, unsigned seed,
                        int few_bytes) {
    static const size_t steps[] = {1, 2, 3, 0, SIZE_MAX};
    unsigned failed = 0;
    for (int k = 0; k < FZ_KINDS; k++) {
        pgn_membuf whole;
        fz_log_read(&whole, text, len, NULL, (enum fz_kind)k, FZ_WHOLE, seed, 0);
        for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
            if (steps[s] && steps[s] < 4 && !few_bytes && (unsigned)steps[s] != 1 + seed % 3) {
                continue; /* a big text: one of the three */
            }
            pgn_membuf part;
            fz_log_read(&part, text, len, NULL, (enum fz_kind)k, steps[s], seed, seed * 31u + s);
            size_t i = 0;
            while (i < whole.len && i < part.len && whole.ptr[i] == part.ptr[i]) {
                i++;
            }
            if (i == whole.len && i == part.len) {
                harness_counts.passed++;
            } else {
                const char *a, *b;
                int an, bn;
                char tmp[48];
                line_at(&whole, i, &a, &an);
                line_at(&part, i, &b, &bn);
                harness_fail(__FILE__, __LINE__, "%s, %s, %s: whole '%.*s', chunked '%.*s'", what,
                             fz_kind_names[k], step_name(steps[s], tmp, sizeof tmp), an, a, bn, b);
                failed++;
            }
            pgn_membuf_free(&part);
        }
        pgn_membuf_free(&whole);
    }
    return failed;
}

/* ---- the inputs ---- */

static void compare_file(const char *path, unsigned seed) {
    size_t len = 0;
    char *text = buf_read_file(path, &len);
    if (!text) {
        harness_fail(__FILE__, __LINE__, "cannot read %s", path);
        return;
    }
    compare(path, text, len, seed, len < (1u << 20));
    free(text);
}

/* One file of a folder (ctx: the seed, one more for each file). */
static unsigned compare_one(const char *path, void *ctx) {
    unsigned *seed = ctx;
    compare_file(path, (*seed)++);
    return 1;
}

/* Every file of dir (its subfolders too) whose name does not start with '.'. */
static unsigned compare_dir(const char *dir, unsigned seed) {
    return tu_each_file(dir, NULL, 1, compare_one, &seed);
}

/* Slices of games (first to first + count) of a big text. */
static void compare_slices(const char *what, const buf *b, uint64_t count) {
    size_t at = 0;
    for (unsigned k = 0; at < b->len && k < 6; k++) {
        size_t end = at + slice_games(b->p + at, b->len - at, count);
        char name[96];
        snprintf(name, sizeof name, "%s, slice %u", what, k);
        compare(name, b->p + at, end - at, k, 1);
        /* the next slice some games on */
        at = end + slice_games(b->p + end, b->len - end, 400);
    }
}

int main(int argc, char **argv) {
    if (argc > 1) { /* the files named; SEED=N picks the visitors' answers */
        for (int i = 1; i < argc; i++) {
            compare_file(argv[i],
                         (unsigned)strtoul(getenv("SEED") ? getenv("SEED") : "1", NULL, 10));
        }
        return harness_finish();
    }
    buf b = {0};
    if (buf_load_shared("corpus/big/twic/twic1427.pgn.gz", &b)) {
        compare_slices("twic1427", &b, 60);
    }
    buf_free(&b);
    unsigned n = compare_dir(harness_shared("corpus/edge"), 1);
    CHECK(n > 10);
    n = compare_dir("tests/fuzz-regress/reader", 1000);
    CHECK(n > 10);
    return harness_finish();
}
