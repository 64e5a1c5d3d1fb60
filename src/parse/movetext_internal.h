/* SPDX-License-Identifier: MIT */
/* What movetext.c (tokens, moves) and movetext_lines.c (variations, comments) share. Internal. */
#ifndef PGNKIT_MOVETEXT_INTERNAL_H
#define PGNKIT_MOVETEXT_INTERNAL_H

#include "parse.h"

/* Glyph handling runs only for tokens that are no moves: kept out of line, so that the move path
 * stays as small as it was (the attribute is a hint; other compilers simply ignore the macro). */
#if defined(__GNUC__)
#define COLD __attribute__((cold, noinline))
#else
#define COLD
#endif

enum { BOARD_ENGLISH = 1, BOARD_OTHER = 2 };
/* rav_level.dead while a move looked at the token after it (promotion_glyph): not dead, but the
 * fast path must stop */
enum { PEEKED = 2 };

typedef struct mt_state {
    uint32_t skip_parens; /* > 0: inside a variation being skipped */
    uint8_t skip_visible; /* that variation was reported by begin_variation */
    uint8_t board;        /* resolve SAN: BOARD_ENGLISH, BOARD_OTHER (movetext_lang.c) or 0 */
    uint8_t limit_warned, number_warned;
    uint8_t skipped, prev_skipped; /* this token, the one before it, was skipped as text */
    uint8_t move_seen;             /* the main line had a symbol shaped like a move (any mode) */
    uint8_t keys;                  /* positions reach a visitor: keep their Zobrist keys */
    uint32_t san_flags;
} mt_state;

/* movetext_lines.c */
rav_level *pgnk_mt_push_level(pgn_reader *r);
/* Room for one more move in r->line_moves; 0 when out of memory. */
int pgnk_mt_grow_line_moves(pgn_reader *r);
void pgnk_mt_on_open(pgn_reader *r, mt_state *s, rav_level *l, const token *t);
void pgnk_mt_on_close(pgn_reader *r, mt_state *s, const token *t);
void pgnk_mt_on_comment(pgn_reader *r, const token *t);

#endif
