/* SPDX-License-Identifier: MIT */
/* Piece letters of other languages (PGN §17, the standard's table, plus the common Cyrillic set)
 * and figurines (§8.2.3): a move in another language is rewritten with English letters and read
 * by pgn_san_parse, so every rule of SAN (and its lax forms) holds in every language; the fast
 * path for English is not touched. Tables are const (no state). docs/notation.md */
#include "pgnkit/chess.h"

#include <assert.h>
#include <string.h>

typedef struct lang_info {
    const char *code, *name;
    const char *letters[6]; /* pawn knight bishop rook queen king, UTF-8 */
} lang_info;

/* The order of pgn_lang. */
static const lang_info langs[PGN_LANG_COUNT] = {
    {"en", "English", {"P", "N", "B", "R", "Q", "K"}},
    {"cs", "Czech", {"P", "J", "S", "V", "D", "K"}},
    {"da", "Danish", {"B", "S", "L", "T", "D", "K"}},
    {"nl", "Dutch", {"O", "P", "L", "T", "D", "K"}},
    {"et", "Estonian", {"P", "R", "O", "V", "L", "K"}},
    {"fi", "Finnish", {"P", "R", "L", "T", "D", "K"}},
    {"fr", "French", {"P", "C", "F", "T", "D", "R"}},
    {"de", "German", {"B", "S", "L", "T", "D", "K"}},
    {"hu", "Hungarian", {"G", "H", "F", "B", "V", "K"}},
    {"is", "Icelandic", {"P", "R", "B", "H", "D", "K"}},
    {"it", "Italian", {"P", "C", "A", "T", "D", "R"}},
    {"no", "Norwegian", {"B", "S", "L", "T", "D", "K"}},
    {"pl", "Polish", {"P", "S", "G", "W", "H", "K"}},
    {"pt", "Portuguese", {"P", "C", "B", "T", "D", "R"}},
    {"ro", "Romanian", {"P", "C", "N", "T", "D", "R"}},
    {"es", "Spanish", {"P", "C", "A", "T", "D", "R"}},
    {"sv", "Swedish", {"B", "S", "L", "T", "D", "K"}},
    /* п К С Л Ф Кр */
    {"ru",
     "Russian",
     {"\xD0\xBF", "\xD0\x9A", "\xD0\xA1", "\xD0\x9B", "\xD0\xA4", "\xD0\x9A\xD1\x80"}},
    /* ♙ ♘ ♗ ♖ ♕ ♔ */
    {"figurine",
     "figurine",
     {"\xE2\x99\x99", "\xE2\x99\x98", "\xE2\x99\x97", "\xE2\x99\x96", "\xE2\x99\x95",
      "\xE2\x99\x94"}},
    /* descriptive notation (descriptive.c): the letters of its pieces */
    {"descriptive", "descriptive", {"P", "N", "B", "R", "Q", "K"}},
    {"descriptive:es", "Spanish descriptive", {"P", "C", "A", "T", "D", "R"}},
    {"descriptive:pt", "Portuguese descriptive", {"P", "C", "B", "T", "D", "R"}},
};

/* Other names people give: the English names are matched case-insensitively. */
static const struct {
    const char *name;
    pgn_lang lang;
} aliases[] = {{"cyrillic", PGN_LANG_RUSSIAN},
               {"fan", PGN_LANG_FIGURINE},
               {"figurines", PGN_LANG_FIGURINE},
               {"nb", PGN_LANG_NORWEGIAN},
               {"se", PGN_LANG_SWEDISH},
               {"cz", PGN_LANG_CZECH},
               {"descriptive:en", PGN_LANG_DESCRIPTIVE},
               {"descriptive:it", PGN_LANG_DESCRIPTIVE_ES}};

static int same_ci(const char *a, const char *b) {
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a + 32) : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b + 32) : *b;
        if (x != y) {
            return 0;
        }
    }
    return *a == *b;
}

int pgn_lang_from_name(const char *name, pgn_lang *out) {
    assert(name && out);
    for (int i = 0; i < PGN_LANG_COUNT; i++) {
        if (same_ci(name, langs[i].code) || same_ci(name, langs[i].name)) {
            *out = (pgn_lang)i;
            return 1;
        }
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (same_ci(name, aliases[i].name)) {
            *out = aliases[i].lang;
            return 1;
        }
    }
    return 0;
}

const char *pgn_lang_name(pgn_lang lang) {
    return (unsigned)lang < PGN_LANG_COUNT ? langs[lang].name : "unknown";
}

const char *pgn_lang_code(pgn_lang lang) {
    return (unsigned)lang < PGN_LANG_COUNT ? langs[lang].code : "unknown";
}

const char *pgn_lang_letter(pgn_lang lang, pgn_piece_type type) {
    assert((unsigned)lang < PGN_LANG_COUNT && type >= PGN_PAWN && type <= PGN_KING);
    return langs[lang].letters[type - PGN_PAWN];
}

int pgn_lang_same(pgn_lang a, pgn_lang b) {
    assert((unsigned)a < PGN_LANG_COUNT && (unsigned)b < PGN_LANG_COUNT);
    if (pgn_lang_is_descriptive(a) || pgn_lang_is_descriptive(b)) {
        return a == b; /* other moves than letters: English descriptive is no English SAN */
    }
    for (int k = 0; k < 6; k++) {
        const char *x = langs[a].letters[k], *y = langs[b].letters[k];
        if (x[0] != y[0] || strcmp(x, y) != 0) {
            return 0;
        }
    }
    return 1;
}

static const char english[] = "PNBRQK";

/* Castling (O-O, 0-0-0, o-o+) is the same in every language: its O is no piece letter, even where
 * O is one (Dutch pawn, Estonian bishop). So is the null move (--). */
static int castle_shaped(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (!strchr("Oo0-+#!?", s[i]) || s[i] == '\0') {
            return 0;
        }
    }
    return n > 0;
}

/* The piece type whose letter in lang starts s (n bytes), longest letter first (Кр before К), and
 * its length in *len; 0 if none. Figurines, black ones too, are read in every language. */
static int letter_at(pgn_lang lang, const char *s, size_t n, size_t *len) {
    int best = 0;
    size_t best_len = 0;
    if ((unsigned char)s[0] < 0x80) { /* one-byte letters: no strlen, no memcmp */
        *len = 1;
        for (int k = 0; k < 6; k++) {
            const char *l = langs[lang].letters[k];
            if (l[0] == s[0] && l[1] == '\0') {
                return k + 1;
            }
        }
        return 0;
    }
    for (int k = 0; k < 6; k++) {
        const char *l = langs[lang].letters[k];
        size_t m = strlen(l);
        if (m > best_len && m <= n && memcmp(s, l, m) == 0) {
            best = k + 1;
            best_len = m;
        }
    }
    /* U+2654..U+265F: white king..pawn, then black king..pawn */
    if (!best && n >= 3 && (unsigned char)s[0] == 0xE2 && (unsigned char)s[1] == 0x99 &&
        (unsigned char)s[2] >= 0x94 && (unsigned char)s[2] <= 0x9F) {
        best = 6 - ((unsigned char)s[2] - 0x94) % 6;
        best_len = 3;
    }
    *len = best_len;
    return best;
}

/* Rewrites s in lang with English letters into out (cap bytes); returns the length or 0 when s
 * holds something lang does not write: another uppercase letter, or a byte >= 0x80 that is no
 * piece. English keeps its own lax forms (lowercase pieces, Z0); other languages take only files,
 * ranks, x, the promotion and check marks and their own letters. */
static size_t to_english(pgn_lang lang, const char *s, size_t n, char *out, size_t cap) {
    if (castle_shaped(s, n)) {
        if (n > cap) {
            return 0;
        }
        memcpy(out, s, n);
        return n;
    }
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t m;
        int type = letter_at(lang, s + i, n - i, &m);
        char c = s[i];
        if (o == cap) {
            return 0;
        }
        if (type) {
            out[o++] = english[type - 1];
            i += m;
            continue;
        }
        if ((unsigned char)c >= 0x80 || c == '\0') {
            return 0;
        }
        if (lang != PGN_LANG_ENGLISH && lang != PGN_LANG_FIGURINE && c >= 'A' && c <= 'Z') {
            return 0; /* a letter of another language */
        }
        if (lang != PGN_LANG_ENGLISH && lang != PGN_LANG_FIGURINE && c >= 'i' && c <= 'z' &&
            c != 'x') {
            return 0; /* nf3 is English's lax form, not this language's */
        }
        out[o++] = c;
        i++;
    }
    return o;
}

pgn_status pgn_san_parse_lang(const pgn_pos *pos, pgn_lang lang, const char *san, size_t len,
                              uint32_t flags, pgn_san_result *out) {
    assert(pos && out && (unsigned)lang < PGN_LANG_COUNT);
    if (pgn_lang_is_descriptive(lang)) {
        out->warnings = 0;
        out->move = PGN_MOVE_NONE;
        return pgn_desc_parse(pos, lang, san, len, NULL, &out->move);
    }
    char buf[64];
    size_t n = len <= sizeof buf * 2 ? to_english(lang, san, len, buf, sizeof buf) : 0;
    if (n == 0) {
        return PGN_E_BAD_SAN;
    }
    return pgn_san_parse(pos, buf, n, flags, out);
}

size_t pgn_san_translate(pgn_lang lang, const char *san, size_t len, char *buf, size_t cap) {
    assert((unsigned)lang < PGN_LANG_COUNT && buf);
    size_t o = 0;
    if (pgn_lang_is_descriptive(lang)) {
        return 0; /* needs the position: pgn_desc_write */
    }
    int castle = castle_shaped(san, len);
    for (size_t i = 0; i < len; i++) {
        const char *p = castle ? NULL : strchr(english, san[i]);
        const char *l = p && san[i] ? langs[lang].letters[p - english] : NULL;
        size_t m = l ? strlen(l) : 1;
        if (o + m >= cap) {
            return 0;
        }
        memcpy(buf + o, l ? l : san + i, m);
        o += m;
    }
    buf[o] = '\0';
    return o;
}
