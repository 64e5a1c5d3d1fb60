/* SPDX-License-Identifier: MIT */
/* Unit tests of the UCI protocol parser on lines Stockfish 15.1 printed (Debian's stockfish, run by
 * hand: multipv 2 at 3000 nodes after 1. e4 e5 2. Bc4 Nc6 3. Qh5, a mate in one, a mated side), and
 * of the analysis logic against values computed by hand from lila's formulas (WinPercent.scala,
 * Advice.scala, AccuracyPercent.scala, AccuracyCP.scala). */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <math.h>
#include <stdlib.h>

static pgn_pos fen_pos(const char *fen, uint32_t flags) {
    pgn_pos p;
    if (pgn_fen_parse(&p, fen, strlen(fen), flags, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "bad FEN %s", fen);
        pgn_pos_init(&p);
    }
    return p;
}

static pgn_pos after_moves(const char *const *uci, size_t n) {
    pgn_pos p;
    pgn_pos_init(&p);
    for (size_t i = 0; i < n; i++) {
        pgn_move m;
        if (pgn_uci_parse(&p, uci[i], strlen(uci[i]), &m) != PGN_OK) {
            harness_fail(__FILE__, __LINE__, "bad move %s", uci[i]);
            return p;
        }
        pgn_pos_play(&p, m);
    }
    return p;
}

static const char *uci_of(const pgn_pos *p, pgn_move m) {
    static char str[PGN_UCI_MAX];
    pgn_uci_write(p, m, str);
    return str;
}

static pgn_uci_msg parse(const pgn_pos *pos, const char *line) {
    pgn_uci_msg m;
    pgn_uci_parse_line(pos, line, strlen(line), &m);
    return m;
}

static char *str_of(pgn_str s) {
    static char str[128];
    size_t n = s.len < sizeof str - 1 ? s.len : sizeof str - 1;
    memcpy(str, s.ptr, n);
    str[n] = 0;
    return str;
}

static const char *const qh5[] = {"e2e4", "e7e5", "f1c4", "b8c6", "d1h5"};

static void test_info_lines(void) {
    pgn_pos p = after_moves(qh5, 5);
    pgn_uci_msg m =
        parse(&p, "info depth 8 seldepth 7 multipv 1 score cp 88 nodes 2576 nps 515200 hashfull 0 "
                  "tbhits 0 time 5 pv g7g6 h5f3 g8f6 f3b3");
    CHECK_EQ_INT(m.kind, PGN_UCI_INFO);
    CHECK_EQ_INT(m.info.depth, 8);
    CHECK_EQ_INT(m.info.seldepth, 7);
    CHECK_EQ_INT(m.info.multipv, 1);
    CHECK_EQ_INT(m.info.score.kind, PGN_SCORE_CP);
    CHECK_EQ_INT(m.info.score.value, 88);
    CHECK_EQ_INT(m.info.score.bound, PGN_BOUND_EXACT);
    CHECK_EQ_U64(m.info.nodes, 2576);
    CHECK_EQ_U64(m.info.nps, 515200);
    CHECK_EQ_U64(m.info.time_ms, 5);
    CHECK_EQ_INT(m.info.pv_status, PGN_OK);
    CHECK_EQ_INT(m.info.pv_len, 4);
    CHECK_EQ_STR(uci_of(&p, m.info.pv[0]), "g7g6");
    CHECK_EQ_INT(m.info.has & (PGN_INFO_DEPTH | PGN_INFO_SCORE | PGN_INFO_PV),
                 PGN_INFO_DEPTH | PGN_INFO_SCORE | PGN_INFO_PV);

    m = parse(
        &p,
        "info depth 9 seldepth 7 multipv 1 score cp 75 upperbound nodes 3001 nps 500166 hashfull 0 "
        "tbhits 0 time 6 pv g7g6 h5f3");
    CHECK_EQ_INT(m.info.score.bound, PGN_BOUND_UPPER);
    CHECK_EQ_INT(m.info.score.value, 75);
    CHECK_EQ_U64(m.info.nodes, 3001);
    CHECK_EQ_INT(m.info.pv_len, 2);
    m = parse(&p, "info depth 12 score cp -40 lowerbound nodes 9 pv d8e7");
    CHECK_EQ_INT(m.info.score.bound, PGN_BOUND_LOWER);
    CHECK_EQ_INT(m.info.score.value, -40);
    m = parse(
        &p,
        "info depth 8 seldepth 6 multipv 2 score cp 67 nodes 3001 nps 500166 hashfull 0 tbhits 0 "
        "time 6 pv d8e7 b1c3 g7g6");
    CHECK_EQ_INT(m.info.multipv, 2);
    CHECK_EQ_INT(m.info.pv_len, 3);

    /* a wdl triple, unknown tokens, currmove and a CR line ending */
    m = parse(&p,
              "info depth 3 frobnicate currmove g7g6 currmovenumber 1 score cp 5 wdl 100 800 100 "
              "lowerbound pv g7g6\r");
    CHECK_EQ_INT(m.info.depth, 3);
    CHECK_EQ_INT(m.info.score.value, 5);
    CHECK_EQ_INT(m.info.score.bound, PGN_BOUND_LOWER);
    CHECK_EQ_INT(m.info.pv_len, 1);

    /* an illegal and an unreadable pv move: the pv stops before it */
    m = parse(&p, "info depth 3 score cp 10 pv g7g6 a1a8 h5f3");
    CHECK_EQ_INT(m.info.pv_len, 1);
    CHECK_EQ_INT(m.info.pv_status, PGN_E_ILLEGAL_MOVE);
    CHECK_EQ_STR(m.info.pv_bad, "a1a8");
    m = parse(&p, "info depth 3 score cp 10 pv g7g6 h5f3 xyz");
    CHECK_EQ_INT(m.info.pv_len, 2);
    CHECK_EQ_INT(m.info.pv_status, PGN_E_BAD_SAN);

    pgn_pos mate1 = fen_pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 0);
    m = parse(
        &mate1,
        "info depth 5 seldepth 2 multipv 1 score mate 1 nodes 512 nps 512000 hashfull 0 tbhits 0 "
        "time 1 pv a1a8");
    CHECK_EQ_INT(m.info.score.kind, PGN_SCORE_MATE);
    CHECK_EQ_INT(m.info.score.value, 1);
    CHECK_EQ_STR(uci_of(&mate1, m.info.pv[0]), "a1a8");
    m = parse(&mate1, "info depth 7 score mate -3 pv a1a2");
    CHECK_EQ_INT(m.info.score.value, -3);
    pgn_pos mated = fen_pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", 0);
    m = parse(&mated, "info depth 0 score mate 0");
    CHECK_EQ_INT(m.info.score.kind, PGN_SCORE_CHECKMATE);
    CHECK_EQ_INT(m.info.score.value, -1);

    m = parse(NULL, "info string NNUE evaluation using nn-ad9b42354671.nnue enabled");
    CHECK_EQ_INT(m.kind, PGN_UCI_INFO_STRING);
    CHECK_EQ_STR(str_of(m.text), "NNUE evaluation using nn-ad9b42354671.nnue enabled");
    /* a pv without a position: not read */
    m = parse(NULL, "info depth 1 score cp 3 pv g7g6");
    CHECK_EQ_INT(m.info.pv_len, 0);
    CHECK_EQ_INT(m.info.score.value, 3);
}

static void test_other_lines(void) {
    pgn_pos p = after_moves(qh5, 5);
    pgn_uci_msg m = parse(&p, "bestmove g7g6 ponder h5f3");
    CHECK_EQ_INT(m.kind, PGN_UCI_BESTMOVE);
    CHECK_EQ_INT(m.move_status, PGN_OK);
    CHECK_EQ_STR(uci_of(&p, m.best), "g7g6");
    CHECK(m.ponder != PGN_MOVE_NONE);
    m = parse(&p, "bestmove g7g6");
    CHECK(m.best != PGN_MOVE_NONE && m.ponder == PGN_MOVE_NONE);
    m = parse(&p, "bestmove e2e5");
    CHECK_EQ_INT(m.move_status, PGN_E_ILLEGAL_MOVE);
    CHECK_EQ_STR(m.move_bad, "e2e5");
    CHECK(m.best == PGN_MOVE_NONE);
    m = parse(&p, "bestmove hello");
    CHECK_EQ_INT(m.move_status, PGN_E_BAD_SAN);
    m = parse(&p, "bestmove 0000");
    CHECK(m.kind == PGN_UCI_BESTMOVE && m.move_status == PGN_OK && m.best == PGN_MOVE_NONE);
    m = parse(&p, "bestmove (none)");
    CHECK(m.kind == PGN_UCI_BESTMOVE && m.move_status == PGN_OK && m.best == PGN_MOVE_NONE);

    m = parse(NULL, "id name Stockfish 15.1");
    CHECK_EQ_INT(m.kind, PGN_UCI_ID_NAME);
    CHECK_EQ_STR(str_of(m.text), "Stockfish 15.1");
    m = parse(NULL, "id author the Stockfish developers (see AUTHORS file)");
    CHECK_EQ_INT(m.kind, PGN_UCI_ID_AUTHOR);
    CHECK_EQ_INT(parse(NULL, "uciok").kind, PGN_UCI_UCIOK);
    CHECK_EQ_INT(parse(NULL, "readyok").kind, PGN_UCI_READYOK);
    CHECK_EQ_INT(parse(NULL, "").kind, PGN_UCI_OTHER);
    CHECK_EQ_INT(parse(NULL, "Stockfish 15.1 by the Stockfish developers (see AUTHORS file)").kind,
                 PGN_UCI_OTHER);

    m = parse(NULL, "option name Hash type spin default 16 min 1 max 33554432");
    CHECK_EQ_INT(m.kind, PGN_UCI_OPTION);
    CHECK_EQ_STR(str_of(m.text), "Hash");
    CHECK_EQ_STR(str_of(m.option_type), "spin");
    CHECK_EQ_STR(str_of(m.option_default), "16");
    m = parse(NULL, "option name Clear Hash type button");
    CHECK_EQ_STR(str_of(m.text), "Clear Hash");
    CHECK_EQ_STR(str_of(m.option_type), "button");
    m = parse(NULL, "option name UCI_Chess960 type check default false");
    CHECK_EQ_STR(str_of(m.text), "UCI_Chess960");
    CHECK_EQ_STR(str_of(m.option_default), "false");
    m = parse(NULL, "option name Debug Log File type string default");
    CHECK_EQ_STR(str_of(m.text), "Debug Log File");
    CHECK_EQ_STR(str_of(m.option_default), "");
}

static void test_position_command(void) {
    char str[512];
    pgn_pos start;
    pgn_pos_init(&start);
    pgn_move mv[5];
    pgn_pos p = start;
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT(pgn_uci_parse(&p, qh5[i], 4, &mv[i]), PGN_OK);
        pgn_pos_play(&p, mv[i]);
    }
    CHECK_EQ_INT(pgn_uci_position_command(&start, mv, 0, str, sizeof str), 17);
    CHECK_EQ_STR(str, "position startpos");
    pgn_uci_position_command(&start, mv, 5, str, sizeof str);
    CHECK_EQ_STR(str, "position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5");
    /* too small a buffer: truncated, full length returned */
    char small[10];
    CHECK_EQ_INT(pgn_uci_position_command(&start, mv, 5, small, sizeof small), 48);
    CHECK_EQ_STR(small, "position ");

    /* standard castling from a FEN: e1g1 */
    pgn_pos cs = fen_pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0);
    pgn_san_result r;
    CHECK_EQ_INT(pgn_san_parse(&cs, "O-O", 3, 0, &r), PGN_OK);
    pgn_uci_position_command(&cs, &r.move, 1, str, sizeof str);
    CHECK_EQ_STR(str, "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1");

    /* Chess960 (UCI_Chess960): king takes rook, and a FEN even from the standard array */
    pgn_pos c9 = fen_pos("3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Gd - 1 1", 0);
    CHECK(c9.chess960);
    CHECK_EQ_INT(pgn_san_parse(&c9, "O-O", 3, 0, &r), PGN_OK);
    pgn_uci_position_command(&c9, &r.move, 1, str, sizeof str);
    CHECK_EQ_STR(
        str, "position fen 3r1k1r/4pp2/8/8/8/8/8/4RKR1 w Kq - 1 1 moves f1g1"); /* X-FEN: K is the
                                                                                   outermost rook */
    /* and the engine's castling in a pv is read back as castling */
    pgn_uci_msg m = parse(&c9, "info depth 1 score cp 0 pv f1g1 d8d1");
    CHECK_EQ_INT(m.info.pv_len, 2);
    CHECK_EQ_INT(PGN_MOVE_KIND(m.info.pv[0]), PGN_MOVE_CASTLE);
    pgn_pos s960 = start;
    s960.chess960 = 1;
    pgn_uci_position_command(&s960, NULL, 0, str, sizeof str);
    CHECK_EQ_STR(str, "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

static pgn_engine_eval cp(int32_t v) {
    pgn_engine_eval e = {PGN_SCORE_CP, v, 0};
    return e;
}

static pgn_engine_eval mate(int32_t v) {
    pgn_engine_eval e = {PGN_SCORE_MATE, v, 0};
    return e;
}

#define CHECK_NEAR(a, b)                                                                           \
    do {                                                                                           \
        double va_ = (a), vb_ = (b);                                                               \
        if (fabs(va_ - vb_) < 1e-9) {                                                              \
            harness_counts.passed++;                                                               \
        } else {                                                                                   \
            harness_fail(__FILE__, __LINE__, "%s == %s: %.12f != %.12f", #a, #b, va_, vb_);        \
        }                                                                                          \
    } while (0)

static unsigned nag_of(pgn_engine_eval before, pgn_engine_eval after, pgn_color mover) {
    pgn_judgement j;
    pgn_judge_move(before, after, mover, &j);
    return j.nag;
}

static void test_formulas(void) {
    /* 2 / (1 + exp(-0.00368208 * cp)) - 1, evaluated by hand (Python's math.exp) */
    CHECK_NEAR(pgn_engine_eval_winning_chances(cp(0)), 0.0);
    CHECK_NEAR(pgn_engine_eval_winning_chances(cp(100)), 0.1820517943832256);
    CHECK_NEAR(pgn_engine_eval_winning_chances(cp(-300)), -0.5022510018766968);
    CHECK_NEAR(pgn_engine_eval_winning_chances(mate(3)), 1.0);
    CHECK_NEAR(pgn_engine_eval_winning_chances(mate(-1)), -1.0);
    /* win percent caps at 1000 cp, mates count as 1000 */
    CHECK_NEAR(pgn_engine_eval_win_percent(cp(2500)), 50 + 50 * 0.9508948726828645);
    CHECK_NEAR(pgn_engine_eval_win_percent(mate(-4)), 50 - 50 * 0.9508948726828645);
    CHECK_EQ_INT(pgn_engine_eval_cp_capped(cp(-1500)), -1000);
    CHECK_EQ_INT(pgn_engine_eval_cp_capped(mate(2)), 1000);
    /* 103.1668100711649 * exp(-0.04354415386753951 * 10) - 3.166924740191411 + 1 */
    CHECK_NEAR(pgn_move_accuracy(60, 50), 64.57982845372067);
    CHECK_NEAR(pgn_move_accuracy(50, 60), 100.0);
    CHECK_NEAR(pgn_move_accuracy(100, 0), 0.0);
    CHECK_NEAR(pgn_move_accuracy(90, 10), 1.000170640274321);

    /* lichess's edges: loss >= 0.1 / 0.2 / 0.3; from 0 cp these fall between 54/55, 110/111,
     * 168/169 */
    CHECK_EQ_INT(nag_of(cp(0), cp(-54), PGN_WHITE), 0);
    CHECK_EQ_INT(nag_of(cp(0), cp(-55), PGN_WHITE), 6);
    CHECK_EQ_INT(nag_of(cp(0), cp(-110), PGN_WHITE), 6);
    CHECK_EQ_INT(nag_of(cp(0), cp(-111), PGN_WHITE), 2);
    CHECK_EQ_INT(nag_of(cp(0), cp(-168), PGN_WHITE), 2);
    CHECK_EQ_INT(nag_of(cp(0), cp(-169), PGN_WHITE), 4);
    CHECK_EQ_INT(nag_of(cp(0), cp(55), PGN_BLACK), 6);
    CHECK_EQ_INT(nag_of(cp(0), cp(-500), PGN_BLACK), 0);  /* a gain */
    CHECK_EQ_INT(nag_of(cp(900), cp(700), PGN_WHITE), 0); /* 0.071 of chances only */
    CHECK_EQ_INT(nag_of(cp(500), cp(300), PGN_WHITE), 2); /* 0.224 */
    /* mate created against the mover: by the centipawns before it */
    CHECK_EQ_INT(nag_of(cp(-1200), mate(-3), PGN_WHITE), 6);
    CHECK_EQ_INT(nag_of(cp(-800), mate(-3), PGN_WHITE), 2);
    CHECK_EQ_INT(nag_of(cp(-10), mate(1), PGN_BLACK), 4);
    /* a forced mate lost: by the centipawns after it */
    CHECK_EQ_INT(nag_of(mate(2), cp(1200), PGN_WHITE), 6);
    CHECK_EQ_INT(nag_of(mate(2), cp(800), PGN_WHITE), 2);
    CHECK_EQ_INT(nag_of(mate(2), cp(100), PGN_WHITE), 4);
    CHECK_EQ_INT(nag_of(mate(2), mate(-1), PGN_WHITE), 4);
    CHECK_EQ_INT(nag_of(mate(-2), cp(-100), PGN_BLACK), 4);
    CHECK_EQ_INT(nag_of(mate(3), mate(5), PGN_WHITE), 0); /* a slower mate: no judgement */
    pgn_engine_eval won = {PGN_SCORE_CHECKMATE, 1, 0};
    CHECK_EQ_INT(nag_of(mate(1), won, PGN_WHITE), 0);
    pgn_judgement j;
    pgn_judge_move(cp(30), cp(-250), PGN_WHITE, &j);
    CHECK_EQ_INT(j.cp_loss, 280);
    pgn_judge_move(cp(30), cp(-250), PGN_BLACK, &j);
    CHECK_EQ_INT(j.cp_loss, 0);

    /* engine scores are the side to move's */
    pgn_score s = {PGN_SCORE_CP, PGN_BOUND_EXACT, 50};
    CHECK_EQ_INT(pgn_engine_eval_from_score(s, PGN_BLACK, 7).value, -50);
    CHECK_EQ_INT(pgn_engine_eval_from_score(s, PGN_WHITE, 7).value, 50);
    pgn_score m0 = {PGN_SCORE_CHECKMATE, PGN_BOUND_EXACT, -1};
    CHECK_EQ_INT(pgn_engine_eval_from_score(m0, PGN_BLACK, 0).value, 1);

    /* position assessment */
    CHECK_EQ_INT(pgn_engine_eval_position_nag(cp(0)), 10);
    CHECK_EQ_INT(pgn_engine_eval_position_nag(cp(-30)), 10);
    CHECK_EQ_INT(pgn_engine_eval_position_nag(cp(31)), 14);
    CHECK_EQ_INT(pgn_engine_eval_position_nag(cp(-80)), 15);
    CHECK_EQ_INT(pgn_engine_eval_position_nag(cp(81)), 16);
    CHECK_EQ_INT(pgn_engine_eval_position_nag(cp(-200)), 17);
    CHECK_EQ_INT(pgn_engine_eval_position_nag(cp(201)), 18);
    CHECK_EQ_INT(pgn_engine_eval_position_nag(mate(-2)), 19);
    CHECK_EQ_INT(pgn_engine_eval_position_nag(won), 18);

    char str[32];
    pgn_engine_eval e = {PGN_SCORE_CP, 35, 18};
    pgn_engine_eval_format(e, str);
    CHECK_EQ_STR(str, "0.35,18");
    pgn_engine_eval_format(cp(-5), str);
    CHECK_EQ_STR(str, "-0.05");
    pgn_engine_eval_format(cp(-100), str);
    CHECK_EQ_STR(str, "-1.00");
    pgn_engine_eval_format(cp(1234), str);
    CHECK_EQ_STR(str, "12.34");
    pgn_engine_eval m3 = {PGN_SCORE_MATE, 3, 20};
    pgn_engine_eval_format(m3, str);
    CHECK_EQ_STR(str, "#3,20");
    pgn_engine_eval_format(mate(-2), str);
    CHECK_EQ_STR(str, "#-2");
    CHECK_EQ_INT(pgn_engine_eval_format(won, str), 0);
    pgn_engine_eval_format(cp(INT32_MIN), str); /* no overflow on the extremes */
    CHECK_EQ_STR(str, "-21474836.48");
    CHECK_EQ_INT(pgn_engine_eval_position_nag(cp(INT32_MIN)), 19);
    CHECK_EQ_INT(nag_of(cp(INT32_MIN), mate(-1), PGN_BLACK),
                 0); /* Black was winning, still mates */
    CHECK_EQ_INT(nag_of(cp(INT32_MIN), mate(-1), PGN_WHITE), 6); /* lost anyway */
}

static void test_game_stats(void) {
    /* computed by hand with lila's gameAccuracy: windows of 2, population standard deviation */
    pgn_engine_eval ev[] = {cp(15), cp(-20), cp(-20), cp(-300), cp(-250), cp(-260), cp(2000)};
    pgn_game_stats s;
    pgn_game_stats_compute(ev, 7, PGN_WHITE, &s);
    CHECK_EQ_INT(s.moves[0], 3);
    CHECK_EQ_INT(s.moves[1], 3);
    CHECK(fabs(s.accuracy[0] - 51.83120169891312) < 1e-9);
    CHECK(fabs(s.accuracy[1] - 12.243618128634301) < 1e-9);
    CHECK(fabs(s.acpl[0] - 325.0 / 3) < 1e-9);
    CHECK(fabs(s.acpl[1] - 1310.0 / 3) < 1e-9);
    CHECK_EQ_INT(s.blunders[0], 1); /* -20 -> -300 */
    CHECK_EQ_INT(s.blunders[1], 1); /* -260 -> +2000 */
    pgn_game_stats_compute(ev, 1, PGN_WHITE, &s);
    CHECK(s.moves[0] == 0 && s.accuracy[0] < 0 && s.acpl[1] < 0);
    pgn_game_stats_compute(ev, 2, PGN_BLACK, &s);
    CHECK(s.moves[0] == 0 && s.moves[1] == 1);
}

static ptrdiff_t to_buf(void *ctx, const void *data, size_t len) {
    char *b = ctx;
    size_t have = strlen(b);
    if (have + len >= 4096) {
        return -1;
    }
    memcpy(b + have, data, len);
    b[have + len] = 0;
    return (ptrdiff_t)len;
}

static void test_annotate(void) {
    static const char pgn[] = "[Event \"t\"]\n[Annotator \"Kasparov\"]\n\n"
                              "1. e4 {King's pawn} e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";
    pgn_reader *r;
    pgn_game *g;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, pgn, sizeof pgn - 1), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    pgn_position_analysis pa[8];
    memset(pa, 0, sizeof pa);
    int32_t cps[] = {20, 30, 30, 20, 20, 10};
    for (int i = 0; i < 6; i++) {
        pa[i].eval = cp(cps[i]);
        pa[i].eval.depth = 12;
    }
    pa[6].eval = mate(1);
    pa[6].eval.depth = 30;
    pa[7].eval.kind = PGN_SCORE_CHECKMATE;
    pa[7].eval.value = 1;
    /* the engine's line after 3. Qh5: 3... g6 4. Qf3 */
    pgn_pos p = after_moves(qh5, 5);
    pgn_uci_msg m = parse(&p, "info depth 12 score cp -10 pv g7g6 h5f3");
    pa[5].pv_len = m.info.pv_len;
    memcpy(pa[5].pv, m.info.pv, sizeof m.info.pv);
    pgn_annotate_opts o = {"pgnkit test", 0, 0};
    pgn_game_stats st;
    CHECK_EQ_INT(pgn_game_annotate(g, pa, 7, &o, &st), PGN_E_LIMIT);
    CHECK_EQ_INT(pgn_game_annotate(g, pa, 8, &o, &st), PGN_OK);
    CHECK_EQ_INT(st.blunders[1], 1);
    pgn_writer *w;
    char *out = calloc(1, 4096);
    pgn_writer_opts wo = {.width = 1000};
    CHECK_EQ_INT(pgn_writer_new(&w, &wo, to_buf, out), PGN_OK);
    CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
    const char *want =
        "[Event \"t\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"
        "[Black \"?\"]\n[Result \"1-0\"]\n[Annotator \"Kasparov; pgnkit test\"]\n[BlackACPL "
        "\"330\"]\n"
        "[BlackAccuracy \"";
    CHECK(strncmp(out, want, strlen(want)) == 0);
    CHECK(strstr(out, "[WhiteACPL \"5\"]") != NULL); /* (0 + 10 + 10 + 0) / 4 */
    CHECK(strstr(out, "1. e4 { King's pawn [%eval 0.30,12] } 1... e5 { [%eval 0.30,12] } 2. Bc4") !=
          NULL);
    CHECK(strstr(out, "3... Nf6 $4 { [%eval #1,30] Blunder. g6 was best. } (3... g6 { "
                      "[%eval 0.10,12] } 4. Qf3) 4. Qxf7# $18 1-0") != NULL);
    if (!strstr(out, "3... Nf6 $4")) {
        printf("%s\n", out);
    }
    /* read back: every move's [%eval] is what the engine said (the mating move has none), and
     * the engine line's first move carries the line's score */
    pgn_reader *r2;
    pgn_game *g2;
    CHECK_EQ_INT(pgn_reader_new_mem(&r2, NULL, out, strlen(out)), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g2, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_reader_next(r2, g2), PGN_OK);
    CHECK_EQ_INT(pgn_game_ply_count(g2), 7);
    pgn_node *nd = pgn_game_root(g2);
    for (int i = 1; i <= 7; i++) {
        nd = pgn_node_child(nd);
        pgn_eval got, expect;
        int has = pgn_node_eval(nd, &got);
        CHECK_EQ_INT(has, pgn_engine_eval_to_eval(pa[i].eval, &expect));
        if (has) {
            CHECK_EQ_INT(got.kind, expect.kind);
            CHECK_EQ_INT(got.value, expect.value);
            CHECK_EQ_INT(got.depth, (int32_t)pa[i].eval.depth);
        }
        if (i == 6) { /* 3... Nf6 and its alternative 3... g6 */
            pgn_node *alt = pgn_node_sibling(nd);
            CHECK(alt != NULL && pgn_node_eval(alt, &got) && got.kind == PGN_EVAL_CP &&
                  got.value == 10 && got.depth == 12);
        }
    }
    pgn_reader_free(r2);
    pgn_game_free(g2);
    free(out);
    /* a second run keeps one copy of our name */
    CHECK_EQ_INT(pgn_game_annotate(g, pa, 8, &o, NULL), PGN_OK);
    pgn_str ann;
    CHECK(pgn_game_tag_get(g, "Annotator", &ann));
    CHECK_EQ_STR(str_of(ann), "Kasparov; pgnkit test");
    pgn_writer_free(w);
    pgn_game_free(g);
    pgn_reader_free(r);
}

/* Reads pgn, annotates it with each of the runs in turn, returns the export text (malloc'd). */
typedef struct run {
    const pgn_position_analysis *pa;
    uint32_t flags;
    const char *annotator;
} run;

static char *annotate_runs(const char *pgn, size_t n, const run *runs, size_t nruns) {
    pgn_reader *r;
    pgn_game *g;
    pgn_writer *w;
    char *out = calloc(1, 8192);
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, pgn, strlen(pgn)), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    for (size_t k = 0; k < nruns; k++) {
        pgn_annotate_opts o = {runs[k].annotator, 0, runs[k].flags};
        CHECK_EQ_INT(pgn_game_annotate(g, runs[k].pa, n, &o, NULL), PGN_OK);
    }
    pgn_writer_opts wo = {.width = 1000};
    CHECK_EQ_INT(pgn_writer_new(&w, &wo, to_buf, out), PGN_OK);
    CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
    pgn_writer_free(w);
    pgn_game_free(g);
    pgn_reader_free(r);
    return out;
}

static void set_pv(pgn_position_analysis *pa, const pgn_pos *p, const char *line) {
    pgn_uci_msg m = parse(p, line);
    pa->pv_len = m.info.pv_len;
    memcpy(pa->pv, m.info.pv, sizeof m.info.pv);
}

/* Multipv lines as variations; a second analysis added (nothing twice) or replacing the first
 * (the same as analysing once), human annotations kept either way. */
static void test_annotate_replace(void) {
    static const char pgn[] =
        "[Event \"t\"]\n[Annotator \"Kasparov\"]\n\n"
        "1. e4 $1 {King's pawn [%eval 9.99]} e5 {Blunder.} (1... c5 {Sicilian}) 2. Bc4 Nc6 3. "
        "Qh5 Nf6 4. Qxf7# 1-0\n";
    pgn_pos start;
    pgn_pos_init(&start);
    pgn_position_analysis a[8], b[8];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    for (int i = 0; i < 7; i++) {
        a[i].eval = cp(20);
        b[i].eval = cp(i == 2 ? 150 : 20); /* run b: 1... e5 a mistake (-1.30 for Black) */
    }
    a[6].eval = b[6].eval = mate(1);
    a[7].eval.kind = b[7].eval.kind = PGN_SCORE_CHECKMATE;
    a[7].eval.value = b[7].eval.value = 1;
    pgn_pos p1 = after_moves(qh5, 1), p5 = after_moves(qh5, 5);
    set_pv(&a[1], &p1, "info score cp 0 pv c7c5 g1f3");
    set_pv(&b[1], &p1, "info score cp 0 pv e7e6 d2d4");
    set_pv(&a[5], &p5, "info score cp 0 pv g7g6 h5f3");
    set_pv(&b[5], &p5, "info score cp 0 pv d8e7");
    /* run a: multipv 3 at the start position */
    pgn_engine_line alt[2];
    memset(alt, 0, sizeof alt);
    set_pv(&a[0], &start, "info score cp 0 pv e2e4");
    pgn_uci_msg m = parse(&start, "info score cp 0 pv d2d4 d7d5");
    alt[0].eval = cp(15);
    alt[0].eval.depth = 9;
    alt[0].pv_len = m.info.pv_len;
    memcpy(alt[0].pv, m.info.pv, sizeof m.info.pv);
    m = parse(&start, "info score cp 0 pv g1f3");
    alt[1].eval = cp(-5);
    alt[1].pv_len = m.info.pv_len;
    memcpy(alt[1].pv, m.info.pv, sizeof m.info.pv);
    a[0].alt = alt;
    a[0].alt_count = 2;

    run ra = {a, PGN_ANNOTATE_ALL_LINES, "E, nodes 1 (pgnkit analyze)"};
    run rb = {b, 0, "E, nodes 2 (pgnkit analyze)"};
    run rb_replace = {b, PGN_ANNOTATE_REPLACE, "E, nodes 2 (pgnkit analyze)"};
    char *once_a = annotate_runs(pgn, 8, &ra, 1);
    /* lines 2 and 3 at the first move, with their scores; line 1 is the move played */
    CHECK(strstr(once_a, "1. e4 $1 { King's pawn [%eval 0.20] } (1. d4 { [%eval 0.15,9] } 1... "
                         "d5) (1. Nf3 { [%eval -0.05] }) 1... e5") != NULL);
    /* the human variation starting with 1... c5 stands for line 1 there: not added twice */
    CHECK(strstr(once_a, "(1... c5 { Sicilian }) 2. Bc4") != NULL);
    CHECK(strstr(once_a, "1... e5 { Blunder. [%eval 0.20] }") != NULL); /* no $4: not ours */
    run twice_a[2] = {ra, ra};
    char *again_a = annotate_runs(pgn, 8, twice_a, 2);
    CHECK_EQ_STR(again_a, once_a); /* added again: nothing new */
    char *once_b = annotate_runs(pgn, 8, &rb, 1);
    run a_then_b[2] = {ra, rb_replace};
    char *replaced = annotate_runs(pgn, 8, a_then_b, 2);
    CHECK_EQ_STR(replaced, once_b); /* replacing: as if analysed once */

    if (strcmp(replaced, once_b) != 0) {
        printf("%s\n%s\n", replaced, once_b);
    }
    CHECK(strstr(once_b, "1... e5 $2 { Blunder. [%eval 1.50] Mistake. e6 was best. } (1... c5 "
                         "{ Sicilian }) (1... e6 { [%eval 0.20] } 2. d4) 2. Bc4") != NULL);
    CHECK(strstr(once_b, "[Annotator \"Kasparov; E, nodes 2 (pgnkit analyze)\"]") != NULL);
    run a_add_b[2] = {ra, rb};
    char *added = annotate_runs(pgn, 8, a_add_b, 2);
    /* adding: both runs' lines and sentences, the later [%eval], both annotators */
    CHECK(strstr(added, "[Annotator \"Kasparov; E, nodes 1 (pgnkit analyze); E, nodes 2 (pgnkit "
                        "analyze)\"]") != NULL);
    CHECK(strstr(added,
                 "3... Nf6 $4 { [%eval #1] Blunder. g6 was best. Blunder. Qe7 was best. } "
                 "(3... g6 { [%eval 0.20] } 4. Qf3) (3... Qe7 { [%eval 0.20] }) 4.") != NULL);
    CHECK(strstr(added, "(1. d4 { [%eval 0.15,9] } 1... d5)") != NULL);
    free(once_a);
    free(again_a);
    free(once_b);
    free(replaced);
    free(added);
}

/* A pv longer than PGN_UCI_PV_MAX is cut there; random token soup never breaks the parser's
 * promises (pv legal move by move, pv_len bounded). */
static void test_robustness(void) {
    char line[1024] = "info depth 30 score cp 1 pv";
    for (int i = 0; i < 18; i++) {
        strcat(line, " g1f3 g8f6 f3g1 f6g8");
    }
    pgn_pos start;
    pgn_pos_init(&start);
    pgn_uci_msg m = parse(&start, line);
    CHECK_EQ_INT(m.info.pv_len, PGN_UCI_PV_MAX);
    CHECK_EQ_INT(m.info.pv_status, PGN_OK);

    static const char *const words[] = {
        "info",       "depth",    "score",   "cp",     "mate",
        "lowerbound", "pv",       "multipv", "nodes",  "string",
        "wdl",        "bestmove", "ponder",  "e2e4",   "e7e5",
        "g1f3",       "a1a1",     "0000",    "-5",     "99999999999999999999",
        "x",          "(none)",   "\t",      "option", "name",
        "type",       "default",  "id",      "uciok",  "currmove"};
    uint32_t seed = 12345;
    int bad = 0;
    for (int round = 0; round < 20000; round++) {
        char str[256] = "";
        size_t len = 0;
        seed = seed * 1103515245u + 12345u;
        int n = (int)(seed >> 16) % 12;
        for (int k = 0; k < n; k++) {
            seed = seed * 1103515245u + 12345u;
            const char *w = words[(seed >> 16) % (sizeof words / sizeof words[0])];
            size_t wl = strlen(w);
            if (len + wl + 2 < sizeof str) {
                memcpy(str + len, w, wl);
                len += wl;
                str[len++] = ' ';
            }
        }
        pgn_uci_parse_line(&start, str, len, &m);
        pgn_pos p = start;
        if (m.info.pv_len > PGN_UCI_PV_MAX) {
            bad++;
        }
        for (uint32_t k = 0; k < m.info.pv_len && k < PGN_UCI_PV_MAX; k++) {
            if (!pgn_pos_is_legal(&p, m.info.pv[k])) {
                bad++;
                break;
            }
            pgn_pos_play(&p, m.info.pv[k]);
        }
        if (m.kind == PGN_UCI_BESTMOVE && m.best != PGN_MOVE_NONE &&
            !pgn_pos_is_legal(&start, m.best)) {
            bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
}

/* What a sweep of annotate_limited over k = 0, 1, ... found. */
typedef struct nomem_sweep {
    int done;      /* a run needed no failing allocation */
    int nomem;     /* runs that gave PGN_E_NOMEM */
    int in_second; /* of them, runs where the second annotation gave it */
} nomem_sweep;

/* Reads pgn (120 plies) with every allocation from a limit_alloc that lets k succeed (counted from
 * the game's and the reader's first), then annotates the game with first and, if given, second;
 * for k = 0, 1, ... up to max_k until a run needs no failing allocation. Each run must end in
 * PGN_OK or PGN_E_NOMEM and leak nothing. */
static nomem_sweep annotate_nomem_sweep(const char *pgn, const pgn_position_analysis *pa, size_t n,
                                        const pgn_annotate_opts *first,
                                        const pgn_annotate_opts *second, long max_k) {
    nomem_sweep sw = {0, 0, 0};
    for (long k = 0; k < max_k && !sw.done; k++) {
        limit_alloc b = {k, 0};
        pgn_allocator al = limit_allocator(&b);
        pgn_reader_opts o;
        memset(&o, 0, sizeof o);
        o.alloc = &al;
        pgn_reader *r = NULL;
        pgn_game *g = NULL;
        pgn_status st = pgn_game_new(&g, &al);
        if (st == PGN_OK) {
            st = pgn_reader_new_mem(&r, &o, pgn, strlen(pgn));
        }
        if (st == PGN_OK) {
            st = pgn_reader_next(r, g);
        }
        if (st == PGN_OK) {
            CHECK_EQ_INT(pgn_game_ply_count(g), 120);
            st = pgn_game_annotate(g, pa, n, first, NULL);
        }
        if (st == PGN_OK && second) {
            st = pgn_game_annotate(g, pa, n, second, NULL);
            sw.in_second += st == PGN_E_NOMEM;
        }
        if (st == PGN_OK) {
            sw.done = 1;
        } else if (st == PGN_E_NOMEM) {
            sw.nomem++;
        } else {
            harness_fail(__FILE__, __LINE__, "allocation %ld failing: %s", k, pgn_status_name(st));
        }
        pgn_reader_free(r);
        pgn_game_free(g);
        CHECK_EQ_INT(b.live, 0);
    }
    return sw;
}

/* pgn_game_annotate with allocation k failing, for every k until one run needs no failing one:
 * PGN_E_NOMEM each time, nothing leaked. */
static void test_annotate_nomem(void) {
    char pgn[4096] = "[Event \"n\"]\n\n";
    for (int i = 0; i < 60; i++) {
        strcat(pgn, i % 2 ? "Ng1 Ng8 " : "Nf3 Nf6 ");
    }
    strcat(pgn, "*\n");
    size_t n = 121;
    pgn_position_analysis *pa = calloc(n, sizeof *pa);
    for (size_t i = 0; i < n; i++) {
        pa[i].eval = cp(i % 2 ? -400 : 400); /* every move a blunder: NAGs and comments */
    }
    /* and a variation after the first move */
    pgn_pos p;
    pgn_pos_init(&p);
    pgn_uci_msg m = parse(&p, "info depth 1 score cp 0 pv e2e4 e7e5 g1f3");
    pa[0].pv_len = m.info.pv_len;
    memcpy(pa[0].pv, m.info.pv, sizeof m.info.pv);
    /* whether the annotation needs memory of its own depends on how full the game's arena is */
    nomem_sweep sw = annotate_nomem_sweep(pgn, pa, n, NULL, NULL, 10000);
    CHECK(sw.done);
    CHECK(sw.nomem > 0);
    free(pa);
}

/* An analysis with every line, then one replacing it, with allocation k failing (counted from
 * the game's first), for every k until a run needs no failing one: PGN_E_NOMEM each time, nothing
 * leaked. */
static void test_annotate_replace_nomem(void) {
    char pgn[4096] = "[Event \"n\"]\n\n";
    for (int i = 0; i < 60; i++) {
        strcat(pgn, i % 2 ? "Ng1 {a comment} Ng8 " : "Nf3 Nf6 (1... e5) ");
    }
    strcat(pgn, "*\n");
    size_t n = 121;
    pgn_position_analysis *pa = calloc(n, sizeof *pa);
    pgn_pos p[2];
    pgn_pos_init(&p[0]);
    pgn_uci_msg m = parse(&p[0], "info depth 1 score cp 0 pv g1f3");
    p[1] = p[0];
    pgn_pos_play(&p[1], m.info.pv[0]);
    pgn_engine_line alt[2];
    memset(alt, 0, sizeof alt);
    for (int k = 0; k < 2; k++) {
        m = parse(&p[k], k == 0 ? "info score cp 0 pv d2d4 d7d5" : "info score cp 0 pv d7d5 d2d4");
        alt[k].eval = cp(5);
        alt[k].pv_len = m.info.pv_len;
        memcpy(alt[k].pv, m.info.pv, sizeof m.info.pv);
    }
    for (size_t i = 0; i < n; i++) {
        pa[i].eval = cp(i % 2 ? -400 : 400); /* every move a blunder */
        /* the positions cycle through the start, 1. Nf3, 1... Nf6, 2. Ng1 */
        m = parse(&p[i % 2], i % 2 ? "info score cp 0 pv e7e5 b1c3" : "info score cp 0 pv e2e4");
        pa[i].pv_len = m.info.pv_len;
        memcpy(pa[i].pv, m.info.pv, sizeof m.info.pv);
        pa[i].alt = &alt[i % 2];
        pa[i].alt_count = 1;
        if (i % 4 >= 2) { /* after 1. Nf3 Nf6 and 2. Ng1: no lines given */
            pa[i].pv_len = pa[i].alt_count = 0;
        }
    }
    pgn_annotate_opts all = {"E, nodes 1 (pgnkit analyze)", 0, PGN_ANNOTATE_ALL_LINES};
    pgn_annotate_opts rep = {"E, nodes 2 (pgnkit analyze)", 0, PGN_ANNOTATE_REPLACE};
    nomem_sweep sw = annotate_nomem_sweep(pgn, pa, n, &all, &rep, 100000);
    CHECK(sw.done);
    CHECK(sw.in_second > 0); /* the replacing run itself ran out of memory */
    CHECK(sw.nomem > sw.in_second);
    free(pa);
}

int main(void) {
    test_info_lines();
    test_other_lines();
    test_position_command();
    test_formulas();
    test_game_stats();
    test_annotate();
    test_annotate_replace();
    test_annotate_nomem();
    test_annotate_replace_nomem();
    test_robustness();
    return harness_finish();
}
