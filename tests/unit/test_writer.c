/* SPDX-License-Identifier: MIT */
/* Unit tests of the game tree (src/game) and the export writer (src/export/pgn_writer.c): exact
 * bytes for the standard's sample game (PGN §2.3, digest T80), the digest's worked example (§4.3,
 * T81, T82) and the export cases of digest §13, plus allocation-failure runs (STYLE C10). */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <stdlib.h>

/* ---- output capture ---- */

typedef struct sink {
    buf out;
    int fail; /* nonzero: the callback fails */
} sink;

static ptrdiff_t sink_write(void *ctx, const void *data, size_t len) {
    sink *s = ctx;
    return s->fail ? -1 : buf_write(&s->out, data, len);
}

/* Exports game with flags and width; returns a malloc'd string ("" on failure, reported). */
static char *export_opts(const pgn_game *g, uint32_t flags, uint32_t width) {
    sink s = {{NULL, 0, 0}, 0};
    pgn_writer *w;
    pgn_writer_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.width = width;
    CHECK_EQ_INT(pgn_writer_new(&w, &o, sink_write, &s), PGN_OK);
    CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
    pgn_writer_free(w);
    if (s.out.p == NULL) {
        s.out.p = calloc(1, 1);
    }
    return s.out.p;
}

/* The movetext part of an export (after the first empty line). */
static const char *movetext_of(const char *out) {
    const char *p = strstr(out, "\n\n");
    return p ? p + 2 : out;
}

#define CHECK_EXPORT(game, flags, expected)                                                        \
    do {                                                                                           \
        char *out_ = export_opts((game), (flags), 0);                                              \
        CHECK_EQ_STR(out_, (expected));                                                            \
        free(out_);                                                                                \
    } while (0)

#define CHECK_MOVETEXT(game, flags, expected)                                                      \
    do {                                                                                           \
        char *out_ = export_opts((game), (flags), 0);                                              \
        CHECK_EQ_STR(movetext_of(out_), (expected));                                               \
        free(out_);                                                                                \
    } while (0)

/* ---- a tiny movetext builder over the public API ----
 * Tokens: SAN, move numbers (skipped), $n, {comment}, ( ), and a result. A comment before any
 * move is the game comment; right after "(" it is the pre-comment of the next move. */

typedef struct line_state {
    pgn_node *cur;
    pgn_pos pos, prev;
} line_state;

static pgn_str S(const char *s) {
    pgn_str r;
    r.ptr = s;
    r.len = strlen(s);
    return r;
}

static size_t next_token(const char *s, size_t i, size_t *start) {
    while (s[i] == ' ' || s[i] == '\n') {
        i++;
    }
    *start = i;
    if (s[i] == '(' || s[i] == ')') {
        return i + 1;
    }
    if (s[i] == '{') {
        while (s[i] && s[i] != '}') {
            i++;
        }
        return s[i] ? i + 1 : i;
    }
    while (s[i] && s[i] != ' ' && s[i] != '\n' && s[i] != '(' && s[i] != ')' && s[i] != '{') {
        i++;
    }
    return i;
}

static int is_move_number(const char *t, size_t n) {
    size_t i = 0;
    while (i < n && t[i] >= '0' && t[i] <= '9') {
        i++;
    }
    return i > 0 && (i == n || t[i] == '.');
}

static pgn_status build_move(pgn_game *g, line_state *ls, pgn_str *pre, const char *t, size_t n) {
    pgn_san_result r;
    pgn_node *node;
    pgn_loc at = {0, 0, 0};
    pgn_status st = pgn_san_parse(&ls->pos, t, n, PGN_SAN_NULL_MOVES, &r);
    if (st != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "bad move %.*s: %s", (int)n, t, pgn_status_name(st));
        return st;
    }
    st = pgn_node_add(g, ls->cur, r.move, at, &node);
    if (st != PGN_OK) {
        return st;
    }
    if (pre->len != 0) {
        st = pgn_node_append_pre_comment(g, node, *pre);
        pre->len = 0;
        if (st != PGN_OK) {
            return st;
        }
    }
    ls->prev = ls->pos;
    pgn_pos_play(&ls->pos, r.move);
    ls->cur = node;
    return PGN_OK;
}

/* Adds the movetext to g from its start position; returns the first failure. */
static pgn_status build(pgn_game *g, const char *text) {
    line_state stack[16], ls;
    size_t depth = 0, i = 0, start;
    pgn_str pre = {NULL, 0};
    int at_start = 0;
    ls.cur = pgn_game_root(g);
    ls.pos = *pgn_game_start(g);
    ls.prev = ls.pos;
    while (text[i]) {
        pgn_status st = PGN_OK;
        const char *t;
        size_t n;
        i = next_token(text, i, &start);
        t = text + start;
        n = i - start;
        if (n == 0) {
            break;
        }
        if (*t == '(') {
            stack[depth++] = ls;
            ls.cur = pgn_node_parent(ls.cur);
            ls.pos = ls.prev;
            at_start = 1;
            continue;
        }
        if (*t == ')') {
            ls = stack[--depth];
        } else if (*t == '{') {
            pgn_str c;
            c.ptr = t + 1;
            c.len = n - 2;
            if (at_start) {
                pre = c; /* the pre-comment of the next move */
            } else {
                st = pgn_node_append_comment(g, ls.cur, c);
            }
        } else if (*t == '$') {
            st = pgn_node_add_nag(g, ls.cur, (unsigned)atoi(t + 1));
        } else if (pgn_result_parse(t, n) != PGN_RESULT_NONE) {
            pgn_game_set_result(g, pgn_result_parse(t, n));
        } else if (!is_move_number(t, n)) {
            st = build_move(g, &ls, &pre, t, n);
            at_start = 0;
        }
        if (st != PGN_OK) {
            return st;
        }
    }
    return PGN_OK;
}

/* A new game (libc allocator) from a FEN (NULL: standard) and movetext. */
static pgn_game *game_of(const char *fen, const char *text) {
    pgn_game *g = NULL;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    if (fen != NULL) {
        pgn_pos p;
        CHECK_EQ_INT(pgn_fen_parse(&p, fen, strlen(fen), 0, NULL), PGN_OK);
        pgn_game_set_start(g, &p);
    }
    CHECK_EQ_INT(build(g, text), PGN_OK);
    return g;
}

static void set_tag(pgn_game *g, const char *name, const char *value) {
    CHECK_EQ_INT(pgn_game_tag_set(g, S(name), S(value)), PGN_OK);
}

#define STR_UNKNOWN(result)                                                                        \
    "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n"           \
    "[Black \"?\"]\n[Result \"" result "\"]\n\n"

/* ---- the standard's sample game, T80 ---- */

/* Sets the tags of the "[Name "value"]" lines of file, last line first (a scrambled order). */
static pgn_status set_tags_reversed(pgn_game *g, const char *file) {
    const char *lines[64];
    size_t n = 0, k;
    const char *p = file;
    while (*p == '[' && n < 64) {
        lines[n++] = p;
        p = strchr(p, '\n') + 1;
    }
    for (k = n; k-- > 0;) {
        const char *q = strchr(lines[k], '"');
        const char *e = strchr(q + 1, '"');
        pgn_str name, value;
        name.ptr = lines[k] + 1;
        name.len = (size_t)(strchr(lines[k], ' ') - name.ptr);
        value.ptr = q + 1;
        value.len = (size_t)(e - q - 1);
        pgn_status st = pgn_game_tag_set(g, name, value);
        if (st != PGN_OK) {
            return st;
        }
    }
    return PGN_OK;
}

static void test_t80_sample(void) {
    char *file =
        buf_read_file(harness_shared("corpus/expected/standard/fischer-spassky-1992.pgn"), NULL);
    pgn_game *g = NULL;
    char *out;
    CHECK(file != NULL);
    if (file == NULL) {
        return;
    }
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(set_tags_reversed(g, file), PGN_OK);
    CHECK_EQ_INT(build(g, movetext_of(file)), PGN_OK);
    CHECK_EQ_INT(pgn_game_ply_count(g), 85);
    out = export_opts(g, 0, 0);
    CHECK_EQ_STR(out, file);
    free(out);
    out = export_opts(g, PGN_WRITE_REDUCED, 0); /* nothing to drop: the same bytes */
    CHECK_EQ_STR(out, file);
    free(out);
    pgn_game_free(g);
    free(file);
}

/* ---- the worked example, digest §4.3, T81, T82 ---- */

static const char worked_movetext[] =
    "{Petroff Defence} 1. e4 e5 2. Nf3 $1 Nf6 3. Nxe5 d6 (3... Nxe4 $2 4. Qe2 Qe7 5. Qxe4 d6\n"
    "6. d4 dxe5 7. dxe5) 4. Nf3 Nxe4 5. d4 d5 6. Bd3 Nc6 7. O-O Be7 8. c4 {The main line.}\n"
    "Nb4 9. Be2 O-O 10. Nc3 Bf5 11. a3 Nxc3 12. bxc3 Nc6 1/2-1/2";

static const char file_comment[] =
    "A long comment, so that the arena needs more than its first chunk: "
    "Lorem ipsum dolor sit "
    "amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna "
    "aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex "
    "ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum "
    "dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in "
    "culpa "
    "qui officia deserunt mollit anim id est laborum.";

static pgn_game *worked_example(void) {
    pgn_game *g = game_of(NULL, worked_movetext);
    set_tag(g, "White", "Doe, Jane");
    set_tag(g, "Black", "Roe, Richard");
    set_tag(g, "Event", "Club Championship");
    set_tag(g, "PlyCount", "24");
    set_tag(g, "ECO", "C42");
    set_tag(g, "Annotator", "Smith, A.");
    return g;
}

static void test_worked_example(void) {
    pgn_game *g = worked_example();
    char *out = export_opts(g, 0, 0);
    const char *mt = movetext_of(out);
    CHECK_EQ_STR(out,
                 "[Event \"Club Championship\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                 "[Round \"?\"]\n[White \"Doe, Jane\"]\n[Black \"Roe, Richard\"]\n"
                 "[Result \"1/2-1/2\"]\n[Annotator \"Smith, A.\"]\n[ECO \"C42\"]\n"
                 "[PlyCount \"24\"]\n\n"
                 "{ Petroff Defence } 1. e4 e5 2. Nf3 $1 2... Nf6 3. Nxe5 d6 (3... Nxe4 $2 4. Qe2\n"
                 "Qe7 5. Qxe4 d6 6. d4 dxe5 7. dxe5) 4. Nf3 Nxe4 5. d4 d5 6. Bd3 Nc6 7. O-O Be7\n"
                 "8. c4 { The main line. } 8... Nb4 9. Be2 O-O 10. Nc3 Bf5 11. a3 Nxc3 12. bxc3\n"
                 "Nc6 1/2-1/2\n\n");
    CHECK_EQ_INT(strchr(mt, '\n') - mt, 79); /* T81 */
    free(out);

    /* T82: reduced export */
    out = export_opts(g, PGN_WRITE_REDUCED, 0);
    CHECK_EQ_STR(out,
                 "[Event \"Club Championship\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
                 "[Round \"?\"]\n[White \"Doe, Jane\"]\n[Black \"Roe, Richard\"]\n"
                 "[Result \"1/2-1/2\"]\n\n"
                 "1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 4. Nf3 Nxe4 5. d4 d5 6. Bd3 Nc6 7. O-O Be7 8. c4\n"
                 "Nb4 9. Be2 O-O 10. Nc3 Bf5 11. a3 Nxc3 12. bxc3 Nc6 1/2-1/2\n\n");
    free(out);

    /* the three separate flags: each drops exactly its own kind */
    CHECK_MOVETEXT(
        g, PGN_WRITE_NO_COMMENTS | PGN_WRITE_NO_VARIATIONS | PGN_WRITE_NO_NAGS,
        "1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 4. Nf3 Nxe4 5. d4 d5 6. Bd3 Nc6 7. O-O Be7 8. c4\n"
        "Nb4 9. Be2 O-O 10. Nc3 Bf5 11. a3 Nxc3 12. bxc3 Nc6 1/2-1/2\n\n");
    CHECK_MOVETEXT(
        g, PGN_WRITE_NO_VARIATIONS | PGN_WRITE_NO_NAGS,
        "{ Petroff Defence } 1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 4. Nf3 Nxe4 5. d4 d5 6. Bd3\n"
        "Nc6 7. O-O Be7 8. c4 { The main line. } 8... Nb4 9. Be2 O-O 10. Nc3 Bf5 11. a3\n"
        "Nxc3 12. bxc3 Nc6 1/2-1/2\n\n");
    CHECK_MOVETEXT(g, PGN_WRITE_NO_COMMENTS,
                   "1. e4 e5 2. Nf3 $1 2... Nf6 3. Nxe5 d6 (3... Nxe4 $2 4. Qe2 Qe7 5. Qxe4 d6 6.\n"
                   "d4 dxe5 7. dxe5) 4. Nf3 Nxe4 5. d4 d5 6. Bd3 Nc6 7. O-O Be7 8. c4 Nb4 9. Be2\n"
                   "O-O 10. Nc3 Bf5 11. a3 Nxc3 12. bxc3 Nc6 1/2-1/2\n\n");
    CHECK_MOVETEXT(
        g, PGN_WRITE_NO_COMMENTS | PGN_WRITE_NAG_COMPAT | PGN_WRITE_SPACED_RAV,
        "1. e4 e5 2. Nf3 $1 Nf6 3. Nxe5 d6 ( 3... Nxe4 $2 4. Qe2 Qe7 5. Qxe4 d6 6. d4\n"
        "dxe5 7. dxe5 ) 4. Nf3 Nxe4 5. d4 d5 6. Bd3 Nc6 7. O-O Be7 8. c4 Nb4 9. Be2 O-O\n"
        "10. Nc3 Bf5 11. a3 Nxc3 12. bxc3 Nc6 1/2-1/2\n\n");
    pgn_game_free(g);
}

/* ---- digest §13 export cases ---- */

static void test_tags_export(void) {
    pgn_game *g = game_of(NULL, "*");
    /* T17: STR first, then ASCII order of name */
    set_tag(g, "ZTag", "z");
    set_tag(g, "Annotator", "a");
    set_tag(g, "Black", "B");
    set_tag(g, "White", "W");
    set_tag(g, "Event", "E");
    set_tag(g, "ECO", "A00");
    set_tag(g, "aLower", "l"); /* byte order: lowercase after uppercase */
    CHECK_EXPORT(g, 0,
                 "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                 "[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n[Annotator \"a\"]\n[ECO \"A00\"]\n"
                 "[ZTag \"z\"]\n[aLower \"l\"]\n\n*\n\n");
    pgn_game_free(g);

    /* T18: missing STR; the Result tag follows the termination marker */
    g = game_of(NULL, "1. e4 1-0");
    set_tag(g, "White", "W");
    set_tag(g, "Result", "0-1"); /* a clash: the game's marker wins on export */
    CHECK_EXPORT(g, 0,
                 "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                 "[White \"W\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n");
    pgn_game_free(g);

    /* T20: tags only, marker only */
    g = game_of(NULL, "*");
    set_tag(g, "Event", "E");
    CHECK_EXPORT(g, 0,
                 "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                 "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n*\n\n");
    pgn_game_free(g);

    /* T10, T11, T13: escapes and an empty value */
    g = game_of(NULL, "*");
    set_tag(g, "Event", "A \"B\" \\ C");
    set_tag(g, "Site", "C:\\");
    set_tag(g, "Annotator", "");
    CHECK_EXPORT(g, 0,
                 "[Event \"A \\\"B\\\" \\\\ C\"]\n[Site \"C:\\\\\"]\n[Date \"????.??.??\"]\n"
                 "[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n"
                 "[Annotator \"\"]\n\n*\n\n");
    pgn_game_free(g);
}

static void test_result_marker(void) {
    /* no marker in the game: the Result tag's value if it is a marker, else "*" */
    pgn_game *g = game_of(NULL, "1. d4");
    CHECK_EXPORT(g, 0, STR_UNKNOWN("*") "1. d4 *\n\n");
    set_tag(g, "Result", "0-1");
    CHECK_EXPORT(g, 0, STR_UNKNOWN("0-1") "1. d4 0-1\n\n");
    set_tag(g, "Result", "1/2");
    CHECK_EXPORT(g, 0, STR_UNKNOWN("*") "1. d4 *\n\n");
    pgn_game_set_result(g, PGN_RESULT_DRAW);
    CHECK_EXPORT(g, 0, STR_UNKNOWN("1/2-1/2") "1. d4 1/2-1/2\n\n");
    pgn_game_free(g);
}

static void test_setup_fen(void) {
    /* T75: FEN with Black to move */
    pgn_game *g = game_of("4k3/8/8/8/8/8/4P3/4K3 b - - 5 39", "39... Kd7 40. e4 Kc6 *");
    set_tag(g, "SetUp", "1");
    set_tag(g, "FEN", "4k3/8/8/8/8/8/4P3/4K3 b - - 5 39");
    CHECK_EXPORT(g, 0,
                 "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                 "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n"
                 "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 5 39\"]\n[SetUp \"1\"]\n\n"
                 "39... Kd7 40. e4 Kc6 *\n\n");
    pgn_game_free(g);

    /* T76: FEN without SetUp, tags around it; the FEN text is rewritten from the position */
    g = game_of("4k3/8/8/8/8/8/4P3/4K3 w - -", "1. e4 (1. e3 Kd7) 1... Kd8 *");
    set_tag(g, "ZZZ", "z");
    set_tag(g, "FEN", "4k3/8/8/8/8/8/4P3/4K3 w - -");
    set_tag(g, "Opening", "o");
    set_tag(g, "Annotator", "a");
    CHECK_EXPORT(g, 0,
                 "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                 "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[Annotator \"a\"]\n"
                 "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[Opening \"o\"]\n[SetUp \"1\"]\n"
                 "[ZZZ \"z\"]\n\n1. e4 (1. e3 Kd7) 1... Kd8 *\n\n");
    /* reduced export keeps FEN and SetUp for a set-up position (else the moves are lost) */
    CHECK_EXPORT(g, PGN_WRITE_REDUCED,
                 "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                 "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n"
                 "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd8 *\n\n");
    /* no FEN tag, but the start is not the standard one: FEN and SetUp are added */
    CHECK(pgn_game_tag_remove(g, "FEN"));
    set_tag(g, "SetUp", "0");
    CHECK_MOVETEXT(g, 0, "1. e4 (1. e3 Kd7) 1... Kd8 *\n\n");
    {
        char *out = export_opts(g, 0, 0);
        CHECK(strstr(out, "[Annotator \"a\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n"
                          "[Opening \"o\"]\n[SetUp \"1\"]\n[ZZZ \"z\"]\n\n") != NULL);
        free(out);
    }
    pgn_game_free(g);
}

static void test_setup_standard_start(void) {
    pgn_game *g;
    /* a standard start with a FEN tag keeps FEN and gains SetUp; without one, neither appears */
    g = game_of(NULL, "1. e4 *");
    set_tag(g, "SetUp", "1");
    CHECK_EXPORT(g, 0, STR_UNKNOWN("*") "1. e4 *\n\n");
    set_tag(g, "FEN", PGN_START_FEN);
    CHECK_EXPORT(g, 0,
                 "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
                 "[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[FEN \"" PGN_START_FEN "\"]\n"
                 "[SetUp \"1\"]\n\n1. e4 *\n\n");
    pgn_game_free(g);

    /* Black to move at the start, with an alternative to the first move */
    g = game_of("4k3/8/8/8/8/8/4P3/4K3 b - - 5 39", "39... Kd7 (39... Kf7 {x}) 40. e4 *");
    CHECK_MOVETEXT(g, 0, "39... Kd7 (39... Kf7 { x }) 40. e4 *\n\n");
    pgn_game_free(g);
}

static void test_movetext_cases(void) {
    pgn_game *g;
    /* T29: suffix NAGs, both modes (digest D7) */
    g = game_of(NULL, "1. e4 $1 e5 $2 2. Nf3 $3 Nc6 $4 3. Bb5 $5 a6 $6 *");
    CHECK_MOVETEXT(g, 0, "1. e4 $1 1... e5 $2 2. Nf3 $3 2... Nc6 $4 3. Bb5 $5 3... a6 $6 *\n\n");
    CHECK_MOVETEXT(g, PGN_WRITE_NAG_COMPAT,
                   "1. e4 $1 e5 $2 2. Nf3 $3 Nc6 $4 3. Bb5 $5 a6 $6 *\n\n");
    CHECK_MOVETEXT(g, PGN_WRITE_NO_NAGS, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n");
    pgn_game_free(g);

    /* T44 game comment; T45 a comment forces the black number */
    g = game_of(NULL, "{Start} 1. d4 *");
    CHECK_MOVETEXT(g, 0, "{ Start } 1. d4 *\n\n");
    pgn_game_free(g);
    g = game_of(NULL, "1. e4 {best by test} e5 *");
    CHECK_MOVETEXT(g, 0, "1. e4 { best by test } 1... e5 *\n\n");
    pgn_game_free(g);

    /* T46: "{" inside a comment is written as "[" */
    g = game_of(NULL, "1. e4 {rest {not a comment start} e5 *");
    CHECK_MOVETEXT(g, 0, "1. e4 { rest [not a comment start } 1... e5 *\n\n");
    pgn_game_free(g);

    /* T50: whitespace inside a comment collapses */
    g = game_of(NULL, "1. e4 *");
    CHECK_EQ_INT(
        pgn_node_append_comment(g, pgn_node_child(pgn_game_root(g)), S("line one\n   line two\t ")),
        PGN_OK);
    CHECK_MOVETEXT(g, 0, "1. e4 { line one line two } *\n\n");
    /* "}" is dropped, "{" becomes "[", and a comment of nothing else disappears */
    CHECK_EQ_INT(pgn_node_set_comment(g, pgn_node_child(pgn_game_root(g)), S("a}b } {c} d{")),
                 PGN_OK);
    CHECK_MOVETEXT(g, 0, "1. e4 { ab [c d[ } *\n\n");
    CHECK_EQ_INT(pgn_node_set_comment(g, pgn_node_child(pgn_game_root(g)), S(" } }} \n")), PGN_OK);
    CHECK_MOVETEXT(g, 0, "1. e4 *\n\n");
    pgn_game_free(g);
}

static void test_variations(void) {
    pgn_game *g;
    /* T51 nested RAVs, T52 a RAV then the black move; then the spaced style */
    g = game_of(NULL, "1. e4 e5 (1... c5 2. Nf3 (2. c3 d5)) 2. Nf3 *");
    CHECK_MOVETEXT(g, 0, "1. e4 e5 (1... c5 2. Nf3 (2. c3 d5)) 2. Nf3 *\n\n");
    CHECK_MOVETEXT(g, PGN_WRITE_SPACED_RAV,
                   "1. e4 e5 ( 1... c5 2. Nf3 ( 2. c3 d5 ) ) 2. Nf3 *\n\n");
    CHECK_MOVETEXT(g, PGN_WRITE_NO_VARIATIONS, "1. e4 e5 2. Nf3 *\n\n");
    pgn_game_free(g);
    g = game_of(NULL, "1. e4 (1. d4 d5) 1... e5 *");
    CHECK_MOVETEXT(g, 0, "1. e4 (1. d4 d5) 1... e5 *\n\n");
    pgn_game_free(g);

    /* several alternatives in input order, a pre-comment, and a RAV at the end of a line */
    g = game_of(NULL, "1. e4 (1. d4 {a}) (1. c4) ({pre} 1. Nf3 Nf6 (1... d5)) 1... e5 (1... c5) *");
    CHECK_MOVETEXT(g, 0,
                   "1. e4 (1. d4 { a }) (1. c4) ({ pre } 1. Nf3 Nf6 (1... d5)) 1... e5 (1... c5) *"
                   "\n\n");
    pgn_game_free(g);

    /* null moves */
    g = game_of(NULL, "1. e4 -- 2. d4 *");
    CHECK_MOVETEXT(g, 0, "1. e4 -- 2. d4 *\n\n");
    pgn_game_free(g);
}

/* ---- line layout ---- */

static void test_layout(void) {
    char word[201], text[300];
    pgn_game *g;
    char *out;
    /* a 200-character comment word stands alone on its line */
    memset(word, 'x', 200);
    word[200] = '\0';
    snprintf(text, sizeof text, "1. e4 {short %s end} e5 *", word);
    g = game_of(NULL, text);
    snprintf(text, sizeof text, "1. e4 { short\n%s\nend } 1... e5 *\n\n", word);
    CHECK_MOVETEXT(g, 0, text);
    pgn_game_free(g);

    /* no line starts with "%": such a word stays with the token before it */
    g = game_of(NULL, "1. e4 {aaaa bbbb %cc dd} *");
    out = export_opts(g, 0, 20);
    CHECK_EQ_STR(movetext_of(out), "1. e4 { aaaa\nbbbb %cc dd } *\n\n");
    free(out);
    out = export_opts(g, 0, 79);
    CHECK_EQ_STR(movetext_of(out), "1. e4 { aaaa bbbb %cc dd } *\n\n");
    free(out);
    pgn_game_free(g);
    g = game_of(NULL, "1. e4 {%x} *");
    out = export_opts(g, 0, 8);
    CHECK_EQ_STR(movetext_of(out), "1. e4\n{ %x } *\n\n");
    free(out);
    pgn_game_free(g);

    /* another width */
    g = game_of(NULL, "1. e4 e5 2. Nf3 Nc6 *");
    out = export_opts(g, 0, 10);
    CHECK_EQ_STR(movetext_of(out), "1. e4 e5\n2. Nf3 Nc6\n*\n\n");
    free(out);
    pgn_game_free(g);
}

/* Joins the movetext lines of out with spaces, in place; 0 if a line is empty, starts or ends
 * with a space, holds two spaces in a row, or is wider than width while holding a space. */
static int join_lines(char *mt, uint32_t width) {
    char *line = mt, *nl;
    int ok = 1;
    while ((nl = strchr(line, '\n')) != NULL) {
        size_t len = (size_t)(nl - line);
        const char *dd = strstr(line, "  ");
        if (len == 0 || line[0] == ' ' || line[len - 1] == ' ' || (dd != NULL && dd < nl)) {
            ok = 0;
        }
        if (len > width && memchr(line, ' ', len) != NULL) {
            ok = 0;
        }
        *nl = ' ';
        line = nl + 1;
        if (*line == '\n' && line[1] == '\0') {
            break; /* the empty line that ends the game */
        }
    }
    return ok;
}

/* Every width: lines within it (or a single unit), single spaces, and the same tokens. */
static void test_layout_property(void) {
    pgn_game *g = worked_example();
    char *one_line = export_opts(g, 0, 100000);
    char *flat = one_line + (movetext_of(one_line) - one_line);
    uint32_t width;
    CHECK(join_lines(flat, 100000));
    CHECK(strchr(flat, '\n') == flat + strlen(flat) - 1);
    for (width = 1; width <= 100; width++) {
        char *out = export_opts(g, 0, width);
        char *mt = out + (movetext_of(out) - out);
        CHECK(join_lines(mt, width));
        CHECK_EQ_STR(mt, flat);
        free(out);
    }
    free(one_line);
    pgn_game_free(g);
}

static void test_two_games_and_io(void) {
    sink s = {{NULL, 0, 0}, 0};
    pgn_writer *w;
    pgn_game *a = game_of(NULL, "1. e4 *");
    pgn_game *b = game_of(NULL, "1. d4 *");
    CHECK_EQ_INT(pgn_writer_new(&w, NULL, sink_write, &s), PGN_OK);
    CHECK_EQ_INT(pgn_writer_write(w, a), PGN_OK);
    CHECK_EQ_INT(pgn_writer_write(w, b), PGN_OK);
    CHECK_EQ_STR(s.out.p, STR_UNKNOWN("*") "1. e4 *\n\n" STR_UNKNOWN("*") "1. d4 *\n\n");
    s.fail = 1;
    CHECK_EQ_INT(pgn_writer_write(w, a), PGN_E_IO);
    s.fail = 0;
    CHECK_EQ_INT(pgn_writer_write(w, b), PGN_OK); /* the writer stays usable */
    pgn_writer_free(w);
    pgn_writer_free(NULL);
    free(s.out.p);
    pgn_game_free(a);
    pgn_game_free(b);
}

static size_t count_char(const char *s, char c) {
    size_t n = 0;
    for (; *s; s++) {
        n += *s == c;
    }
    return n;
}

/* Appends token to the greedy-filled text at *len (independent of the writer's algorithm). */
static void ref_token(char *text, size_t *len, size_t *line, const char *tok) {
    size_t n = strlen(tok);
    if (*line > 0 && *line + 1 + n > 79) {
        text[(*len)++] = '\n';
        *line = 0;
    } else if (*line > 0) {
        text[(*len)++] = ' ';
        (*line)++;
    }
    memcpy(text + *len, tok, n);
    *len += n;
    *line += n;
}

/* The expected movetext of a main line of plies null moves from the start position. */
static char *long_reference(size_t plies) {
    char *text = malloc(plies * 8 + 64), num[24];
    size_t len = 0, line = 0, i;
    if (text == NULL) {
        return NULL;
    }
    for (i = 0; i < plies; i++) {
        if (i % 2 == 0) {
            snprintf(num, sizeof num, "%zu.", i / 2 + 1);
            ref_token(text, &len, &line, num);
        }
        ref_token(text, &len, &line, "--");
    }
    ref_token(text, &len, &line, "*");
    memcpy(text + len, "\n\n", 3);
    return text;
}

/* Deep nesting and a long main line: the writer uses no recursion and flushes early. */
static void test_deep_and_long(void) {
    pgn_game *g = NULL;
    pgn_node *cur, *n;
    pgn_loc at = {0, 0, 0};
    size_t i, depth = 20000, plies = 100000;
    char *out, *expected;
    int ok = 1;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    cur = pgn_game_root(g);
    for (i = 0; i < depth && ok; i++) {
        ok = pgn_node_add(g, cur, PGN_MOVE_NULL, at, &n) == PGN_OK &&
             pgn_node_add(g, cur, PGN_MOVE_NULL, at, &cur) == PGN_OK &&
             pgn_node_sibling(n) == cur && pgn_node_child(pgn_node_parent(n)) == n;
    }
    CHECK(ok);
    out = export_opts(g, 0, 0);
    CHECK_EQ_U64(count_char(out, '('), depth);
    CHECK_EQ_U64(count_char(out, ')'), depth);
    CHECK(strstr(out, "\n\n1. -- (1. -- -- (1... -- 2. -- (2. -- -- (2... --") != NULL);
    free(out);
    pgn_game_reset(g);
    cur = pgn_game_root(g);
    for (i = 0; i < plies && ok; i++) {
        ok = pgn_node_add(g, cur, PGN_MOVE_NULL, at, &cur) == PGN_OK;
    }
    CHECK(ok);
    CHECK_EQ_U64(pgn_game_ply_count(g), plies);
    out = export_opts(g, 0, 0);
    expected = long_reference(plies);
    CHECK(expected != NULL && strcmp(movetext_of(out), expected) == 0);
    free(expected);
    free(out);
    pgn_game_free(g);
}

/* ---- the game tree API ---- */

static void test_tags_api(void) {
    pgn_game *g = NULL;
    pgn_str v;
    size_t i;
    char name[16], value[16];
    int ok = 1;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_U64(pgn_game_tag_count(g), 0);
    CHECK(!pgn_game_tag_get(g, "Event", &v));
    set_tag(g, "Event", "e1");
    set_tag(g, "Site", "s");
    set_tag(g, "Event", "e2"); /* replaced in place */
    CHECK_EQ_U64(pgn_game_tag_count(g), 2);
    CHECK(pgn_game_tag_get(g, "Event", &v) && v.len == 2 && memcmp(v.ptr, "e2", 2) == 0);
    CHECK(pgn_game_tag_name(g, 0).len == 5 && memcmp(pgn_game_tag_name(g, 0).ptr, "Event", 5) == 0);
    CHECK(!pgn_game_tag_get(g, "event", NULL)); /* case-sensitive */
    CHECK(!pgn_game_tag_get(g, "Even", NULL));
    CHECK(pgn_game_tag_remove(g, "Event"));
    CHECK(!pgn_game_tag_remove(g, "Event"));
    CHECK_EQ_U64(pgn_game_tag_count(g), 1);
    CHECK_EQ_STR(pgn_game_tag_name(g, 0).ptr, "Site");
    set_tag(g, "Empty", "");
    CHECK(pgn_game_tag_get(g, "Empty", &v) && v.len == 0 && v.ptr != NULL);
    /* many tags: the hash index, removal in the middle, replacement */
    for (i = 0; i < 1000 && ok; i++) {
        snprintf(name, sizeof name, "T%zu", i);
        snprintf(value, sizeof value, "v%zu", i);
        ok = pgn_game_tag_set(g, S(name), S(value)) == PGN_OK;
    }
    CHECK(ok);
    CHECK_EQ_U64(pgn_game_tag_count(g), 1002);
    CHECK(pgn_game_tag_remove(g, "T500"));
    for (i = 0; i < 1000 && ok; i++) {
        snprintf(name, sizeof name, "T%zu", i);
        snprintf(value, sizeof value, "v%zu", i);
        ok = pgn_game_tag_get(g, name, &v) == (i != 500) && (i == 500 || strcmp(v.ptr, value) == 0);
    }
    CHECK(ok);
    CHECK(!pgn_game_tag_get(g, "T500", NULL));
    set_tag(g, "T999", "new");
    CHECK(pgn_game_tag_get(g, "T999", &v) && strcmp(v.ptr, "new") == 0);
    CHECK(pgn_game_tag_get(g, "T501", &v) && strcmp(v.ptr, "v501") == 0);
    CHECK_EQ_STR(pgn_game_tag_name(g, 502).ptr, "T501"); /* Site, Empty, T0..T499, T501 */
    CHECK_EQ_U64(pgn_game_tag_count(g), 1001);
    pgn_game_free(g);
}

static void test_tree_api(void) {
    pgn_game *g = NULL;
    pgn_node *root, *a, *b, *c;
    pgn_loc at = {17, 2, 5};
    pgn_pos p;
    pgn_move e4, d4;
    pgn_san_result r;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    root = pgn_game_root(g);
    CHECK(pgn_node_parent(root) == NULL && pgn_node_child(root) == NULL);
    CHECK_EQ_U64(pgn_game_ply_count(g), 0);
    pgn_pos_init(&p);
    CHECK_EQ_INT(pgn_san_parse(&p, "e4", 2, 0, &r), PGN_OK);
    e4 = r.move;
    CHECK_EQ_INT(pgn_san_parse(&p, "d4", 2, 0, &r), PGN_OK);
    d4 = r.move;
    CHECK_EQ_INT(pgn_node_add(g, root, e4, at, &a), PGN_OK);
    CHECK_EQ_INT(pgn_node_add(g, root, d4, at, &b), PGN_OK);
    CHECK_EQ_INT(pgn_node_add(g, root, e4, at, &c), PGN_OK);
    CHECK(pgn_node_child(root) == a && pgn_node_sibling(a) == b && pgn_node_sibling(b) == c);
    CHECK(pgn_node_parent(c) == root && pgn_node_move(b) == d4);
    CHECK(pgn_node_loc(a).offset == 17 && pgn_node_loc(a).line == 2 && pgn_node_loc(a).column == 5);
    CHECK_EQ_U64(pgn_game_ply_count(g), 1);
    pgn_game_free(g);
}

static void test_comments_nags(void) {
    pgn_game *g = game_of(NULL, "1. e4 (1. d4) (1. e4) *");
    pgn_node *a = pgn_node_child(pgn_game_root(g)), *b = pgn_node_sibling(a);
    pgn_loc at = {0, 0, 0};
    pgn_move e4 = pgn_node_move(a);
    /* comments: append joins with one space; set replaces; empty set removes */
    CHECK_EQ_U64(pgn_node_comment(a).len, 0);
    CHECK_EQ_INT(pgn_node_append_comment(g, a, S("one")), PGN_OK);
    CHECK_EQ_INT(pgn_node_append_comment(g, a, S("two")), PGN_OK);
    CHECK_EQ_INT(pgn_node_add(g, a, e4, at, NULL), PGN_OK); /* an allocation in between */
    CHECK_EQ_INT(pgn_node_append_comment(g, a, S("three")), PGN_OK);
    CHECK_EQ_STR(pgn_node_comment(a).ptr, "one two three");
    CHECK_EQ_U64(pgn_node_comment(a).len, 13);
    CHECK_EQ_INT(pgn_node_set_comment(g, a, S("new")), PGN_OK);
    CHECK_EQ_STR(pgn_node_comment(a).ptr, "new");
    CHECK_EQ_INT(pgn_node_set_comment(g, a, S("")), PGN_OK);
    CHECK_EQ_U64(pgn_node_comment(a).len, 0);
    CHECK_EQ_INT(pgn_node_append_pre_comment(g, b, S("pre")), PGN_OK);
    CHECK_EQ_INT(pgn_node_append_pre_comment(g, b, S("more")), PGN_OK);
    CHECK_EQ_STR(pgn_node_pre_comment(b).ptr, "pre more");
    /* NAGs: input order, exact duplicates dropped, 0..255 */
    CHECK_EQ_INT(pgn_node_add_nag(g, a, 1), PGN_OK);
    CHECK_EQ_INT(pgn_node_add_nag(g, a, 18), PGN_OK);
    CHECK_EQ_INT(pgn_node_add_nag(g, a, 1), PGN_OK);
    CHECK_EQ_INT(pgn_node_add_nag(g, a, 0), PGN_OK);
    CHECK_EQ_INT(pgn_node_add_nag(g, a, 255), PGN_OK);
    CHECK_EQ_INT(pgn_node_add_nag(g, a, 18), PGN_OK);
    CHECK_EQ_INT(pgn_node_add_nag(g, a, 256), PGN_E_LIMIT);
    CHECK_EQ_U64(pgn_node_nag_count(a), 4);
    CHECK(pgn_node_nag(a, 0) == 1 && pgn_node_nag(a, 1) == 18 && pgn_node_nag(a, 2) == 0 &&
          pgn_node_nag(a, 3) == 255);
    pgn_node_clear_nags(a);
    CHECK_EQ_U64(pgn_node_nag_count(a), 0);
    {
        unsigned k;
        int ok = 1;
        for (k = 0; k < 600 && ok; k++) {
            ok = pgn_node_add_nag(g, b, (k * 7) % 256) == PGN_OK;
        }
        CHECK(ok);
        CHECK_EQ_U64(pgn_node_nag_count(b), 256);
        CHECK(pgn_node_nag(b, 1) == 7);
    }
    pgn_game_free(g);
}

static void test_result_start_reset(void) {
    pgn_game *g = NULL;
    pgn_node *root;
    pgn_pos p;
    pgn_san_result r;
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    root = pgn_game_root(g);
    /* result and start position */
    CHECK_EQ_STR(pgn_result_str(PGN_RESULT_NONE), "*");
    CHECK_EQ_STR(pgn_result_str(PGN_RESULT_DRAW), "1/2-1/2");
    CHECK_EQ_INT(pgn_result_parse("1-0", 3), PGN_RESULT_WHITE_WINS);
    CHECK_EQ_INT(pgn_result_parse("0-1", 3), PGN_RESULT_BLACK_WINS);
    CHECK_EQ_INT(pgn_result_parse("1/2-1/2", 7), PGN_RESULT_DRAW);
    CHECK_EQ_INT(pgn_result_parse("*", 1), PGN_RESULT_UNKNOWN);
    CHECK_EQ_INT(pgn_result_parse("1-0", 2), PGN_RESULT_NONE);
    CHECK_EQ_INT(pgn_result_parse("1/2", 3), PGN_RESULT_NONE);
    pgn_game_set_result(g, PGN_RESULT_BLACK_WINS);
    CHECK_EQ_INT(pgn_game_result(g), PGN_RESULT_BLACK_WINS);
    pgn_pos_init(&p);
    CHECK_EQ_INT(pgn_san_parse(&p, "e4", 2, 0, &r), PGN_OK);
    pgn_pos_play(&p, r.move);
    pgn_game_set_start(g, &p);
    CHECK(pgn_game_start(g)->side == PGN_BLACK);
    set_tag(g, "Event", "x");
    /* reset: an empty game again, and reusable */
    pgn_game_reset(g);
    CHECK_EQ_U64(pgn_game_tag_count(g), 0);
    CHECK(pgn_game_root(g) == root && pgn_node_child(root) == NULL);
    CHECK_EQ_U64(pgn_node_comment(root).len, 0);
    CHECK_EQ_INT(pgn_game_result(g), PGN_RESULT_NONE);
    CHECK(pgn_game_start(g)->side == PGN_WHITE && pgn_game_start(g)->fullmove == 1);
    CHECK_EQ_INT(build(g, "1. e4 e5 2. Nf3 *"), PGN_OK);
    CHECK_EQ_U64(pgn_game_ply_count(g), 3);
    CHECK_MOVETEXT(g, 0, "1. e4 e5 2. Nf3 *\n\n");
    /* a large comment gets a chunk of its own */
    {
        char *big = malloc(3000000);
        memset(big, 'y', 3000000);
        pgn_str t = {big, 3000000};
        CHECK_EQ_INT(pgn_node_append_comment(g, pgn_node_child(root), t), PGN_OK);
        CHECK_EQ_INT(pgn_node_append_comment(g, pgn_node_child(root), S("z")), PGN_OK);
        CHECK_EQ_U64(pgn_node_comment(pgn_node_child(root)).len, 3000002);
        CHECK_EQ_INT(build(g, "1. d4 d5 *"), PGN_OK); /* an alternative to 1. e4 */
        free(big);
    }
    pgn_game_reset(g);
    CHECK_EQ_INT(build(g, "1. d4 *"), PGN_OK);
    CHECK_MOVETEXT(g, 0, "1. d4 *\n\n");
    pgn_game_free(g);
    pgn_game_free(NULL);
}

/* ---- allocation failure (STYLE C10, SQLite-style anomaly testing) ---- */

typedef struct fail_alloc {
    unsigned long count;   /* allocations so far (malloc and realloc) */
    unsigned long fail_at; /* this one fails; 0: none */
    long live;
} fail_alloc;

static void *fa_malloc(void *ctx, size_t size) {
    fail_alloc *fa = ctx;
    void *p;
    if (++fa->count == fa->fail_at) {
        return NULL;
    }
    p = malloc(size ? size : 1);
    fa->live += p != NULL;
    return p;
}

static void *fa_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    fail_alloc *fa = ctx;
    void *p;
    (void)old_size;
    if (++fa->count == fa->fail_at) {
        return NULL;
    }
    p = realloc(ptr, new_size ? new_size : 1);
    fa->live += p != NULL && ptr == NULL;
    return p;
}

static void fa_free(void *ctx, void *ptr) {
    fail_alloc *fa = ctx;
    if (ptr != NULL) {
        fa->live--;
        free(ptr);
    }
}

/* Builds a game from tag lines and movetext (as T80's file is laid out) and exports it, twice
 * (the second time after pgn_game_reset), with every allocation coming from fa. Returns the
 * first status that is not OK; *out gets what the writer wrote. */
static pgn_status fail_run(fail_alloc *fa, const char *file, int realloc_missing, char **out) {
    pgn_allocator al = {fa_malloc, fa_realloc, fa_free, NULL};
    pgn_writer_opts o;
    pgn_writer *w = NULL;
    pgn_game *g = NULL;
    sink s = {{NULL, 0, 0}, 0};
    pgn_status st;
    int round;
    al.ctx = fa;
    if (realloc_missing) {
        al.realloc = NULL;
    }
    memset(&o, 0, sizeof o);
    o.alloc = &al;
    st = pgn_game_new(&g, &al);
    if (st == PGN_OK) {
        st = pgn_writer_new(&w, &o, sink_write, &s);
    }
    for (round = 0; round < 2 && st == PGN_OK; round++) {
        pgn_game_reset(g);
        s.out.len = 0;
        st = set_tags_reversed(g, file);
        if (st == PGN_OK) {
            st = build(g, movetext_of(file));
        }
        if (st == PGN_OK) {
            st = pgn_writer_write(w, g);
        }
    }
    pgn_writer_free(w);
    pgn_game_free(g);
    *out = s.out.p;
    return st;
}

/* Makes allocation k fail for every k a clean run needs: each time the failing call returns
 * PGN_E_NOMEM and every block is freed (ASan's leak checker watches the rest). */
static void check_alloc_failure(const char *file, const char *expected, int realloc_missing) {
    unsigned long k, total;
    int bad = 0;
    fail_alloc fa = {0, 0, 0};
    char *out;
    if (realloc_missing) { /* all three functions or none: refused before any allocation */
        CHECK_EQ_INT(fail_run(&fa, file, realloc_missing, &out), PGN_E_BAD_ALLOCATOR);
        CHECK_EQ_INT(fa.count, 0);
        free(out);
        return;
    }
    CHECK_EQ_INT(fail_run(&fa, file, realloc_missing, &out), PGN_OK);
    CHECK_EQ_STR(out, expected);
    CHECK_EQ_INT(fa.live, 0);
    free(out);
    total = fa.count;
    CHECK(total >= 4);
    for (k = 1; k <= total; k++) {
        pgn_status st;
        fa.count = 0;
        fa.fail_at = k;
        fa.live = 0;
        st = fail_run(&fa, file, realloc_missing, &out);
        if (st != PGN_E_NOMEM || fa.live != 0) {
            bad++;
            harness_fail(__FILE__, __LINE__, "allocation %lu failing: %s, %ld blocks left", k,
                         pgn_status_name(st), fa.live);
        }
        free(out);
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_alloc_failure(void) {
    char *file =
        buf_read_file(harness_shared("corpus/expected/standard/fischer-spassky-1992.pgn"), NULL);
    char text[8192];
    size_t n = 0, i;
    pgn_game *g;
    char *expected;
    CHECK(file != NULL);
    if (file != NULL) {
        check_alloc_failure(file, file, 0);
        check_alloc_failure(file, file, 1); /* no realloc: PGN_E_BAD_ALLOCATOR */
    }
    free(file);
    /* the worked example with 40 more tags (the tag index) and a long comment */
    g = worked_example();
    for (i = 0; i < 40; i++) {
        char name[8];
        snprintf(name, sizeof name, "X%02zu", i);
        set_tag(g, name, "a long enough value to fill the arena a little faster");
    }
    CHECK_EQ_INT(pgn_node_append_comment(g, pgn_node_child(pgn_game_root(g)), S(file_comment)),
                 PGN_OK);
    expected = export_opts(g, 0, 0);
    for (i = 0; i < pgn_game_tag_count(g); i++) {
        pgn_str a = pgn_game_tag_name(g, i), b = pgn_game_tag_value(g, i);
        n += (size_t)snprintf(text + n, sizeof text - n, "[%.*s \"%.*s\"]\n", (int)a.len, a.ptr,
                              (int)b.len, b.ptr);
    }
    snprintf(text + n, sizeof text - n, "\n%s", worked_movetext);
    /* the long comment goes on the first move, after the game comment */
    {
        char *p = strstr(text, "1. e4 ") + 6;
        char tmp[8192];
        snprintf(tmp, sizeof tmp, "{%s} %s", file_comment, p);
        snprintf(p, sizeof text - (size_t)(p - text), "%s", tmp);
    }
    check_alloc_failure(text, expected, 0);
    free(expected);
    pgn_game_free(g);
}

/* pgn_membuf: growth, content, a failed growth leaves the buffer as it was, every block freed, a
 * half-filled allocator refused, and the writer's output in it. */
static void test_membuf(void) {
    pgn_membuf b = {0};
    char big[10000];
    memset(big, 'x', sizeof big);
    CHECK_EQ_INT((int)pgn_membuf_write(&b, "abc", 3), 3);
    CHECK_EQ_INT((int)pgn_membuf_write(&b, "", 0), 0);
    CHECK_EQ_INT((int)pgn_membuf_write(&b, big, sizeof big), (int)sizeof big);
    CHECK(b.len == 3 + sizeof big && b.cap >= b.len && memcmp(b.ptr, "abc", 3) == 0 &&
          memcmp(b.ptr + 3, big, sizeof big) == 0);
    pgn_membuf_free(&b);
    CHECK(b.ptr == NULL && b.len == 0 && b.cap == 0);
    pgn_membuf_free(&b); /* a buffer that never grew */

    limit_alloc ta = {1, 0};
    pgn_allocator a = limit_allocator(&ta);
    pgn_membuf c = {0};
    c.alloc = &a;
    CHECK_EQ_INT((int)pgn_membuf_write(&c, "abc", 3), 3); /* the one allowed allocation */
    char *kept = c.ptr;
    CHECK_EQ_INT((int)pgn_membuf_write(&c, big, sizeof big), -1);
    CHECK(c.ptr == kept && c.len == 3 && memcmp(c.ptr, "abc", 3) == 0);
    pgn_membuf_free(&c);
    CHECK_EQ_INT((int)ta.live, 0);

    pgn_allocator half = a;
    half.realloc = NULL;
    pgn_membuf d = {0};
    d.alloc = &half;
    CHECK_EQ_INT((int)pgn_membuf_write(&d, "abc", 3), -1);
    CHECK(d.ptr == NULL && d.len == 0);

    pgn_game *g = worked_example();
    char *expected = export_opts(g, 0, 0);
    pgn_writer *w;
    pgn_membuf e = {0};
    CHECK_EQ_INT(pgn_writer_new(&w, NULL, pgn_membuf_write, &e), PGN_OK);
    CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
    CHECK(e.len == strlen(expected) && memcmp(e.ptr, expected, e.len) == 0);
    pgn_writer_free(w);
    pgn_membuf_free(&e);
    free(expected);
    pgn_game_free(g);
}

int main(void) {
    test_membuf();
    test_t80_sample();
    test_worked_example();
    test_tags_export();
    test_result_marker();
    test_setup_fen();
    test_setup_standard_start();
    test_movetext_cases();
    test_variations();
    test_layout();
    test_layout_property();
    test_two_games_and_io();
    test_deep_and_long();
    test_tags_api();
    test_tree_api();
    test_comments_nags();
    test_result_start_reset();
    test_alloc_failure();
    return harness_finish();
}
