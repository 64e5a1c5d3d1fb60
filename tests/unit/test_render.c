/* SPDX-License-Identifier: MIT */
/* The render layer (include/pgnkit/render.h): what the board and graph documents contain, the
 * flip, the marks of a comment, write failures and plies beyond the game. The SVG 1.1 checks and
 * the renders of corpus games are in tests/cli/test_render.sh. */
#include "harness.h"
#include "testutil.h"

#include <pgnkit.h>

#include <stdlib.h>
#include <string.h>

static size_t count(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) {
        n++;
    }
    return n;
}

/* A writer that fails after `left` calls. */
static ptrdiff_t failing_write(void *ctx, const void *data, size_t len) {
    (void)data;
    int *left = ctx;
    return (*left)-- > 0 ? (ptrdiff_t)len : -1;
}

static pgn_game *read_game(const char *pgn) {
    pgn_reader *r;
    pgn_game *g;
    if (pgn_reader_new_mem(&r, NULL, pgn, strlen(pgn)) != PGN_OK) {
        return NULL;
    }
    if (pgn_game_new(&g, NULL) != PGN_OK) {
        pgn_reader_free(r);
        return NULL;
    }
    if (pgn_reader_next(r, g) != PGN_OK) {
        pgn_game_free(g);
        g = NULL;
    }
    pgn_reader_free(r);
    return g;
}

static void test_start_board(void) {
    pgn_pos pos;
    pgn_pos_init(&pos);
    buf b = {0};
    CHECK_EQ_INT(pgn_board_svg(&pos, NULL, buf_write, &b), PGN_OK);
    CHECK_EQ_INT(count(b.p, "<use "), 32);
    CHECK_EQ_INT(count(b.p, "<g id=\"pk-"), 12);
    CHECK(strstr(b.p, "width=\"400\" height=\"400\" viewBox=\"0 0 800 800\"") != NULL);
    /* White's a1 rook at the bottom left, Black's h8 rook at the top right */
    CHECK(strstr(b.p, "href=\"#pk-wR\" transform=\"translate(0,700)") != NULL);
    CHECK(strstr(b.p, "href=\"#pk-bR\" transform=\"translate(700,0)") != NULL);
    CHECK(strstr(b.p, "check") == NULL);
    CHECK(strstr(b.p, "<polygon") == NULL);
    buf_free(&b);
    pgn_board_opts o = {0};
    o.flags = PGN_BOARD_FLIP | PGN_BOARD_COORDS;
    o.size = 256;
    CHECK_EQ_INT(pgn_board_svg(&pos, &o, buf_write, &b), PGN_OK);
    CHECK(strstr(b.p, "href=\"#pk-wR\" transform=\"translate(700,0)") != NULL); /* a1 top right */
    CHECK(strstr(b.p, "href=\"#pk-bR\" transform=\"translate(0,700)") != NULL);
    CHECK_EQ_INT(count(b.p, "<text "), 16);
    CHECK(strstr(b.p, "width=\"256\"") != NULL);
    buf_free(&b);
}

static void test_marks_and_check(void) {
    pgn_game *g = read_game("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {[%csl Rf7][%cal Gc4f7,Yh5f7]"
                            " [%cal Bb1c3]} 1-0\n");
    CHECK(g != NULL);
    if (!g) {
        return;
    }
    buf b = {0};
    pgn_mark extra = {'R', 12, 28}; /* e2e4 */
    pgn_board_opts o = {0};
    o.marks = &extra;
    o.mark_count = 1;
    CHECK_EQ_INT(pgn_game_board_svg(g, 7, &o, buf_write, &b), PGN_OK);
    CHECK_EQ_INT(count(b.p, "<polygon"), 4); /* e2e4, c4f7, h5f7, b1c3 */
    CHECK_EQ_INT(count(b.p, "<circle"), 1);
    CHECK_EQ_INT(count(b.p, "fill=\"url(#check)\""), 1);
    CHECK_EQ_INT(count(b.p, "fill=\"#9bc700\""), 2);
    CHECK(strstr(b.p, "fill=\"#882020\" opacity") != NULL); /* the red arrow of opts */
    CHECK_EQ_INT(count(b.p, "<use "), 31);
    buf_free(&b);
    /* ply 0: no last move, no marks of move 7 */
    CHECK_EQ_INT(pgn_game_board_svg(g, 0, NULL, buf_write, &b), PGN_OK);
    CHECK_EQ_INT(count(b.p, "<polygon"), 0);
    CHECK_EQ_INT(count(b.p, "#9bc700"), 0);
    buf_free(&b);
    CHECK_EQ_INT(pgn_game_board_svg(g, 8, NULL, buf_write, &b), PGN_E_LIMIT);
    buf_free(&b);
    /* a failing writer: PGN_E_IO, at any point */
    for (int k = 0; k < 8; k++) {
        int left = k;
        CHECK_EQ_INT(pgn_game_board_svg(g, 7, NULL, failing_write, &left), PGN_E_IO);
    }
    int none = 0; /* the graph fits in one buffer: one write */
    CHECK_EQ_INT(pgn_graph_svg(g, NULL, failing_write, &none), PGN_E_IO);
    pgn_game_free(g);
}

static void test_castling_highlight(void) {
    pgn_game *g = read_game("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *\n");
    CHECK(g != NULL);
    if (!g) {
        return;
    }
    buf b = {0};
    CHECK_EQ_INT(pgn_game_board_svg(g, 7, NULL, buf_write, &b), PGN_OK);
    /* e1 and g1 (the king's squares), not h1 */
    CHECK(strstr(b.p, "<rect x=\"400\" y=\"700\" width=\"100\" height=\"100\" fill=\"#9bc700\"") !=
          NULL);
    CHECK(strstr(b.p, "<rect x=\"600\" y=\"700\" width=\"100\" height=\"100\" fill=\"#9bc700\"") !=
          NULL);
    buf_free(&b);
    pgn_game_free(g);
}

static void test_pieces_and_graph(void) {
    buf b = {0};
    CHECK_EQ_INT(pgn_pieces_svg(buf_write, &b), PGN_OK);
    CHECK_EQ_INT(count(b.p, "<g id=\"pk-"), 12);
    CHECK_EQ_INT(count(b.p, "<use"), 0);
    buf_free(&b);
    pgn_game *g = read_game("1. e4 {[%eval 0.2]} e5 {[%eval 3.0]} 2. Qh5 {[%eval -4.0]} *\n");
    CHECK(g != NULL);
    if (!g) {
        return;
    }
    pgn_graph_opts o = {300, 100};
    CHECK_EQ_INT(pgn_graph_svg(g, &o, buf_write, &b), PGN_OK);
    CHECK_EQ_INT(count(b.p, "<rect id=\"ply-"), 3);
    CHECK_EQ_INT(count(b.p, "fill=\"#db3031\""), 2); /* two blunders */
    /* ply 2 at +3.00: wc = 2 / (1 + e^(-1.104624)) - 1 = 0.50224, y = 42 - 0.50224 * 40 */
    CHECK(strstr(b.p, " 150.0,21.9 ") != NULL);
    buf_free(&b);
    pgn_game_free(g);
    g = read_game("[Event \"no moves\"]\n\n*\n");
    CHECK(g != NULL);
    if (g) {
        CHECK_EQ_INT(pgn_graph_svg(g, NULL, buf_write, &b), PGN_OK);
        CHECK(strstr(b.p, "</svg>") != NULL);
        CHECK(strstr(b.p, "<polyline") == NULL);
        buf_free(&b);
        pgn_game_free(g);
    }
}

int main(void) {
    test_start_board();
    test_marks_and_check();
    test_castling_highlight();
    test_pieces_and_graph();
    return harness_finish();
}
