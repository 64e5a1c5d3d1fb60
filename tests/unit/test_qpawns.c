/* SPDX-License-Identifier: MIT */
/* The pawn tracker of the matcher (src/query/qpawns.c) against the full replay: at every ply of
 * the main lines of TWIC 1427 and the first 4000 games of the GNU Chess book, the pawns it
 * followed from the SAN text alone are those of the position the reader reached by resolving
 * every move; and hand-made lines for en passant, promotions, double steps and the moves it must
 * refuse. */
#include <pgnkit.h>

#include <stdio.h>
#include <string.h>

#include "../../src/query/query_internal.h"
#include "harness.h"
#include "testutil.h"

typedef struct tally {
    qpawns t;
    unsigned long plies, same, lost;
} tally;

static pgn_flow t_end_tags(void *u, const pgn_pos *start) {
    tally *c = u;
    if (start) {
        pgnk_qpawns_start(&c->t, start);
    } else {
        c->t.ok = 0;
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow t_move(void *u, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    tally *c = u;
    (void)mv;
    (void)at;
    if (!before || !c->t.ok || before->variant != PGN_VARIANT_STANDARD) {
        return PGN_FLOW_CONTINUE;
    }
    c->plies++;
    c->same += c->t.p[PGN_WHITE] == (before->by_color[PGN_WHITE] & before->by_type[PGN_PAWN]) &&
               c->t.p[PGN_BLACK] == (before->by_color[PGN_BLACK] & before->by_type[PGN_PAWN]) &&
               c->t.side == before->side;
    if (!pgnk_qpawns_play(&c->t, san.ptr, san.len)) {
        c->lost++;
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow t_begin_var(void *u) {
    (void)u;
    return PGN_FLOW_SKIP;
}

static const pgn_visitor tv = {NULL, NULL, t_end_tags, t_move, NULL, NULL, t_begin_var, NULL, NULL};

static void replay(const char *what, const char *pgn, size_t len) {
    tally c;
    memset(&c, 0, sizeof c);
    pgn_reader *r = NULL;
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    CHECK(pgn_reader_new_mem(&r, &ro, pgn, len) == PGN_OK);
    while (r && pgn_reader_visit(r, &tv, &c) == PGN_OK) {
    }
    pgn_reader_free(r);
    CHECK(c.plies > 100000);
    CHECK_EQ_U64(c.same, c.plies);
    CHECK_EQ_U64(c.lost, 0);
    printf("%s: %lu plies, pawns as the full replay at %lu\n", what, c.plies, c.same);
}

/* Plays the moves of line from the standard start; returns the pawns' squares of both colours. */
static int line(const char *moves, uint64_t *w, uint64_t *b) {
    pgn_pos start;
    pgn_pos_init(&start);
    qpawns t;
    pgnk_qpawns_start(&t, &start);
    for (const char *s = moves; *s;) {
        size_t n = strcspn(s, " ");
        if (!pgnk_qpawns_play(&t, s, n)) {
            return 0;
        }
        s += n + (s[n] == ' ');
    }
    *w = t.p[PGN_WHITE];
    *b = t.p[PGN_BLACK];
    return 1;
}

#define SQ(f, r) (UINT64_C(1) << ((r - 1) * 8 + (f - 'a')))

static void hand_made(void) {
    uint64_t w, b;
    /* en passant: the d5 pawn taken on d6 */
    CHECK(line("e4 Nf6 e5 d5 exd6", &w, &b));
    CHECK(w & SQ('d', 6));
    CHECK(!(b & SQ('d', 5)) && !(w & SQ('e', 5)));
    /* not en passant a ply later: exd6 now has nothing to take (no pawn on d6) */
    CHECK(line("e4 Nf6 e5 d5 Nc3 Nc6 exd6", &w, &b)); /* followed; the full replay refuses it */
    /* a piece capture removes a pawn; castling moves none */
    CHECK(line("e4 d5 Bb5+ c6 Bxc6+ Nxc6 Nf3 e6 O-O Bd6", &w, &b));
    CHECK(!(b & SQ('c', 6)) && (b & SQ('d', 5)) && (w & SQ('e', 4)));
    /* a promotion with capture; the promoted piece is no pawn */
    CHECK(line("h4 g5 hxg5 h6 gxh6 Bg7 hxg7 Nf6 gxh8=Q+", &w, &b));
    CHECK(!(w & ~(SQ('a', 2) | SQ('b', 2) | SQ('c', 2) | SQ('d', 2) | SQ('e', 2) | SQ('f', 2) |
                  SQ('g', 2))));
    /* moves no pawn can make */
    CHECK(!line("e5", &w, &b));         /* a triple step */
    CHECK(!line("e4 e5 e5", &w, &b));   /* onto a pawn */
    CHECK(!line("e4 d5 e6", &w, &b));   /* a double step off the fourth rank */
    CHECK(!line("e4 e5 dxe5", &w, &b)); /* no pawn on d4 */
    CHECK(!line("Ng1-f3", &w, &b));     /* long algebraic is not read here */
    CHECK(!line("e4 e5 Sf3", &w, &b));  /* another language */
}

int main(void) {
    hand_made();
    buf b = {0};
    if (buf_load_shared("corpus/big/twic/twic1427.pgn.gz", &b)) {
        replay("twic1427", b.p, b.len);
    }
    buf_free(&b);
    if (buf_load_shared("corpus/big/gnuchess-book_1.02.pgn.gz", &b)) {
        replay("gnuchess book, 4000 games", b.p, slice_games(b.p, b.len, 4000));
    }
    buf_free(&b);
    return harness_finish();
}
