/* SPDX-License-Identifier: MIT */
/* Reading and playing a move in one pass (san_fast.c), for the reader's path where nobody looks at
 * the move's SAN or its position before (check, select without a move visitor). Internal. */
#ifndef PGNKIT_SAN_PLAY_H
#define PGNKIT_SAN_PLAY_H

#include "pgnkit/chess.h"

/* Canonical SAN san (len bytes) of a standard-chess position read by pgn_san_parse's fast path
 * and played on *pos as pgn_pos_play_unkeyed would (key 0): the move. PGN_MOVE_NONE, with *pos
 * unchanged, for anything that path leaves to the general one (pgn_san_parse then decides).
 * *safe: in, nonzero if the side to move is known not to be in check (0: unknown); out, the
 * same for the position after the move (0 when none was played). */
pgn_move pgnk_san_play(pgn_pos *pos, const char *san, size_t len, int *safe);

#endif
