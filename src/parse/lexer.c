/* SPDX-License-Identifier: MIT */
/* The PGN lexer (PGN §7 tokens, §6 % escape lines, §5 { } and ; comments). It scans the reader's
 * window in place; a refill keeps every byte from `keep` on, so a token is never split, and a token
 * longer than max_token has its text dropped instead of growing the window without bound. */
#include "lexer.h"

#include "../base/alloc.h"

#include <stdlib.h>
#include <string.h>

enum { WINDOW = 64 * 1024 };

/* The class of every byte (lexer.h), as a const table (no runtime initialisation). */
#define SY (C_SYM | C_START)
#define DG (C_SYM | C_START | C_DIGIT)
#define SP C_SPACE
const uint8_t pgnk_lexer_byte_class[256] = {
    0,     0,  0,     0,     0,  0,  0,  0,
    0,     SP, SP,    SP,    SP, SP, 0,  0, /* 0x00 */
    0,     0,  0,     0,     0,  0,  0,  0,
    0,     0,  0,     0,     0,  0,  0,  0, /* 0x10 */
    SP,    0,  0,     C_SYM, 0,  0,  0,  0,
    0,     0,  0,     SY,    0,  SY, 0,  C_SYM, /* 0x20  !"#$%&'()*+,-./ */
    DG,    DG, DG,    DG,    DG, DG, DG, DG,
    DG,    DG, C_SYM, 0,     0,  SY, 0,  0, /* 0x30 0-9:;<=>? */
    C_SYM, SY, SY,    SY,    SY, SY, SY, SY,
    SY,    SY, SY,    SY,    SY, SY, SY, SY, /* 0x40 @A-O */
    SY,    SY, SY,    SY,    SY, SY, SY, SY,
    SY,    SY, SY,    0,     0,  0,  0,  C_SYM, /* 0x50 P-Z[\]^_ */
    0,     SY, SY,    SY,    SY, SY, SY, SY,
    SY,    SY, SY,    SY,    SY, SY, SY, SY, /* 0x60 `a-o */
    SY,    SY, SY,    SY,    SY, SY, SY, SY,
    SY,    SY, SY,    0,     0,  0,  0,  0, /* 0x70 p-z{|}~ */
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

/* Reads more input after the window, keeping bytes from lx->keep on. Returns 0 at the end. */
static int fill(lexer *lx) {
    if (lx->eof) {
        return 0;
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
        size_t cap = lx->cap ? lx->cap * 2 : WINDOW;
        char *nb = cap > lx->cap ? pgnk_realloc(lx->alloc, lx->buf, lx->cap, cap) : NULL;
        if (!nb) {
            lx->error = PGN_E_NOMEM;
            lx->eof = 1;
            return 0;
        }
        lx->buf = nb;
        lx->cap = cap;
    }
    ptrdiff_t n = lx->read(lx->ctx, lx->buf + lx->len, lx->cap - lx->len);
    if (n <= 0 || (size_t)n > lx->cap - lx->len) {
        lx->error = n < 0 || (size_t)n > lx->cap - lx->len ? PGN_E_IO : PGN_OK;
        lx->eof = 1;
        return 0;
    }
    lx->len += (size_t)n;
    return 1;
}

/* Makes byte *i available, refilling if needed (i is relative to the window and is adjusted). */
static inline int have(lexer *lx, size_t *i) {
    if (*i < lx->len) {
        return 1;
    }
    size_t off = *i - lx->pos;
    int got = fill(lx);
    *i = lx->pos + off; /* fill() may have moved the window even when it read nothing */
    return got && *i < lx->len;
}

static void count_newline(lexer *lx, uint64_t off, unsigned char c, uint64_t *cr_end) {
    if (c == '\n' && *cr_end == off) {
        lx->line_off = off + 1; /* the LF of a CRLF */
        return;
    }
    lx->line++;
    lx->line_off = off + 1;
    if (c == '\r') {
        *cr_end = off + 1;
    }
}

/* The location of window index i, on the current line. */
static pgn_loc loc_at(const lexer *lx, size_t i) {
    pgn_loc at;
    at.offset = lx->base + i;
    at.line = lx->line;
    at.column = (uint32_t)(at.offset - lx->line_off + 1);
    return at;
}

pgn_loc pgnk_lexer_loc(const lexer *lx) {
    return loc_at(lx, lx->pos);
}

/* Skips white space and % escape lines; leaves lx->pos at the next token or the end. */
static void skip_space(lexer *lx) {
    size_t i = lx->pos;
    uint64_t cr_end = lx->last_cr ? lx->line_off : UINT64_MAX;
    lx->ws_start = lx->base + i;
    lx->ws_break = lx->ws_break_prev = UINT64_MAX;
    if (lx->base + i == 0) {
        /* a UTF-8 byte order mark at the start of the stream; byte by byte, since have() reads
         * only one chunk and the callback may deliver one byte at a time */
        size_t j = i, k = 0;
        while (k < 3 && have(lx, &j) && lx->buf[j] == "\xEF\xBB\xBF"[k]) {
            j++;
            k++;
        }
        if (k == 3) {
            i = j;
            lx->line_off = 3;
        }
    }
    for (;;) {
        if (i >= lx->len) {
            set_keep(lx, lx->base + i);
            lx->pos = i;
            if (!have(lx, &i)) {
                break;
            }
        }
        unsigned char c = (unsigned char)lx->buf[i];
        if (c == ' ') {
            i++; /* the common case first */
        } else if (c == '\n' || c == '\r') {
            if (!(c == '\n' && cr_end == lx->base + i)) {
                lx->ws_break_prev = lx->ws_break;
            }
            /* a break's place is its last byte (the LF of a CRLF): a range reader starting at
             * that LF sees the line break end there, and the two sides of a split must agree */
            lx->ws_break = lx->base + i;
            count_newline(lx, lx->base + i, c, &cr_end);
            lx->at_line_start = 1;
            i++;
        } else if (c == '%' && lx->base + i == lx->line_off) {
            for (;;) {
                while (i < lx->len && lx->buf[i] != '\n' && lx->buf[i] != '\r') {
                    i++;
                }
                lx->pos = i;
                set_keep(lx, lx->base + i);
                if (i < lx->len || !have(lx, &i)) {
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
            if (!have(lx, &i)) {
                break;
            }
            continue;
        }
        /* e.p. inside a symbol that began with a letter: keep a dot followed by a letter */
        if (dots && b[i] == '.') {
            size_t j = i + 1;
            int more = have(lx, &j);
            i = j - 1; /* have() may have moved the window */
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
 * index of the line's first byte; returns 1 if the line looks like a tag pair. */
static int tag_line_ahead(lexer *lx, size_t i) {
    size_t j = i;
    int stage = 0; /* 0 spaces, 1 name, 2 spaces before the quote */
    for (;;) {
        if (!have(lx, &j)) {
            return 0;
        }
        unsigned char c = (unsigned char)lx->buf[j];
        if (stage == 0 && (c == ' ' || c == '\t')) {
            j++;
        } else if (stage == 0) {
            if (c != '[') {
                return 0;
            }
            stage = 1;
            j++;
            if (!have(lx, &j) || !(char_class((unsigned char)lx->buf[j]) & C_START)) {
                return 0;
            }
        } else if (stage == 1 && (char_class(c) & C_SYM)) {
            j++;
        } else if (stage >= 1 && (c == ' ' || c == '\t')) {
            stage = 2;
            j++;
        } else {
            return stage == 2 && c == '"';
        }
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
            t->too_long = 1;
            lx->pos = i;
            start_rel = 0;
            set_keep(lx, lx->base + i);
            continue;
        }
        if (!have(lx, &i)) {
            t->unterminated = 1;
            break;
        }
        unsigned char c = (unsigned char)lx->buf[i];
        if (c == (unsigned char)close && --depth == 0) {
            break;
        }
        if (close == '}' && c == '{' && lx->nested_comments) {
            depth++;
        } else if (close == '"' && c == '\\') {
            size_t j = i + 1;
            int more = have(lx, &j);
            i = j - 1; /* have() may have moved the window */
            if (more && (lx->buf[j] == '"' || lx->buf[j] == '\\')) {
                i = j;
            }
        } else if (c == '\n' || c == '\r') {
            if (close == '"') {
                t->unterminated = 1;
                break;
            }
            count_newline(lx, lx->base + i, c, &cr_end);
            if (!lx->nested_comments && c == '\n') {
                size_t rel = i - lx->pos, next = i + 1;
                int tag = tag_line_ahead(lx, next);
                i = lx->pos + rel; /* the lookahead may have moved the window */
                if (tag) {
                    t->unterminated = 1;
                    i++;
                    lx->at_line_start = 1;
                    break;
                }
            }
        } else if (c >= 0x80) {
            t->high = 1;
        }
        i++;
        if (i - lx->pos - start_rel > lx->max_token) {
            t->too_long = 1;
            lx->pos = i; /* drop the text so far: the window does not grow */
            start_rel = 0;
            set_keep(lx, lx->base + i);
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

/* Termination markers written with non-ASCII characters (digest T79): the one-half sign and the
 * en dash. Read whole as a symbol, so that movetext can take them for 1/2-1/2, 1-0 and 0-1 (with
 * W_RESULT_FORM) instead of meeting stray bytes. */
static const struct {
    const char *text;
    pgn_result result;
} odd_markers[] = {{"\xC2\xBD-\xC2\xBD", PGN_RESULT_DRAW},
                   {"\xC2\xBD\xE2\x80\x93\xC2\xBD", PGN_RESULT_DRAW},
                   {"1\xE2\x80\x93"
                    "0",
                    PGN_RESULT_WHITE_WINS},
                   {"0\xE2\x80\x93"
                    "1",
                    PGN_RESULT_BLACK_WINS}};

/* Length of the odd marker at window index i, followed by white space or the end (its result in
 * *res); 0 if none. */
static size_t odd_marker_at(lexer *lx, size_t i, pgn_result *res) {
    unsigned char c = (unsigned char)lx->buf[i];
    if (c != 0xC2 && c != '1' && c != '0') {
        return 0;
    }
    for (size_t k = 0; k < sizeof odd_markers / sizeof odd_markers[0]; k++) {
        const char *m = odd_markers[k].text;
        size_t n = strlen(m), j = 0;
        while (j < n) {
            size_t at = i + j;
            int more = have(lx, &at);
            i = at - j; /* have() may have moved the window */
            if (!more || lx->buf[at] != m[j]) {
                break;
            }
            j++;
        }
        if (j == n) {
            size_t at = i + n;
            int more = have(lx, &at);
            i = at - n;
            if (!more || (char_class((unsigned char)lx->buf[at]) & C_SPACE) || lx->buf[at] == ')' ||
                lx->buf[at] == '[') {
                *res = odd_markers[k].result;
                return n;
            }
        }
    }
    return 0;
}

static size_t scan_token(lexer *lx, token *t, size_t i) {
    unsigned char c = (unsigned char)lx->buf[i];
    unsigned cls = char_class(c);
    size_t s = i;
    t->ptr = NULL; /* single-byte tokens carry no text */
    t->len = 0;
    if ((c == 0xC2 ||
         ((c == '1' || c == '0') && i + 1 < lx->len && (unsigned char)lx->buf[i + 1] == 0xE2) ||
         ((c == '1' || c == '0') && i + 1 >= lx->len))) {
        pgn_result res = PGN_RESULT_NONE;
        size_t n = odd_marker_at(lx, i, &res);
        if (n > 0) {
            i = lx->pos;
            t->kind = TOK_SYMBOL;
            t->ptr = lx->buf + i;
            t->len = n;
            t->high = 1;
            t->value = (unsigned)res;
            return i + n;
        }
        i = s = lx->pos; /* the look-ahead may have moved the window */
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
        i++;
        while (have(lx, &i) && lx->buf[i] != '\n' && lx->buf[i] != '\r') {
            t->high |= (unsigned char)lx->buf[i] >= 0x80;
            i++;
            if (i - lx->pos > lx->max_token) {
                drop_long(lx, t, i);
            }
        }
        break;
    case '$':
        t->kind = TOK_NAG;
        i = scan_class(lx, t, i + 1, C_DIGIT, 0);
        s = lx->pos;
        for (size_t k = s + 1; k < i; k++) {
            t->value = t->value > 100000 ? t->value : t->value * 10 + (unsigned)(lx->buf[k] - '0');
        }
        if (i == s + 1) {
            t->kind = TOK_BAD;
        }
        break;
    case '.':
        t->kind = TOK_PERIODS;
        while (have(lx, &i) && lx->buf[i] == '.') {
            i++;
            if (i - lx->pos > lx->max_token) {
                drop_long(lx, t, i);
            }
        }
        break;
    case '!':
    case '?':
        t->kind = TOK_ANNOTATION;
        while (have(lx, &i) && (lx->buf[i] == '!' || lx->buf[i] == '?')) {
            i++;
            if (i - lx->pos > lx->max_token) {
                drop_long(lx, t, i);
            }
        }
        s = lx->pos;
        t->value = annotation_nag(lx->buf + s, i - s);
        break;
    default:
        if (cls & C_START) {
            t->kind = TOK_SYMBOL;
            i = scan_class(lx, t, i + 1, C_SYM, !(cls & C_DIGIT));
            s = lx->pos;
            if ((cls & C_DIGIT) && !t->too_long && i < lx->len && lx->buf[i] == '.' &&
                i - s <= lx->max_token) {
                /* a move number: its periods, as far as the window goes, are taken with it
                 * (movetext ignores periods; the rest, if any, comes as TOK_PERIODS) */
                size_t k = s;
                while (k < i && (char_class((unsigned char)lx->buf[k]) & C_DIGIT)) {
                    k++;
                }
                if (k == i) {
                    t->ptr = lx->buf + s;
                    t->len = i - s;
                    while (i < lx->len && lx->buf[i] == '.') {
                        i++;
                    }
                    return i;
                }
            }
        } else {
            /* bytes that start no token: up to white space or a token start */
            t->kind = TOK_BAD;
            do {
                t->high |= (unsigned char)lx->buf[i] >= 0x80;
                i++;
                if (i - lx->pos > lx->max_token) {
                    drop_long(lx, t, i);
                }
            } while (have(lx, &i) &&
                     !(char_class((unsigned char)lx->buf[i]) & (C_SPACE | C_START)) &&
                     !strchr("[](){}\";$.*!?", lx->buf[i]));
        }
        break;
    }
    s = lx->pos;
    if (i - s > lx->max_token) {
        t->too_long = 1;
    }
    t->ptr = lx->buf + s;
    t->len = t->too_long ? 0 : i - s;
    return i;
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

int pgnk_lexer_utf16_bom(lexer *lx) {
    size_t i = lx->pos, j;
    if (lx->base + i != 0 || !have(lx, &i)) {
        return 0;
    }
    unsigned char c = (unsigned char)lx->buf[i];
    j = i + 1;
    if ((c != 0xFF && c != 0xFE) || !have(lx, &j)) {
        return 0;
    }
    return (unsigned char)lx->buf[j] == (c ^ 0x01u); /* FF FE (LE) or FE FF (BE) */
}

void pgnk_lexer_skip_to_range_start(lexer *lx) {
    size_t i = lx->pos;
    uint64_t cr_end = UINT64_MAX;
    int prev_tag = 0, first = 1;      /* first: the partial line the range starts in */
    unsigned char lead = 0, last = 0; /* first and last non-space bytes of the current line */
    for (;;) {
        lx->pos = i;
        set_keep(lx, lx->base + i);
        if (!have(lx, &i)) {
            break;
        }
        unsigned char c = (unsigned char)lx->buf[i];
        if (c == '\n' && cr_end == lx->base + i) {
            count_newline(lx, lx->base + i, c, &cr_end); /* the LF of a CRLF */
        } else if (c == '\n' || c == '\r') {
            /* the partial first line (its start is unseen) counts as a tag line if it is blank or
             * ends with ]; the reader before this range reads the game starting on the next line */
            prev_tag = first ? (last == 0 || last == ']') : lead == '[';
            first = 0;
            lead = last = 0;
            count_newline(lx, lx->base + i, c, &cr_end);
        } else if (!(char_class(c) & C_SPACE)) {
            if (!first && !lead && c == '[' && !prev_tag) {
                break;
            }
            lead = lead ? lead : c;
            last = c;
        }
        i++;
    }
    lx->pos = i;
    lx->at_line_start = 1;
    lx->last_cr = cr_end == lx->line_off;
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
static const uint8_t skip_class[256] = {
    6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 6, 0, 0, 0, 0, 0, 6, 6, 6, 0, 0, 5, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
};

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

int pgnk_lexer_skip_inert(lexer *lx) {
    const unsigned char *b = (const unsigned char *)lx->buf;
    size_t i = lx->pos, len = lx->len;
    if (lx->last_cr || lx->base + i == 0 || lx->nested_comments || i >= len ||
        (b[i] == '%' && lx->base + i == lx->line_off)) {
        return 0; /* the LF of a CRLF split by a refill, a BOM, nesting, an escape line */
    }
    /* commit: the last place passed where a token boundary is known (after a line break, before
     * a { ; or stop byte, after a comment), with the line state there; the byte-wise path goes on
     * from it. Stopping early is always correct: the byte-wise path reads the same tokens. */
    size_t commit = i;
    uint32_t line = lx->line, c_line = line;
    uint64_t line_off = lx->line_off, c_line_off = line_off;
    int c_at_start = lx->at_line_start;
    for (;;) {
        while (i < len && skip_class[b[i]] == K_TOKEN) {
            i++;
        }
        if (i >= len) {
            break;
        }
        unsigned k = skip_class[b[i]];
        if (k == K_DASH) {
            /* - or / in a symbol with a digit before it: perhaps a termination marker (1-0,
             * 0-1, 1/2-1/2); castling and null moves have none */
            size_t s = i;
            int digit = 0;
            while (s > lx->pos && (char_class(b[s - 1]) & C_SYM)) {
                digit |= (char_class(b[--s]) & C_DIGIT) != 0;
            }
            if (digit) {
                break;
            }
            i++;
        } else if (k == K_LF || k == K_CR) {
            size_t j = i + 1;
            if (k == K_CR) {
                if (j >= len) {
                    break;
                }
                j += b[j] == '\n';
            }
            /* an empty line (a game without tags may follow) or an escape line: byte-wise path */
            size_t e = j;
            while (e < len && (b[e] == ' ' || b[e] == '\t')) {
                e++;
            }
            if (e >= len || b[e] == '\n' || b[e] == '\r' || b[j] == '%') {
                break;
            }
            i = j;
            line++;
            line_off = lx->base + i;
            commit = i;
            c_line = line;
            c_line_off = line_off;
            c_at_start = 1;
        } else if (k == K_SEMI && i > lx->pos && b[i - 1] != ' ' && b[i - 1] != '\t' &&
                   b[i - 1] != '}' && b[i - 1] != '\n' && b[i - 1] != '\r') {
            break; /* a ; glued to a token may be part of it (a run of stray bytes) */
        } else {
            int at_start = only_space_before(lx, i, line_off);
            if (at_start < 0) {
                break; /* unknown: the byte-wise path decides */
            }
            commit = i;
            c_line = line;
            c_line_off = line_off;
            c_at_start = at_start;
            if (k == K_BRACE) {
                /* a comment that ends in the window, without a CR or a line that could be a tag */
                size_t j = i + 1;
                while (j < len && b[j] != '}') {
                    if (b[j] == '\r' || (b[j] == '\n' && tag_line_in_window(lx, j + 1) != 0)) {
                        break;
                    }
                    if (b[j] == '\n') {
                        line++;
                        line_off = lx->base + j + 1;
                    }
                    j++;
                }
                if (j >= len || b[j] != '}') {
                    break;
                }
                i = j + 1;
                commit = i;
                c_line = line;
                c_line_off = line_off;
                c_at_start = 0;
            } else if (k == K_SEMI) {
                while (i < len && b[i] != '\n' && b[i] != '\r') {
                    i++;
                }
            } else {
                break; /* [ ( ) * " NUL and bytes >= 0x80: the byte-wise path */
            }
        }
    }
    if (commit == lx->pos) {
        return 0;
    }
    lx->pos = commit;
    lx->line = c_line;
    lx->line_off = c_line_off;
    lx->at_line_start = (uint8_t)c_at_start;
    lx->last_cr = 0;
    set_keep(lx, lx->base + commit);
    return 1;
}

static size_t skip_blanks(const unsigned char *b, size_t i, size_t len) {
    while (i < len && (b[i] == ' ' || b[i] == '\t')) {
        i++;
    }
    return i;
}

size_t pgnk_lexer_peek_tag(const lexer *lx, lexer_tag *tag) {
    const unsigned char *b = (const unsigned char *)lx->buf;
    size_t len = lx->len;
    if (lx->last_cr || !b) {
        return 0;
    }
    size_t i = skip_blanks(b, lx->pos, len), s = i;
    while (i < len &&
           ((unsigned)((b[i] | 0x20) - 'a') < 26u || (unsigned)(b[i] - '0') < 10u || b[i] == '_')) {
        i++;
    }
    if (i == s || i - s > 255 || i - s > lx->max_token) {
        return 0;
    }
    tag->name.ptr = lx->buf + s;
    tag->name.len = i - s;
    tag->name_at = loc_at(lx, s);
    i = skip_blanks(b, i, len);
    if (i >= len || b[i] != '"') {
        return 0;
    }
    tag->value_at = loc_at(lx, i);
    s = ++i;
    while (i < len && b[i] >= 0x20 && b[i] < 0x7f && b[i] != '"' && b[i] != '\\') {
        i++;
    }
    if (i >= len || b[i] != '"' || i - s > lx->max_token) {
        return 0;
    }
    tag->value.ptr = lx->buf + s;
    tag->value.len = i - s;
    i = skip_blanks(b, i + 1, len);
    return i < len && b[i] == ']' ? i + 1 : 0;
}

/* The byte rel bytes past lx->pos, filling the window as needed; 0 at the end of the input. */
static int byte_past_pos(lexer *lx, size_t rel, unsigned char *c) {
    size_t i = lx->pos + rel;
    if (!have(lx, &i)) {
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

void pgnk_lexer_take(lexer *lx, size_t end) {
    lx->pos = end;
    lx->at_line_start = 0;
    set_keep(lx, lx->base + end);
}
