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
 * it; 0 at a game's start). Not under nested comments, at the stream's start, after a CR. */
int pgnk_tag_skip(lexer *lx, uint64_t *until);

/* A reader flag for tests alone (no public PGN_READ_* has this bit): no skip of a movetext not
 * read, every token of it walked one by one, the truth the skips are held to (test_tag_skip). */
#define PGNK_READ_NO_SKIP 0x80000000u

#endif
