/* SPDX-License-Identifier: MIT */
/* Movetext tokens that are no moves (movetext.c): stray text skipped with W_SKIPPED_TEXT, glyphs
 * read as NAGs (±, +/=: W_GLYPH_NAG), figurines and Cyrillic piece letters joined to the square
 * that follows them. Kept out of the move path. */
#include "movetext_internal.h"

#include "../base/utf8.h"

#include <string.h>

#include "pgnkit/annot.h"
#include "pgnkit/nag.h"

/* Text that is no PGN token: one W_SKIPPED_TEXT for a run of such tokens in a row (<x>, c}). */
void pgnk_mt_skip_text(pgn_reader *r, mt_state *s, const token *t) {
    if (!s->prev_skipped) {
        pgnk_reader_diag(r, PGN_W_SKIPPED_TEXT, t->at, t->ptr, t->len);
    }
    s->skipped = 1;
}

/* The NAG of glyph t, also when it is written in a single-byte encoding (± is 0xB1 in Latin-1 and
 * Windows-1252, 0xF1 in CP437): then it is converted as comments are. */
static int glyph_nag(pgn_reader *r, const token *t, pgn_color mover, unsigned *nag) {
    pgn_encoding enc = r->opts.encoding;
    if (pgn_nag_from_symbol(t->ptr, t->len, mover, nag)) {
        return 1;
    }
    if (!t->high || enc == PGN_ENC_UTF8 || pgnk_utf8_valid(t->ptr, t->len)) {
        return 0;
    }
    r->text.len = 0;
    enc = pgnk_text_encoding(r, t->ptr, t->len);
    return pgnk_text_append_converted(r, &r->text, t->ptr, t->len, enc) &&
           pgn_nag_from_symbol(r->text.ptr, r->text.len, mover, nag);
}

/* A glyph such as ±, +/=, = or N after a move: its NAG, with W_GLYPH_NAG. Returns 0 if t is no
 * glyph or no move precedes it in this line. */
int pgnk_mt_read_glyph(pgn_reader *r, mt_state *s, rav_level *l, const token *t) {
    unsigned nag;
    /* l->prev_side: the side that played the move (⟳ → ↑ ⇆ ⨀ name a side by it) */
    if (!l->has_move || !glyph_nag(r, t, (pgn_color)l->prev_side, &nag)) {
        return 0;
    }
    pgnk_reader_diag(r, PGN_W_GLYPH_NAG, t->at, t->ptr, t->len);
    pgnk_mt_on_nag(r, s, l, t, nag);
    return 1;
}

/* A figurine or a Cyrillic piece letter (♘, Кр), which ends a symbol for the lexer, and the symbol
 * touching it (f3, e2): read as one move (♘f3, Крe2); a crazyhouse drop's @ stays with the glyph
 * (♘@ then f3). Returns 0, the next token unread, if t is no such glyph or nothing touches it. */
static int piece_glyph(pgn_reader *r, mt_state *s, rav_level *l, const token *t) {
    char buf[64];
    size_t g = pgnk_lang_glyph_len(t->ptr, t->len);
    size_t head = g > 0 && t->len == g + 1 && t->ptr[g] == '@' ? g + 1 : g;
    if (g == 0 || head != t->len || (!l->has_move && r->depth > 1)) {
        return 0;
    }
    token both = *t;
    memcpy(buf, t->ptr, t->len);
    both.ptr = buf;
    reader_next_token(r);
    const token *n = &r->tok;
    int lax;
    /* a termination marker touching it (♕1/2) stays one: the game ends there, as a skipped read
     * (which never joins) ends it */
    if (n->kind != TOK_SYMBOL || n->at.offset != both.at.offset + both.len ||
        both.len + n->len > sizeof buf || pgnk_mt_symbol_result(n, &lax) != PGN_RESULT_NONE) {
        /* t was overwritten by the look: its copy; the next stays */
        pgnk_mt_skip_text(r, s, &both);
        return 1;
    }
    memcpy(buf + both.len, n->ptr, n->len);
    both.len += n->len;
    if (!pgnk_mt_could_be_move(&both)) {
        both.len = g;
        pgnk_mt_skip_text(r, s, &both);
        return 1;
    }
    /* counted as a skipped read counts it: the glyph never, the symbol touching it if it is
     * shaped like a move (read_movetext) */
    s->move_seen |= r->depth == 1 && pgnk_mt_move_shaped(n);
    reader_consume(r);
    s->prev_skipped = s->skipped;
    s->skipped = 0;
    pgnk_mt_play_token(r, s, l, &both);
    l->dead = l->dead == PEEKED ? 0 : l->dead;
    return 1;
}

/* A token that is no move: a glyph's NAG, else skipped text. t may be the reader's current token,
 * which a look at the next one overwrites, so the first half is copied first. */
void pgnk_mt_glyph_or_text(pgn_reader *r, mt_state *s, rav_level *l, const token *t) {
    if (pgnk_mt_read_glyph(r, s, l, t) || piece_glyph(r, s, l, t)) {
        return;
    }
    if (t->kind == TOK_SYMBOL && pgnk_move_incomplete(t->ptr, t->len)) {
        int weak = pgnk_move_weak(t->ptr, t->len);
        pgnk_mt_pending(s, t, weak); /* Rxd: a move cut short, not stray text */
        l->dead = weak ? l->dead : 1;
        return;
    }
    if (!l->has_move || !pgnk_mt_glyph_half(t)) {
        pgnk_mt_skip_text(r, s, t);
        return;
    }
    char buf[8];
    token both = *t;
    memcpy(buf, t->ptr, t->len);
    both.ptr = buf;
    reader_next_token(r);
    const token *n = &r->tok;
    int touches = n->at.offset == both.at.offset + both.len;
    if ((n->kind == TOK_SYMBOL || n->kind == TOK_BAD) && touches && n->len > 0 &&
        both.len + n->len <= sizeof buf) {
        memcpy(buf + both.len, n->ptr, n->len);
        both.len += n->len;
        if (pgnk_mt_read_glyph(r, s, l, &both)) {
            reader_consume(r);
            return;
        }
        both.len -= n->len;
    }
    pgnk_mt_skip_text(r, s, &both); /* the next token stays unread */
}
