/* SPDX-License-Identifier: MIT */
/* FEN writing for a walk through a game (internal header): the text of each rank of the last
 * position written is kept, so that after a move only the one or two ranks it can change (those
 * of its from and to squares: castling, en passant and promotion stay on them) are written anew.
 * Used by the JSON writer, which writes the FEN after every move. */
#ifndef PGNKIT_FEN_RANKS_H
#define PGNKIT_FEN_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "pgnkit/chess.h"

typedef struct chess_fen_ranks {
    uint64_t text[8]; /* the text of each rank (bit 0 of an index = rank 1), byte i in bits 8i.. */
    uint8_t len[8];   /* its length */
} chess_fen_ranks;

/* The ranks of a move's from and to squares, for pgnk_chess_fen_write_ranks after it. */
static inline unsigned chess_fen_move_ranks(pgn_move mv) {
    return (1u << (PGN_MOVE_FROM(mv) >> 3)) | (1u << (PGN_MOVE_TO(mv) >> 3));
}

/* Writes pos as pgn_fen_write(pos, flags, ...) does, without the NUL, into buf, which must have
 * room for PGN_FEN_MAX + 8 bytes; returns the length. The ranks in changed (bit r: rank r + 1)
 * are written from pos and kept; the others are taken as kept, so the caller vouches that pos
 * has the same pieces on them as the position last written with ranks: 0xff when unsure. */
size_t pgnk_chess_fen_write_ranks(chess_fen_ranks *ranks, const pgn_pos *pos, uint32_t flags,
                                  unsigned changed, char *buf);

#endif
