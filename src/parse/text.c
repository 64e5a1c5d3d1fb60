/* SPDX-License-Identifier: MIT */
/* Text of tag values and comments: PGN §7 string escapes (\" and \\), and the encodings found in
 * real files: UTF-8 passes through; other text is CP437 or Windows-1252 (which reads Latin-1 text
 * the same), told apart by its bytes (docs/pgn-dialect.md, "Encodings"), or as asked; it is
 * converted to UTF-8 (digest §1). */
#include "parse.h"

#include "../base/utf8.h"

#include <assert.h>
#include <string.h>

/* Code points of bytes 0x80-0xFF in Windows-1252 (undefined bytes map as Latin-1) and CP437. */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
static const uint16_t cp437_high[128] = {
    0x00C7, 0x00FC, 0x00E9, 0x00E2, 0x00E4, 0x00E0, 0x00E5, 0x00E7, 0x00EA, 0x00EB, 0x00E8, 0x00EF,
    0x00EE, 0x00EC, 0x00C4, 0x00C5, 0x00C9, 0x00E6, 0x00C6, 0x00F4, 0x00F6, 0x00F2, 0x00FB, 0x00F9,
    0x00FF, 0x00D6, 0x00DC, 0x00A2, 0x00A3, 0x00A5, 0x20A7, 0x0192, 0x00E1, 0x00ED, 0x00F3, 0x00FA,
    0x00F1, 0x00D1, 0x00AA, 0x00BA, 0x00BF, 0x2310, 0x00AC, 0x00BD, 0x00BC, 0x00A1, 0x00AB, 0x00BB,
    0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561, 0x2562, 0x2556, 0x2555, 0x2563, 0x2551, 0x2557,
    0x255D, 0x255C, 0x255B, 0x2510, 0x2514, 0x2534, 0x252C, 0x251C, 0x2500, 0x253C, 0x255E, 0x255F,
    0x255A, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256C, 0x2567, 0x2568, 0x2564, 0x2565, 0x2559,
    0x2558, 0x2552, 0x2553, 0x256B, 0x256A, 0x2518, 0x250C, 0x2588, 0x2584, 0x258C, 0x2590, 0x2580,
    0x03B1, 0x00DF, 0x0393, 0x03C0, 0x03A3, 0x03C3, 0x00B5, 0x03C4, 0x03A6, 0x0398, 0x03A9, 0x03B4,
    0x221E, 0x03C6, 0x03B5, 0x2229, 0x2261, 0x00B1, 0x2265, 0x2264, 0x2320, 0x2321, 0x00F7, 0x2248,
    0x00B0, 0x2219, 0x00B7, 0x221A, 0x207F, 0x00B2, 0x25A0, 0x00A0};

int pgn_encoding_from_name(const char *name, pgn_encoding *out) {
    static const struct {
        const char *name;
        pgn_encoding enc;
    } names[] = {{"auto", PGN_ENC_AUTO},     {"utf-8", PGN_ENC_UTF8},
                 {"utf8", PGN_ENC_UTF8},     {"latin-1", PGN_ENC_LATIN1},
                 {"latin1", PGN_ENC_LATIN1}, {"iso-8859-1", PGN_ENC_LATIN1},
                 {"cp1252", PGN_ENC_CP1252}, {"windows-1252", PGN_ENC_CP1252},
                 {"cp437", PGN_ENC_CP437}};
    assert(name != NULL && out != NULL);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].enc;
            return 1;
        }
    }
    return 0;
}

int pgnk_scratch_put(pgn_reader *r, scratch *buf, const char *s, size_t len) {
    if (len > SIZE_MAX / 2 - buf->len) {
        r->nomem = 1;
        return 0;
    }
    if (buf->len + len + 1 > buf->cap) {
        void *p = buf->ptr;
        if (!pgnk_grow(&r->alloc, &p, &buf->cap, buf->len + len + 1, 1, 256)) {
            r->nomem = 1;
            return 0;
        }
        buf->ptr = p;
    }
    if (len) {
        memcpy(buf->ptr + buf->len, s, len);
    }
    buf->len += len;
    buf->ptr[buf->len] = 0;
    return 1;
}

/* What a byte 0x80-0xFF is: a letter in CP437 or in Windows-1252/Latin-1, punctuation in
 * Windows-1252/Latin-1, or undefined in Windows-1252 (0x81, 0x8D, 0x8F, 0x90, 0x9D). */
enum { B_437 = 1, B_1252 = 2, B_PUNCT = 4, B_NOT_1252 = 8 };
static unsigned byte_class(unsigned c) {
    unsigned k = 0;
    if ((c <= 0xA5 && (c < 0x9B || c > 0x9E)) || c == 0xE1) {
        k |= B_437; /* Ç ü é ... Ö Ü, ƒ á í ó ú ñ Ñ, ß */
    }
    if (c == 0x8A || c == 0x8C || c == 0x8E || c == 0x9A || c == 0x9C || c == 0x9E || c == 0x9F ||
        c == 0xAA || c == 0xB5 || c == 0xBA || (c >= 0xC0 && c != 0xD7 && c != 0xF7)) {
        k |= B_1252; /* Š Œ Ž š œ ž Ÿ ª µ º À-ÿ */
    } else if (c == 0x81 || c == 0x8D || c == 0x8F || c == 0x90 || c == 0x9D) {
        k |= B_NOT_1252;
    } else if (c != 0x83 && (c < 0xC0)) {
        k |= B_PUNCT; /* € ‚ „ … † ‡ ‰ ‹ ‘ ’ “ ” • – — ™ › and Latin-1's symbols ° ± ½ ... */
    }
    return k;
}

static int word_byte(const unsigned char *p, size_t i, size_t len) {
    if (i >= len) {
        return 0;
    }
    unsigned c = p[i] | 0x20;
    return (c >= 'a' && c <= 'z') || p[i] >= 0x80;
}

/* The encoding the bytes of s tell (not UTF-8): CP437 or Windows-1252, PGN_ENC_AUTO when they
 * cannot tell. */
static pgn_encoding text_votes(const char *s, size_t len) {
    /* votes: a letter counts where a word goes on on at least one side of it; a punctuation
     * mark of Windows-1252 where it does not join two letters; an opening quote (‚ „ ‘ “) only
     * after no letter, a closing one (” ›) only before none: Andr\x82 is CP437's é, not ‚; a tie
     * (M\xE1laga: á or ß) goes as the last text that told, else to Windows-1252 */
    const unsigned char *p = (const unsigned char *)s;
    unsigned v437 = 0, v1252 = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned c = p[i];
        if (c < 0x80) {
            continue;
        }
        unsigned k = byte_class(c);
        int before = i > 0 && word_byte(p, i - 1, len), after = word_byte(p, i + 1, len);
        if (k & B_NOT_1252) {
            return PGN_ENC_CP437;
        }
        v437 += (k & B_437) && (before || after);
        v437 += (c == 0xAB || c == 0xAC) && !(before && after); /* CP437's ½ ¼: "½final" */
        v1252 += (k & B_1252) && (before || after);
        if (k & B_PUNCT) {
            int opening = c == 0x82 || c == 0x84 || c == 0x91 || c == 0x93;
            int closing = c == 0x94 || c == 0x9B;
            v1252 += opening ? !before : closing ? !after : !(before && after);
        }
    }
    return v437 == v1252 ? PGN_ENC_AUTO : v437 > v1252 ? PGN_ENC_CP437 : PGN_ENC_CP1252;
}

/* A text that cannot tell: read as the last one that told, else as Windows-1252; noted when no
 * text of this reader has told (it was read in the state the reader was given). */
static pgn_encoding undecided(pgn_reader *r) {
    r->enc_assumed |= !r->enc_told;
    return r->enc_seen ? (pgn_encoding)r->enc_seen : PGN_ENC_CP1252;
}

pgn_encoding pgnk_text_encoding(pgn_reader *r, const char *s, size_t len) {
    pgn_encoding enc = r->opts.encoding;
    if (enc != PGN_ENC_AUTO) {
        return enc;
    }
    enc = text_votes(s, len);
    return enc != PGN_ENC_AUTO ? enc : undecided(r);
}

pgn_encoding_state pgn_reader_encoding_state(const pgn_reader *r) {
    pgn_encoding_state st = {(pgn_encoding)r->enc_seen, r->enc_told, r->enc_assumed};
    return st;
}

void pgn_reader_set_encoding_state(pgn_reader *r, pgn_encoding last) {
    r->enc_seen = (uint8_t)(last == PGN_ENC_CP437 || last == PGN_ENC_CP1252 ? last : PGN_ENC_AUTO);
}

static unsigned code_point(unsigned char c, pgn_encoding enc) {
    if (c < 0x80) {
        return c;
    }
    if (enc == PGN_ENC_CP437) {
        return cp437_high[c - 0x80];
    }
    if (enc != PGN_ENC_LATIN1 && c < 0xA0) {
        return cp1252_high[c - 0x80];
    }
    return c;
}

int pgnk_text_append_converted(pgn_reader *r, scratch *buf, const char *s, size_t len,
                               pgn_encoding enc) {
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && (unsigned char)s[j] < 0x80) {
            j++;
        }
        if (!pgnk_scratch_put(r, buf, s + i, j - i)) {
            return 0;
        }
        if (j == len) {
            break;
        }
        char u[4];
        size_t n = pgnk_utf8_encode(code_point((unsigned char)s[j], enc), u);
        if (!pgnk_scratch_put(r, buf, u, n)) {
            return 0;
        }
        i = j + 1;
    }
    return 1;
}

void pgnk_text_excerpt(pgn_reader *r, char *out, size_t cap, const char *s, size_t len) {
    pgn_encoding enc = PGN_ENC_UTF8;
    if (!pgnk_utf8_valid(s, len) && (enc = pgnk_text_encoding(r, s, len)) != PGN_ENC_UTF8) {
        size_t n = 0;
        for (size_t i = 0; i < len; i++) { /* every byte one character of the 8-bit encoding */
            char u[4];
            size_t k = pgnk_utf8_encode(code_point((unsigned char)s[i], enc), u);
            if (n + k > cap - 1) {
                break;
            }
            memcpy(out + n, u, k);
            n += k;
        }
        out[n] = 0;
        return;
    }
    pgnk_utf8_excerpt(out, cap, s, len); /* UTF-8, or asked for: stray bytes become U+FFFD */
}

/* Appends the encoded text, converting if it is not UTF-8 (once-per-game warning). */
static int put_text(pgn_reader *r, scratch *out, const char *s, size_t len, const token *t) {
    pgn_encoding enc = r->opts.encoding;
    if (!t->high || enc == PGN_ENC_UTF8 || (enc == PGN_ENC_AUTO && pgnk_utf8_valid(s, len))) {
        return pgnk_scratch_put(r, out, s, len);
    }
    if (enc == PGN_ENC_AUTO) {
        enc = text_votes(s, len);
        r->enc_told |= enc != PGN_ENC_AUTO;
        enc = enc != PGN_ENC_AUTO ? enc : undecided(r);
        r->enc_seen = (uint8_t)enc;
        if (!r->encoding_warned) {
            r->encoding_warned = 1;
            pgnk_reader_diag(r, PGN_W_ENCODING, t->at, t->ptr, t->len);
        }
    }
    return pgnk_text_append_converted(r, out, s, len, enc);
}

int pgnk_text_decode(pgn_reader *r, scratch *out, const token *t, int tag_value) {
    out->len = 0;
    if (!pgnk_scratch_put(r, out, "", 0)) {
        return 0;
    }
    if (!tag_value) {
        return put_text(r, out, t->ptr, t->len, t);
    }
    /* resolve \" and \\; keep other backslashes literally (digest §5.2) */
    size_t plain = 0;
    while (plain < t->len && t->ptr[plain] != '\\' && t->ptr[plain] != '\t' &&
           t->ptr[plain] != '\n' && t->ptr[plain] != '\r') {
        plain++;
    }
    if (plain == t->len) {
        return put_text(r, out, t->ptr, t->len, t); /* nothing to resolve: the common case */
    }
    scratch *tmp = &r->text;
    tmp->len = 0;
    int warned_escape = 0, warned_space = 0;
    for (size_t i = 0; i < t->len; i++) {
        char c = t->ptr[i];
        if (c == '\\' && i + 1 < t->len && (t->ptr[i + 1] == '"' || t->ptr[i + 1] == '\\')) {
            c = t->ptr[++i];
        } else if (c == '\\' && !warned_escape) {
            warned_escape = 1;
            pgnk_reader_diag(r, PGN_W_STRING_ESCAPE, t->at, t->ptr, t->len);
        } else if (c == '\t' || c == '\n' || c == '\r') {
            if (!warned_space) {
                warned_space = 1;
                pgnk_reader_diag(r, PGN_W_TAG_VALUE, t->at, t->ptr, t->len);
            }
            c = ' ';
        }
        if (!pgnk_scratch_put(r, tmp, &c, 1)) {
            return 0;
        }
    }
    return put_text(r, out, tmp->ptr ? tmp->ptr : "", tmp->len, t);
}
