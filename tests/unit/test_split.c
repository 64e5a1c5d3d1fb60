/* SPDX-License-Identifier: MIT */
/* The split's placing and naming (include/pgnkit/split.h, pgn_split_*), against the rules the
 * header and pgnkit split's usage state: a value made safe in a name ('/', '\\', control bytes
 * and a leading '.' as '_', cut to 100 bytes on a UTF-8 boundary, '_' when empty or missing), two
 * values giving one name numbered apart (name~2.pgn), {n} counted per value with N games a file
 * and the full file handed back, Year as the first four bytes of Date, the directories of the
 * pattern created and removed again, a directory that cannot be made reported with its name, the
 * pattern's errors, whether a pattern can name an input, and running out of memory at each
 * allocation leaving nothing allocated; and the files written (pgn_split_files_*). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/pgnkit-test-split-XXXXXX";

static pgn_str str(const char *s) {
    pgn_str v = {s, strlen(s)};
    return v;
}

/* Places a game with tag name = value (name NULL: no tag); its file's index, or SIZE_MAX. */
static size_t place(pgn_split *s, const char *name, const char *value, size_t *full) {
    size_t file = SIZE_MAX;
    pgn_split_begin_game(s);
    if (name && pgn_split_tag(s, str(name), str(value)) != PGN_OK) {
        return SIZE_MAX;
    }
    return pgn_split_place(s, &file, full) == PGN_OK ? file : SIZE_MAX;
}

static pgn_split *make(const char *pattern, const char *by, uint64_t per_file,
                       const pgn_allocator *a) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, pattern);
    pgn_split_opts o = {p, by, per_file, a};
    pgn_split *s = NULL;
    return pgn_split_new(&s, &o, NULL, 0) == PGN_OK ? s : NULL;
}

/* The name of file i without the directory. */
static const char *base(const pgn_split *s, size_t i) {
    return pgn_split_name(s, i) + strlen(dir) + 1;
}

static void test_safe_names(void) {
    pgn_split *s = make("{value}.pgn", "White", 0, NULL);
    CHECK(s != NULL);
    char longv[160], utf[160];
    memset(longv, 'x', 150);
    longv[150] = 0;
    memset(utf, 'y', 99);
    memcpy(utf + 99, "\xc3\xa9z", 4); /* an e-acute at bytes 99-100: cut before it */
    const char *values[] = {"a/b",
                            "a\\b",
                            ".hidden",
                            "",
                            NULL,
                            "c\x01"
                            "d",
                            longv,
                            utf,
                            "a/b"};
    const char *want[] = {"a_b.pgn", "a_b~2.pgn", "_hidden.pgn", "_.pgn",  "_.pgn",
                          "c_d.pgn", NULL,        NULL,          "a_b.pgn"};
    size_t full, files[9];
    for (size_t i = 0; i < 9; i++) {
        files[i] = place(s, values[i] ? "White" : NULL, values[i], &full);
        CHECK(files[i] != SIZE_MAX);
        if (want[i]) {
            CHECK_EQ_STR(base(s, files[i]), want[i]);
        }
    }
    CHECK_EQ_U64(files[4], files[3]); /* a missing value goes with the empty one */
    CHECK_EQ_U64(files[8], files[0]); /* the same value: the same file */
    CHECK_EQ_U64(pgn_split_count(s), 7);
    CHECK_EQ_U64(pgn_split_games(s, files[0]), 2);
    CHECK_EQ_U64(strlen(base(s, files[6])), 104);
    CHECK_EQ_U64(strlen(base(s, files[7])), 99 + 4);
    pgn_split_free(s);
}

static void test_per_file(void) {
    pgn_split *s = make("{Event}-{value}-{n}.pgn", "Year", 2, NULL);
    CHECK(s != NULL);
    const char *dates[] = {"2022.01.01", "2021.??.??", "2022.05.05", "2022.06.06", "2021.1.1"};
    const char *want[] = {"e-2022-1.pgn", "e-2021-1.pgn", "e-2022-1.pgn", "e-2022-2.pgn",
                          "e-2021-1.pgn"};
    size_t fulls[] = {SIZE_MAX, SIZE_MAX, SIZE_MAX, 0, SIZE_MAX};
    for (size_t i = 0; i < 5; i++) {
        size_t full = 7, file;
        pgn_split_begin_game(s);
        CHECK_EQ_INT(pgn_split_tag(s, str("Event"), str("e")), PGN_OK);
        CHECK_EQ_INT(pgn_split_tag(s, str("Date"), str(dates[i])), PGN_OK);
        CHECK_EQ_INT(pgn_split_place(s, &file, &full), PGN_OK);
        CHECK_EQ_STR(base(s, file), want[i]);
        CHECK_EQ_U64(full, fulls[i]);
    }
    pgn_split_free(s);
    s = make("split-{n}.pgn", NULL, 0, NULL);
    size_t full;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_U64(place(s, "White", "w", &full), 0); /* no limit: one file */
    }
    CHECK_EQ_STR(base(s, 0), "split-1.pgn");
    pgn_split_free(s);
}

static void test_dirs(void) {
    pgn_split *s = make("sub/{n}/x.pgn", NULL, 1, NULL);
    size_t full;
    CHECK_EQ_U64(place(s, NULL, NULL, &full), 0);
    CHECK_EQ_U64(place(s, NULL, NULL, &full), 1);
    CHECK_EQ_STR(base(s, 1), "sub/2/x.pgn");
    char path[600];
    struct stat st;
    snprintf(path, sizeof path, "%s/sub/2", dir);
    CHECK(stat(path, &st) == 0 && S_ISDIR(st.st_mode));
    pgn_split_remove_dirs(s);
    snprintf(path, sizeof path, "%s/sub", dir);
    CHECK(stat(path, &st) != 0);
    pgn_split_free(s);
    /* a directory under a regular file cannot be made */
    snprintf(path, sizeof path, "%s/file", dir);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fclose(f);
    }
    s = make("file/d/{n}.pgn", NULL, 0, NULL);
    size_t file;
    CHECK_EQ_INT(pgn_split_place(s, &file, &full), PGN_E_IO);
    const char *name = NULL;
    CHECK_EQ_STR(pgn_split_error(s, &name), "cannot create: Not a directory");
    snprintf(path, sizeof path, "%s/file/d", dir);
    CHECK_EQ_STR(name, path);
    pgn_split_free(s);
    snprintf(path, sizeof path, "%s/file", dir);
    unlink(path);
}

static void test_patterns(void) {
    const char *bad[] = {"a{", "{}.pgn", "{A}{B}{C}{D}{E}{F}{G}{H}.pgn"};
    const char *why[] = {"a { in the pattern has no name or no }",
                         "a { in the pattern has no name or no }", "at most 7 tags in the pattern"};
    for (int i = 0; i < 3; i++) {
        char msg[128] = "";
        pgn_split_opts o = {bad[i], "White", 0, NULL};
        pgn_split *s = (pgn_split *)1;
        CHECK_EQ_INT(pgn_split_new(&s, &o, msg, sizeof msg), PGN_E_LIMIT);
        CHECK(s == NULL);
        CHECK_EQ_STR(msg, why[i]);
    }
    char longp[1100];
    memset(longp, 'p', 1025);
    longp[1025] = 0;
    char msg[128] = "";
    pgn_split_opts o = {longp, NULL, 0, NULL};
    pgn_split *s = NULL;
    CHECK_EQ_INT(pgn_split_new(&s, &o, msg, sizeof msg), PGN_E_LIMIT);
    CHECK_EQ_STR(msg, "the pattern is longer than 1024 bytes");
    o.pattern = NULL;
    CHECK_EQ_INT(pgn_split_new(&s, &o, msg, sizeof msg), PGN_OK);
    CHECK_EQ_STR(pgn_split_pattern(s), "split-{n}.pgn");
    pgn_split_free(s);
    o.by = "ECO";
    CHECK_EQ_INT(pgn_split_new(&s, &o, msg, sizeof msg), PGN_OK);
    CHECK_EQ_STR(pgn_split_pattern(s), "{value}.pgn");
    pgn_split_free(s);
}

static void test_may_name(void) {
    pgn_split *s = make("split-{n}.pgn", NULL, 100, NULL);
    char path[600];
    snprintf(path, sizeof path, "%s/split-3.pgn", dir);
    CHECK_EQ_INT(pgn_split_may_name(s, path), 1);
    snprintf(path, sizeof path, "%s/../%s/split-3~2.pgn", dir, strrchr(dir, '/') + 1);
    CHECK_EQ_INT(pgn_split_may_name(s, path), 1); /* ".." resolved, a name numbered apart */
    snprintf(path, sizeof path, "%s/other.pgn", dir);
    CHECK_EQ_INT(pgn_split_may_name(s, path), 0);
    pgn_split_free(s);
    s = make("{White}.pgn", NULL, 0, NULL); /* names from values: not decided here */
    snprintf(path, sizeof path, "%s/x.pgn", dir);
    CHECK_EQ_INT(pgn_split_may_name(s, path), 0);
    pgn_split_free(s);
}

static void test_out_of_memory(void) {
    pgn_status st = PGN_E_NOMEM;
    long k;
    for (k = 0; st != PGN_OK && k < 10000; k++) {
        limit_alloc la = {.left = k, .live = 0};
        pgn_allocator a = limit_allocator(&la);
        char p[512];
        snprintf(p, sizeof p, "%s/m/{value}-{n}.pgn", dir);
        pgn_split_opts o = {p, "White", 2, &a};
        pgn_split *s = NULL;
        st = pgn_split_new(&s, &o, NULL, 0);
        for (int i = 0; st == PGN_OK && i < 280; i++) {
            char v[16];
            size_t file, full;
            snprintf(v, sizeof v, "p%d", i % 70);
            pgn_split_begin_game(s);
            st = pgn_split_tag(s, str("White"), str(v));
            st = st == PGN_OK ? pgn_split_place(s, &file, &full) : st;
        }
        CHECK(st == PGN_OK || st == PGN_E_NOMEM);
        if (st == PGN_OK) {
            CHECK_EQ_U64(pgn_split_count(s), 70 * 2);
        }
        if (s) {
            pgn_split_remove_dirs(s);
        }
        pgn_split_free(s);
        CHECK_EQ_INT(la.live, 0);
    }
    CHECK(k > 10);
}

/* The hooks' counts of the temporary files made and gone. */
typedef struct temp_count {
    int added, removed;
} temp_count;

static int count_add(void *ctx, const char *name) {
    (void)name;
    ((temp_count *)ctx)->added++;
    return 0;
}

static void count_remove(void *ctx, const char *name) {
    (void)name;
    ((temp_count *)ctx)->removed++;
}

/* The whole of file path ("" when missing), malloc'd. */
static char *contents(const char *path) {
    FILE *f = fopen(path, "rb");
    char *text = calloc(1, 1 << 16);
    size_t n = f && text ? fread(text, 1, (1 << 16) - 1, f) : 0;
    if (text) {
        text[n] = 0;
    }
    if (f) {
        fclose(f);
    }
    return text;
}

/* pgn_split_files: the games written to the files the split places them in, one file open at a
 * time (each closed and opened again to append), a newline added where a game's text lacks it, a
 * game longer than the write buffer, nothing in place before pgn_split_files_place, an existing
 * name refused without replace (EEXIST) and its temporary file removed by free. */
static void test_files(void) {
    pgn_split *s = make("f{value}-{n}.pgn", "White", 2, NULL);
    temp_count tc = {0, 0};
    pgn_temp_hooks h = {count_add, count_remove, NULL, &tc};
    pgn_split_files *f = NULL;
    CHECK(s && pgn_split_files_new(&f, s, 1, &h) == PGN_OK);
    if (!f) {
        pgn_split_free(s);
        return;
    }
    static char big[10000];
    memset(big, 'x', sizeof big - 2);
    big[sizeof big - 2] = '\n';
    const char *values[] = {"a", "b", "a", "b", "a", "c"};
    const char *raw[] = {"one\n", "two", big, "four\n\n", "five", "six\n"};
    char want[3][2][sizeof big + 32] = {{"", ""}, {"", ""}, {"", ""}};
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 6; i++) {
        pgn_split_begin_game(s);
        CHECK(pgn_split_tag(s, str("White"), str(values[i])) == PGN_OK);
        CHECK_EQ_INT(pgn_split_files_add(f, raw[i], strlen(raw[i])), PGN_OK);
        int v = values[i][0] - 'a', n = seen[v]++ / 2;
        strcat(want[v][n], raw[i]);
        if (raw[i][strlen(raw[i]) - 1] != '\n') {
            strcat(want[v][n], "\n");
        }
    }
    CHECK_EQ_STR(pgn_split_files_error(f, NULL, NULL), "");
    CHECK_EQ_U64(pgn_split_count(s), 4); /* a-1, b-1, a-2, c-1 */
    char path[600];
    snprintf(path, sizeof path, "%s/fc-1.pgn", dir);
    FILE *e = fopen(path, "w"); /* exists: refused without replace */
    CHECK(e != NULL);
    if (e) {
        fclose(e);
    }
    for (size_t i = 0; i < pgn_split_count(s); i++) {
        CHECK_EQ_INT(pgn_split_files_close(f, i), PGN_OK);
        int exists = strstr(pgn_split_name(s, i), "/fc-1.pgn") != NULL;
        errno = 0;
        CHECK_EQ_INT(pgn_split_files_place(f, i, 0), exists ? PGN_E_IO : PGN_OK);
        CHECK_EQ_INT(errno, exists ? EEXIST : 0);
    }
    CHECK_EQ_INT(tc.added, 4);
    CHECK_EQ_INT(tc.removed, 3);
    const char *names[] = {"fa-1.pgn", "fb-1.pgn", "fa-2.pgn"};
    const int vn[3][2] = {{0, 0}, {1, 0}, {0, 1}};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        char *got = contents(path);
        CHECK_EQ_STR(got ? got : "", want[vn[i][0]][vn[i][1]]);
        free(got);
        CHECK(unlink(path) == 0);
    }
    snprintf(path, sizeof path, "%s/fc-1.pgn", dir);
    char *got = contents(path);
    CHECK_EQ_STR(got ? got : "", ""); /* the file that was there, unchanged */
    free(got);
    unlink(path);
    pgn_split_files_free(f);
    CHECK_EQ_INT(tc.removed, 4); /* the last temporary file removed */
    pgn_split_free(s);
}

int main(void) {
    if (!mkdtemp(dir)) {
        CHECK(!"mkdtemp");
        return harness_finish();
    }
    test_safe_names();
    test_per_file();
    test_dirs();
    test_patterns();
    test_may_name();
    test_out_of_memory();
    test_files();
    rmdir(dir);
    return harness_finish();
}
