/* SPDX-License-Identifier: MIT */
/* Internal: the packed positions of the opening table, shared by opening.c and the generator
 * (tools/gen_eco.c), which writes eco_table.inc with the same packing. */
#ifndef PGNKIT_OPENING_INTERNAL_H
#define PGNKIT_OPENING_INTERNAL_H

#include "pgnkit/chess.h"
#include "pgnkit/opening.h"

/* A position as EPD fields 1-4 give it, packed: the occupied squares, the piece codes (4 bits
 * each, in square order, up to 32 pieces), the side to move (bit 0), the castling rooks of a1, h1,
 * a8, h8 (bits 1-4) and the en passant square when a capture is legal (bits 5-11; 64 = none). */
typedef struct pgnk_eco_pos {
    uint64_t key; /* pgn_pos_identity_key: the table is sorted by it */
    uint64_t occ;
    uint64_t lo, hi; /* piece nibbles of the 1st..16th and 17th..32nd occupied squares */
    uint16_t meta;
    uint16_t line; /* index of the first table line that reaches this position */
} pgnk_eco_pos;

/* Packs pos (whose key is up to date) into *out, line set to 0. */
void pgnk_eco_pack(const pgn_pos *pos, pgnk_eco_pos *out);

#endif
