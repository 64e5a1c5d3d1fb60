/* SPDX-License-Identifier: MIT */
/* The viewer's JSON (render.h): a game's entry (its JSON, its graph only with [%eval], the
 * statistics as given, every <, > and & escaped) and a paste read as pgnkit serve reads one
 * (issue 28): broken games counted and left out, each diagnostic listed with the line and column
 * of its token in the text as written here, the caps on games and plies, the refusals. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <pgnkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *text_of(const pgn_membuf *b) {
    return strndup(b->ptr ? b->ptr : "", b->len);
}

static pgn_game *read_one(const char *pgn) {
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, pgn, strlen(pgn)), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    pgn_reader_free(r);
    return g;
}

static void test_entry(void) {
    pgn_game *g = read_one("[Event \"a<b>&c\"]\n\n1. e4 e5 *\n");
    pgn_membuf b = {0};
    CHECK_EQ_INT(pgn_viewer_entry_json(g, 0, NULL, 0, pgn_membuf_write, &b), PGN_OK);
    char *s = text_of(&b);
    CHECK(strncmp(s, "{\"game\":{", 9) == 0);
    CHECK(strstr(s, "a\\u003cb\\u003e\\u0026c") != NULL); /* escaped for the page */
    CHECK(strchr(s, '<') == NULL && strchr(s, '&') == NULL);
    CHECK(strstr(s, "\"graph\"") == NULL); /* no [%eval]: no graph */
    CHECK(strstr(s, "\"stats\"") == NULL);
    CHECK(strstr(s, "\"san\":\"e5\"") != NULL);
    CHECK(b.len > 2 && s[b.len - 2] == '}' && s[b.len - 1] == '}' && !strchr(s, '\n'));
    free(s);
    pgn_game_free(g);

    g = read_one("1. e4 { [%eval 0.30] } e5 { [%eval 0.25] } *\n");
    pgn_game_stats st;
    memset(&st, 0, sizeof st);
    st.moves[0] = 1;
    st.acpl[0] = 12.34;
    st.accuracy[0] = 97.06;
    st.acpl[1] = -1; /* no move: null */
    st.accuracy[1] = -1;
    st.mistakes[1] = 2;
    b.len = 0;
    CHECK_EQ_INT(pgn_viewer_entry_json(g, 0, &st, 1, pgn_membuf_write, &b), PGN_OK);
    s = text_of(&b);
    const char *graph = strstr(s, ",\"graph\":\"\\u003csvg ");
    CHECK(graph != NULL); /* the <svg> element, its XML declaration dropped */
    CHECK(strstr(s, "<?xml") == NULL && strstr(s, "\\u003c?xml") == NULL);
    const char *tail = ",\"analysed\":true,\"stats\":{\"white\":{\"moves\":1,\"acpl\":12.3,"
                       "\"accuracy\":97.1,\"inaccuracies\":0,\"mistakes\":0,\"blunders\":0},"
                       "\"black\":{\"moves\":0,\"acpl\":null,\"accuracy\":null,\"inaccuracies\":0,"
                       "\"mistakes\":2,\"blunders\":0}}}";
    CHECK(b.len > strlen(tail) && strcmp(s + b.len - strlen(tail), tail) == 0);
    free(s);
    pgn_membuf_free(&b);
    pgn_game_free(g);
}

/* Game 1 whole (3 plies), game 2 broken (2. Ke3 is illegal: line 5, column 13), game 3 whole (1
 * ply). */
static const char paste[] = "[White \"A\"]\n\n1. e4 e5 2. Nf3 *\n\n"
                            "1. e4 e5 2. Ke3 *\n\n"
                            "1. d4 *\n";

static void test_paste(void) {
    pgn_paste p;
    pgn_paste_opts o = {PGN_PASTE_ENTRIES, 0, 0, 0, 0, "paste", NULL};
    CHECK_EQ_INT(pgn_paste_read(&p, paste, sizeof paste - 1, &o), PGN_OK);
    CHECK_EQ_INT((int)p.games, 2);
    CHECK_EQ_INT((int)p.broken, 1);
    CHECK_EQ_U64(p.positions, 4 + 2);
    CHECK_EQ_INT((int)p.errors, 1);
    CHECK_EQ_INT((int)p.ndiags, 1);
    CHECK_EQ_STR(p.error, "");
    char *d = text_of(&p.diags);
    CHECK(strncmp(d, "{\"file\":\"paste\",\"line\":5,\"column\":13,", 37) == 0);
    CHECK(strstr(d, "\"code\":\"E_ILLEGAL_MOVE\"") != NULL);
    free(d);
    char *e = text_of(&p.entries);
    CHECK(strncmp(e, "{\"game\":{", 9) == 0 && strstr(e, "},{\"game\":{") != NULL);
    CHECK(strstr(e, "\"san\":\"Nf3\"") != NULL && strstr(e, "\"san\":\"Ke3\"") == NULL);
    free(e);
    pgn_membuf m = {0};
    CHECK_EQ_INT(pgn_paste_json(&p, pgn_membuf_write, &m), PGN_OK);
    char *j = text_of(&m);
    const char *head = "\"games\":2,\"broken\":1,\"positions\":6,\"errors\":1,\"warnings\":0,"
                       "\"diagnostics\":[{\"file\":\"paste\"";
    CHECK(strncmp(j, head, strlen(head)) == 0);
    CHECK(m.len > 2 && j[m.len - 2] == '}' && j[m.len - 1] == ']');
    free(j);
    pgn_paste_free(&p);

    /* the caps: games that read whole, then plies */
    o.max_games = 1;
    CHECK_EQ_INT(pgn_paste_read(&p, paste, sizeof paste - 1, &o), PGN_E_LIMIT);
    CHECK_EQ_STR(p.error, "more than 1 games");
    CHECK_EQ_INT(p.over, PGN_PASTE_OVER_GAMES);
    m.len = 0;
    CHECK_EQ_INT(pgn_paste_json(&p, pgn_membuf_write, &m), PGN_OK);
    head = "\"error\":\"more than 1 games\",\"games\":2,";
    CHECK(m.len > strlen(head) && strncmp(m.ptr, head, strlen(head)) == 0);
    pgn_paste_free(&p);
    o.max_games = 0;
    o.max_plies = 2;
    CHECK_EQ_INT(pgn_paste_read(&p, paste, sizeof paste - 1, &o), PGN_E_LIMIT);
    CHECK_EQ_STR(p.error, "game 1 has 3 plies, more than 2");
    CHECK_EQ_INT(p.over, PGN_PASTE_OVER_PLIES);
    pgn_paste_free(&p);

    /* refusals: nothing whole, nothing at all; diagnostics listed up to max_diags */
    const char *broken = "1. e4 e5 2. Ke3 *\n\n1. Ke2 *\n";
    o.max_plies = 0;
    o.max_diags = 1;
    CHECK_EQ_INT(pgn_paste_read(&p, broken, strlen(broken), &o), PGN_E_LIMIT);
    CHECK_EQ_STR(p.error, "no game reads whole: see the errors");
    CHECK_EQ_INT((int)p.errors, 2);
    CHECK_EQ_INT((int)p.ndiags, 1);
    pgn_paste_free(&p);
    CHECK_EQ_INT(pgn_paste_read(&p, "", 0, NULL), PGN_E_LIMIT);
    CHECK_EQ_STR(p.error, "no game in the text");
    CHECK_EQ_INT((int)p.entries.len, 0); /* no PGN_PASTE_ENTRIES */
    pgn_paste_free(&p);
    pgn_paste_free(NULL);
    pgn_membuf_free(&m);
}

int main(void) {
    test_entry();
    test_paste();
    return harness_finish();
}
