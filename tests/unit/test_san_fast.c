/* SPDX-License-Identifier: MIT */
/* The SAN reader's fast path (san_fast.c) against its general path (san_read.c, through
 * PGN_SAN_NO_FAST, which generates the legal moves and matches them), on real and random play:
 *  1. every move token of corpus files (TWIC 1427, TCEC Chess960 finals, FICS, the gnuchess book,
 *     edge/ files with variants, Chess960, null moves and malformed moves), read with its
 *     position before, parses to the same status, move and warnings both ways, under each of
 *     the flag sets 0, PGN_SAN_NO_VERIFY, PGN_SAN_STRICT and PGN_SAN_AUTO_QUEEN;
 *  2. every legal move of positions taken from those games and of random games played on from
 *     them (many checks, pins, promotions, odd castlings): its SAN as pgn_san_write writes it
 *     (the writer finds disambiguation and suffix by move generation) parses back to the same
 *     move without warnings, on both paths;
 *  3. every move of those games played both ways: pgn_pos_play_unkeyed (its branch-free common
 *     move) leaves the same position as pgn_pos_play (square by square, with keys), key aside;
 *  4. every move token read and played in one pass (pgnk_san_play, the reader's path when nobody
 *     sees the moves), told the side to move is in check or not, or not told: the same move and
 *     position as pgn_san_parse then pgn_pos_play_unkeyed whenever it plays (for nine in ten
 *     canonical tokens of the big standard files at least), the position untouched when it does
 *     not, and the check state it reports that of the position after the move.
 * A missing corpus file is a failure, never a skip. */
#include "harness.h"
#include "testutil.h"

#include <pgnkit/chess.h>
#include <pgnkit/reader.h>

#include "../../src/chess/san_play.h"

#include <stdlib.h>

static const uint32_t flag_sets[] = {0, PGN_SAN_NO_VERIFY, PGN_SAN_STRICT, PGN_SAN_AUTO_QUEEN};

typedef struct tally {
    const char *file;
    uint64_t tokens, fast_ok, positions, written, played, one_pass, mismatches;
    uint64_t rng;
} tally;

static uint64_t next_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void mismatch(tally *t, const pgn_pos *pos, const char *what, const char *san, size_t n) {
    char fen[PGN_FEN_MAX];
    pgn_fen_write(pos, 0, fen, sizeof fen);
    if (t->mismatches++ < 10) {
        harness_fail(t->file, 0, "%s: \"%.*s\" in %s", what, (int)n, san, fen);
    } else {
        harness_counts.failed++;
    }
}

/* 1: a token both ways under every flag set. */
static void compare_token(tally *t, const pgn_pos *pos, const char *san, size_t n) {
    for (size_t k = 0; k < sizeof flag_sets / sizeof flag_sets[0]; k++) {
        pgn_san_result a = {0, 0}, b = {0, 0};
        pgn_status sa = pgn_san_parse(pos, san, n, flag_sets[k], &a);
        pgn_status sb = pgn_san_parse(pos, san, n, flag_sets[k] | PGN_SAN_NO_FAST, &b);
        if (sa != sb || a.move != b.move || a.warnings != b.warnings) {
            mismatch(t, pos, "fast and general paths differ", san, n);
        }
        t->fast_ok += k == 0 && sa == PGN_OK && a.warnings == 0;
    }
    t->tokens++;
}

static void one_pass(tally *t, const pgn_pos *before, pgn_str san, int count);

/* 2: every legal move of pos, written and read back both ways (and in one pass, 4). */
static void written_moves(tally *t, const pgn_pos *pos) {
    pgn_movelist l;
    pgn_pos_legal_moves(pos, &l);
    for (uint32_t i = 0; i < l.count; i++) {
        char san[PGN_SAN_MAX];
        size_t n = pgn_san_write(pos, l.moves[i], san);
        for (uint32_t nf = 0; nf <= PGN_SAN_NO_FAST; nf += PGN_SAN_NO_FAST) {
            pgn_san_result r = {0, 0};
            pgn_status st = pgn_san_parse(pos, san, n, nf, &r);
            if (st != PGN_OK || r.move != l.moves[i] || r.warnings != 0) {
                mismatch(t, pos,
                         nf ? "general path misreads written SAN"
                            : "fast path misreads written SAN",
                         san, n);
            }
        }
        pgn_str text = {san, n};
        one_pass(t, pos, text, 0);
        t->written++;
    }
    t->positions++;
}

/* 2: a random game of up to 40 plies from pos, every position's moves checked. */
static void random_game(tally *t, const pgn_pos *start) {
    pgn_pos q = *start;
    for (int ply = 0; ply < 40; ply++) {
        pgn_movelist l;
        pgn_pos_legal_moves(&q, &l);
        if (l.count == 0) {
            return;
        }
        written_moves(t, &q);
        pgn_pos_play(&q, l.moves[next_rand(&t->rng) % l.count]);
    }
}

static int same_pos(const pgn_pos *a, const pgn_pos *b) {
    return memcmp(a->by_color, b->by_color, sizeof a->by_color) == 0 &&
           memcmp(a->by_type, b->by_type, sizeof a->by_type) == 0 &&
           memcmp(a->board, b->board, sizeof a->board) == 0 && a->castle == b->castle &&
           a->promoted == b->promoted && a->side == b->side && a->ep == b->ep &&
           a->halfmove == b->halfmove && a->fullmove == b->fullmove &&
           memcmp(a->pocket, b->pocket, sizeof a->pocket) == 0 &&
           memcmp(a->checks, b->checks, sizeof a->checks) == 0 && a->key == b->key &&
           a->variant == b->variant && a->kingless == b->kingless && a->chess960 == b->chess960;
}

/* 3: the same position after mv both ways, every field but the key. */
static void play_both(tally *t, const pgn_pos *before, pgn_move mv, pgn_str san) {
    pgn_pos a = *before, b = *before;
    pgn_pos_play(&a, mv);
    pgn_pos_play_unkeyed(&b, mv);
    int same = b.key == 0;
    a.key = 0;
    if (!same || !same_pos(&a, &b)) {
        mismatch(t, before, "keyed and unkeyed play differ", san.ptr, san.len);
    }
    t->played++;
}

/* 4: the token read and played in one pass, with the check state unknown and known; count: a
 * token of the file (tally.one_pass counts those it played). */
static void one_pass(tally *t, const pgn_pos *before, pgn_str san, int count) {
    pgn_san_result r = {0, 0};
    pgn_status st = pgn_san_parse(before, san.ptr, san.len, 0, &r);
    pgn_pos want = *before;
    if (st == PGN_OK) {
        pgn_pos_play_unkeyed(&want, r.move);
    }
    int in_check = pgn_pos_in_check(before);
    for (int told = 0; told < 2; told++) {
        pgn_pos q = *before;
        int safe = told && !in_check;
        pgn_move mv = pgnk_san_play(&q, san.ptr, san.len, &safe);
        int ok;
        if (mv == PGN_MOVE_NONE) {
            ok = same_pos(&q, before) && safe == 0; /* (pgn_san_parse's general path decides) */
        } else {
            ok = st == PGN_OK && r.warnings == 0 && mv == r.move && same_pos(&q, &want) &&
                 safe == !pgn_pos_in_check(&q);
        }
        if (!ok) {
            mismatch(t, before,
                     told ? "one-pass play (check state told) differs" : "one-pass play differs",
                     san.ptr, san.len);
        }
        t->one_pass += count && told && mv != PGN_MOVE_NONE;
    }
}

static pgn_flow on_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    tally *t = user;
    (void)at;
    if (before == NULL) {
        return PGN_FLOW_CONTINUE;
    }
    compare_token(t, before, san.ptr, san.len);
    play_both(t, before, mv, san);
    one_pass(t, before, san, 1);
    if (t->tokens % 97 == 0) {
        written_moves(t, before);
        if (t->tokens % (97 * 8) == 0) {
            random_game(t, before);
        }
    }
    return PGN_FLOW_CONTINUE;
}

static void run_file(const char *rel, uint64_t max_games, uint64_t min_tokens) {
    buf b = {0};
    if (!buf_load_shared(rel, &b)) {
        return;
    }
    size_t len = max_games ? slice_games(b.p, b.len, max_games) : b.len;
    tally t = {rel, 0, 0, 0, 0, 0, 0, 0, 0x9e3779b97f4a7c15u};
    pgn_visitor v;
    memset(&v, 0, sizeof v);
    v.move = on_move;
    pgn_reader *r = NULL;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, b.p, len), PGN_OK);
    pgn_status st = PGN_OK;
    while (r && (st = pgn_reader_visit(r, &v, &t)) == PGN_OK) {
    }
    CHECK_EQ_INT(st, PGN_END);
    pgn_reader_free(r);
    buf_free(&b);
    CHECK(t.tokens >= min_tokens);
    CHECK_EQ_U64(t.played, t.tokens);
    CHECK_EQ_U64(t.mismatches, 0);
    if (min_tokens >= 1000) { /* standard chess and Chess960: the one-pass path is the rule */
        CHECK(t.one_pass * 10 >= t.fast_ok * 9);
    }
    printf("INFO %s: %" PRIu64 " move tokens (%" PRIu64 " canonical), %" PRIu64
           " legal moves written and read back in %" PRIu64 " positions, %" PRIu64
           " moves played both ways, %" PRIu64 " in one pass\n",
           rel, t.tokens, t.fast_ok, t.written, t.positions, t.played, t.one_pass);
}

int main(void) {
    int slow = getenv("PGNKIT_SLOW") != NULL;
    run_file("corpus/big/twic/twic1427.pgn.gz", 0, 400000);
    run_file("corpus/big/tcec-frc/TCEC_Season_16_-_Frc_Sufi.pgn.gz", 0, 1000);
    run_file("corpus/big/tcec-frc/TCEC_Season_22_-_Bonus_Dfrc_1_Final.pgn.gz", 0, 1000);
    run_file("corpus/big/fics/fics_01_standard_humans_2000_2199.pgn.gz", slow ? 0 : 2000, 1000);
    run_file("corpus/big/gnuchess-book_1.02.pgn.gz", slow ? 0 : 3000, 1000);
    run_file("corpus/edge/chess960/python-chess-cutechess-fischerrandom.pgn", 0, 10);
    run_file("corpus/edge/chess960/pychess-chess960rwch.pgn", 0, 10);
    run_file("corpus/edge/variants/pychess-zh.pgn", 0, 10);
    run_file("corpus/edge/variants/pychess-atomic.pgn", 0, 10);
    run_file("corpus/edge/variants/python-chess-antichess-programfox.pgn", 0, 10);
    run_file("corpus/edge/null-moves/pgn-extract-test-allownullmoves.pgn", 0, 10);
    run_file("corpus/edge/malformed/chesslab-games-01-with-three-invalid.pgn", 0, 10);
    run_file("corpus/edge/misc-real/pgn-extract-bots.pgn", 0, 10);
    return harness_finish();
}
