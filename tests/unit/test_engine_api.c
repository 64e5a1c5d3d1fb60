/* SPDX-License-Identifier: MIT */
/* The engine API of the library: pgn_search (one search's output read line by line: exact scores
 * beat bounds, the best move as a fallback line, the engine's illegal moves) and pgn_game_analyze
 * with the engine behind callbacks. The scripted engine is the one of pgnkit analyze's CLI tests
 * (tests/tools/fake_script.h, also run as the program fake_engine), here in process: the
 * annotated games must be the golden files tests/data/analyze/fake*.pgn, written by pgnkit
 * analyze with fake_engine (tests/cli/test_analyze.sh checks the program against them too). */
#include "harness.h"
#include "testutil.h"
#include "tools/fake_script.h"

#include <stdlib.h>

#define GOLD "tests/data/analyze/"

static pgn_status feed(pgn_search *s, const char *line) {
    return pgn_search_feed(s, line, strlen(line));
}

static const char *uci_of(const pgn_pos *p, pgn_move m) {
    static char str[PGN_UCI_MAX];
    pgn_uci_write(p, m, str);
    return str;
}

/* Feeds the lines (NULL-terminated) of one search of p, the last ending it; its result. */
static pgn_position_analysis search_lines(pgn_search *s, const pgn_pos *p,
                                          const char *const *lines) {
    pgn_search_begin(s, p);
    for (size_t i = 0; lines[i]; i++) {
        CHECK_EQ_INT(feed(s, lines[i]), lines[i + 1] ? PGN_OK : PGN_END);
    }
    pgn_position_analysis out;
    pgn_search_result(s, &out, NULL, 0);
    return out;
}

/* Lines in the form Stockfish 15.1 prints for a node-limited search (the last iteration unfinished:
 * a bound), multipv 2. */
static void test_search_bounds(void) {
    pgn_pos p;
    pgn_pos_init(&p);
    pgn_search *s;
    CHECK_EQ_INT(pgn_search_new(&s, NULL, 2), PGN_OK);
    pgn_search_begin(s, &p);
    CHECK_EQ_INT(feed(s, "info string NNUE evaluation using nn-ad9b42354671.nnue enabled"), PGN_OK);
    CHECK_EQ_INT(feed(s, "info depth 9 seldepth 11 multipv 1 score cp 35 nodes 4512 pv e2e4 e7e5"),
                 PGN_OK);
    CHECK_EQ_INT(feed(s, "info depth 9 seldepth 10 multipv 2 score cp 28 nodes 4512 pv d2d4 d7d5"),
                 PGN_OK);
    CHECK_EQ_INT(feed(s, "info depth 9 seldepth 10 multipv 3 score cp 20 nodes 4512 pv g1f3"),
                 PGN_OK);
    CHECK_EQ_INT(
        feed(s, "info depth 10 seldepth 12 multipv 1 score cp 61 lowerbound nodes 5000 pv c2c4"),
        PGN_OK);
    CHECK_EQ_INT(
        feed(s, "info depth 10 seldepth 12 multipv 2 score cp 12 upperbound nodes 5000 pv b1c3"),
        PGN_OK);
    CHECK_EQ_INT(feed(s, "bestmove e2e4 ponder e7e5"), PGN_END);
    pgn_position_analysis out;
    pgn_engine_line alt[3];
    pgn_search_result(s, &out, alt, 3);
    /* the exact scores of depth 9 win over the later bounds; multipv 3 was not asked for */
    CHECK_EQ_INT(out.eval.kind, PGN_SCORE_CP);
    CHECK_EQ_INT(out.eval.value, 35);
    CHECK_EQ_INT(out.eval.depth, 9);
    CHECK_EQ_INT(out.pv_len, 2);
    CHECK_EQ_STR(uci_of(&p, out.pv[0]), "e2e4");
    CHECK_EQ_INT(out.alt_count, 1);
    CHECK(out.alt == alt);
    CHECK_EQ_INT(alt[0].eval.value, 28);
    CHECK_EQ_STR(uci_of(&p, alt[0].pv[0]), "d2d4");
    CHECK_EQ_INT(pgn_search_warning_count(s), 0);
    /* only a bound: it is used; Black to move: White's point of view */
    pgn_pos b = p;
    pgn_move e4;
    CHECK_EQ_INT(pgn_uci_parse(&b, "e2e4", 4, &e4), PGN_OK);
    pgn_pos_play(&b, e4);
    static const char *const bound[] = {"info depth 1 multipv 1 score cp 40 upperbound pv e7e5",
                                        "bestmove e7e5", NULL};
    out = search_lines(s, &b, bound);
    CHECK_EQ_INT(out.eval.kind, PGN_SCORE_CP);
    CHECK_EQ_INT(out.eval.value, -40);
    CHECK_EQ_INT(out.alt_count, 0);
    /* a score without a pv: the best move stands in; no score at all: PGN_SCORE_NONE */
    static const char *const no_pv[] = {"info depth 1 score mate 3", "bestmove c7c5", NULL};
    out = search_lines(s, &b, no_pv);
    CHECK_EQ_INT(out.eval.kind, PGN_SCORE_MATE);
    CHECK_EQ_INT(out.eval.value, -3);
    CHECK_EQ_INT(out.pv_len, 1);
    CHECK_EQ_STR(uci_of(&b, out.pv[0]), "c7c5");
    out = search_lines(s, &b, no_pv + 1);
    CHECK_EQ_INT(out.eval.kind, PGN_SCORE_NONE);
    CHECK_EQ_INT(out.pv_len, 0);
    pgn_search_free(s);
    pgn_search_free(NULL);
}

/* Illegal moves: the first of each kind, in the order they came; the pv cut, the best move
 * dropped, the score kept. */
static void test_search_warnings(void) {
    pgn_pos p;
    pgn_pos_init(&p);
    pgn_search *s;
    CHECK_EQ_INT(pgn_search_new(&s, NULL, 0), PGN_OK);
    pgn_search_begin(s, &p);
    CHECK_EQ_INT(feed(s, "info depth 1 multipv 2 score cp 1 pv zz"), PGN_OK); /* not kept */
    CHECK_EQ_INT(feed(s, "info depth 2 score cp 30 pv e2e4 a1a1"), PGN_OK);
    CHECK_EQ_INT(feed(s, "info depth 3 score cp 31 pv e2e4 x"), PGN_OK);
    CHECK_EQ_INT(feed(s, "bestmove e1e8"), PGN_END);
    CHECK_EQ_INT(pgn_search_warning_count(s), 2);
    const pgn_search_warning *w = pgn_search_warning_at(s, 0);
    CHECK(!w->best_move && w->status == PGN_E_ILLEGAL_MOVE);
    CHECK_EQ_STR(w->move, "a1a1");
    w = pgn_search_warning_at(s, 1);
    CHECK(w->best_move && w->status == PGN_E_ILLEGAL_MOVE);
    CHECK_EQ_STR(w->move, "e1e8");
    pgn_position_analysis out;
    pgn_search_result(s, &out, NULL, 0);
    CHECK_EQ_INT(out.eval.value, 31);
    CHECK_EQ_INT(out.pv_len, 1);
    pgn_search_begin(s, &p);
    CHECK_EQ_INT(pgn_search_warning_count(s), 0);
    pgn_search_free(s);
}

/* ---- the scripted engine in process ---- */

typedef struct script {
    int multipv, chess960, new_games, fail_at; /* fail_at: the search that fails (0: none) */
    int searches, fed_after_end;
    const char *go;      /* the go command every request must carry */
    pgn_search *current; /* during a search */
    pgn_status last;
} script;

static void emit(void *ctx, const char *line) {
    script *sc = ctx;
    if (sc->last == PGN_END) {
        sc->fed_after_end++;
    }
    sc->last = pgn_search_feed(sc->current, line, strlen(line));
}

static pgn_status on_new_game(void *ctx, int chess960) {
    script *sc = ctx;
    sc->chess960 = chess960;
    sc->new_games++;
    return PGN_OK;
}

/* Plays the fake engine: the position set from the request's command, as fake_engine does. */
static pgn_status on_search(void *ctx, const pgn_search_request *req, pgn_search *search) {
    script *sc = ctx;
    if (++sc->searches == sc->fail_at) {
        return PGN_E_IO;
    }
    char cmd[4096], fen_got[PGN_FEN_MAX], fen_want[PGN_FEN_MAX];
    CHECK(strncmp(req->position, "position ", 9) == 0 && strlen(req->position) < sizeof cmd);
    CHECK_EQ_STR(req->go, sc->go);
    snprintf(cmd, sizeof cmd, "%s", req->position + 9);
    pgn_pos pos;
    CHECK_EQ_INT(fake_set_position(&pos, cmd, sc->chess960), 0);
    pgn_fen_write(&pos, 0, fen_got, sizeof fen_got);
    pgn_fen_write(req->pos, 0, fen_want, sizeof fen_want);
    CHECK_EQ_STR(fen_got, fen_want);
    sc->current = search;
    sc->last = PGN_OK;
    char score[32], best[PGN_UCI_MAX];
    if (fake_search_start(&pos, emit, sc, score, best)) {
        fake_search_finish(&pos, sc->multipv, score, best, emit, sc);
    }
    CHECK_EQ_INT(sc->last, PGN_END);
    return PGN_OK;
}

static const pgn_engine_callbacks script_engine = {on_new_game, on_search, NULL};

/* Analyses every game of the file in with the script, as `pgnkit analyze --engine fake_engine
 * [--nodes N] [--multipv K]` does, into out. */
static void analyze_file(const char *in, uint64_t nodes, int multipv, uint32_t flags, buf *out) {
    buf text = {0};
    CHECK(buf_read_path(in, &text));
    pgn_reader *r;
    pgn_game *g;
    pgn_writer *w;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, text.p, text.len), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_writer_new(&w, NULL, buf_write, out), PGN_OK);
    char go[64];
    snprintf(go, sizeof go, "go nodes %llu", (unsigned long long)(nodes ? nodes : 1000000));
    pgn_analyze_opts o = {PGN_LIMIT_NODES,  nodes, (uint32_t)multipv, flags, 0,
                          "FakeEngine 1.0", NULL};
    while (pgn_reader_next(r, g) == PGN_OK) {
        script sc = {multipv, 0, 0, 0, 0, 0, go, NULL, PGN_OK};
        CHECK_EQ_INT(pgn_game_analyze(g, &script_engine, &sc, &o, NULL), PGN_OK);
        CHECK_EQ_INT(sc.new_games, 1);
        CHECK_EQ_INT(sc.fed_after_end, 0);
        CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
    }
    pgn_writer_free(w);
    pgn_game_free(g);
    pgn_reader_free(r);
    buf_free(&text);
}

static void check_same_as_file(const buf *got, const char *path) {
    buf want = {0};
    CHECK(buf_read_path(path, &want));
    CHECK(got->len == want.len && memcmp(got->p, want.p, want.len) == 0);
    if (got->len != want.len || memcmp(got->p, want.p, want.len) != 0) {
        printf("-- got, want %s:\n%.*s\n", path, (int)got->len, got->p);
    }
    buf_free(&want);
}

static void test_analyze_golden(void) {
    buf out = {0};
    analyze_file(GOLD "games.pgn", 0, 1, 0, &out);
    check_same_as_file(&out, GOLD "fake.pgn");
    buf_free(&out);
    analyze_file(GOLD "games.pgn", 500, 3, 0, &out);
    check_same_as_file(&out, GOLD "fake-multipv3.pgn");
    buf_free(&out);
    /* analysing the analysed games again changes nothing, also with --replace */
    analyze_file(GOLD "fake.pgn", 0, 1, 0, &out);
    check_same_as_file(&out, GOLD "fake.pgn");
    buf_free(&out);
    analyze_file(GOLD "fake-multipv3.pgn", 500, 3, PGN_ANNOTATE_REPLACE, &out);
    check_same_as_file(&out, GOLD "fake-multipv3.pgn");
    buf_free(&out);
}

static pgn_game *read_game(const char *pgn) {
    pgn_reader *r;
    pgn_game *g;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, pgn, strlen(pgn)), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    pgn_reader_free(r);
    return g;
}

static void write_game(pgn_game *g, buf *out) {
    pgn_writer *w;
    CHECK_EQ_INT(pgn_writer_new(&w, NULL, buf_write, out), PGN_OK);
    CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
    pgn_writer_free(w);
}

/* The evaluation written on the last main-line move. */
static int last_eval(const pgn_game *g, pgn_eval *e) {
    const pgn_node *n = pgn_game_root(g);
    while (pgn_node_child(n)) {
        n = pgn_node_child(n);
    }
    return pgn_node_eval(n, e);
}

/* Positions the rules decide are not searched: checkmate, stalemate, dead positions, the 75-move
 * rule, fivefold repetition; claimable draws (threefold, 50 moves) are. */
static void test_decided_positions(void) {
    static const struct {
        const char *pgn;
        int searches;  /* of the positions, how many the engine is asked about */
        int has_eval;  /* the last move gets an [%eval] */
        int32_t value; /* its centipawns */
    } cases[] = {
        /* K+B v K after the capture: dead */
        {"[FEN \"8/8/8/4k3/8/8/3r4/3BK3 w - - 0 1\"]\n\n1. Kxd2 *", 1, 1, 0},
        /* stalemate, checkmate */
        {"[FEN \"7k/8/6Q1/8/8/8/8/K7 w - - 0 1\"]\n\n1. Qf7 *", 1, 1, 0},
        {"[FEN \"6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1\"]\n\n1. Re8# *", 1, 0, 0},
        /* the 75-move rule: halfmove 149, then a quiet move */
        {"[FEN \"4k3/8/8/8/8/8/4P3/R3K3 w - - 149 100\"]\n\n1. Ra2 *", 1, 1, 0},
        /* the 50-move rule is claimed, not automatic: searched */
        {"[FEN \"4k3/8/8/8/8/8/4P3/R3K3 w - - 99 100\"]\n\n1. Ra2 *", 2, 1, 500 + 100},
        /* knights out and back: the start position a fifth time after 16 plies (decided), and a
         * third time after 8 (searched) */
        {"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 "
         "Ng8 *",
         16, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pgn_game *g = read_game(cases[i].pgn);
        script sc = {1, 0, 0, 0, 0, 0, "go depth 3", NULL, PGN_OK};
        pgn_analyze_opts o;
        memset(&o, 0, sizeof o);
        o.limit = PGN_LIMIT_DEPTH;
        o.limit_value = 3;
        CHECK_EQ_INT(pgn_game_analyze(g, &script_engine, &sc, &o, NULL), PGN_OK);
        CHECK_EQ_INT(sc.searches, cases[i].searches);
        pgn_eval e;
        int has = last_eval(g, &e);
        CHECK_EQ_INT(has, cases[i].has_eval);
        if (has && cases[i].has_eval) {
            CHECK_EQ_INT(e.kind, PGN_EVAL_CP);
            CHECK_EQ_INT(e.value, cases[i].value);
        }
        static const char annotator[] = "engine, depth 3 (pgnkit analyze)";
        pgn_str ann;
        CHECK(pgn_game_tag_get(g, "Annotator", &ann) && ann.len == sizeof annotator - 1 &&
              memcmp(ann.ptr, annotator, ann.len) == 0);
        pgn_game_free(g);
    }
}

/* A null move, or an engine that fails: the error returned, the game unchanged. */
static void test_analyze_errors(void) {
    static const char *const pgns[] = {"1. e4 -- 2. d4 *", "1. e4 e5 2. Nf3 *"};
    for (int k = 0; k < 2; k++) {
        pgn_game *g = read_game(pgns[k]);
        buf before = {0}, after = {0};
        write_game(g, &before);
        script sc = {1, 0, 0, 3, 0, 0, "go nodes 1000000", NULL, PGN_OK};
        CHECK_EQ_INT(pgn_game_analyze(g, &script_engine, &sc, NULL, NULL),
                     k == 0 ? PGN_E_ILLEGAL_MOVE : PGN_E_IO);
        CHECK_EQ_INT(sc.searches, k == 0 ? 0 : 3);
        write_game(g, &after);
        CHECK(before.len == after.len && memcmp(before.p, after.p, before.len) == 0);
        buf_free(&before);
        buf_free(&after);
        pgn_game_free(g);
    }
}

/* Every allocation of the analysis' working memory failing in turn: PGN_E_NOMEM, nothing leaked,
 * the game unchanged; then success. */
static void test_analyze_nomem(void) {
    pgn_game *g = read_game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *");
    buf before = {0};
    write_game(g, &before);
    int done = 0, nomem = 0;
    for (long k = 0; k < 50 && !done; k++) {
        limit_alloc la = {k, 0};
        pgn_allocator al = limit_allocator(&la);
        pgn_analyze_opts o;
        memset(&o, 0, sizeof o);
        o.multipv = 3;
        o.alloc = &al;
        script sc = {3, 0, 0, 0, 0, 0, "go nodes 1000000", NULL, PGN_OK};
        pgn_status st = pgn_game_analyze(g, &script_engine, &sc, &o, NULL);
        CHECK(st == PGN_OK || st == PGN_E_NOMEM);
        CHECK_EQ_INT(la.live, 0);
        if (st == PGN_E_NOMEM) {
            nomem++;
            buf after = {0};
            write_game(g, &after);
            CHECK(before.len == after.len && memcmp(before.p, after.p, before.len) == 0);
            buf_free(&after);
        }
        done = st == PGN_OK;
    }
    CHECK(done);
    CHECK(nomem >= 6); /* moves, keys, positions, lines, command, the search and its lines */
    buf_free(&before);
    pgn_game_free(g);
}

int main(void) {
    test_search_bounds();
    test_search_warnings();
    test_analyze_golden();
    test_decided_positions();
    test_analyze_errors();
    test_analyze_nomem();
    return harness_finish();
}
