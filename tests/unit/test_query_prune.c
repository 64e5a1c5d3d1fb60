/* SPDX-License-Identifier: MIT */
/* The shortcuts of the matcher (docs/query.md, "Evaluation") change no answer: the "can no
 * longer match" exits, and the groups not tested again after a move that left the squares they
 * read (or the material) unchanged. Each expression is run with them and without them
 * (pgn_query.noprune, an internal switch) over
 * TWIC 1427 and 1428 and the first games of the GNU Chess book, and the two must select the same
 * games with the same first matching ply. The moves the matcher was shown are counted too: the
 * pruned run must have been shown fewer, so that every exit listed here is really taken. */
#include <pgnkit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/query/query_internal.h"
#include "harness.h"
#include "testutil.h"

/* The query visitor with a count of the moves it was shown. */
typedef struct counted {
    pgn_query_matcher *m;
    unsigned long moves;
} counted;

static pgn_flow c_begin(void *u, pgn_loc at) {
    return pgn_query_visitor()->begin_game(((counted *)u)->m, at);
}
static pgn_flow c_tag(void *u, pgn_str name, pgn_str value) {
    return pgn_query_visitor()->tag(((counted *)u)->m, name, value);
}
static pgn_flow c_end_tags(void *u, const pgn_pos *start) {
    return pgn_query_visitor()->end_tags(((counted *)u)->m, start);
}
static pgn_flow c_move(void *u, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    counted *c = u;
    c->moves++;
    return pgn_query_visitor()->move(c->m, before, mv, san, at);
}
static pgn_flow c_comment(void *u, pgn_str text) {
    return pgn_query_visitor()->comment(((counted *)u)->m, text);
}
static pgn_flow c_nag(void *u, unsigned nag) {
    return pgn_query_visitor()->nag(((counted *)u)->m, nag);
}
static pgn_flow c_begin_var(void *u) {
    return pgn_query_visitor()->begin_variation(((counted *)u)->m);
}
static pgn_flow c_end_var(void *u) {
    return pgn_query_visitor()->end_variation(((counted *)u)->m);
}
static pgn_flow c_end_game(void *u, pgn_result result, const pgn_game_summary *sum) {
    return pgn_query_visitor()->end_game(((counted *)u)->m, result, sum);
}
static const pgn_visitor counting = {c_begin, c_tag,       c_end_tags, c_move,    c_comment,
                                     c_nag,   c_begin_var, c_end_var,  c_end_game};

typedef struct outcome {
    unsigned char *hit;
    uint32_t *ply;
    size_t n, cap;
    unsigned long moves, matched;
} outcome;

/* Runs expr over pgn (pruned unless noprune) into *o; 0 on a failure (reported). */
static int run(const char *expr, const char *pgn, size_t len, int noprune, outcome *o) {
    pgn_query *q;
    pgn_query_error e;
    if (pgn_query_compile(&q, expr, strlen(expr), NULL, &e) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "'%s' does not compile: %s", expr, e.message);
        return 0;
    }
    q->noprune = (uint8_t)noprune;
    counted c = {NULL, 0};
    pgn_reader *r = NULL;
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = pgn_query_reader_flags(q);
    o->n = o->matched = 0;
    int ok = pgn_query_matcher_new(&c.m, q, NULL) == PGN_OK &&
             pgn_reader_new_mem(&r, &ro, pgn, len) == PGN_OK;
    while (ok && pgn_reader_visit(r, &counting, &c) == PGN_OK) {
        pgn_query_result res;
        if (o->n == o->cap) {
            o->cap = o->cap ? o->cap * 2 : 1024;
            unsigned char *h = realloc(o->hit, o->cap);
            uint32_t *p = h ? realloc(o->ply, o->cap * sizeof *p) : NULL;
            o->hit = h ? h : o->hit;
            o->ply = p ? p : o->ply;
            ok = h && p;
        }
        ok = ok && pgn_query_matcher_result(c.m, &res) == PGN_OK;
        if (ok) {
            o->hit[o->n] = (unsigned char)res.matched;
            o->ply[o->n++] = res.matched ? res.first_ply : 0;
            o->matched += res.matched;
        }
    }
    if (!ok) {
        harness_fail(__FILE__, __LINE__, "'%s': out of memory or a read failure", expr);
    }
    o->moves = c.moves;
    pgn_reader_free(r);
    pgn_query_matcher_free(c.m);
    pgn_query_free(q);
    return ok;
}

/* Sequences, persist and position groups whose exits rest on pawns (cones, counts), material,
 * castling rights and the ply of an opening. */
static const char *const exprs[] = {
    "Pd4 then Pd5",
    "pd5 then pd4",
    "Pe4 next pe5 next Nf3",
    "move e4 then Pd4 then pattern \"*/*/*/*/3pP3/*/*/*\"",
    "material \"KRPkr\" then material \"KRkr\"",
    "count(Q) >= 1 then count(Qq) = 0 then count(R) >= 2",
    "opening \"e4 c5\" then Pd4",
    "castles then Pf5",
    "persist 3 Pd5",
    "persist 2 (Pe4 and pe5)",
    "persist 4 material \"KRPkr\"",
    "Pc4 then Pc5 and Pd4 then Pd5",
    "not (Pd4 then Pd5)",
    "at (Pd4 and Pe5)",
    "fen \"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\" then Pd4",
    "pattern \"*/*/*/*/3pP3/*/*/*\"",
    "persist 6 (Bg2 and Kg1)",
};
/* the same answers, without an exit to show (the groups skipped, not the moves) */
static const char *const same[] = {
    "at (Nf3 and Nc3 and btm)",
    "flip pattern \"?????rk?/?????ppp/*/*/*/*/*/*\"",
    "at (Nf3 and not Bc4) or persist 3 (Nc3 or pc5)",
    "in variations (Pd4 and ne5)",
    "persist 2 pattern \"*/*/*/*/*/*/*/*\" and (pattern \"*/*/*/*/*/*/*/*\" then Pd4)",
    "move e4 next move e5 then Nf3 next nc6",
    "wtm then check next btm then at (capture and Qd4)",
    "flip Pd5 then flip pd4",
    "persist 2 Bb5",
    "persist 3 imbalance \"vP\"",
    "count(B) = 2 and at (pattern \"*/*/*/*/*/*/5PPP/6K1\" and check)",
    /* groups that hold only where their pawns stand, passed over while one is absent */
    "at (Pd4 and Pe5) and at (pd5 and Pc4)",
    "at (Pd4 and pe5) or pattern \"*/*/*/2pP4/*/*/*/*\"",
    "at (Pe4 and wtm) and Pd4",
    "Pa4 and Pb4 and Pc4 and Pd4 and Pe4",
    "at (Pe4 and pd5)",
    "Ph4 or pa5",
};

static void compare(const char *what, const char *pgn, size_t len) {
    outcome a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    size_t ne = sizeof exprs / sizeof exprs[0], ns = sizeof same / sizeof same[0];
    for (size_t i = 0; i < ne + ns; i++) {
        const char *e = i < ne ? exprs[i] : same[i - ne];
        if (!run(e, pgn, len, 0, &a) || !run(e, pgn, len, 1, &b)) {
            continue;
        }
        CHECK_EQ_U64(a.n, b.n);
        size_t diff = 0;
        for (size_t k = 0; k < a.n && k < b.n; k++) {
            diff += a.hit[k] != b.hit[k] || a.ply[k] != b.ply[k];
        }
        CHECK_EQ_U64(diff, 0);
        CHECK(i < ne ? a.moves < b.moves : a.moves <= b.moves); /* the exits were taken */
        printf("%s: '%s': %lu of %zu games; moves shown %lu pruned, %lu not\n", what, e, a.matched,
               a.n, a.moves, b.moves);
    }
    free(a.hit);
    free(a.ply);
    free(b.hit);
    free(b.ply);
}

int main(void) {
    static const char *const files[] = {"corpus/big/twic/twic1427.pgn.gz",
                                        "corpus/big/twic/twic1428.pgn.gz"};
    buf b = {0};
    for (size_t i = 0; i < 2; i++) {
        if (buf_load_shared(files[i], &b)) {
            CHECK(slice_games(b.p, b.len, 1000) < b.len); /* a real file */
            compare(files[i], b.p, b.len);
        }
        buf_free(&b);
    }
    if (buf_load_shared("corpus/big/gnuchess-book_1.02.pgn.gz", &b)) {
        size_t len = slice_games(b.p, b.len, 4000);
        compare("gnuchess book, 4000 games", b.p, len);
    }
    buf_free(&b);
    return harness_finish();
}
