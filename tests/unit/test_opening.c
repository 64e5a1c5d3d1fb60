/* SPDX-License-Identifier: MIT */
/* ECO classification (include/pgnkit/opening.h) against its source, the lichess table in
 * ../shared/data/eco: every line of a.tsv ... e.tsv, read here and played as a game, classifies to
 * its own code and name; a move order that transposes into a table line classifies to that line;
 * the tags set, --only-missing and the Variation tag. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

/* Reads the one game of text into g; PGN_OK or the reader's status. */
static pgn_status read_game(const char *text, pgn_game *g) {
    pgn_reader *r;
    pgn_status st = pgn_reader_new_mem(&r, NULL, text, strlen(text));
    if (st == PGN_OK) {
        st = pgn_reader_next(r, g);
        pgn_reader_free(r);
    }
    return st;
}

/* Classifies the moves of a TSV line as a game; checks the code, the name and the ply. */
static int check_line(pgn_game *g, const char *eco, const char *name, const char *moves) {
    buf text = {0};
    buf_printf(&text, "%s *\n", moves);
    int ok = read_game(text.p, g) == PGN_OK;
    uint32_t ply = 0;
    const pgn_opening *o = ok ? pgn_opening_classify(g, &ply) : NULL;
    ok = ok && o && strcmp(o->eco, eco) == 0 && strcmp(o->name, name) == 0 &&
         ply == pgn_game_ply_count(g) && o->plies == ply;
    if (!ok) {
        harness_fail(__FILE__, __LINE__, "%s %s (%s) classified as %s %s", eco, name, moves,
                     o ? o->eco : "-", o ? o->name : "-");
    }
    buf_free(&text);
    return ok;
}

static void test_every_line(void) {
    static const char *files[] = {"data/eco/a.tsv", "data/eco/b.tsv", "data/eco/c.tsv",
                                  "data/eco/d.tsv", "data/eco/e.tsv"};
    pgn_game *g;
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    size_t lines = 0, good = 0;
    for (size_t f = 0; f < 5; f++) {
        buf b = {0};
        if (!buf_load_shared(files[f], &b)) {
            continue;
        }
        char *save = NULL;
        strtok_r(b.p, "\n", &save); /* the header */
        for (char *line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            char *fields[3];
            if (split_tabs(line, fields, 3) != 3) {
                harness_fail(__FILE__, __LINE__, "bad TSV line in %s", files[f]);
                continue;
            }
            lines++;
            good += (size_t)check_line(g, fields[0], fields[1], fields[2]);
        }
        buf_free(&b);
    }
    printf("eco: %zu of %zu table lines classify to themselves\n", good, lines);
    CHECK_EQ_U64(lines, pgn_opening_count());
    CHECK_EQ_U64(good, lines);
    pgn_game_free(g);
}

/* The TSV row whose movetext is exactly moves: "eco\tname" into out. */
static int table_row(const char *moves, char *out, size_t cap) {
    static const char *files[] = {"data/eco/a.tsv", "data/eco/b.tsv", "data/eco/c.tsv",
                                  "data/eco/d.tsv", "data/eco/e.tsv"};
    int found = 0;
    for (size_t f = 0; f < 5 && !found; f++) {
        buf b = {0};
        if (!buf_load_shared(files[f], &b)) {
            continue;
        }
        char *save = NULL;
        for (char *line = strtok_r(b.p, "\n", &save); line && !found;
             line = strtok_r(NULL, "\n", &save)) {
            char *fields[3];
            if (split_tabs(line, fields, 3) == 3 && strcmp(fields[2], moves) == 0) {
                snprintf(out, cap, "%s\t%s", fields[0], fields[1]);
                found = 1;
            }
        }
        buf_free(&b);
    }
    return found;
}

/* Moves that transpose into a table line (given in its own order) classify to that line. */
static void test_transpositions(void) {
    static const char *const cases[][2] = {
        {"1. c4 e6 2. Nc3 d5 3. d4", "1. d4 d5 2. c4 e6 3. Nc3"},
        {"1. Nf3 d5 2. d4 Nf6 3. c4 e6 4. Nc3 a6 5. h3 h6", "1. d4 Nf6 2. c4 e6 3. Nf3 d5 4. Nc3"},
        {"1. e4 c5 2. d4 cxd4 3. Nf3 d6 4. Nxd4 Nf6 5. Nc3 a6",
         "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6"},
    };
    pgn_game *g;
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char want[256], got[256];
        CHECK(table_row(cases[i][1], want, sizeof want));
        buf text = {0};
        buf_printf(&text, "%s *\n", cases[i][0]);
        CHECK(read_game(text.p, g) == PGN_OK);
        const pgn_opening *o = pgn_opening_classify(g, NULL);
        snprintf(got, sizeof got, "%s\t%s", o ? o->eco : "-", o ? o->name : "-");
        CHECK_EQ_STR(got, want);
        buf_free(&text);
    }
    pgn_game_free(g);
}

static void check_tag(pgn_game *g, const char *name, const char *want) {
    pgn_str v;
    char got[256] = "(none)";
    if (pgn_game_tag_get(g, name, &v)) {
        snprintf(got, sizeof got, "%.*s", (int)v.len, v.ptr);
    }
    CHECK_EQ_STR(got, want);
}

static void test_tags(void) {
    pgn_game *g;
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    const pgn_opening *o = NULL;
    CHECK(read_game("[ECO \"A00\"]\n[Variation \"old\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n", g) ==
          PGN_OK);
    CHECK(pgn_opening_tag(g, PGN_OPENING_ONLY_MISSING, &o) == PGN_OK);
    CHECK(o == NULL);
    check_tag(g, "ECO", "A00");
    CHECK(pgn_opening_tag(g, 0, &o) == PGN_OK);
    CHECK(o != NULL);
    check_tag(g, "ECO", "C60"); /* c.tsv: C60 Ruy Lopez 1. e4 e5 2. Nf3 Nc6 3. Bb5 */
    check_tag(g, "Opening", "Ruy Lopez");
    check_tag(g, "Variation", "(none)");
    CHECK_EQ_STR(pgn_opening_variation(o), "");
    CHECK(read_game("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 *\n", g) == PGN_OK);
    CHECK(pgn_opening_tag(g, PGN_OPENING_ONLY_MISSING, &o) == PGN_OK);
    check_tag(g, "ECO", "B90");
    check_tag(g, "Opening", "Sicilian Defense");
    check_tag(g, "Variation", "Najdorf Variation, English Attack");
    /* no move: no table position; a null move ends the walk */
    CHECK(read_game("[Event \"x\"]\n\n*\n", g) == PGN_OK);
    CHECK(pgn_opening_classify(g, NULL) == NULL);
    CHECK(read_game("1. e4 -- 2. d4 d5 *\n", g) == PGN_OK);
    o = pgn_opening_classify(g, NULL);
    CHECK(o && strcmp(o->name, "King's Pawn Game") == 0);
    pgn_game_free(g);
}

static void test_find(void) {
    pgn_pos pos;
    const char *fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    CHECK(pgn_fen_parse(&pos, fen, strlen(fen), 0, NULL) == PGN_OK);
    pos.key = 0; /* pgn_opening_find does not rely on it */
    const pgn_opening *o = pgn_opening_find(&pos);
    CHECK(o && strcmp(o->eco, "B00") == 0 && strcmp(o->name, "King's Pawn Game") == 0);
    /* the same placement with Black's castling rights gone is another position */
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQ - 0 1";
    CHECK(pgn_fen_parse(&pos, fen, strlen(fen), 0, NULL) == PGN_OK);
    CHECK(pgn_opening_find(&pos) == NULL);
    CHECK(pgn_opening_count() > 3000);
    CHECK_EQ_STR(pgn_opening_at(0)->eco, "A00");
}

int main(void) {
    test_every_line();
    test_transpositions();
    test_tags();
    test_find();
    return harness_finish();
}
