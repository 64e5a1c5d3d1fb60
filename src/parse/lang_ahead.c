/* SPDX-License-Identifier: MIT */
/* A game's language is the game's (issue 28 point 3; docs/notation.md): when the candidate
 * languages read a move as different moves, each reads the rest of its line from the position
 * after its own move, and only those that read all of it stay. The rest of the line is read from
 * the lexer, which is then put back where it was: the window keeps the bytes from the move on
 * (lx.hold), so memory grows with the game, never more; no recursion, one position per
 * language. The same reading ahead tells whether a ( before the first move is ever closed
 * (pgnk_paren_closed). */
#include "parse.h"

#include "../base/bits.h"

#include <string.h>

#define BIT(l) ((uint32_t)1 << (l))
/* tokens read ahead at most: a bound on the work for one move, whatever the input */
#define AHEAD_TOKENS 4096u

/* Is symbol t the end of a game (a termination marker) or a move number? 1: end, 2: number. */
static int not_move(const token *t) {
    const char *p = t->ptr;
    size_t n = t->len, i = 0;
    if (t->value != 0) {
        return 1; /* an odd termination marker (½-½) */
    }
    while (i < n && p[i] >= '0' && p[i] <= '9') {
        i++;
    }
    if (i == n) {
        return 2;
    }
    if ((n == 3 && (memcmp(p, "1-0", 3) == 0 || memcmp(p, "0-1", 3) == 0)) ||
        (n == 7 && memcmp(p, "1/2-1/2", 7) == 0) || (n == 3 && memcmp(p, "1/2", 3) == 0)) {
        return 1;
    }
    return 0;
}

/* Does s hold a digit or is it castling (O-O, 0-0): a move every language must read? */
static int must_read(const char *s, size_t n) {
    int o = n > 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= '1' && s[i] <= '8') {
            return 1;
        }
        o &= s[i] == 'O' || s[i] == '0' || s[i] == '-' || s[i] == '+' || s[i] == '#';
    }
    return o;
}

/* Reads the rest of the line from the lexer in each language of live, from its position in p;
 * returns those that read every move (count: moves each read). It stops as soon as one language
 * is left: the others failed a move it read, so it is the answer whatever follows (a move it
 * fails later is reported when the reader gets there); reading on to the game's end made every
 * Dutch game (P: knight) read its rest twice (issue 28, bench/RESULTS.md). */
static uint32_t read_line(lexer *lx, pgn_pos *p, uint32_t *count, uint32_t live, uint32_t flags) {
    uint32_t depth = 0;
    token t;
    for (uint32_t k = 0; k < AHEAD_TOKENS && (live & (live - 1)); k++) {
        pgnk_lexer_next(lx, &t);
        if (t.kind == TOK_EOF || t.kind == TOK_LBRACKET || t.kind == TOK_STAR ||
            t.kind == TOK_BAD) {
            break; /* the game's end, or a glyph: no more to tell by */
        }
        if (t.kind == TOK_LPAREN || t.kind == TOK_RPAREN) {
            if (t.kind == TOK_RPAREN && depth == 0) {
                break; /* the end of the variation the move is in */
            }
            depth += t.kind == TOK_LPAREN ? 1u : (uint32_t)-1;
            continue;
        }
        if (t.kind != TOK_SYMBOL || depth > 0 || t.too_long) {
            continue;
        }
        int nm = not_move(&t);
        if (nm == 1 || (nm == 2 && t.blank_before && t.len == 1 && t.ptr[0] == '1')) {
            break; /* a result, or a new game's "1" after an empty line */
        }
        if (nm == 2) {
            continue;
        }
        int must = must_read(t.ptr, t.len);
        for (uint32_t left = live; left; left &= left - 1) {
            int l = (int)bits_ctz(left);
            pgn_san_result res;
            if (pgn_san_parse_lang(&p[l], (pgn_lang)l, t.ptr, t.len, flags, &res) == PGN_OK) {
                pgn_pos_play_unkeyed(&p[l], res.move);
                count[l]++;
            } else if (must) {
                live &= ~BIT(l); /* (a word: e.p., text, which English skips) */
            }
        }
    }
    return live;
}

/* The languages of all that read the most moves. */
static uint32_t most_read(uint32_t all, const uint32_t *count) {
    uint32_t most = 0, set = 0;
    for (uint32_t left = all; left; left &= left - 1) {
        int l = (int)bits_ctz(left);
        if (count[l] > most || set == 0) {
            most = count[l];
            set = 0;
        }
        set |= count[l] == most ? BIT(l) : 0;
    }
    return set;
}

void pgnk_ahead_begin(pgn_reader *r, uint64_t hold_from, int own, pgnk_lex_place *sv) {
    lexer *lx = &r->lx;
    *sv = (pgnk_lex_place){lexer_offset(lx),
                           lx->hold,
                           lx->ws_again_at,
                           lx->line_off,
                           lx->ws,
                           lx->line,
                           lx->at_line_start,
                           lx->last_cr,
                           0,
                           0,
                           0};
    int peeked = r->have_tok;
    if (peeked) {
        pgnk_lexer_rewind(lx, r->tok.at.offset, r->tok.at, r->tok.line_start);
        sv->off = r->tok.at.offset;
        sv->line = r->tok.at.line;
        sv->line_off = r->tok.at.offset - r->tok.at.column + 1;
        sv->at_line_start = r->tok.line_start;
        sv->ws_again_at = sv->off;
        sv->peek_blank = r->tok.blank_before;
        sv->peek_start = r->tok.line_start;
        r->have_tok = 0;
    }
    sv->peeked = (uint8_t)peeked;
    uint64_t from = own ? hold_from : sv->off;
    lx->hold = from < lx->hold ? from : lx->hold;
}

void pgnk_ahead_end(pgn_reader *r, const pgnk_lex_place *sv) {
    lexer *lx = &r->lx;
    lx->hold = sv->hold;
    pgnk_lexer_rewind(lx, sv->off,
                      (pgn_loc){sv->off, sv->line, (uint32_t)(sv->off - sv->line_off + 1)},
                      sv->at_line_start);
    lx->line_off = sv->line_off;
    lx->ws = sv->ws;
    lx->ws_again_at = sv->ws_again_at;
    lx->last_cr = sv->last_cr;
    set_keep(lx, sv->off);
    if (sv->peeked) { /* read again, with what only the first reading could see */
        pgnk_lexer_next(lx, &r->tok);
        r->tok.blank_before = sv->peek_blank;
        r->tok.line_start = sv->peek_start;
        r->have_tok = 1;
    }
}

uint32_t pgnk_lang_ahead(pgn_reader *r, const pgn_pos *pos, const char **s, size_t n, pgn_loc at,
                         uint32_t flags, uint32_t set, uint32_t *best) {
    lexer *lx = &r->lx;
    pgn_pos p[PGN_LANG_COUNT];
    uint32_t count[PGN_LANG_COUNT] = {0}, live = 0;
    for (uint32_t left = set; left; left &= left - 1) {
        int l = (int)bits_ctz(left);
        pgn_san_result res;
        if (pgn_san_parse_lang(pos, (pgn_lang)l, *s, n, flags, &res) == PGN_OK) {
            p[l] = *pos;
            pgn_pos_play_unkeyed(&p[l], res.move);
            live |= BIT(l);
        }
    }
    /* where the reader is: after the move, or (a look at the next token) before r->tok */
    int own = !r->have_tok && *s == r->tok.ptr; /* the move is r->tok's, in the window */
    pgnk_lex_place sv;
    pgnk_ahead_begin(r, at.offset, own, &sv);
    uint32_t all = live;
    live = read_line(lx, p, count, live, flags);
    pgnk_ahead_end(r, &sv);
    if (own) {
        r->tok.ptr = lx->buf + (at.offset - lx->base);
        *s = r->tok.ptr;
    }
    *best = most_read(all, count);
    return live;
}

int pgnk_paren_closed(pgn_reader *r) {
    pgnk_lex_place sv;
    pgnk_ahead_begin(r, 0, 0, &sv);
    uint32_t depth = 1, k = 0;
    token t;
    for (; k < AHEAD_TOKENS && depth > 0; k++) {
        pgnk_lexer_next(&r->lx, &t);
        if (t.kind == TOK_EOF || t.kind == TOK_LBRACKET ||
            (t.kind == TOK_SYMBOL && t.blank_before && t.len == 1 && t.ptr[0] == '1')) {
            break; /* the game's end, or a new game's "1" after an empty line */
        }
        depth += t.kind == TOK_LPAREN ? 1u : t.kind == TOK_RPAREN ? (uint32_t)-1 : 0u;
    }
    pgnk_ahead_end(r, &sv);
    /* too far to tell, or the input failed: closed, as if it were */
    return depth == 0 || k == AHEAD_TOKENS || r->lx.error != PGN_OK;
}
