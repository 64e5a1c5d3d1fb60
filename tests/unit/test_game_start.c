/* SPDX-License-Identifier: MIT */
/* Where a game starts (src/parse/game_start.h, issue 33 point 4): the one tag-line test that the
 * lexer (comment recovery, range boundaries) and the splitter of -j N share. Lines of the tag pair
 * form of the PGN standard (§8.1: [, a symbol, a string, ]) with the blanks before and inside it
 * that import format allows are tag lines; movetext, a '%' escape, an empty name, a name without
 * a blank before its string are not. The scan gives the same answer fed the whole line and fed
 * one byte at a time, and -1 only while the bytes end before it can tell. Then the reader: an
 * unterminated comment ends at such a line and not at another, so the next game is read. */
#include "harness.h"
#include "pgnkit.h"

#include "../../src/parse/game_start.h"

#include <string.h>

static int whole(const char *line) {
    pgnk_tag_scan s = {0, 0};
    int r = pgnk_tag_line_scan(&s, (const unsigned char *)line, strlen(line));
    return r < 0 ? 0 : r; /* the line ends: no quote came */
}

static int by_byte(const char *line) {
    pgnk_tag_scan s = {0, 0};
    size_t n = strlen(line);
    for (size_t k = 0; k <= n; k++) {
        int r = pgnk_tag_line_scan(&s, (const unsigned char *)line, k);
        if (r >= 0) {
            return r;
        }
    }
    return 0;
}

static void test_lines(void) {
    static const struct {
        const char *line;
        int tag;
    } cases[] = {
        {"[Event \"F/S Return Match\"]", 1},
        {"  \t[White \"Fischer, Robert J.\"]", 1},
        {"[FEN \t \"8/8/8/8/8/8/8/8 w - - 0 1\"]", 1},
        {"[White_Elo \"2700\"]", 1},
        {"[Event\"x\"]", 0},   /* no blank before the string */
        {"[ Event \"x\"]", 0}, /* a blank before the name */
        {"[\"x\"]", 0},
        {"[%clk 0:01:00]", 0},
        {"1. e4 e5 [Event \"x\"]", 0}, /* not at the line's start */
        {"[Event x]", 0},
        {"[Event ", 0},
        {"", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_EQ_INT(whole(cases[i].line), cases[i].tag);
        CHECK_EQ_INT(by_byte(cases[i].line), cases[i].tag);
    }
}

/* An unterminated comment: the tag line after it starts the second game; a line that is not one
 * (no blank before the string) stays in the comment. */
static void test_reader(void) {
    static const char ends[] = "[Event \"a\"]\n\n1. e4 {open\n[Event \"b\"]\n\n1. d4 *\n";
    static const char stays[] = "[Event \"a\"]\n\n1. e4 {open\n[Event\"b\"]\n\n1. d4 } *\n";
    const char *texts[] = {ends, stays};
    for (int k = 0; k < 2; k++) {
        pgn_reader *r;
        pgn_game *g;
        CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, texts[k], strlen(texts[k])), PGN_OK);
        CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
        int games = 0;
        while (pgn_reader_next(r, g) == PGN_OK) {
            games++;
        }
        CHECK_EQ_INT(games, k == 0 ? 2 : 1);
        pgn_game_free(g);
        pgn_reader_free(r);
    }
}

int main(void) {
    test_lines();
    test_reader();
    return harness_finish();
}
