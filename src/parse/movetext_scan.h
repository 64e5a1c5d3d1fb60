/* SPDX-License-Identifier: MIT */
/* The movetext fast path's scans of the lexer's window (movetext.c, fast_tokens): its place kept
 * in locals, white space, move numbers, symbols. Internal header. */
#ifndef PGNKIT_MOVETEXT_SCAN_H
#define PGNKIT_MOVETEXT_SCAN_H

#include "lexer.h"
#include "movetext_internal.h"

#include "../base/bits.h"

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

/* The byte classes of 64 window bytes from index at (pgnk_lexer_masks): the fast path finds a
 * token's end by counting bits, not by a loop over its bytes (issue 32). at is MASKS_NONE when the
 * masks hold nothing (also after the window moved): half the address space, so that i - at, for
 * any window index i, is at least that. */
typedef struct scan_masks {
    size_t at;
    uint64_t sym, digit;
} scan_masks;
#define MASKS_NONE ((SIZE_MAX >> 1) + 1)

/* The masks for the bytes from window index i on: at least 18 of them (a symbol of 16 bytes and
 * the byte after it), classified anew when the masks end before (or hold nothing). Returns i's
 * bit. */
static inline unsigned masks_at(scan_masks *m, const fast_cur *c, size_t i) {
    if (i - m->at > 46) {
        pgnk_lexer_masks(c->b + i, c->len - i, &m->sym, &m->digit);
        m->at = i;
    }
    return (unsigned)(i - m->at);
}

/* A symbol that starts with a letter at window index st (letters, digits and _+#=:-/@ up to a
 * byte that ends it within the window, at most 16 bytes, no period or non-ASCII byte after it:
 * e.p. suffixes go the general way): its end, with *digit set if it holds a digit; 0 for anything
 * else. */
static inline size_t fast_symbol(const fast_cur *c, scan_masks *m, size_t st, int *digit) {
    unsigned k = masks_at(m, c, st);
    /* the first byte after st that is no symbol byte (bytes past the window are none); 17: more
     * than 16 bytes */
    uint64_t stops = ~(m->sym >> k) | (UINT64_C(1) << 17);
    size_t n = bits_ctz(stops & ~UINT64_C(1)), j = st + n;
    if (j >= c->len || n > 16 || c->b[j] == '.' || c->b[j] >= 0x80) {
        return 0; /* (a byte >= 0x80: O–O with a Unicode dash, e8=♕: the general way) */
    }
    *digit = ((m->digit >> k) & ((UINT64_C(1) << n) - 2)) != 0; /* a digit after the first byte */
    return j;
}

/* O-O and O-O-O with letters O (a check or mate sign allowed): castling the fast path plays. */
static inline int castles_with_o(const unsigned char *p, size_t n) {
    int castle = p[0] == 'O';
    for (size_t i = 1; i < n; i++) {
        castle &= p[i] == 'O' || p[i] == '-' || p[i] == '+' || p[i] == '#';
    }
    return castle;
}

/* A move number at window index st: digits (at most 9), then periods, then a byte in the window.
 * Returns the index past the periods, 0 for anything else; *digits_end past the digits. */
static inline size_t fast_number(const fast_cur *c, scan_masks *m, size_t st, size_t *digits_end) {
    const unsigned char *b = c->b;
    unsigned k = masks_at(m, c, st);
    size_t n = bits_ctz(~(m->digit >> k) | (UINT64_C(1) << 10)), j = st + n, len = c->len;
    if (j >= len || b[j] != '.' || n > 9) {
        return 0;
    }
    *digits_end = j;
    while (j < len && b[j] == '.') {
        j++;
    }
    return j < len ? j : 0;
}

/* The fast path's last token, noted in s when it leaves (movetext.c, fast_tokens; the end's
 * truncation test reads it, movetext_end.c): the token that ends at window index c->i, read there
 * since the window last moved; looked at once, not for each token. A move number (digits,
 * periods) or a move (a move cut short set its own: pgnk_mt_pending). */
void pgnk_mt_fast_tail(mt_state *s, const fast_cur *c);

/* movetext_pass.c: fast_tokens when no board and no move visitor reads the moves (check
 * --syntax-only): the same tokens read, the same state left, at a fraction of the cost. */
void pgnk_mt_fast_pass(pgn_reader *r, mt_state *s);

#endif
