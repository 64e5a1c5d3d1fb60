/* SPDX-License-Identifier: MIT */
/* The tags-only read's skip of a movetext (PGN_READ_TAGS_ONLY; issue 29 point 4): whole lines
 * passed over by a 16-byte search, up to the first line that holds anything that could end the
 * game or change how its bytes are read. */
#ifndef PGNKIT_PARSE_TAG_SKIP_H
#define PGNKIT_PARSE_TAG_SKIP_H

#include "lexer.h"

/* Moves lx past the whole lines from lx->pos (outside any token: between two tokens of a skipped
 * movetext) that are inert: none holds * ( ) " ; a CR, a NUL, a byte >= 0x80, a - or / after a
 * digit or a - beside + or : (a termination marker's bytes), a [ that does not open a comment's
 * command ({[%clk, { [%eval); none is followed by an empty line, a % line or a line that starts
 * with [; and the lexer stops at the start of a line outside every comment. The first line that
 * is not inert, the game's last one among them, is left to the lexer's tokens: the game ends
 * where the byte-wise reading ends it. Returns 1 if it moved. *until: a stream offset below which
 * the search would stop at the same place (the caller does not call again before the lexer passes
 * it; 0 at a game's start). Not under nested comments, at the stream's start, after a CR.
 * *tail: the last token passed that sets the movetext's tail (below). */
int pgnk_tag_skip(lexer *lx, uint64_t *until, token *tail);

/* The skips' tail (issue 32): the tokens they pass are not read, but the last of them that a
 * token walk notes as the movetext's last token (a symbol, a parenthesis, bytes that start no
 * token: pgnk_mt_note_tail) decides whether a movetext that ends before the next such token ends
 * cut short (E_TRUNCATED after a move number or a cut move). A skip passes it on in *tail
 * (TOK_EOF when it passed none, or when the token it stops at is one). */

/* A place a skip passed: a token boundary outside every comment (window index) and its line. */
typedef struct skip_mark {
    size_t at;
    uint32_t line;
    uint64_t line_off;
} skip_mark;

/* *out = the last such token of the window bytes [from, to) (from: a mark, line its line, which
 * starts at stream offset line_off; to: a token boundary), read by the lexer's own tokens; *out
 * untouched if there is none. */
void pgnk_skip_last_token(const lexer *lx, size_t from, uint32_t line, uint64_t line_off, size_t to,
                          token *out);

/* Whether the token at window index i sets the tail itself (a symbol or a parenthesis): then
 * the tokens a skip passed before it need no look. */
static inline int pgnk_skip_tail_next(const lexer *lx, size_t i) {
    if (i >= lx->len) {
        return 0;
    }
    unsigned char ch = (unsigned char)lx->buf[i];
    return (char_class(ch) & C_START) || ch == '(' || ch == ')';
}

/* *tail for a skip from start to window index to: the last such token in [last, to), else in
 * [start, last) (last: a mark at or after start, the skip's last commit before to, so that most
 * skips read a line's tokens at most); TOK_EOF if none, or if the token at to is one itself. */
void pgnk_skip_tail(const lexer *lx, const skip_mark *start, const skip_mark *last, size_t to,
                    token *tail);

/* A reader flag for tests alone (no public PGN_READ_* has this bit): no skip of a movetext not
 * read, every token of it walked one by one, the truth the skips are held to (test_tag_skip). */
#define PGNK_READ_NO_SKIP 0x80000000u

#endif
