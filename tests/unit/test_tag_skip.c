/* SPDX-License-Identifier: MIT */
/* The tags-only read (PGN_READ_TAGS_ONLY, src/parse/tag_skip.c; issue 29 point 4): a skipped
 * movetext passed over a line at a time must end each game where the token-by-token skip ends it,
 * so the games, their tags, starts, ends and raw bytes are the same. The truth is the reader
 * without the flag on the same text. Hand-made texts hold what ends a game or changes how its
 * bytes read (markers in and out of comments, a game without tags after a marker or after an empty
 * line, a [ outside a comment, commands in comments, multi-line and unterminated comments, %
 * lines, CRs, long algebraic, forfeit markers, bytes >= 0x80); then texts of random lines of such
 * pieces (fixed seed), each line long enough that the 16-byte blocks meet them at every place. */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    buf_printf(user, "tag %.*s=%.*s\n", (int)name.len, name.ptr, (int)value.len, value.ptr);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end_tags(void *user, const pgn_pos *start) {
    (void)user;
    (void)start;
    return PGN_FLOW_SKIP;
}

static pgn_flow on_end_game(void *user, pgn_result result, const pgn_game_summary *s) {
    (void)result;
    buf_printf(user, "game %" PRIu64 " at %" PRIu32 ":%" PRIu32 " @%" PRIu64 "..%" PRIu64 "\n",
               s->game, s->start.line, s->start.column, s->start.offset, s->end_offset);
    return PGN_FLOW_CONTINUE;
}

/* The games of text (tags, starts, ends, raw sizes) as read with flags. */
static void transcript(const char *text, size_t len, uint32_t flags, buf *out) {
    pgn_reader_opts o;
    pgn_reader *r = NULL;
    memset(&o, 0, sizeof o);
    o.flags = flags | PGN_READ_NO_BOARD | PGN_READ_KEEP_RAW;
    memset(out, 0, sizeof *out);
    if (pgn_reader_new_mem(&r, &o, text, len) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "cannot open a reader");
        return;
    }
    pgn_visitor v;
    memset(&v, 0, sizeof v);
    v.tag = on_tag;
    v.end_tags = on_end_tags;
    v.end_game = on_end_game;
    pgn_status st;
    while ((st = pgn_reader_visit(r, &v, out)) == PGN_OK || st == PGN_E_LIMIT) {
        buf_printf(out, "raw %zu\n", pgn_reader_raw(r).len);
    }
    buf_printf(out, "end %s\n", pgn_status_name(st));
    pgn_reader_free(r);
}

static int same_games(const char *text, size_t len) {
    buf a, b;
    transcript(text, len, 0, &a);
    transcript(text, len, PGN_READ_TAGS_ONLY, &b);
    int same = a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
    if (same) { /* the tags as spans of the window (PGN_READ_TAG_SPANS): the same names, values */
        free(b.p);
        transcript(text, len, PGN_READ_TAGS_ONLY | PGN_READ_TAG_SPANS, &b);
        same = a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
    }
    if (!same) {
        harness_fail(__FILE__, __LINE__,
                     "tags-only read differs on:\n%.*s\n-- full skip:\n%s\n-- "
                     "tags only:\n%s",
                     (int)len, text, a.p, b.p);
    } else {
        harness_counts.passed++;
    }
    free(a.p);
    free(b.p);
    return same;
}

#define MOVES "1. e4 {[%clk 0:03:00]} e5 {[%clk 0:03:00]} 2. Nf3 {[%clk 0:02:59]} Nc6 3. Bb5 a6\n"

static void test_cases(void) {
    static const char *const cases[] = {
        "[A \"1\"]\n\n" MOVES MOVES MOVES "4. Ba4 1-0\n\n[B \"2\"]\n\n" MOVES MOVES "0-1\n",
        "[A \"1\"]\n\n" MOVES MOVES "4. Ba4 1-0\n" MOVES "*\n\n[B \"2\"]\n\n" MOVES "*\n",
        "[A \"1\"]\n\n" MOVES MOVES "\n" MOVES MOVES "*\n\n[B \"2\"]\n\n" MOVES "*\n",
        "[A \"1\"]\n\n" MOVES MOVES "4. Ba4 [B \"2\"]\n" MOVES MOVES "*\n",
        "[A \"1\"]\n\n" MOVES "{ a comment\n" MOVES "[B \"2\"] } more\n" MOVES MOVES "*\n",
        "[A \"1\"]\n\n" MOVES "{ unterminated\n" MOVES MOVES "[B \"2\"]\n\n" MOVES MOVES "*\n",
        "[A \"1\"]\n\n" MOVES "{ [%eval -0.51] [%clk 0:01:00] }\n" MOVES MOVES "1/2-1/2\n\n"
        "[B \"2\"]\n\n" MOVES "*",
        "[A \"1\"]\n\n" MOVES "%[B \"2\"]\n" MOVES MOVES "*\n\n[C \"3\"]\n\n" MOVES "*\n",
        "[A \"1\"]\r\n\r\n" MOVES "\r\n" MOVES "1-0\r\n\r\n[B \"2\"]\r\n\r\n" MOVES "*\r\n",
        "[A \"1\"]\n\n1. e2-e4 e7-e5 2. g1-f3 b8-c6\n" MOVES MOVES "+--\n" MOVES "*\n[B \"x\"]\n",
        "[A \"1\"]\n\n" MOVES "{\xc3\xa9t\xc3\xa9} 3. Bb5 \xc2\xbd-\xc2\xbd\n" MOVES
        "*\n\n[B \"2\"]\n",
        "[A \"1\"]\n\n" MOVES "( 1. d4 1-0 )\n" MOVES MOVES "*\n\n[B \"2\"]\n\n" MOVES "*\n",
        "[A \"1\"]\n\n" MOVES MOVES "; 1-0\n" MOVES "\"1-0\"\n" MOVES "*\n\n[B \"2\"]\n\n1. d4\n",
        "[A \"1\"]\n\n" MOVES "{ one\n\n" MOVES "} " MOVES MOVES "*\n\n[B \"2\"]\n\n" MOVES "*\n",
        "[A \"1\"]\n\n" MOVES MOVES "} stray " MOVES "1-0 { c\n" MOVES "}\n\n[B \"2\"]\n\n1. d4",
        "[A \"1\"]\n\n" MOVES "{ [%clk 1] }\n" MOVES "  [%clk 0:01]\n" MOVES MOVES "*\n",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        same_games(cases[i], strlen(cases[i]));
    }
}

/* The pieces of the random texts: moves, numbers, comments and commands, markers, and what breaks
 * a line's run (a [, a (, a CR, a byte >= 0x80, an empty line, a % line, a tag line). */
static const char *const pieces[] = {
    "1.",
    "e4",
    "Nf3",
    "O-O",
    "0-0",
    "exd5",
    "e8=Q+",
    "12...",
    "{c}",
    "{[%clk 0:00:01]}",
    "{ [%eval -0.3] [%clk 1:00:00] }",
    "{",
    "}",
    "1-0",
    "0-1",
    "1/2-1/2",
    "1/2",
    "*",
    "+--",
    "-:+",
    "[",
    "]",
    "(",
    ")",
    "$1",
    "!?",
    ";x",
    "\"s\"",
    "\r",
    "\xc2\xbd",
    "\n",
    "\n\n",
    "\n%esc",
    "\n[T \"v\"]",
    "\n\n[T \"w\"]\n",
    "1",
    "e2-e4",
    "Kd1-d2",
    "--",
    "\t",
};

static void test_random(void) {
    uint64_t seed = UINT64_C(0x9E3779B97F4A7C15);
    buf text;
    for (int n = 0; n < 3000; n++) {
        memset(&text, 0, sizeof text);
        buf_str(&text, "[Event \"r\"]\n\n1. e4\n");
        int lines = 1 + (int)(seed % 7);
        for (int l = 0; l < lines; l++) {
            for (int k = 0; k < 18; k++) {
                seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
                uint64_t x = seed >> 33;
                const char *p =
                    x % 4 ? pieces[x % 10] : pieces[(x / 4) % (sizeof pieces / sizeof pieces[0])];
                buf_str(&text, p);
                buf_str(&text, (x >> 8) % 3 ? " " : "");
            }
            buf_str(&text, "\n");
        }
        buf_str(&text, (seed >> 40) % 2 ? "*\n\n[Event \"s\"]\n\n1. d4 *\n" : "");
        int ok = same_games(text.p, text.len);
        free(text.p);
        if (!ok) {
            break;
        }
    }
}

int main(void) {
    test_cases();
    test_random();
    return harness_finish();
}
