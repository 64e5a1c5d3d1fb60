/* SPDX-License-Identifier: MIT */
/* Movetext tokens in forms that are not plain PGN, told apart by their bytes alone: glyphs glued
 * to a move or split by the lexer, ChessBase's forfeit results, promotions to a figurine or a
 * Cyrillic letter, castling with a Unicode dash, a pawn drop without its letter. Split from
 * movetext.c. */
#include "movetext_internal.h"

#include <string.h>

/* The lexer ends a symbol at a non-ASCII byte, so +− (U+2212) comes as "+" then "−", and −+ as "−"
 * then "+". Either half is no glyph alone: look at the next token, and if it touches this one and
 * the two make a glyph, read both as one. */
int pgnk_mt_glyph_half(const token *t) {
    return (t->len == 1 && t->ptr[0] == '+') ||
           (t->len == 3 && memcmp(t->ptr, "\xE2\x88\x92", 3) == 0); /* U+2212 MINUS SIGN */
}

/* ChessBase's forfeit results (+-- and +:- a win for White, --+ and -:+ for Black): their
 * result, or PGN_RESULT_NONE. */
pgn_result pgnk_mt_forfeit_result(const char *p) {
    if (memcmp(p, "+--", 3) == 0 || memcmp(p, "+:-", 3) == 0) {
        return PGN_RESULT_WHITE_WINS;
    }
    if (memcmp(p, "--+", 3) == 0 || memcmp(p, "-:+", 3) == 0) {
        return PGN_RESULT_BLACK_WINS;
    }
    return PGN_RESULT_NONE;
}

/* ASCII glyphs that may be glued to a move (e4+/=, Nf3=+, Qh4+-+), longest first. */
static const char *const glued_glyphs[] = {"+/=", "=/+", "+/-", "-/+", "+=", "=+", "+-", "-+", "="};

/* The length of the ASCII glyph glued to the end of a move token, 0 if none. The longest glyph
 * wins (Bb5+= is Bb5 with +=, not Bb5+ with =), and at least two bytes of move must remain. Only
 * asked when the token could not be played, so moves pay nothing for it. */
size_t pgnk_mt_glued_glyph(const token *t) {
    for (size_t k = 0; k < sizeof glued_glyphs / sizeof glued_glyphs[0]; k++) {
        size_t n = strlen(glued_glyphs[k]);
        if (n + 2 <= t->len && memcmp(t->ptr + t->len - n, glued_glyphs[k], n) == 0) {
            return n;
        }
    }
    return 0;
}

/* The glyph glued to a move: the last n bytes of t, as a token of its own. */
token pgnk_mt_glyph_part(const token *t, size_t n) {
    token g = *t;
    g.ptr += t->len - n;
    g.len = n;
    g.at.offset += t->len - n;
    g.at.column += (uint32_t)(t->len - n);
    return g;
}

/* A promotion to a figurine or a Cyrillic letter (e8=♕, e8Ф), which the lexer ends the symbol
 * before: when the token touching t starts with such a glyph, the two as one token in *joined
 * (text in buf). t may be the reader's token, which the look overwrites: then the copy in *joined
 * is returned, and a look that found nothing leaves the next token unread with l->dead = PEEKED,
 * so that the fast path hands it to the general one. */
const token *pgnk_mt_promotion_glyph(pgn_reader *r, rav_level *l, const token *t, token *joined,
                                     char *buf, size_t cap) {
    char last = t->len ? t->ptr[t->len - 1] : 0;
    if (r->have_tok || t->len + 8 > cap || (last != '=' && last != '1' && last != '8')) {
        return t;
    }
    *joined = *t;
    memcpy(buf, t->ptr, t->len);
    joined->ptr = buf;
    reader_next_token(r);
    const token *n = &r->tok;
    size_t g = n->kind == TOK_BAD ? pgnk_lang_glyph_len(n->ptr, n->len) : 0;
    if (g > 0 && n->at.offset == joined->at.offset + joined->len && joined->len + n->len <= cap) {
        memcpy(buf + joined->len, n->ptr, n->len);
        joined->len += n->len;
        reader_consume(r);
        reader_next_token(r); /* e8=♕+: the lexer ends the glyph before the + */
        if (n->kind == TOK_SYMBOL && n->at.offset == joined->at.offset + joined->len &&
            (n->ptr[0] == '+' || n->ptr[0] == '#') && joined->len + n->len <= cap) {
            memcpy(buf + joined->len, n->ptr, n->len);
            joined->len += n->len;
            reader_consume(r);
        } else if (!l->dead) {
            l->dead = PEEKED;
        }
    } else if (!l->dead) {
        l->dead = PEEKED;
    }
    return joined;
}

int pgnk_mt_is_digits(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') {
            return 0;
        }
    }
    return n > 0;
}

/* Every move names its target square, so it has a digit, except castling (O-O, o-o-o+) and the
 * null move (--). A symbol without either is text: a word such as "resigns", or stray letters. */
int pgnk_mt_could_be_move(const token *t) {
    int castle = 1, has_o = 0;
    for (size_t i = 0; i < t->len; i++) {
        char c = t->ptr[i];
        if (c >= '0' && c <= '9') {
            return 1;
        }
        has_o |= c == 'O' || c == 'o';
        castle &= c == 'O' || c == 'o' || c == '-' || c == '+' || c == '#';
    }
    return castle && (has_o || (t->len == 2 && t->ptr[0] == '-' && t->ptr[1] == '-'));
}

/* A symbol that counts as "a move was seen" (move_seen), in every mode alike: not a bare number. */
int pgnk_mt_move_shaped(const token *t) {
    return t->kind == TOK_SYMBOL && !pgnk_mt_is_digits(t->ptr, t->len) && pgnk_mt_could_be_move(t);
}

/* The termination marker symbol t is, or PGN_RESULT_NONE; *lax: a form W_RESULT_FORM names (1/2,
 * and ½-½ or 1–0 with an en dash, which the lexer read: digest T79). */
pgn_result pgnk_mt_symbol_result(const token *t, int *lax) {
    char c0 = t->ptr[0];
    pgn_result res =
        c0 == '0' || c0 == '1' || c0 == '*' ? pgn_result_parse(t->ptr, t->len) : PGN_RESULT_NONE;
    *lax = 0;
    if (res == PGN_RESULT_NONE && t->len == 3 && memcmp(t->ptr, "1/2", 3) == 0) {
        res = PGN_RESULT_DRAW;
        *lax = 1;
    } else if (res == PGN_RESULT_NONE && t->high && t->len >= 5) {
        res = (pgn_result)t->value;
        *lax = res != PGN_RESULT_NONE;
    } else if (res == PGN_RESULT_NONE && t->len == 3 && (c0 == '+' || c0 == '-')) {
        res = pgnk_mt_forfeit_result(t->ptr);
        *lax = res != PGN_RESULT_NONE;
    }
    return res;
}

/* Castling written with a Unicode dash (O–O, a symbol the lexer made whole: t->high), played in
 * its ASCII form with W_CASTLE_ZERO; chess.com's pawn drop without its letter (@g2), played as
 * P@g2 with W_PAWN_DROP. Returns 1 if t was played here. */
COLD int pgnk_mt_odd_move(pgn_reader *r, mt_state *s, rav_level *l, const token *t) {
    char buf[24];
    token a = *t;
    a.ptr = buf;
    a.high = 0;
    if (t->ptr[0] == '@') {
        if (t->len + 1 > sizeof buf || l->pos.variant != PGN_VARIANT_CRAZYHOUSE) {
            return 0;
        }
        buf[0] = 'P';
        memcpy(buf + 1, t->ptr, t->len);
        a.len = t->len + 1;
    } else {
        a.len = pgnk_dash_ascii(t->ptr, t->len, buf, sizeof buf);
    }
    if (a.len == 0 || !pgnk_mt_could_be_move(&a)) {
        return 0;
    }
    if (buf[0] != '0' && buf[0] != 'o') { /* (0-0, o-o: the SAN reader says W_CASTLE_ZERO) */
        pgnk_reader_diag(r, t->ptr[0] == '@' ? PGN_W_PAWN_DROP : PGN_W_CASTLE_ZERO, t->at, t->ptr,
                         t->len);
    }
    pgnk_mt_play_token(r, s, l, &a);
    r->lead_seen |= (uint64_t)1 << (buf[0] & 63);
    l->dead = l->dead == PEEKED ? 0 : l->dead;
    return 1;
}

/* Token t could not be played (st): see movetext_internal.h (from movetext.c, which keeps its
 * hot path). */
size_t pgnk_mt_unplayable(pgn_reader *r, mt_state *s, rav_level *l, const token *t, pgn_status st,
                          pgn_san_result *res) {
    size_t glued = pgnk_mt_glued_glyph(t);
    if (glued > 0 && pgn_san_parse(&l->pos, t->ptr, t->len - glued, s->san_flags, res) == PGN_OK) {
        return glued;
    }
    if (st != PGN_E_LANGUAGE_AMBIGUOUS && st != PGN_E_DESCRIPTIVE_AMBIGUOUS &&
        pgnk_repair_move(r, &l->pos, t->ptr, t->len, t->at, s->san_flags, &res->move)) {
        res->warnings = 0; /* docs/repair.md: played as r->repair_san */
        return PGNK_MT_REPAIRED;
    }
    if (st == PGN_E_BAD_SAN && pgnk_move_incomplete(t->ptr, t->len)) {
        pgnk_mt_pending(s, t, 0); /* e8=, N1, 1-: E_TRUNCATED if the movetext ends there */
    } else if (st != PGN_E_LANGUAGE_AMBIGUOUS && st != PGN_E_DESCRIPTIVE_AMBIGUOUS) { /* reported */
        pgnk_reader_diag(r, st, t->at, t->ptr, t->len);
    }
    l->dead = 1;
    return 0;
}
