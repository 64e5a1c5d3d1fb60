/* SPDX-License-Identifier: MIT */
/* Tests of the JSON writer and reader (include/pgnkit/json.h, docs/json-format.md):
 *  1. the writer's exact output for a small annotated game (FENs of the PGN standard §16.1.4
 *     example after 1. e4 c5 2. Nf3, with the en passant square written only when legal) and
 *     RFC 8259 string escaping;
 *  2. the reader's diagnostics: code, line and column of each kind of bad input (syntax, schema,
 *     illegal moves, FEN), recovery after a bad game, the end after a syntax error, nesting far
 *     deeper than max_depth without recursion;
 *  3. reads through 1-byte and 1..20-byte pieces equal the read from memory; failing allocations
 *     give E_NOMEM and failing writes E_IO, with no leak;
 *  4. the round trip fmt(from_json(to_json(x))) == fmt(x) for every game of corpus/edge/ and a
 *     slice of corpus/big/ (PGNKIT_SLOW=1: all of big/), and to_json is a fixed point.
 * The corpus is read in place from PGNKIT_SHARED; a missing file is a failure, never a skip. */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "testutil.h"

#include <pgnkit.h>

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

static int slow;

/* Loads corpus/<rel> (buf_load_shared); an empty file is a failure too. */
static int load(const char *rel, buf *out) {
    if (!buf_load_shared(rel, out)) {
        return 0;
    }
    if (out->len == 0) {
        harness_fail(__FILE__, __LINE__, "empty corpus file %s", rel);
        return 0;
    }
    return 1;
}

/* ---- diagnostics ---- */

typedef struct diags {
    pgn_diag d[8];
    unsigned n;
} diags;

static void on_diag(void *ctx, const pgn_diag *d) {
    diags *ds = ctx;
    if (ds->n < 8) {
        ds->d[ds->n] = *d;
    }
    ds->n++;
}

/* Reads input through a reader from memory (chunk 0) or in pieces of 1..chunk bytes. */
typedef struct feed {
    const char *p;
    size_t len, pos;
    unsigned chunk, turn;
} feed;

static ptrdiff_t feed_read(void *ctx, void *out, size_t cap) {
    feed *f = ctx;
    size_t n = f->len - f->pos;
    size_t piece = f->chunk == 1 ? 1 : 1 + (f->turn++ * 7) % f->chunk;
    n = n < piece ? n : piece;
    n = n < cap ? n : cap;
    memcpy(out, f->p + f->pos, n);
    f->pos += n;
    return (ptrdiff_t)n;
}

static pgn_json_reader *open_json(const char *p, size_t len, feed *f, unsigned chunk, diags *ds,
                                  uint32_t max_depth) {
    pgn_json_reader_opts o;
    pgn_json_reader *r = NULL;
    memset(&o, 0, sizeof o);
    o.on_diag = on_diag;
    o.diag_ctx = ds;
    o.max_depth = max_depth;
    memset(ds, 0, sizeof *ds);
    if (chunk == 0) {
        CHECK_EQ_INT(pgn_json_reader_new_mem(&r, &o, p, len), PGN_OK);
    } else {
        f->p = p;
        f->len = len;
        f->pos = 0;
        f->chunk = chunk;
        f->turn = 0;
        CHECK_EQ_INT(pgn_json_reader_new(&r, &o, feed_read, f), PGN_OK);
    }
    return r;
}

/* ---- 1. the writer ---- */

static pgn_game *read_pgn_game(const char *pgn) {
    pgn_reader *r;
    pgn_game *g;
    if (pgn_reader_new_mem(&r, NULL, pgn, strlen(pgn)) != PGN_OK ||
        pgn_game_new(&g, NULL) != PGN_OK) {
        printf("FAIL out of memory\n");
        exit(1);
    }
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    pgn_reader_free(r);
    return g;
}

static void to_json(const pgn_game *g, uint32_t flags, buf *out) {
    pgn_json_writer *w;
    pgn_json_writer_opts o = {flags, 0, NULL};
    out->len = 0;
    buf_put(out, "", 0);
    CHECK_EQ_INT(pgn_json_writer_new(&w, &o, buf_write, out), PGN_OK);
    CHECK_EQ_INT(pgn_json_writer_write(w, g), PGN_OK);
    CHECK_EQ_INT(pgn_json_writer_finish(w), PGN_OK);
    pgn_json_writer_free(w);
}

static void test_writer(void) {
    static const char pgn[] = "[Event \"q\\\"x\\\\y\"]\n[White \"Caf\xc3\xa9\"]\n\n"
                              "{start} 1. e4 $1 {c1} ({pre} 1. d4 {x} d5) (1. c4) c5 2. Nf3 *\n";
    static const char want[] =
        "{\"tags\":{\"Event\":\"q\\\"x\\\\y\",\"White\":\"Caf\xc3\xa9\"},"
        "\"comment\":{\"text\":\"start\"},\"moves\":["
        "{\"san\":\"e4\",\"uci\":\"e2e4\","
        "\"fen\":\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\",\"nags\":[1],"
        "\"comment\":{\"text\":\"c1\"},\"variations\":["
        "[{\"pre_comment\":{\"text\":\"pre\"},\"san\":\"d4\",\"uci\":\"d2d4\","
        "\"fen\":\"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\","
        "\"comment\":{\"text\":\"x\"}},"
        "{\"san\":\"d5\",\"uci\":\"d7d5\","
        "\"fen\":\"rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2\"}],"
        "[{\"san\":\"c4\",\"uci\":\"c2c4\","
        "\"fen\":\"rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1\"}]]},"
        "{\"san\":\"c5\",\"uci\":\"c7c5\","
        "\"fen\":\"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"},"
        "{\"san\":\"Nf3\",\"uci\":\"g1f3\","
        "\"fen\":\"rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\"}],"
        "\"result\":\"*\"}\n";
    buf out = {0};
    pgn_game *g = read_pgn_game(pgn);
    to_json(g, PGN_JSON_NDJSON, &out);
    CHECK_EQ_STR(out.p, want);
    /* the array form wraps the same object */
    to_json(g, 0, &out);
    CHECK(out.len == strlen(want) + 4 && memcmp(out.p, "[\n", 2) == 0 &&
          memcmp(out.p + 2, want, strlen(want) - 1) == 0 &&
          strcmp(out.p + out.len - 3, "\n]\n") == 0);

    /* RFC 8259 §7: quote, backslash and control characters escaped (DEL and C1 too, so that no
     * escape sequence reaches a terminal: issue 36), UTF-8 (U+2028 too) kept, a byte that is not
     * UTF-8 replaced by U+FFFD */
    pgn_str c = {"a\x01"
                 "b\"\\\n\x1f\xe2\x80\xa8\xff\x7f\xc2\x9b",
                 14};
    CHECK_EQ_INT(pgn_node_set_comment(g, pgn_game_root(g), c), PGN_OK);
    pgn_game_tag_remove(g, "Event");
    pgn_game_tag_remove(g, "White");
    pgn_node *first = pgn_node_child(pgn_game_root(g));
    pgn_node_clear_nags(first);
    to_json(g, PGN_JSON_NDJSON, &out);
    CHECK(
        strncmp(out.p,
                "{\"tags\":{},\"comment\":{\"text\":"
                "\"a\\u0001b\\\"\\\\\\u000a\\u001f\xe2\x80\xa8\\ufffd\\u007f\\u009b\"},",
                strlen("{\"tags\":{},\"comment\":{\"text\":"
                       "\"a\\u0001b\\\"\\\\\\u000a\\u001f\xe2\x80\xa8\\ufffd\\u007f\\u009b\"},")) ==
        0);

    /* an empty game, a set-up position, Chess960 */
    pgn_game_reset(g);
    to_json(g, PGN_JSON_NDJSON, &out);
    CHECK_EQ_STR(out.p, "{\"tags\":{},\"moves\":[],\"result\":\"*\"}\n");
    pgn_game_free(g);
    g = read_pgn_game("[FEN \"3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O-O+ *\n");
    to_json(g, PGN_JSON_NDJSON, &out);
    CHECK_EQ_STR(
        out.p, "{\"tags\":{\"FEN\":\"3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1\",\"SetUp\":\"1\"},"
               "\"fen\":\"3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1\",\"moves\":["
               "{\"san\":\"O-O-O+\",\"uci\":\"e1c1\",\"fen\":\"3k4/8/8/8/8/8/8/2KR3R b - - 1 1\"}],"
               "\"result\":\"*\"}\n");
    pgn_game_free(g);
    g = read_pgn_game("[Variant \"Chess960\"]\n[FEN \"4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1\"]\n"
                      "[SetUp \"1\"]\n\n1. O-O *\n");
    to_json(g, PGN_JSON_NDJSON, &out);
    CHECK(strstr(out.p, ",\"chess960\":true,") != NULL);
    CHECK(strstr(out.p, "\"uci\":\"e1h1\"") != NULL);
    pgn_game_free(g);
    free(out.p);
}

/* PGN_JSON_NO_MOVE_FEN and PGN_JSON_SHORT_MOVES (docs/json-format.md, "Compact moves"): the
 * objects of test_writer without "fen", a move with nothing but SAN and UCI as "SAN UCI"; the
 * moves of a Chess960 or a variant game keep their FEN. */
static void test_compact_moves(void) {
    static const char pgn[] = "{start} 1. e4 $1 {c1} ({pre} 1. d4 {x} d5) (1. c4) c5 2. Nf3 *\n";
    static const char no_fen[] =
        "{\"tags\":{},\"comment\":{\"text\":\"start\"},\"moves\":["
        "{\"san\":\"e4\",\"uci\":\"e2e4\",\"nags\":[1],\"comment\":{\"text\":\"c1\"},"
        "\"variations\":[[{\"pre_comment\":{\"text\":\"pre\"},\"san\":\"d4\",\"uci\":\"d2d4\","
        "\"comment\":{\"text\":\"x\"}},{\"san\":\"d5\",\"uci\":\"d7d5\"}],"
        "[{\"san\":\"c4\",\"uci\":\"c2c4\"}]]},"
        "{\"san\":\"c5\",\"uci\":\"c7c5\"},{\"san\":\"Nf3\",\"uci\":\"g1f3\"}],\"result\":\"*\"}\n";
    static const char short_[] =
        "{\"tags\":{},\"comment\":{\"text\":\"start\"},\"moves\":["
        "{\"san\":\"e4\",\"uci\":\"e2e4\",\"nags\":[1],\"comment\":{\"text\":\"c1\"},"
        "\"variations\":[[{\"pre_comment\":{\"text\":\"pre\"},\"san\":\"d4\",\"uci\":\"d2d4\","
        "\"comment\":{\"text\":\"x\"}},\"d5 d7d5\"],[\"c4 c2c4\"]]},"
        "\"c5 c7c5\",\"Nf3 g1f3\"],\"result\":\"*\"}\n";
    uint32_t nd = PGN_JSON_NDJSON;
    buf out = {0};
    pgn_game *g = read_pgn_game(pgn);
    to_json(g, nd | PGN_JSON_NO_MOVE_FEN, &out);
    CHECK_EQ_STR(out.p, no_fen);
    to_json(g, nd | PGN_JSON_NO_MOVE_FEN | PGN_JSON_SHORT_MOVES, &out);
    CHECK_EQ_STR(out.p, short_);
    to_json(g, nd | PGN_JSON_SHORT_MOVES, &out); /* alone: every move has its FEN */
    CHECK(strstr(out.p, "\"c5 c7c5\"") == NULL && strstr(out.p, "\"fen\":") != NULL);
    pgn_game_free(g);
    g = read_pgn_game("[Variant \"Chess960\"]\n[FEN \"4k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1\"]\n"
                      "[SetUp \"1\"]\n\n1. O-O *\n");
    to_json(g, nd | PGN_JSON_NO_MOVE_FEN | PGN_JSON_SHORT_MOVES, &out);
    CHECK(
        strstr(out.p,
               "{\"san\":\"O-O\",\"uci\":\"e1h1\",\"fen\":\"4k3/8/8/8/8/8/8/1R3RK1 b - - 1 1\"}") !=
        NULL);
    pgn_game_free(g);
    g = read_pgn_game("[Variant \"Atomic\"]\n\n1. e4 *\n");
    to_json(g, nd | PGN_JSON_NO_MOVE_FEN | PGN_JSON_SHORT_MOVES, &out);
    CHECK(strstr(out.p, "{\"san\":\"e4\",\"uci\":\"e2e4\",\"fen\":") != NULL);
    pgn_game_free(g);
    free(out.p);
}

/* Typed commands beside the comment text (include/pgnkit/annot.h, issue 4): values from the
 * command syntax of the PGN supplement (H:MM:SS clocks, pawns as centipawns, White's view). */
static void test_commands(void) {
    pgn_game *g = read_pgn_game("1. e4 {[%clk 1:02:03.5] [%eval -0.35,18] ok [%cal Ge2e4,Rd2d4]} "
                                "e5 {[%eval #-3] [%csl Ya1] [%foo bar] [%clk x]} *\n");
    buf out = {0};
    to_json(g, PGN_JSON_NDJSON, &out);
    CHECK(strstr(out.p,
                 "\"comment\":{\"text\":\"[%clk 1:02:03.5] [%eval -0.35,18] ok [%cal "
                 "Ge2e4,Rd2d4]\",\"commands\":[{\"name\":\"clk\",\"args\":\"1:02:03.5\",\"ms\":"
                 "3723500},{\"name\":\"eval\",\"args\":\"-0.35,18\",\"cp\":-35,\"depth\":18},"
                 "{\"name\":\"cal\",\"args\":\"Ge2e4,Rd2d4\",\"marks\":[{\"color\":\"G\",\"from\":"
                 "\"e2\",\"to\":\"e4\"},{\"color\":\"R\",\"from\":\"d2\",\"to\":\"d4\"}]}]}") !=
          NULL);
    CHECK(strstr(out.p,
                 "\"commands\":[{\"name\":\"eval\",\"args\":\"#-3\",\"mate\":-3},{\"name\":"
                 "\"csl\",\"args\":\"Ya1\",\"marks\":[{\"color\":\"Y\",\"from\":\"a1\",\"to\":"
                 "\"a1\"}]},{\"name\":\"foo\",\"args\":\"bar\"}]}") != NULL);
    /* read back: the text is what counts */
    pgn_json_reader *r;
    pgn_game *h;
    CHECK_EQ_INT(pgn_game_new(&h, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_new_mem(&r, NULL, out.p, out.len), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_next(r, h), PGN_OK);
    pgn_node *a = pgn_node_child(pgn_game_root(g)), *b = pgn_node_child(pgn_game_root(h));
    CHECK(a && b && pgn_node_comment(a).len == pgn_node_comment(b).len &&
          memcmp(pgn_node_comment(a).ptr, pgn_node_comment(b).ptr, pgn_node_comment(a).len) == 0);
    pgn_json_reader_free(r);
    pgn_game_free(h);
    pgn_game_free(g);
    free(out.p);
}

/* ---- 2. the reader's diagnostics ---- */

typedef struct bad_case {
    const char *input;
    pgn_status code;
    const char *at; /* the diagnostic is at the first occurrence of this text in the input */
    unsigned line;  /* 0: line 1 and the column of `at`; else this line and column col */
    unsigned col;
} bad_case;

/* Line and column of the first occurrence of s in input (1-based, LF lines). */
static void where(const char *input, const char *s, unsigned *line, unsigned *col) {
    const char *p = strstr(input, s);
    *line = 1;
    *col = 0;
    if (p == NULL) {
        harness_fail(__FILE__, __LINE__, "'%s' not in the input", s);
        return;
    }
    const char *ls = input;
    for (const char *q = input; q < p; q++) {
        if (*q == '\n') {
            (*line)++;
            ls = q + 1;
        }
    }
    *col = (unsigned)(p - ls) + 1;
}

static void test_diagnostics(void) {
    static const bad_case cases[] = {
        {"{\"tags\" {}}", PGN_E_BAD_JSON, "{}}", 0, 0},
        {"{\"tags\":{},\"moves\":[],\"result\":\"*\"", PGN_E_BAD_JSON, NULL, 1, 35},
        {"[\n{\"tags\":{},\"moves\":[],\"result\":\"*\"},\n]", PGN_E_BAD_JSON, NULL, 3, 1},
        {"{\"tags\":{},\"moves\":[{\"san\":\"e5\"}],\"result\":\"*\"}", PGN_E_ILLEGAL_MOVE,
         "\"e5\"", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"Xe5\"}],\"result\":\"*\"}", PGN_E_BAD_SAN, "\"Xe5\"",
         0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"e4\"},{\"uci\":\"e2e4\"}],\"result\":\"*\"}",
         PGN_E_ILLEGAL_MOVE, "\"e2e4\"", 0, 0},
        {"{\"tags\":{},\"fen\":\"k7/8/8/8/8/8/8/KN3N2 w - - 0 1\",\"moves\":[{\"san\":\"Nd2\"}],"
         "\"result\":\"*\"}",
         PGN_E_AMBIGUOUS_MOVE, "\"Nd2\"", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"Nf3\",\"uci\":\"g1h3\"}],\"result\":\"*\"}",
         PGN_E_BAD_JSON, "\"g1h3\"", 0, 0},
        {"{\"tags\":{},\"moves\":[],\"result\":\"*\",\"x\":1}", PGN_E_BAD_JSON, "\"x\"", 0, 0},
        {"{\"tags\":{},\"tags\":{},\"moves\":[],\"result\":\"*\"}", PGN_E_BAD_JSON,
         "\"tags\":{},\"m", 0, 0},
        {"{\"tags\":{\"a\":\"1\",\"a\":\"2\"},\"moves\":[],\"result\":\"*\"}", PGN_E_BAD_JSON,
         "\"a\":\"2", 0, 0},
        {"{\"tags\":{\"a b\":\"1\"},\"moves\":[],\"result\":\"*\"}", PGN_E_BAD_JSON, "\"a b", 0, 0},
        {"{\"tags\":{\"\":\"1\"},\"moves\":[],\"result\":\"*\"}", PGN_E_BAD_JSON, "\"\":", 0, 0},
        {"{\"tags\":{\"a\":1},\"moves\":[],\"result\":\"*\"}", PGN_E_BAD_JSON, "1}", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"e4\",\"nags\":[256]}],\"result\":\"*\"}",
         PGN_E_BAD_JSON, "256", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"e4\",\"nags\":[1.5]}],\"result\":\"*\"}",
         PGN_E_BAD_JSON, "1.5", 0, 0},
        {"{\"tags\":{},\"moves\":[],\"result\":\"2-0\"}", PGN_E_BAD_JSON, "\"2-0\"", 0, 0},
        {"{\"tags\":{},\"moves\":[]}", PGN_E_BAD_JSON, "{", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"e4\",\"variations\":[[]]}],\"result\":\"*\"}",
         PGN_E_BAD_JSON, "[]]", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"e4\",\"comment\":\"c\"}],\"result\":\"*\"}",
         PGN_E_BAD_JSON, "\"c\"", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"nags\":[1]}],\"result\":\"*\"}", PGN_E_BAD_JSON, "{\"nags", 0,
         0},
        {"{\"tags\":{},\"comment\":{\"text\":\"x\",\"commands\":{}},\"moves\":[],\"result\":\"*\"}",
         PGN_E_BAD_JSON, "{}}", 0, 0},
        {"{\"tags\":{},\"comment\":{\"text\":\"x\",\"commands\":[1]},\"moves\":[],\"result\":\"*"
         "\"}",
         PGN_E_BAD_JSON, "1]", 0, 0},
        {"{\"tags\":{},\"comment\":{\"commands\":[]},\"moves\":[],\"result\":\"*\"}",
         PGN_E_BAD_JSON, "{\"commands", 0, 0},
        /* the FEN's own column: field 2 is the x */
        {"{\"tags\":{},\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1\","
         "\"moves\":[],\"result\":\"*\"}",
         PGN_E_BAD_FEN, "x KQkq", 0, 0},
        {"{\"tags\":{\"FEN\":\"8/8/8/8/8/8/8/KK6 w - - 0 1\"},\"moves\":[],\"result\":\"*\"}",
         PGN_E_BAD_FEN, "8/8/8/8/8/8/8/KK6 w", 0, 0},
        /* tokens */
        {"{\"tags\":{\"a\":\"b\tc\"}}", PGN_E_BAD_JSON, "\tc", 0, 0},
        {"{\"tags\":{\"a\":\"b\\qc\"}}", PGN_E_BAD_JSON, "\\q", 0, 0},
        {"{\"tags\":{\"a\":\"\\udc00\"}}", PGN_E_BAD_JSON, "\\udc00", 0, 0},
        {"{\"tags\":{\"a\":\"\\ud800x\"}}", PGN_E_BAD_JSON, "\\ud800", 0, 0},
        {"{\"tags\":{\"a\\u0000\":\"b\"},\"moves\":[],\"result\":\"*\"}", PGN_E_BAD_JSON,
         "\"a\\u0000\"", 0, 0},
        {"{\"tags\":{\"a\":\"\\u12g4\"}}", PGN_E_BAD_JSON, "\\u12", 0, 0},
        {"{\"tags\":{\"a\":\"x\xff\"}}", PGN_E_BAD_JSON, "\xff", 0, 0},
        {"{\"tags\":{\"a\":\"x\xc0\xaf\"}}", PGN_E_BAD_JSON, "\xc0", 0, 0},
        {"{\"tags\":{\"a\":\"x\xed\xa0\x80\"}}", PGN_E_BAD_JSON, "\xed", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"e4\",\"nags\":[01]}]}", PGN_E_BAD_JSON, "1]", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"e4\",\"nags\":[-]}]}", PGN_E_BAD_JSON, "]}]", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"e4\",\"nags\":[1.]}]}", PGN_E_BAD_JSON, "]}]", 0, 0},
        {"{\"tags\":{},\"moves\":[{\"san\":\"e4\",\"nags\":[1e]}]}", PGN_E_BAD_JSON, "]}]", 0, 0},
        /* found by fuzz_json: what the PGN export could not carry (tests/fuzz-regress/json/) */
        {"{\"tags\":{\"Date\":\"2024\\t4.25\"},\"moves\":[],\"result\":\"*\"}", PGN_E_BAD_JSON,
         "\"2024", 0, 0},
        {"{\"tags\":{\"a\":\"x\\ny\"},\"moves\":[],\"result\":\"*\"}", PGN_E_BAD_JSON, "\"x", 0, 0},
        {"{\"tags\":{\"_hite\":\"x\"},\"moves\":[],\"result\":\"*\"}", PGN_E_BAD_JSON, "\"_h", 0,
         0},
        {"{\"tags\":{\"Variant\":\"fischerand%om\"},\"moves\":[],\"result\":\"*\"}",
         PGN_E_UNSUPPORTED_VARIANT, "\"fischerand", 0, 0},
        {"{\"tags\":{},\"chess960\":true,\"moves\":[],\"result\":\"*\"}", PGN_E_BAD_JSON, "true", 0,
         0},
        /* beside "fen", the FEN tag must be a FEN of the same position */
        {"{\"tags\":{\"FEN\":\"8/8/8/8/8/8/8/KK6 w - - 0 1\"},\"fen\":\"" PGN_START_FEN
         "\",\"moves\":[],\"result\":\"*\"}",
         PGN_E_BAD_FEN, "8/8/8/8/8/8/8/KK6 w", 0, 0},
        {"{\"tags\":{\"FEN\":\"8/8/8/8/8/8/8/K1k5 w - - 0 1\"},\"fen\":\"" PGN_START_FEN
         "\",\"moves\":[],\"result\":\"*\"}",
         PGN_E_BAD_JSON, "\"rnbq", 0, 0},
        {"{\"tags\":tru}", PGN_E_BAD_JSON, "tru", 0, 0},
        {"{\"tags\":True}", PGN_E_BAD_JSON, "True", 0, 0},
        {"{\"tags\":{},}", PGN_E_BAD_JSON, NULL, 1, 12},
        {"{\"tags\":{}\"moves\":[]}", PGN_E_BAD_JSON, "\"moves", 0, 0},
        {"{\"tags\":{},\"moves\":[1 2]}", PGN_E_BAD_JSON, "2]", 0, 0},
        {"{'tags':{}}", PGN_E_BAD_JSON, "'", 0, 0},
        {"\xef\xbb\xbf{\"tags\":{}}", PGN_E_BAD_JSON, NULL, 1, 1},
        {"\"tags\"", PGN_E_BAD_JSON, "\"", 0, 0},
        {"[[{}]]", PGN_E_BAD_JSON, "[{", 0, 0},
        /* lines: CRLF, CR and LF are one line break each */
        {"\r\n\r\r\n  {\"tags\" 1}", PGN_E_BAD_JSON, NULL, 4, 11},
        {"\n\n{\"tags\":{},\"moves\":[],\"result\":\"*\"}\n{\n\"tags\":{},\n  "
         "\"moves\":[{\"san\":\"e5\"}],\"result\":\"*\"}",
         PGN_E_ILLEGAL_MOVE, NULL, 6, 19},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bad_case *c = &cases[i];
        unsigned line = c->line, col = c->col;
        if (c->at != NULL) {
            where(c->input, c->at, &line, &col);
        }
        for (unsigned chunk = 0; chunk <= 1; chunk++) {
            diags ds;
            feed f;
            pgn_game *g;
            pgn_json_reader *r = open_json(c->input, strlen(c->input), &f, chunk, &ds, 0);
            if (r == NULL || pgn_game_new(&g, NULL) != PGN_OK) {
                return;
            }
            pgn_status st;
            while ((st = pgn_json_reader_next(r, g)) == PGN_OK) {
            }
            if (ds.n != 1 || st != c->code || ds.d[0].code != c->code || ds.d[0].at.line != line ||
                ds.d[0].at.column != col || ds.d[0].severity != PGN_SEV_ERROR) {
                harness_fail(
                    __FILE__, __LINE__,
                    "case %zu (chunk %u): want %s at %u:%u; got %u diagnostics, status %s, "
                    "first %s at %u:%u (%s)",
                    i, chunk, pgn_status_name(c->code), line, col, ds.n, pgn_status_name(st),
                    ds.n ? pgn_status_name(ds.d[0].code) : "-", ds.n ? ds.d[0].at.line : 0,
                    ds.n ? ds.d[0].at.column : 0, pgn_json_reader_detail(r));
            } else {
                harness_counts.passed++;
            }
            /* the byte offset agrees with line and column when the input has only LF breaks */
            if (ds.n && c->at != NULL) {
                CHECK_EQ_U64(ds.d[0].at.offset, (uint64_t)(strstr(c->input, c->at) - c->input));
            }
            CHECK(pgn_json_reader_detail(r)[0] != 0);
            pgn_json_reader_free(r);
            pgn_game_free(g);
        }
    }
}

static void test_recovery(void) {
    static const char good[] = "{\"tags\":{},\"moves\":[{\"san\":\"e4\"}],\"result\":\"1-0\"}";
    static const char illegal[] =
        "{\"tags\":{},\"moves\":[{\"san\":\"e4\"},{\"san\":\"e4\"}],\"result\":\"*\"}";
    buf in = {0};
    diags ds;
    feed f;
    pgn_game *g;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    /* a bad game is left out, the next one is read; NDJSON and arrays mix at the top level */
    buf_put(&in, illegal, strlen(illegal));
    buf_str(&in, "\n[");
    buf_put(&in, good, strlen(good));
    buf_str(&in, ",");
    buf_put(&in, good, strlen(good));
    buf_str(&in, "]\n[]\n");
    buf_put(&in, good, strlen(good));
    buf_str(&in, "\n");
    pgn_json_reader *r = open_json(in.p, in.len, &f, 0, &ds, 0);
    CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_E_ILLEGAL_MOVE);
    CHECK_EQ_U64(pgn_game_ply_count(g), 0);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_OK);
        CHECK_EQ_U64(pgn_game_ply_count(g), 1);
        CHECK_EQ_INT(pgn_game_result(g), PGN_RESULT_WHITE_WINS);
    }
    CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_END);
    CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_END);
    uint64_t games, errors;
    pgn_json_reader_totals(r, &games, &errors);
    CHECK_EQ_U64(games, 4);
    CHECK_EQ_U64(errors, 1);
    CHECK_EQ_INT(ds.n, 1);
    CHECK_EQ_U64(ds.d[0].game, 1);
    pgn_json_reader_free(r);

    /* after a syntax error nothing more is read */
    in.len = 0;
    buf_put(&in, good, strlen(good));
    buf_str(&in, " x ");
    buf_put(&in, good, strlen(good));
    r = open_json(in.p, in.len, &f, 0, &ds, 0);
    CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_E_BAD_JSON);
    CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_END);
    CHECK_EQ_INT(ds.n, 1);
    CHECK_EQ_U64(ds.d[0].game, 2);
    CHECK_EQ_STR(ds.d[0].token, "x");
    pgn_json_reader_free(r);

    /* members in any order; "commands" are checked for shape, the text is what the game keeps */
    static const char cmds[] =
        "{\"result\":\"0-1\",\"moves\":[{\"comment\":{\"commands\":[{\"name\":\"clk\",\"ms\":60000}"
        "],"
        "\"text\":\"[%clk 0:01:00] ok\"},\"uci\":\"g1f3\"}],\"fen\":\"" PGN_START_FEN
        "\",\"tags\":{}}";
    r = open_json(cmds, strlen(cmds), &f, 0, &ds, 0);
    CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_OK);
    pgn_node *n = pgn_node_child(pgn_game_root(g));
    CHECK(n != NULL && pgn_node_comment(n).len == 17 &&
          memcmp(pgn_node_comment(n).ptr, "[%clk 0:01:00] ok", 17) == 0);
    CHECK_EQ_INT(pgn_game_result(g), PGN_RESULT_BLACK_WINS);
    pgn_json_reader_free(r);

    /* Chess960 as PGN says it: a Variant tag (with or without "chess960": true) or a FEN whose
     * castling rights only Chess960 allows (b1 rook with K castling: digest §7.6) */
    static const char *const c960[] = {
        "{\"tags\":{\"Variant\":\"Chess960\"},\"moves\":[],\"result\":\"*\"}",
        "{\"tags\":{\"Variant\":\"fischerandom\"},\"chess960\":true,\"moves\":[],"
        "\"result\":\"*\"}",
        "{\"tags\":{},\"chess960\":true,\"fen\":\"4k3/8/8/8/8/8/8/1R2K2R w B - 0 1\",\"moves\":"
        "[{\"uci\":\"e1b1\",\"san\":\"O-O-O\"}],\"result\":\"*\"}"};
    for (size_t i = 0; i < sizeof c960 / sizeof c960[0]; i++) {
        r = open_json(c960[i], strlen(c960[i]), &f, 0, &ds, 0);
        CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_OK);
        CHECK(pgn_game_start(g)->chess960 != 0);
        CHECK_EQ_INT(ds.n, 0);
        pgn_json_reader_free(r);
    }

    /* empty inputs */
    static const char *const empty[] = {"", " \n\t\r\n", "[]", "[ ]\n[]"};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
        r = open_json(empty[i], strlen(empty[i]), &f, 0, &ds, 0);
        CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_END);
        CHECK_EQ_INT(ds.n, 0);
        pgn_json_reader_free(r);
    }

    /* nesting far beyond max_depth: E_LIMIT at the first container too deep, no recursion */
    in.len = 0;
    buf_str(&in, "{\"tags\":");
    for (int i = 0; i < 200000; i++) {
        buf_str(&in, "[");
    }
    for (unsigned chunk = 0; chunk <= 1; chunk++) {
        r = open_json(in.p, in.len, &f, chunk, &ds, 0);
        CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_E_LIMIT);
        CHECK_EQ_INT(ds.n, 1);
        CHECK_EQ_INT(ds.d[0].at.column, 8 + 12400); /* the 12400th "[" is nesting level 12401 */
        CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_END);
        pgn_json_reader_free(r);
    }
    r = open_json(in.p, in.len, &f, 0, &ds, 3);
    CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_E_LIMIT);
    CHECK_EQ_INT(ds.d[0].at.column, 11);
    pgn_json_reader_free(r);

    /* a string longer than max_token */
    pgn_json_reader_opts o;
    memset(&o, 0, sizeof o);
    o.max_token = 8;
    o.on_diag = on_diag;
    o.diag_ctx = &ds;
    memset(&ds, 0, sizeof ds);
    static const char longstr[] = "{\"tags\":{\"Event\":\"0123456789abcdef\"}}";
    CHECK_EQ_INT(pgn_json_reader_new_mem(&r, &o, longstr, strlen(longstr)), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_E_LIMIT);
    CHECK_EQ_INT(ds.n, 1);
    CHECK_EQ_INT(ds.d[0].at.column, 18);
    pgn_json_reader_free(r);

    /* 30000 levels of JSON nesting (a line in a variation in a move ...) read without recursion */
    in.len = 0;
    buf_str(&in, "{\"tags\":{},\"moves\":[");
    for (int i = 0; i < 10000; i++) {
        buf_str(&in, "{\"san\":\"e4\",\"variations\":[[");
    }
    buf_str(&in, "{\"uci\":\"d2d4\"}");
    for (int i = 0; i < 10000; i++) {
        buf_str(&in, "]]}");
    }
    buf_str(&in, "],\"result\":\"*\"}");
    o.max_token = 0;
    o.max_depth = 40000;
    memset(&ds, 0, sizeof ds);
    CHECK_EQ_INT(pgn_json_reader_new_mem(&r, &o, in.p, in.len), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_next(r, g), PGN_OK);
    CHECK_EQ_INT(ds.n, 0);
    size_t alternatives = 0;
    for (pgn_node *alt = pgn_node_child(pgn_game_root(g)); alt != NULL;
         alt = pgn_node_sibling(alt)) {
        alternatives++;
    }
    CHECK_EQ_U64(alternatives, 10001); /* each variation is another first move */
    pgn_json_reader_free(r);
    free(in.p);
    pgn_game_free(g);
}

/* A tree 3000 variations deep (each variation inside the one before, null moves among them): JSON
 * and back give the same PGN, through an explicit stack on both sides. */
static void test_deep_tree(void) {
    pgn_game *g, *h;
    pgn_pos pos;
    pgn_node *node;
    unsigned depth = 0;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&h, NULL), PGN_OK);
    pgn_pos_init(&pos);
    node = pgn_game_root(g);
    for (; depth < 3000; depth++) {
        pgn_movelist ml;
        pgn_node *main_, *alt;
        pgn_pos_legal_moves(&pos, &ml);
        if (ml.count < 2) {
            break;
        }
        pgn_loc at = {0, 0, 0};
        CHECK_EQ_INT(pgn_node_add(g, node, ml.moves[0], at, &main_), PGN_OK);
        /* a null move (--) as the variation keeps the game going for ever */
        pgn_move other = PGN_MOVE_NULL;
        if (pgn_pos_in_check(&pos)) {
            other = ml.moves[1];
        }
        CHECK_EQ_INT(pgn_node_add(g, node, other, at, &alt), PGN_OK);
        if (alt == NULL || main_ == NULL || pgn_node_move(alt) == pgn_node_move(main_)) {
            break;
        }
        pgn_pos_play(&pos, pgn_node_move(alt));
        node = alt;
    }
    CHECK(depth == 3000);
    buf json = {0}, a = {0}, b = {0};
    to_json(g, PGN_JSON_NDJSON, &json);
    pgn_json_reader *r;
    CHECK_EQ_INT(pgn_json_reader_new_mem(&r, NULL, json.p, json.len), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_next(r, h), PGN_OK);
    pgn_writer *w;
    pgn_writer_opts wo;
    memset(&wo, 0, sizeof wo);
    CHECK_EQ_INT(pgn_writer_new(&w, &wo, buf_write, &a), PGN_OK);
    CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
    pgn_writer_free(w);
    CHECK_EQ_INT(pgn_writer_new(&w, &wo, buf_write, &b), PGN_OK);
    CHECK_EQ_INT(pgn_writer_write(w, h), PGN_OK);
    pgn_writer_free(w);
    CHECK(a.len > 0 && a.len == b.len && memcmp(a.p, b.p, a.len) == 0);
    printf("deep tree: %u levels, %zu JSON bytes, %zu PGN bytes\n", depth, json.len, a.len);
    pgn_json_reader_free(r);
    pgn_game_free(g);
    pgn_game_free(h);
    free(json.p);
    free(a.p);
    free(b.p);
}

/* ---- 3. failing allocations and writes ---- */

static ptrdiff_t fail_write(void *ctx, const void *data, size_t len) {
    (void)ctx;
    (void)data;
    (void)len;
    return -1;
}

/* Gives one byte at a time and fails at byte fail_at. */
typedef struct failing_src {
    const char *p;
    size_t len, pos, fail_at;
} failing_src;

static ptrdiff_t fail_read(void *ctx, void *out, size_t cap) {
    failing_src *s = ctx;
    if (s->pos == s->fail_at) {
        return -1;
    }
    if (s->pos == s->len || cap == 0) {
        return 0;
    }
    memcpy(out, s->p + s->pos++, 1);
    return 1;
}

static void test_resources(void) {
    static const char pgn[] = "[Event \"e\"]\n\n{c} 1. e4 $1 ({p} 1. d4 d5 (1... Nf6 {x})) e5 *\n";
    pgn_game *src = read_pgn_game(pgn);
    buf json = {0};
    to_json(src, 0, &json);
    long k;
    for (k = 0; k < 1000; k++) {
        limit_alloc f = {k, 0};
        pgn_allocator a = limit_allocator(&f);
        pgn_json_reader_opts o;
        memset(&o, 0, sizeof o);
        o.alloc = &a;
        pgn_json_reader *r = NULL;
        pgn_game *g = NULL;
        pgn_status st = pgn_game_new(&g, &a);
        if (st == PGN_OK) {
            st = pgn_json_reader_new_mem(&r, &o, json.p, json.len);
        }
        if (st == PGN_OK) {
            st = pgn_json_reader_next(r, g);
        }
        pgn_json_writer *w = NULL;
        pgn_json_writer_opts wo = {0, 0, &a};
        buf out = {0};
        if (st == PGN_OK) {
            st = pgn_json_writer_new(&w, &wo, buf_write, &out);
        }
        if (st == PGN_OK) {
            st = pgn_json_writer_write(w, g);
        }
        if (st == PGN_OK) {
            st = pgn_json_writer_finish(w);
        }
        pgn_json_writer_free(w);
        pgn_json_reader_free(r);
        pgn_game_free(g);
        free(out.p);
        if (f.live != 0) {
            harness_fail(__FILE__, __LINE__, "allocation %ld failing: %ld blocks leaked", k,
                         f.live);
        }
        if (st == PGN_OK) {
            CHECK_EQ_STR(out.p == NULL ? "" : "ok", "ok");
            break;
        }
        if (st != PGN_E_NOMEM) {
            harness_fail(__FILE__, __LINE__, "allocation %ld failing: %s", k, pgn_status_name(st));
        }
    }
    CHECK(k > 3 && k < 1000);
    printf("nomem: %ld allocations\n", k);

    pgn_json_writer *w;
    CHECK_EQ_INT(pgn_json_writer_new(&w, NULL, fail_write, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_json_writer_write(w, src), PGN_E_IO);
    CHECK_EQ_INT(pgn_json_writer_write(w, src), PGN_E_IO);
    pgn_json_writer_free(w);

    /* a read callback that fails at byte k, for every k: E_IO (no diagnostic), never a syntax
     * error about the cut-off text, then END */
    pgn_json_reader *r;
    pgn_game *g;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    for (size_t at = 0; at < json.len; at++) {
        failing_src fs = {json.p, json.len, 0, at};
        diags ds;
        pgn_json_reader_opts o;
        memset(&o, 0, sizeof o);
        memset(&ds, 0, sizeof ds);
        o.on_diag = on_diag;
        o.diag_ctx = &ds;
        CHECK_EQ_INT(pgn_json_reader_new(&r, &o, fail_read, &fs), PGN_OK);
        pgn_status st;
        while ((st = pgn_json_reader_next(r, g)) == PGN_OK) {
        }
        if (st != PGN_E_IO || ds.n != 0 || pgn_json_reader_next(r, g) != PGN_END) {
            harness_fail(__FILE__, __LINE__, "read failing at byte %zu: %s, %u diagnostics", at,
                         pgn_status_name(st), ds.n);
        } else {
            harness_counts.passed++;
        }
        pgn_json_reader_free(r);
    }
    pgn_game_free(g);
    pgn_game_free(src);
    free(json.p);
}

/* ---- 4. round trip over the corpus ---- */

typedef struct trip {
    uint64_t games, broken, mismatches, chunk_mismatches;
} trip;

static size_t first_diff(const buf *a, const buf *b);

/* Appends to out the FEN after every move of the line starting at first (played from start),
 * one a line, in the order the JSON form lists them: a move, then the lines of its alternatives
 * if it is its parent's main continuation, then the next move (docs/json-format.md). */
static void expected_fens(const pgn_node *first, const pgn_pos *start, buf *out, unsigned depth) {
    pgn_pos pos = *start;
    for (const pgn_node *n = first; n != NULL; n = pgn_node_child(n)) {
        char fen[PGN_FEN_MAX];
        pgn_pos after = pos;
        pgn_pos_play(&after, pgn_node_move(n));
        buf_put(out, fen, pgn_fen_write(&after, 0, fen, sizeof fen));
        buf_put(out, "\n", 1);
        if (pgn_node_child(pgn_node_parent(n)) == n && depth < 100) {
            for (const pgn_node *alt = pgn_node_sibling(n); alt; alt = pgn_node_sibling(alt)) {
                expected_fens(alt, &pos, out, depth + 1);
            }
        }
        pos = after;
    }
}

/* Every "fen" member of the moves of one game's JSON (json, len) against pgn_fen_write of the
 * position the game's tree gives (the writer keeps each rank's text from move to move). */
static void check_fens(const pgn_game *g, const char *json, size_t len, const char *name) {
    buf want = {0}, got = {0};
    buf_put(&want, "", 0);
    buf_put(&got, "", 0);
    expected_fens(pgn_node_child(pgn_game_root(g)), pgn_game_start(g), &want, 0);
    const char *end = json + len, *p = NULL;
    for (const char *q = json; q + 9 <= end && p == NULL; q++) {
        if (memcmp(q, "\"moves\":", 8) == 0) {
            p = q; /* tags and the start position come before; an escaped quote is \" */
        }
    }
    for (; p != NULL && p + 7 <= end; p++) {
        if (memcmp(p, "\"fen\":\"", 7) == 0) {
            const char *f = p + 7, *e = memchr(f, '"', (size_t)(end - f));
            if (e == NULL) {
                break;
            }
            buf_put(&got, f, (size_t)(e - f));
            buf_put(&got, "\n", 1);
            p = e;
        }
    }
    if (got.len != want.len || memcmp(got.p, want.p, want.len) != 0) {
        size_t at = first_diff(&want, &got);
        harness_fail(__FILE__, __LINE__,
                     "%s: JSON fen differs at byte %zu of the list: '%.60s' / '%.60s'", name, at,
                     want.p + at, got.p + (at < got.len ? at : got.len));
    } else {
        harness_counts.passed++;
    }
    free(want.p);
    free(got.p);
}

/* fmt(x): the PGN export of every game of data that is not broken (as pgnkit fmt writes), and
 * each one's NDJSON line; all: the NDJSON of every game, broken ones too, each checked by
 * check_fens and equal to what the writer gives with SAN and FEN from the board alone
 * (PGN_JSON_RECOMPUTE) instead of the SAN the reader kept in the nodes and the FEN text kept from
 * move to move. */
static void export_all(const char *name, const char *data, size_t len, buf *pgn, buf *json,
                       buf *all, trip *t) {
    pgn_reader *r;
    pgn_game *g;
    pgn_writer *w;
    pgn_json_writer *jw;
    pgn_json_writer_opts jo = {PGN_JSON_NDJSON, 0, NULL};
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, data, len), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_writer_new(&w, NULL, buf_write, pgn), PGN_OK);
    CHECK_EQ_INT(pgn_json_writer_new(&jw, &jo, buf_write, json), PGN_OK);
    pgn_json_writer *aw, *rw;
    CHECK_EQ_INT(pgn_json_writer_new(&aw, &jo, buf_write, all), PGN_OK);
    pgn_json_writer_opts ro = {PGN_JSON_NDJSON | PGN_JSON_RECOMPUTE, 0, NULL};
    buf recomputed = {0};
    buf_put(&recomputed, "", 0);
    CHECK_EQ_INT(pgn_json_writer_new(&rw, &ro, buf_write, &recomputed), PGN_OK);
    pgn_status st;
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        int broken = pgn_reader_summary(r)->broken != 0;
        size_t at = all->len;
        t->games++;
        t->broken += broken;
        CHECK_EQ_INT(pgn_json_writer_write(aw, g), PGN_OK);
        CHECK_EQ_INT(pgn_json_writer_write(rw, g), PGN_OK);
        check_fens(g, all->p + at, all->len - at, name);
        if (!broken) {
            CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
            CHECK_EQ_INT(pgn_json_writer_write(jw, g), PGN_OK);
        }
    }
    CHECK_EQ_INT(st, PGN_END);
    if (recomputed.len != all->len || memcmp(recomputed.p, all->p, all->len) != 0) {
        harness_fail(__FILE__, __LINE__, "%s: JSON differs from PGN_JSON_RECOMPUTE's at byte %zu",
                     name, first_diff(all, &recomputed));
    } else {
        harness_counts.passed++;
    }
    free(recomputed.p);
    pgn_json_writer_free(rw);
    pgn_json_writer_free(aw);
    pgn_json_writer_free(jw);
    pgn_writer_free(w);
    pgn_game_free(g);
    pgn_reader_free(r);
}

/* Reads JSON back: the PGN export of every game, and its JSON again. Returns the game count. */
static uint64_t import_all(const char *json, size_t len, unsigned chunk, buf *pgn, buf *again,
                           uint64_t *errors) {
    diags ds;
    feed f;
    pgn_game *g;
    pgn_writer *w;
    pgn_json_writer *jw;
    pgn_json_writer_opts jo = {PGN_JSON_NDJSON, 0, NULL};
    uint64_t n = 0;
    pgn_json_reader *r = open_json(json, len, &f, chunk, &ds, 0);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_writer_new(&w, NULL, buf_write, pgn), PGN_OK);
    CHECK_EQ_INT(pgn_json_writer_new(&jw, &jo, buf_write, again), PGN_OK);
    pgn_status st;
    while ((st = pgn_json_reader_next(r, g)) != PGN_END) {
        if (st == PGN_OK) {
            n++;
            CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
            if (again != NULL) {
                CHECK_EQ_INT(pgn_json_writer_write(jw, g), PGN_OK);
            }
        }
    }
    if (ds.n) {
        printf("  first JSON diagnostic: %s at %u:%u (%s) '%s'\n", pgn_status_name(ds.d[0].code),
               ds.d[0].at.line, ds.d[0].at.column, pgn_json_reader_detail(r), ds.d[0].token);
    }
    *errors = ds.n;
    pgn_json_writer_free(jw);
    pgn_writer_free(w);
    pgn_game_free(g);
    pgn_json_reader_free(r);
    return n;
}

/* Index of the first differing byte, for the failure message. */
static size_t first_diff(const buf *a, const buf *b) {
    size_t i = 0;
    while (i < a->len && i < b->len && a->p[i] == b->p[i]) {
        i++;
    }
    return i;
}

static void round_trip(const char *name, const char *data, size_t len, int chunks, trip *total) {
    buf pgn = {0}, json = {0}, back = {0}, again = {0}, all = {0};
    trip t = {0, 0, 0, 0};
    uint64_t errors = 0;
    buf_put(&all, "", 0);
    buf_put(&pgn, "", 0);
    buf_put(&json, "", 0);
    buf_put(&back, "", 0);
    buf_put(&again, "", 0);
    export_all(name, data, len, &pgn, &json, &all, &t);
    uint64_t n = import_all(json.p, json.len, 0, &back, &again, &errors);
    if (n != t.games - t.broken || errors != 0 || back.len != pgn.len ||
        memcmp(back.p, pgn.p, pgn.len) != 0) {
        size_t at = first_diff(&pgn, &back);
        harness_fail(__FILE__, __LINE__,
                     "%s: %" PRIu64 " games, %" PRIu64 " back from JSON, %" PRIu64
                     " errors; PGN differs at byte %zu: '%.60s' / '%.60s'",
                     name, t.games, n, errors, at, pgn.p + (at < pgn.len ? at : pgn.len),
                     back.p + (at < back.len ? at : back.len));
        t.mismatches++;
    } else {
        harness_counts.passed++;
    }
    if (again.len != json.len || memcmp(again.p, json.p, json.len) != 0) {
        harness_fail(__FILE__, __LINE__,
                     "%s: to_json(from_json(to_json(x))) != to_json(x) at byte %zu", name,
                     first_diff(&json, &again));
    } else {
        harness_counts.passed++;
    }
    if (chunks) {
        for (unsigned chunk = 1; chunk <= 20; chunk += 19) {
            buf b2 = {0};
            buf_put(&b2, "", 0);
            uint64_t n2 = import_all(json.p, json.len, chunk, &b2, NULL, &errors);
            if (n2 != n || b2.len != back.len || memcmp(b2.p, back.p, back.len) != 0) {
                harness_fail(__FILE__, __LINE__,
                             "%s: reading the JSON in 1..%u-byte pieces differs", name, chunk);
                t.chunk_mismatches++;
            } else {
                harness_counts.passed++;
            }
            free(b2.p);
        }
    }
    /* broken games too: what was read of them is written; reading that back must not fail
     * other than on what broke them (a FEN the reader refused stays in the FEN tag) */
    if (t.broken) {
        buf b3 = {0};
        buf_put(&b3, "", 0);
        uint64_t n3 = import_all(all.p, all.len, 0, &b3, NULL, &errors);
        CHECK_EQ_U64(n3 + errors, t.games);
        free(b3.p);
    }
    printf("%s: %" PRIu64 " games (%" PRIu64 " broken), %zu PGN bytes, %zu JSON bytes\n", name,
           t.games, t.broken, pgn.len, json.len);
    total->games += t.games;
    total->broken += t.broken;
    total->mismatches += t.mismatches;
    free(pgn.p);
    free(json.p);
    free(back.p);
    free(again.p);
    free(all.p);
}

/* round_trip over batches of at most 2000 games (cut at "[Event " lines, as corpus/big/ allows),
 * so that the test's buffers stay small on the largest files. */
static void round_trip_batches(const char *name, const char *data, size_t len, int chunks,
                               trip *total) {
    while (len > 0) {
        size_t n = slice_games(data, len, 2000);
        round_trip(name, data, n, chunks, total);
        data += n;
        len -= n;
    }
}

/* Every .pgn (and in big/, .pgn.gz) file under corpus/<rel>, recursively, each round-tripped;
 * limit: the games per file (0 = all). Returns the number of files. */
static unsigned scan(const char *rel, uint64_t limit, int chunks, trip *total) {
    char path[4096], sub[1024];
    unsigned found = 0;
    snprintf(path, sizeof path, "%s", harness_shared(rel));
    DIR *d = opendir(path);
    if (!d) {
        harness_fail(__FILE__, __LINE__, "cannot list %s", path);
        return 0;
    }
    /* sorted, so that the log reads the same on every run */
    char names[512][256];
    size_t count = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && count < 512;) {
        if (e->d_name[0] != '.' && strlen(e->d_name) < 256) {
            snprintf(names[count++], 256, "%s", e->d_name);
        }
    }
    closedir(d);
    qsort(names, count, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        size_t n = strlen(names[i]);
        if ((size_t)snprintf(sub, sizeof sub, "%s/%s", rel, names[i]) >= sizeof sub) {
            continue;
        }
        snprintf(path, sizeof path, "%s", harness_shared(sub));
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            found += scan(sub, limit, chunks, total);
        } else if ((n > 4 && strcmp(names[i] + n - 4, ".pgn") == 0) ||
                   (n > 7 && strcmp(names[i] + n - 7, ".pgn.gz") == 0)) {
            buf data;
            found++;
            if (load(sub, &data)) {
                size_t len = limit ? slice_games(data.p, data.len, limit) : data.len;
                round_trip_batches(sub + strlen("corpus/"), data.p, len, chunks, total);
            }
            free(data.p);
        }
    }
    return found;
}

static void test_corpus(void) {
    trip total = {0, 0, 0, 0};
    unsigned files = scan("corpus/edge", 0, 1, &total);
    CHECK(files >= 60);
    printf("edge: %u files, %" PRIu64 " games (%" PRIu64 " broken)\n", files, total.games,
           total.broken);
    /* big/: a slice of files with comments, variations, clocks, Chess960 and many games; all of
     * it with PGNKIT_SLOW=1 */
    static const struct {
        const char *rel;
        uint64_t games;
    } slice[] = {
        {"corpus/big/twic/twic1427.pgn.gz", 600},
        {"corpus/big/pgnmentor-players/Kasparov.pgn.gz", 300},
        {"corpus/big/tcec/TCEC_Season_10_-_Superfinal.pgn.gz", 10},
        {"corpus/big/tcec-frc/TCEC_Season_22_-_Bonus_Dfrc_1_Final.pgn.gz", 10},
        {"corpus/big/fics/fics_01_standard_humans_2000_2199.pgn.gz", 0},
        {"corpus/big/misc/mliebelt-twic-01-232games.pgn", 0},
    };
    trip big = {0, 0, 0, 0};
    if (slow) {
        files = scan("corpus/big", 0, 0, &big);
        CHECK(files >= 45);
    } else {
        for (size_t i = 0; i < sizeof slice / sizeof slice[0]; i++) {
            buf data;
            if (load(slice[i].rel, &data)) {
                size_t len =
                    slice[i].games ? slice_games(data.p, data.len, slice[i].games) : data.len;
                round_trip_batches(slice[i].rel + strlen("corpus/"), data.p, len, 0, &big);
            }
            free(data.p);
        }
    }
    printf("big (%s): %" PRIu64 " games\n", slow ? "all" : "slice", big.games);
    CHECK(big.games >= (slow ? 190000u : 1300u)); /* 190483 games in all */
}

/* ---- the JSON string writer through a callback (pgn_json_write_string, pgn_diag_json) ---- */

/* pgn_json_write_string writes in pieces what pgn_json_escape writes at once: no character is cut
 * or made U+FFFD where a piece ends (2-, 3- and 4-byte UTF-8, stray bytes, controls) */
static void test_write_string(void) {
    static const char *const parts[] = {"a",        "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                        "\xff",     "\x01",     "\"",           "\\",
                                        "\xc2\x85", "\xe2\x82"};
    unsigned seed = 33;
    for (int round = 0; round < 200; round++) {
        char src[3000];
        size_t len = 0, want = (size_t)(round * 13);
        while (len + 4 < sizeof src && len < want) {
            seed = seed * 1103515245u + 12345u;
            const char *p = parts[(seed >> 16) % (round % 2 ? 10 : 4)];
            memcpy(src + len, p, strlen(p));
            len += strlen(p);
        }
        char *esc = malloc(6 * len + 3);
        buf out = {0};
        CHECK(esc != NULL);
        if (esc == NULL) {
            return;
        }
        esc[0] = '"';
        size_t k = pgn_json_escape(esc + 1, 6 * len + 1, src, len);
        esc[k + 1] = '"';
        CHECK(pgn_json_write_string(buf_write, &out, src, len) == PGN_OK);
        CHECK(out.len == k + 2 && memcmp(out.p, esc, k + 2) == 0);
        if (round % 2 == 0) { /* valid UTF-8 without controls: copied as it is */
            CHECK(out.len == len + 2 && memcmp(out.p + 1, src, len) == 0);
        }
        free(esc);
        buf_free(&out);
    }
}

/* the one JSON form of a diagnostic (docs/diagnostics.schema.json): members in the schema's
 * order, strings escaped, suggestions as an array, detail and replacement only when set */
static void test_diag_json(void) {
    pgn_diag d = {0};
    buf out = {0};
    d.code = PGN_E_ILLEGAL_MOVE;
    d.severity = PGN_SEV_ERROR;
    d.at.offset = 25, d.at.line = 3, d.at.column = 13;
    d.game = 1;
    d.source = "a\"b\xff.pgn";
    strcpy(d.token, "Kxe8");
    strcpy(d.suggestions, "Ke2 Be2");
    CHECK(pgn_diag_json(&d, "more", buf_write, &out) == PGN_OK);
    CHECK_EQ_STR(out.p, "{\"file\":\"a\\\"b\\ufffd.pgn\",\"line\":3,\"column\":13,\"offset\":25,"
                        "\"game\":1,\"severity\":\"error\",\"code\":\"E_ILLEGAL_MOVE\",\"message\":"
                        "\"illegal move\",\"detail\":\"more\",\"token\":\"Kxe8\",\"suggestions\":"
                        "[\"Ke2\",\"Be2\"]}");
    buf_free(&out);
    d.source = NULL;
    d.severity = PGN_SEV_WARNING;
    d.code = PGN_W_REPAIRED_MOVE;
    d.suggestions[0] = 0;
    strcpy(d.replacement, "Ke2");
    CHECK(pgn_diag_json(&d, NULL, buf_write, &out) == PGN_OK);
    CHECK(strncmp(out.p, "{\"file\":\"<stdin>\",", 18) == 0 &&
          strstr(out.p, ",\"severity\":\"warning\",\"code\":\"W_REPAIRED_MOVE\",") != NULL &&
          strstr(out.p, "\"detail\"") == NULL && strstr(out.p, "\"suggestions\"") == NULL);
    static const char end[] = ",\"replacement\":\"Ke2\"}";
    CHECK(out.len > sizeof end && strcmp(out.p + out.len - (sizeof end - 1), end) == 0);
    buf_free(&out);
}

/* Counts the calls of a write callback and keeps their bytes. */
typedef struct calls {
    int n;
    buf out;
} calls;

static ptrdiff_t count_write(void *ctx, const void *p, size_t n) {
    calls *c = ctx;
    c->n++;
    return buf_write(&c->out, p, n);
}

/* the text line of a diagnostic, GCC's FILE:LINE:COLUMN: SEVERITY: form (the one tests/cli/
 * test_cli.sh expects of pgnkit check): the detail, the token with control bytes and C1 controls
 * as spaces, one or two suggestions or the replacement, the code and the game; in one call */
static void test_diag_text(void) {
    pgn_diag d = {0};
    calls c = {0};
    d.code = PGN_E_ILLEGAL_MOVE;
    d.severity = PGN_SEV_ERROR;
    d.at.line = 3, d.at.column = 13;
    d.game = 7;
    d.source = "x.pgn";
    strcpy(d.token, "K\x01"
                    "e\xc2\x9b"
                    "8");
    strcpy(d.suggestions, "Ke2 Be2 Kf1");
    CHECK(pgn_diag_text(&d, "more", count_write, &c) == PGN_OK);
    CHECK_EQ_STR(c.out.p, "x.pgn:3:13: error: illegal move: more 'K e 8': did you mean Ke2 or Be2? "
                          "[E_ILLEGAL_MOVE] (game 7)\n");
    CHECK_EQ_INT(c.n, 1);
    buf_free(&c.out);
    c.n = 0;
    strcpy(d.suggestions, "Ke2");
    d.token[0] = 0;
    d.source = NULL;
    CHECK(pgn_diag_text(&d, "", count_write, &c) == PGN_OK);
    CHECK_EQ_STR(
        c.out.p,
        "<stdin>:3:13: error: illegal move: did you mean Ke2? [E_ILLEGAL_MOVE] (game 7)\n");
    buf_free(&c.out);
    d.severity = PGN_SEV_WARNING;
    d.code = PGN_W_REPAIRED_MOVE;
    strcpy(d.token, "Bc5");
    strcpy(d.replacement, "Bb5");
    CHECK(pgn_diag_text(&d, NULL, count_write, &c) == PGN_OK);
    CHECK(c.out.p != NULL && strstr(c.out.p, "<stdin>:3:13: warning: ") == c.out.p &&
          strstr(c.out.p, " 'Bc5' (replaced by Bb5) [W_REPAIRED_MOVE] (game 7)\n") != NULL);
    buf_free(&c.out);
}

/* pgn_json_html_write: <, > and & as \u003c, \u003e, \u0026 (RFC 8259 §7: the same characters
 * inside a string), everything else passed on as it is, in the order written */
static void test_html_write(void) {
    buf out = {0};
    pgn_json_html_sink sink = {buf_write, &out};
    static const char src[] = "</script><b>R&D</b>\xc3\xa9";
    CHECK(pgn_json_write_string(pgn_json_html_write, &sink, src, sizeof src - 1) == PGN_OK);
    CHECK_EQ_STR(out.p,
                 "\"\\u003c/script\\u003e\\u003cb\\u003eR\\u0026D\\u003c/b\\u003e\xc3\xa9\"");
    CHECK(strchr(out.p, '<') == NULL && strchr(out.p, '>') == NULL && strchr(out.p, '&') == NULL);
    buf_free(&out);
    CHECK(pgn_json_html_write(&sink, "{}", 2) == 2);
    CHECK(out.len == 2 && memcmp(out.p, "{}", 2) == 0);
    buf_free(&out);
    pgn_json_html_sink bad = {fail_write, NULL};
    CHECK(pgn_json_html_write(&bad, "a<b", 3) == -1);
    CHECK(pgn_json_html_write(&bad, "<", 1) == -1);
}

int main(void) {
    const char *env = getenv("PGNKIT_SLOW");
    slow = env && *env && strcmp(env, "0") != 0;
    test_writer();
    test_compact_moves();
    test_write_string();
    test_diag_json();
    test_diag_text();
    test_html_write();
    test_commands();
    test_diagnostics();
    test_recovery();
    test_deep_tree();
    test_resources();
    test_corpus();
    return harness_finish();
}
