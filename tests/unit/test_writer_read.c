/* SPDX-License-Identifier: MIT */
/* The export writer on games as the reader builds them (their SAN kept, so the writer takes its
 * fast paths: the run of plain moves, the tag section without calls), against text made here
 * from the rules alone: move numbers counted up by one after each Black move (PGN §8.2.2.2), a
 * tag value with every '"' and '\' escaped by a backslash (PGN §7, §8.1). The lengths and places
 * tried cover every branch of the writer's fixed-size copies and 8-byte escape tests. */
#include "harness.h"
#include "pgnkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text {
    char *p;
    size_t len;
} text;

static ptrdiff_t to_text(void *ctx, const void *data, size_t len) {
    text *t = ctx;
    char *p = realloc(t->p, t->len + len + 1);
    if (p == NULL) {
        return -1;
    }
    memcpy(p + t->len, data, len);
    t->p = p;
    t->len += len;
    t->p[t->len] = '\0';
    return (ptrdiff_t)len;
}

/* The export of the one game in pgn (read with default options), malloc'd; NULL on failure.
 * flags: the writer's (PGN_WRITE_RECOMPUTE_SAN: the general path, a token at a time). */
static char *read_and_export_flags(const char *pgn, uint32_t width, uint32_t flags) {
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    pgn_writer *w = NULL;
    pgn_writer_opts o;
    text t = {NULL, 0};
    memset(&o, 0, sizeof o);
    o.width = width;
    o.flags = flags;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, pgn, strlen(pgn)), PGN_OK);
    CHECK_EQ_INT(pgn_writer_new(&w, &o, to_text, &t), PGN_OK);
    if (g != NULL && r != NULL && w != NULL) {
        CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
        CHECK(pgn_game_san_complete(g)); /* else the fast paths are not what is tested */
        CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
    }
    pgn_writer_free(w);
    pgn_reader_free(r);
    pgn_game_free(g);
    return t.p;
}

static char *read_and_export(const char *pgn, uint32_t width) {
    return read_and_export_flags(pgn, width, 0);
}

static const char *movetext_of(const char *out) {
    const char *p = out != NULL ? strstr(out, "\n\n") : NULL;
    return p != NULL ? p + 2 : "";
}

/* Kings stepping back and forth from move number n on (White first, or Black when black), five
 * plies: the expected movetext is printed with %lu, not by the writer's digit code. Numbers
 * that gain a digit inside the run (up to 9 digits), and numbers of 9 digits, which the run
 * leaves to the general path. */
static void test_move_numbers(void) {
    static const unsigned long starts[] = {1,       8,        9,        10,        98,
                                           99,      999,      9999,     99999,     999999,
                                           9999999, 99999999, 99999998, 100000000, 999999999};
    size_t i;
    int black;
    for (i = 0; i < sizeof starts / sizeof starts[0]; i++) {
        for (black = 0; black <= 1; black++) {
            unsigned long n = starts[i];
            char pgn[256], expected[256];
            char *out;
            if (!black) {
                snprintf(pgn, sizeof pgn,
                         "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 %lu\"]\n\n"
                         "%lu. Ke2 Kd7 %lu. Ke1 Ke8 %lu. Ke2 *\n",
                         n, n, n + 1, n + 2);
                snprintf(expected, sizeof expected, "%lu. Ke2 Kd7 %lu. Ke1 Ke8 %lu. Ke2 *\n\n", n,
                         n + 1, n + 2);
            } else {
                snprintf(pgn, sizeof pgn,
                         "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 %lu\"]\n\n"
                         "%lu... Kd7 %lu. Ke2 Ke8 %lu. Ke1 Kd7 *\n",
                         n, n, n + 1, n + 2);
                snprintf(expected, sizeof expected, "%lu... Kd7 %lu. Ke2 Ke8 %lu. Ke1 Kd7 *\n\n", n,
                         n + 1, n + 2);
            }
            out = read_and_export(pgn, 0);
            CHECK_EQ_STR(movetext_of(out), expected);
            free(out);
        }
    }
}

/* Narrow widths: each token on its line when none fits beside another, the greedy fill
 * otherwise (PGN §8.2.1), the numbers carried as above. */
static void test_narrow_widths(void) {
    const char *pgn = "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 99\"]\n\n"
                      "99. Ke2 Kd7 100. Ke1 Ke8 101. Ke2 *\n";
    char *out = read_and_export(pgn, 1);
    CHECK_EQ_STR(movetext_of(out), "99.\nKe2\nKd7\n100.\nKe1\nKe8\n101.\nKe2\n*\n\n");
    free(out);
    out = read_and_export(pgn, 8);
    CHECK_EQ_STR(movetext_of(out), "99. Ke2\nKd7 100.\nKe1 Ke8\n101. Ke2\n*\n\n");
    free(out);
}

/* The run of plain moves makes its lines after writing its tokens, from the spaces it wrote: the
 * same lines at every width as the general path, which places a token at a time (PGN_WRITE_
 * RECOMPUTE_SAN), after a game comment, after a comment word wider than the line (the run's
 * first space ends that line), after a "%" word glued to the word before it with its space (not
 * a place to break), after a NAG, and before and after a variation. */
static void test_run_lines(void) {
    static const char *const games[] = {
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *\n",
        "{ a game comment } 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 *\n",
        "1. e4 { abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz } 1... e5 2. Nf3 Nc6 "
        "3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n",
        "1. e4 { see %the glued word } 1... e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O *\n",
        "1. e4 e5 $1 2. Nf3 Nc6 3. Bb5 (3. Bc4 Bc5 4. c3 Nf6 5. d4) 3... a6 4. Ba4 Nf6 *\n",
        "1. e4 { x } 1... e5 { yy } 2. Nf3 { zzz } 2... Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O *\n",
    };
    size_t i;
    uint32_t width;
    for (i = 0; i < sizeof games / sizeof games[0]; i++) {
        for (width = 1; width <= 90; width++) {
            char *fast = read_and_export_flags(games[i], width, 0);
            char *slow = read_and_export_flags(games[i], width, PGN_WRITE_RECOMPUTE_SAN);
            CHECK(fast != NULL && slow != NULL);
            if (fast != NULL && slow != NULL) {
                CHECK_EQ_STR(fast, slow);
            }
            free(fast);
            free(slow);
        }
    }
}

/* value with each '"' and '\' escaped, as PGN §7 writes a string */
static void escape(const char *value, char *out) {
    for (; *value; value++) {
        if (*value == '"' || *value == '\\') {
            *out++ = '\\';
        }
        *out++ = *value;
    }
    *out = '\0';
}

/* Values of 0 to 20 bytes, plain or with one '"' or '\' at each place, under a roster name
 * (Event) and under other names of 1 to 12 bytes. */
static void test_tag_values(void) {
    static const char name_letters[] = "Abcdefghijkl";
    size_t len, at, name_len;
    int kind;
    for (len = 0; len <= 20; len++) {
        for (kind = 0; kind < 3; kind++) {
            for (at = 0; at < (kind == 0 ? 1 : len); at++) {
                char value[32], escaped[64], pgn[512], line[256];
                char *out;
                memset(value, 'v', len);
                value[len] = '\0';
                if (kind > 0) {
                    value[at] = kind == 1 ? '"' : '\\';
                }
                escape(value, escaped); /* the input writes the value so too */
                name_len = 1 + (len + at) % 12;
                snprintf(pgn, sizeof pgn, "[Event \"%s\"]\n[%.*s \"%s\"]\n\n1. e4 *\n", escaped,
                         (int)name_len, name_letters, escaped);
                out = read_and_export(pgn, 0);
                snprintf(line, sizeof line, "[Event \"%s\"]\n", escaped);
                CHECK(out != NULL && strstr(out, line) == out);
                snprintf(line, sizeof line, "\n[%.*s \"%s\"]\n\n1. e4 *\n\n", (int)name_len,
                         name_letters, escaped);
                CHECK(out != NULL && strstr(out, line) != NULL);
                free(out);
            }
        }
    }
}

/* 0 to 40 tags besides the roster, given in reverse order of their names, one of them (the
 * seventh) with a value of 70,000 bytes, longer than the writer's buffer was: the section is
 * the roster (filled in: "?", "????.??.??", Result from the marker) then the names in order,
 * whatever the count (the game's array of tags grows, and from 16 on it has an index). */
static void test_many_tags(void) {
    size_t count, i;
    const size_t long_len = 70000;
    char *long_value = malloc(long_len + 1);
    size_t cap = 40 * 32 + long_len + 1024;
    char *pgn = malloc(cap), *expected = malloc(cap);
    CHECK(long_value != NULL && pgn != NULL && expected != NULL);
    if (long_value == NULL || pgn == NULL || expected == NULL) {
        free(long_value);
        free(pgn);
        free(expected);
        return;
    }
    for (i = 0; i < long_len; i++) {
        long_value[i] = (char)('a' + i % 26);
    }
    long_value[long_len] = '\0';
    for (count = 0; count <= 40; count++) {
        size_t n = 0, e = 0;
        char *out;
        for (i = count; i-- > 0;) {
            n += (size_t)snprintf(pgn + n, cap - n, "[Tag%02zu \"%s%zu\"]\n", i,
                                  i == 6 ? long_value : "v", i);
        }
        snprintf(pgn + n, cap - n, "\n1. e4 e5 2. Nf3 *\n");
        e += (size_t)snprintf(expected + e, cap - e,
                              "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                              "[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n");
        for (i = 0; i < count; i++) {
            e += (size_t)snprintf(expected + e, cap - e, "[Tag%02zu \"%s%zu\"]\n", i,
                                  i == 6 ? long_value : "v", i);
        }
        snprintf(expected + e, cap - e, "\n1. e4 e5 2. Nf3 *\n\n");
        out = read_and_export(pgn, 0);
        CHECK(out != NULL && strcmp(out, expected) == 0);
        free(out);
    }
    free(long_value);
    free(pgn);
    free(expected);
}

/* Games of up to 300 plies, so that the reader's tree builder takes its nodes from several blocks
 * (a block holds at most 32), with a variation opened by a comment (its first move waits for
 * the comment: the builder's other path) and NAGs at places that move with the length: the
 * export with the SAN kept equals the one that writes every SAN from the position
 * (PGN_WRITE_RECOMPUTE_SAN), and reading the export again gives the same export. */
static void test_long_games(void) {
    static const char *const cycle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    size_t plies, i;
    for (plies = 1; plies <= 300; plies += 13) {
        char pgn[8192];
        size_t n = 0;
        for (i = 0; i < plies; i++) {
            if (i % 2 == 0) {
                n += (size_t)snprintf(pgn + n, sizeof pgn - n, "%zu. ", i / 2 + 1);
            }
            n += (size_t)snprintf(pgn + n, sizeof pgn - n, "%s ", cycle[i % 4]);
            if (i == plies / 2 && i % 4 == 0) {
                n += (size_t)snprintf(pgn + n, sizeof pgn - n,
                                      "({ instead } %zu. Nc3 Nc6 %zu. Nb1) ", i / 2 + 1, i / 2 + 2);
            }
            if (i == plies / 3) {
                n += (size_t)snprintf(pgn + n, sizeof pgn - n, "$%zu ", 1 + plies % 6);
            }
        }
        snprintf(pgn + n, sizeof pgn - n, "*\n");
        char *fast = read_and_export(pgn, 0);
        char *slow = read_and_export_flags(pgn, 0, PGN_WRITE_RECOMPUTE_SAN);
        CHECK(fast != NULL && slow != NULL);
        if (fast != NULL && slow != NULL) {
            CHECK_EQ_STR(fast, slow);
            char *again = read_and_export(fast, 0);
            CHECK(again != NULL && strcmp(again, fast) == 0);
            free(again);
        }
        free(fast);
        free(slow);
    }
}

/* Every game of pgn read (reader flags rflags) and written (writer options o), the exports one
 * after the other, malloc'd; *packed counts the games read with no move in their tree. */
static char *export_all(const char *pgn, uint32_t rflags, const pgn_writer_opts *o, int *packed) {
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    pgn_writer *w = NULL;
    pgn_reader_opts ro;
    text t = {NULL, 0};
    memset(&ro, 0, sizeof ro);
    ro.flags = rflags;
    *packed = 0;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_reader_new_mem(&r, &ro, pgn, strlen(pgn)), PGN_OK);
    CHECK_EQ_INT(pgn_writer_new(&w, o, to_text, &t), PGN_OK);
    while (g != NULL && r != NULL && w != NULL && pgn_reader_next(r, g) == PGN_OK) {
        *packed += pgn_node_child(pgn_game_root(g)) == NULL;
        CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
    }
    pgn_writer_free(w);
    pgn_reader_free(r);
    pgn_game_free(g);
    return t.p;
}

/* PGN_READ_PACK_LINE (issue 32): a game of moves alone keeps them packed and the writer writes
 * them as it writes the tree, with every writer option that changes the movetext (widths, another
 * language, the SAN written from the position, the reduced format), one stream holding packed
 * games, games that stop packing at a comment, a NAG, a variation or a SAN not canonical, games
 * from a set-up position with Black to move and a move number of 9 digits, a game of 400 plies
 * (the packed block grows) and one of 12,000 (its lines are sent before the end: FLUSH_AT). */
static void test_packed(void) {
    static const char *const games =
        "[White \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 *\n\n"
        "1. e4 e5 2. Nf3 { c } 2... Nc6 3. Bb5 a6 *\n\n"
        "{ first } 1. d4 d5 2. c4 *\n\n"
        "1. d4 d5 2. c4 $1 2... e6 1-0\n\n"
        "1. d4 d5 (1... Nf6 2. c4) 2. c4 e6 0-1\n\n"
        "1. e4 e5 2. Ngf3 Nc6 1/2-1/2\n\n"
        "1. e4 e5 2. Nf3 Nc6 { last } *\n\n"
        "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 99999999\"]\n\n99999999... Kd7 100000000. Ke2 Ke8 *\n\n"
        "[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 9\"]\n\n9... Kd7 10. Ke2 Ke8 11. Ke1 *\n\n"
        "[Result \"1-0\"]\n\n1-0\n\n";
    static const char *const cycle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    static const uint32_t plies[] = {400, 12000};
    static const uint32_t wflags[] = {0, PGN_WRITE_RECOMPUTE_SAN, PGN_WRITE_REDUCED};
    size_t cap = strlen(games) + 12000 * 12 + 1024, n = strlen(games);
    char *pgn = malloc(cap);
    CHECK(pgn != NULL);
    if (pgn == NULL) {
        return;
    }
    memcpy(pgn, games, n);
    for (size_t k = 0; k < 2; k++) {
        for (size_t i = 0; i < plies[k]; i++) {
            if (i % 2 == 0) {
                n += (size_t)snprintf(pgn + n, cap - n, "%zu. ", i / 2 + 1);
            }
            n += (size_t)snprintf(pgn + n, cap - n, "%s ", cycle[i % 4]);
        }
        n += (size_t)snprintf(pgn + n, cap - n, "*\n\n");
    }
    for (size_t f = 0; f < 3 * 5; f++) {
        pgn_writer_opts o;
        int packed_tree, packed;
        memset(&o, 0, sizeof o);
        o.flags = wflags[f % 3];
        o.width = f / 3 == 1 ? 7 : f / 3 == 2 ? 40 : 0;
        o.lang = f / 3 == 3 ? PGN_LANG_GERMAN : PGN_LANG_ENGLISH;
        o.nag_style = f / 3 == 4 ? PGN_NAG_STYLE_SYMBOL : PGN_NAG_STYLE_NUMBER;
        char *tree = export_all(pgn, 0, &o, &packed_tree);
        char *line = export_all(pgn, PGN_READ_PACK_LINE, &o, &packed);
        CHECK(tree != NULL && line != NULL);
        if (tree != NULL && line != NULL) {
            CHECK_EQ_STR(line, tree);
        }
        CHECK_EQ_INT(packed_tree, 1); /* the game of no move */
        CHECK_EQ_INT(packed, 6);      /* and the five plain ones */
        free(tree);
        free(line);
    }
    free(pgn);
}

int main(void) {
    test_move_numbers();
    test_narrow_widths();
    test_run_lines();
    test_tag_values();
    test_many_tags();
    test_long_games();
    test_packed();
    return harness_finish();
}
