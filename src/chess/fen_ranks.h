/* SPDX-License-Identifier: MIT */
/* FEN writing for a stream of related positions (internal header): the text of each rank is
 * kept with the rank's 8 board bytes, so that after a move only the one or two ranks it changed
 * are written anew. Used by the JSON writer, which writes a FEN after every move. */
#ifndef PGNKIT_FEN_RANKS_H
#define PGNKIT_FEN_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "pgnkit/chess.h"

typedef struct chess_fen_ranks {
    uint8_t row[8][8]; /* the board bytes of each rank whose text is kept */
    char text[8][8];   /* that text (len bytes of it) */
    uint8_t len[8];    /* 0: nothing kept for this rank */
} chess_fen_ranks;

/* Forgets every rank (also the way to start). */
void chess_fen_ranks_init(chess_fen_ranks *ranks);

/* Writes pos as pgn_fen_write(pos, flags, ...) does, without the NUL, into buf, which must have
 * room for PGN_FEN_MAX + 8 bytes; returns the length. Updates ranks. */
size_t chess_fen_write_ranks(chess_fen_ranks *ranks, const pgn_pos *pos, uint32_t flags, char *buf);

#endif
