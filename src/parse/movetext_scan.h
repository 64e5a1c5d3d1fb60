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

/* Stores the place past a token that ends at window index end, from the place n on its line. */
static inline void fast_store_past(lexer *lx, const fast_cur *n, size_t end) {
    lx->pos = end;
    lx->line = n->line;
    lx->line_off = n->line_off;
    lx->at_line_start = 0;
    set_keep(lx, n->base + end);
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

/* The bits below bit n (n < 64). */
static inline uint64_t pass_below(unsigned n) {
    return (UINT64_C(1) << n) - 1;
}

/* The first bits after each run of ones of run that begins at a bit of from (a carry through
 * it), and from's bits outside run. */
static inline uint64_t pass_past(uint64_t run, uint64_t from) {
    return ((run + (from & run)) & ~run) | (from & ~run);
}

/* The tokens of a block of 64 bytes (pass_block): their first bytes and where each ends. */
typedef struct pass_toks {
    uint64_t starts, moves; /* first bytes: of each token, of the moves */
    uint64_t ends;          /* the byte after each: a move's, or a move number's periods' */
    unsigned lim;           /* a token read must end before (64: none) */
} pass_toks;

/* Where the block's tokens must end: at the first byte of a kind that no token read here holds
 * and that white space does not (a lone CR too), a period that follows neither a digit nor a
 * period, the second line break of an empty line, a run of 10 symbol bytes (a move number too
 * long; a move of 10 to 16 bytes goes pass_token's way), a symbol that starts with neither a
 * letter nor a digit, a move number not ended by periods, a symbol that starts with a letter and
 * is followed by a period. */
static inline void pass_classify(const lexer_masks *m, pass_toks *t) {
    uint64_t gap = m->blank | (m->cr & (m->lf >> 1)); /* white space within a line (CR of CRLF) */
    uint64_t sym = m->sym, starts = sym & ~(sym << 1);
    uint64_t stray = m->period & ~((m->period | m->digit) << 1);
    uint64_t bad = ~(sym | m->period | gap | m->lf) | stray | (pass_past(gap, m->lf << 1) & m->lf);
    uint64_t r2 = sym & (sym << 1), r4 = r2 & (r2 << 2), r8 = r4 & (r4 << 4);
    bad |= r8 & (r2 << 8);                   /* the 10th byte of a symbol */
    bad |= starts & ~(m->digit | m->letter); /* # + - / : = @ _ first */
    uint64_t num = starts & m->digit, num_end = pass_past(m->digit, num);
    bad |= num_end & ~m->period; /* not digits then a period */
    uint64_t moves = starts & m->letter, move_end = pass_past(sym, moves);
    bad |= move_end & m->period; /* e.p., a move then a period */
    t->lim = bad ? bits_ctz(bad) : 64;
    t->starts = starts;
    t->moves = moves;
    t->ends = move_end | pass_past(m->period, num_end);
}

/* The ends of the tokens of the 64 bytes at p (classes m) that a fast path reads (t: pass_classify)
 * up to the first one it cannot: moves without a digit are castling read here, or the first other
 * one ends what is read ("ep", a word: the general path). */
static inline uint64_t pass_scan(const unsigned char *p, const lexer_masks *m, pass_toks *t) {
    pass_classify(m, t);
    uint64_t sym_nodigit = m->sym & ~m->digit;
    uint64_t words = pass_past(sym_nodigit, t->moves) & ~m->sym;
    words &= t->lim == 64 ? ~UINT64_C(0) : pass_below(t->lim);
    for (; words; words &= words - 1) {
        unsigned e = bits_ctz(words), st = 63 - bits_clz(t->moves & pass_below(e));
        if (!castles_with_o(p + st, e - st)) {
            t->lim = e;
            break;
        }
    }
    return t->ends & (t->lim == 64 ? ~UINT64_C(0) : pass_below(t->lim));
}

/* The value of the move number whose n digits (1 to 9) are at d. */
static inline unsigned long number_value(const unsigned char *d, unsigned n) {
    unsigned long v = (unsigned long)(d[0] - '0');
    if (n == 2) { /* one or two digits, the common numbers, without a loop */
        return v * 10 + (unsigned long)(d[1] - '0');
    }
    for (unsigned i = 1; i < n; i++) {
        v = v * 10 + (unsigned long)(d[i] - '0');
    }
    return v;
}

/* 1 if the move numbers among the tokens toks of the 64 bytes at p (digits: their digit bits;
 * moves: the moves' first bytes) are those of a position whose fullmove number is f and side to
 * move side once the moves before each are played, one ply a move: no number there would be
 * reported. */
static inline int numbers_agree(const unsigned char *p, uint64_t toks, uint64_t moves,
                                uint64_t digits, unsigned long f, unsigned side) {
    for (uint64_t nums = toks & ~moves; nums; nums &= nums - 1) {
        unsigned st = bits_ctz(nums);
        uint64_t more = digits >> st; /* bit 1, bit 2: a second digit, a third */
        unsigned long want = f + ((bits_popcount(moves & pass_below(st)) + side) >> 1);
        unsigned long v = (unsigned long)(p[st] - '0');
        if (more & 4) {
            v = number_value(p + st, bits_ctz(~more));
        } else if (more & 2) {
            v = v * 10 + (unsigned long)(p[st + 1] - '0');
        }
        if (v != want) {
            return 0;
        }
    }
    return 1;
}

/* The tokens of fast_block's 64 bytes not yet read: their first bytes (toks) and the bytes after
 * them (ends), the moves' first bytes, the line breaks not yet passed, the digits; the block's
 * window index. */
typedef struct block_toks {
    uint64_t toks, ends, moves, lf, digit;
    size_t i;
} block_toks;

/* Moves c and b past the tokens of b that end by bit done, the last one read. */
static ALWAYS_INLINE void run_past(mt_state *s, fast_cur *c, block_toks *b, unsigned done) {
    uint64_t passed = b->toks & pass_below(done), brk = b->lf & pass_below(done);
    s->prev_skipped = (passed & (passed - 1)) ? 0 : s->skipped; /* one token read, or more */
    s->skipped = 0;
    if (brk) {
        c->line += bits_popcount(brk);
        c->line_off = c->base + b->i + (63 - bits_clz(brk)) + 1;
    }
    c->at_start = 0;
    c->i = b->i + done;
    b->toks &= ~passed;
    b->ends &= ~((UINT64_C(2) << done) - 1); /* the ends up to the last token's */
    b->lf &= ~brk;
}

/* The fast path's last token, noted in s when it leaves (movetext.c, fast_tokens; the end's
 * truncation test reads it, movetext_end.c): the token that ends at window index c->i, read there
 * since the window last moved; looked at once, not for each token. A move number (digits,
 * periods) or a move (a move cut short set its own: pgnk_mt_pending). */
void pgnk_mt_fast_tail(mt_state *s, const fast_cur *c);

/* A move of the fast path handed to another path that moved the lexer past it (mate: it ends in
 * '#'): where that killed its line (the lexer may have read on), the move is the movetext's last
 * token so far, as read_movetext notes a token, not a token the fast path read before it.
 * Returns 0 (fast_play_other's answer). */
int pgnk_mt_handed_on(mt_state *s, const rav_level *l, uint8_t mate);

/* movetext_pass.c: fast_tokens when no board and no move visitor reads the moves (check
 * --syntax-only): the same tokens read, the same state left, at a fraction of the cost. */
void pgnk_mt_fast_pass(pgn_reader *r, mt_state *s);

#endif
