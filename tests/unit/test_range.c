/* SPDX-License-Identifier: MIT */
/* Byte ranges as a caller that splits a file itself uses them (pgn_reader_opts range_start,
 * range_end, line_base; include/pgnkit/reader.h): for texts with LF, CRLF and lone CR line ends,
 * blank lines, broken games and comments over several lines, a split at every byte (the LF of a
 * CRLF too) gives two readers whose games and diagnostics (code, true line, column and offset)
 * are exactly those of one reader over the whole text: comments holding lines that start with
 * [, games without tags, within a line or on one line included (a range boundary is a line that
 * looks like a tag pair after an empty line, which every reader takes for a game's start). */
#include "harness.h"
#include "pgnkit.h"

#include <stdlib.h>

typedef struct seen {
    char log[16384];
    size_t len;
    uint64_t games;
} seen;

static void on_diag(void *ctx, const pgn_diag *d) {
    seen *s = ctx;
    int n = snprintf(s->log + s->len, sizeof s->log - s->len, "%u:%u@%llu %s\n", d->at.line,
                     d->at.column, (unsigned long long)d->at.offset, pgn_status_name(d->code));
    if (n > 0 && (size_t)n < sizeof s->log - s->len) {
        s->len += (size_t)n;
    }
}

typedef struct feed {
    const char *p;
    size_t len, pos;
} feed;

static ptrdiff_t feed_read(void *ctx, void *buf, size_t cap) {
    feed *f = ctx;
    size_t n = f->len - f->pos < cap ? f->len - f->pos : cap;
    n = n > 7 ? 7 : n; /* small pieces: the range logic must not depend on the window */
    memcpy(buf, f->p + f->pos, n);
    f->pos += n;
    return (ptrdiff_t)n;
}

/* The line number of byte at (LF, CRLF and lone CR end lines). */
static uint32_t line_of(const char *t, size_t at) {
    uint32_t line = 1;
    for (size_t i = 0; i < at; i++) {
        line += t[i] == '\n' || (t[i] == '\r' && (i + 1 >= at || t[i + 1] != '\n'));
    }
    /* a CR just before at whose LF is at: the CRLF ends that line at the LF */
    if (at > 0 && t[at - 1] == '\r' && t[at] == '\n') {
        line--;
    }
    return line;
}

/* Reads t[from..) as the range [from, end) (end 0: to the end) into s. */
static void read_range(const char *t, size_t len, size_t from, size_t end, seen *s) {
    pgn_reader_opts o;
    pgn_reader *r;
    feed f = {t + from, len - from, 0};
    memset(&o, 0, sizeof o);
    o.on_diag = on_diag;
    o.diag_ctx = s;
    o.range_start = from;
    o.range_end = end;
    o.line_base = line_of(t, from);
    if (pgn_reader_new(&r, &o, feed_read, &f) != PGN_OK) {
        CHECK(0);
        return;
    }
    pgn_status st;
    while ((st = pgn_reader_visit(r, NULL, NULL)) == PGN_OK) {
        s->games++;
    }
    CHECK_EQ_INT(st, PGN_END);
    pgn_reader_free(r);
}

/* Three ranges, cut at every pair of bytes: the middle one starts inside a game or between games
 * and may end in the white space before the next game, which it must then read (a range whose
 * start skipped to that game forgot the white space before it: test_range.sh found it). */
static void every_pair(const char *name, const char *t, const seen *whole) {
    size_t len = strlen(t);
    seen *parts = calloc(3, sizeof *parts);
    unsigned long bad = 0, pairs = 0;
    for (size_t a = 1; parts && a < len; a++) {
        for (size_t b = a + 1; b < len; b++, pairs++) {
            memset(parts, 0, 3 * sizeof *parts);
            read_range(t, len, 0, a, &parts[0]);
            read_range(t, len, a, b, &parts[1]);
            read_range(t, len, b, 0, &parts[2]);
            for (int k = 1; k < 3; k++) {
                memcpy(parts[0].log + parts[0].len, parts[k].log, parts[k].len);
                parts[0].len += parts[k].len;
                parts[0].games += parts[k].games;
            }
            if ((parts[0].games != whole->games || parts[0].len != whole->len ||
                 memcmp(parts[0].log, whole->log, whole->len) != 0) &&
                bad++ < 3) {
                harness_fail(__FILE__, __LINE__,
                             "%s, ranges cut at %zu and %zu: %llu games (whole %llu)", name, a, b,
                             (unsigned long long)parts[0].games, (unsigned long long)whole->games);
            }
        }
    }
    CHECK(parts != NULL);
    if (bad == 0) {
        harness_counts.passed++;
    }
    printf("%s: %lu pairs of cuts, %lu bad\n", name, pairs, bad);
    free(parts);
}

/* t with lone CRs for its LFs (a static buffer). */
static const char *lone_cr(const char *t) {
    static char c[512];
    size_t n = strlen(t) < sizeof c - 1 ? strlen(t) : sizeof c - 1;
    for (size_t i = 0; i < n; i++) {
        c[i] = t[i] == '\n' ? '\r' : t[i];
    }
    c[n] = 0;
    return c;
}

/* The games one reader reads in t. */
static uint64_t whole_games(const char *t) {
    seen s;
    memset(&s, 0, sizeof s);
    read_range(t, strlen(t), 0, 0, &s);
    return s.games;
}

static void every_split(const char *name, const char *t) {
    size_t len = strlen(t);
    seen whole, a, b;
    memset(&whole, 0, sizeof whole);
    read_range(t, len, 0, 0, &whole);
    unsigned long bad = 0;
    for (size_t s = 1; s < len; s++) {
        size_t cut = s;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        read_range(t, len, 0, cut, &a);
        read_range(t, len, cut, 0, &b);
        memcpy(a.log + a.len, b.log, b.len);
        a.len += b.len;
        if ((a.games + b.games != whole.games || a.len != whole.len ||
             memcmp(a.log, whole.log, a.len) != 0) &&
            bad++ < 3) {
            harness_fail(__FILE__, __LINE__,
                         "%s, split at %zu: %llu + %llu games (whole %llu); diagnostics:\n%.*s"
                         "whole:\n%.*s",
                         name, cut, (unsigned long long)a.games, (unsigned long long)b.games,
                         (unsigned long long)whole.games, (int)a.len, a.log, (int)whole.len,
                         whole.log);
        }
    }
    CHECK(whole.games >= 3 && whole.len > 0);
    if (bad == 0) {
        harness_counts.passed++;
    }
    printf("%s: %zu split points, %llu games, %lu bad\n", name, len - 1,
           (unsigned long long)whole.games, bad);
    every_pair(name, t, &whole);
}

/* The first byte of each game read (begin_game), as offsets noted in a seen log. */
static pgn_flow note_start(void *user, pgn_loc at) {
    seen *s = user;
    int n = snprintf(s->log + s->len, sizeof s->log - s->len, "game@%llu\n",
                     (unsigned long long)at.offset);
    s->len += n > 0 && (size_t)n < sizeof s->log - s->len ? (size_t)n : 0;
    return PGN_FLOW_CONTINUE;
}

/* PGN_READ_RANGE_AT_GAME: a caller that cut at the line of a game's first token (pgnkit -j) reads
 * from there at once, with true offsets and lines, even where no range boundary is (no empty line,
 * a game without tags). */
static void at_game(void) {
    static const char t[] = "[Event \"a\"]\n1. e4 *\n  [Event \"b\"]\n1. d4 *\n1. c4 Kxe8 *\n";
    static const size_t starts[] = {20, 42};
    static const uint32_t lines[] = {3, 5};
    static const char *const want[] = {"game@22\ngame@42\n5:7@48 E_ILLEGAL_MOVE\n",
                                       "game@42\n5:7@48 E_ILLEGAL_MOVE\n"};
    pgn_visitor v;
    memset(&v, 0, sizeof v);
    v.begin_game = note_start;
    for (int k = 0; k < 2; k++) {
        pgn_reader_opts o;
        pgn_reader *r;
        seen s;
        memset(&o, 0, sizeof o);
        memset(&s, 0, sizeof s);
        o.range_start = starts[k];
        o.line_base = lines[k];
        o.flags = PGN_READ_RANGE_AT_GAME;
        o.on_diag = on_diag;
        o.diag_ctx = &s;
        CHECK(pgn_reader_new_mem(&r, &o, t + starts[k], strlen(t) - starts[k]) == PGN_OK);
        while (pgn_reader_visit(r, &v, &s) == PGN_OK) {
        }
        CHECK_EQ_STR(s.log, want[k]);
        pgn_reader_free(r);
    }
}

int main(void) {
    at_game();
    every_split("LF",
                "[Event \"a\"]\n[Site \"x\"]\n\n1. e4 e5 2. 0-0 *\n\n[Event \"b\"]\n\n1. d4 {a\n"
                "comment line } d5 2. Qxd8 *\n[Event \"c\"]\n1. c4 Ke3 1-0\n\n\n[Event \"d\"]\n"
                "[Result \"1-0\"]\n\n1. Nf3 0-1\n");
    every_split("CRLF", "[Event \"a\"]\r\n[Site \"x\"]\r\n\r\n1. e4 e5 2. 0-0 *\r\n\r\n"
                        "[Event \"b\"]\r\n\r\n1. d4 {a\r\ncomment line } d5 2. Qxd8 *\r\n"
                        "[Event \"c\"]\r\n1. c4 Ke3 1-0\r\n\r\n\r\n[Event \"d\"]\r\n"
                        "[Result \"1-0\"]\r\n\r\n1. Nf3 0-1\r\n");
    every_split("CR and mixed", "[Event \"a\"]\r[Site \"x\"]\r\r1. e4 e5 2. 0-0 *\r\r"
                                "[Event \"b\"]\n\r\n1. d4 d5 2. Qxd8 *\r\n[Event \"c\"]\r1. c4 Ke3 "
                                "1-0\n\r\n\r[Event \"d\"]\r\n\n1. Nf3 0-1");
    /* games of tags only (lichess study chapters), whose next game starts with a tag they have:
     * the reader goes back to that tag after the empty line, and must still see the line breaks
     * before it (a split at the empty line lost the next game: test_range.sh found it) */
    every_split("tags only", "[Event \"a\"]\n[Site \"x\"]\n\n1. e4 e5 1-0\n\n[Event \"c\"]\n"
                             "[Site \"d\"]\n\n[Event \"e\"]\n[Site \"f\"]\n \n\n[Event \"g\"]\n\n"
                             "[Event \"h\"]\n\n1. c4 *\n");
    every_split("tags only, CRLF", "[Event \"c\"]\r\n[Site \"d\"]\r\n\r\n[Event \"e\"]\r\n"
                                   "[Site \"f\"]\r\n  \r\n[Event \"g\"]\r\n\r\n1. c4 *\r\n");
    every_split("tags only, a bad tag", "[Event \"c\"]\n[Site d]\n\n[Round \"e\"]\n\n1. d4 *\n"
                                        "\n[Event \"f\"]\n[Event x\n\n[Event \"g\"] *\n");
    /* comments over several lines holding lines that start with [: not tag pairs ([%clk, a
     * bracket in prose), one that looks like a tag pair after an empty line (it ends the comment:
     * the reader's T49 recovery, so it starts a game on both sides of any cut), and one that
     * does without an empty line before it */
    every_split("comments with [ lines",
                "[Event \"a\"]\n\n1. e4 {a comment\n\n[%clk 0:01:00] on\n[%eval 0.3]\n\n"
                "['just for fun']\n} e5 *\n\n[Event \"b\"]\n\n1. d4 {wrapped\n[Site \"x\"] no "
                "empty line} d5 *\n\n[Event \"c\"]\n\n1. c4 {open\n\n[Event \"d\"]\n\n1. Nf3 *\n");
    /* lone CRs end lines in comments as LFs do: a tag line ends a comment there too */
    static const char *const comment_text =
        "[Event \"a\"]\n\n1. e4 {a comment\n\n[%clk 0:01:00] on\n\n['x']\n} e5 *\n\n"
        "[Event \"c\"]\n\n1. c4 {open\n\n[Event \"d\"]\n\n1. Nf3 *\n";
    CHECK_EQ_INT((int)whole_games(comment_text), 3);
    CHECK_EQ_INT((int)whole_games(lone_cr(comment_text)), 3);
    every_split("comments with [ lines, CR", lone_cr(comment_text));
    every_split("comments with [ lines, blanks",
                "[Event \"a\"]\n\n1. e4 {x \n \t\n\n  [Event \"b\"]\n1. d4 *\n \n\t[Site \"c\"]\n\n"
                "1. c4 { y\r\n  \r\n[Event \"d\"]\r\n\r\n1. Nf3 *\n");
    every_split("comments with [ lines, CRLF",
                "[Event \"a\"]\r\n\r\n1. e4 {a comment\r\n\r\n[%clk 0:01:00] on\r\n\r\n"
                "['x']\r\n} e5 *\r\n\r\n[Event \"c\"]\r\n\r\n1. c4 {open\r\n\r\n"
                "[Event \"d\"]\r\n\r\n1. Nf3 *\r\n");
    /* games that start elsewhere than at a tag line after an empty line: without tags, within a
     * line, on one line, with a comment before the tags, after a line that is not empty, after a
     * ; comment or a % escape line, a tag value cut by its line's end */
    every_split("games without a boundary",
                "[Event \"a\"]\n\n1. e4 e5 *\n\n1. d4 d5 1-0\n\n2. c4 *\n\n[Event \"b\"] "
                "1. f4 * [Event \"c\"] 1. g4 *\n\n[Event \"d\"] [Site \"e\"] 1. b4 0-1\n"
                "[Event \"f\"] 1. a4 *\n\n{before} [Event \"g\"]\n1. h4 *\n\n; a line\n\n"
                "[Event \"h\"]\n1. Nc3 *\n%escape\n\n[Event \"i\n\n[Site \"j\"]\n\n1. e3 *\n"
                "\n[Event\"k\"]\n1. d3 *\n\n  [ Event \"l\"]\n1. c3 *\n\n%esc\n[Event \"m\"]\n*\n");
    return harness_finish();
}
