/* SPDX-License-Identifier: MIT */
/* What the game layer offers the layers above it beyond the public API. Internal header. */
#ifndef PGNKIT_GAME_INTERNAL_H
#define PGNKIT_GAME_INTERNAL_H

#include "pgnkit/game.h"

/* pgn_node_add, keeping san[0..san_len) as the move's SAN (the caller vouches that it is the
 * canonical SAN of mv in the position before it; at most 7 bytes); NULL: none kept, and the game
 * is no longer pgn_game_san_complete. For the reader's tree builder, so that the export writer
 * need not replay the game. */
pgn_status game_node_add_san(pgn_game *game, pgn_node *parent, pgn_move mv, pgn_loc at, const char *san,
                             size_t san_len, pgn_node **out);

#endif
