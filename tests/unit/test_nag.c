/* SPDX-License-Identifier: MIT */
/* Unit tests of the NAG table (src/game/nag.c) against the user's NAG document itself
 * (../shared/seeds/003_7461231f9b42b8d2.txt, the Wikipedia table of PGN §10 and the ChessPad
 * NAGs): every row's number, group, meaning, symbol, code points and "used by", then the glyph
 * look-ups in both directions. */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <stdlib.h>

#define SEED "seeds/003_7461231f9b42b8d2.txt"

typedef struct seed_row {
    int seen;
    char meaning[128], symbol[16], unicode[32], used_by[16];
} seed_row;

static void copy_field(char *dst, size_t cap, const char *src) {
    size_t n = strlen(src);
    if (n >= cap) {
        harness_fail(__FILE__, __LINE__, "seed field too long: %s", src);
        n = cap - 1;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* "$a" or "$a-$b" (or "$a+": to 255); 0 if the field is not a NAG number or range. */
static int parse_range(const char *f, int *a, int *b) {
    char *end;
    if (f[0] != '$') {
        return 0;
    }
    *a = (int)strtol(f + 1, &end, 10);
    *b = *a;
    if (end[0] == '-' && end[1] == '$') {
        *b = (int)strtol(end + 2, &end, 10);
    } else if (end[0] == '+') {
        *b = 255;
        end++;
    }
    return *end == '\0' && end != f + 1 && *a >= 0 && *b <= 255 && *a <= *b;
}

/* Reads the document's two NAG tables and its table of groups; returns the number of table lines.
 */
static int parse_seed(char *text, seed_row *rows, pgn_nag_class *group) {
    enum { NONE, GROUPS, STANDARD, NONSTANDARD } section = NONE;
    int lines = 0;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char *f[8];
        int a, b, n;
        if (strncmp(line, "NAG range", 9) == 0) {
            section = GROUPS;
        } else if (strncmp(line, "Standard NAGs", 13) == 0) {
            section = STANDARD;
        } else if (strncmp(line, "Non-standard NAGs", 17) == 0) {
            section = NONSTANDARD;
        } else if (strncmp(line, "Notes on tables", 15) == 0) {
            section = NONE;
        }
        n = split_tabs(line, f, 8);
        if (section == NONE || !parse_range(f[0], &a, &b)) {
            continue;
        }
        if (section == GROUPS) {
            pgn_nag_class c = strstr(f[1], "placeholder")                   ? PGN_NAG_NULL
                              : strcmp(f[1], "Move assessments") == 0       ? PGN_NAG_MOVE
                              : strcmp(f[1], "Positional Assessments") == 0 ? PGN_NAG_POSITION
                              : strcmp(f[1], "Time Pressure Commentaries") == 0
                                  ? PGN_NAG_TIME
                                  : PGN_NAG_NONSTANDARD;
            for (int k = a; k <= b; k++) {
                group[k] = c;
            }
            continue;
        }
        lines++;
        for (int k = a; k <= b; k++) {
            seed_row *r = &rows[k];
            int base = section == NONSTANDARD ? 2 : 1; /* the ChessPad table has "Used by" first */
            r->seen++;
            if (section == NONSTANDARD) {
                copy_field(r->used_by, sizeof r->used_by, n > 1 ? f[1] : "");
            }
            copy_field(r->meaning, sizeof r->meaning, n > base ? f[base] : "");
            copy_field(r->symbol, sizeof r->symbol, n > base + 1 ? f[base + 1] : "");
            copy_field(r->unicode, sizeof r->unicode, n > base + 2 ? f[base + 2] : "");
        }
    }
    return lines;
}

/* The document's symbol as pgnkit spells it: "+ −" loses its space (a glyph is one token in PGN),
 * and the word "text" (an image in the original page, no character) means no symbol. */
static void normalize_symbol(const char *in, char *out, size_t cap) {
    size_t n = 0;
    if (strcmp(in, "text") == 0) {
        in = "";
    }
    for (; *in && n + 1 < cap; in++) {
        if (*in != ' ') {
            out[n++] = *in;
        }
    }
    out[n] = '\0';
}

/* Decodes UTF-8 s into at most max code points; returns the count (-1 if malformed). */
static int utf8_decode(const char *s, uint32_t *cp, int max) {
    int n = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p && n < max) {
        uint32_t c = *p;
        int extra = c < 0x80 ? 0 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
        if (extra < 0) {
            return -1;
        }
        c &= extra == 0 ? 0x7F : 0x3F >> extra;
        for (p++; extra > 0; extra--, p++) {
            if ((*p & 0xC0) != 0x80) {
                return -1;
            }
            c = c << 6 | (*p & 0x3F);
        }
        cp[n++] = c;
    }
    return *p ? -1 : n;
}

/* Every row of the document against pgn_nag_get, and the rows whose Unicode column disagrees with
 * the glyph itself (the document's typos). */
static void test_rows(const seed_row *rows, const pgn_nag_class *group) {
    int typos[8], ntypos = 0;
    for (int n = 0; n < 256; n++) {
        const seed_row *r = &rows[n];
        const pgn_nag_info *info = pgn_nag_get((uint8_t)n);
        char sym[16];
        uint32_t cp[4] = {0, 0, 0, 0};
        int ncp;
        CHECK_EQ_INT(r->seen, 1);
        CHECK_EQ_INT(info->nag, n);
        CHECK_EQ_INT(info->nag_class, group[n]);
        CHECK_EQ_STR(info->meaning, r->meaning);
        normalize_symbol(r->symbol, sym, sizeof sym);
        CHECK_EQ_STR(info->symbol, sym);
        CHECK_EQ_STR(info->used_by, r->used_by);
        ncp = utf8_decode(sym, cp, 3);
        CHECK(ncp >= 0 && ncp <= 2);
        CHECK_EQ_INT(info->codepoints[0], cp[0]);
        CHECK_EQ_INT(info->codepoints[1], cp[1]);
        if (r->unicode[0] != '\0') {
            /* "10865 / 0x2A72" or "0177": decimal, then hexadecimal if given */
            char *end;
            unsigned long dec = strtoul(r->unicode, &end, 10);
            const char *hex = strstr(r->unicode, "0x");
            int agree = ncp == 1 && dec == cp[0];
            if (hex != NULL) {
                agree = agree && strtoul(hex + 2, NULL, 16) == cp[0];
            }
            if (!agree && ntypos < 8) {
                typos[ntypos++] = n;
            }
        }
    }
    /* The document's typos, and no others: $7's decimal 9632 is U+25A0 (black square; the glyph,
     * its name and the hex say U+25A1, 9633), $14's decimal is $15's (10865; the glyph and its hex
     * 0x2A72 say 10866), and $18 repeats $16's "0177" (±) beside "+ −". */
    CHECK_EQ_INT(ntypos, 3);
    CHECK(ntypos >= 1 && typos[0] == 7);
    CHECK(ntypos >= 2 && typos[1] == 14);
    CHECK(ntypos >= 3 && typos[2] == 18);
    CHECK_EQ_INT(pgn_nag_get(7)->codepoints[0], 0x25A1);
    CHECK_EQ_INT(pgn_nag_get(14)->codepoints[0], 0x2A72);
    CHECK_EQ_INT(pgn_nag_get(15)->codepoints[0], 0x2A71);
}

static unsigned from(const char *s, pgn_color mover) {
    unsigned nag = 9999;
    if (!pgn_nag_from_symbol(s, strlen(s), mover, &nag)) {
        return 9999;
    }
    return nag;
}

/* Glyph -> number: the document's symbols, and the ASCII spellings of the Informant/ChessBase
 * convention (+/= slight, +/- moderate, +- decisive; = + and + = as the slight ones). */
static void test_lookup(void) {
    static const struct {
        const char *text;
        unsigned nag;
    } cases[] = {
        {"!", 1},        {"?", 2},      {"!!", 3},       {"??", 4},       {"!?", 5},
        {"?!", 6},       {"\u25A1", 7}, {"=", 10},       {"\u221E", 13},  {"\u2A72", 14},
        {"+/=", 14},     {"+=", 14},    {"\u2A71", 15},  {"=/+", 15},     {"=+", 15},
        {"\u00B1", 16},  {"+/-", 16},   {"\u2213", 17},  {"-/+", 17},     {"+-", 18},
        {"+\u2212", 18}, {"-+", 19},    {"\u2212+", 19}, {"\u2206", 140}, {"N", 146},
        {"\u203C", 3},   {"\u2049", 5}, {"RR", 145},     {"\u2715", 244}, {"\u22A5", 245},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_EQ_INT(from(cases[i].text, PGN_WHITE), cases[i].nag);
        CHECK_EQ_INT(from(cases[i].text, PGN_BLACK), cases[i].nag);
    }
    /* pairs: the mover's number, and for zugzwang the side to move's */
    CHECK_EQ_INT(from("\u2192", PGN_WHITE), 36);
    CHECK_EQ_INT(from("\u2192", PGN_BLACK), 37);
    CHECK_EQ_INT(from("\u2191", PGN_WHITE), 40);
    CHECK_EQ_INT(from("\u2191", PGN_BLACK), 41);
    CHECK_EQ_INT(from("\u27F3", PGN_BLACK), 33);
    CHECK_EQ_INT(from("\u21C6", PGN_WHITE), 132);
    CHECK_EQ_INT(from("\u21C6", PGN_BLACK), 133);
    CHECK_EQ_INT(from("\u2A00", PGN_WHITE), 23);
    CHECK_EQ_INT(from("\u2A00", PGN_BLACK), 22);
    /* not glyphs: exact matches only */
    CHECK_EQ_INT(from("", PGN_WHITE), 9999);
    CHECK_EQ_INT(from("+", PGN_WHITE), 9999);
    CHECK_EQ_INT(from("-", PGN_WHITE), 9999);
    CHECK_EQ_INT(from("!!!", PGN_WHITE), 9999);
    CHECK_EQ_INT(from(" =", PGN_WHITE), 9999);
    CHECK_EQ_INT(from("Nf3", PGN_WHITE), 9999);
    CHECK_EQ_INT(from("x", PGN_WHITE), 9999);
}

/* Number -> glyph: every table symbol reads back to its own number (or, for the five pairs, to its
 * number for the right mover), and what the symbol writer gives always reads back. */
static void test_write_symbol(void) {
    unsigned written = 0;
    for (unsigned n = 0; n < 256; n++) {
        const pgn_nag_info *info = pgn_nag_get((uint8_t)n);
        for (int m = PGN_WHITE; m <= PGN_BLACK; m++) {
            const char *s = pgn_nag_write_symbol((uint8_t)n, (pgn_color)m);
            if (*s != '\0') {
                CHECK_EQ_INT(from(s, (pgn_color)m), n);
                written++;
            }
        }
        if (info->symbol[0] != '\0') {
            unsigned w = from(info->symbol, PGN_WHITE), b = from(info->symbol, PGN_BLACK);
            CHECK(w == n || b == n);
            CHECK(*pgn_nag_write_symbol((uint8_t)n, PGN_WHITE) != '\0' ||
                  *pgn_nag_write_symbol((uint8_t)n, PGN_BLACK) != '\0');
        }
        if (info->ascii[0] != '\0') {
            CHECK_EQ_INT(from(info->ascii, PGN_WHITE), n);
        }
    }
    CHECK_EQ_STR(pgn_nag_write_symbol(1, PGN_WHITE), "!");
    CHECK_EQ_STR(pgn_nag_write_symbol(6, PGN_BLACK), "?!");
    CHECK_EQ_STR(pgn_nag_write_symbol(3, PGN_BLACK), "!!");
    CHECK_EQ_STR(pgn_nag_write_symbol(16, PGN_BLACK), "\u00B1");
    CHECK_EQ_STR(pgn_nag_write_symbol(36, PGN_WHITE), "\u2192");
    CHECK_EQ_STR(pgn_nag_write_symbol(36, PGN_BLACK), ""); /* would read back as 37 */
    CHECK_EQ_STR(pgn_nag_write_symbol(23, PGN_WHITE), "\u2A00");
    CHECK_EQ_STR(pgn_nag_write_symbol(22, PGN_WHITE), "");
    CHECK_EQ_STR(pgn_nag_write_symbol(0, PGN_WHITE), "");
    CHECK_EQ_STR(pgn_nag_write_symbol(20, PGN_WHITE), "");
    CHECK_EQ_STR(pgn_nag_write_symbol(200, PGN_WHITE), "");
    /* the document gives 35 symbols: 25 for one NAG each (written after either side's move) and
     * 5 shared by a White/Black pair (each number written after one side's move only) */
    CHECK_EQ_INT(written, 25 * 2 + 10);
}

/* ---- symbol-style output reads back to the same NAGs ---- */

/* Reads the one game in text into g; returns the number of warnings. */
static uint64_t read_game(const char *text, size_t len, pgn_game *g) {
    pgn_reader *r;
    uint64_t games = 0, errors = 0, warnings = 0;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, text, len), PGN_OK);
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    pgn_reader_totals(r, &games, &errors, &warnings);
    CHECK_EQ_U64(errors, 0);
    pgn_reader_free(r);
    return warnings;
}

/* The NAG lists of the main line, one after the other, each ended by 999. */
static size_t main_line_nags(const pgn_game *g, unsigned *out, size_t cap) {
    size_t n = 0;
    for (const pgn_node *node = pgn_node_child(pgn_game_root(g)); node;
         node = pgn_node_child(node)) {
        for (size_t i = 0; i < pgn_node_nag_count(node) && n < cap; i++) {
            out[n++] = pgn_node_nag(node, i);
        }
        if (n < cap) {
            out[n++] = 999;
        }
    }
    return n;
}

/* Every NAG after a White and after a Black move, before and after another NAG ($1 first, so
 * that it is glued), written as symbols and read again. */
static void test_symbol_round_trip(void) {
    pgn_game *g1, *g2;
    pgn_writer *w;
    pgn_writer_opts o;
    memset(&o, 0, sizeof o);
    o.nag_style = PGN_NAG_STYLE_SYMBOL;
    CHECK_EQ_INT(pgn_game_new(&g1, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g2, NULL), PGN_OK);
    for (unsigned n = 0; n < 256; n++) {
        char text[128];
        buf s = {NULL, 0, 0};
        unsigned a[16], b[16];
        size_t na, nb;
        unsigned m = (n * 37 + 11) % 256;
        int len = snprintf(text, sizeof text, "1. e4 $%u $%u e5 $1 $%u 2. Nf3 $%u $%u Nc6 $%u *", n,
                           m, n, m, n, n);
        CHECK_EQ_U64(read_game(text, (size_t)len, g1), 0);
        CHECK_EQ_INT(pgn_writer_new(&w, &o, buf_write, &s), PGN_OK);
        CHECK_EQ_INT(pgn_writer_write(w, g1), PGN_OK);
        pgn_writer_free(w);
        read_game(s.p, s.len, g2);
        na = main_line_nags(g1, a, 16);
        nb = main_line_nags(g2, b, 16);
        CHECK_EQ_U64(na, nb);
        if (na == nb && memcmp(a, b, na * sizeof a[0]) != 0) {
            harness_fail(__FILE__, __LINE__, "NAG %u/%u: symbols do not read back: %s", n, m, s.p);
        }
        free(s.p);
    }
    pgn_game_free(g1);
    pgn_game_free(g2);
}

int main(void) {
    seed_row *rows = calloc(256, sizeof *rows);
    pgn_nag_class group[256];
    const char *path = harness_shared(SEED);
    char *text = buf_read_file(path, NULL);
    for (int i = 0; i < 256; i++) {
        group[i] = (pgn_nag_class)-1;
    }
    if (rows == NULL || text == NULL) {
        harness_fail(__FILE__, __LINE__, "cannot read the NAG document %s", path);
    } else {
        /* 140 standard lines; 29 ChessPad lines, two of them ranges ("$147-$219") */
        CHECK_EQ_INT(parse_seed(text, rows, group), 169);
        test_rows(rows, group);
    }
    test_lookup();
    test_write_symbol();
    test_symbol_round_trip();
    free(text);
    free(rows);
    return harness_finish();
}
