/* SPDX-License-Identifier: MIT */
/* Unit tests of the chess core against outside truth: the PGN standard's examples, the test
 * cases of the spec digest (§6, §7, §13 T33-T43, T58-T76), the Polyglot key test vectors and the
 * FIDE game-ending rules. */
#include "harness.h"
#include "pgnkit.h"

#include <stdlib.h>

static pgn_pos fen_pos(const char *fen) {
    pgn_pos p;
    pgn_fen_diag d;
    if (pgn_fen_parse(&p, fen, strlen(fen), 0, &d) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "bad FEN %s: %s", fen, d.reason);
        pgn_pos_init(&p);
    }
    return p;
}

static const char *fen_of(const pgn_pos *p, uint32_t flags) {
    static char buf[PGN_FEN_MAX];
    pgn_fen_write(p, flags, buf, sizeof buf);
    return buf;
}

/* Plays space-separated moves; returns the first status that is not OK. */
static pgn_status play(pgn_pos *p, const char *moves, uint32_t flags, uint32_t *warnings) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    if (warnings) {
        *warnings = 0;
    }
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        pgn_san_result r;
        pgn_status st = pgn_san_parse(p, tok, strlen(tok), flags, &r);
        if (st != PGN_OK) {
            return st;
        }
        if (warnings) {
            *warnings |= r.warnings;
        }
        pgn_pos_play(p, r.move);
    }
    return PGN_OK;
}

static const char *san_of_uci(const char *fen, const char *uci) {
    static char san[PGN_SAN_MAX];
    pgn_pos p = fen_pos(fen);
    pgn_move m;
    if (pgn_uci_parse(&p, uci, strlen(uci), &m) != PGN_OK) {
        return "(illegal)";
    }
    pgn_san_write(&p, m, san);
    return san;
}

/* The FEN after playing moves from fen (NULL = start) with the lax defaults. */
static const char *fen_after(const char *fen, const char *moves, uint32_t wflags) {
    pgn_pos p;
    if (fen) {
        p = fen_pos(fen);
    } else {
        pgn_pos_init(&p);
    }
    if (play(&p, moves, PGN_SAN_NULL_MOVES, NULL) != PGN_OK) {
        return "(failed)";
    }
    return fen_of(&p, wflags);
}

static void test_fen_roundtrip(void) {
    pgn_pos p;
    pgn_pos_init(&p);
    CHECK_EQ_STR(fen_of(&p, 0), PGN_START_FEN);
    pgn_pos q = fen_pos(PGN_START_FEN);
    CHECK(memcmp(&p, &q, sizeof p) == 0);
    CHECK_EQ_STR(fen_of(&q, PGN_FEN_SHREDDER),
                 "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    CHECK_EQ_STR(fen_of(&q, PGN_FEN_EPD), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    CHECK(!q.chess960);
    /* STD §16.1.4 examples and T71 */
    CHECK_EQ_STR(fen_after(NULL, "e4", PGN_FEN_EP_ALWAYS),
                 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    CHECK_EQ_STR(fen_after(NULL, "e4", 0),
                 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    CHECK_EQ_STR(fen_after(NULL, "e4 c5", PGN_FEN_EP_ALWAYS),
                 "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2");
    CHECK_EQ_STR(fen_after(NULL, "e4 c5 Nf3", 0),
                 "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    CHECK_EQ_STR(fen_after(NULL, "e4 c5 Nf3", PGN_FEN_EP_ALWAYS),
                 "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    q = fen_pos("4k3/8/8/8/8/8/4P3/4K3 w - - 5 39");
    CHECK_EQ_STR(fen_of(&q, 0), "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39");
    /* a legal en passant capture keeps the square; a pinned capturer drops it (digest §7.3) */
    CHECK_EQ_STR(fen_after(NULL, "e4 a6 e5 d5", 0),
                 "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    q = fen_pos("1r5k/8/8/pP6/8/8/8/1K6 w - a6 0 1");
    CHECK_EQ_STR(fen_of(&q, 0), "1r5k/8/8/pP6/8/8/8/1K6 w - - 0 1");
    CHECK_EQ_STR(fen_of(&q, PGN_FEN_EP_PSEUDO), "1r5k/8/8/pP6/8/8/8/1K6 w - a6 0 1");
    q = fen_pos(
        "4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 1"); /* capture would expose the king on the rank */
    CHECK_EQ_STR(fen_of(&q, 0), "4k3/8/8/r2pP2K/8/8/8/8 w - - 0 1");
    CHECK(!pgn_pos_has_legal_ep(&q));
}

typedef struct bad_fen {
    const char *fen;
    uint32_t flags;
    unsigned field, column;
} bad_fen;

static void test_fen_errors(void) {
    static const bad_fen cases[] = {
        /* T72 syntax */
        {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, 1, 42},     /* 7 ranks */
        {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, 1, 19},   /* 9 */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", 0, 6, 58}, /* extra */
        {"rnbqkbnr/pppppppp/8/4x3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, 1, 22}, /* x */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", 0, 2, 45},   /* W */
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", 0, 4, 54},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", 0, 4, 54},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", 0, 5, 54},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", PGN_FEN_STRICT, 0,
         0}, /* valid */
        {"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", PGN_FEN_STRICT, 1, 20},
        /* two digits in a row: refused also when lax (§16.1.3.1; python-chess, chess.js) */
        {"rnbqkbnr/pppppppp/17/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0, 1, 20},
        {"4k3/8/8/8/8/8/8/4K21 w - - 0 1", 0, 1, 20},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", PGN_FEN_STRICT, 6, 56},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", 0, 4, 51},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", PGN_FEN_STRICT, 5, 53},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", 0, 3, 50},
        /* T73 semantics */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", 0, 0,
         0}, /* no white king: read */
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", 0, 1, 1},
        {"8/8/8/8/8/8/8/P7 w - - 0 1", 0, 1, 1},   /* no king at all, a pawn on the first rank */
        {"k7/8/8/8/8/8/8/KK6 b - - 0 1", 0, 1, 1}, /* one side kingless, the other two */
        {"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", 0, 1, 1},
        {"4k3/5P2/8/8/8/8/8/4K3 w - - 0 1", 0, 2, 23},
        {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", PGN_FEN_STRICT, 3, 23},
        {"4k3/8/8/8/8/8/8/4K3 w - e6 0 1", PGN_FEN_STRICT, 4, 25},
        /* two castling rooks on one side of the king (fuzz_fen): c8 and f8 are both h-side of a8 */
        {"knrbqrn1/pppp1ppp/8/8/3pP3/5P2/PPPb1NPP/NQRBKRB1 w FCfc - 3 9", 0, 3, 55},
        {"r3k2r/8/8/8/8/8/8/R1R1K3 w AC - 0 1", 0, 3, 29},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pgn_pos p;
        pgn_fen_diag d;
        pgn_status st = pgn_fen_parse(&p, cases[i].fen, strlen(cases[i].fen), cases[i].flags, &d);
        if (cases[i].field == 0) {
            CHECK_EQ_INT(st, PGN_OK);
            continue;
        }
        CHECK_EQ_INT(st, PGN_E_BAD_FEN);
        CHECK_EQ_INT(d.field, cases[i].field);
        CHECK_EQ_INT(d.column, cases[i].column);
        if (st != PGN_E_BAD_FEN || d.field != cases[i].field || d.column != cases[i].column) {
            printf("  case %zu: %s -> field %u column %u: %s\n", i, cases[i].fen, d.field, d.column,
                   d.reason);
        }
    }
}

static void test_fen_lax(void) {
    pgn_pos p;
    pgn_fen_diag d;
    const char *four = "4k3/8/8/8/8/8/4P3/4K3 w - -"; /* T74 */
    CHECK_EQ_INT(pgn_fen_parse(&p, four, strlen(four), 0, &d), PGN_OK);
    CHECK_EQ_INT(d.warnings, PGN_WARN_BIT(PGN_W_FEN_MISSING_COUNTERS));
    CHECK_EQ_STR(fen_of(&p, 0), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    const char *norook = "4k3/8/8/8/8/8/8/4K3 w K - 0 1"; /* T73 lax */
    CHECK_EQ_INT(pgn_fen_parse(&p, norook, strlen(norook), 0, &d), PGN_OK);
    CHECK_EQ_INT(d.warnings, PGN_WARN_BIT(PGN_W_FEN_CASTLING_DROPPED));
    CHECK_EQ_STR(fen_of(&p, 0), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    const char *zero = "4k3/8/8/8/8/8/8/4K3 b - - 0 0";
    CHECK_EQ_INT(pgn_fen_parse(&p, zero, strlen(zero), 0, &d), PGN_OK);
    CHECK_EQ_INT(d.warnings, PGN_WARN_BIT(PGN_W_FEN_FULLMOVE_ZERO));
    CHECK_EQ_INT(p.fullmove, 1);
    const char *spaces = "  4k3/8/8/8/8/8/8/4K3   b  -  -  3  7 ";
    CHECK_EQ_INT(pgn_fen_parse(&p, spaces, strlen(spaces), 0, &d), PGN_OK);
    CHECK_EQ_STR(fen_of(&p, 0), "4k3/8/8/8/8/8/8/4K3 b - - 3 7");
}

static void test_xfen(void) {
    /* digest §7.4 and T66, T67, T69 */
    pgn_pos p = fen_pos("3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Gd - 1 1");
    CHECK(p.chess960);
    CHECK_EQ_STR(fen_of(&p, 0), "3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Kq - 1 1");
    CHECK_EQ_STR(fen_of(&p, PGN_FEN_SHREDDER), "3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Gd - 1 1");
    p = fen_pos("Qr4k1/4pppp/8/8/8/8/8/R5KR w Hb - 0 1");
    CHECK_EQ_STR(fen_of(&p, 0), "Qr4k1/4pppp/8/8/8/8/8/R5KR w Kq - 0 1");
    p = fen_pos("rkbqrbnn/pppppppp/8/8/8/8/PPPPPPPP/RKBQRBNN w EAea - 0 1");
    CHECK_EQ_STR(fen_of(&p, 0), "rkbqrbnn/pppppppp/8/8/8/8/PPPPPPPP/RKBQRBNN w KQkq - 0 1");
    p = fen_pos("rn2k1r1/8/8/8/8/8/8/2BNK1RR w Gkq - 0 1");
    CHECK_EQ_STR(fen_of(&p, 0), "rn2k1r1/8/8/8/8/8/8/2BNK1RR w Gkq - 0 1");
    p = fen_pos("4k3/8/8/8/8/8/8/RR2K3 w A - 0 1");
    CHECK_EQ_STR(fen_of(&p, 0), "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1");
    CHECK_EQ_STR(fen_after("4k3/8/8/8/8/8/8/RR2K3 w A - 0 1", "O-O-O", 0),
                 "(failed)"); /* b1 blocks */
    p = fen_pos("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    CHECK_EQ_STR(fen_of(&p, 0), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    CHECK_EQ_STR(fen_after("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", "O-O-O", 0),
                 "4k3/8/8/8/8/8/8/R1KR4 b - - 1 1");
}

static void test_chess960_castling(void) {
    /* T66: pieces swap; T67: the king stays, the rook moves */
    CHECK_EQ_STR(fen_after("3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Gd - 1 1", "O-O", 0),
                 "3r1k1r/4pp2/8/8/8/8/8/4RRK1 b q - 2 1");
    CHECK_EQ_STR(fen_after("3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Gd - 1 1", "O-O", PGN_FEN_SHREDDER),
                 "3r1k1r/4pp2/8/8/8/8/8/4RRK1 b d - 2 1");
    CHECK_EQ_STR(fen_after("3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Gd - 1 1", "O-O-O", 0), "(failed)");
    CHECK_EQ_STR(fen_after("Qr4k1/4pppp/8/8/8/8/8/R5KR w Hb - 0 1", "O-O", 0),
                 "Qr4k1/4pppp/8/8/8/8/8/R4RK1 b q - 1 1");
    /* T68: a full game, and the king-takes-rook UCI of its castling moves */
    const char *start = "rkbqrbnn/pppppppp/8/8/8/8/PPPPPPPP/RKBQRBNN w KQkq - 0 1";
    CHECK_EQ_STR(fen_after(start, "d4 d5 Bf4 Bf5 Qd2 Qd7 O-O-O", 0),
                 "rk2rbnn/pppqpppp/8/3p1b2/3P1B2/8/PPPQPPPP/2KRRBNN b kq - 5 4");
    CHECK_EQ_STR(fen_after(start, "d4 d5 Bf4 Bf5 Qd2 Qd7 O-O-O O-O-O", 0),
                 "2krrbnn/pppqpppp/8/3p1b2/3P1B2/8/PPPQPPPP/2KRRBNN w - - 6 5");
    pgn_pos p = fen_pos(start);
    p.chess960 = 1;
    CHECK_EQ_INT(play(&p, "d4 d5 Bf4 Bf5 Qd2 Qd7", 0, NULL), PGN_OK);
    pgn_san_result r;
    char uci[PGN_UCI_MAX];
    CHECK_EQ_INT(pgn_san_parse(&p, "O-O-O", 5, 0, &r), PGN_OK);
    pgn_uci_write(&p, r.move, uci);
    CHECK_EQ_STR(uci, "b1a1");
    /* king b1, rook a1: O-O-O moves the king right (digest §6.3) */
    CHECK_EQ_STR(fen_after("r3k2r/8/8/8/8/8/8/RK4R1 w KQkq - 0 1", "O-O-O", 0),
                 "r3k2r/8/8/8/8/8/8/2KR2R1 b kq - 1 1");
    /* standard UCI e1g1 and king-takes-rook e1h1 both castle */
    CHECK_EQ_STR(fen_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", 0),
                 "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    CHECK_EQ_STR(fen_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", 0),
                 "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    CHECK_EQ_STR(fen_after("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", 0),
                 "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 1 2");
    /* Kg1 / Kh1 are never castling (digest §6.2) */
    CHECK_EQ_STR(fen_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Kg1", 0), "(failed)");
    CHECK_EQ_STR(fen_after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Kh1", 0), "(failed)");
    /* castling out of, through or into check */
    CHECK_EQ_STR(fen_after("4k3/8/8/8/8/8/8/R3K2r w Q - 0 1", "O-O-O", 0), "(failed)");
    CHECK_EQ_STR(fen_after("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O", 0), "(failed)");
    CHECK_EQ_STR(fen_after("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "O-O", 0), "(failed)");
    CHECK_EQ_STR(fen_after("4k2r/8/8/8/8/8/8/4K2R w K - 0 1", "O-O", 0),
                 "4k2r/8/8/8/8/8/8/5RK1 b - - 1 1");
    CHECK_EQ_STR(fen_after("1r2k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "O-O-O", 0),
                 "1r2k3/8/8/8/8/8/8/2KR3R b - - 1 1");
}

typedef struct san_case {
    const char *fen, *uci, *san;
} san_case;

static void test_san_write(void) {
    static const san_case cases[] = {
        /* digest §6.1 (chessops observed), T58-T64 */
        {"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "c3c2", "Rcc2"},
        {"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "b2c2", "Rbc2"},
        {"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "a4b6", "N4b6"},
        {"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "h8g6", "N8g6"},
        {"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "h4g6", "Nh4g6"},
        {"N3k2N/8/8/3N4/N4N1N/2R5/1R6/4K3 w - - 0 1", "e1f1", "Kf1"},
        {"Q7/1p6/Q1Q5/7k/8/8/8/K7 w - - 0 1", "a6b7", "Qa6xb7"},
        {"Q7/1p6/Q1Q5/7k/8/8/8/K7 w - - 0 1", "a8b7", "Q8xb7"},
        {"Q7/1p6/Q1Q5/7k/8/8/8/K7 w - - 0 1", "c6b7", "Qcxb7"},
        {"8/8/8/R2nkn2/8/8/2K5/8 b - - 0 1", "f5e3", "Ne3+"},
        {"4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "g1e2", "Ne2"},
        {"4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1", "g1e2", "Nge2"},
        {"4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1", "c3e2", "Nce2"},
        {"8/2KN1p2/5p2/3N1B1k/5PNp/7P/7P/8 w - - 0 1", "d5f6", "N5xf6#"},
        {"rnbk1b1r/ppp2pp1/5n1p/4p1B1/2P5/2N5/PP2PPPP/R3KBNR w KQ - 0 7", "e1c1", "O-O-O+"},
        {"6bk/7b/8/3pP3/8/8/8/Q3K3 w - d6 0 2", "e5d6", "exd6#"},
        {"7k/1p2Npbp/8/2P5/1P1r4/3b2QP/3q1pPK/2RB4 b - - 1 29", "f2f1q", "f1=Q"},
        {"7k/1p2Npbp/8/2P5/1P1r4/3b2QP/3q1pPK/2RB4 b - - 1 29", "f2f1n", "f1=N+"},
        {PGN_START_FEN, "e2e4", "e4"},
        {PGN_START_FEN, "g1f3", "Nf3"},
        {"k7/5P2/8/8/8/8/8/4K3 w - - 0 1", "f7f8q", "f8=Q+"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_EQ_STR(san_of_uci(cases[i].fen, cases[i].uci), cases[i].san);
    }
}

typedef struct lax_case {
    const char *fen, *moves;
    uint32_t flags;
    pgn_status status;
    pgn_status warning; /* PGN_OK: no warning expected */
    const char *uci;    /* the last move, or NULL */
} lax_case;

static void test_san_read(void) {
    const char *promo = "k7/5P2/8/8/8/8/8/4K3 w - - 0 1";
    const char *castle = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    const char *ep = "rnbqkbnr/pp1p1ppp/8/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 3";
    static const char *b_fen = "rnbqkbnr/pp2pppp/8/8/8/2p5/PPBPPPPP/RN1QKBNR w KQkq - 0 4";
    const lax_case cases[] = {
        {NULL, "e4", 0, PGN_OK, PGN_OK, "e2e4"},
        {castle, "0-0", 0, PGN_OK, PGN_W_CASTLE_ZERO, "e1g1"},   /* T33 */
        {castle, "O-O+", 0, PGN_OK, PGN_W_CHECK_SUFFIX, "e1g1"}, /* T34 */
        {castle, "o-o", 0, PGN_OK, PGN_W_CASTLE_ZERO, "e1g1"},
        {promo, "f8Q+", 0, PGN_OK, PGN_W_PROMOTION_FORM, "f7f8q"}, /* T35 */
        {promo, "f8q+", 0, PGN_OK, PGN_W_PROMOTION_FORM, "f7f8q"},
        {promo, "f8=q+", 0, PGN_OK, PGN_W_PROMOTION_FORM, "f7f8q"},
        {promo, "f8(Q)+", 0, PGN_OK, PGN_W_PROMOTION_FORM, "f7f8q"},
        {promo, "f7f8q", 0, PGN_OK, PGN_W_UCI_MOVE, "f7f8q"},
        {promo, "f8=N", 0, PGN_OK, PGN_OK, "f7f8n"},
        {promo, "f8", 0, PGN_E_BAD_SAN, PGN_OK, NULL},
        {promo, "f8+", PGN_SAN_AUTO_QUEEN, PGN_OK, PGN_W_PROMOTION_FORM, "f7f8q"},
        {NULL, "e2-e4", 0, PGN_OK, PGN_W_LONG_ALGEBRAIC, "e2e4"}, /* T36 */
        {NULL, "Ng1-f3", 0, PGN_OK, PGN_W_LONG_ALGEBRAIC, "g1f3"},
        {NULL, "Ng1f3", 0, PGN_OK, PGN_W_LONG_ALGEBRAIC, "g1f3"}, /* T61 */
        {NULL, "Ngf3", 0, PGN_OK, PGN_W_OVER_DISAMBIGUATION, "g1f3"},
        {NULL, "N1f3", 0, PGN_OK, PGN_W_OVER_DISAMBIGUATION, "g1f3"},
        {NULL, "e2e4", 0, PGN_OK, PGN_W_UCI_MOVE, "e2e4"},
        {ep, "dxc6", 0, PGN_OK, PGN_OK, "d5c6"},
        {ep, "dxc6e.p.", 0, PGN_OK, PGN_W_EP_SUFFIX, "d5c6"}, /* T37 */
        {ep, "dxc6ep", 0, PGN_OK, PGN_W_EP_SUFFIX, "d5c6"},
        {ep, "d5xc6", 0, PGN_OK, PGN_W_LONG_ALGEBRAIC, "d5c6"},
        {ep, "c6", 0, PGN_E_ILLEGAL_MOVE, PGN_OK, NULL}, /* only a capture goes there */
        {NULL, "e4 e5 nf3", 0, PGN_OK, PGN_W_LOWERCASE_PIECE, "g1f3"}, /* T38: never the pawn f3 */
        {NULL, "e4 e5 nf3", PGN_SAN_STRICT, PGN_E_BAD_SAN, PGN_OK, NULL},
        {NULL, "e4 e5 bc4", 0, PGN_OK, PGN_W_LOWERCASE_PIECE, "f1c4"}, /* T39 */
        {b_fen, "bxc3", 0, PGN_OK, PGN_OK, "b2c3"},                    /* b is a file first */
        {b_fen, "Bxc3", 0, PGN_E_ILLEGAL_MOVE, PGN_OK, NULL},
        {NULL, "Pe4 d5 Pxd5", 0, PGN_OK, PGN_W_PAWN_LETTER, "e4d5"}, /* T40 */
        {NULL, "e4 d5 ed5", 0, PGN_OK, PGN_W_CAPTURE_MARK, "e4d5"},  /* T41 */
        {NULL, "e4 d5 xd5", 0, PGN_E_BAD_SAN, PGN_OK, NULL},
        {NULL, "e4+", 0, PGN_OK, PGN_W_CHECK_SUFFIX, "e2e4"}, /* T42 */
        {NULL, "e4 e5#", 0, PGN_OK, PGN_W_CHECK_SUFFIX, "e7e5"},
        {NULL, "f3 e5 g4 Qh4#", 0, PGN_OK, PGN_OK, "d8h4"},
        {NULL, "f3 e5 g4 Qh4", 0, PGN_OK, PGN_W_CHECK_SUFFIX, "d8h4"},
        {NULL, "f3 e5 g4 Qh4++", 0, PGN_OK, PGN_W_CHECK_SUFFIX, "d8h4"},
        {NULL, "e4!? e5?! Nf3!!", 0, PGN_OK, PGN_OK, "g1f3"},
        {NULL, "e4 --", PGN_SAN_NULL_MOVES, PGN_OK, PGN_W_NULL_MOVE, NULL}, /* T43 */
        {NULL, "e4 Z0", PGN_SAN_NULL_MOVES, PGN_OK, PGN_W_NULL_MOVE, NULL},
        {NULL, "e4 --", 0, PGN_E_BAD_SAN, PGN_OK, NULL},
        {NULL, "Nxf3", 0, PGN_OK, PGN_W_CAPTURE_MARK, "g1f3"},
        {NULL, "Nf6", 0, PGN_E_ILLEGAL_MOVE, PGN_OK, NULL},
        {NULL, "e5", 0, PGN_E_ILLEGAL_MOVE, PGN_OK, NULL},
        {"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nd2", 0, PGN_E_AMBIGUOUS_MOVE, PGN_OK, NULL},
        {"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "Nbd2", 0, PGN_OK, PGN_OK, "b1d2"},
        {NULL, "Xe4", 0, PGN_E_BAD_SAN, PGN_OK, NULL},
        {NULL, "e9", 0, PGN_E_BAD_SAN, PGN_OK, NULL},
        {NULL, "O-O-O-O", 0, PGN_E_BAD_SAN, PGN_OK, NULL},
        {NULL, "", 0, PGN_E_BAD_SAN, PGN_OK, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const lax_case *c = &cases[i];
        pgn_pos p = c->fen ? fen_pos(c->fen) : fen_pos(PGN_START_FEN);
        char buf[256];
        snprintf(buf, sizeof buf, "%s", c->moves);
        char *last = strrchr(buf, ' ');
        const char *tok = last ? last + 1 : buf;
        if (last) {
            *last = 0;
            CHECK_EQ_INT(play(&p, buf, PGN_SAN_NULL_MOVES, NULL), PGN_OK);
        }
        pgn_san_result r;
        pgn_status st = pgn_san_parse(&p, tok, strlen(tok), c->flags, &r);
        CHECK_EQ_INT(st, c->status);
        if (st != c->status) {
            printf("  case %zu '%s': %s\n", i, c->moves, pgn_status_name(st));
        }
        if (st != PGN_OK) {
            continue;
        }
        CHECK_EQ_INT(r.warnings, c->warning == PGN_OK ? 0u : PGN_WARN_BIT(c->warning));
        if (r.warnings != (c->warning == PGN_OK ? 0u : PGN_WARN_BIT(c->warning))) {
            printf("  case %zu '%s': warnings %#x\n", i, c->moves, r.warnings);
        }
        if (c->uci) {
            char uci[PGN_UCI_MAX];
            pgn_uci_write(&p, r.move, uci);
            CHECK_EQ_STR(uci, c->uci);
        } else {
            CHECK_EQ_INT(r.move, PGN_MOVE_NULL);
        }
    }
    /* T43: a null move passes the turn; export writes -- */
    CHECK_EQ_STR(fen_after(NULL, "e4 -- d4", PGN_FEN_EP_ALWAYS),
                 "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 2");
    char san[PGN_SAN_MAX];
    pgn_pos p = fen_pos(PGN_START_FEN);
    CHECK_EQ_INT(pgn_san_write(&p, PGN_MOVE_NULL, san), 2);
    CHECK_EQ_STR(san, "--");
}

static void test_polyglot_keys(void) {
    /* The test vectors of the Polyglot book format specification */
    static const struct {
        const char *moves;
        uint64_t key;
    } cases[] = {
        {"", UINT64_C(0x463b96181691fc9c)},
        {"e4", UINT64_C(0x823c9b50fd114196)},
        {"e4 d5", UINT64_C(0x0756b94461c50fb0)},
        {"e4 d5 e5", UINT64_C(0x662fafb965db29d4)},
        {"e4 d5 e5 f5", UINT64_C(0x22a48b5a8e47ff78)},
        {"e4 d5 e5 f5 Ke2", UINT64_C(0x652a607ca3f242c1)},
        {"e4 d5 e5 f5 Ke2 Kf7", UINT64_C(0x00fdd303c946bdd9)},
        {"a4 b5 h4 b4 c4", UINT64_C(0x3c8123ea7b067637)},
        {"a4 b5 h4 b4 c4 bxc3 Ra3", UINT64_C(0x5c3f9b829b279560)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pgn_pos p;
        pgn_pos_init(&p);
        CHECK_EQ_INT(play(&p, cases[i].moves, 0, NULL), PGN_OK);
        CHECK_EQ_U64(p.key, cases[i].key);
        CHECK_EQ_U64(pgn_pos_compute_key(&p), cases[i].key);
        pgn_pos q = fen_pos(fen_of(&p, PGN_FEN_EP_ALWAYS));
        CHECK_EQ_U64(q.key, cases[i].key);
    }
}

static void test_game_state(void) {
    pgn_pos p;
    pgn_pos_init(&p);
    CHECK_EQ_INT(play(&p, "f3 e5 g4 Qh4", 0, NULL), PGN_OK);
    CHECK(pgn_pos_in_check(&p));
    CHECK(pgn_pos_is_checkmate(&p));
    CHECK_EQ_INT(pgn_pos_outcome(&p, 1), PGN_OUTCOME_CHECKMATE);
    p = fen_pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    CHECK(pgn_pos_is_stalemate(&p));
    CHECK(!pgn_pos_is_checkmate(&p));
    CHECK_EQ_INT(pgn_pos_outcome(&p, 1), PGN_OUTCOME_STALEMATE);
    static const struct {
        const char *fen;
        int insufficient;
    } mat[] = {
        {"8/8/8/4k3/8/8/8/4K3 w - - 0 1", 1},   {"8/8/8/4k3/8/8/8/4KN2 w - - 0 1", 1},
        {"8/8/8/4k3/8/8/8/4KB2 w - - 0 1", 1},  {"8/8/8/2b1k3/8/8/8/4KB2 w - - 0 1", 0},
        {"8/8/8/3bk3/8/8/8/4KB2 w - - 0 1", 1}, {"8/8/8/4k3/8/8/8/3NKN2 w - - 0 1", 0},
        {"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", 0}, {"8/8/8/4kn2/8/8/8/4KN2 w - - 0 1", 0},
        {"8/8/8/4k3/8/8/8/4KR2 w - - 0 1", 0},  {"8/8/8/4kq2/8/8/8/4KN2 w - - 0 1", 0},
    };
    for (size_t i = 0; i < sizeof mat / sizeof mat[0]; i++) {
        p = fen_pos(mat[i].fen);
        CHECK_EQ_INT(pgn_pos_is_insufficient_material(&p), mat[i].insufficient);
    }
    p = fen_pos("8/8/8/4kq2/8/8/8/4KN2 w - - 0 1");
    CHECK(pgn_pos_insufficient_material_for(&p, PGN_WHITE));
    CHECK(!pgn_pos_insufficient_material_for(&p, PGN_BLACK));
    p = fen_pos("8/8/8/4k3/8/8/8/R3K3 w - - 99 80");
    CHECK_EQ_INT(pgn_pos_outcome(&p, 1), PGN_OUTCOME_NONE);
    CHECK_EQ_INT(play(&p, "Ra2", 0, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_pos_outcome(&p, 1), PGN_OUTCOME_FIFTY_MOVES);
    p = fen_pos("8/8/8/4k3/8/8/8/R3K3 w - - 149 80");
    CHECK_EQ_INT(play(&p, "Ra2", 0, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_pos_outcome(&p, 1), PGN_OUTCOME_SEVENTYFIVE_MOVES);
    /* a mate on the 150th ply is a mate (FIDE 9.6.2) */
    p = fen_pos("7k/8/6K1/8/8/8/8/R7 w - - 149 80");
    CHECK_EQ_INT(play(&p, "Ra8#", 0, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_pos_outcome(&p, 1), PGN_OUTCOME_CHECKMATE);
    /* repetition by a knight shuffle: the start position comes back every 4 plies */
    uint64_t keys[32];
    size_t n = 0;
    pgn_pos_init(&p);
    keys[n++] = pgn_pos_identity_key(&p);
    const char *shuffle[4] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    unsigned reps[17] = {0};
    for (int ply = 1; ply <= 16; ply++) {
        CHECK_EQ_INT(play(&p, shuffle[(ply - 1) % 4], 0, NULL), PGN_OK);
        keys[n++] = pgn_pos_identity_key(&p);
        reps[ply] = pgn_repetitions(keys, n, p.halfmove);
    }
    CHECK_EQ_INT(reps[4], 2);
    CHECK_EQ_INT(reps[8], 3);
    CHECK_EQ_INT(reps[7], 2);
    CHECK_EQ_INT(pgn_pos_outcome(&p, reps[8]), PGN_OUTCOME_THREEFOLD_REPETITION);
    CHECK_EQ_INT(reps[16], 5);
    CHECK_EQ_INT(pgn_pos_outcome(&p, reps[16]), PGN_OUTCOME_FIVEFOLD_REPETITION);
    /* positions differing only by an impossible en passant capture are the same (FIDE 9.2.3) */
    pgn_pos a = fen_pos("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1"); /* dxe3 would expose the king */
    pgn_pos b = fen_pos("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1");
    CHECK(a.key != b.key); /* Polyglot counts the pseudo-legal capture */
    CHECK(!pgn_pos_has_legal_ep(&a));
    CHECK_EQ_U64(pgn_pos_identity_key(&a), pgn_pos_identity_key(&b));
}

static void test_status_names(void) {
    const pgn_status all[] = {PGN_OK,
                              PGN_END,
                              PGN_E_NOMEM,
                              PGN_E_IO,
                              PGN_E_LIMIT,
                              PGN_E_BAD_CHAR,
                              PGN_E_UNTERMINATED_STRING,
                              PGN_E_UNTERMINATED_COMMENT,
                              PGN_E_TOKEN_TOO_LONG,
                              PGN_E_BAD_TAG,
                              PGN_E_UNBALANCED_PAREN,
                              PGN_E_UNEXPECTED_TOKEN,
                              PGN_E_MISSING_RESULT,
                              PGN_E_BAD_FEN,
                              PGN_E_BAD_SAN,
                              PGN_E_ILLEGAL_MOVE,
                              PGN_E_AMBIGUOUS_MOVE};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        CHECK(strcmp(pgn_status_name(all[i]), "UNKNOWN") != 0);
        CHECK(!pgn_status_is_warning(all[i]));
    }
    for (int w = PGN_W_CASTLE_ZERO; w <= PGN_W_VARIANT; w++) {
        CHECK(strncmp(pgn_status_name((pgn_status)w), "W_", 2) == 0);
        CHECK(pgn_status_is_warning((pgn_status)w));
    }
    CHECK_EQ_STR(pgn_status_name(PGN_E_ILLEGAL_MOVE), "E_ILLEGAL_MOVE");
    CHECK_EQ_STR(pgn_version(), PGNKIT_VERSION_STRING);
}

/* Positions without kings (issue 28 point 4): the move counts are python-chess 1.11.2's
 * (legal_moves.count()); test_kingless.sh
 * checks on whole games; here the flag and the state answers. */
static void test_kingless(void) {
    pgn_pos start = fen_pos(PGN_START_FEN);
    CHECK_EQ_INT(start.kingless, 0);
    pgn_pos a = fen_pos("8/8/8/8/8/8/8/R7 b - - 0 1"); /* Black has nothing: stalemate */
    CHECK_EQ_INT(a.kingless, 1);
    CHECK_EQ_INT(pgn_pos_count_legal(&a), 0);
    CHECK(!pgn_pos_in_check(&a));
    CHECK(pgn_pos_is_stalemate(&a));
    CHECK(!pgn_pos_is_checkmate(&a));
    pgn_pos b = fen_pos("3k4/8/8/8/8/8/8/4R3 w - - 0 1"); /* White has no king, may leave e1 */
    CHECK_EQ_INT(b.kingless, 1);
    CHECK_EQ_INT(pgn_pos_count_legal(&b), 14);
    pgn_pos c =
        fen_pos("4k3/8/8/8/8/8/8/4R3 b - - 0 1"); /* Black's king in check by a kingless side */
    CHECK(pgn_pos_in_check(&c));
    CHECK_EQ_INT(pgn_pos_count_legal(&c), 4);
}

int main(void) {
    test_fen_roundtrip();
    test_fen_errors();
    test_kingless();
    test_fen_lax();
    test_xfen();
    test_chess960_castling();
    test_san_write();
    test_san_read();
    test_polyglot_keys();
    test_game_state();
    test_status_names();
    return harness_finish();
}
