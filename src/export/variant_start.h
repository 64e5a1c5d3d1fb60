/* SPDX-License-Identifier: MIT */
/* Whether a game's start position needs a FEN: the writers (PGN and JSON) give none when a game
 * starts where its rules start it: the standard position, or its variant's own start (horde and
 * racing kings have their own, antichess has no castling rights), which the Variant tag says. */
#ifndef PGNKIT_EXPORT_VARIANT_START_H
#define PGNKIT_EXPORT_VARIANT_START_H

#include <string.h>

#include "pgnkit/chess.h"

static inline int pgnk_export_is_rules_start(const pgn_pos *pos) {
    if (pos->variant == PGN_VARIANT_STANDARD) {
        return pgn_pos_is_standard_start(pos);
    }
    pgn_pos v;
    pgn_pos_init_variant(&v, (pgn_variant)pos->variant);
    return memcmp(v.board, pos->board, sizeof v.board) == 0 && v.side == pos->side &&
           v.castle == pos->castle && v.ep == pos->ep && v.halfmove == pos->halfmove &&
           v.fullmove == pos->fullmove && v.promoted == pos->promoted &&
           memcmp(v.pocket, pos->pocket, sizeof v.pocket) == 0 &&
           memcmp(v.checks, pos->checks, sizeof v.checks) == 0;
}

#endif
