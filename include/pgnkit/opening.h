/* SPDX-License-Identifier: MIT */
/* pgnkit opening classification: ECO codes and names from the lichess opening table (CC0), found
 * by position (the first four FEN fields, PGN §16.1.3), so that transpositions classify. The table
 * is compiled into the library (src/opening/eco_table.inc, made by tools/gen_eco.c). */
#ifndef PGNKIT_OPENING_H
#define PGNKIT_OPENING_H

#include "base.h"
#include "chess.h"
#include "game.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One line of the opening table. Read-only; every pointer is static (valid for the program's
 * lifetime). `name` is the full lichess name ("Sicilian Defense: Najdorf Variation, English
 * Attack"); its first `family_len` bytes are the opening ("Sicilian Defense") and, when the name
 * has a ": ", the text after it is the variation ("Najdorf Variation, English Attack").
 */
typedef struct pgn_opening {
    const char *eco;     /* "A00" .. "E99" */
    const char *name;    /* NUL-terminated */
    uint16_t family_len; /* bytes of name before ": " (all of it when there is no variation) */
    uint16_t plies;      /* length of the table line in plies */
} pgn_opening;

/** Number of lines in the table (in the order of the lichess files a.tsv ... e.tsv). */
PGN_API size_t pgn_opening_count(void);

/** The table line at index (< pgn_opening_count(); else a programmer error). Static storage. */
PGN_API const pgn_opening *pgn_opening_at(size_t index);

/** The variation part of an opening's name (after ": "), or an empty string; never NULL. */
PGN_API const char *pgn_opening_variation(const pgn_opening *opening);

/**
 * The table line whose moves reach pos, compared on piece placement, side to move, castling rights
 * and an en passant square only when a capture is legal (FEN fields 1-4 as EPD writes them), or
 * NULL when no line reaches it. When several lines reach one position, the first in table order
 * is returned. pos->key need not be up to date. Allocates nothing.
 */
PGN_API const pgn_opening *pgn_opening_find(const pgn_pos *pos);

/**
 * Classifies a game: the deepest position of its main line (the start position included) that
 * the table holds, or NULL when none is. When ply is not NULL, *ply is set to the number of
 * main-line plies played to reach that position (0 when NULL is returned). The walk stops once
 * captures leave fewer pieces than any table position has. Allocates nothing.
 */
PGN_API const pgn_opening *pgn_opening_classify(const pgn_game *game, uint32_t *ply);

/** Flags for pgn_opening_tag. */
#define PGN_OPENING_ONLY_MISSING 0x1u /* keep a game's existing ECO, Opening and Variation tags */

/**
 * Sets the game's ECO, Opening and (when the name has one) Variation tags from
 * pgn_opening_classify, removing a Variation tag the new name does not have. A game the table
 * does not classify is left unchanged. With PGN_OPENING_ONLY_MISSING a game that has an ECO tag
 * is left unchanged. *found (may be NULL) receives the classification or NULL. Returns PGN_OK or
 * PGN_E_NOMEM (the tags may then be partly set).
 */
PGN_API PGN_NODISCARD pgn_status pgn_opening_tag(pgn_game *game, uint32_t flags,
                                                 const pgn_opening **found);

#ifdef __cplusplus
}
#endif
#endif
