/* SPDX-License-Identifier: MIT */
/* Descriptive notation as printed in public-domain books (issue 15), read move by move with
 * pgn_desc_parse and checked against algebraic texts that owe nothing to pgnkit:
 *
 * - Capablanca, "Chess Fundamentals" (New York: Harcourt, Brace, 1921), Project Gutenberg eBook
 *   #33870 (https://www.gutenberg.org/ebooks/33870), Part II, Game 7 (Capablanca v Burn, San
 *   Sebastian 1911, moves 1-21) and Game 5 (Em. Lasker v Capablanca, St Petersburg 1914, moves
 *   1-7). Its spaced form: "P - K 4", "Q Kt - Q 2", "B × Kt", "Q × P ch", "O - O". The moves are
 *   copied from the e-text as served at grapenovel.com/lightnovelsonl.com, whose copies drop the
 *   × sign ("P P" for "P × P"); the × is put back as the e-text prints it elsewhere (bitlit.ru's
 *   copy of Example 53: "B × Kt ch P × B"). Truth: the same games in
 *   corpus/big/pgnmentor-players/Capablanca.pgn.gz (pgnmentor.com).
 * - Edward Lasker, "Chess Strategy", translated by J. Du Mont (1915), Project
 *   Gutenberg eBook #5614 (https://www.gutenberg.org/ebooks/5614), Game No. 18 (Em. Lasker v
 *   Capablanca again, moves 1-10) and its note at Black's 5th move, copied from the e-text as
 *   served at bookrags.com and bitlit.ru. Its compact form: "Kt-KB3", "QxQch", "Castles",
 *   "B-KKt5". Both copies print the 4th move "BxKtQ PxB", most likely "BxKt QPxB" with a space
 *   misplaced (Chess Fundamentals prints "Q P × B"), which lasker_cs below uses; read as printed
 *   it is refused, "BxKtQ" being no legal move and "PxB" naming two (bxc6, dxc6), the ambiguity
 *   books left to the eye. Truth: the
 *   same game in Capablanca.pgn.gz; the note, which is analysis, is read to one legal move at
 *   every step (its Castles ch is the queen's side, the only castling legal there).
 * - Howard Staunton and others, "The Blue Book of Chess: Teaching the Rudiments of the Game, and
 *   Giving an Analysis of All the Recognized Openings", Project Gutenberg eBook #16377
 *   (https://www.gutenberg.org/ebooks/16377), the long form:
 *   "P. to K's 4th.", "K. Kt. to B's 3d.", "Kt. takes K. B's P.", "P. takes P. (dis. ch.)",
 *   "K. to Kt's 3d.", "Q. to K. R's 5th. (ch.)", "Castles." Chapter II, the Damiano Gambit, and
 *   the Giuoco Piano with its Variation I, copied from bookrags.com's copy of the e-text. Truth:
 *   the lichess opening table (data/eco/c.tsv, CC0): "Damiano Defense, Damiano Gambit" (moves
 *   1-5), "Greco Gambit, Anderssen Variation" (1-7) and "Ghulam-Kassim Variation" (1-9). */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <stdlib.h>

#define MAX_PLIES 128

typedef struct line {
    pgn_move moves[MAX_PLIES];
    int n;
} line;

/* ---- the algebraic truth ---- */

typedef struct finder {
    const char *white, *black, *event; /* substrings of the tags wanted */
    int white_ok, black_ok, event_ok, depth, found;
    line cur, *out;
} finder;

static int has(pgn_str v, const char *want) {
    size_t m = strlen(want);
    for (size_t i = 0; i + m <= v.len; i++) {
        if (memcmp(v.ptr + i, want, m) == 0) {
            return 1;
        }
    }
    return 0;
}

static pgn_flow f_begin(void *u, pgn_loc at) {
    finder *f = u;
    (void)at;
    f->white_ok = f->black_ok = f->event_ok = 0;
    f->depth = 0;
    f->cur.n = 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow f_tag(void *u, pgn_str name, pgn_str value) {
    finder *f = u;
    if (name.len == 5 && memcmp(name.ptr, "White", 5) == 0) {
        f->white_ok = has(value, f->white);
    } else if (name.len == 5 && memcmp(name.ptr, "Black", 5) == 0) {
        f->black_ok = has(value, f->black);
    } else if (name.len == 5 && memcmp(name.ptr, "Event", 5) == 0) {
        f->event_ok = has(value, f->event);
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow f_tags_end(void *u, const pgn_pos *start) {
    finder *f = u;
    (void)start;
    return f->white_ok && f->black_ok && f->event_ok && !f->found ? PGN_FLOW_CONTINUE
                                                                  : PGN_FLOW_SKIP;
}

static pgn_flow f_move(void *u, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    finder *f = u;
    (void)before;
    (void)san;
    (void)at;
    if (f->depth == 0 && f->cur.n < MAX_PLIES) {
        f->cur.moves[f->cur.n++] = mv;
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow f_var(void *u) {
    ((finder *)u)->depth++;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow f_var_end(void *u) {
    ((finder *)u)->depth--;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow f_end(void *u, pgn_result result, const pgn_game_summary *summary) {
    finder *f = u;
    (void)result;
    (void)summary;
    if (f->white_ok && f->black_ok && f->event_ok && !f->found && f->cur.n > 0) {
        *f->out = f->cur;
        f->found = 1;
    }
    return PGN_FLOW_CONTINUE;
}

/* The main line of the first game of corpus file rel whose tags contain white, black, event. */
static int corpus_game(const char *rel, const char *white, const char *black, const char *event,
                       line *out) {
    static const pgn_visitor v = {f_begin, f_tag, f_tags_end, f_move, NULL,
                                  NULL,    f_var, f_var_end,  f_end};
    finder f = {white, black, event, 0, 0, 0, 0, 0, {{0}, 0}, out};
    buf text = {0};
    if (!buf_load_shared(rel, &text)) {
        harness_fail(__FILE__, __LINE__, "%s: not loaded (PGNKIT_SHARED)", rel);
        return 0;
    }
    pgn_reader *r;
    if (pgn_reader_new_mem(&r, NULL, text.p, text.len) == PGN_OK) {
        while (!f.found && pgn_reader_visit(r, &v, &f) == PGN_OK) {
        }
        pgn_reader_free(r);
    }
    free(text.p);
    if (!f.found) {
        harness_fail(__FILE__, __LINE__, "%s: no game %s v %s (%s)", rel, white, black, event);
    }
    return f.found;
}

/* The moves of the row of data/eco/c.tsv named name (its third field, SAN with numbers). */
static int eco_line(const char *name, line *out) {
    buf text = {0};
    out->n = 0;
    if (!buf_load_shared("data/eco/c.tsv", &text)) {
        harness_fail(__FILE__, __LINE__, "data/eco/c.tsv: not loaded (PGNKIT_SHARED)");
        return 0;
    }
    char *row = strstr(text.p, name);
    char *tab = row ? strchr(row, '\t') : NULL;
    char *end = tab ? strchr(tab, '\n') : NULL;
    if (end) {
        *end = '\0';
    }
    pgn_pos p;
    pgn_pos_init(&p);
    for (char *tok = tab ? strtok(tab + 1, " ") : NULL; tok && out->n < MAX_PLIES;
         tok = strtok(NULL, " ")) {
        pgn_san_result res;
        if (tok[strlen(tok) - 1] == '.') {
            continue; /* a move number */
        }
        if (pgn_san_parse(&p, tok, strlen(tok), 0, &res) != PGN_OK) {
            harness_fail(__FILE__, __LINE__, "%s: %s does not read", name, tok);
            break;
        }
        out->moves[out->n++] = res.move;
        pgn_pos_play(&p, res.move);
    }
    free(text.p);
    CHECK(out->n > 0);
    return out->n > 0;
}

/* ---- the printed text read ---- */

static int fits_move(const pgn_movelist *l, pgn_move mv) {
    for (uint32_t i = 0; i < l->count; i++) {
        if (l->moves[i] == mv) {
            return 1;
        }
    }
    return 0;
}

/* Reads the printed moves (plies) from the start position and checks each against the truth's
 * same ply: every one must read as that move alone, except ply amb (0-based; -1: none), where the
 * book's short form names two legal moves, the truth's among them: E_AMBIGUOUS_MOVE. */
static void check_printed(const char *what, const char *const *printed, int n, const line *truth,
                          int amb) {
    pgn_pos p;
    pgn_pos_init(&p);
    CHECK(truth->n >= n);
    for (int i = 0; i < n && i < truth->n; i++) {
        pgn_move got = PGN_MOVE_NONE;
        pgn_movelist fit;
        pgn_status st =
            pgn_desc_parse(&p, PGN_LANG_DESCRIPTIVE, printed[i], strlen(printed[i]), &fit, &got);
        if (i == amb) {
            CHECK_EQ_INT(st, PGN_E_AMBIGUOUS_MOVE);
            CHECK_EQ_INT(fit.count, 2);
            CHECK(fits_move(&fit, truth->moves[i]));
            got = truth->moves[i];
        } else if (st != PGN_OK || got != truth->moves[i]) {
            harness_fail(__FILE__, __LINE__, "%s, ply %d: \"%s\" read as %s (status %d)", what,
                         i + 1, printed[i], got == truth->moves[i] ? "the move" : "another move",
                         (int)st);
            return;
        }
        pgn_pos_play(&p, got);
    }
}

/* Chess Fundamentals, Game 7: Capablanca v Burn, San Sebastian 1911, moves 1-21 as printed. */
static const char *const burn[] = {
    "P - K 4",   "P - K 4",    "Kt - K B 3", "Kt - Q B 3", "B - Kt 5",  "P - Q R 3",  "B - R 4",
    "Kt - B 3",  "P - Q 3",    "P - Q 3",    "P - B 3",    "B - K 2",   "Q Kt - Q 2", "O - O",
    "Kt - B 1",  "P - Q Kt 4", "B - B 2",    "P - Q 4",    "Q - K 2",   "P × P",      "P × P",
    "B - Q B 4", "B - Kt 5",   "B - K 3",    "Kt - K 3",   "R - K 1",   "O - O",      "Q - K 2",
    "Kt - Q 5",  "B × Kt",     "P × B",      "Kt - Kt 1",  "P - Q R 4", "P - Kt 5",   "P × P",
    "B × P",     "B × Kt",     "Q × B",      "Q - K 4",    "B - Q 3",   "Q × P ch",   "K - B 1"};

/* Chess Fundamentals, Game 5: Em. Lasker v Capablanca, St Petersburg 1914, moves 1-7. */
static const char *const lasker_cf[] = {
    "P - K 4", "P - K 4", "Kt - K B 3", "Kt - Q B 3", "B - Kt 5", "P - Q R 3", "B × Kt",
    "Q P × B", "P - Q 4", "P × P",      "Q × P",      "Q × Q",    "Kt × Q",    "B - Q 3"};

/* Chess Strategy, Game No. 18: the same game, moves 1-10, White's 4th as the book means it. */
static const char *const lasker_cs[] = {
    "P-K4", "P-K4", "Kt-KB3", "Kt-QB3", "B-Kt5",  "P-QR3", "BxKt",    "QPxB",     "P-Q4", "PxP",
    "QxP",  "QxQ",  "KtxQ",   "B-Q3",   "Kt-QB3", "Kt-K2", "Castles", "Castles.", "P-B4", "R-K1"};

/* The two games as pgnmentor.com has them (loaded by test_capablanca). */
static line burn_game, lasker_game;

static void test_capablanca(void) {
    line truth;
    if (corpus_game("corpus/big/pgnmentor-players/Capablanca.pgn.gz", "Capablanca", "Burn",
                    "San Sebastian", &truth)) {
        burn_game = truth;
        /* ply 36, Black's 18th, "B × P": Bxb4 as played, or Bxf2+ */
        check_printed("Capablanca v Burn", burn, (int)(sizeof burn / sizeof burn[0]), &truth, 35);
    }
    if (corpus_game("corpus/big/pgnmentor-players/Capablanca.pgn.gz", "Lasker, Emanuel",
                    "Capablanca", "St Petersburg f", &truth)) {
        lasker_game = truth;
        check_printed("Lasker v Capablanca (Chess Fundamentals)", lasker_cf,
                      (int)(sizeof lasker_cf / sizeof lasker_cf[0]), &truth, -1);
        check_printed("Lasker v Capablanca (Chess Strategy)", lasker_cs,
                      (int)(sizeof lasker_cs / sizeof lasker_cs[0]), &truth, -1);
    }
}

/* The status of text at ply k (0-based) of game, and the number of legal moves it fits. */
static pgn_status at_ply(const line *game, int k, const char *text, uint32_t *fits) {
    pgn_pos p;
    pgn_movelist fit;
    pgn_move mv = PGN_MOVE_NONE;
    pgn_pos_init(&p);
    if (game->n < k) {
        return PGN_E_BAD_SAN; /* the game did not load: reported */
    }
    for (int i = 0; i < k; i++) {
        pgn_pos_play(&p, game->moves[i]);
    }
    pgn_status st = pgn_desc_parse(&p, PGN_LANG_DESCRIPTIVE, text, strlen(text), &fit, &mv);
    *fits = fit.count;
    return st;
}

/* What the books left to the reader's eye: the printed short forms that name two moves here. */
static void test_ambiguous(void) {
    uint32_t fits = 0;
    /* Chess Strategy's e-text, White's 4th: "BxKtQ PxB" */
    CHECK_EQ_INT(at_ply(&lasker_game, 6, "BxKtQ", &fits), PGN_E_ILLEGAL_MOVE);
    CHECK_EQ_INT(fits, 0);
    CHECK_EQ_INT(at_ply(&lasker_game, 7, "PxB", &fits), PGN_E_AMBIGUOUS_MOVE); /* bxc6, dxc6 */
    CHECK_EQ_INT(fits, 2);
    /* Capablanca v Burn, White's 7th without its Q: Nb1-d2 and Nf3-d2 */
    CHECK_EQ_INT(at_ply(&burn_game, 12, "Kt - Q 2", &fits), PGN_E_AMBIGUOUS_MOVE);
    CHECK_EQ_INT(fits, 2);
    /* its 2nd move without the K: a knight to c3 or f3 */
    CHECK_EQ_INT(at_ply(&burn_game, 2, "Kt - B 3", &fits), PGN_E_AMBIGUOUS_MOVE);
    CHECK_EQ_INT(fits, 2);
    /* its 21st, Q × P ch: Qxh7+ and Qxe5 take a pawn, the check names the first */
    CHECK_EQ_INT(at_ply(&burn_game, 40, "Q × P", &fits), PGN_E_AMBIGUOUS_MOVE);
    CHECK_EQ_INT(fits, 2);
    CHECK_EQ_INT(at_ply(&burn_game, 40, "Q × P ch", &fits), PGN_OK);
    /* "Castles" before White's 14th there: O-O only, the queen on d8 covering d1 */
    CHECK_EQ_INT(at_ply(&burn_game, 26, "Castles", &fits), PGN_OK);
    CHECK_EQ_INT(fits, 1);
    /* and where both wings are legal, Castles names both */
    pgn_pos p;
    pgn_movelist fit;
    pgn_move mv;
    const char *both = "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1";
    CHECK_EQ_INT(pgn_fen_parse(&p, both, strlen(both), 0, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_desc_parse(&p, PGN_LANG_DESCRIPTIVE, "Castles", 7, &fit, &mv),
                 PGN_E_AMBIGUOUS_MOVE);
    CHECK_EQ_INT(fit.count, 2);
}

/* Chess Strategy's note to Black's 5th: 5... B-KKt5; 6 PxP, QxQch; 7 KxQ, Castles ch; 8 K-K2,
 * R-K1; 9 P-KR3, BxKtch; 10 KxB, P-B3. Analysis, not a game: each move must fit one legal move,
 * and Castles ch must be Black's O-O-O with check. */
static void test_note(void) {
    static const char *const note[] = {"B-KKt5", "PxP",   "QxQch",  "KxQ", "Castles ch", "K-K2",
                                       "R-K1",   "P-KR3", "BxKtch", "KxB", "P-B3"};
    pgn_pos p;
    pgn_move mv = PGN_MOVE_NONE;
    pgn_pos_init(&p);
    for (int i = 0; i < 9; i++) { /* 1. P-K4 ... 5. P-Q4 */
        CHECK_EQ_INT(
            pgn_desc_parse(&p, PGN_LANG_DESCRIPTIVE, lasker_cs[i], strlen(lasker_cs[i]), NULL, &mv),
            PGN_OK);
        pgn_pos_play(&p, mv);
    }
    for (size_t i = 0; i < sizeof note / sizeof note[0]; i++) {
        pgn_status st =
            pgn_desc_parse(&p, PGN_LANG_DESCRIPTIVE, note[i], strlen(note[i]), NULL, &mv);
        if (st != PGN_OK) {
            harness_fail(__FILE__, __LINE__, "note, %s: status %d", note[i], (int)st);
            return;
        }
        if (i == 4) {
            char san[PGN_SAN_MAX];
            pgn_san_write(&p, mv, san);
            CHECK_EQ_STR(san, "O-O-O+");
        }
        pgn_pos_play(&p, mv);
    }
}

/* The Blue Book of Chess, long form, against the lichess opening table. bookrags.com prints the
 * apostrophe as U+2019; the plain-text e-text has ' (test_long_words). */
#define AP "\xE2\x80\x99"
static void test_blue_book(void) {
    static const char *const damiano[] = {"P. to K" AP "s 4th.",          "P. to K" AP "s 4th.",
                                          "K" AP "s Kt. to B" AP "s 3d.", "P. to K. B" AP "s 3d.",
                                          "Kt. takes K" AP "s P.",        "P. takes Kt.",
                                          "Q. to K. R" AP "s 5th. (ch.)", "P. to K. Kt" AP "s 3d.",
                                          "Q. takes K" AP "s P. (ch.)",   "Q. to K" AP "s 2d."};
    static const char *const piano[] = {
        "P. to K" AP "s 4th.",        "P. to K" AP "s 4th",
        "K. Kt. to B" AP "s 3d.",     "Q. Kt. to B" AP "s 3d.",
        "K. B. to Q. B" AP "s 4th.",  "K. B. to Q. B" AP "s 4th",
        "P. to Q. B" AP "s 3d.",      "K. Kt. to B" AP "s 3d. (best)",
        "P. to Q" AP "s 4th.",        "P. takes P.",
        "P. to K" AP "s 5th.",        "P. to Q" AP "s 4th. (best)",
        "K. B. to Q. Kt" AP "s 5th.", "K. Kt. to K" AP "s 5th."};
    static const char *const kassim[] = {"P. to K" AP "s 4th.",
                                         "P. to K" AP "s 4th.",
                                         "K. Kt. to B" AP "s 3d.",
                                         "Q. Kt. to B" AP "s 3d.",
                                         "K. B. to Q. B" AP "s 4th.",
                                         "K. B. to Q. B" AP "s 4th.",
                                         "P. to Q. B" AP "s 3d.",
                                         "K. Kt. to B" AP "s 3d.",
                                         "P. to Q" AP "s 4th.",
                                         "P. takes P.",
                                         "P. to K" AP "s 5th.",
                                         "K. Kt. to K" AP "s 5th.",
                                         "K. B. to Q" AP "s 5th.",
                                         "Kt. takes K. B" AP "s P.",
                                         "K. takes Kt.",
                                         "P. takes P. (dis. ch.)",
                                         "K. to Kt" AP "s 3d."};
    line truth;
    if (eco_line("Damiano Defense, Damiano Gambit\t", &truth)) {
        check_printed("Damiano Gambit", damiano, (int)(sizeof damiano / sizeof damiano[0]), &truth,
                      -1);
    }
    if (eco_line("Classical Variation, Greco Gambit, Anderssen Variation\t", &truth)) {
        check_printed("Giuoco Piano", piano, (int)(sizeof piano / sizeof piano[0]), &truth, -1);
    }
    if (eco_line("Classical Variation, Ghulam-Kassim Variation\t", &truth)) {
        check_printed("Giuoco Piano, Variation I", kassim, (int)(sizeof kassim / sizeof kassim[0]),
                      &truth, -1);
    }
}

/* The long form's words elsewhere: "his" and "her" (the piece's own file), "sq." (the first
 * rank), "in passing" (en passant), and Castles where only one wing is legal. */
static void test_long_words(void) {
    pgn_pos p;
    pgn_move mv = PGN_MOVE_NONE;
    static const struct {
        const char *fen, *text, *san;
    } cases[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "K. to his 2d.", "Ke2"},
        {"4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Kt. to K. B's 3d.", "Nf3"},
        {"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Q. to her 3d.", "Qd3"},
        {"r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "Q. R. to Q's sq.", "Rd8"},
        {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "P. takes P. in passing.", "exd6"},
        {"4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", "Castles.", "O-O-O"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char san[PGN_SAN_MAX];
        CHECK_EQ_INT(pgn_fen_parse(&p, cases[i].fen, strlen(cases[i].fen), 0, NULL), PGN_OK);
        CHECK_EQ_INT(pgn_desc_parse(&p, PGN_LANG_DESCRIPTIVE, cases[i].text, strlen(cases[i].text),
                                    NULL, &mv),
                     PGN_OK);
        pgn_san_write(&p, mv, san);
        CHECK_EQ_STR(san, cases[i].san);
    }
}

/* Printed text longer than any move, or cut inside a word or a UTF-8 sign, is no move. */
static void test_bad_printed(void) {
    pgn_pos p;
    pgn_move mv;
    char big[300];
    pgn_pos_init(&p);
    for (size_t i = 0; i < sizeof big; i++) {
        big[i] = "P. to K's 4th "[i % 14];
    }
    CHECK_EQ_INT(pgn_desc_parse(&p, PGN_LANG_DESCRIPTIVE, big, sizeof big, NULL, &mv),
                 PGN_E_BAD_SAN);
    static const char *const cut[] = {"P. t",   "P. to K'",     "B \xC3", "P. to K\xE2\x80",
                                      "Castle", "P. to K's 4t", "to",     "takes",
                                      "'s",     ". . ."};
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
        CHECK_EQ_INT(pgn_desc_parse(&p, PGN_LANG_DESCRIPTIVE, cut[i], strlen(cut[i]), NULL, &mv),
                     PGN_E_BAD_SAN);
    }
}

int main(void) {
    test_bad_printed();
    test_capablanca();
    test_ambiguous();
    test_note();
    test_blue_book();
    test_long_words();
    return harness_finish();
}
