/* SPDX-License-Identifier: MIT */
/* Piece letters of other languages and figurines (issue 15; src/chess/san_lang.c,
 * src/parse/movetext_lang.c) against outside truth:
 * - the table of the standard itself (../shared/docs/pgn-standard-1994.txt, section 17), parsed
 *   here, must be pgnkit's table, language by language;
 * - every main-line move of a real collection (../shared/corpus/big/misc, 232 TWIC games), written
 *   in each language (pgn_san_translate) and read back (pgn_san_parse_lang), is the same move;
 * - each game written whole in each language and read by the PGN reader with detection gives the
 *   same main line with W_LANGUAGE naming that language (or its letter twins), or an explicit
 *   E_LANGUAGE_AMBIGUOUS; never another reading. The counts are printed. */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <stdlib.h>

#define STANDARD "docs/pgn-standard-1994.txt"
#define CORPUS "corpus/big/misc/mliebelt-twic-01-232games.pgn"
#define MAX_PLIES 1024
#define MAX_GAMES 4096

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    size_t cap = 1 << 20, n = 0;
    char *tbuf = malloc(cap + 1);
    size_t got;
    while (tbuf && (got = fread(tbuf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *b = realloc(tbuf, cap * 2 + 1);
            if (!b) {
                free(tbuf);
                tbuf = NULL;
                break;
            }
            tbuf = b;
            cap *= 2;
        }
    }
    fclose(f);
    if (tbuf) {
        tbuf[n] = '\0';
        *len = n;
    }
    return tbuf;
}

/* Section 17's table: "German       B S L T D K" lines between the dashes and section 18. */
static void test_standard_table(void) {
    size_t len;
    char *text = slurp(harness_shared(STANDARD), &len);
    if (!text) {
        harness_counts.skipped++;
        return;
    }
    char *p = strstr(text, "\n17: Alternative chesspiece identifier letters");
    char *end = p ? strstr(p, "\n18: Formal syntax") : NULL;
    int rows = 0;
    CHECK(p && end);
    for (char *line = p ? strstr(p, "----------   ---") : NULL; line && line < end;) {
        line = strchr(line, '\n');
        if (!line || line >= end) {
            break;
        }
        line++;
        char one[128], name[32], l[6][4];
        size_t n = strcspn(line, "\n");
        snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), line);
        if (sscanf(one, "%31s %3s %3s %3s %3s %3s %3s", name, l[0], l[1], l[2], l[3], l[4], l[5]) !=
            7) {
            continue;
        }
        pgn_lang lang;
        CHECK(pgn_lang_from_name(name, &lang));
        CHECK_EQ_STR(pgn_lang_name(lang), name);
        for (int t = PGN_PAWN; t <= PGN_KING; t++) {
            CHECK_EQ_STR(pgn_lang_letter(lang, (pgn_piece_type)t), l[t - PGN_PAWN]);
        }
        rows++;
    }
    CHECK_EQ_INT(rows, 17);
    free(text);
}

static void test_names(void) {
    pgn_lang l;
    CHECK(pgn_lang_from_name("de", &l) && l == PGN_LANG_GERMAN);
    CHECK(pgn_lang_from_name("GERMAN", &l) && l == PGN_LANG_GERMAN);
    CHECK(pgn_lang_from_name("cyrillic", &l) && l == PGN_LANG_RUSSIAN);
    CHECK(pgn_lang_from_name("figurine", &l) && l == PGN_LANG_FIGURINE);
    CHECK(!pgn_lang_from_name("klingon", &l));
    CHECK(!pgn_lang_from_name("", &l));
    CHECK(pgn_lang_same(PGN_LANG_GERMAN, PGN_LANG_SWEDISH));
    CHECK(pgn_lang_same(PGN_LANG_ITALIAN, PGN_LANG_SPANISH));
    CHECK(!pgn_lang_same(PGN_LANG_FRENCH, PGN_LANG_ROMANIAN));
}

/* Single moves, hand-checked: the letter means the piece of that language only. */
static void test_moves(void) {
    pgn_pos p;
    pgn_pos_init(&p);
    pgn_san_result res;
    char tbuf[PGN_SAN_LANG_MAX];
    CHECK_EQ_INT(pgn_san_parse_lang(&p, PGN_LANG_GERMAN, "Sf3", 3, 0, &res), PGN_OK);
    CHECK_EQ_INT(res.move, PGN_MOVE_MAKE(PGN_SQ(6, 0), PGN_SQ(5, 2), PGN_MOVE_NORMAL, 0));
    CHECK_EQ_INT(pgn_san_parse_lang(&p, PGN_LANG_GERMAN, "Nf3", 3, 0, &res), PGN_E_BAD_SAN);
    CHECK_EQ_INT(pgn_san_parse_lang(&p, PGN_LANG_GERMAN, "Be4", 3, 0, &res), PGN_OK); /* Bauer */
    CHECK_EQ_INT(res.move, PGN_MOVE_MAKE(PGN_SQ(4, 1), PGN_SQ(4, 3), PGN_MOVE_NORMAL, 0));
    CHECK_EQ_INT(pgn_san_parse_lang(&p, PGN_LANG_DUTCH, "Pf3", 3, 0, &res), PGN_OK); /* paard */
    CHECK_EQ_INT(res.move, PGN_MOVE_MAKE(PGN_SQ(6, 0), PGN_SQ(5, 2), PGN_MOVE_NORMAL, 0));
    CHECK_EQ_INT(pgn_san_parse_lang(&p, PGN_LANG_RUSSIAN,
                                    "\xD0\x9A"
                                    "f3",
                                    4, 0, &res),
                 PGN_OK);
    CHECK_EQ_INT(pgn_san_parse_lang(&p, PGN_LANG_ENGLISH,
                                    "\xE2\x99\x9E"
                                    "f3",
                                    5, 0, &res),
                 PGN_OK);
    CHECK_EQ_INT(res.move, PGN_MOVE_MAKE(PGN_SQ(6, 0), PGN_SQ(5, 2), PGN_MOVE_NORMAL, 0));
    CHECK_EQ_INT(pgn_san_parse_lang(&p, PGN_LANG_FRENCH, "nf3", 3, 0, &res), PGN_E_BAD_SAN);
    CHECK_EQ_INT(pgn_san_translate(PGN_LANG_RUSSIAN, "Kxe2+", 5, tbuf, sizeof tbuf), 8);
    CHECK_EQ_STR(tbuf, "\xD0\x9A\xD1\x80xe2+");
    CHECK_EQ_INT(pgn_san_translate(PGN_LANG_ESTONIAN, "O-O-O", 5, tbuf, sizeof tbuf), 5);
    CHECK_EQ_STR(tbuf, "O-O-O");
    CHECK_EQ_INT(pgn_san_translate(PGN_LANG_FRENCH, "exd8=Q#", 7, tbuf, sizeof tbuf), 7);
    CHECK_EQ_STR(tbuf, "exd8=D#");
    CHECK_EQ_INT(pgn_san_translate(PGN_LANG_FIGURINE, "Nf3", 3, tbuf, sizeof tbuf), 5);
    CHECK_EQ_STR(tbuf, "\xE2\x99\x98"
                       "f3");
    CHECK_EQ_INT(pgn_san_translate(PGN_LANG_FRENCH, "Nf3", 3, tbuf, 3), 0); /* does not fit */
}

/* ---- the corpus ---- */

typedef struct game_moves {
    pgn_pos start;
    pgn_move mv[MAX_PLIES];
    char san[MAX_PLIES][PGN_SAN_MAX];
    unsigned n;
    int depth, skip;
} game_moves;

typedef struct collect {
    game_moves *games;
    size_t n, cap;
    game_moves *cur;
    /* diagnostics of the game read back */
    unsigned w_language, e_ambiguous, errors;
    char lang_text[64];
} collect;

static pgn_flow c_begin(void *u, pgn_loc at) {
    collect *c = u;
    (void)at;
    if (c->n == c->cap) {
        c->cur = NULL;
        return PGN_FLOW_SKIP;
    }
    c->cur = &c->games[c->n++];
    c->cur->n = 0;
    c->cur->depth = 0;
    c->cur->skip = 0;
    return PGN_FLOW_CONTINUE;
}
static pgn_flow c_end_tags(void *u, const pgn_pos *start) {
    collect *c = u;
    if (c->cur && start) {
        c->cur->start = *start;
    }
    return PGN_FLOW_CONTINUE;
}
static pgn_flow c_move(void *u, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    collect *c = u;
    (void)san;
    (void)at;
    game_moves *g = c->cur;
    if (!g || g->depth > 0 || !before) {
        return PGN_FLOW_CONTINUE;
    }
    if (g->n == MAX_PLIES) {
        g->skip = 1;
        return PGN_FLOW_CONTINUE;
    }
    g->mv[g->n] = mv;
    pgn_san_write(before, mv, g->san[g->n]);
    g->n++;
    return PGN_FLOW_CONTINUE;
}
static pgn_flow c_begin_var(void *u) {
    collect *c = u;
    if (c->cur) {
        c->cur->depth++;
    }
    return PGN_FLOW_CONTINUE;
}
static pgn_flow c_end_var(void *u) {
    collect *c = u;
    if (c->cur) {
        c->cur->depth--;
    }
    return PGN_FLOW_CONTINUE;
}
static pgn_flow c_end_game(void *u, pgn_result res, const pgn_game_summary *s) {
    collect *c = u;
    (void)res;
    if (c->cur && (s->broken || c->cur->skip)) {
        c->n--; /* only whole games */
    }
    return PGN_FLOW_CONTINUE;
}

static const pgn_visitor collector = {c_begin, NULL,        c_end_tags, c_move,    NULL,
                                      NULL,    c_begin_var, c_end_var,  c_end_game};

static void on_diag(void *ctx, const pgn_diag *d) {
    collect *c = ctx;
    if (d->code == PGN_W_LANGUAGE) {
        c->w_language++;
        snprintf(c->lang_text, sizeof c->lang_text, "%s", d->token);
    } else if (d->code == PGN_E_LANGUAGE_AMBIGUOUS) {
        c->e_ambiguous++;
    } else if (!pgn_status_is_warning(d->code)) {
        c->errors++;
    }
}

static size_t read_games(collect *c, const char *text, size_t len, pgn_lang lang) {
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    o.on_diag = on_diag;
    o.diag_ctx = c;
    o.input_lang = lang;
    pgn_reader *r;
    if (pgn_reader_new_mem(&r, &o, text, len) != PGN_OK) {
        return 0;
    }
    while (pgn_reader_visit(r, &collector, c) == PGN_OK) {
    }
    pgn_reader_free(r);
    return c->n;
}

/* The game's main line as PGN text in lang (FEN tag kept so that set-up games work). */
static size_t write_game(const game_moves *g, pgn_lang lang, char *out, size_t cap) {
    char fen[PGN_FEN_MAX];
    pgn_fen_write(&g->start, 0, fen, sizeof fen);
    int n = snprintf(out, cap, "[Event \"t\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n\n", fen);
    size_t o = (size_t)n;
    for (unsigned i = 0; i < g->n && o + 64 < cap; i++) {
        char tr[PGN_SAN_LANG_MAX];
        size_t m = pgn_san_translate(lang, g->san[i], strlen(g->san[i]), tr, sizeof tr);
        o += (size_t)snprintf(out + o, cap - o, "%s%s", i ? " " : "", m ? tr : "??");
    }
    o += (size_t)snprintf(out + o, cap - o, " *\n\n");
    return o;
}

/* Whether a W_LANGUAGE excerpt names lang and every language with its letters (the reader's
 * table of letter twins, movetext_lang.c, checked against pgn_lang_same). */
static int names_lang(const char *text, pgn_lang lang) {
    for (int k = 0; k <= PGN_LANG_FIGURINE; k++) {
        if (pgn_lang_same(lang, (pgn_lang)k) && !strstr(text, pgn_lang_name((pgn_lang)k))) {
            return 0;
        }
    }
    return 1;
}

static void test_corpus(void) {
    size_t len;
    char *text = slurp(harness_shared(CORPUS), &len);
    if (!text) {
        harness_counts.skipped++;
        return;
    }
    collect c;
    memset(&c, 0, sizeof c);
    c.cap = MAX_GAMES;
    c.games = malloc(c.cap * sizeof *c.games);
    collect back;
    memset(&back, 0, sizeof back);
    back.cap = 1;
    back.games = malloc(sizeof *back.games);
    char *tbuf = malloc(1 << 16);
    if (!c.games || !back.games || !tbuf) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        return;
    }
    size_t games = read_games(&c, text, len, PGN_LANG_ENGLISH);
    CHECK(games > 200);
    for (int lang = 0; lang <= PGN_LANG_FIGURINE; lang++) { /* letters only: test_descriptive */
        unsigned long moves_ok = 0, moves_bad = 0, right = 0, ambiguous = 0, english = 0, wrong = 0,
                      failed = 0, forced_ok = 0;
        for (size_t gi = 0; gi < games; gi++) {
            const game_moves *g = &c.games[gi];
            /* move by move */
            pgn_pos p = g->start;
            for (unsigned i = 0; i < g->n; i++) {
                char tr[PGN_SAN_LANG_MAX];
                pgn_san_result res;
                size_t m =
                    pgn_san_translate((pgn_lang)lang, g->san[i], strlen(g->san[i]), tr, sizeof tr);
                if (m && pgn_san_parse_lang(&p, (pgn_lang)lang, tr, m, 0, &res) == PGN_OK &&
                    res.move == g->mv[i]) {
                    moves_ok++;
                } else {
                    moves_bad++;
                }
                pgn_pos_play(&p, g->mv[i]);
            }
            /* the whole game, detected, then forced */
            size_t n = write_game(g, (pgn_lang)lang, tbuf, 1 << 16);
            for (int pass = 0; pass < 2; pass++) {
                back.n = 0;
                back.w_language = back.e_ambiguous = back.errors = 0;
                back.lang_text[0] = '\0';
                read_games(&back, tbuf, n, pass ? (pgn_lang)lang : PGN_LANG_ENGLISH);
                int same = back.n == 1 && back.games[0].n == g->n &&
                           memcmp(back.games[0].mv, g->mv, g->n * sizeof g->mv[0]) == 0;
                if (pass) {
                    forced_ok += same && back.errors == 0;
                } else if (back.e_ambiguous) {
                    ambiguous++;
                } else if (same && back.w_language == 0 && back.errors == 0) {
                    english++; /* English letters read it: only pawns, K, or the same letters */
                } else if (same && back.w_language == 1 && names_lang(back.lang_text, lang)) {
                    right++;
                } else if (same && back.w_language == 1 && lang == PGN_LANG_ENGLISH) {
                    wrong++;
                } else if (!same && back.errors > 0) {
                    failed++; /* not read, and said so */
                } else {
                    wrong++;
                    if (wrong <= 3) {
                        harness_fail(__FILE__, __LINE__, "%s game %zu read wrongly (%s)",
                                     pgn_lang_name((pgn_lang)lang), gi + 1, back.lang_text);
                    }
                }
            }
        }
        CHECK_EQ_INT(moves_bad, 0);
        CHECK_EQ_INT(wrong, 0);
        CHECK_EQ_INT(forced_ok, games);
        printf("# %-10s moves %lu/%lu; detected: right %lu, ambiguous %lu, English letters %lu, "
               "errors %lu, wrong %lu; forced %lu/%zu\n",
               pgn_lang_name((pgn_lang)lang), moves_ok, moves_ok + moves_bad, right, ambiguous,
               english, failed, wrong, forced_ok, games);
    }
    free(tbuf);
    free(back.games);
    free(c.games);
    free(text);
}

int main(void) {
    test_standard_table();
    test_names();
    test_moves();
    test_corpus();
    return harness_finish();
}
