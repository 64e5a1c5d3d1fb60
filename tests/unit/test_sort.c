/* SPDX-License-Identifier: MIT */
/* The external sort (include/pgnkit/sort.h, pgn_sort_*): dates and rounds in the order of PGN
 * §8.1.1.3 and §8.1.1.4 (unknown fields first, numbers by value), a game without the tag first,
 * equal games in input order; 300 games ordered by a numeric tag against the order the test
 * computes itself (qsort of value and index), the same through 300 runs merged 16 at a time as
 * in memory, the run files gone from their directory; a newline added where a game's text lacks
 * one; a missing run directory and a failing output reported; running out of memory at each
 * allocation of a sort through runs leaves nothing allocated. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pgn_str str(const char *s) {
    pgn_str v = {s, strlen(s)};
    return v;
}

/* Adds a game of the given tags ("Name=value;Name=value") and text. */
static pgn_status add(pgn_sort *s, const char *tags, const char *raw) {
    pgn_sort_begin_game(s);
    char copy[256];
    snprintf(copy, sizeof copy, "%s", tags);
    for (char *t = strtok(copy, ";"); t; t = strtok(NULL, ";")) {
        char *eq = strchr(t, '=');
        *eq = 0;
        pgn_status st = pgn_sort_tag(s, str(t), str(eq + 1));
        if (st != PGN_OK) {
            return st;
        }
    }
    return pgn_sort_add(s, str(raw));
}

static void test_standard_order(void) {
    const char *tags[] = {"Date", "Round"};
    pgn_sort_opts o = {tags, 2, 0, NULL, NULL};
    pgn_sort *s = NULL;
    CHECK_EQ_INT(pgn_sort_new(&s, &o), PGN_OK);
    CHECK_EQ_INT(add(s, "Date=2021.??.??;Round=1", "a\n"), PGN_OK);
    CHECK_EQ_INT(add(s, "Date=2020.12.31;Round=10", "b\n"), PGN_OK);
    CHECK_EQ_INT(add(s, "Date=????.??.??", "c\n"), PGN_OK);
    CHECK_EQ_INT(add(s, "Date=2020.12.31;Round=9.2", "d"), PGN_OK); /* no newline */
    CHECK_EQ_INT(add(s, "Round=1", "e\n"), PGN_OK);                 /* no Date: first */
    CHECK_EQ_INT(add(s, "Date=2020.12.31;Round=9;Date=2020.02.01", "f\n"), PGN_OK); /* last */
    CHECK_EQ_INT(add(s, "Date=2020.12.31;Round=9", "g\n"), PGN_OK);
    CHECK_EQ_INT(add(s, "Date=2020.12.31;Round=?", "h\n"), PGN_OK);
    CHECK_EQ_INT(add(s, "Date=2020.12.31;Round=9", "i\n"), PGN_OK); /* after g */
    buf out = {0};
    CHECK_EQ_INT(pgn_sort_finish(s, buf_write, &out), PGN_OK);
    CHECK_EQ_STR(out.p, "e\nc\nf\nh\ng\ni\nd\nb\na\n");
    CHECK_EQ_U64(pgn_sort_runs(s), 0);
    CHECK_EQ_STR(pgn_sort_error(s), "");
    pgn_sort_free(s);
    buf_free(&out);
}

enum { GAMES = 300 };

typedef struct want {
    int elo; /* -1: none */
    int index;
} want;

static int by_elo(const void *a, const void *b) {
    const want *x = a, *y = b;
    return x->elo != y->elo ? (x->elo > y->elo) - (x->elo < y->elo) : x->index - y->index;
}

/* GAMES games, some without WhiteElo, values with ties; the expected output into *expect. */
static void make_games(want *w, buf *expect) {
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < GAMES; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        w[i].elo = x % 11 == 0 ? -1 : (int)(x % 40) * 37; /* 0 to 1443: "999" before "1000" */
        w[i].index = i;
    }
    want sorted[GAMES];
    memcpy(sorted, w, sizeof sorted);
    qsort(sorted, GAMES, sizeof *sorted, by_elo);
    for (int i = 0; i < GAMES; i++) {
        buf_printf(expect, "[Event \"%d\"]\n\n*\n", sorted[i].index);
    }
}

/* Sorts the games with memory bytes held (0: default) and runs in dir; the status of finish. */
static pgn_status sort_games(const want *w, uint64_t memory, const char *dir,
                             const pgn_allocator *a, buf *out, uint64_t *runs) {
    const char *tags[] = {"WhiteElo"};
    pgn_sort_opts o = {tags, 1, memory, dir, a};
    pgn_sort *s = NULL;
    pgn_status st = pgn_sort_new(&s, &o);
    for (int i = 0; st == PGN_OK && i < GAMES; i++) {
        char t[64], raw[64];
        snprintf(t, sizeof t, "WhiteElo=%d", w[i].elo);
        snprintf(raw, sizeof raw, "[Event \"%d\"]\n\n*\n", w[i].index);
        st = add(s, w[i].elo < 0 ? "Event=x" : t, raw);
    }
    st = st == PGN_OK ? pgn_sort_finish(s, buf_write, out) : st;
    *runs = s ? pgn_sort_runs(s) : 0;
    pgn_sort_free(s);
    return st;
}

static int dir_entries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    }
    if (d) {
        closedir(d);
    }
    return d ? n : -1;
}

static void test_runs(const char *dir) {
    want w[GAMES];
    buf expect = {0}, mem = {0}, runs = {0};
    make_games(w, &expect);
    uint64_t n = 0;
    CHECK_EQ_INT(sort_games(w, 0, dir, NULL, &mem, &n), PGN_OK);
    CHECK_EQ_U64(n, 0);
    CHECK_EQ_STR(mem.p, expect.p);
    /* memory 1: every game its own run, the last one too (no empty run at the end) */
    CHECK_EQ_INT(sort_games(w, 1, dir, NULL, &runs, &n), PGN_OK);
    CHECK_EQ_U64(n, GAMES);
    CHECK_EQ_STR(runs.p, expect.p);
    CHECK_EQ_INT(dir_entries(dir), 0);
    buf_free(&runs);
    CHECK_EQ_INT(sort_games(w, 9300, dir, NULL, &runs, &n), PGN_OK);
    CHECK(n > 16 && n < GAMES);
    CHECK_EQ_STR(runs.p, expect.p);
    buf_free(&expect);
    buf_free(&mem);
    buf_free(&runs);
}

static void test_out_of_memory(const char *dir) {
    want w[GAMES];
    buf expect = {0};
    make_games(w, &expect);
    pgn_status st = PGN_E_NOMEM;
    long k;
    for (k = 0; st == PGN_E_NOMEM && k < 100000; k++) {
        limit_alloc la = {.left = k, .live = 0};
        pgn_allocator a = limit_allocator(&la);
        buf out = {0};
        uint64_t n;
        st = sort_games(w, 9300, dir, &a, &out, &n);
        CHECK(st == PGN_OK || st == PGN_E_NOMEM);
        CHECK_EQ_INT(la.live, 0);
        if (st == PGN_OK) {
            CHECK_EQ_STR(out.p, expect.p);
        }
        buf_free(&out);
    }
    CHECK(k > 20); /* the runs' buffers and records were refused on the way */
    CHECK_EQ_INT(dir_entries(dir), 0);
    buf_free(&expect);
}

static ptrdiff_t fail_write(void *ctx, const void *data, size_t len) {
    (void)ctx, (void)data, (void)len;
    return -1;
}

static void test_failures(const char *dir) {
    const char *tags[] = {"White"};
    pgn_sort_opts o = {tags, 1, 1, "/nonexistent/pgnkit", NULL};
    pgn_sort *s = NULL;
    CHECK_EQ_INT(pgn_sort_new(&s, &o), PGN_OK);
    CHECK_EQ_INT(add(s, "White=x", "g\n"), PGN_E_IO);
    CHECK_EQ_STR(pgn_sort_error(s), "cannot open a temporary run file: No such file or directory");
    pgn_sort_free(s);
    o.temp_dir = dir;
    CHECK_EQ_INT(pgn_sort_new(&s, &o), PGN_OK);
    CHECK_EQ_INT(add(s, "White=x", "g\n"), PGN_OK);
    CHECK_EQ_INT(pgn_sort_finish(s, fail_write, NULL), PGN_E_IO);
    CHECK_EQ_STR(pgn_sort_error(s), ""); /* the output's failure: the caller knows it */
    pgn_sort_free(s);
    o.ntags = 0;
    CHECK_EQ_INT(pgn_sort_new(&s, &o), PGN_E_LIMIT);
    CHECK(s == NULL);
    o.ntags = PGN_SORT_MAX_TAGS + 1;
    CHECK_EQ_INT(pgn_sort_new(&s, &o), PGN_E_LIMIT);
}

int main(void) {
    char dir[] = "/tmp/pgnkit-test-sort-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(!"mkdtemp");
        return harness_finish();
    }
    test_standard_order();
    test_runs(dir);
    test_out_of_memory(dir);
    test_failures(dir);
    rmdir(dir);
    return harness_finish();
}
