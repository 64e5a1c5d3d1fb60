/* SPDX-License-Identifier: MIT */
/* Movetext tokens in forms that are not plain PGN, told apart by their bytes alone: glyphs glued
 * to a move or split by the lexer, ChessBase's forfeit results. Split from movetext.c. */
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
