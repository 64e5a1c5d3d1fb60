/* SPDX-License-Identifier: MIT */
/* Drops in a game with no Variant tag (issue 28 point 7, docs/pgn-dialect.md): the game is read
 * whole as crazyhouse, with W_DROP_CRAZYHOUSE at its first drop. Truth: the same games with
 * [Variant "Crazyhouse"] (whose reading test_variants.sh checks against python-chess), for every
 * crazyhouse game of corpus/edge/variants/pychess-zh.pgn. And the look ahead's bounds: every
 * input is read from memory and through reads of 1, 2, 3, 7 and 65,536 bytes, which must all give
 * the same games and diagnostics (a drop past the window's first fill, a drop just before and
 * just after the look's PGNK_DROP_AHEAD bytes, a comment the look fills the window under); an @
 * in a comment, in another game, or after the next game's tags leaves a game standard chess. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "pgnkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUDGET (64 * 1024) /* PGNK_DROP_AHEAD */

typedef struct feed {
    const char *p;
    size_t len, at, step;
} feed;

static ptrdiff_t feed_read(void *ctx, void *buf, size_t cap) {
    feed *f = ctx;
    size_t n = f->len - f->at;
    n = n < f->step ? n : f->step;
    n = n < cap ? n : cap;
    memcpy(buf, f->p + f->at, n);
    f->at += n;
    return (ptrdiff_t)n;
}

static void put(pgn_membuf *b, const char *s) {
    if (pgn_membuf_write(b, s, strlen(s)) < 0) {
        harness_fail(__FILE__, __LINE__, "out of memory");
    }
}

/* Every game of text read with reads of step bytes (0: from memory), written in export format,
 * each followed by its diagnostics ("line:column CODE"); the caller frees the text. */
static char *transcript(const char *text, size_t len, size_t step) {
    pgn_membuf out = {0};
    pgn_reader *r = NULL;
    feed f = {text, len, 0, step};
    pgn_status st =
        step ? pgn_reader_new(&r, NULL, feed_read, &f) : pgn_reader_new_mem(&r, NULL, text, len);
    pgn_game *g = NULL;
    pgn_writer *w = NULL;
    if (st != PGN_OK || pgn_game_new(&g, NULL) != PGN_OK ||
        pgn_writer_new(&w, NULL, pgn_membuf_write, &out) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "cannot start");
        return NULL;
    }
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        if (pgn_writer_write(w, g) != PGN_OK) {
            harness_fail(__FILE__, __LINE__, "cannot write");
        }
        for (size_t i = 0; i < pgn_game_diag_count(g, NULL); i++) {
            const pgn_diag *d = pgn_game_diag(g, i);
            char line[96];
            snprintf(line, sizeof line, "%u:%u %s\n", (unsigned)d->at.line, (unsigned)d->at.column,
                     pgn_status_name(d->code));
            put(&out, line);
        }
    }
    CHECK_EQ_INT(st, PGN_END);
    pgn_writer_free(w);
    pgn_game_free(g);
    pgn_reader_free(r);
    put(&out, "");
    char *s = malloc(out.len + 1);
    if (s) {
        memcpy(s, out.ptr ? out.ptr : "", out.len);
        s[out.len] = 0;
    }
    pgn_membuf_free(&out);
    return s;
}

/* The transcript from memory, checked equal to those of every read size; the caller frees it. */
static char *read_all_ways(const char *text, size_t len, const char *what) {
    static const size_t steps[] = {1, 2, 3, 7, 65536};
    char *mem = transcript(text, len, 0);
    for (size_t i = 0; mem && i < sizeof steps / sizeof steps[0]; i++) {
        char *got = transcript(text, len, steps[i]);
        if (!got || strcmp(got, mem) != 0) {
            harness_fail(__FILE__, __LINE__, "%s: reads of %zu bytes differ from memory", what,
                         steps[i]);
        } else {
            harness_counts.passed++;
        }
        free(got);
    }
    return mem;
}

static size_t count(const char *s, const char *needle) {
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)) != NULL; p++) {
        n++;
    }
    return n;
}

static char *slurp(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        harness_fail(__FILE__, __LINE__, "cannot open %s", path);
        return NULL;
    }
    char *p = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len == cap) {
            cap = cap ? cap * 2 : 65536;
            char *q = realloc(p, cap);
            if (!q) {
                break;
            }
            p = q;
        }
        size_t n = fread(p + *len, 1, cap - *len, fp);
        if (n == 0) {
            break;
        }
        *len += n;
    }
    fclose(fp);
    return p;
}

/* The lines of text (NUL-terminated) but those starting with s (or, suffix, ending with s). */
static char *drop_lines(const char *text, size_t len, const char *s, int suffix, size_t *out_len) {
    char *out = malloc(len + 1);
    size_t n = 0, sl = strlen(s);
    for (size_t i = 0; out && i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) + 1 : len;
        const char *from = suffix ? text + end - sl : text + i;
        if (!(end - i >= sl && memcmp(from, s, sl) == 0)) {
            memcpy(out + n, text + i, end - i);
            n += end - i;
        }
        i = end;
    }
    *out_len = n;
    if (out) {
        out[n] = 0;
    }
    return out;
}

/* pychess's crazyhouse games without their Variant tag: the tagged games' export, with one
 * W_DROP_CRAZYHOUSE more per game with a drop (each at a drop), whatever the reads. */
static void test_corpus(void) {
    size_t len, ulen;
    char *tagged = slurp(harness_shared("corpus/edge/variants/pychess-zh.pgn"), &len);
    if (!tagged) {
        return;
    }
    CHECK(count(tagged, "\n[Variant ") > 50);
    char *untagged = drop_lines(tagged, len, "[Variant ", 0, &ulen);
    char *want = transcript(tagged, len, 0);
    char *got = untagged ? read_all_ways(untagged, ulen, "pychess-zh untagged") : NULL;
    if (want && got) {
        size_t drops = count(got, " W_DROP_CRAZYHOUSE\n");
        CHECK(drops > 50);
        /* one tag written per game with a drop (a game without one stays standard chess) */
        CHECK_EQ_U64(count(got, "\n[Variant "), drops);
        CHECK(count(want, "\n[Variant ") - drops < 5);
        /* without the Variant tags (pychess writes "crazyhouse", the writer "Crazyhouse") and
         * the new warnings, the same games and diagnostics */
        char *a = drop_lines(want, strlen(want), "[Variant ", 0, &len);
        char *b = drop_lines(got, strlen(got), "[Variant ", 0, &ulen);
        char *c = b ? drop_lines(b, ulen, " W_DROP_CRAZYHOUSE\n", 1, &ulen) : NULL;
        if (a && c) {
            CHECK_EQ_STR(c, a);
        }
        free(a);
        free(b);
        free(c);
    }
    free(want);
    free(got);
    free(untagged);
    free(tagged);
}

/* A game whose first drop comes after a comment of pad bytes. */
static char *padded_game(size_t pad, size_t *len) {
    static const char head[] = "[Event \"pad\"]\n\n1. e4 d5 2. exd5 {";
    static const char tail[] = "} Qxd5 3. Nc3 Qa5 4. P@d5 Nf6 5. Bc4 Nxd5 *\n\n"
                               "[Event \"next\"]\n\n1. d4 d5 *\n";
    *len = sizeof head - 1 + pad + sizeof tail - 1;
    char *s = malloc(*len + 1);
    if (!s) {
        return NULL;
    }
    memcpy(s, head, sizeof head - 1);
    for (size_t i = 0; i < pad; i++) {
        s[sizeof head - 1 + i] = i % 61 == 60 ? '\n' : "abcdefgh "[i % 9];
    }
    memcpy(s + sizeof head - 1 + pad, tail, sizeof tail);
    return s;
}

/* The look ahead's bounds: a drop far past the window's first fill is seen; the first drop
 * ending just before the movetext's first BUDGET bytes makes the game crazyhouse, just after
 * leaves it standard chess (E_BAD_SAN at the drop); every read size decides alike. */
static void test_bounds(void) {
    size_t len;
    char *s = padded_game(40000, &len);
    char *t = s ? read_all_ways(s, len, "a drop after 40,000 bytes") : NULL;
    CHECK(t && strstr(t, "[Variant \"Crazyhouse\"]") && strstr(t, "4. P@d5"));
    CHECK(t && strstr(t, " W_DROP_CRAZYHOUSE\n") && !strstr(t, "E_BAD_SAN"));
    free(t);
    free(s);
    /* the movetext starts at byte 15 ("1."); "P@d5" is followed by " Nf6 ...": around the edge */
    int crazy = 0, standard = 0;
    for (size_t pad = BUDGET - 64; pad <= BUDGET - 16; pad++) {
        s = padded_game(pad, &len);
        char what[64];
        snprintf(what, sizeof what, "a drop after %zu bytes", pad);
        t = s ? read_all_ways(s, len, what) : NULL;
        int zh = t && strstr(t, "W_DROP_CRAZYHOUSE") != NULL;
        int bad = t && strstr(t, "E_BAD_SAN") != NULL;
        CHECK(zh != bad);
        crazy += zh;
        standard += bad;
        free(t);
        free(s);
    }
    CHECK(crazy > 0 && standard > 0); /* the edge is inside the range */
    s = padded_game(BUDGET + 1000, &len);
    t = s ? read_all_ways(s, len, "a drop past the look") : NULL;
    CHECK(t && strstr(t, "E_BAD_SAN") && !strstr(t, "Crazyhouse"));
    free(t);
    free(s);
}

/* Where the reader looks first, a comment that the look fills the window under (reads of one
 * byte move the window at every fill): its text is whole. */
static void test_first_token(void) {
    size_t pad = 100000, len;
    static const char head[] = "[Event \"c\"]\n\n{first} 1. e4 e5 {";
    static const char tail[] = "} 2. Nf3 *\n";
    len = sizeof head - 1 + pad + sizeof tail - 1;
    char *s = malloc(len + 1);
    if (!s) {
        return;
    }
    memcpy(s, head, sizeof head - 1);
    memset(s + sizeof head - 1, 'x', pad);
    memcpy(s + sizeof head - 1 + pad, tail, sizeof tail);
    char *t = read_all_ways(s, len, "a first comment");
    CHECK(t && strstr(t, "{ first } 1. e4 e5 {\nxxx") && !strstr(t, "Crazyhouse"));
    free(t);
    free(s);
}

/* An @ that is no drop of the game's: standard chess, no warning. */
static void test_not_drops(void) {
    static const char *const texts[] = {
        /* in a comment, in a % line, in a tag value */
        "[Event \"a@b.c\"]\n\n1. e4 {mail a@e4.org} e5 2. Nf3 ; P@e4\n%P@e4\nNc6 *\n",
        /* in the next game, after its tags (that game is crazyhouse) */
        "[Event \"1\"]\n\n1. e4 e5 *\n\n[Event \"2\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@d4 *\n",
        /* in the next game without tags, after an empty line */
        "1. e4 e5\n\n1. e4 d5 2. exd5 Qxd5 3. P@d4 *\n",
        /* after the game's result */
        "[Event \"1\"]\n\n1. e4 e5 1-0 {P@d4}\n",
        /* a game with a Variant tag of another variant: no drop, E_BAD_SAN */
        "[Variant \"Atomic\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@d4 *\n",
    };
    static const size_t want_zh[] = {0, 1, 1, 0, 0};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char what[32];
        snprintf(what, sizeof what, "text %zu", i);
        char *t = read_all_ways(texts[i], strlen(texts[i]), what);
        CHECK_EQ_U64(t ? count(t, "W_DROP_CRAZYHOUSE") : 99, want_zh[i]);
        CHECK_EQ_U64(t ? count(t, "[Variant \"Crazyhouse\"]") : 99, want_zh[i]);
        if (i == 1 && t) { /* the first game is standard chess, the drop the second's */
            CHECK(strstr(t, "1. e4 e5 *\n\n[Event \"2\"]") != NULL);
            CHECK(strstr(t, "7:26 W_DROP_CRAZYHOUSE") != NULL);
        }
        free(t);
    }
}

/* The warning takes its place among the game's diagnostics (after a wrong move number before
 * it); a drop in a dead line still makes the game crazyhouse, warned at the movetext's end; a FEN
 * with pockets is read in crazyhouse. */
static void test_order_and_fen(void) {
    static const char order[] = "1. e4 d5 3. exd5 Qxd5 3. Nc3 Qa5 4. P@d5 *\n";
    char *t = read_all_ways(order, sizeof order - 1, "order");
    CHECK(t && strstr(t, "1:10 W_MOVE_NUMBER\n1:37 W_DROP_CRAZYHOUSE\n"));
    free(t);
    static const char dead[] = "1. e4 d5 2. Ke3 (2. exd5 Qxd5 3. P@e4 Qa5) Nf6 *\n";
    t = read_all_ways(dead, sizeof dead - 1, "dead");
    CHECK(t && strstr(t, "[Variant \"Crazyhouse\"]"));
    CHECK(t && strstr(t, "1:13 E_ILLEGAL_MOVE\n1:34 W_DROP_CRAZYHOUSE\n"));
    free(t);
    static const char fen[] = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1\"]\n\n"
                              "1. P@e4 Ke7 2. e5 P@e6 *\n";
    t = read_all_ways(fen, sizeof fen - 1, "fen");
    CHECK(t && strstr(t, "[FEN \"4k3/8/8/8/8/8/8/4K3[Pp] w - - 0 1\"]"));
    CHECK(t && strstr(t, "4:4 W_DROP_CRAZYHOUSE\n") && !strstr(t, "E_"));
    free(t);
}

int main(void) {
    test_corpus();
    test_bounds();
    test_first_token();
    test_not_drops();
    test_order_and_fen();
    return harness_finish();
}
