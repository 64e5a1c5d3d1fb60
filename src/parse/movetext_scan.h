/* SPDX-License-Identifier: MIT */
/* The movetext fast path's scans of the lexer's window (movetext.c, fast_tokens): its place kept
 * in locals, white space, move numbers, symbols. Internal header. */
#ifndef PGNKIT_MOVETEXT_SCAN_H
#define PGNKIT_MOVETEXT_SCAN_H

#include "lexer.h"

/* The fast path's place in the lexer's window, kept in locals while it reads: the next byte (i),
 * the line it is on and whether a token came before it on that line. */
typedef struct fast_cur {
    const unsigned char *b;
    size_t i, len;
    uint64_t base, line_off;
    uint32_t line;
    uint8_t at_start;
} fast_cur;

/* Loads the lexer's place; 0 where the fast path must leave the token to pgnk_lexer_next (the LF
 * of a CRLF split by a refill, the stream's start). */
static inline int fast_load(const lexer *lx, fast_cur *c) {
    c->b = (const unsigned char *)lx->buf;
    c->i = lx->pos;
    c->len = lx->len;
    c->base = lx->base;
    c->line_off = lx->line_off;
    c->line = lx->line;
    c->at_start = lx->at_line_start;
    return !lx->last_cr && c->base + c->i != 0;
}

static inline void fast_store(lexer *lx, const fast_cur *c) {
    lx->pos = c->i;
    lx->line = c->line;
    lx->line_off = c->line_off;
    lx->at_line_start = c->at_start;
    set_keep(lx, c->base + c->i);
}

/* White space with at most one line break from c->i (as lexer_fast_space): the index of the next
 * token's first byte, with n's line moved to it; 0 if the general path must read it (an empty line,
 * a % line, a lone CR or the window's end; also a token at the window's very start). */
static inline size_t fast_space(const fast_cur *c, fast_cur *n) {
    const unsigned char *b = c->b;
    size_t j = c->i, len = c->len;
    if (len - j >= 2 && (b[j] > ' ' || (b[j] == ' ' && b[j + 1] > ' '))) {
        return j + (b[j] == ' '); /* the common cases: a token right here, or after one space */
    }
    while (j < len && (b[j] == ' ' || b[j] == '\t')) {
        j++;
    }
    if (j < len && (b[j] == '\n' || b[j] == '\r')) {
        if (b[j] == '\r') {
            if (j + 1 >= len) {
                return 0;
            }
            j += b[j + 1] == '\n';
        }
        j++;
        n->line++;
        n->line_off = c->base + j;
        n->at_start = 1;
        if (j < len && b[j] == '%') {
            return 0;
        }
        while (j < len && (b[j] == ' ' || b[j] == '\t')) {
            j++;
        }
        if (j < len && (b[j] == '\n' || b[j] == '\r')) {
            return 0; /* a second line break: perhaps an empty line */
        }
    }
    return j < len ? j : 0;
}

/* The token at window index st on n's line, ending at end. */
static inline void fast_token(token *t, const fast_cur *n, size_t st, size_t end) {
    t->kind = TOK_SYMBOL;
    t->ptr = (const char *)n->b + st;
    t->len = end - st;
    t->value = 0;
    t->unterminated = t->too_long = t->high = t->blank_before = 0;
    t->line_start = n->at_start;
    t->at.offset = n->base + st;
    t->at.line = n->line;
    t->at.column = (uint32_t)(n->base + st - n->line_off + 1);
}

/* A symbol that starts with a letter at window index st (letters, digits and _+#=:-/ up to a byte
 * that ends it within the window, at most 16 bytes, no period or non-ASCII byte after it: e.p.
 * suffixes go the general way): its end, with *digit set if it holds a digit; 0 for anything else.
 */
static inline size_t fast_symbol(const fast_cur *c, size_t st, int *digit) {
    const unsigned char *b = c->b;
    size_t j = st + 1, len = c->len;
    while (j < len && (char_class(b[j]) & C_SYM)) {
        j++;
    }
    if (j >= len || b[j] == '.' || b[j] >= 0x80 || j - st > 16) {
        return 0; /* (a byte >= 0x80: O–O with a Unicode dash, e8=♕: the general way) */
    }
    size_t k = j; /* a move's digit is near its end (e4, Nxe5+, e8=Q#): looked for from there */
    while (k > st + 1 && (unsigned)(b[k - 1] - '0') >= 10u) {
        k--;
    }
    *digit = k > st + 1;
    return j;
}

/* O-O and O-O-O with letters O (a check or mate sign allowed): castling the fast path plays. */
static int castles_with_o(const unsigned char *p, size_t n) {
    int castle = p[0] == 'O';
    for (size_t i = 1; i < n; i++) {
        castle &= p[i] == 'O' || p[i] == '-' || p[i] == '+' || p[i] == '#';
    }
    return castle;
}

/* A move number at window index st: digits (at most 9), then periods, then a byte in the window.
 * Returns the index past the periods, 0 for anything else; *v its value, *digits_end past the
 * digits. */
static inline size_t fast_number(const fast_cur *c, size_t st, unsigned long *v,
                                 size_t *digits_end) {
    const unsigned char *b = c->b;
    size_t j = st, len = c->len;
    unsigned long x = 0;
    while (j < len && (unsigned)(b[j] - '0') < 10u) {
        x = x * 10 + (unsigned long)(b[j] - '0');
        j++;
    }
    if (j >= len || b[j] != '.' || j - st > 9) {
        return 0;
    }
    *v = x;
    *digits_end = j;
    while (j < len && b[j] == '.') {
        j++;
    }
    return j < len ? j : 0;
}

#endif
