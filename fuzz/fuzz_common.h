/* SPDX-License-Identifier: MIT */
/* Shared helpers of the fuzz targets (STYLE C11): a read callback that hands out the input in
 * chunks of a chosen size, a diagnostic counter (output goes to the library's pgn_membuf),
 * and FUZZ_FAIL, which aborts under libFuzzer and becomes a test failure when
 * tests/unit/test_fuzz_regress.c replays the inputs (it defines FUZZ_FAIL and FUZZ_ENTRY before
 * including a target). */
#ifndef PGNKIT_FUZZ_COMMON_H
#define PGNKIT_FUZZ_COMMON_H

#include <pgnkit.h>

#include "../src/base/utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_FAIL
#define FUZZ_FAIL(msg)                                                                             \
    do {                                                                                           \
        fprintf(stderr, "fuzz invariant broken: %s (%s:%d)\n", (msg), __FILE__, __LINE__);         \
        abort();                                                                                   \
    } while (0)
#endif

#define FUZZ_CHECK(cond, msg)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            FUZZ_FAIL(msg);                                                                        \
        }                                                                                          \
    } while (0)

typedef struct fz_src {
    const uint8_t *p;
    size_t len, pos, chunk; /* chunk 0: as much as asked */
} fz_src;

static inline ptrdiff_t fz_src_read(void *ctx, void *out, size_t cap) {
    fz_src *s = ctx;
    size_t n = s->len - s->pos;
    if (s->chunk && n > s->chunk) {
        n = s->chunk;
    }
    if (n > cap) {
        n = cap;
    }
    if (n) {
        memcpy(out, s->p + s->pos, n);
    }
    s->pos += n;
    return (ptrdiff_t)n;
}

/* Counts diagnostics by severity; warnings leave out the two quirks the export keeps by design
 * (counted apart): W_NULL_MOVE (a null move has no standard form, the writer writes "--") and
 * W_TAG_NAME (a tag name such as White-Elo is written as read, digest T14), W_BAD_COMMAND (a
 * malformed [%...] command stays comment text) and W_VARIANT (a Variant tag such as "wild/0" is
 * kept as written) and W_RESULT_CONTRADICTS (the result read is kept even where the final position
 * contradicts it): the data they point at is kept, so they are reported again. */
typedef struct fz_diags {
    unsigned long errors, warnings, null_moves;
    pgn_diag first;
} fz_diags;

static inline void fz_on_diag(void *ctx, const pgn_diag *d) {
    fz_diags *c = ctx;
    FUZZ_CHECK(pgnk_utf8_valid(d->token, strlen(d->token)), "a diagnostic's token is not UTF-8");
    if ((d->code == PGN_W_NULL_MOVE || d->code == PGN_W_TAG_NAME || d->code == PGN_W_BAD_COMMAND ||
         d->code == PGN_W_VARIANT || d->code == PGN_W_RESULT_CONTRADICTS) &&
        d->severity != PGN_SEV_ERROR) {
        c->null_moves++;
        return;
    }
    if (c->errors + c->warnings == 0) {
        c->first = *d;
    }
    if (d->severity == PGN_SEV_ERROR) {
        c->errors++;
    } else {
        c->warnings++;
    }
}

/* Reader options with nothing set but the diagnostics, counted in *d (zeroed). */
static inline void fz_diag_opts(pgn_reader_opts *ro, fz_diags *d) {
    memset(d, 0, sizeof *d);
    memset(ro, 0, sizeof *ro);
    ro->on_diag = fz_on_diag;
    ro->diag_ctx = d;
}

/* Written PGN read back must give no diagnostic (the first one is printed when it does). */
static inline void fz_check_no_diags(const fz_diags *d, const char *msg) {
    if (d->errors + d->warnings) {
        fprintf(stderr, "re-read diagnostic %s at %u:%u '%s'\n", pgn_status_name(d->first.code),
                d->first.at.line, d->first.at.column, d->first.token);
    }
    FUZZ_CHECK(d->errors + d->warnings == 0, msg);
}

/* Same move tree (moves, NAGs, shape), walked with an explicit stack of node pairs. */
static inline int fz_same_tree(const pgn_game *a, const pgn_game *b) {
    const pgn_node **stack = NULL;
    size_t n = 0, cap = 0;
    int same = 1;
    const pgn_node *x = pgn_game_root(a), *y = pgn_game_root(b);
    for (;;) {
        if (!x || !y) {
            same = same && x == y;
        } else {
            same = same && pgn_node_move(x) == pgn_node_move(y) &&
                   pgn_node_nag_count(x) == pgn_node_nag_count(y);
            for (size_t i = 0; same && i < pgn_node_nag_count(x); i++) {
                same = pgn_node_nag(x, i) == pgn_node_nag(y, i);
            }
            if (same && n + 2 > cap) {
                cap = cap ? cap * 2 : 64;
                const pgn_node **p = realloc(stack, cap * 2 * sizeof *stack);
                if (!p) {
                    break;
                }
                stack = p;
            }
            if (same) {
                stack[2 * n] = pgn_node_sibling(x);
                stack[2 * n + 1] = pgn_node_sibling(y);
                stack[2 * n + 2] = pgn_node_child(x);
                stack[2 * n + 3] = pgn_node_child(y);
                n += 2;
            }
        }
        if (!same || n == 0) {
            break;
        }
        n--;
        x = stack[2 * n];
        y = stack[2 * n + 1];
    }
    free(stack);
    return same;
}

#endif
