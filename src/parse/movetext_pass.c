/* SPDX-License-Identifier: MIT */
/* The movetext fast path when nothing reads the moves: no board and no move visitor (check
 * --syntax-only, the tag filters). It reads the tokens movetext.c's fast_tokens reads - move
 * numbers, and moves that start with a letter and hold a digit or castle with letters O - and
 * stops where it stops, leaving the same state behind; but a move there only passes the turn, so
 * the loop keeps its place in registers, does nothing for a token but find its end in the byte
 * masks (lexer_simd.c) and count it, and sums up the counts once when it leaves (issue 32). */
#include "movetext_scan.h"

/* The window masks' index for window index i (masks_at, on the loop's locals). */
static inline unsigned pass_masks_at(scan_masks *m, const unsigned char *b, size_t len, size_t i) {
    if (i - m->at > 46) {
        pgnk_lexer_masks(b + i, len - i, &m->sym, &m->digit);
        m->at = i;
    }
    return (unsigned)(i - m->at);
}

/* What fast_tokens would have done token by token, for tokens read as move numbers or moves
 * (tokens), of which moves were moves, with lead the first bytes of the moves (r->lead_seen): the
 * number check's and the moves' state (pass_move, once for each move). */
static void pass_apply(pgn_reader *r, mt_state *s, uint64_t tokens, uint64_t moves, uint64_t lead) {
    rav_level *l = &r->levels[r->depth - 1];
    if (tokens) {
        s->prev_skipped = tokens == 1 ? s->skipped : 0;
        s->skipped = 0;
    }
    if (moves) {
        s->move_seen |= r->depth == 1;
        l->pos.side = (uint8_t)(l->pos.side ^ (moves & 1u));
        l->prev_side = (uint8_t)(l->pos.side ^ 1u);
        l->has_move = 1;
        r->sum.plies += r->depth == 1 ? (uint32_t)moves : 0;
    }
    r->lead_seen |= lead;
}

/* One count for both: tokens in the low 32 bits, moves in the high ones (a window holds fewer than
 * 2^32 tokens). */
#define PASS_MOVE ((UINT64_C(1) << 32) + 1)

enum { KIND_NUMBER, KIND_MOVE, KIND_WORD };

/* The end of the token at window index st as fast_tokens reads it, 0 where it stops: a move number
 * (digits, at most 9, periods, a byte after them: KIND_NUMBER), or a symbol that starts with a
 * letter (fast_symbol) and holds a digit or castles with letters O (KIND_MOVE) or not (KIND_WORD:
 * "ep", a word, castling with 0 or o, for the general path). */
static inline size_t pass_token(const unsigned char *b, size_t len, scan_masks *m, size_t st,
                                int *kind) {
    unsigned at = pass_masks_at(m, b, len, st), c0 = b[st];
    size_t j;
    if (c0 - '0' < 10u) {
        size_t dn = bits_ctz(~(m->digit >> at) | (UINT64_C(1) << 10));
        j = st + dn;
        if (j >= len || b[j] != '.' || dn > 9) {
            return 0;
        }
        while (++j < len && b[j] == '.') {
        }
        *kind = KIND_NUMBER;
        return j < len ? j : 0;
    }
    uint64_t stops = ~(m->sym >> at) | (UINT64_C(1) << 17);
    size_t sn = bits_ctz(stops & ~UINT64_C(1));
    j = st + sn;
    if ((c0 | 0x20) - 'a' >= 26u || j >= len || sn > 16 || b[j] == '.' || b[j] >= 0x80) {
        return 0;
    }
    int move = ((m->digit >> at) & ((UINT64_C(1) << sn) - 2)) != 0 || castles_with_o(b + st, sn);
    *kind = move ? KIND_MOVE : KIND_WORD;
    return j;
}

/* The tokens pass_token reads, from window index i on, that end in the 64 bytes there (all in the
 * window), found from the bytes' class masks for all of them at once: a token is a run of symbol
 * bytes, and the white space between them holds at most one line break (the masks' test of the
 * whole block), so no loop over the bytes and no test per token, but for a move without a digit
 * (castling or a word). Stops before any other token, or any it cannot see the end of, for
 * pass_token to read as before. Returns the window index past the last token read (i: none),
 * with the counts of pgnk_mt_fast_pass added (lead NULL: the moves' first bytes not wanted) and
 * c's line moved to that token's. */
static size_t pass_block(fast_cur *c, size_t i, scan_masks *sm, uint64_t *count, uint64_t *lead) {
    const unsigned char *p = c->b + i;
    lexer_masks m;
    pass_toks t;
    pgnk_lexer_masks_all(p, &m);
    *sm = (scan_masks){i, m.sym, m.digit};
    uint64_t ends = pass_scan(p, &m, &t);
    if (!ends) {
        return i;
    }
    unsigned done = 63 - bits_clz(ends); /* past the last token read */
    uint64_t read = t.starts & pass_below(done), moves = t.moves & read;
    *count += bits_popcount(read) + ((uint64_t)bits_popcount(moves) << 32);
    for (uint64_t mv = lead ? moves : 0; mv; mv &= mv - 1) {
        *lead |= (uint64_t)1 << (p[bits_ctz(mv)] & 63);
    }
    unsigned last = 63 - bits_clz(read);
    uint64_t brk = m.lf & pass_below(last); /* one line break at most per gap */
    if (brk) {
        c->line += bits_popcount(brk);
        c->line_off = c->base + i + (63 - bits_clz(brk)) + 1;
    }
    c->at_start = 0;
    return i + done;
}

void pgnk_mt_fast_pass(pgn_reader *r, mt_state *s) {
    /* c: the place after the last token read, but for c.i, kept in i while the loop runs; n: the
     * line of the token looked at, when white space with a line break came before it (slow) */
    fast_cur c, n;
    if (!fast_load(&r->lx, &c)) {
        return;
    }
    const unsigned char *b = c.b;
    size_t i = c.i, len = c.len, st, j;
    scan_masks m = {MASKS_NONE, 0, 0};
    uint64_t count = 0, lead = 0;
    /* The moves' first bytes serve the language detection alone, which reads the moves on a board
     * (movetext_lang.c): a reader without boards (check --syntax-only) never looks at them, so the
     * blocks do not note them (issue 32: 10 instructions a move, 8% of the pass) */
    uint64_t *block_lead = (r->opts.flags & PGN_READ_NO_BOARD) ? NULL : &lead;
    int slow = 0, kind = KIND_NUMBER;
    while (kind != KIND_WORD) {
        if (len - i >= 64 && (j = pass_block(&c, i, &m, &count, block_lead)) != i) {
            i = j;
            continue;
        }
        /* white space: fast_space's common cases here, the others there */
        if (len - i >= 2 && (b[i] > ' ' || (b[i] == ' ' && b[i + 1] > ' '))) {
            st = i + (b[i] == ' ');
        } else {
            c.i = i;
            n = c;
            if ((st = fast_space(&c, &n)) == 0) {
                break;
            }
            slow = 1;
        }
        if ((j = pass_token(b, len, &m, st, &kind)) == 0) {
            break;
        }
        if (kind == KIND_WORD) {
            fast_token(&r->tok, slow ? &n : &c, st, j);
            r->have_tok = 1;
        } else {
            count += kind == KIND_MOVE ? PASS_MOVE : 1;
            lead |= kind == KIND_MOVE ? (uint64_t)1 << (b[st] & 63) : 0;
        }
        i = j;
        c.at_start = 0;
        if (slow) {
            c.line = n.line;
            c.line_off = n.line_off;
            slow = 0;
        }
    }
    if ((uint32_t)count || kind == KIND_WORD) {
        c.i = i;
        fast_store(&r->lx, &c);
        pgnk_mt_fast_tail(s, &c); /* c.i: just past the last token read */
    }
    pass_apply(r, s, (uint32_t)count, count >> 32, lead);
}
