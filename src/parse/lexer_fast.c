/* SPDX-License-Identifier: MIT */
/* The lexer's look-aheads and skips for the reader, beside the token scanner (lexer.c): the
 * UTF-16 BOM test, the range start, the inert-line skip of a skipped game, the tag-pair and lax
 * tag-value look-aheads. */
#include "lexer.h"
#include "tag_skip.h"

#include "../base/bits.h"
#include "../base/table.h"

#include <string.h>
#if defined(__SSE2__)
#include "bytes16.h" /* the skip's 16-byte search (x86-64 always has SSE2) */
#endif

int pgnk_lexer_utf16_bom(lexer *lx) {
    size_t i = lx->pos, j;
    if (lx->base + i != 0 || !lexer_have(lx, &i)) {
        return 0;
    }
    unsigned char c = (unsigned char)lx->buf[i];
    j = i + 1;
    if ((c != 0xFF && c != 0xFE) || !lexer_have(lx, &j)) {
        return 0;
    }
    return (unsigned char)lx->buf[j] == (c ^ 0x01u); /* FF FE (LE) or FE FF (BE) */
}

int pgnk_lexer_skip_to_range_start(lexer *lx, uint64_t end) {
    size_t i = lx->pos;
    uint64_t cr_end = UINT64_MAX;
    int first = 1, late = 0;       /* first: the partial line the range starts in */
    int blank = 1, prev_blank = 0; /* the current line and the one before hold only spaces */
    lexer_ws ws = {UINT64_MAX, UINT64_MAX}; /* as skip_space notes it */
    int found = 0;
    for (;;) {
        lx->pos = i;
        set_keep(lx, lx->base + i);
        if (!lexer_have(lx, &i)) {
            break;
        }
        unsigned char c = (unsigned char)lx->buf[i];
        if (c == '\n' && cr_end == lx->base + i) {
            lexer_count_newline(lx, lx->base + i, c, &cr_end); /* the LF of a CRLF */
            ws.brk = lx->base + i;
        } else if (c == '\n' || c == '\r') {
            /* an empty line before a boundary must be whole: the partial first line never counts
             * (its start is unseen; the reader before this range reads the game after it) */
            prev_blank = !first && blank;
            first = 0;
            blank = 1;
            lexer_count_newline(lx, lx->base + i, c, &cr_end);
            ws.brk_prev = ws.brk;
            ws.brk = lx->base + i;
            if (end && lx->base + i >= end && late++) {
                break; /* a boundary after this break would end the range before its game */
            }
        } else if (!(char_class(c) & C_SPACE)) {
            if (!first && blank && c == '[' && prev_blank) {
                uint64_t at = lx->base + i; /* kept: the look-ahead may move the window */
                found = pgnk_lexer_tag_line_ahead(lx, i);
                i = (size_t)(at - lx->base);
                if (found) {
                    /* the token keeps the white space before it, which the reader's range end
                     * reads (reader.c, find_next_game) */
                    lx->ws = ws;
                    lx->ws_again_at = at;
                    break;
                }
            }
            blank = 0;
            ws.brk = ws.brk_prev = UINT64_MAX;
        }
        i++;
    }
    lx->pos = i;
    lx->at_line_start = 1;
    lx->last_cr = cr_end == lx->line_off;
    return found;
}

int pgnk_lexer_range_boundary(lexer *lx, uint64_t off, uint64_t end) {
    if (!end || lx->ws.brk_prev == UINT64_MAX || lx->ws.brk_prev < end) {
        return 0;
    }
    if (off < lx->keep) {
        lx->keep = off; /* the look-ahead may move the window; the reader goes back to the [ */
    }
    return pgnk_lexer_tag_line_ahead(lx, (size_t)(off - lx->base));
}

pgn_str pgnk_lexer_span(const lexer *lx, uint64_t from, uint64_t to) {
    pgn_str s;
    s.ptr = lx->buf + (size_t)(from - lx->base);
    s.len = (size_t)(to - from);
    return s;
}

/* Is byte i (in the window) the start of a line that looks like a tag line ([ after blanks)? 1 yes,
 * 0 no, -1 the window ends first. */
static int tag_line_in_window(const lexer *lx, size_t i) {
    while (i < lx->len && (lx->buf[i] == ' ' || lx->buf[i] == '\t')) {
        i++;
    }
    return i >= lx->len ? -1 : lx->buf[i] == '[';
}

/* What the fast skip does at each byte: most bytes, white space included, belong to tokens that are
 * inert in a skipped line whatever the token (K_TOKEN); a few need a look. Bytes >= 0x80 and NUL
 * stop it (K_STOP), as do [ ( ) * and ". */
enum { K_TOKEN = 0, K_LF, K_CR, K_BRACE, K_SEMI, K_DASH, K_STOP };
#define SKIP_CLASS(c)                                                                              \
    ((c) == '\n'                ? K_LF                                                             \
     : (c) == '\r'              ? K_CR                                                             \
     : (c) == '{'               ? K_BRACE                                                          \
     : (c) == ';'               ? K_SEMI                                                           \
     : (c) == '-' || (c) == '/' ? K_DASH                                                           \
     : (c) == 0 || (c) >= 0x80 || (c) == '[' || (c) == '(' || (c) == ')' || (c) == '*' ||          \
             (c) == '"'                                                                            \
         ? K_STOP                                                                                  \
         : K_TOKEN)
static const uint8_t skip_class[256] = {PGNK_TABLE256(SKIP_CLASS)};
#undef SKIP_CLASS

/* The first byte at or after i (before len) whose skip_class is not K_TOKEN, or len; with SSE2,
 * 16 bytes at a time: a byte below 0x20 or above 0x7F (one signed compare) or one of " ( ) * - / ;
 * [ { is a candidate, which the table decides (a tab, a control byte: K_TOKEN after all). */
static inline size_t skip_tokens(const unsigned char *b, size_t i, size_t len) {
#if defined(__SSE2__)
    for (; len - i >= 16; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
        __m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), pgnk_in16(v, '(', 2));
        m = _mm_or_si128(m, pgnk_eq16_any4(v, '"', '-', '/', ';'));
        m = _mm_or_si128(m, _mm_or_si128(pgnk_eq16(v, '['), pgnk_eq16(v, '{')));
        for (unsigned bits = (unsigned)_mm_movemask_epi8(m); bits; bits &= bits - 1) {
            size_t k = i + (size_t)__builtin_ctz(bits);
            if (skip_class[b[k]] != K_TOKEN) {
                return k;
            }
        }
    }
#endif
    while (i < len && skip_class[b[i]] == K_TOKEN) {
        i++;
    }
    return i;
}

/* Is the window byte i preceded on its line by white space only? 1 yes, 0 no, -1 the line starts
 * before the window, so the bytes that would tell are gone. */
static int only_space_before(const lexer *lx, size_t i, uint64_t line_off) {
    while (i > 0 && lx->base + i > line_off && (lx->buf[i - 1] == ' ' || lx->buf[i - 1] == '\t')) {
        i--;
    }
    if (lx->base + i == line_off) {
        return 1;
    }
    return i == 0 ? -1 : 0;
}

/* The fast skip's state: where it is (line, line_off) and the last commit point, the last place
 * passed where a token boundary is known (after a line break, before a { ; or stop byte, after a
 * comment), with the line state there. */
typedef struct skip_state {
    size_t commit;
    uint32_t line, c_line;
    uint64_t line_off, c_line_off;
    int c_at_start;
    int quiet;      /* the bytes from the commit on are a comment's */
    skip_mark last; /* the last commit before one that ends bytes other than blanks and comments:
                     * the last tokens passed come after it (tag_skip.h) */
    const unsigned char *b;
} skip_state;

static inline void skip_commit(skip_state *s, size_t i, int at_start) {
    size_t j = s->commit;
    while (j < i && (s->b[j] == ' ' || s->b[j] == '\t' || s->b[j] == '\n' || s->b[j] == '\r')) {
        j++;
    }
    if (!s->quiet && j < i) {
        s->last = (skip_mark){s->commit, s->c_line, s->c_line_off};
    }
    s->quiet = 0;
    s->commit = i;
    s->c_line = s->line;
    s->c_line_off = s->line_off;
    s->c_at_start = at_start;
}

/* A - or / at i in a symbol with a digit before it: perhaps a termination marker (1-0, 0-1,
 * 1/2-1/2); castling and null moves have none. */
static inline int dash_after_digit(const lexer *lx, size_t i) {
    const unsigned char *b = (const unsigned char *)lx->buf;
    int digit = 0;
    while (i > lx->pos && (char_class(b[i - 1]) & C_SYM)) {
        digit |= (char_class(b[--i]) & C_DIGIT) != 0;
    }
    return digit;
}

/* A - at i beside + or : : perhaps ChessBase's forfeit marker (+--, --+, +:-, -:+), which ends a
 * game as a read does (issue 28 point 7). */
static inline int forfeit_dash(const lexer *lx, size_t i) {
    const unsigned char *b = (const unsigned char *)lx->buf;
    int after = i + 1 < lx->len && (b[i + 1] == '+' || b[i + 1] == ':');
    return after || (i > 0 && (b[i - 1] == '+' || b[i - 1] == ':'));
}

/* The line break (class k) at i: the index past it, or 0 when the byte-wise path must take it
 * (a CR at the window's end; an empty line, after which a game without tags may start; an escape
 * line). */
static inline size_t skip_line_break(const lexer *lx, size_t i, unsigned k) {
    const unsigned char *b = (const unsigned char *)lx->buf;
    size_t j = i + 1, len = lx->len;
    if (k == K_CR) {
        if (j >= len) {
            return 0;
        }
        j += b[j] == '\n';
    }
    size_t e = j;
    while (e < len && (b[e] == ' ' || b[e] == '\t')) {
        e++;
    }
    return e >= len || b[e] == '\n' || b[e] == '\r' || b[j] == '%' ? 0 : j;
}

/* A comment at i that ends in the window, without a CR or a line that could be a tag: the index
 * past its }, counting its lines into s; 0 otherwise. */
static inline size_t skip_comment(const lexer *lx, size_t i, skip_state *s) {
    const unsigned char *b = (const unsigned char *)lx->buf;
    size_t j = i + 1, len = lx->len;
    while (j < len && b[j] != '}') {
        if (b[j] == '\r' || (b[j] == '\n' && tag_line_in_window(lx, j + 1) != 0)) {
            return 0;
        }
        if (b[j] == '\n') {
            s->line++;
            s->line_off = lx->base + j + 1;
        }
        j++;
    }
    return j < len ? j + 1 : 0;
}

/* A ; glued to the token before it may be part of it (a run of stray bytes). */
static inline int glued_semicolon(const lexer *lx, size_t i) {
    if (i <= lx->pos) {
        return 0;
    }
    unsigned char p = (unsigned char)lx->buf[i - 1];
    return p != ' ' && p != '\t' && p != '}' && p != '\n' && p != '\r';
}

/* The fast skip's state at lx->pos. */
static inline skip_state skip_start(const lexer *lx) {
    size_t i = lx->pos;
    return (skip_state){.commit = i,
                        .line = lx->line,
                        .c_line = lx->line,
                        .line_off = lx->line_off,
                        .c_line_off = lx->line_off,
                        .c_at_start = lx->at_line_start,
                        .last = {i, lx->line, lx->line_off},
                        .b = (const unsigned char *)lx->buf};
}

/* Moves the lexer to the commit point: 1, or 0 if the skip passed nothing. */
static inline int skip_apply(lexer *lx, const skip_state *s) {
    if (s->commit == lx->pos) {
        return 0;
    }
    lx->pos = s->commit;
    lx->line = s->c_line;
    lx->line_off = s->c_line_off;
    lx->at_line_start = (uint8_t)s->c_at_start;
    lx->last_cr = 0;
    set_keep(lx, lx->base + s->commit);
    return 1;
}

/* A byte >= 0x80 right after another byte (a result written with an en dash, a figurine move,
 * stray text): no boundary the inert skip can tell, so it stops before it and the byte-wise path
 * reads on from the last commit. */
static inline int glued_high_byte(const unsigned char *b, size_t i) {
    return b[i] >= 0x80 && (i == 0 || !(b[i - 1] == ' ' || b[i - 1] == '\t' || b[i - 1] == '\n' ||
                                        b[i - 1] == '\r'));
}

int pgnk_lexer_skip_inert(lexer *lx, token *tail) {
    const unsigned char *b = (const unsigned char *)lx->buf;
    size_t i = lx->pos, len = lx->len;
    tail->kind = TOK_EOF;
    if (lx->last_cr || lx->base + i == 0 || lx->nested_comments || i >= len ||
        (b[i] == '%' && lx->base + i == lx->line_off)) {
        return 0; /* the LF of a CRLF split by a refill, a BOM, nesting, an escape line */
    }
    /* stopping early is always correct: the byte-wise path reads the same tokens from the commit */
    skip_state s = skip_start(lx);
    for (;;) {
        if ((i = skip_tokens(b, i, len)) >= len) {
            break;
        }
        unsigned k = skip_class[b[i]];
        if (k == K_DASH) {
            if (dash_after_digit(lx, i) || forfeit_dash(lx, i)) {
                break;
            }
            i++;
        } else if (k == K_LF || k == K_CR) {
            if ((i = skip_line_break(lx, i, k)) == 0) {
                break;
            }
            s.line++;
            s.line_off = lx->base + i;
            skip_commit(&s, i, 1);
        } else if (k == K_SEMI && glued_semicolon(lx, i)) {
            break;
        } else if (glued_high_byte(b, i)) {
            break;
        } else {
            int at_start = only_space_before(lx, i, s.line_off);
            if (at_start < 0) {
                break; /* unknown: the byte-wise path decides */
            }
            skip_commit(&s, i, at_start);
            s.quiet = k == K_BRACE || k == K_SEMI;
            if (k == K_BRACE) {
                if ((i = skip_comment(lx, i, &s)) == 0) {
                    break;
                }
                skip_commit(&s, i, 0);
            } else if (k == K_SEMI) {
                while (i < len && b[i] != '\n' && b[i] != '\r') {
                    i++;
                }
            } else {
                break; /* [ ( ) * " NUL and bytes >= 0x80: the byte-wise path */
            }
        }
    }
    if (!pgnk_skip_tail_next(lx, s.commit)) {
        skip_mark start = {lx->pos, lx->line, lx->line_off};
        pgnk_skip_tail(lx, &start, &s.last, s.commit, tail);
    }
    return skip_apply(lx, &s);
}

static size_t skip_blanks(const unsigned char *b, size_t i, size_t len) {
    while (i < len && (b[i] == ' ' || b[i] == '\t')) {
        i++;
    }
    return i;
}

/* The bytes of a tag name (letters, digits, '_') and of a plain tag value (printable ASCII but
 * '"' and '\'), for the tag-pair fast path. */
enum { T_NAME = 1, T_VALUE = 2 };
#define TAG_NAME_BYTE(c)                                                                           \
    (((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || ((c) >= '0' && (c) <= '9') ||     \
     (c) == '_')
#define TAG_BYTE(c)                                                                                \
    (TAG_NAME_BYTE(c)                                         ? T_NAME | T_VALUE                   \
     : (c) >= 0x20 && (c) < 0x7f && (c) != '"' && (c) != '\\' ? T_VALUE                            \
                                                              : 0)
static const uint8_t tag_byte[256] = {PGNK_TABLE256(TAG_BYTE)};
#undef TAG_BYTE
#undef TAG_NAME_BYTE

#if defined(__SSE2__) && !defined(PGNKIT_PLAIN_BITS)
/* The tag scan's 16-byte steps (PGNKIT_PLAIN_BITS: the word and byte loops below alone). The end
 * of the name bytes from i, or i + 16 if all 16 are name bytes: letters (a byte or'ed with 0x20
 * in a..z), digits and '_'. */
static inline size_t name_end16(const unsigned char *b, size_t i) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
    __m128i name = _mm_or_si128(pgnk_in16(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 25),
                                _mm_or_si128(pgnk_in16(v, '0', 9), pgnk_eq16(v, '_')));
    unsigned other = ~(unsigned)_mm_movemask_epi8(name) & 0xFFFFu;
    return other ? i + bits_ctz(other) : i + 16;
}

/* The first byte from i that is no plain value byte, 16 at a time while the window holds them
 * (below 0x20 or from 0x80 on: one signed compare), then one by one. */
static size_t plain_value_end(const unsigned char *b, size_t i, size_t len) {
    for (; len - i >= 16; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
        __m128i stop = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), pgnk_eq16(v, 0x7f));
        stop = _mm_or_si128(stop, _mm_or_si128(pgnk_eq16(v, '"'), pgnk_eq16(v, '\\')));
        unsigned m = (unsigned)_mm_movemask_epi8(stop);
        if (m) {
            return i + bits_ctz(m);
        }
    }
    while (i < len && (tag_byte[b[i]] & T_VALUE)) {
        i++;
    }
    return i;
}
#else
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* The 8 bytes at p, the first one lowest, whatever the machine's byte order (compilers make one
 * load of it where the order is little-endian). */
static inline uint64_t load_le64(const unsigned char *p) {
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

/* The high bit of each byte of w that is no plain value byte, word-at-a-time. A flag may be set
 * wrongly only above a byte rightly flagged (borrows and carries run upwards), so the lowest flag
 * is exact. */
static inline uint64_t value_stops(uint64_t w) {
    uint64_t quote = w ^ (ONES * '"'), backslash = w ^ (ONES * '\\');
    uint64_t low = (w - ONES * 0x20) & ~w;         /* a byte < 0x20 */
    uint64_t high = w | (w + ONES);                /* a byte >= 0x7f */
    uint64_t q = (quote - ONES) & ~quote;          /* a '"' */
    uint64_t bs = (backslash - ONES) & ~backslash; /* a '\' */
    return (low | high | q | bs) & HIGHS;
}

/* The end of the plain value bytes from i: 8 at a time while the window holds them, then one by
 * one. */
static size_t plain_value_end(const unsigned char *b, size_t i, size_t len) {
    while (len - i >= 8) {
        uint64_t stops = value_stops(load_le64(b + i));
        if (stops) {
            return i + bits_ctz(stops) / 8;
        }
        i += 8;
    }
    while (i < len && (tag_byte[b[i]] & T_VALUE)) {
        i++;
    }
    return i;
}
#endif

/* The end of the name bytes from i. */
static inline size_t name_end(const unsigned char *b, size_t i, size_t len) {
#if defined(__SSE2__) && !defined(PGNKIT_PLAIN_BITS)
    for (size_t e; len - i >= 16; i = e) {
        if ((e = name_end16(b, i)) < i + 16) {
            return e;
        }
    }
#endif
    while (i < len && (tag_byte[b[i]] & T_NAME)) {
        i++;
    }
    return i;
}

size_t pgnk_lexer_peek_tag(const lexer *lx, lexer_tag *tag) {
    return lexer_peek_tag(lx, tag);
}

size_t pgnk_lexer_peek_tag_scan(const lexer *lx, lexer_tag *tag) {
    const unsigned char *b = (const unsigned char *)lx->buf;
    size_t len = lx->len;
    if (lx->last_cr || !b) {
        return 0;
    }
    size_t s = skip_blanks(b, lx->pos, len), i = name_end(b, s, len);
    if (i == s || i - s > 255 || i - s > lx->max_token) {
        return 0;
    }
    tag->name.ptr = lx->buf + s;
    tag->name.len = i - s;
    tag->name_at = lexer_loc_at(lx, s);
    i = skip_blanks(b, i, len);
    if (i >= len || b[i] != '"') {
        return 0;
    }
    tag->value_at = lexer_loc_at(lx, i);
    s = ++i;
    i = plain_value_end(b, i, len);
    if (i >= len || b[i] != '"' || i - s > lx->max_token) {
        return 0;
    }
    tag->value.ptr = lx->buf + s;
    tag->value.len = i - s;
    i = skip_blanks(b, i + 1, len);
    if (i >= len || b[i] != ']') {
        return 0;
    }
    s = (size_t)(tag->name.ptr - lx->buf); /* the pair's bytes: [s, i] */
    tag->block = len - s >= 32 && i - s < 32 ? 32 : len - s >= 64 && i - s < 64 ? 64 : 0;
    return i + 1;
}

/* The byte rel bytes past lx->pos, filling the window as needed; 0 at the end of the input. */
static int byte_past_pos(lexer *lx, size_t rel, unsigned char *c) {
    size_t i = lx->pos + rel;
    if (!lexer_have(lx, &i)) {
        return 0;
    }
    *c = (unsigned char)lx->buf[i];
    return 1;
}

size_t pgnk_lexer_lax_value(lexer *lx, pgn_str *value) {
    unsigned char c;
    for (size_t rel = 1; rel <= lx->max_token && byte_past_pos(lx, rel, &c); rel++) {
        if (c == '\n' || c == '\r') {
            return 0;
        }
        if (c != '"') {
            continue;
        }
        size_t j = rel + 1;
        while (byte_past_pos(lx, j, &c) && (c == ' ' || c == '\t')) {
            j++;
        }
        if (byte_past_pos(lx, j, &c) && c == ']') {
            value->ptr = lx->buf + lx->pos + 1; /* the window may have moved: taken at the end */
            value->len = rel - 1;
            return lx->pos + j + 1;
        }
    }
    return 0;
}
