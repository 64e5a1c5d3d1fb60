/* SPDX-License-Identifier: MIT */
/* The lichess variants in the rules core, against outside truth: every entry of the variant
 * perft tables of python-chess and scalachess in corpus/perft/ (depths whose node count is at
 * most VARIANT_PERFT_CAP; PGNKIT_SLOW=1 runs every depth, PGNKIT_PERFT_CAP=N sets the cap, 0 =
 * none), with FEN, SAN and UCI round trips of every position's moves; and unit cases from the
 * lichess rules pages and python-chess's behaviour: FEN dialects, drops, king promotions, each
 * variant's game end, and the variant names. A missing perft file is a failure. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "pgnkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VARIANT_PERFT_CAP UINT64_C(2000000)
#define MAX_DEPTH 32

static uint64_t cap = VARIANT_PERFT_CAP;
static unsigned long perft_checked, perft_capped;

/* ---- round trips at one position ---- */

static void roundtrip_fen(const pgn_pos *p, const char *where) {
    static const uint32_t dialects[] = {0, PGN_FEN_POCKET_RANK | PGN_FEN_LICHESS_CHECKS};
    for (size_t i = 0; i < 2; i++) {
        char a[PGN_FEN_MAX], b[PGN_FEN_MAX];
        pgn_fen_write(p, dialects[i], a, sizeof a);
        pgn_pos q;
        pgn_fen_diag d;
        pgn_status st = pgn_fen_parse_variant(&q, (pgn_variant)p->variant, a, strlen(a),
                                              p->chess960 ? PGN_FEN_CHESS960 : 0, &d);
        if (st != PGN_OK) {
            harness_fail(__FILE__, __LINE__, "%s: FEN %s does not read back: %s", where, a,
                         d.reason);
            continue;
        }
        pgn_fen_write(&q, dialects[i], b, sizeof b);
        CHECK_EQ_STR(a, b);
        CHECK_EQ_U64(q.key, p->key);
    }
}

/* Every legal move: SAN and UCI written, read back to the same move; the key after the move
 * equals the key computed from scratch. */
static void roundtrip_moves(const pgn_pos *p, const char *where) {
    pgn_movelist l;
    pgn_pos_legal_moves(p, &l);
    unsigned bad = 0;
    for (unsigned i = 0; i < l.count; i++) {
        pgn_move m = l.moves[i], back = PGN_MOVE_NONE;
        char san[PGN_SAN_MAX], uci[PGN_UCI_MAX];
        pgn_san_write(p, m, san);
        pgn_uci_write(p, m, uci);
        pgn_san_result r;
        pgn_status st = pgn_san_parse(p, san, strlen(san), PGN_SAN_STRICT, &r);
        if (st != PGN_OK || r.move != m) {
            if (bad++ < 3) {
                harness_fail(__FILE__, __LINE__, "%s: SAN %s reads back as %d", where, san, st);
            }
            continue;
        }
        st = pgn_uci_parse(p, uci, strlen(uci), &back);
        if (st != PGN_OK || back != m) {
            if (bad++ < 3) {
                harness_fail(__FILE__, __LINE__, "%s: UCI %s reads back as %d", where, uci, st);
            }
            continue;
        }
        CHECK(pgn_pos_is_legal(p, m));
        pgn_pos q = *p;
        pgn_pos_play(&q, m);
        if (q.key != pgn_pos_compute_key(&q) && bad++ < 3) {
            harness_fail(__FILE__, __LINE__, "%s: key after %s", where, san);
        }
    }
    CHECK_EQ_INT(bad, 0);
}

/* ---- the perft files ---- */

typedef struct perft_file {
    const char *path;
    pgn_variant variant;
} perft_file;

static const perft_file FILES[] = {
    {"corpus/perft/python-chess/3check.perft", PGN_VARIANT_THREECHECK},
    {"corpus/perft/python-chess/atomic.perft", PGN_VARIANT_ATOMIC},
    {"corpus/perft/python-chess/crazyhouse.perft", PGN_VARIANT_CRAZYHOUSE},
    {"corpus/perft/python-chess/giveaway.perft", PGN_VARIANT_ANTICHESS},
    {"corpus/perft/python-chess/horde.perft", PGN_VARIANT_HORDE},
    {"corpus/perft/python-chess/racingkings.perft", PGN_VARIANT_RACINGKINGS},
    {"corpus/perft/scalachess/antichess.perft", PGN_VARIANT_ANTICHESS},
    {"corpus/perft/scalachess/crazyhouse.perft", PGN_VARIANT_CRAZYHOUSE},
};

static void run_perft(const pgn_pos *p, const char *where, unsigned depth, uint64_t want) {
    if (cap && want > cap) {
        perft_capped++;
        return;
    }
    uint64_t got = pgn_perft(p, depth, 1);
    perft_checked++;
    if (got != want) {
        harness_fail(__FILE__, __LINE__, "%s perft %u: %llu, expected %llu", where, depth,
                     (unsigned long long)got, (unsigned long long)want);
    } else {
        harness_counts.passed++;
    }
}

static unsigned read_file(const perft_file *pf) {
    FILE *f = fopen(harness_shared(pf->path), "r");
    if (!f) {
        harness_fail(__FILE__, __LINE__, "cannot read %s", harness_shared(pf->path));
        return 0;
    }
    char line[512], id[512] = "", where[1024];
    pgn_pos pos;
    int have = 0;
    unsigned positions = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        unsigned depth;
        unsigned long long nodes;
        if (strncmp(line, "id ", 3) == 0) {
            snprintf(id, sizeof id, "%s", line + 3);
        } else if (strncmp(line, "epd ", 4) == 0 || strncmp(line, "fen ", 4) == 0) {
            pgn_fen_diag d;
            snprintf(where, sizeof where, "%s:%u %s", pf->path, lineno, id);
            have = pgn_fen_parse_variant(&pos, pf->variant, line + 4, strlen(line + 4), 0, &d) ==
                   PGN_OK;
            if (!have) {
                harness_fail(__FILE__, __LINE__, "%s: bad FEN %s: %s", where, line + 4, d.reason);
                continue;
            }
            positions++;
            roundtrip_fen(&pos, where);
            roundtrip_moves(&pos, where);
        } else if (have && sscanf(line, "perft %u %llu", &depth, &nodes) == 2 &&
                   depth <= MAX_DEPTH) {
            run_perft(&pos, where, depth, nodes);
        }
    }
    fclose(f);
    return positions;
}

static void test_perft_files(void) {
    const char *slow = getenv("PGNKIT_SLOW"), *capenv = getenv("PGNKIT_PERFT_CAP");
    if (slow && *slow && strcmp(slow, "0") != 0) {
        cap = 0;
    }
    if (capenv && *capenv) {
        cap = strtoull(capenv, NULL, 10);
    }
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        unsigned n = read_file(&FILES[i]);
        printf("INFO %s: %u positions\n", FILES[i].path, n);
        if (n == 0) {
            harness_fail(__FILE__, __LINE__, "no positions in %s", FILES[i].path);
        }
    }
    printf("INFO variant perft: %lu (position, depth) checked, %lu above the node cap %llu\n",
           perft_checked, perft_capped, (unsigned long long)cap);
}

/* ---- unit cases ---- */

static pgn_pos vpos(pgn_variant v, const char *fen) {
    pgn_pos p;
    pgn_fen_diag d;
    if (pgn_fen_parse_variant(&p, v, fen, strlen(fen), 0, &d) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "bad %s FEN %s: %s", pgn_variant_name(v), fen, d.reason);
        pgn_pos_init_variant(&p, v);
    }
    return p;
}

static const char *fen_of(const pgn_pos *p, uint32_t flags) {
    static char buf[PGN_FEN_MAX];
    pgn_fen_write(p, flags, buf, sizeof buf);
    return buf;
}

/* Plays one SAN move (strict), returns its status; *p is changed only on success. */
static pgn_status play_san(pgn_pos *p, const char *san) {
    pgn_san_result r;
    pgn_status st = pgn_san_parse(p, san, strlen(san), 0, &r);
    if (st == PGN_OK) {
        pgn_pos_play(p, r.move);
    }
    return st;
}

static const char *san_of(const pgn_pos *p, const char *uci) {
    static char buf[PGN_SAN_MAX];
    pgn_move m;
    if (pgn_uci_parse(p, uci, strlen(uci), &m) != PGN_OK) {
        return "(illegal)";
    }
    pgn_san_write(p, m, buf);
    return buf;
}

static void test_names(void) {
    static const struct {
        const char *name;
        pgn_variant v;
        int chess960;
    } cases[] = {
        {"Standard", PGN_VARIANT_STANDARD, 0},
        {"From Position", PGN_VARIANT_STANDARD, 0},
        {"chess", PGN_VARIANT_STANDARD, 0},
        {"Chess960", PGN_VARIANT_STANDARD, 1},
        {"fischerandom", PGN_VARIANT_STANDARD, 1},
        {"Fischer Random", PGN_VARIANT_STANDARD, 1},
        {"Crazyhouse", PGN_VARIANT_CRAZYHOUSE, 0},
        {"crazyhouse", PGN_VARIANT_CRAZYHOUSE, 0},
        {"zh", PGN_VARIANT_CRAZYHOUSE, 0},
        {"Antichess", PGN_VARIANT_ANTICHESS, 0},
        {"giveaway", PGN_VARIANT_ANTICHESS, 0},
        {"Atomic", PGN_VARIANT_ATOMIC, 0},
        {"Three-check", PGN_VARIANT_THREECHECK, 0},
        {"3check", PGN_VARIANT_THREECHECK, 0},
        {"threecheck", PGN_VARIANT_THREECHECK, 0},
        {"King of the Hill", PGN_VARIANT_KOTH, 0},
        {"kingofthehill", PGN_VARIANT_KOTH, 0},
        {"KOTH", PGN_VARIANT_KOTH, 0},
        {"Horde", PGN_VARIANT_HORDE, 0},
        {"Racing Kings", PGN_VARIANT_RACINGKINGS, 0},
        {"racingkings", PGN_VARIANT_RACINGKINGS, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pgn_variant v = PGN_VARIANT_COUNT;
        int c960 = -1;
        CHECK(pgn_variant_from_name(cases[i].name, strlen(cases[i].name), &v, &c960));
        CHECK_EQ_INT(v, cases[i].v);
        CHECK_EQ_INT(c960, cases[i].chess960);
    }
    pgn_variant v;
    CHECK(!pgn_variant_from_name("Seirawan", 8, &v, NULL));
    CHECK(!pgn_variant_from_name("", 0, &v, NULL));
    for (unsigned i = 0; i < PGN_VARIANT_COUNT; i++) { /* each name reads back as its variant */
        const char *n = pgn_variant_name((pgn_variant)i), *u = pgn_variant_uci_name((pgn_variant)i);
        CHECK(pgn_variant_from_name(n, strlen(n), &v, NULL) && v == (pgn_variant)i);
        CHECK(pgn_variant_from_name(u, strlen(u), &v, NULL) && v == (pgn_variant)i);
    }
    CHECK_EQ_STR(pgn_variant_name(PGN_VARIANT_KOTH), "King of the Hill");
    CHECK_EQ_STR(pgn_variant_uci_name(PGN_VARIANT_THREECHECK), "3check");
}

/* The starting positions of lichess's rules pages and python-chess's starting_fen. */
static void test_starts(void) {
    static const struct {
        pgn_variant v;
        const char *fen;
    } starts[] = {
        {PGN_VARIANT_CRAZYHOUSE, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"},
        {PGN_VARIANT_ANTICHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"},
        {PGN_VARIANT_THREECHECK, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"},
        {PGN_VARIANT_HORDE,
         "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"},
        {PGN_VARIANT_RACINGKINGS, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"},
        {PGN_VARIANT_ATOMIC, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        {PGN_VARIANT_KOTH, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
    };
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        pgn_pos p, q = vpos(starts[i].v, starts[i].fen);
        pgn_pos_init_variant(&p, starts[i].v);
        CHECK_EQ_STR(fen_of(&p, 0), starts[i].fen);
        CHECK_EQ_U64(p.key, q.key);
        CHECK_EQ_INT(p.variant, starts[i].v);
    }
    pgn_pos std, zh;
    pgn_pos_init(&std);
    pgn_pos_init_variant(&zh, PGN_VARIANT_CRAZYHOUSE);
    CHECK_EQ_U64(zh.key, std.key); /* empty pockets: the Polyglot key */
    CHECK(pgn_pos_is_standard_start(&zh));
}

static void test_fen_dialects(void) {
    pgn_pos a = vpos(PGN_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[QRqpp] w - - 0 1");
    pgn_pos b = vpos(PGN_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3/pQpRq w - - 0 1");
    CHECK_EQ_U64(a.key, b.key);
    CHECK_EQ_INT(a.pocket[PGN_WHITE][PGN_QUEEN], 1);
    CHECK_EQ_INT(a.pocket[PGN_BLACK][PGN_PAWN], 2);
    CHECK_EQ_STR(fen_of(&b, 0), "4k3/8/8/8/8/8/8/4K3[QRqpp] w - - 0 1");
    CHECK_EQ_STR(fen_of(&a, PGN_FEN_POCKET_RANK), "4k3/8/8/8/8/8/8/4K3/QRqpp w - - 0 1");
    pgn_pos e = vpos(PGN_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"); /* no pocket */
    CHECK_EQ_STR(fen_of(&e, PGN_FEN_POCKET_RANK), "4k3/8/8/8/8/8/8/4K3/ w - - 0 1");
    CHECK(a.key != e.key);
    pgn_pos pr = vpos(PGN_VARIANT_CRAZYHOUSE, "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1");
    CHECK_EQ_STR(fen_of(&pr, 0), "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1");
    pgn_pos t1 = vpos(PGN_VARIANT_THREECHECK, "4k3/8/8/8/8/8/8/4K2R w K - 1+3 5 9");
    pgn_pos t2 = vpos(PGN_VARIANT_THREECHECK, "4k3/8/8/8/8/8/8/4K2R w K - 5 9 +2+0");
    CHECK_EQ_U64(t1.key, t2.key);
    CHECK_EQ_INT(t1.checks[PGN_WHITE], 1);
    CHECK_EQ_STR(fen_of(&t2, 0), "4k3/8/8/8/8/8/8/4K2R w K - 1+3 5 9");
    CHECK_EQ_STR(fen_of(&t1, PGN_FEN_LICHESS_CHECKS), "4k3/8/8/8/8/8/8/4K2R w K - 5 9 +2+0");
    static const struct {
        pgn_variant v;
        const char *fen;
    } bad[] = {
        {PGN_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1"},
        {PGN_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[Q w - - 0 1"},
        {PGN_VARIANT_STANDARD, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1"},
        {PGN_VARIANT_STANDARD, "4k3/1Q~6/8/8/8/8/8/4K3 w - - 0 1"},
        {PGN_VARIANT_THREECHECK, "4k3/8/8/8/8/8/8/4K3 w - - 4+3 0 1"},
        {PGN_VARIANT_STANDARD, "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1"},
        {PGN_VARIANT_RACINGKINGS, "8/8/8/8/8/8/k6R/2K5 b - - 0 1"}, /* a king in check */
        {PGN_VARIANT_HORDE, "8/8/8/8/8/8/8/PPPP4 w - - 0 1"},       /* no black king */
        /* both kings home with Black to move: the race was over before (python-chess's
         * test_race_over; issue 35) */
        {PGN_VARIANT_RACINGKINGS, "3krQK1/8/8/8/1q6/3B1N2/1b6/1R4R1 b - - 0 1"},
        /* a variant keeps its own kings: only standard chess reads a side without one */
        {PGN_VARIANT_CRAZYHOUSE, "8/8/8/8/8/8/8/4K3[] w - - 0 1"},
        {PGN_VARIANT_KOTH, "4k3/8/8/8/8/8/8/8 w - - 0 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pgn_pos p;
        if (pgn_fen_parse_variant(&p, bad[i].v, bad[i].fen, strlen(bad[i].fen), 0, NULL) !=
            PGN_E_BAD_FEN) {
            harness_fail(__FILE__, __LINE__, "%s FEN %s accepted", pgn_variant_name(bad[i].v),
                         bad[i].fen);
        } else {
            harness_counts.passed++;
        }
    }
}

static void test_drops(void) {
    pgn_pos p = vpos(PGN_VARIANT_CRAZYHOUSE, "2k5/8/8/8/8/8/8/4K3[QPn] w - - 0 1");
    CHECK_EQ_STR(san_of(&p, "Q@c7"), "Q@c7+");
    CHECK_EQ_STR(san_of(&p, "P@e4"), "P@e4");
    CHECK_EQ_STR(san_of(&p, "P@e8"), "(illegal)"); /* no pawn on the last rank */
    CHECK_EQ_STR(san_of(&p, "N@f3"), "(illegal)"); /* Black's knight */
    pgn_san_result r;
    CHECK_EQ_INT(pgn_san_parse(&p, "@e4", 3, 0, &r), PGN_OK); /* chess.com's pawn drop */
    CHECK_EQ_INT(r.move, PGN_MOVE_MAKE_DROP(PGN_PAWN, PGN_SQ(4, 3)));
    CHECK(PGN_MOVE_IS_DROP(r.move) && PGN_MOVE_DROP_PIECE(r.move) == PGN_PAWN);
    char uci[PGN_UCI_MAX];
    pgn_uci_write(&p, r.move, uci);
    CHECK_EQ_STR(uci, "P@e4");
    CHECK_EQ_INT(play_san(&p, "Q@e1"), PGN_E_ILLEGAL_MOVE); /* occupied */
    CHECK_EQ_INT(play_san(&p, "Q@c7+"), PGN_OK);
    CHECK_EQ_INT(p.pocket[PGN_WHITE][PGN_QUEEN], 0);
    CHECK_EQ_INT(play_san(&p, "Kxc7"), PGN_OK);
    CHECK_EQ_INT(p.pocket[PGN_BLACK][PGN_QUEEN], 1);
    CHECK_EQ_STR(fen_of(&p, 0), "8/2k5/8/8/8/8/8/4K3[Pqn] w - - 0 2");
    pgn_pos s;
    pgn_pos_init(&s);
    CHECK_EQ_INT(pgn_san_parse(&s, "N@f3", 4, 0, &r), PGN_E_BAD_SAN); /* standard: no drops */
    /* a captured promoted piece goes back as a pawn; a promotion is marked ~ */
    pgn_pos q = vpos(PGN_VARIANT_CRAZYHOUSE, "4k3/1Q~6/8/8/4b3/8/Kpp5/8/ b - - 0 1");
    CHECK_EQ_INT(play_san(&q, "Bxb7"), PGN_OK);
    CHECK_EQ_INT(q.pocket[PGN_BLACK][PGN_PAWN], 1);
    CHECK_EQ_INT(q.pocket[PGN_BLACK][PGN_QUEEN], 0);
    CHECK_EQ_INT(play_san(&q, "Ka3"), PGN_OK);
    CHECK_EQ_INT(play_san(&q, "c1=Q+"), PGN_OK);
    CHECK_EQ_STR(fen_of(&q, 0), "4k3/1b6/8/8/8/K7/1p6/2q~5[p] w - - 0 3");
    /* a drop between king and checker answers a check; double check cannot be blocked */
    pgn_pos c = vpos(PGN_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1");
    CHECK_EQ_STR(san_of(&c, "N@c1"), "N@c1");
    CHECK_EQ_STR(san_of(&c, "N@f3"), "(illegal)");
}

static void test_antichess(void) {
    pgn_pos p =
        vpos(PGN_VARIANT_ANTICHESS, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w - - 0 2");
    CHECK_EQ_INT(pgn_pos_count_legal(&p), 1); /* exd5 is compulsory */
    pgn_pos k = vpos(PGN_VARIANT_ANTICHESS, "8/P7/8/8/8/8/8/7k w - - 0 1");
    CHECK_EQ_INT(pgn_pos_count_legal(&k), 5); /* a8=Q, R, B, N and K */
    CHECK_EQ_STR(san_of(&k, "a7a8k"), "a8=K");
    pgn_san_result r;
    CHECK_EQ_INT(pgn_san_parse(&k, "a8=K", 4, PGN_SAN_STRICT, &r), PGN_OK);
    CHECK(PGN_MOVE_IS_KING_PROMO(r.move) && PGN_MOVE_PROMOTED(r.move) == PGN_KING);
    pgn_pos s;
    pgn_pos_init(&s);
    CHECK_EQ_INT(pgn_uci_parse(&s, "e7e8k", 5, &r.move), PGN_E_BAD_SAN);
    pgn_pos c = vpos(PGN_VARIANT_ANTICHESS, "4k3/8/8/8/8/8/8/R6K w - - 0 1");
    CHECK_EQ_STR(san_of(&c, "a1a8"), "Ra8"); /* no check in antichess */
    pgn_pos e = vpos(PGN_VARIANT_ANTICHESS, "4k3/8/8/8/8/8/8/4R2K w - - 0 1");
    CHECK_EQ_STR(san_of(&e, "e1e7"), "(illegal)"); /* Rxe8 must be played */
    CHECK(!pgn_pos_in_check(&c));
    pgn_pos last = vpos(PGN_VARIANT_ANTICHESS, "8/8/8/8/8/8/8/Rr5k b - - 0 1");
    CHECK_EQ_STR(san_of(&last, "b1a1"), "Rxa1#"); /* White's last piece: lichess writes # */
    pgn_pos none = vpos(PGN_VARIANT_ANTICHESS, "8/8/8/8/8/8/8/7k w - - 0 1");
    CHECK_EQ_INT(pgn_pos_outcome(&none, 1), PGN_OUTCOME_NO_PIECES);
    CHECK_EQ_INT(pgn_outcome_winner(&none, PGN_OUTCOME_NO_PIECES), PGN_WHITE);
    pgn_pos stale = vpos(PGN_VARIANT_ANTICHESS, "8/8/8/8/8/p7/P7/8 w - - 0 1");
    CHECK_EQ_INT(pgn_pos_outcome(&stale, 1), PGN_OUTCOME_STALEMATE);
    CHECK_EQ_INT(pgn_outcome_winner(&stale, PGN_OUTCOME_STALEMATE), PGN_WHITE);
}

static void test_atomic(void) {
    pgn_pos p = vpos(PGN_VARIANT_ATOMIC, "k7/8/8/3q4/2N5/8/3Q4/K7 w - - 0 1");
    CHECK_EQ_INT(play_san(&p, "Qxd5"), PGN_OK); /* the capturer and the knight on c4 explode */
    CHECK_EQ_STR(fen_of(&p, 0), "k7/8/8/8/8/8/8/K7 b - - 0 1");
    CHECK(pgn_pos_is_insufficient_material(&p));
    pgn_pos x = vpos(PGN_VARIANT_ATOMIC, "kr6/8/8/8/8/8/8/1R5K w - - 0 1");
    CHECK_EQ_STR(san_of(&x, "b1b8"), "Rxb8#");
    CHECK_EQ_INT(play_san(&x, "Rxb8"), PGN_OK);
    CHECK_EQ_INT(pgn_pos_outcome(&x, 1), PGN_OUTCOME_KING_EXPLODED);
    CHECK_EQ_INT(pgn_outcome_winner(&x, PGN_OUTCOME_KING_EXPLODED), PGN_WHITE);
    CHECK_EQ_INT(pgn_pos_count_legal(&x), 0);
    pgn_pos t = vpos(PGN_VARIANT_ATOMIC, "8/8/8/8/8/8/1k6/K1q5 w - - 0 1"); /* kings touch */
    CHECK(!pgn_pos_in_check(&t));
    pgn_pos kc = vpos(PGN_VARIANT_ATOMIC, "8/8/8/8/8/8/1p6/K6k w - - 0 1");
    CHECK_EQ_INT(play_san(&kc, "Kxb2"), PGN_E_ILLEGAL_MOVE); /* kings never capture */
    pgn_pos self = vpos(PGN_VARIANT_ATOMIC, "4k3/8/8/8/8/8/3p4/3QK3 w - - 0 1");
    CHECK_EQ_INT(play_san(&self, "Qxd2"), PGN_E_ILLEGAL_MOVE); /* would explode its own king */
}

static void test_check_variants(void) {
    pgn_pos t = vpos(PGN_VARIANT_THREECHECK, "4k3/8/8/8/8/8/8/4K2R w K - 1+3 0 1");
    CHECK_EQ_STR(san_of(&t, "h1h8"), "Rh8#"); /* the third check wins */
    CHECK_EQ_INT(play_san(&t, "Rh8"), PGN_OK);
    CHECK_EQ_INT(t.checks[PGN_WHITE], 0);
    CHECK_EQ_INT(pgn_pos_outcome(&t, 1), PGN_OUTCOME_THIRD_CHECK);
    CHECK_EQ_INT(pgn_outcome_winner(&t, PGN_OUTCOME_THIRD_CHECK), PGN_WHITE);
    CHECK_EQ_STR(fen_of(&t, 0), "4k2R/8/8/8/8/8/8/4K3 b - - 0+3 1 1");
    pgn_pos two = vpos(PGN_VARIANT_THREECHECK, "4k3/8/8/8/8/8/8/4K2R w K - 2+3 0 1");
    CHECK_EQ_STR(san_of(&two, "h1h8"), "Rh8+");
    pgn_pos lone = vpos(PGN_VARIANT_THREECHECK, "4k3/8/8/8/8/8/8/4K2R w K - 3+3 0 1");
    CHECK(pgn_pos_insufficient_material_for(&lone, PGN_BLACK));
    CHECK(!pgn_pos_insufficient_material_for(&lone, PGN_WHITE));
    pgn_pos h = vpos(PGN_VARIANT_KOTH, "8/8/8/8/8/3K4/8/k7 w - - 0 1");
    CHECK_EQ_STR(san_of(&h, "d3d4"), "Kd4#");
    CHECK_EQ_INT(play_san(&h, "Kd4"), PGN_OK);
    CHECK_EQ_INT(pgn_pos_outcome(&h, 1), PGN_OUTCOME_KING_OF_THE_HILL);
    CHECK_EQ_INT(pgn_outcome_winner(&h, PGN_OUTCOME_KING_OF_THE_HILL), PGN_WHITE);
    CHECK_EQ_INT(pgn_pos_count_legal(&h), 0);
}

static void test_race_and_horde(void) {
    pgn_pos w = vpos(PGN_VARIANT_RACINGKINGS, "8/1K6/8/8/8/8/8/k7 w - - 0 1");
    CHECK_EQ_STR(san_of(&w, "b7b8"), "Kb8#"); /* the race won */
    CHECK_EQ_INT(play_san(&w, "Kb8"), PGN_OK);
    CHECK_EQ_INT(pgn_pos_outcome(&w, 1), PGN_OUTCOME_RACE_WON); /* Black cannot follow */
    CHECK_EQ_INT(pgn_outcome_winner(&w, PGN_OUTCOME_RACE_WON), PGN_WHITE);
    pgn_pos d = vpos(PGN_VARIANT_RACINGKINGS, "8/1K4k1/8/8/8/8/8/8 w - - 0 1");
    CHECK_EQ_INT(play_san(&d, "Kb8"), PGN_OK);
    CHECK_EQ_INT(pgn_pos_outcome(&d, 1), PGN_OUTCOME_NONE); /* Black has one move to follow */
    CHECK_EQ_STR(san_of(&d, "g7g8"), "Kg8");                /* a drawn race: no mark */
    CHECK_EQ_INT(play_san(&d, "Kg8"), PGN_OK);
    CHECK_EQ_INT(pgn_pos_outcome(&d, 1), PGN_OUTCOME_RACE_DRAWN);
    CHECK_EQ_INT(pgn_outcome_winner(&d, PGN_OUTCOME_RACE_DRAWN), -1);
    pgn_pos home = vpos(PGN_VARIANT_RACINGKINGS, "1K4k1/8/8/8/8/8/8/8 w - - 0 1"); /* read */
    CHECK_EQ_INT(pgn_pos_outcome(&home, 1), PGN_OUTCOME_RACE_DRAWN);
    pgn_pos chk = vpos(PGN_VARIANT_RACINGKINGS, "8/8/8/8/8/8/k7/5K1R w - - 0 1");
    CHECK_EQ_INT(play_san(&chk, "Rh2"), PGN_E_ILLEGAL_MOVE); /* no move may give check */
    pgn_pos h = vpos(PGN_VARIANT_HORDE, "4k3/8/8/8/8/8/8/P7 w - - 0 1");
    CHECK_EQ_INT(pgn_pos_count_legal(&h), 2); /* a first-rank pawn may step two squares */
    CHECK(!pgn_pos_in_check(&h));
    pgn_pos gone = vpos(PGN_VARIANT_HORDE, "4k3/8/8/8/8/8/8/8 w - - 0 1");
    CHECK_EQ_INT(pgn_pos_outcome(&gone, 1), PGN_OUTCOME_NO_PIECES);
    CHECK_EQ_INT(pgn_outcome_winner(&gone, PGN_OUTCOME_NO_PIECES), PGN_BLACK);
}

/* Drops in every language's piece letters (PGN §17's table; the drop SAN N@f3 of lichess and
 * python-chess): each legal drop's SAN translated into the language starts with that language's
 * letter for the piece and an @, and reads back as the same drop. */
static void drops_in_lang(const pgn_pos *p, pgn_lang lang) {
    pgn_movelist l;
    pgn_pos_legal_moves(p, &l);
    unsigned drops = 0;
    for (unsigned i = 0; i < l.count; i++) {
        pgn_move m = l.moves[i];
        if (!PGN_MOVE_IS_DROP(m)) {
            continue;
        }
        drops++;
        char en[PGN_SAN_MAX], tr[64], want[16];
        size_t n = pgn_san_write(p, m, en);
        size_t k = pgn_san_translate(lang, en, n, tr, sizeof tr);
        snprintf(want, sizeof want, "%s@", pgn_lang_letter(lang, PGN_MOVE_DROP_PIECE(m)));
        if (k == 0 || strncmp(tr, want, strlen(want)) != 0) {
            harness_fail(__FILE__, __LINE__, "%s: %s written %s", pgn_lang_code(lang), en, tr);
            continue;
        }
        pgn_san_result r;
        if (pgn_san_parse_lang(p, lang, tr, k, 0, &r) != PGN_OK || r.move != m) {
            harness_fail(__FILE__, __LINE__, "%s: %s does not read back", pgn_lang_code(lang), tr);
            continue;
        }
        harness_counts.passed++;
    }
    CHECK(drops >= 5 * 50); /* five piece types on the empty squares (pawns not on ranks 1, 8) */
}

static pgn_move parse_lang(const pgn_pos *p, pgn_lang lang, const char *san) {
    pgn_san_result r;
    return pgn_san_parse_lang(p, lang, san, strlen(san), 0, &r) == PGN_OK ? r.move : PGN_MOVE_NONE;
}

static void test_drops_in_languages(void) {
    pgn_pos w = vpos(PGN_VARIANT_CRAZYHOUSE, "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1");
    pgn_pos b = vpos(PGN_VARIANT_CRAZYHOUSE, "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] b - - 0 1");
    for (int lang = 0; lang < PGN_LANG_COUNT; lang++) {
        if (!pgn_lang_is_descriptive((pgn_lang)lang)) {
            drops_in_lang(&w, (pgn_lang)lang);
            drops_in_lang(&b, (pgn_lang)lang);
        }
    }
    pgn_move n_f3 = PGN_MOVE_MAKE_DROP(PGN_KNIGHT, PGN_SQ(5, 2));
    pgn_move p_e4 = PGN_MOVE_MAKE_DROP(PGN_PAWN, PGN_SQ(4, 3));
    CHECK_EQ_INT(parse_lang(&w, PGN_LANG_GERMAN, "S@f3"), n_f3);
    CHECK_EQ_INT(parse_lang(&w, PGN_LANG_GERMAN, "B@e4"), p_e4); /* Bauer: the pawn */
    CHECK_EQ_INT(parse_lang(&w, PGN_LANG_GERMAN, "@e4"), p_e4);  /* chess.com's pawn drop */
    CHECK_EQ_INT(parse_lang(&w, PGN_LANG_GERMAN, "N@f3"), PGN_MOVE_NONE); /* no German letter */
    CHECK_EQ_INT(parse_lang(&w, PGN_LANG_FRENCH, "C@f3"), n_f3);
    CHECK_EQ_INT(parse_lang(&w, PGN_LANG_RUSSIAN, "\xD0\x9A@f3"), n_f3);      /* К@f3 */
    CHECK_EQ_INT(parse_lang(&w, PGN_LANG_FIGURINE, "\xE2\x99\x98@f3"), n_f3); /* ♘@f3 */
    /* a black figurine is the same piece: ♞@f6 for Black */
    CHECK_EQ_INT(parse_lang(&b, PGN_LANG_FIGURINE, "\xE2\x99\x9E@f6"),
                 PGN_MOVE_MAKE_DROP(PGN_KNIGHT, PGN_SQ(5, 5)));
    char out[64];
    CHECK(pgn_san_translate(PGN_LANG_GERMAN, "N@f3+", 5, out, sizeof out) == 5);
    CHECK_EQ_STR(out, "S@f3+");
    CHECK(pgn_san_translate(PGN_LANG_DUTCH, "P@e4", 4, out, sizeof out) == 4);
    CHECK_EQ_STR(out, "O@e4"); /* Dutch's pawn letter O: a drop, not castling */
}

/* Horde's insufficient material: the four cases of scalachess's HordeVariantTest (lichess; GitHub
 * lichess-org/scalachess, src/test/scala/HordeVariantTest.scala), and two of S. Papazis's suite
 * as shakmaty samples it (a rook walled in by a rook and a knight mates; a lone queen against a
 * queen does not). The king's side is never short; a draw is never declared for it (python-chess:
 * is_insufficient_material needs both sides). The full comparison with python-chess is
 * test_variant_material. */
static void test_horde_material(void) {
    static const struct {
        const char *fen;
        int white_short;
    } cases[] = {
        {"8/2k5/3q4/8/8/8/1P6/8 w - - 0 1", 1},    /* one pawn */
        {"8/2k5/3q4/8/8/1Q6/8/8 w - - 0 1", 1},    /* one queen */
        {"8/2k5/3q4/8/8/1B2N3/8/8 w - - 0 1", 1},  /* two minor pieces */
        {"8/2k5/3q4/8/8/3B4/4NB2/8 w - - 0 1", 0}, /* three minor pieces */
        {"k1R5/nr6/8/8/8/8/8/8 b - - 0 1", 0},     /* shakmaty: white=R */
        {"8/8/8/8/8/2Q5/q7/kq6 b - - 0 1", 1},     /* shakmaty: white=Q */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pgn_pos p = vpos(PGN_VARIANT_HORDE, cases[i].fen);
        CHECK_EQ_INT(pgn_pos_insufficient_material_for(&p, PGN_WHITE), cases[i].white_short);
        CHECK_EQ_INT(pgn_pos_insufficient_material_for(&p, PGN_BLACK), 0);
        CHECK(!pgn_pos_is_insufficient_material(&p));
        CHECK(pgn_pos_outcome(&p, 1) != PGN_OUTCOME_INSUFFICIENT_MATERIAL);
    }
    pgn_pos start;
    pgn_pos_init_variant(&start, PGN_VARIANT_HORDE);
    CHECK(!pgn_pos_insufficient_material_for(&start, PGN_WHITE));
}

/* Crazyhouse has no 50- or 75-move rule (lichess, python-chess); the other variants keep them. */
static void test_clock_rules(void) {
    pgn_pos zh = vpos(PGN_VARIANT_CRAZYHOUSE, "4k3/8/8/8/8/8/8/R3K3[] w - - 150 100");
    CHECK_EQ_INT(pgn_pos_outcome(&zh, 1), PGN_OUTCOME_NONE);
    pgn_pos koth = vpos(PGN_VARIANT_KOTH, "4k3/8/8/8/8/8/8/R3K3 w - - 150 100");
    CHECK_EQ_INT(pgn_pos_outcome(&koth, 1), PGN_OUTCOME_SEVENTYFIVE_MOVES);
    pgn_pos koth50 = vpos(PGN_VARIANT_KOTH, "4k3/8/8/8/8/8/8/R3K3 w - - 100 100");
    CHECK_EQ_INT(pgn_pos_outcome(&koth50, 1), PGN_OUTCOME_FIFTY_MOVES);
}

/* Crazyhouse repetitions reach across captures (a captured piece comes back through the
 * pocket; lichess and python-chess count them so): the 4-ply cycle Nxf5 Nxf5 N@d4 N@h6 twice
 * repeats the start a third time, python-chess 1.11.2: is_repetition(3) and
 * can_claim_threefold_repetition() both true, halfmove clock 2. The halfmove clock alone would
 * look back 2 plies and see 1 occurrence. */
static void test_zh_repetition(void) {
    pgn_pos p = vpos(PGN_VARIANT_CRAZYHOUSE, "k7/8/7n/5n2/3N4/8/8/K7[] w - - 0 1");
    static const char *const line[] = {"Nxf5", "Nxf5", "N@d4", "N@h6",
                                       "Nxf5", "Nxf5", "N@d4", "N@h6"};
    uint64_t keys[9];
    size_t n = 0;
    keys[n++] = pgn_pos_identity_key(&p);
    for (size_t i = 0; i < sizeof line / sizeof *line; i++) {
        CHECK_EQ_INT(play_san(&p, line[i]), PGN_OK);
        keys[n++] = pgn_pos_identity_key(&p);
    }
    CHECK_EQ_INT((int)p.halfmove, 2);
    CHECK_EQ_INT((int)pgn_repetitions(keys, n, p.halfmove), 1);
    CHECK_EQ_INT((int)pgn_repetitions(keys, n, pgn_pos_repetition_window(&p)), 3);
    pgn_pos std = vpos(PGN_VARIANT_STANDARD, "k7/8/8/8/8/8/8/K7 w - - 7 9");
    CHECK_EQ_INT((int)pgn_pos_repetition_window(&std), 7);
}

/* Atomic: a move that explodes the enemy king may leave the mover's king attacked, so a FEN with
 * the side to move kingless and the other king attacked is read (python-chess's random play
 * reaches it: 3k2R1/8/4p1B1/p7/7p/8/8/R7 w). With both kings on the board and the side not to
 * move attacked it is read too, as python-chess 1.11.2 (AtomicBoard.status() drops the opposite
 * check) and scalachess read it (issue 35): python-chess lists 27 legal moves, Rxd8 among them,
 * which explodes the attacked king. */
static void test_atomic_exploded_fen(void) {
    pgn_pos over = vpos(PGN_VARIANT_ATOMIC, "3k2R1/8/4p1B1/p7/7p/8/8/R7 w - - 0 62");
    CHECK_EQ_INT(pgn_pos_outcome(&over, 1), PGN_OUTCOME_KING_EXPLODED);
    CHECK_EQ_INT(pgn_outcome_winner(&over, PGN_OUTCOME_KING_EXPLODED), PGN_BLACK);
    pgn_pos q;
    pgn_fen_diag d;
    const char *both = "3k2R1/8/4p1B1/p7/7p/8/8/R6K w - - 0 62";
    CHECK_EQ_INT(pgn_fen_parse_variant(&q, PGN_VARIANT_ATOMIC, both, strlen(both), 0, &d), PGN_OK);
    CHECK_EQ_INT((int)pgn_pos_count_legal(&q), 27);
    pgn_pos after = q;
    pgn_move rxd8;
    CHECK_EQ_INT(pgn_uci_parse(&q, "g8d8", 4, &rxd8), PGN_OK);
    pgn_pos_play(&after, rxd8);
    CHECK_EQ_INT(pgn_pos_outcome(&after, 1), PGN_OUTCOME_KING_EXPLODED);
    CHECK_EQ_INT(pgn_outcome_winner(&after, PGN_OUTCOME_KING_EXPLODED), PGN_WHITE);
}

int main(void) {
    test_names();
    test_starts();
    test_fen_dialects();
    test_drops();
    test_drops_in_languages();
    test_antichess();
    test_atomic();
    test_check_variants();
    test_race_and_horde();
    test_horde_material();
    test_clock_rules();
    test_zh_repetition();
    test_atomic_exploded_fen();
    test_perft_files();
    return harness_finish();
}
