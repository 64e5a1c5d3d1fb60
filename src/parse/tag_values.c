/* SPDX-License-Identifier: MIT */
/* Tag values the plain reading refuses (docs/pgn-dialect.md, Tags): unescaped quotes inside the
 * value, a closing quote missing before the ']' at the end of its line; and a value's length as
 * PGN counts it. Only asked on the error path of reader.c's read_tag_value. Split from reader.c. */
#include "parse.h"

/* Characters of a string token's data: escapes count once, UTF-8 sequences once. */
size_t pgnk_tag_string_chars(const token *t) {
    size_t n = 0;
    for (size_t i = 0; i < t->len; i++) {
        unsigned char c = (unsigned char)t->ptr[i];
        if (c == '\\' && i + 1 < t->len && (t->ptr[i + 1] == '"' || t->ptr[i + 1] == '\\')) {
            i++;
        }
        n += (c & 0xC0) != 0x80;
    }
    return n;
}

/* A tag value with unescaped quotes inside ([White ""Socrates Expert""], [Event "The "Big" Open"]):
 * the bytes between its opening quote and the first `"` that only blanks separate from a `]` on
 * the same line, with W_TAG_QUOTES at the quote that ended the string early (docs/pgn-dialect.md,
 * Tags). Returns 1 with the lexer past the `]` (as a current TOK_RBRACKET), else 0 with the
 * lexer and the current token as they were. */
int pgnk_tag_lax_value(pgn_reader *r, pgn_loc value_at, size_t first_len) {
    token saved = r->tok;
    pgn_str v;
    pgnk_lexer_rewind(&r->lx, value_at.offset, value_at, 0);
    size_t end = pgnk_lexer_lax_value(&r->lx, &v);
    if (end == 0) {
        pgnk_lexer_rewind(&r->lx, saved.at.offset, saved.at, saved.line_start);
        r->have_tok = 0;
        reader_next_token(r);
        /* lexed again from its own first byte, the token no longer sees the empty line before it,
         * which is what ends a damaged tag section (read_tag: TAG_NEW_GAME) */
        r->tok.blank_before = saved.blank_before;
        return 0;
    }
    token t = saved;
    t.ptr = v.ptr;
    t.len = v.len;
    t.at = value_at;
    t.high = 0;
    for (size_t i = 0; i < v.len; i++) {
        t.high |= (unsigned char)v.ptr[i] >= 0x80;
    }
    pgn_loc q = value_at; /* the quote that ended the string early */
    q.offset += 1 + first_len;
    q.column += (uint32_t)(1 + first_len);
    pgnk_reader_diag(r, PGN_W_TAG_QUOTES, q, v.ptr, v.len);
    if (!pgnk_text_decode(r, &r->value, &t, 1)) {
        return 0;
    }
    pgnk_lexer_take(&r->lx, end);
    r->tok.kind = TOK_RBRACKET;
    r->have_tok = 1;
    return 1;
}

/* A string the end of its line cut ([White "Kasparov]): when its text ends with a ']' (blanks
 * after it allowed), the value is the text before that ']', with W_TAG_UNCLOSED (issue 28 point
 * 7; docs/pgn-dialect.md, Tags). Returns 1 with the value in r->value and the string consumed. */
int pgnk_tag_unclosed(pgn_reader *r, pgn_loc *value_at) {
    token t = r->tok;
    while (t.len > 0 && (t.ptr[t.len - 1] == ' ' || t.ptr[t.len - 1] == '\t')) {
        t.len--;
    }
    if (t.kind != TOK_STRING || !t.unterminated || t.too_long || t.len == 0 ||
        t.ptr[t.len - 1] != ']') {
        return 0;
    }
    t.len--;
    pgnk_reader_diag(r, PGN_W_TAG_UNCLOSED, t.at, t.ptr, t.len);
    if (!pgnk_text_decode(r, &r->value, &t, 1)) {
        return 0;
    }
    *value_at = t.at;
    reader_consume(r);
    return 1;
}
