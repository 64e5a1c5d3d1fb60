/* SPDX-License-Identifier: MIT */
/* Embedded commands in comments (PGN Specification Supplement §3.2, §4; digest §10 and T84): every
 * form the supplement, lichess and python-chess write, malformed ones, the node getters and
 * setters, and removal. Expected values are the ones the digest states (T84) or the supplement's
 * own examples. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "pgnkit.h"

static pgn_str S(const char *s) {
    pgn_str r = {s, strlen(s)};
    return r;
}

/* The single command in text: its kind (and *out). */
static pgn_cmd_kind one(const char *text, pgn_cmd *out) {
    pgn_cmd_iter it;
    pgn_cmd_iter_init(&it, S(text));
    if (!pgn_cmd_next(&it, out)) {
        return (pgn_cmd_kind)-1;
    }
    return out->kind;
}

static void test_times(void) {
    pgn_cmd c;
    CHECK_EQ_INT(one("[%clk 1:55:21]", &c), PGN_CMD_CLK); /* supplement §4 example */
    CHECK_EQ_INT(c.ms, ((1 * 60 + 55) * 60 + 21) * 1000LL);
    CHECK_EQ_INT(one("[%clk 0:00:59.5]", &c), PGN_CMD_CLK);
    CHECK_EQ_INT(c.ms, 59500);
    CHECK_EQ_INT(one("[%clk 0:00:06.543]", &c), PGN_CMD_CLK); /* python-chess's output form */
    CHECK_EQ_INT(c.ms, 6543);
    CHECK_EQ_INT(one("[%clk 0:00:06.5436]", &c), PGN_CMD_CLK);
    CHECK_EQ_INT(c.ms, 6544);
    CHECK_EQ_INT(one("[%emt 0:05:42]", &c), PGN_CMD_EMT);
    CHECK_EQ_INT(c.ms, 342000);
    CHECK_EQ_INT(one("[%egt 1:25:42]", &c), PGN_CMD_EGT);
    CHECK_EQ_INT(c.ms, 5142000);
    CHECK_EQ_INT(one("[%mct 17:10:42]", &c), PGN_CMD_MCT);
    CHECK_EQ_INT(c.ms, 61842000);
    CHECK_EQ_INT(one("[%clk  0:03:00 ]", &c), PGN_CMD_CLK); /* white space around the operand */
    CHECK_EQ_INT(c.ms, 180000);
    CHECK(c.name.len == 3 && memcmp(c.name.ptr, "clk", 3) == 0);
    /* malformed */
    CHECK_EQ_INT(one("[%clk]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%clk 1 hour]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%clk 0:75:00]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%clk 0:00:60]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%clk 0:00]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%clk -0:00:01]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%clk 0:00:01", &c), PGN_CMD_BAD); /* no ] */
    CHECK_EQ_INT(one("[%clk:0:00:01]", &c), PGN_CMD_BAD);
}

static void test_evals(void) {
    pgn_cmd c;
    CHECK_EQ_INT(one("[%eval 0.35]", &c), PGN_CMD_EVAL);
    CHECK(c.eval.kind == PGN_EVAL_CP && c.eval.value == 35 && c.eval.depth == -1);
    CHECK_EQ_INT(one("[%eval -0.42,18]", &c), PGN_CMD_EVAL);
    CHECK(c.eval.kind == PGN_EVAL_CP && c.eval.value == -42 && c.eval.depth == 18);
    CHECK_EQ_INT(one("[%eval .99,23]", &c), PGN_CMD_EVAL);
    CHECK(c.eval.value == 99 && c.eval.depth == 23);
    CHECK_EQ_INT(one("[%eval +9.5]", &c), PGN_CMD_EVAL);
    CHECK_EQ_INT(c.eval.value, 950);
    CHECK_EQ_INT(one("[%eval 3]", &c), PGN_CMD_EVAL);
    CHECK_EQ_INT(c.eval.value, 300);
    CHECK_EQ_INT(one("[%eval 3.]", &c), PGN_CMD_EVAL);
    CHECK_EQ_INT(c.eval.value, 300);
    CHECK_EQ_INT(one("[%eval #-3]", &c), PGN_CMD_EVAL);
    CHECK(c.eval.kind == PGN_EVAL_MATE && c.eval.value == -3 && c.eval.depth == -1);
    CHECK_EQ_INT(one("[%eval #3,40]", &c), PGN_CMD_EVAL);
    CHECK(c.eval.kind == PGN_EVAL_MATE && c.eval.value == 3 && c.eval.depth == 40);
    CHECK_EQ_INT(one("[%eval #0]", &c), PGN_CMD_EVAL);
    CHECK(c.eval.kind == PGN_EVAL_MATE && c.eval.value == 0);
    /* malformed: python-chess and chessops accept at most two decimals */
    CHECK_EQ_INT(one("[%eval 0.355]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%eval x]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%eval]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%eval .]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%eval #]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%eval 0.3,]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%eval 0.3,d]", &c), PGN_CMD_BAD);
}

static void test_marks(void) {
    pgn_cmd c;
    pgn_mark m;
    pgn_str args;
    CHECK_EQ_INT(one("[%csl Ga4,Rb5]", &c), PGN_CMD_CSL);
    CHECK_EQ_INT(c.marks, 2);
    args = c.args;
    CHECK(pgn_mark_next(&args, &m) && m.color == 'G' && m.from == PGN_SQ(0, 3) && m.to == m.from);
    CHECK(pgn_mark_next(&args, &m) && m.color == 'R' && m.from == PGN_SQ(1, 4));
    CHECK(!pgn_mark_next(&args, &m));
    CHECK_EQ_INT(one("[%cal Ge2e4,Rd1h5]", &c), PGN_CMD_CAL);
    CHECK_EQ_INT(c.marks, 2);
    args = c.args;
    CHECK(pgn_mark_next(&args, &m) && m.color == 'G' && m.from == PGN_SQ(4, 1) &&
          m.to == PGN_SQ(4, 3));
    CHECK(pgn_mark_next(&args, &m) && m.color == 'R' && m.from == PGN_SQ(3, 0) &&
          m.to == PGN_SQ(7, 4));
    CHECK_EQ_INT(one("[%csl Ga4, Rb5]", &c), PGN_CMD_CSL);
    CHECK_EQ_INT(one("[%csl]", &c), PGN_CMD_CSL);
    CHECK_EQ_INT(c.marks, 0);
    CHECK_EQ_INT(one("[%csl Xa4]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%csl Ga9]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%csl Ge2e4]", &c), PGN_CMD_BAD); /* an arrow among squares */
    CHECK_EQ_INT(one("[%cal Ge2]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%cal Ge2e4,]", &c), PGN_CMD_BAD);
}

static void test_other_and_shape(void) {
    pgn_cmd c;
    CHECK_EQ_INT(one("[%foo bar]", &c), PGN_CMD_OTHER);
    CHECK(c.args.len == 3 && memcmp(c.args.ptr, "bar", 3) == 0);
    CHECK_EQ_INT(one("[%bar]", &c), PGN_CMD_OTHER);
    /* supplement §3.2: a quoted operand may hold commas (and here a "]") */
    CHECK_EQ_INT(one("[%fen \"a ] b\",c]", &c), PGN_CMD_OTHER);
    CHECK_EQ_INT(c.raw.len, strlen("[%fen \"a ] b\",c]"));
    CHECK_EQ_INT(one("[% clk 0:00:01]", &c), PGN_CMD_BAD); /* no name */
    CHECK_EQ_INT(one("[%]", &c), PGN_CMD_BAD);
    CHECK_EQ_INT(one("[%CLK 1 hour]", &c), PGN_CMD_OTHER); /* names are case-sensitive */
    CHECK_EQ_INT(one("[eval 0.3]", &c), PGN_CMD_TEXT);
    /* TCEC engine comments carry d=, mt=, wv= fields: plain text */
    CHECK_EQ_INT(one("d=34, sd=50, mt=12345, wv=0.45, pv=e4 e5", &c), PGN_CMD_TEXT);
}

/* Digest T84: the pieces of the comment, in order, and that they give back the comment. */
static void test_t84_pieces(void) {
    const char *text =
        "[%clk 0:00:59.5] [%eval -0.42,18] [%csl Ga4,Rb5][%cal Ge2e4] note [%foo bar]";
    static const pgn_cmd_kind want[] = {PGN_CMD_CLK, PGN_CMD_TEXT, PGN_CMD_EVAL, PGN_CMD_TEXT,
                                        PGN_CMD_CSL, PGN_CMD_CAL,  PGN_CMD_TEXT, PGN_CMD_OTHER};
    pgn_cmd_iter it;
    pgn_cmd c;
    char back[256];
    size_t n = 0, k = 0;
    pgn_cmd_iter_init(&it, S(text));
    while (pgn_cmd_next(&it, &c)) {
        CHECK(k < sizeof want / sizeof want[0] && c.kind == want[k]);
        CHECK_EQ_INT(c.offset, n);
        memcpy(back + n, c.raw.ptr, c.raw.len);
        n += c.raw.len;
        k++;
    }
    back[n] = 0;
    CHECK_EQ_INT(k, sizeof want / sizeof want[0]);
    CHECK_EQ_STR(back, text);
    /* the text without the known commands is "note [%foo bar]" (digest T84) */
    n = pgn_comment_remove(
        S(text),
        ~(PGN_CMD_BIT(PGN_CMD_TEXT) | PGN_CMD_BIT(PGN_CMD_OTHER) | PGN_CMD_BIT(PGN_CMD_BAD)), back);
    back[n] = 0;
    CHECK_EQ_STR(back, "note [%foo bar]");
    /* chessops's test: foo [%bar] [%csl Ga1] -> foo [%bar] */
    n = pgn_comment_remove(S("foo [%bar] [%csl Ga1] baz"), PGN_CMD_BIT(PGN_CMD_CSL), back);
    back[n] = 0;
    CHECK_EQ_STR(back, "foo [%bar] baz");
    n = pgn_comment_remove(S("[%clk 0:00:01] rest"), PGN_CMD_TIMES, back);
    back[n] = 0;
    CHECK_EQ_STR(back, "rest");
    n = pgn_comment_remove(S("[%clk 0:00:01]"), PGN_CMD_TIMES, back);
    CHECK_EQ_INT(n, 0);
}

static void test_write(void) {
    char out[PGN_CMD_MAX];
    pgn_eval e = {PGN_EVAL_CP, -42, 18};
    pgn_cmd c;
    pgn_eval_write(&e, out);
    CHECK_EQ_STR(out, "[%eval -0.42,18]");
    e.value = 35;
    e.depth = -1;
    pgn_eval_write(&e, out);
    CHECK_EQ_STR(out, "[%eval 0.35]");
    e.value = -5;
    pgn_eval_write(&e, out);
    CHECK_EQ_STR(out, "[%eval -0.05]");
    e.kind = PGN_EVAL_MATE;
    e.value = -3;
    pgn_eval_write(&e, out);
    CHECK_EQ_STR(out, "[%eval #-3]");
    pgn_clock_write(PGN_CMD_CLK, 59500, out);
    CHECK_EQ_STR(out, "[%clk 0:00:59.5]");
    pgn_clock_write(PGN_CMD_CLK, 6543, out);
    CHECK_EQ_STR(out, "[%clk 0:00:06.543]"); /* python-chess writes this for 6.543 s */
    pgn_clock_write(PGN_CMD_EMT, 3600000 * 12 + 61000, out);
    CHECK_EQ_STR(out, "[%emt 12:01:01]");
    pgn_clock_write(PGN_CMD_CLK, -5, out);
    CHECK_EQ_STR(out, "[%clk 0:00:00]");
    /* what is written reads back */
    CHECK_EQ_INT(one("[%clk 0:00:06.543]", &c), PGN_CMD_CLK);
    CHECK_EQ_INT(c.ms, 6543);
}

/* Digest T84 through the reader and the node getters and setters. */
static void test_t84_nodes(void) {
    const char *pgn = "1. e4 {[%clk 0:01:00]} e5 {[%clk 0:00:59.5] [%eval -0.42,18] [%csl Ga4,Rb5]"
                      "[%cal Ge2e4] note [%foo bar]} *";
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    pgn_node *n1, *n2;
    int64_t ms = 0;
    pgn_eval e;
    pgn_cmd c;
    CHECK(pgn_reader_new_mem(&r, NULL, pgn, strlen(pgn)) == PGN_OK);
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    if (r == NULL || g == NULL || pgn_reader_next(r, g) != PGN_OK) {
        CHECK(0);
        pgn_reader_free(r);
        pgn_game_free(g);
        return;
    }
    n1 = pgn_node_child(pgn_game_root(g));
    n2 = pgn_node_child(n1);
    CHECK(pgn_node_clock(n1, &ms) && ms == 60000);
    CHECK(!pgn_node_eval(n1, &e));
    CHECK(pgn_node_clock(n2, &ms) && ms == 59500);
    CHECK(pgn_node_eval(n2, &e) && e.kind == PGN_EVAL_CP && e.value == -42 && e.depth == 18);
    CHECK(pgn_cmd_find(pgn_node_comment(n2), PGN_CMD_CAL, &c) && c.marks == 1);
    /* setters: replace in place, append, remove */
    e.kind = PGN_EVAL_MATE;
    e.value = 2;
    e.depth = 30;
    CHECK(pgn_node_set_eval(g, n2, &e) == PGN_OK);
    {
        pgn_str t = pgn_node_comment(n2);
        const char *want =
            "[%clk 0:00:59.5] [%eval #2,30] [%csl Ga4,Rb5][%cal Ge2e4] note [%foo bar]";
        CHECK(t.len == strlen(want) && memcmp(t.ptr, want, t.len) == 0);
    }
    CHECK(pgn_node_set_eval(g, n1, &e) == PGN_OK);
    {
        pgn_str t = pgn_node_comment(n1);
        const char *want = "[%clk 0:01:00] [%eval #2,30]";
        CHECK(t.len == strlen(want) && memcmp(t.ptr, want, t.len) == 0);
    }
    CHECK(pgn_node_set_clock(g, n1, 1500) == PGN_OK);
    CHECK(pgn_node_clock(n1, &ms) && ms == 1500);
    CHECK(pgn_node_set_eval(g, n1, NULL) == PGN_OK);
    CHECK(pgn_node_set_clock(g, n1, -1) == PGN_OK);
    CHECK_EQ_INT(pgn_node_comment(n1).len, 0);
    CHECK(pgn_node_remove_commands(g, n2, PGN_CMD_TIMES | PGN_CMD_BIT(PGN_CMD_EVAL)) == PGN_OK);
    {
        pgn_str t = pgn_node_comment(n2);
        const char *want = "[%csl Ga4,Rb5][%cal Ge2e4] note [%foo bar]";
        CHECK(t.len == strlen(want) && memcmp(t.ptr, want, t.len) == 0);
    }
    pgn_reader_free(r);
    pgn_game_free(g);
}

int main(void) {
    test_times();
    test_evals();
    test_marks();
    test_other_and_shape();
    test_t84_pieces();
    test_write();
    test_t84_nodes();
    return harness_finish();
}
