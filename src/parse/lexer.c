/* SPDX-License-Identifier: MIT */
/* The PGN lexer (PGN §7 tokens, §6 % escape lines, §5 { } and ; comments). It scans the reader's
 * window in place; a refill keeps every byte from `keep` on, so a token is never split, and a token
 * longer than max_token has its text dropped instead of growing the window without bound. */
#include "lexer.h"
#include "game_start.h"

#include "../base/alloc.h"

#include <stdlib.h>
#include <string.h>

enum { WINDOW = 64 * 1024 };

/* The class of every byte (lexer.h), as a const table (no runtime initialisation). */
#define SY (C_SYM | C_START)
#define DG (C_SYM | C_START | C_DIGIT)
#define SP C_SPACE
const uint8_t pgnk_lexer_byte_class[256] = {
    0,  0,  0,     0,     0,  0,  0,  0,
    0,  SP, SP,    SP,    SP, SP, 0,  0, /* 0x00 */
    0,  0,  0,     0,     0,  0,  0,  0,
    0,  0,  0,     0,     0,  0,  0,  0, /* 0x10 */
    SP, 0,  0,     C_SYM, 0,  0,  0,  0,
    0,  0,  0,     SY,    0,  SY, 0,  C_SYM, /* 0x20  !"#$%&'()*+,-./ */
    DG, DG, DG,    DG,    DG, DG, DG, DG,
    DG, DG, C_SYM, 0,     0,  SY, 0,  0, /* 0x30 0-9:;<=>? */
    SY, SY, SY,    SY,    SY, SY, SY, SY,
    SY, SY, SY,    SY,    SY, SY, SY, SY, /* 0x40 @A-O */
    SY, SY, SY,    SY,    SY, SY, SY, SY,
    SY, SY, SY,    0,     0,  0,  0,  C_SYM, /* 0x50 P-Z[\]^_ */
    0,  SY, SY,    SY,    SY, SY, SY, SY,
    SY, SY, SY,    SY,    SY, SY, SY, SY, /* 0x60 `a-o */
    SY, SY, SY,    SY,    SY, SY, SY, SY,
    SY, SY, SY,    0,     0,  0,  0,  0, /* 0x70 p-z{|}~ */
};
#undef SY
#undef DG
#undef SP

void pgnk_lexer_init(lexer *lx, const pgn_allocator *alloc, pgn_read_fn read, void *ctx,
                     size_t max_token) {
    memset(lx, 0, sizeof *lx);
    lx->alloc = alloc;
    lx->read = read;
    lx->ctx = ctx;
    lx->line = 1;
    lx->at_line_start = 1;
    lx->hold = UINT64_MAX;
    lx->limit = UINT64_MAX;
    lx->ws_again_at = UINT64_MAX;
    lx->max_token = max_token;
}

void pgnk_lexer_init_mem(lexer *lx, const void *data, size_t len, size_t max_token) {
    pgnk_lexer_init(lx, NULL, NULL, NULL, max_token);
    lx->buf = (char *)(uintptr_t)data; /* never written: external windows are read-only */
    lx->len = lx->cap = len;
    lx->external = 1;
    lx->eof = 1;
}

void pgnk_lexer_free(lexer *lx) {
    if (!lx->external) {
        pgnk_free(lx->alloc, lx->buf);
    }
    lx->buf = NULL;
}

int pgnk_lexer_fill(lexer *lx) {
    if (lx->eof || lx->base + lx->len >= lx->limit) {
        return 0; /* (at the limit: a look ahead's end, not the input's) */
    }
    size_t keep = lx->keep > lx->base ? (size_t)(lx->keep - lx->base) : 0;
    if (keep > lx->pos) {
        keep = lx->pos;
    }
    if (keep > 0) {
        memmove(lx->buf, lx->buf + keep, lx->len - keep);
        lx->len -= keep;
        lx->pos -= keep;
        lx->base += keep;
    }
    if (lx->len == lx->cap) {
        void *nb = lx->buf;
        if (!pgnk_grow(lx->alloc, &nb, &lx->cap, lx->cap + 1, 1, WINDOW)) {
            lx->error = PGN_E_NOMEM;
            lx->eof = 1;
            return 0;
        }
        lx->buf = nb;
    }
    size_t room = lx->cap - lx->len;
    if (lx->limit - (lx->base + lx->len) < room) {
        room = (size_t)(lx->limit - (lx->base + lx->len));
    }
    ptrdiff_t n = lx->read(lx->ctx, lx->buf + lx->len, room);
    if (n <= 0 || (size_t)n > room) {
        lx->error = n < 0 || (size_t)n > room ? PGN_E_IO : PGN_OK;
        lx->eof = 1;
        return 0;
    }
    lx->len += (size_t)n;
    return 1;
}

pgn_loc pgnk_lexer_loc(const lexer *lx) {
    return lexer_loc_at(lx, lx->pos);
}

/* Past a UTF-8 byte order mark at the start of the stream (window index i there); byte by byte,
 * since lexer_have() reads only one chunk and the callback may deliver one byte at a time. */
static size_t skip_bom(lexer *lx, size_t i) {
    size_t j = i, k = 0;
    while (k < 3 && lexer_have(lx, &j) && lx->buf[j] == "\xEF\xBB\xBF"[k]) {
        j++;
        k++;
    }
    if (k < 3) {
        return i;
    }
    lx->line_off = 3;
    return j;
}

/* Skips white space and % escape lines; leaves lx->pos at the next token or the end. */
static void skip_space(lexer *lx) {
    size_t i = lx->pos;
    uint64_t cr_end = lx->last_cr ? lx->line_off : UINT64_MAX;
    if (lx->base + i != lx->ws_again_at) {
        lx->ws.brk = lx->ws.brk_prev = UINT64_MAX;
    }
    lx->ws_again_at = UINT64_MAX;
    if (lx->base + i == 0) {
        i = skip_bom(lx, i);
    }
    for (;;) {
        if (i >= lx->len) {
            set_keep(lx, lx->base + i);
            lx->pos = i;
            if (!lexer_have(lx, &i)) {
                break;
            }
        }
        unsigned char c = (unsigned char)lx->buf[i];
        if (c == ' ') {
            i++; /* the common case first */
        } else if (c == '\n' || c == '\r') {
            if (!(c == '\n' && cr_end == lx->base + i)) {
                lx->ws.brk_prev = lx->ws.brk;
            }
            /* a break's place is its last byte (the LF of a CRLF): a range reader starting at
             * that LF sees the line break end there, and the two sides of a split must agree */
            lx->ws.brk = lx->base + i;
            lexer_count_newline(lx, lx->base + i, c, &cr_end);
            lx->at_line_start = 1;
            i++;
        } else if (c == '%' && lx->base + i == lx->line_off) {
            /* an escape line is not an empty line before a range boundary: its breaks count anew */
            lx->ws.brk = lx->ws.brk_prev = UINT64_MAX;
            for (;;) {
                while (i < lx->len && lx->buf[i] != '\n' && lx->buf[i] != '\r') {
                    i++;
                }
                lx->pos = i;
                set_keep(lx, lx->base + i);
                if (i < lx->len || !lexer_have(lx, &i)) {
                    break;
                }
            }
        } else if (char_class(c) & C_SPACE) {
            i++;
        } else {
            break;
        }
    }
    lx->pos = i;
    set_keep(lx, lx->base + i);
    lx->last_cr = cr_end == lx->line_off;
}

/* A token that has grown past max_token: its text so far is dropped (the token keeps only its
 * start position), so that the window never grows for it (a 100 MB symbol costs no memory). */
static void drop_long(lexer *lx, token *t, size_t i) {
    t->too_long = 1;
    lx->pos = i;
    set_keep(lx, lx->base + i);
}

/* Scans while bytes have class `cls`; returns the end index. */
static size_t scan_class(lexer *lx, token *t, size_t i, unsigned cls, int dots) {
    for (;;) {
        const unsigned char *b = (const unsigned char *)lx->buf;
        size_t len = lx->len, lim = lx->pos + lx->max_token + 1;
        lim = lim < len ? lim : len;
        while (i < lim && (char_class(b[i]) & cls)) {
            i++;
        }
        if (i - lx->pos > lx->max_token) {
            drop_long(lx, t, i);
            continue;
        }
        if (i >= len) {
            if (!lexer_have(lx, &i)) {
                break;
            }
            continue;
        }
        /* e.p. inside a symbol that began with a letter: keep a dot followed by a letter */
        if (dots && b[i] == '.') {
            size_t j = i + 1;
            int more = lexer_have(lx, &j);
            i = j - 1; /* lexer_have() may have moved the window */
            if (more && (char_class((unsigned char)lx->buf[j]) & C_START) &&
                !(char_class((unsigned char)lx->buf[j]) & C_DIGIT)) {
                i = j;
                continue;
            }
        }
        break;
    }
    return i;
}

/* Inside a comment, a line that looks like a tag pair ([Name "...) ends an unterminated comment,
 * so that one missing } does not swallow the rest of the file (digest T49 recovery). i is the
 * index of the line's first byte; returns 1 if the line looks like a tag pair (game_start.h, the
 * one test of where a game starts). A range's start scan and end use it too (lexer.h). */
int pgnk_lexer_tag_line_ahead(lexer *lx, size_t i) {
    pgnk_tag_scan scan = {0, 0};
    for (;;) {
        int r = pgnk_tag_line_scan(&scan, (const unsigned char *)lx->buf + i, lx->len - i);
        if (r >= 0) {
            return r;
        }
        size_t j = lx->len, seen = j - i;
        if (!lexer_have(lx, &j)) {
            return 0;
        }
        i = j - seen; /* the fill may have moved the window */
    }
}

/* Bytes below 0x80 that end the fast scan of delimited text: for strings the quote, backslash and
 * line breaks; for comments the braces (the opening one only when comments nest) and line breaks.
 */
enum { D_STRING = 1, D_COMMENT = 2, D_NESTED = 4 };
static const uint8_t delim_class[128] = {
    ['\n'] = D_STRING | D_COMMENT | D_NESTED,
    ['\r'] = D_STRING | D_COMMENT | D_NESTED,
    ['"'] = D_STRING,
    ['\\'] = D_STRING,
    ['}'] = D_COMMENT | D_NESTED,
    ['{'] = D_NESTED,
};

/* Delimited text longer than max_token: the text so far is dropped (the window does not grow). */
static inline void drop_delimited(lexer *lx, token *t, size_t i, size_t *start_rel) {
    t->too_long = 1;
    lx->pos = i;
    *start_rel = 0;
    set_keep(lx, lx->base + i);
}

/* The white space before the tag line that ends a comment at the break at window index i (T49), as
 * the range start scan sees it (lexer_fast.c): this line break, and the one before it when only
 * blanks lie between (an empty line: the tag line is a range boundary when that earlier break lies
 * at or after the range's end; pgnk_lexer_range_boundary). The next token keeps it. */
static void comment_end_ws(lexer *lx, size_t i) {
    size_t j = lx->buf[i] == '\n' && i > 0 && lx->buf[i - 1] == '\r' ? i - 1 : i; /* a CRLF */
    while (j > 0 && lx->buf[j - 1] != '\n' && lx->buf[j - 1] != '\r' &&
           (char_class((unsigned char)lx->buf[j - 1]) & C_SPACE)) {
        j--;
    }
    int blank = j > 0 && (lx->buf[j - 1] == '\n' || lx->buf[j - 1] == '\r');
    lx->ws.brk = lx->base + i;
    lx->ws.brk_prev = blank ? lx->base + j - 1 : UINT64_MAX;
    lx->ws_again_at = lx->base + i + 1;
}

/* The line break c at *i inside delimited text: it ends a string, and a comment when the next
 * line looks like a tag pair (then *i moves past it). Returns 1 when the text ends (unterminated).
 */
static int delimited_break(lexer *lx, token *t, size_t *i, unsigned char c, char close,
                           uint64_t *cr_end) {
    if (close == '"') {
        t->unterminated = 1;
        return 1;
    }
    lexer_count_newline(lx, lx->base + *i, c, cr_end);
    if (lx->nested_comments) {
        return 0;
    }
    size_t rel = *i - lx->pos, next = *i + 1;
    if (c == '\r') { /* a lone CR ends a line as an LF does (a CRLF is looked at at its LF) */
        int more = lexer_have(lx, &next);
        *i = lx->pos + rel;
        if (!more || lx->buf[next] == '\n') {
            return 0;
        }
    }
    int tag = pgnk_lexer_tag_line_ahead(lx, next);
    *i = lx->pos + rel; /* the lookahead may have moved the window */
    if (!tag) {
        return 0;
    }
    t->unterminated = 1;
    comment_end_ws(lx, *i);
    (*i)++;
    lx->at_line_start = 1;
    return 1;
}

/* The byte at *i that the fast loop of scan_delimited stopped at, not the closing one: a nested
 * brace, an escape, a line break or a byte >= 0x80. Returns 1 when the text ends there. */
static inline int delimited_byte(lexer *lx, token *t, size_t *i, char close, unsigned *depth,
                                 uint64_t *cr_end) {
    unsigned char c = (unsigned char)lx->buf[*i];
    if (close == '}' && c == '{' && lx->nested_comments) {
        (*depth)++;
    } else if (close == '"' && c == '\\') {
        size_t j = *i + 1;
        int more = lexer_have(lx, &j);
        *i = j - 1; /* lexer_have() may have moved the window */
        if (more && (lx->buf[j] == '"' || lx->buf[j] == '\\')) {
            *i = j;
        }
    } else if (c == '\n' || c == '\r') {
        return delimited_break(lx, t, i, c, close, cr_end);
    } else if (c >= 0x80) {
        t->high = 1;
    }
    return 0;
}

/* Delimited text: a string (ends at an unescaped quote or a line break) or a comment. */
static size_t scan_delimited(lexer *lx, token *t, size_t i, char close) {
    uint64_t cr_end = UINT64_MAX;
    unsigned depth = 1;
    size_t start_rel = i - lx->pos; /* where the kept text starts, from lx->pos */
    unsigned mask = close == '"' ? D_STRING : (lx->nested_comments ? D_NESTED : D_COMMENT);
    for (;;) {
        /* the bytes that need no attention, in one tight loop bounded by the window and by
         * max_token (checked below exactly as the byte-by-byte path does) */
        size_t lim = lx->pos + start_rel + lx->max_token + 1;
        lim = lim < lx->len ? lim : lx->len;
        const unsigned char *b = (const unsigned char *)lx->buf;
        while (i < lim && b[i] < 0x80 && !(delim_class[b[i]] & mask)) {
            i++;
        }
        if (i - lx->pos - start_rel > lx->max_token) {
            drop_delimited(lx, t, i, &start_rel);
            continue;
        }
        if (!lexer_have(lx, &i)) {
            t->unterminated = 1;
            break;
        }
        if ((unsigned char)lx->buf[i] == (unsigned char)close && --depth == 0) {
            break;
        }
        if (delimited_byte(lx, t, &i, close, &depth, &cr_end)) {
            break;
        }
        i++;
        if (i - lx->pos - start_rel > lx->max_token) {
            drop_delimited(lx, t, i, &start_rel);
        }
    }
    lx->last_cr = cr_end != UINT64_MAX && cr_end == lx->line_off;
    t->ptr = lx->buf + (t->too_long ? i : lx->pos + start_rel);
    t->len = t->too_long ? 0 : i - lx->pos - start_rel;
    return i;
}

static unsigned annotation_nag(const char *p, size_t n) {
    static const char *const glyphs[] = {"!", "?", "!!", "??", "!?", "?!"};
    for (unsigned k = 0; k < 6; k++) {
        if (strlen(glyphs[k]) == n && memcmp(glyphs[k], p, n) == 0) {
            return k + 1;
        }
    }
    return 0;
}

/* Termination markers and castling written with non-ASCII characters (digest T79; issue 28 point
 * 7): the one-half sign and the Unicode hyphens and dashes U+2010-U+2015 and U+2212 (½-½, 1–0,
 * O–O, 0—0—0). Read whole as one symbol, so that movetext can take them for 1/2-1/2, 1-0, 0-1
 * (W_RESULT_FORM) or castling (W_CASTLE_ZERO) instead of meeting stray bytes; pgnk_dash_ascii
 * gives their ASCII form. */

/* The length of the Unicode dash or one-half sign at p (n bytes), 0 if none. */
static size_t odd_char(const char *p, size_t n) {
    const unsigned char *u = (const unsigned char *)p;
    if (n >= 2 && u[0] == 0xC2 && u[1] == 0xBD) {
        return 2; /* ½ */
    }
    if (n >= 3 && u[0] == 0xE2 &&
        ((u[1] == 0x80 && u[2] >= 0x90 && u[2] <= 0x95) || (u[1] == 0x88 && u[2] == 0x92))) {
        return 3;
    }
    return 0;
}

size_t pgnk_dash_ascii(const char *p, size_t n, char *out, size_t cap) {
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        size_t c = odd_char(p + i, n - i);
        const char *rep = c == 2 ? "1/2" : c == 3 ? "-" : p + i;
        size_t len = c == 2 ? 3 : 1;
        if (k + len > cap) {
            return 0;
        }
        memcpy(out + k, rep, len);
        k += len;
        i += c ? c : 1;
    }
    return k;
}

/* Is the ASCII form a (n bytes) a result (*res) or castling (0)? -1 if neither. */
static int odd_kind(const char *a, size_t n, pgn_result *res) {
    *res = pgn_result_parse(a, n);
    if (*res != PGN_RESULT_NONE) {
        return 1;
    }
    while (n > 0 && (a[n - 1] == '+' || a[n - 1] == '#')) {
        n--;
    }
    for (size_t i = 0; i < n; i++) {
        if ((i % 2 == 0) != (a[i] == 'O' || a[i] == 'o' || a[i] == '0') ||
            (i % 2 == 1 && a[i] != '-')) {
            return -1;
        }
    }
    return n == 3 || n == 5 ? 0 : -1;
}

/* Length of the odd form at window index i, followed by white space, a token start or the end
 * (its result in *res); 0 if none. */
static size_t odd_marker_at(lexer *lx, size_t i, pgn_result *res) {
    char text[24];
    size_t j = 0, odd = 0;
    for (;;) {
        size_t at = i + j;
        int more = lexer_have(lx, &at);
        i = at - j; /* lexer_have() may have moved the window */
        if (!more || j >= 16) {
            break;
        }
        unsigned char c = (unsigned char)lx->buf[at];
        if (c >= 0x80) {
            for (size_t k = 1; k < 3; k++) { /* the whole character, a byte a time */
                size_t need = at + k;
                int got = lexer_have(lx, &need);
                at = need - k;
                if (!got) {
                    break;
                }
            }
            i = at - j;
            size_t w = odd_char(lx->buf + i + j, lx->len - i - j);
            if (w == 0) {
                return 0;
            }
            j += w;
            odd = 1;
        } else if (strchr("Oo012/-+#", c) && c != 0) {
            j++;
        } else if ((char_class(c) & C_SYM) && c != '!' && c != '?') {
            return 0;
        } else {
            break;
        }
    }
    size_t n = odd ? pgnk_dash_ascii(lx->buf + i, j, text, sizeof text) : 0;
    int kind = n ? odd_kind(text, n, res) : -1;
    return kind < 0 ? 0 : j;
}

/* Could the byte c at i start an odd form? A dash after O, 0 or 1 shows only in its next byte, so
 * at the window's end the look-ahead decides. */
static inline int may_be_odd_marker(const lexer *lx, unsigned char c, size_t i) {
    return c == 0xC2 || ((c == '1' || c == '0' || c == 'O' || c == 'o') &&
                         (i + 1 >= lx->len || (unsigned char)lx->buf[i + 1] == 0xE2));
}

/* An odd form at i as one symbol (its end), or 0 if there is none there. */
static size_t scan_odd_marker(lexer *lx, token *t, size_t i) {
    pgn_result res = PGN_RESULT_NONE;
    size_t n = odd_marker_at(lx, i, &res);
    if (n == 0) {
        return 0;
    }
    i = lx->pos;
    t->kind = TOK_SYMBOL;
    t->ptr = lx->buf + i;
    t->len = n;
    t->high = 1;
    t->value = (unsigned)res;
    return i + n;
}

/* Moves past i while the byte is a or b (periods, annotation glyphs). */
static inline size_t scan_run(lexer *lx, token *t, size_t i, char a, char b) {
    while (lexer_have(lx, &i) && (lx->buf[i] == a || lx->buf[i] == b)) {
        i++;
        if (i - lx->pos > lx->max_token) {
            drop_long(lx, t, i);
        }
    }
    return i;
}

/* A ; comment from i (past the ;) to the end of its line. */
static size_t scan_line_comment(lexer *lx, token *t, size_t i) {
    while (lexer_have(lx, &i) && lx->buf[i] != '\n' && lx->buf[i] != '\r') {
        t->high |= (unsigned char)lx->buf[i] >= 0x80;
        i++;
        if (i - lx->pos > lx->max_token) {
            drop_long(lx, t, i);
        }
    }
    return i;
}

/* $ and its digits (i at the $); TOK_BAD without digits. */
static size_t scan_nag(lexer *lx, token *t, size_t i) {
    t->kind = TOK_NAG;
    i = scan_class(lx, t, i + 1, C_DIGIT, 0);
    size_t s = lx->pos;
    for (size_t k = s + 1; k < i; k++) {
        t->value = t->value > 100000 ? t->value : t->value * 10 + (unsigned)(lx->buf[k] - '0');
    }
    if (i == s + 1) {
        t->kind = TOK_BAD;
    }
    return i;
}

/* A symbol starting at i (class cls). A move number takes its periods (movetext ignores them),
 * reading on past the window's end, so that where the input's pieces end never changes a token
 * (issue 32: a tag pair `[12... Nf3` read 1 byte at a time took one period and gave the others as
 * TOK_PERIODS); up to max_token bytes in all, the rest as TOK_PERIODS. Its text is set here and
 * *done is 1. */
static inline size_t scan_symbol(lexer *lx, token *t, size_t i, unsigned cls, int *done) {
    t->kind = TOK_SYMBOL;
    i = scan_class(lx, t, i + 1, C_SYM, !(cls & C_DIGIT));
    size_t s = lx->pos;
    if (!(cls & C_DIGIT) || t->too_long || i >= lx->len || lx->buf[i] != '.' ||
        i - s > lx->max_token) {
        return i;
    }
    size_t k = s;
    while (k < i && (char_class((unsigned char)lx->buf[k]) & C_DIGIT)) {
        k++;
    }
    if (k == i) {
        t->len = i - s;
        while (i - lx->pos <= lx->max_token && lexer_have(lx, &i) && lx->buf[i] == '.') {
            i++;
        }
        t->ptr = lx->buf + lx->pos; /* (a refill may have moved the window) */
        *done = 1;
    }
    return i;
}

/* Bytes that start no token: up to white space or a token start. */
static size_t scan_bad(lexer *lx, token *t, size_t i) {
    t->kind = TOK_BAD;
    do {
        t->high |= (unsigned char)lx->buf[i] >= 0x80;
        i++;
        if (i - lx->pos > lx->max_token) {
            drop_long(lx, t, i);
        }
    } while (lexer_have(lx, &i) && !(char_class((unsigned char)lx->buf[i]) & (C_SPACE | C_START)) &&
             !strchr("[](){}\";$.*!?", lx->buf[i]));
    return i;
}

/* Sets the text of the token that ends at i and starts at lx->pos (none if too long); returns i. */
static inline size_t token_text(lexer *lx, token *t, size_t i) {
    size_t s = lx->pos;
    if (i - s > lx->max_token) {
        t->too_long = 1;
    }
    t->ptr = lx->buf + s;
    t->len = t->too_long ? 0 : i - s;
    return i;
}

static size_t scan_token(lexer *lx, token *t, size_t i) {
    unsigned char c = (unsigned char)lx->buf[i];
    unsigned cls = char_class(c);
    int done = 0;
    t->ptr = NULL; /* single-byte tokens carry no text */
    t->len = 0;
    if (may_be_odd_marker(lx, c, i)) {
        size_t end = scan_odd_marker(lx, t, i);
        if (end > 0) {
            return end;
        }
        i = lx->pos; /* the look-ahead may have moved the window */
    }
    switch (c) {
    case '[': t->kind = TOK_LBRACKET; return i + 1;
    case ']': t->kind = TOK_RBRACKET; return i + 1;
    case '(': t->kind = TOK_LPAREN; return i + 1;
    case ')': t->kind = TOK_RPAREN; return i + 1;
    case '*': t->kind = TOK_STAR; return i + 1;
    case '"':
        t->kind = TOK_STRING;
        i = scan_delimited(lx, t, i + 1, '"');
        return t->unterminated ? i : i + 1;
    case '{':
        t->kind = TOK_COMMENT;
        i = scan_delimited(lx, t, i + 1, '}');
        return t->unterminated ? i : i + 1;
    case ';':
        t->kind = TOK_LINE_COMMENT;
        i = scan_line_comment(lx, t, i + 1);
        break;
    case '$': i = scan_nag(lx, t, i); break;
    case '.':
        t->kind = TOK_PERIODS;
        i = scan_run(lx, t, i, '.', '.');
        break;
    case '!':
    case '?':
        t->kind = TOK_ANNOTATION;
        i = scan_run(lx, t, i, '!', '?');
        t->value = annotation_nag(lx->buf + lx->pos, i - lx->pos);
        break;
    default:
        if (cls & C_START) {
            i = scan_symbol(lx, t, i, cls, &done);
            if (done) {
                return i;
            }
        } else {
            i = scan_bad(lx, t, i);
        }
        break;
    }
    return token_text(lx, t, i);
}

void pgnk_lexer_next(lexer *lx, token *t) {
    t->value = 0;
    t->unterminated = t->too_long = t->high = 0;
    uint32_t line = lx->line;
    skip_space(lx);
    t->blank_before = lx->line - line >= 2;
    t->at = pgnk_lexer_loc(lx);
    t->line_start = lx->at_line_start;
    if (lx->pos >= lx->len) {
        t->kind = TOK_EOF;
        t->ptr = lx->buf ? lx->buf + lx->pos : NULL;
        t->len = 0;
        return;
    }
    lx->at_line_start = 0;
    size_t end = scan_token(lx, t, lx->pos);
    lx->pos = end;
}

void pgnk_lexer_rewind(lexer *lx, uint64_t off, pgn_loc at, uint8_t line_start) {
    lx->pos = (size_t)(off - lx->base);
    lx->line = at.line;
    lx->line_off = at.offset - at.column + 1;
    lx->at_line_start = line_start;
}

void pgnk_lexer_rewind_ws(lexer *lx, uint64_t off, pgn_loc at, uint8_t line_start, lexer_ws ws) {
    pgnk_lexer_rewind(lx, off, at, line_start);
    lx->ws = ws;
    lx->ws_again_at = off;
}

size_t pgnk_lexer_wrapper(lexer *lx) {
    static const char want[] = "/pgn]";
    size_t i = lx->pos;
    if (!lexer_have(lx, &i)) {
        return 0;
    }
    size_t j = 0;
    for (size_t k = lx->buf[i] == '/' ? 0 : 1; k < sizeof want - 1; k++, j++) {
        size_t at = lx->pos + j;
        if (!lexer_have(lx, &at)) {
            return 0;
        }
        char c = lx->buf[at];
        c = c >= 'A' && c <= 'Z' ? (char)(c + 32) : c;
        if (c != want[k]) {
            return 0;
        }
    }
    return lx->pos + j;
}
