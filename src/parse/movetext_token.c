/* SPDX-License-Identifier: MIT */
/* Movetext tokens one at a time (the general path: movetext.c's fast path reads the common
 * tokens itself): termination markers, move numbers, moves, NAGs, comments and RAVs. Split from
 * movetext.c. */
#include "movetext_internal.h"

#include <string.h>

/* A symbol that is no marker, number or e.p. suffix: a move (odd forms, other languages' words
 * and glyphs included). */
static void play_move(pgn_reader *r, mt_state *s, rav_level *l, const token *t) {
    if ((t->high || t->ptr[0] == '@') && pgnk_mt_odd_move(r, s, l, t)) {
        return;
    }
    int word =
        pgnk_mt_could_be_move(t) ? 1 : pgnk_lang_word(r, t->ptr, t->len); /* PxP, ch: descriptive */
    if (word != 1) {
        if (word == 0) {
            pgnk_mt_glyph_or_text(r, s, l, t);
        }
        return;
    }
    char c0 = t->ptr[0]; /* t may be overwritten by a look at the next token */
    pgnk_mt_play_token(r, s, l, t);
    r->lead_seen |= (uint64_t)1 << (c0 & 63); /* which languages agree (movetext_lang.c) */
    l->dead = l->dead == PEEKED ? 0 : l->dead;
}

/* A symbol: termination marker, move number, e.p. suffix or move. Returns 1 at the game's end. */
static int on_symbol(pgn_reader *r, mt_state *s, rav_level *l, const token *t) {
    int lax;
    pgn_result res = pgnk_mt_symbol_result(t, &lax);
    if (lax) {
        pgnk_reader_diag(r, PGN_W_RESULT_FORM, t->at, t->ptr, t->len);
    }
    if (res != PGN_RESULT_NONE) {
        if (r->depth > 1 || s->skip_parens) {
            pgnk_reader_diag(r, PGN_W_RESULT_IN_VARIATION, t->at, t->ptr, t->len);
            return 0;
        }
        r->marker = res;
        r->marker_at = t->at;
        return 1;
    }
    if (s->skip_parens || l->dead) {
        return 0;
    }
    if (pgnk_mt_is_digits(t->ptr, t->len)) {
        if (s->board && !s->number_warned) {
            unsigned long n = 0;
            for (size_t i = 0; i < t->len && n < 100000000; i++) {
                n = n * 10 + (unsigned long)(t->ptr[i] - '0');
            }
            if (n != l->pos.fullmove) {
                s->number_warned = 1;
                pgnk_reader_diag(r, PGN_W_MOVE_NUMBER, t->at, t->ptr, t->len);
            }
        }
        return 0;
    }
    if (l->has_move && ((t->len == 2 && memcmp(t->ptr, "ep", 2) == 0) ||
                        (t->len == 3 && memcmp(t->ptr, "e.p", 3) == 0))) {
        pgnk_reader_diag(r, PGN_W_EP_SUFFIX, t->at, t->ptr, t->len);
        return 0;
    }
    play_move(r, s, l, t);
    return 0;
}

void pgnk_mt_on_nag(pgn_reader *r, mt_state *s, rav_level *l, const token *t, unsigned nag) {
    if (!l->has_move) {
        pgnk_mt_skip_text(r, s, t);
        return;
    }
    if (nag > 255) {
        pgnk_reader_diag(r, PGN_W_NAG_RANGE, t->at, t->ptr, t->len);
        return;
    }
    if (r->v && r->v->nag && r->v->nag(r->user, nag) == PGN_FLOW_STOP) {
        r->v = NULL;
    }
}

/* One movetext token (consumed): see movetext_internal.h. */
int pgnk_mt_on_token(pgn_reader *r, mt_state *s, rav_level *l, const token *t) {
    int live = !s->skip_parens && !l->dead;
    s->prev_skipped = s->skipped;
    s->skipped = 0;
    if (t->too_long && t->kind != TOK_COMMENT && t->kind != TOK_LINE_COMMENT) {
        /* a symbol or a run of stray bytes longer than max_token: its text was dropped */
        if (live) {
            pgnk_reader_diag(r, PGN_E_TOKEN_TOO_LONG, t->at, NULL, 0);
            s->skipped = 1;
        }
        return 0;
    }
    switch (t->kind) {
    case TOK_STAR: {
        token sym = *t;
        sym.ptr = "*";
        sym.len = 1;
        return on_symbol(r, s, l, &sym);
    }
    case TOK_SYMBOL: return on_symbol(r, s, l, t);
    case TOK_PERIODS: break;
    case TOK_LPAREN: pgnk_mt_on_open(r, s, l, t); break;
    case TOK_RPAREN: pgnk_mt_on_close(r, s, t); break;
    case TOK_COMMENT:
    case TOK_LINE_COMMENT:
        if (live || t->unterminated) {
            pgnk_mt_on_comment(r, t);
        }
        break;
    case TOK_NAG:
    case TOK_ANNOTATION:
        if (live && (t->kind == TOK_NAG || t->value)) {
            pgnk_mt_on_nag(r, s, l, t, t->value);
        } else if (live) {
            pgnk_mt_skip_text(r, s, t); /* an annotation such as !!! */
        }
        break;
    default:
        /* a UTF-8 glyph (±, ⩲, ∞) is no PGN token: the lexer leaves it as TOK_BAD */
        if (live && t->kind == TOK_BAD && t->high) {
            pgnk_mt_glyph_or_text(r, s, l, t);
        } else if (live) {
            pgnk_mt_skip_text(r, s, t);
        }
        break;
    }
    return 0;
}

/* English read t with its lax pawn letter (Pc3: W_PAWN_LETTER) while the other languages are
 * still possible: where P is a knight (Dutch) and reads t as another legal move, the rest of the
 * line decides (movetext_lang.c): English (0), the other language, *other its move (2), or
 * neither (E_LANGUAGE_AMBIGUOUS reported, the line ends: 1). */
int pgnk_mt_pawn_letter_split(pgn_reader *r, mt_state *s, rav_level *l, const token *t,
                              const pgn_san_result *res, pgn_san_result *other) {
    if (!(res->warnings & PGN_WARN_BIT(PGN_W_PAWN_LETTER)) ||
        (r->opts.flags & PGN_READ_NO_LANG_DETECT)) {
        return 0;
    }
    const char *p = t->ptr; /* (r->tok's follows the window) */
    int k = pgnk_lang_split(r, &l->pos, &p, t->len, t->at, s->san_flags, res->move, other);
    s->board = k == 2 ? BOARD_OTHER : s->board;
    l->dead = k == 1;
    return k;
}
