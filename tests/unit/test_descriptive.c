/* SPDX-License-Identifier: MIT */
/* Descriptive notation (issue 15; src/chess/descriptive.c) against outside truth:
 * - a famous game whose moves are known in algebraic notation: Morphy v the Duke of Brunswick and
 *   Count Isouard, Paris 1858, as quoted by Edward Winter from Frank Marshall, Comparative Chess
 *   (Philadelphia, 1932), p. 54 (ChessBase, "Edward Winter's Chess Explorations (46)"). Its
 *   descriptive text below was transcribed by hand in the conventions of 20th-century English
 *   books (each side counting ranks from its own side, N for the knight, "ch", "mate"), every
 *   move checked on a board: it is no copy of a printed page. Read move by move it must give the
 *   algebraic moves; its forms that the books abbreviated where the position allowed it (B-B4
 *   when two bishops reach a B4 square) must be E_AMBIGUOUS_MOVE naming both moves;
 * - the ambiguous forms of issue 15 in the positions that make them so (PxP with two captures,
 *   R-Q1 with two rooks, N-B3 at the start, where both knights reach a B3 square);
 * - every move of real games, main lines and variations (TWIC 232 games and Kasparov's 2,128 of
 *   pgnmentor; with PGNKIT_SLOW=1 every file of corpus/big, 190k games, Chess960 too), written by
 *   pgn_desc_write in English, Spanish and Portuguese descriptive and read back by
 *   pgn_desc_parse, is the same move, and the written form is never ambiguous. */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <stdlib.h>

/* Winter's algebraic text (ChessBase), the outside truth of the moves. */
static const char *const opera_san[] = {
    "e4",    "e5",  "Nf3",  "d6",   "d4",  "Bg4", "dxe5",  "Bxf3", "Qxf3", "dxe5",  "Bc4",
    "Nf6",   "Qb3", "Qe7",  "Nc3",  "c6",  "Bg5", "b5",    "Nxb5", "cxb5", "Bxb5+", "Nbd7",
    "O-O-O", "Rd8", "Rxd7", "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8",  "Rd8#"};

/* The same moves in English descriptive, the shortest form that names each alone. */
static const char *const opera_desc[] = {
    "P-K4", "P-K4",  "N-KB3",  "P-Q3",   "P-Q4",  "B-N5",    "PxP",  "BxN",   "QxB",
    "PxP",  "B-QB4", "N-KB3",  "Q-QN3",  "Q-K2",  "N-B3",    "P-B3", "B-KN5", "P-N4",
    "NxP",  "PxN",   "BxNPch", "QN-Q2",  "O-O-O", "R-Q1",    "RxN",  "RxR",   "R-Q1",
    "Q-K3", "BxRch", "NxB",    "Q-N8ch", "NxQ",   "R-Q8mate"};

/* The same in Spanish descriptive (P C A T D R; files TD CD AD D R AR CR TR), by hand. */
static const char *const opera_es[] = {
    "P4R",   "P4R",  "C3AR", "P3D", "P4D", "A5C",  "PxP",  "AxC", "DxA",  "PxP",   "A4AD",
    "C3AR",  "D3CD", "D2R",  "C3A", "P3A", "A5CR", "P4C",  "CxP", "PxC",  "AxPC+", "CD2D",
    "O-O-O", "T1D",  "TxC",  "TxT", "T1D", "D3R",  "AxT+", "CxA", "D8C+", "CxD",   "T8D++"};

/* The forms that old books printed short where this position makes them name two moves: ply,
 * text, and the two moves in SAN. */
static const struct {
    int ply;
    const char *text, *a, *b;
} opera_ambiguous[] = {{10, "B-B4", "Bc4", "Bf4"},      {11, "N-B3", "Nc6", "Nf6"},
                       {12, "Q-N3", "Qb3", "Qg3"},      {16, "B-N5", "Bb5", "Bg5"},
                       {20, "BxPch", "Bxb5+", "Bxf7+"}, {21, "N-Q2", "Nbd7", "Nfd7"}};

static pgn_move san_move(const pgn_pos *p, const char *san) {
    pgn_san_result res;
    if (pgn_san_parse(p, san, strlen(san), 0, &res) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "SAN %s does not read", san);
        return PGN_MOVE_NONE;
    }
    return res.move;
}

static int has_move(const pgn_movelist *l, pgn_move mv) {
    for (uint32_t i = 0; i < l->count; i++) {
        if (l->moves[i] == mv) {
            return 1;
        }
    }
    return 0;
}

static void test_opera(void) {
    pgn_pos p;
    pgn_pos_init(&p);
    size_t n = sizeof opera_san / sizeof opera_san[0];
    CHECK_EQ_INT(n, sizeof opera_desc / sizeof opera_desc[0]);
    CHECK_EQ_INT(n, sizeof opera_es / sizeof opera_es[0]);
    size_t amb = 0;
    for (size_t i = 0; i < n; i++) {
        pgn_move want = san_move(&p, opera_san[i]), got = PGN_MOVE_NONE;
        const char *forms[2] = {opera_desc[i], opera_es[i]};
        const pgn_lang langs[2] = {PGN_LANG_DESCRIPTIVE, PGN_LANG_DESCRIPTIVE_ES};
        for (int k = 0; k < 2; k++) {
            char out[PGN_DESC_MAX];
            CHECK_EQ_INT(pgn_desc_parse(&p, langs[k], forms[k], strlen(forms[k]), NULL, &got),
                         PGN_OK);
            CHECK_EQ_INT(got, want);
            CHECK(pgn_desc_write(&p, langs[k], want, out, sizeof out) > 0);
            CHECK_EQ_STR(out, forms[k]);
        }
        for (; amb < sizeof opera_ambiguous / sizeof opera_ambiguous[0] &&
               opera_ambiguous[amb].ply == (int)i;
             amb++) {
            pgn_movelist fit;
            const char *t = opera_ambiguous[amb].text;
            CHECK_EQ_INT(pgn_desc_parse(&p, PGN_LANG_DESCRIPTIVE, t, strlen(t), &fit, &got),
                         PGN_E_AMBIGUOUS_MOVE);
            CHECK_EQ_INT(fit.count, 2);
            CHECK(has_move(&fit, san_move(&p, opera_ambiguous[amb].a)));
            CHECK(has_move(&fit, san_move(&p, opera_ambiguous[amb].b)));
        }
        pgn_pos_play(&p, want);
    }
    CHECK(pgn_pos_is_checkmate(&p));
}

/* One form in a position given by FEN: its status, and the moves that fit in SAN (sorted). */
static void check_form(const char *fen, pgn_lang lang, const char *text, pgn_status want,
                       const char *const *moves, int n) {
    pgn_pos p;
    pgn_movelist fit;
    pgn_move got = PGN_MOVE_NONE;
    if (pgn_fen_parse(&p, fen, strlen(fen), 0, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "FEN %s", fen);
        return;
    }
    CHECK_EQ_INT(pgn_desc_parse(&p, lang, text, strlen(text), &fit, &got), want);
    CHECK_EQ_INT(fit.count, (uint32_t)n);
    for (int i = 0; i < n; i++) {
        CHECK(has_move(&fit, san_move(&p, moves[i])));
    }
    if (want == PGN_OK && n == 1) {
        CHECK_EQ_INT(got, san_move(&p, moves[0]));
    }
}

static void test_forms(void) {
    static const char *const start = PGN_START_FEN;
    /* N-B3 at the start: both knights reach a B3 square */
    check_form(start, PGN_LANG_DESCRIPTIVE, "N-B3", PGN_E_AMBIGUOUS_MOVE,
               (const char *const[]){"Nc3", "Nf3"}, 2);
    check_form(start, PGN_LANG_DESCRIPTIVE, "N-KB3", PGN_OK, (const char *const[]){"Nf3"}, 1);
    check_form(start, PGN_LANG_DESCRIPTIVE, "Kt-KB3", PGN_OK, (const char *const[]){"Nf3"}, 1);
    check_form(start, PGN_LANG_DESCRIPTIVE, "KN-B3", PGN_OK, (const char *const[]){"Nf3"}, 1);
    check_form(start, PGN_LANG_DESCRIPTIVE_ES, "C3A", PGN_E_AMBIGUOUS_MOVE,
               (const char *const[]){"Nc3", "Nf3"}, 2);
    check_form(start, PGN_LANG_DESCRIPTIVE_PT, "C3BR", PGN_OK, (const char *const[]){"Nf3"}, 1);
    check_form(start, PGN_LANG_DESCRIPTIVE, "P-K5", PGN_E_ILLEGAL_MOVE, NULL, 0);
    check_form(start, PGN_LANG_DESCRIPTIVE, "e4", PGN_E_BAD_SAN, NULL, 0);
    /* PxP with two captures: 1 e4 d5 2 c4 e6, White's e4xd5 and c4xd5 */
    const char *two = "rnbqkbnr/ppp2ppp/4p3/3p4/2P1P3/8/PP1P1PPP/RNBQKBNR w KQkq - 0 3";
    check_form(two, PGN_LANG_DESCRIPTIVE, "PxP", PGN_E_AMBIGUOUS_MOVE,
               (const char *const[]){"exd5", "cxd5"}, 2);
    check_form(two, PGN_LANG_DESCRIPTIVE, "KPxP", PGN_OK, (const char *const[]){"exd5"}, 1);
    check_form(two, PGN_LANG_DESCRIPTIVE, "BPxP", PGN_OK, (const char *const[]){"cxd5"}, 1);
    check_form(two, PGN_LANG_DESCRIPTIVE_ES, "PAxP", PGN_OK, (const char *const[]){"cxd5"}, 1);
    /* R-Q1 with two rooks that reach d1 */
    const char *rooks = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
    check_form(rooks, PGN_LANG_DESCRIPTIVE, "R-Q1", PGN_E_AMBIGUOUS_MOVE,
               (const char *const[]){"Rad1", "Rhd1"}, 2);
    check_form(rooks, PGN_LANG_DESCRIPTIVE, "KR-Q1", PGN_OK, (const char *const[]){"Rhd1"}, 1);
    check_form(rooks, PGN_LANG_DESCRIPTIVE, "QR-Q1", PGN_OK, (const char *const[]){"Rad1"}, 1);
    check_form("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", PGN_LANG_DESCRIPTIVE, "O-O-O", PGN_OK, NULL, 0);
    /* rooks on one file: R(1) and R/1 */
    const char *file = "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1";
    check_form(file, PGN_LANG_DESCRIPTIVE, "R-QR3", PGN_E_AMBIGUOUS_MOVE,
               (const char *const[]){"R1a3", "R4a3"}, 2);
    check_form(file, PGN_LANG_DESCRIPTIVE, "R(1)-QR3", PGN_OK, (const char *const[]){"R1a3"}, 1);
    check_form(file, PGN_LANG_DESCRIPTIVE, "R/4-R3", PGN_OK, (const char *const[]){"R4a3"}, 1);
    /* Black names squares from its side: its K4 is e5; promotion P-K8=Q, P-K8(Q), P-K8Q */
    const char *promo = "8/4P1k1/8/8/8/8/4p1K1/8 w - - 0 1";
    check_form(promo, PGN_LANG_DESCRIPTIVE, "P-K8=Q", PGN_OK, (const char *const[]){"e8=Q"}, 1);
    check_form(promo, PGN_LANG_DESCRIPTIVE, "P-K8(N)ch", PGN_OK, (const char *const[]){"e8=N+"}, 1);
    check_form(promo, PGN_LANG_DESCRIPTIVE_ES, "P8R=D", PGN_OK, (const char *const[]){"e8=Q"}, 1);
    check_form(promo, PGN_LANG_DESCRIPTIVE, "P-K8", PGN_E_ILLEGAL_MOVE, NULL, 0);
    const char *black = "8/4P1k1/8/8/8/8/4p1K1/8 b - - 0 1";
    check_form(black, PGN_LANG_DESCRIPTIVE, "P-K8=Q", PGN_OK, (const char *const[]){"e1=Q"}, 1);
    /* en passant: PxP e.p. */
    const char *ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    check_form(ep, PGN_LANG_DESCRIPTIVE, "PxPe.p.", PGN_OK, (const char *const[]){"exd6"}, 1);
    check_form(ep, PGN_LANG_DESCRIPTIVE, "PxQ6", PGN_OK, (const char *const[]){"exd6"}, 1);
}

/* ---- every move of real games, written and read back ---- */

typedef struct trip {
    unsigned long moves, bad, written[3];
} trip;

static const pgn_lang trip_langs[3] = {PGN_LANG_DESCRIPTIVE, PGN_LANG_DESCRIPTIVE_ES,
                                       PGN_LANG_DESCRIPTIVE_PT};

static pgn_flow t_move(void *u, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    trip *t = u;
    (void)san;
    (void)at;
    if (!before || mv == PGN_MOVE_NULL) {
        return PGN_FLOW_CONTINUE;
    }
    t->moves++;
    for (int k = 0; k < 3; k++) {
        char out[PGN_DESC_MAX];
        pgn_move got = PGN_MOVE_NONE;
        size_t n = pgn_desc_write(before, trip_langs[k], mv, out, sizeof out);
        t->written[k] += n;
        if (n == 0 || pgn_desc_parse(before, trip_langs[k], out, n, NULL, &got) != PGN_OK ||
            got != mv) {
            if (++t->bad <= 5) {
                char fen[PGN_FEN_MAX];
                pgn_fen_write(before, 0, fen, sizeof fen);
                harness_fail(__FILE__, __LINE__, "%s: %.*s written %s, read back differently", fen,
                             (int)san.len, san.ptr, out);
            }
        }
    }
    return PGN_FLOW_CONTINUE;
}

static const pgn_visitor tripper = {NULL, NULL, NULL, t_move, NULL, NULL, NULL, NULL, NULL};

static void round_trip(const char *rel, trip *t) {
    buf text = {0};
    if (!buf_load_shared(rel, &text)) {
        return;
    }
    pgn_reader *r;
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    o.flags = PGN_READ_NO_LANG_DETECT;
    if (pgn_reader_new_mem(&r, &o, text.p, text.len) == PGN_OK) {
        while (pgn_reader_visit(r, &tripper, t) == PGN_OK) {
        }
        pgn_reader_free(r);
    }
    free(text.p);
}

static void test_corpus(void) {
    static const char *const quick[] = {"corpus/big/misc/mliebelt-twic-01-232games.pgn",
                                        "corpus/big/pgnmentor-players/Kasparov.pgn.gz"};
    static const char *const slow[] = {
        "corpus/big/gnuchess-book_1.02.pgn.gz",
        "corpus/big/twic/twic1427.pgn.gz",
        "corpus/big/twic/twic1428.pgn.gz",
        "corpus/big/fics/fics_01_standard_humans_2000_2199.pgn.gz",
        "corpus/big/fics/fics_02_standard_humans_2000_2199.pgn.gz",
        "corpus/big/pgnmentor-players/Anand.pgn.gz",
        "corpus/big/pgnmentor-players/Capablanca.pgn.gz",
        "corpus/big/pgnmentor-players/Carlsen.pgn.gz",
        "corpus/big/pgnmentor-players/Chiburdanidze.pgn.gz",
        "corpus/big/pgnmentor-players/Fischer.pgn.gz",
        "corpus/big/pgnmentor-players/Gaprindashvili.pgn.gz",
        "corpus/big/pgnmentor-players/Hou.pgn.gz",
        "corpus/big/pgnmentor-players/Kosteniuk.pgn.gz",
        "corpus/big/pgnmentor-players/Kramnik.pgn.gz",
        "corpus/big/pgnmentor-players/PolgarJ.pgn.gz",
        "corpus/big/pgnmentor-players/Stefanova.pgn.gz",
        "corpus/big/tcec/TCEC_Cup_10_Final.pgn.gz",
        "corpus/big/tcec/TCEC_Cup_11_Final.pgn.gz",
        "corpus/big/tcec/TCEC_Cup_12_Final.pgn.gz",
        "corpus/big/tcec/TCEC_Cup_13_Final.pgn.gz",
        "corpus/big/tcec/TCEC_Cup_14_Final.pgn.gz",
        "corpus/big/tcec/TCEC_Cup_15_Final.pgn.gz",
        "corpus/big/tcec/TCEC_Cup_16_Final.pgn.gz",
        "corpus/big/tcec/TCEC_Season_10_-_Superfinal.pgn.gz",
        "corpus/big/tcec/TCEC_Season_11_-_Superfinal.pgn.gz",
        "corpus/big/tcec/TCEC_Season_12_-_Superfinal.pgn.gz",
        "corpus/big/tcec/TCEC_Season_13_-_Superfinal.pgn.gz",
        "corpus/big/tcec/TCEC_Season_18_-_Cpu_Superfinal_Bonus.pgn.gz",
        "corpus/big/tcec/TCEC_Season_22_-_League_1.pgn.gz",
        "corpus/big/tcec/TCEC_Season_26_-_1s_Ultra_Bullet_Chess_Bonus.pgn.gz",
        "corpus/big/tcec/TCEC_Season_4_-_Superfinal.pgn.gz",
        "corpus/big/tcec/TCEC_Season_5_-_Superfinal.pgn.gz",
        "corpus/big/tcec/TCEC_Season_6_-_Superfinal.pgn.gz",
        "corpus/big/tcec/TCEC_Season_7_-_Superfinal.pgn.gz",
        "corpus/big/tcec/TCEC_Season_8_-_Superfinal.pgn.gz",
        "corpus/big/tcec/TCEC_Season_9_-_Superfinal.pgn.gz",
        "corpus/big/tcec-frc/TCEC_Season_16_-_Frc_Sufi.pgn.gz",
        "corpus/big/tcec-frc/TCEC_Season_19_-_Frc2_Final.pgn.gz",
        "corpus/big/tcec-frc/TCEC_Season_21_-_Frc4_Final.pgn.gz",
        "corpus/big/tcec-frc/TCEC_Season_22_-_Bonus_Dfrc_1_Final.pgn.gz",
        "corpus/big/tcec-frc/TCEC_Season_24_-_Dfrc_2_Final.pgn.gz",
        "corpus/big/tcec-frc/TCEC_Season_29_-_Frd_5_Final.pgn.gz",
        "corpus/big/tcec-frc/TCEC_Season_6_-_FRC.pgn.gz"};
    trip t;
    memset(&t, 0, sizeof t);
    for (size_t i = 0; i < sizeof quick / sizeof quick[0]; i++) {
        round_trip(quick[i], &t);
    }
    const char *env = getenv("PGNKIT_SLOW");
    if (env && strcmp(env, "1") == 0) {
        for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++) {
            round_trip(slow[i], &t);
        }
    }
    CHECK(t.moves > 100000);
    CHECK_EQ_INT(t.bad, 0);
    printf("# descriptive round trip: %lu moves (main lines and variations), %lu wrong; bytes "
           "written: English %lu, Spanish %lu, Portuguese %lu\n",
           t.moves, t.bad, t.written[0], t.written[1], t.written[2]);
}

int main(void) {
    test_opera();
    test_forms();
    test_corpus();
    return harness_finish();
}
