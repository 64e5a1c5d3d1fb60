/* SPDX-License-Identifier: MIT */
/* The selection language (include/pgnkit/query.h, docs/query.md): errors with their columns, the
 * canonical form as a fixed point, atoms against hand-checked games, and the properties over a
 * slice of TWIC 1427: `not E` is the complement of E, `or` the union, `and` the intersection, and
 * `fen` of a random position of a game selects that game; the final position end_game's summary
 * gives, against pgn-extract's final FENs. */
#define _POSIX_C_SOURCE 200809L
#include <pgnkit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testutil.h"

#define MAXG 400

/* Runs expr over the PGN text; sets hit[k] for each matching game k (0-based); returns the number
 * of games, or -1 if the expression does not compile. */
static int run(const char *expr, const char *pgn, size_t len, unsigned char *hit) {
    pgn_query *q;
    pgn_query_error e;
    if (pgn_query_compile(&q, expr, strlen(expr), NULL, &e) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "'%s' does not compile: %s", expr, e.message);
        return -1;
    }
    pgn_query_matcher *m;
    pgn_reader *r;
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = pgn_query_reader_flags(q);
    if (pgn_query_matcher_new(&m, q, NULL) != PGN_OK ||
        pgn_reader_new_mem(&r, &ro, pgn, len) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        return -1;
    }
    int n = 0;
    while (n < MAXG && pgn_reader_visit(r, pgn_query_visitor(), m) == PGN_OK) {
        pgn_query_result res;
        CHECK_EQ_INT(pgn_query_matcher_result(m, &res), PGN_OK);
        hit[n++] = (unsigned char)res.matched;
    }
    pgn_reader_free(r);
    pgn_query_matcher_free(m);
    pgn_query_free(q);
    return n;
}

static void test_errors(void) {
    static const struct {
        const char *expr;
        pgn_status st;
        uint32_t column;
        const char *message;
    } cases[] = {
        {"frobnicate", PGN_E_UNEXPECTED_TOKEN, 1, "unknown atom 'frobnicate'"},
        {"white ~", PGN_E_UNEXPECTED_TOKEN, 8, "expected an operand, found at the end"},
        {"(mate or", PGN_E_UNEXPECTED_TOKEN, 9, "unexpected at the end"},
        {"mate )", PGN_E_UNEXPECTED_TOKEN, 6, "unexpected ')'"},
        {"count(X) > 1", PGN_E_UNEXPECTED_TOKEN, 7, "expected piece letters, found 'X'"},
        {"count(N) - >= 1", PGN_E_UNEXPECTED_TOKEN, 12,
         "expected a number or count(...), found '>='"},
        {"count(N) + x > 1", PGN_E_UNEXPECTED_TOKEN, 12,
         "expected a number or count(...), found 'x'"},
        {"count(N) >= count(Z)", PGN_E_UNEXPECTED_TOKEN, 19, "expected piece letters, found 'Z'"},
        {"count(P) count(p)", PGN_E_UNEXPECTED_TOKEN, 10, "unexpected 'count'"},
        {"count(P)+count(P)+count(P)+count(P)+count(P)+count(P)+count(P)+count(P)+count(P) > "
         "count(p)+count(p)+count(p)+count(p)+count(p)+count(p)+count(p)+count(p)",
         PGN_E_UNEXPECTED_TOKEN, 147, "too many terms at 'count'"},
        {"Pd4 and\n  Qz9", PGN_E_UNEXPECTED_TOKEN, 11, "unknown atom 'Qz9'"},
        {"at (white ~ X)", PGN_E_UNEXPECTED_TOKEN, 5, "a game condition inside a position group"},
        {"speed = slow", PGN_E_UNEXPECTED_TOKEN, 9, "unknown speed 'slow'"},
        {"move Zz4", PGN_E_UNEXPECTED_TOKEN, 6, "not a move such as Nxe5, e8=Q or O-O: 'Zz4'"},
        {"persist 0 check", PGN_E_UNEXPECTED_TOKEN, 9, "expected a number of plies, found '0'"},
        {"white ~ \"(a\"", PGN_E_UNEXPECTED_TOKEN, 9,
         "groups and counted repeats are not supported in '\"(a\"'"},
        {"plies > many", PGN_E_UNEXPECTED_TOKEN, 9, "expected a number, found 'many'"},
        {"pattern \"8/8/8/8/8/8/8/[^KQRBNPkqrbnp]7\"", PGN_E_UNEXPECTED_TOKEN, 9,
         "a [...] that no square can match in '\"8/8/8/8/8/8/8/[^KQRBNPkqrbnp]7\"'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pgn_query *q = NULL;
        pgn_query_error e;
        pgn_status st = pgn_query_compile(&q, cases[i].expr, strlen(cases[i].expr), NULL, &e);
        CHECK_EQ_INT(st, cases[i].st);
        CHECK_EQ_INT(e.column, cases[i].column);
        CHECK_EQ_STR(e.message, cases[i].message);
        CHECK(e.column == 0 || strlen(e.expected) > 0 || st != PGN_E_UNEXPECTED_TOKEN);
    }
    /* 129 parentheses around an atom (130 levels): refused, never a deep recursion; 128 are read */
    char deep[300];
    memset(deep, '(', 129);
    strcpy(deep + 129, "mate");
    memset(deep + 133, ')', 129);
    deep[262] = 0;
    pgn_query *q = NULL;
    CHECK_EQ_INT(pgn_query_compile(&q, deep, strlen(deep), NULL, NULL), PGN_E_LIMIT);
    CHECK_EQ_INT(pgn_query_compile(&q, deep + 1, 260, NULL, NULL), PGN_OK);
    pgn_query_free(q);
    /* 64 operators above an atom are read, and so is their canonical form, which writes each in
     * parentheses ("(not (not ...))": 129 levels of text); 65 are refused at the atom */
    char nots[400] = "", canon[600];
    for (int k = 0; k < 64; k++) {
        strcat(nots, "not ");
    }
    strcat(nots, "mate");
    CHECK_EQ_INT(pgn_query_compile(&q, nots, strlen(nots), NULL, NULL), PGN_OK);
    size_t n = pgn_query_print(q, canon, sizeof canon);
    pgn_query_free(q);
    CHECK(n < sizeof canon && strncmp(canon, "(not (not ", 10) == 0);
    CHECK_EQ_INT(pgn_query_compile(&q, canon, n, NULL, NULL), PGN_OK);
    pgn_query_free(q);
    pgn_query_error e;
    memmove(nots + 4, nots, strlen(nots) + 1); /* 65 */
    CHECK_EQ_INT(pgn_query_compile(&q, nots, strlen(nots), NULL, &e), PGN_E_LIMIT);
    CHECK_EQ_INT(e.column, 261);
    CHECK_EQ_STR(e.message, "expression nested too deeply");
    /* flips: 4 nested are read; a fifth, which would test each point 32 times, is refused */
    const char *f4 = "flip (Pe4 or flip flip (check and flip move e4))";
    CHECK_EQ_INT(pgn_query_compile(&q, f4, strlen(f4), NULL, NULL), PGN_OK);
    pgn_query_free(q);
    const char *f5 = "flip (Pe4 or flip flip (check and flip flip move e4))";
    CHECK_EQ_INT(pgn_query_compile(&q, f5, strlen(f5), NULL, &e), PGN_E_LIMIT);
    CHECK_EQ_STR(e.message, "flip nested more than 4 deep");
    CHECK_EQ_INT(e.column, 45); /* the operand of the fifth */
}

static void test_print(void) {
    static const char *const exprs[] = {
        "White ~ \"Carlsen\"i and  # a comment\n Date >= 2020.01",
        "not (mate or stalemate) and plies>=40",
        "move e4 then at (Pd4 and Pe5) next check",
        "persist 3 (eval >= 3.0) or flip count( R ) >= 2",
        "count(N)-count(n) >= 2 and count(q) >= count(Q) + 1 and count(BN) - 2 = count(bn)-1",
        "in variations (Q on d1 and hash 0x463b96181691fc9c)",
        "opening \"1. e4 c5 2. Nf3\" and eco = B20..B99 and elo.avg > 2500",
    };
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        pgn_query *q, *q2;
        char a[512], b[512];
        CHECK_EQ_INT(pgn_query_compile(&q, exprs[i], strlen(exprs[i]), NULL, NULL), PGN_OK);
        pgn_query_print(q, a, sizeof a);
        CHECK_EQ_INT(pgn_query_compile(&q2, a, strlen(a), NULL, NULL), PGN_OK);
        pgn_query_print(q2, b, sizeof b);
        CHECK_EQ_STR(a, b);
        pgn_query_free(q);
        pgn_query_free(q2);
    }
    pgn_query *q;
    char a[128];
    CHECK_EQ_INT(pgn_query_compile(&q, "a = 1 and b = 2 then c", 22, NULL, NULL),
                 PGN_E_UNEXPECTED_TOKEN); /* then takes point atoms only */
    CHECK_EQ_INT(pgn_query_compile(&q, "move e4 then Pd4 or not check", 29, NULL, NULL), PGN_OK);
    pgn_query_print(q, a, sizeof a);
    CHECK_EQ_STR(a, "((not check) or (move e4 then Pd4))"); /* cheap first */
    CHECK_EQ_INT(pgn_query_reader_flags(q), PGN_READ_NO_KEYS);
    pgn_query_free(q);
    CHECK_EQ_INT(pgn_query_compile(&q, "plies > 3 and White = x", 23, NULL, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_query_reader_flags(q),
                 PGN_READ_NO_KEYS); /* counted moves are read (issue 34) */
    pgn_query_free(q);
    CHECK_EQ_INT(pgn_query_compile(&q, "Event = x and White = y", 23, NULL, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_query_reader_flags(q), PGN_READ_NO_BOARD); /* tags alone: no move resolved */
    pgn_query_free(q);
}

static const char games[] =
    "[White \"Carlsen, Magnus\"]\n[Black \"Anand, V\"]\n[Date \"2020.05.??\"]\n"
    "[WhiteElo \"2850\"]\n[BlackElo \"2780\"]\n[TimeControl \"180+2\"]\n[Result \"1-0\"]\n\n"
    "1. e4 {[%clk 0:02:59]} e5 2. Qh5 Nc6 3. Bc4 Nf6 $4 4. Qxf7# 1-0\n\n"
    "[White \"Anand, V\"]\n[Black \"Kramnik\"]\n[Date \"2019.01.01\"]\n[TimeControl \"60+0\"]\n"
    "[Result \"0-1\"]\n\n"
    "1. d4 d5 2. c4 e6 {[%eval 0.30]} 3. Nc3 {[%eval 3.5] [%clk 0:00:05]} (3. Nf3 Nf6 4. g3 Be7) "
    "Nf6 4. e4 dxe4 5. d5 exd5 6. cxd5 c5 7. dxc6 e3 8. c7 exf2+ 9. Kxf2 Qxd1 "
    "10. cxb8=N Qxc1 1/2-1/2\n\n"
    "[White \"X\"]\n[Black \"Y\"]\n[TimeControl \"15+0\"]\n[Result \"1/2-1/2\"]\n\n"
    "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 1/2-1/2\n";

static void test_atoms(void) {
    static const struct {
        const char *expr;
        const char *hits;
    } cases[] = {
        {"player ~ \"carlsen\"i", "100"},
        {"player ~ \"carlsen\"", "000"},
        {"white ~ \"^Anand\"", "010"},
        {"Date >= 2020.01", "100"},
        {"Date >= 2020.06", "000"}, /* the month is unknown: not decided, no match */
        {"Date < 2020", "010"},
        {"year = 2019", "010"},
        {"elo >= 2780 and elo.avg = 2815 and elo.diff = 70", "100"},
        {"speed = blitz", "100"},
        {"speed = bullet", "010"},
        {"speed = ultrabullet", "001"},
        {"speed <= bullet", "011"},
        {"mate", "100"},
        {"ends = checkmate", "100"},
        {"ends = repetition", "000"},
        {"repetition", "001"},
        {"result != final", "000"},
        {"move Qxf7 and check", "100"},
        {"at (move Qxf7 and not check)", "000"},
        {"move e4 next move e5", "100"},
        {"move e4 next move Qh5", "000"},
        {"move e4 then move Qh5", "100"},
        {"opening \"1. c4 e6 2. d4 d5\"", "010"}, /* a transposition */
        {"underpromotion and promotion and capture", "010"},
        {"move cxb8=N", "010"},
        {"enpassant", "010"},
        {"castles", "000"},
        {"has comment", "110"},
        {"has nag $4", "100"},
        {"clock < 0:00:10", "010"},
        {"eval >= 3.0", "010"},
        {"eval.swing > 3.0", "010"},
        {"eval.swing > 3.5", "000"},
        {"Bg7 or in variations be7", "010"},
        {"be7", "000"},
        {"count(Qq) = 1", "010"},
        {"count(N) >= 3", "010"},
        {"count(N) > 2.5", "010"},
        {"at count(Q) > 999999999999999",
         "000"}, /* a count the board cannot hold: never, and no overflow */
        {"at count(Q) >= 0", "111"},
        {"at count(N) > 2.5", "010"},
        /* sums and differences of counts (pgn-extract's relational -z: R=, P#, N2<, B1>=) */
        {"count(P) = count(p)", "111"},
        {"at (count(P) != count(p) and count(Q) = count(q))", "110"}, /* 4. Qxf7#, 4...dxe4 */
        {"count(P) != count(p)", "110"},
        {"count(q) - count(Q) >= 1", "010"}, /* 9...Qxd1 */
        {"count(q)-count(Q) >= 1", "010"},
        {"count(q) >= count(Q) + 1", "010"},
        {"count(Q) + 1 <= count(q)", "010"},
        {"count(Q) - count(q) >= 1", "000"},
        {"count(q) - count(Q) = 2", "000"},
        {"count(Qq) - count(Q) = count(q)", "111"},     /* always: count(Qq) is their sum */
        {"count(N) + count(N) = count(NN) + 2", "111"}, /* a set counts each piece once */
        {"material \"KQRRBBNNPPPPPPPPkqrrbbnnpppppppp\" and btm", "111"},
        {"imbalance \"NN vs QB\"", "010"},
        {"flip Q on d8", "010"},
        {"persist 8 (move Nf3 or move Ng1 or move Nf6 or move Ng8)", "001"},
        {"persist 9 (move Nf3 or move Ng1 or move Nf6 or move Ng8)", "000"},
        {"fen \"rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2\"", "100"},
        {"pattern \"r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR\"", "100"},
        {"hash 0x463b96181691fc9c", "111"},
        {"hash 0x823c9b50fd114196", "101"}, /* Polyglot's 1. e4 */
        {"not mate", "011"},
        {"plies = 20 or plies = 9", "011"},
        {"moves = 4", "100"},
        {"moves = 5", "001"},
    };
    unsigned char hit[MAXG];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int n = run(cases[i].expr, games, sizeof games - 1, hit);
        char got[8] = {0};
        for (int k = 0; k < n && k < 7; k++) {
            got[k] = (char)('0' + hit[k]);
        }
        if (strcmp(got, cases[i].hits) != 0) {
            harness_fail(__FILE__, __LINE__, "'%s': matched %s, expected %s", cases[i].expr, got,
                         cases[i].hits);
        }
    }
}

/* The identities of the language, on real games. */
static void test_properties(const char *pgn, size_t len) {
    static const char *const atoms[] = {"WhiteElo >= 2600",
                                        "check and plies < 60",
                                        "castles",
                                        "at (Pd4 and Pe5)",
                                        "mate",
                                        "count(Q) = 0",
                                        "move Nxe5",
                                        "player ~ \"^S\"",
                                        "ends = stalemate",
                                        "capture then castles"};
    enum { NA = sizeof atoms / sizeof atoms[0] };
    static unsigned char hits[NA][MAXG], h[MAXG];
    int n = 0;
    char e[256];
    for (int a = 0; a < NA; a++) {
        n = run(atoms[a], pgn, len, hits[a]);
        snprintf(e, sizeof e, "not (%s)", atoms[a]);
        CHECK_EQ_INT(run(e, pgn, len, h), n);
        for (int k = 0; k < n; k++) {
            CHECK_EQ_INT(h[k], !hits[a][k]);
        }
    }
    for (int a = 0; a + 1 < NA; a++) {
        int b = a + 1;
        snprintf(e, sizeof e, "(%s) or (%s)", atoms[a], atoms[b]);
        run(e, pgn, len, h);
        for (int k = 0; k < n; k++) {
            CHECK_EQ_INT(h[k], hits[a][k] | hits[b][k]);
        }
        snprintf(e, sizeof e, "(%s) and (%s)", atoms[a], atoms[b]);
        run(e, pgn, len, h);
        for (int k = 0; k < n; k++) {
            CHECK_EQ_INT(h[k], hits[a][k] & hits[b][k]);
        }
    }
    CHECK(n >= 200);
}

/* fen of a position taken at random from game k selects game k. */
static void test_random_fens(const char *pgn, size_t len) {
    pgn_reader *r;
    pgn_game *g;
    if (pgn_reader_new_mem(&r, NULL, pgn, len) != PGN_OK || pgn_game_new(&g, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        return;
    }
    unsigned seed = 12345;
    unsigned char hit[MAXG];
    int tested = 0;
    for (int k = 0; k < MAXG && pgn_reader_next(r, g) == PGN_OK; k++) {
        seed = seed * 1103515245u + 12345u;
        if ((seed >> 16) % 8 != 0 || pgn_game_ply_count(g) == 0) {
            continue;
        }
        size_t ply = (seed >> 8) % (pgn_game_ply_count(g) + 1);
        pgn_pos pos = *pgn_game_start(g);
        pgn_node *nd = pgn_game_root(g);
        for (size_t i = 0; i < ply && pgn_node_child(nd); i++) {
            nd = pgn_node_child(nd);
            pgn_pos_play(&pos, pgn_node_move(nd));
        }
        char fen[PGN_FEN_MAX], expr[PGN_FEN_MAX + 16];
        pgn_fen_write(&pos, 0, fen, sizeof fen);
        snprintf(expr, sizeof expr, "fen \"%s\"", fen);
        if (run(expr, pgn, len, hit) > k) {
            if (!hit[k]) {
                harness_fail(__FILE__, __LINE__, "%s does not select game %d", expr, k + 1);
            }
            tested++;
        }
    }
    CHECK(tested >= 20);
    pgn_game_free(g);
    pgn_reader_free(r);
}

static pgn_flow key_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    uint64_t *keys = user;
    (void)mv;
    (void)san;
    (void)at;
    keys[before->key != 0]++;
    keys[2] += before->key == pgn_pos_compute_key(before);
    return PGN_FLOW_CONTINUE;
}

/* PGN_READ_NO_KEYS: the visitor's positions carry key 0; without it, their Polyglot keys. */
static void test_no_keys(void) {
    pgn_visitor v;
    memset(&v, 0, sizeof v);
    v.move = key_move;
    for (int flag = 0; flag < 2; flag++) {
        uint64_t keys[3] = {0, 0, 0};
        pgn_reader_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.flags = flag ? PGN_READ_NO_KEYS : 0;
        pgn_reader *r;
        if (pgn_reader_new_mem(&r, &ro, games, sizeof games - 1) != PGN_OK) {
            harness_fail(__FILE__, __LINE__, "out of memory");
            return;
        }
        while (pgn_reader_visit(r, &v, keys) == PGN_OK) {
        }
        pgn_reader_free(r);
        CHECK_EQ_U64(keys[0] + keys[1], 40);      /* main lines and the variation */
        CHECK_EQ_U64(keys[1], (flag ? 3u : 40u)); /* only the games' start positions have one */
        CHECK_EQ_U64(keys[2], (flag ? 3u : 40u));
    }
}

/* The final positions end_game's summary gives (final_pos), game by game. */
typedef struct finals {
    char (*fen)[PGN_FEN_MAX];
    size_t n, cap, null;
} finals;

static pgn_flow final_end(void *user, pgn_result result, const pgn_game_summary *sum) {
    finals *f = user;
    (void)result;
    if (f->n < f->cap) {
        f->fen[f->n][0] = 0;
        if (sum->final_pos) {
            pgn_fen_write(sum->final_pos, PGN_FEN_EP_ALWAYS, f->fen[f->n], PGN_FEN_MAX);
        }
    }
    f->null += sum->final_pos == NULL;
    f->n++;
    return PGN_FLOW_CONTINUE;
}

/* summary->final_pos against pgn-extract's final FEN of every game of TWIC 1427 (the oracle
 * written by pgn-extract -Wuci --fencomments, corpus/expected/pgn-extract-oracle): the position a
 * visitor without a move callback gets, which `ends = ...` reads. NULL without a board and
 * outside end_game. */
static void test_final_pos(const char *pgn, size_t len) {
    buf tsv = {0};
    if (!buf_load_shared("corpus/expected/pgn-extract-oracle/twic1427.uci-fen.tsv.gz", &tsv)) {
        return;
    }
    pgn_visitor v;
    memset(&v, 0, sizeof v);
    v.end_game = final_end;
    finals f = {calloc(6000, PGN_FEN_MAX), 0, 6000, 0};
    pgn_reader *r;
    if (!f.fen || pgn_reader_new_mem(&r, NULL, pgn, len) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        free(f.fen);
        buf_free(&tsv);
        return;
    }
    while (pgn_reader_visit(r, &v, &f) == PGN_OK) {
        CHECK(pgn_reader_summary(r)->final_pos == NULL); /* only during end_game */
    }
    pgn_reader_free(r);
    size_t rows = 0, same = 0;
    char *save = NULL, *fld[9];
    for (char *line = strtok_r(tsv.p, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || split_tabs(line, fld, 9) != 9 || fld[8][0] == 0) {
            continue; /* a game without moves has no FEN comment in pgn-extract's output */
        }
        size_t k = strtoul(fld[0], NULL, 10) - 1;
        rows++;
        same += k < f.n && k < f.cap && strcmp(f.fen[k], fld[8]) == 0;
    }
    CHECK_EQ_U64(f.null, 0);
    CHECK(rows > 4500);
    CHECK_EQ_U64(same, rows);
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = PGN_READ_NO_BOARD;
    f.n = f.null = 0;
    if (pgn_reader_new_mem(&r, &ro, games, sizeof games - 1) == PGN_OK) {
        while (pgn_reader_visit(r, &v, &f) == PGN_OK) {
        }
        pgn_reader_free(r);
    }
    CHECK_EQ_U64(f.null, 3);
    free(f.fen);
    buf_free(&tsv);
}

/* pgn_query_visitor_for drops the move callback only for a query that reads no point. */
static void test_visitor_for(void) {
    static const struct {
        const char *expr;
        int moves;
    } vis[] = {{"ends = checkmate", 0},
               {"result != final or plies > 80", 0},
               {"Pd4", 1},
               {"ends = repetition", 1},
               {"ends = checkmate and move e4", 1}};
    for (size_t i = 0; i < sizeof vis / sizeof vis[0]; i++) {
        pgn_query *q;
        if (pgn_query_compile(&q, vis[i].expr, strlen(vis[i].expr), NULL, NULL) != PGN_OK) {
            harness_fail(__FILE__, __LINE__, "'%s' does not compile", vis[i].expr);
            continue;
        }
        CHECK_EQ_INT(pgn_query_visitor_for(q)->move != NULL, vis[i].moves);
        CHECK(pgn_query_visitor_for(q)->end_game == pgn_query_visitor()->end_game);
        pgn_query_free(q);
    }
}

static void test_oom(void) {
    const char *expr = "white ~ \"^A\" and at (Pd4 and check) then mate or persist 2 capture";
    for (long k = 0; k < 200; k++) {
        limit_alloc la = {k, 0};
        pgn_allocator a = limit_allocator(&la);
        pgn_query *q = NULL;
        pgn_query_matcher *m = NULL;
        pgn_status st = pgn_query_compile(&q, expr, strlen(expr), &a, NULL);
        if (st == PGN_OK) {
            st = pgn_query_matcher_new(&m, q, &a);
        }
        if (st == PGN_OK) {
            pgn_reader *r;
            if (pgn_reader_new_mem(&r, NULL, games, sizeof games - 1) == PGN_OK) {
                while ((st = pgn_reader_visit(r, pgn_query_visitor(), m)) == PGN_OK) {
                    pgn_query_result res;
                    if ((st = pgn_query_matcher_result(m, &res)) != PGN_OK) {
                        break;
                    }
                }
                pgn_reader_free(r);
            }
            CHECK(st == PGN_END || st == PGN_E_NOMEM);
        } else {
            CHECK_EQ_INT(st, PGN_E_NOMEM);
        }
        pgn_query_matcher_free(m);
        pgn_query_free(q);
        CHECK_EQ_INT(la.live, 0);
    }
}

typedef struct diag_log {
    size_t n;
    pgn_status code[4];
    char token[4][48];
} diag_log;

static void log_diag(void *ctx, const pgn_diag *d) {
    diag_log *log = ctx;
    if (log->n < 4) {
        log->code[log->n] = d->code;
        memcpy(log->token[log->n], d->token, sizeof d->token);
    }
    log->n++;
}

/* pgn_query_filter: the reader reads every game whole although the matcher skips the movetext of
 * a tag-only expression, so the illegal move of each game is found (the standard: a king moves one
 * square, so Ke3 and Kd3 from e1 are no legal moves); the diagnostics are held until the flush,
 * passed for a match only, and the budget stops the flush at its error. */
static void test_filter(void) {
    static const char two[] = "[White \"Anna\"]\n\n1. e4 e5 2. Ke3 Nf6 *\n\n"
                              "[White \"Bob\"]\n\n1. d4 d5 2. Kd3 *\n";
    pgn_query *q;
    pgn_query_filter *f;
    pgn_reader *r;
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    if (pgn_query_compile(&q, "white ~ \"^Anna\"", 15, NULL, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "the expression does not compile");
        return;
    }
    CHECK_EQ_INT(pgn_query_filter_new(&f, q, NULL), PGN_OK);
    ro.on_diag = pgn_query_filter_diag;
    ro.diag_ctx = f;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, &ro, two, sizeof two - 1), PGN_OK);
    int expect[2] = {1, 0};
    for (int k = 0; k < 2; k++) {
        int matched = -1;
        diag_log log = {0};
        uint64_t counts[2] = {0, 0};
        CHECK_EQ_INT(pgn_reader_visit(r, pgn_query_filter_visitor(), f), PGN_OK);
        CHECK_EQ_INT(pgn_query_filter_matched(f, &matched), PGN_OK);
        CHECK_EQ_INT(matched, expect[k]);
        CHECK_EQ_INT(pgn_query_filter_flush(f, matched, log_diag, &log, 1, counts), matched);
        CHECK_EQ_INT((int)log.n, matched);
        CHECK_EQ_INT((int)counts[0], matched);
        if (matched) {
            CHECK_EQ_INT(log.code[0], PGN_E_ILLEGAL_MOVE);
            CHECK_EQ_STR(log.token[0], "Ke3");
        }
        CHECK_EQ_INT(pgn_query_filter_flush(f, 1, log_diag, &log, 0, counts), 0); /* dropped */
        CHECK_EQ_INT((int)log.n, matched);
    }
    pgn_reader_free(r);
    pgn_query_filter_free(f);
    pgn_query_free(q);
}

/* Crazyhouse: the White pawns that could reach b3 have left (a4, b4, cxd5) by move 4, and a pawn
 * taken is dropped on b3 at move 5 (lichess's rules: a captured pawn goes to the capturer's hand).
 * The "never" tests, which rest on pawns that only go forward, must not close the group. */
static void test_variant_never(void) {
    static const char zh[] = "[Variant \"Crazyhouse\"]\n\n"
                             "1. a4 e5 2. c4 d5 3. cxd5 Nf6 4. b4 Nc6 5. P@b3 *\n";
    static const char *const exprs[] = {"at Pb3", "Pb3", "at (Pb3 and Pb4)", "Pa4 then Pb3"};
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        unsigned char hit[1] = {0};
        CHECK_EQ_INT(run(exprs[i], zh, sizeof zh - 1, hit), 1);
        CHECK_EQ_INT(hit[0], 1);
    }
}

/* opening: the target reached by other move orders, castling and captures among them, matches;
 * the "out of reach" test (more squares to change than moves left) closes only the others. */
static void test_opening_reach(void) {
    static const struct {
        const char *expr, *pgn;
        int hit;
    } cases[] = {
        {"opening \"e4 c5 Nf3 d6 d4\"", "1. Nf3 d6 2. e4 c5 3. d4 *\n", 1},
        {"opening \"e4 c5 Nf3 d6 d4\"", "1. d4 d6 2. Nf3 c5 3. e4 *\n", 1},
        {"opening \"e4 c5 Nf3 d6 d4\"", "1. e4 c6 2. Nf3 c5 3. d4 *\n", 0},
        {"opening \"e4 c5 Nf3 d6 d4\"", "1. d3 c5 2. d4 d6 3. e4 *\n", 0},
        {"opening \"e4 e5 Nf3 Nc6 Bc4 Bc5 O-O\"", "1. Nf3 Nc6 2. e4 e5 3. Bc4 Bc5 4. O-O *\n", 1},
        {"opening \"e4 d5 exd5 Qxd5 Nc3\"", "1. e4 d5 2. exd5 Qxd5 3. Nc3 *\n", 1},
        {"opening \"e4 d5 exd5 Qxd5 Nc3\"", "1. Nc3 d5 2. e4 dxe4 3. Nxe4 *\n", 0},
        {"opening \"Nf3 Nf6 Ng1 Ng8\"", "1. Nc3 Nc6 2. Nb1 Nb8 *\n", 1},
        {"opening \"Nf3 Nf6 Ng1 Ng8\"", "1. Nc3 Nc6 2. Nb5 Nb8 *\n", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned char hit[1] = {2};
        CHECK_EQ_INT(run(cases[i].expr, cases[i].pgn, strlen(cases[i].pgn), hit), 1);
        CHECK_EQ_INT(hit[0], cases[i].hit);
    }
}

int main(void) {
    test_errors();
    test_opening_reach();
    test_variant_never();
    test_print();
    test_atoms();
    test_oom();
    test_no_keys();
    test_visitor_for();
    test_filter();
    buf b = {0};
    if (buf_load_shared("corpus/big/twic/twic1427.pgn.gz", &b)) {
        size_t len = slice_games(b.p, b.len, 300);
        test_properties(b.p, len);
        test_random_fens(b.p, len);
        test_final_pos(b.p, b.len);
    }
    buf_free(&b);
    return harness_finish();
}
