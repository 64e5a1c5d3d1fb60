/* SPDX-License-Identifier: MIT */
/* Embedded commands in comments (PGN Specification Supplement §3.2, §4; digest §10 and T84): every
 * form the supplement, lichess and python-chess write, malformed ones, the node getters and
 * setters, and removal. Expected values are the ones the digest states (T84) or the supplement's
 * own examples. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testutil.h"
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

/* ---- game editing, the exporters, long algebraic ---- */

typedef struct membuf {
    char buf[1 << 16];
    size_t len;
} membuf;

static ptrdiff_t to_mem(void *ctx, const void *data, size_t len) {
    membuf *m = ctx;
    if (len > sizeof m->buf - 1 - m->len) {
        return -1;
    }
    memcpy(m->buf + m->len, data, len);
    m->len += len;
    m->buf[m->len] = 0;
    return (ptrdiff_t)len;
}

/* Reads the first game of pgn into a new game (NULL on failure). */
static pgn_game *read_game(const char *pgn) {
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    if (pgn_reader_new_mem(&r, NULL, pgn, strlen(pgn)) != PGN_OK ||
        pgn_game_new(&g, NULL) != PGN_OK || pgn_reader_next(r, g) != PGN_OK) {
        pgn_game_free(g);
        g = NULL;
    }
    pgn_reader_free(r);
    return g;
}

/* The movetext line(s) the writer gives for game after the edits of flags. */
static void edited(const char *pgn, uint32_t flags, membuf *out) {
    pgn_game *g = read_game(pgn);
    pgn_writer *w = NULL;
    pgn_edit_opts eo = {flags, 0};
    out->len = 0;
    out->buf[0] = 0;
    CHECK(g != NULL);
    if (g == NULL) {
        return;
    }
    CHECK(pgn_game_edit(g, &eo) == PGN_OK);
    CHECK(pgn_writer_new(&w, NULL, to_mem, out) == PGN_OK);
    if (w != NULL) {
        CHECK(pgn_writer_write(w, g) == PGN_OK);
    }
    pgn_writer_free(w);
    pgn_game_free(g);
}

static const char *movetext(membuf *m) {
    char *p = strstr(m->buf, "\n\n");
    return p ? p + 2 : "";
}

static void test_edit(void) {
    const char *pgn =
        "[Event \"e\"]\n[ECO \"C20\"]\n[WhiteElo \"2000\"]\n\n{start} 1. e4 $1 {a [%clk 0:01:00] "
        "[%eval 0.2]} (1. d4 {b} (1. c4 $2) d5) e5 {[%emt 0:00:03] c} 2. Nf3 *";
    membuf m;
    edited(pgn, PGN_EDIT_STRIP_COMMENTS, &m);
    /* (1. c4) inside the 1. d4 variation is an alternative to 1. d4 (PGN §8.2.5) */
    CHECK_EQ_STR(movetext(&m), "1. e4 $1 (1. d4 d5) (1. c4 $2) 1... e5 2. Nf3 *\n\n");
    edited(pgn, PGN_EDIT_STRIP_NAGS, &m);
    CHECK_EQ_STR(movetext(&m),
                 "{ start } 1. e4 { a [%clk 0:01:00] [%eval 0.2] } (1. d4 { b } 1... d5) (1. c4)\n"
                 "1... e5 { [%emt 0:00:03] c } 2. Nf3 *\n\n");
    edited(pgn, PGN_EDIT_STRIP_VARIATIONS, &m);
    CHECK_EQ_STR(movetext(&m),
                 "{ start } 1. e4 $1 { a [%clk 0:01:00] [%eval 0.2] } 1... e5 { [%emt 0:00:03] c\n"
                 "} 2. Nf3 *\n\n");
    edited(pgn, PGN_EDIT_STRIP_CLOCK | PGN_EDIT_STRIP_VARIATIONS | PGN_EDIT_STRIP_NAGS, &m);
    CHECK_EQ_STR(movetext(&m), "{ start } 1. e4 { a [%eval 0.2] } 1... e5 { c } 2. Nf3 *\n\n");
    edited(pgn, PGN_EDIT_STRIP_EVAL | PGN_EDIT_STRIP_VARIATIONS | PGN_EDIT_STRIP_NAGS, &m);
    CHECK_EQ_STR(movetext(&m),
                 "{ start } 1. e4 { a [%clk 0:01:00] } 1... e5 { [%emt 0:00:03] c } 2. Nf3 *\n\n");
    edited(pgn, PGN_EDIT_SEVEN_TAGS | PGN_EDIT_ADD_PLYCOUNT | PGN_EDIT_STRIP_COMMENTS, &m);
    CHECK(strstr(m.buf, "[ECO ") == NULL && strstr(m.buf, "[WhiteElo ") == NULL);
    CHECK(strstr(m.buf, "[Event \"e\"]\n") != NULL && strstr(m.buf, "[PlyCount \"3\"]\n") != NULL);
    /* FEN after every move, variations too: the positions are the standard's FEN examples (§16.1.4)
     */
    edited("1. e4 (1. d4) c5 2. Nf3 *", PGN_EDIT_FEN_COMMENTS, &m);
    for (size_t i = 0; i < m.len; i++) {
        m.buf[i] = m.buf[i] == '\n' ? ' ' : m.buf[i]; /* the writer wraps long comments */
    }
    CHECK(strstr(m.buf, "1. e4 { rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 }") !=
          NULL);
    CHECK(strstr(m.buf, "{ rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 }") !=
          NULL);
    CHECK(strstr(m.buf, "{ rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2 }") !=
          NULL);
    CHECK(strstr(m.buf, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1") != NULL);
}

static void test_node_remove(void) {
    pgn_game *g = read_game("1. e4 (1. d4) (1. c4) e5 *");
    pgn_node *root, *e4;
    CHECK(g != NULL);
    if (g == NULL) {
        return;
    }
    root = pgn_game_root(g);
    e4 = pgn_node_child(root);
    pgn_node_remove(e4); /* the main move: 1. d4 takes its place */
    CHECK(pgn_node_move(pgn_node_child(root)) == PGN_MOVE_MAKE(PGN_SQ(3, 1), PGN_SQ(3, 3), 0, 0));
    pgn_node_remove(pgn_node_sibling(pgn_node_child(root))); /* 1. c4, the last child */
    CHECK(pgn_node_sibling(pgn_node_child(root)) == NULL);
    CHECK(pgn_node_add(g, root, PGN_MOVE_MAKE(PGN_SQ(6, 0), PGN_SQ(5, 2), 0, 0), pgn_node_loc(root),
                       NULL) == PGN_OK); /* appended after the new last child */
    CHECK(pgn_node_sibling(pgn_node_child(root)) != NULL);
    CHECK(pgn_node_set_pre_comment(g, pgn_node_child(root), S("pre")) == PGN_OK);
    CHECK_EQ_INT(pgn_node_pre_comment(pgn_node_child(root)).len, 3);
    pgn_game_tags_clear(g);
    CHECK_EQ_INT(pgn_game_tag_count(g), 0);
    pgn_game_free(g);
}

/* SAN san read in p and written as LAN is lan. */
static void check_lan(const pgn_pos *p, const char *san, const char *lan) {
    char out[PGN_LAN_MAX];
    pgn_san_result res;
    memset(&res, 0, sizeof res);
    CHECK(pgn_san_parse(p, san, strlen(san), 0, &res) == PGN_OK);
    pgn_lan_write(p, res.move, out);
    CHECK_EQ_STR(out, lan);
}

static void test_lan(void) {
    static const char fen_ep[] = "4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 1";
    static const char fen_promo[] = "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1";
    pgn_pos p;
    char out[PGN_LAN_MAX];
    /* en passant, promotion with capture and check, castling, the null move */
    CHECK(pgn_fen_parse(&p, fen_ep, strlen(fen_ep), 0, NULL) == PGN_OK);
    check_lan(&p, "exd6", "e5xd6");
    check_lan(&p, "O-O", "O-O");
    pgn_lan_write(&p, PGN_MOVE_NULL, out);
    CHECK_EQ_STR(out, "--");
    CHECK(pgn_fen_parse(&p, fen_promo, strlen(fen_promo), 0, NULL) == PGN_OK);
    check_lan(&p, "cxd8=Q+", "c7xd8=Q+");
    check_lan(&p, "Kf2", "Ke1-f2");
}

static void export_one(pgn_export_format fmt, const char *pgn, const pgn_str *tags, size_t ntags,
                       membuf *m) {
    pgn_game *g = read_game(pgn);
    pgn_exporter *ex = NULL;
    pgn_export_opts o;
    memset(&o, 0, sizeof o);
    o.format = fmt;
    o.tags = tags;
    o.tag_count = ntags;
    m->len = 0;
    m->buf[0] = 0;
    CHECK(g != NULL && pgn_exporter_new(&ex, &o, to_mem, m) == PGN_OK);
    if (g != NULL && ex != NULL) {
        CHECK(pgn_exporter_write(ex, g) == PGN_OK);
        CHECK(pgn_exporter_finish(ex) == PGN_OK);
    }
    pgn_exporter_free(ex);
    pgn_game_free(g);
}

static void test_exporters(void) {
    membuf m;
    pgn_str tags[2] = {{"White", 5}, {"Annotator", 9}};
    export_one(PGN_EXPORT_SAN, "1. e4 (1. d4) e5 2. Nf3 *", NULL, 0, &m);
    CHECK_EQ_STR(m.buf, "e4 e5 Nf3\n");
    export_one(PGN_EXPORT_LAN, "1. e4 e5 2. Nf3 *", NULL, 0, &m);
    CHECK_EQ_STR(m.buf, "e2-e4 e7-e5 Ng1-f3\n");
    /* PGN §16.1.4's FEN example after 1. e4 c5 2. Nf3, in EPD with its opcodes */
    export_one(PGN_EXPORT_EPD, "1. e4 c5 2. Nf3 *", NULL, 0, &m);
    CHECK(strstr(m.buf, "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - hmvc 1; fmvn "
                        "2; id \"1.3\";\n") != NULL);
    export_one(PGN_EXPORT_CSV, "[White \"Doe, J\"]\n[Annotator \"say \\\"hi\\\"\"]\n\n1. e4 1-0",
               tags, 2, &m);
    CHECK_EQ_STR(m.buf, "White,Annotator\r\n\"Doe, J\",\"say \"\"hi\"\"\"\r\n");
    export_one(PGN_EXPORT_CSV, "1. e4 1-0", NULL, 0, &m);
    CHECK_EQ_STR(m.buf, "Event,Site,Date,Round,White,Black,Result\r\n,,,,,,1-0\r\n");
    export_one(PGN_EXPORT_CSV_PLY, "1. e4 {[%clk 0:03:00] [%eval #-1]} $6 *", NULL, 0, &m);
    CHECK_EQ_STR(
        m.buf,
        "game,ply,san,uci,fen,clock,eval,nags\r\n"
        "1,1,e4,e2e4,rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1,180,#-1,$6\r\n");
}

static ptrdiff_t to_count(void *ctx, const void *data, size_t len) {
    (void)data;
    *(size_t *)ctx += len;
    return (ptrdiff_t)len;
}

/* A 900 KB comment full of "[%" that never closes, and one of malformed commands: read, checked
 * and written in linear time (a quadratic scan would take minutes here), nothing lost. */
static void test_long_comment(void) {
    size_t n = 900u << 10, i, written = 0;
    char *pgn = malloc(n + 64);
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    pgn_writer *w = NULL;
    int round;
    CHECK(pgn != NULL);
    if (pgn == NULL) {
        return;
    }
    for (round = 0; round < 2; round++) {
        const char *unit = round == 0 ? "[%a x " : "[%a:]";
        size_t k = strlen(unit), len = 0;
        memcpy(pgn, "1. e4 {", 7);
        len = 7;
        for (i = 0; i + k < n; i += k) {
            memcpy(pgn + len, unit, k);
            len += k;
        }
        memcpy(pgn + len, "} *", 3);
        len += 3;
        CHECK(pgn_reader_new_mem(&r, NULL, pgn, len) == PGN_OK);
        CHECK(pgn_game_new(&g, NULL) == PGN_OK);
        CHECK(r != NULL && g != NULL && pgn_reader_next(r, g) == PGN_OK);
        CHECK(pgn_writer_new(&w, NULL, to_count, &written) == PGN_OK);
        written = 0;
        CHECK(w != NULL && g != NULL && pgn_writer_write(w, g) == PGN_OK);
        /* the whole comment is kept (its final space aside) */
        CHECK(g != NULL && pgn_node_comment(pgn_node_child(pgn_game_root(g))).len + 11 >= len);
        CHECK(written > len - 10);
        pgn_writer_free(w);
        pgn_game_free(g);
        pgn_reader_free(r);
    }
    free(pgn);
}

/* ---- out of memory (SQLite-style): allocation k fails, for every k until none does ---- */

static void test_nomem(void) {
    char pgn[4096];
    size_t len = 0;
    len += (size_t)sprintf(pgn,
                           "[Event \"e\"]\n[ECO \"A00\"]\n\n1. e4 {[%%clk 0:01:00] [%%eval 0.2] x} "
                           "(1. d4 {y} d5 (1... c5)) e5 $1");
    for (int i = 0; i < 20; i++) { /* enough FEN comments to need more arena chunks */
        len += (size_t)sprintf(pgn + len, " %d. Nf3 Nf6 %d. Ng1 Ng8", 2 + 2 * i, 3 + 2 * i);
    }
    strcpy(pgn + len, " *");
    limit_alloc b = {-1, 0};
    pgn_allocator a = limit_allocator(&b);
    pgn_reader_opts ro;
    int done = 0, failures = 0;
    memset(&ro, 0, sizeof ro);
    ro.alloc = &a;
    for (long k = 0; k < 10000 && !done; k++) {
        pgn_reader *r = NULL;
        pgn_game *g = NULL;
        pgn_edit_opts eo = {0xFFu & ~PGN_EDIT_STRIP_VARIATIONS, 0};
        pgn_eval e = {PGN_EVAL_CP, 12, 3};
        pgn_status st;
        b.left = -1;
        if (pgn_reader_new_mem(&r, &ro, pgn, strlen(pgn)) != PGN_OK ||
            pgn_game_new(&g, &a) != PGN_OK || pgn_reader_next(r, g) != PGN_OK) {
            CHECK(0);
            pgn_reader_free(r);
            pgn_game_free(g);
            return;
        }
        b.left = k;
        st = pgn_node_set_eval(g, pgn_node_child(pgn_game_root(g)), &e);
        if (st == PGN_OK) {
            st = pgn_game_edit(g, &eo);
        }
        CHECK(st == PGN_OK || st == PGN_E_NOMEM);
        done = st == PGN_OK;
        failures += st == PGN_E_NOMEM;
        pgn_reader_free(r);
        pgn_game_free(g);
    }
    CHECK(done);
    CHECK(failures > 0); /* the edits did allocate, and each failure was reported */
}

int main(void) {
    test_times();
    test_evals();
    test_marks();
    test_other_and_shape();
    test_t84_pieces();
    test_write();
    test_t84_nodes();
    test_edit();
    test_node_remove();
    test_lan();
    test_exporters();
    test_long_comment();
    test_nomem();
    return harness_finish();
}
