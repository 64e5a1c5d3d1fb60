/* SPDX-License-Identifier: MIT */
/* Drops in a game with no Variant tag (issue 28 point 7; docs/pgn-dialect.md): the game is
 * crazyhouse from its start (its pockets fill from the first capture on), so the reader looks at
 * the movetext before it reads it. Bounded whatever the input and the size of the reads: first a
 * search of the stream's bytes for the next @ (one search serves many games: its answer is kept),
 * which a line starting with [ (the next game's tags) or the movetext's first PGNK_DROP_AHEAD
 * bytes end; only when it finds an @ are the tokens read ahead, up to that same byte (the
 * lexer's limit: a refill reads no further), and the lexer put back. The window holds at most
 * those bytes more, and every decision is made on the stream's bytes before the limit: a feed of
 * one byte per read decides as a whole buffer does. */
#include "parse.h"

#include <string.h>

#define NONE UINT64_MAX
/* Bytes after a token that the lexer may look at (an e.p.'s dot and the letter after it): a token
 * is judged only when they too lie before the limit, as they do in a window that holds more. */
#define LEX_PEEK 4u

/* Is window index k the [ of a line starting with [ (not [%: a comment's command)? Index k - 1
 * must be in the window, and k + 1 too unless the input ends at k + 1. */
static int tag_line(const lexer *lx, size_t k) {
    const char *b = lx->buf;
    return b[k] == '[' && (b[k - 1] == '\n' || b[k - 1] == '\r') &&
           (k + 1 == lx->len || b[k + 1] != '%');
}

/* Searches the stream's bytes [from, stop), all in the window, for the first @ and the last tag
 * line before it that starts after m (the movetext's start: the window holds the byte before
 * it): at_next, at_tag (kept if none) and at_end, the end of what the search covers. */
static void search(pgn_reader *r, uint64_t from, uint64_t stop, uint64_t m) {
    lexer *lx = &r->lx;
    size_t i = (size_t)(from - lx->base), e = (size_t)(stop - lx->base);
    const char *at = memchr(lx->buf + i, '@', e - i);
    size_t end = at ? (size_t)(at - lx->buf) : e;
    size_t low = (size_t)((from > m ? from : m + 1) - lx->base);
    for (size_t k = end; k > low; k--) {
        if (tag_line(lx, k - 1)) {
            r->at_tag = lx->base + k; /* 1 + its offset */
            break;
        }
    }
    r->at_next = at ? lx->base + end : NONE;
    r->at_end = lx->base + end;
}

/* Can the movetext starting at stream offset m hold a drop: an @ before m + PGNK_DROP_AHEAD with
 * no tag line after m before it? (One at m itself is no movetext's.) The search goes on from where
 * it stopped, the window filled as needed and holding the bytes from m on. */
static int at_ahead(pgn_reader *r, uint64_t m) {
    lexer *lx = &r->lx;
    uint64_t limit = m + PGNK_DROP_AHEAD;
    if (r->at_end == 0 || m < r->at_from || m > r->at_end) { /* it does not cover m: anew */
        r->at_from = r->at_end = m;
        r->at_next = NONE;
        r->at_tag = 0;
        r->at_eof = 0;
    }
    for (;;) {
        if (m + 1 < r->at_tag) {
            return 0; /* the next game's tags come first */
        }
        if (r->at_next != NONE) {
            return r->at_next < limit;
        }
        if (r->at_eof || r->at_end >= limit) {
            return 0;
        }
        /* the last byte is searched once the one after it is there (tag_line looks at it) */
        uint64_t have = lx->base + lx->len;
        have -= !lx->eof && have > 0;
        if (have <= r->at_end) {
            if (lx->eof) {
                r->at_eof = 1;
                return 0;
            }
            lx->keep = lx->keep < m ? lx->keep : m;
            if (!pgnk_lexer_fill(lx) && !lx->eof) {
                return 0; /* (no room: the reader's next read fails too) */
            }
            continue;
        }
        search(r, r->at_end, have < limit ? have : limit, m);
        r->at_eof = lx->eof && r->at_end == lx->base + lx->len;
    }
}

/* Is t a drop: an @ before a square (P@e6, @e6, S@f3), or ending a glyph's token (♘@)? */
static int is_drop(const token *t) {
    const char *at = t->ptr ? memchr(t->ptr, '@', t->len) : NULL;
    if (!at) {
        return 0;
    }
    size_t rest = t->len - (size_t)(at - t->ptr) - 1;
    return (rest >= 2 && at[1] >= 'a' && at[1] <= 'h' && at[2] >= '1' && at[2] <= '8') ||
           (rest == 0 && t->high);
}

/* Does symbol t end the game: a termination marker outside a variation, or a new game's 1 after
 * an empty line? */
static int game_end(const token *t, uint32_t depth) {
    if (t->blank_before && t->len == 1 && t->ptr[0] == '1') {
        return 1;
    }
    return depth == 0 && (t->value != 0 || pgn_result_parse(t->ptr, t->len) != PGN_RESULT_NONE ||
                          (t->len == 3 && memcmp(t->ptr, "1/2", 3) == 0));
}

/* Reads the movetext's tokens ahead, up to the game's end or the limit, for a drop; if one is
 * found, W_DROP_CRAZYHOUSE is made due at it. The lexer is put back. */
static int read_ahead(pgn_reader *r, uint64_t limit) {
    lexer *lx = &r->lx;
    pgnk_lex_place sv;
    pgnk_ahead_begin(r, 0, 0, &sv);
    lx->limit = limit;
    uint32_t depth = 0;
    int found = 0;
    token t;
    while (!found) {
        pgnk_lexer_next(lx, &t);
        if (lexer_offset(lx) + LEX_PEEK > limit || t.kind == TOK_EOF || t.kind == TOK_LBRACKET ||
            (t.kind == TOK_STAR && depth == 0)) {
            break;
        }
        if (t.kind == TOK_LPAREN || (t.kind == TOK_RPAREN && depth > 0)) {
            depth += t.kind == TOK_LPAREN ? 1u : (uint32_t)-1;
        }
        if ((t.kind != TOK_SYMBOL && t.kind != TOK_BAD) || t.too_long) {
            continue;
        }
        if (t.kind == TOK_SYMBOL && game_end(&t, depth)) {
            break;
        }
        found = is_drop(&t);
    }
    if (found) {
        r->drop_warn = 1;
        r->drop_at = t.at;
        r->drop_len = (uint8_t)(t.len < sizeof r->drop_text ? t.len : sizeof r->drop_text);
        memcpy(r->drop_text, t.ptr, r->drop_len);
    }
    lx->limit = NONE;
    pgnk_ahead_end(r, &sv);
    return found;
}

int pgnk_drop_ahead(pgn_reader *r) {
    lexer *lx = &r->lx;
    if (r->have_tok && r->tok.too_long) {
        return 0; /* (its text is gone from the window) */
    }
    uint64_t m = r->have_tok ? r->tok.at.offset : lexer_offset(lx);
    const char *buf = lx->buf;
    uint64_t base = lx->base;
    int maybe = at_ahead(r, m);
    if (r->have_tok && r->tok.ptr) { /* the token looked at follows the window */
        r->tok.ptr = lx->buf + (size_t)(base + (uint64_t)(r->tok.ptr - buf) - lx->base);
    }
    return maybe && read_ahead(r, m + PGNK_DROP_AHEAD);
}

void pgnk_drop_warn(pgn_reader *r) {
    if (r->drop_warn) {
        r->drop_warn = 0;
        pgnk_reader_diag(r, PGN_W_DROP_CRAZYHOUSE, r->drop_at, r->drop_text, r->drop_len);
    }
}
