/* SPDX-License-Identifier: MIT */
/* The lichess variants in the rules core, internal: each entry point is reached from the standard
 * code by one `if (pos->variant)` branch, so standard chess keeps its own fast paths. */
#ifndef PGNKIT_VARIANTS_H
#define PGNKIT_VARIANTS_H

#include "attacks.h"

#if defined(__GNUC__)
#define PGNK_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define PGNK_UNLIKELY(x) (x)
#endif

/* Whether pos takes the general path: a variant, or standard chess where a side has no king
 * (pos->kingless, set once by the FEN reader: kings are never taken, so it holds for the game).
 * The one test of every hot entry point, as the variant alone used to be. */
static inline int pgnk_pos_general(const pgn_pos *p) {
    return (p->variant | p->kingless) != 0;
}

/* Legal moves of a variant position, or of a standard one without a king (pgnk_pos_general),
 * with origin in from_mask and destination in to_mask (a drop counts as coming from its
 * destination square); out may be NULL to count. */
unsigned pgnk_variant_generate(const pgn_pos *p, uint64_t from_mask, uint64_t to_mask,
                               pgn_movelist *out);
/* The standard legal move generator (movegen.c), which the variants with standard king safety
 * use as it is. */
unsigned pgnk_chess_generate_std(const pgn_pos *p, uint64_t from_mask, uint64_t to_mask,
                                 pgn_movelist *out);
/* pgn_pos_play for a standard position (no variant test): standard perft's make-move. */
void pgnk_chess_play_std(pgn_pos *pos, pgn_move mv);
/* Nonzero if color has a king in check under the variant's rules (atomic: not while kings
 * touch; antichess: never). */
int pgnk_variant_king_attacked(const pgn_pos *p, pgn_color color);
/* Plays mv (legal, not null) in a variant position; keys: keep pos->key up to date. */
void pgnk_variant_play(pgn_pos *p, pgn_move mv, int keys);
/* The pieces giving check to the side to move in a variant position (0 where there is no check). */
uint64_t pgnk_variant_checkers(const pgn_pos *p);
/* The key of the variant state (pockets, promoted pieces, check counters): 0 for standard. */
uint64_t pgnk_variant_key(const pgn_pos *p);
/* The variant ending of pos (PGN_OUTCOME_KING_EXPLODED...), or PGN_OUTCOME_NONE. */
pgn_outcome pgnk_variant_end_outcome(const pgn_pos *p);
/* Variant game state: insufficient material for color (python-chess's definitions). */
int pgnk_variant_insufficient(const pgn_pos *p, pgn_color color);

#endif
