/* SPDX-License-Identifier: MIT */
/* Internal: the tags computed from a game's final position (pgn_game_edit's PGN_EDIT_ADD_*). */
#ifndef PGNKIT_FINAL_TAGS_H
#define PGNKIT_FINAL_TAGS_H

#include "pgnkit/annot.h"

/* Sets the tags of the PGN_EDIT_ADD_HASHCODE, _TERMINATION, _FINAL_FEN and _MATERIAL bits of
 * flags. PGN_OK or PGN_E_NOMEM. */
pgn_status pgnk_game_final_tags(pgn_game *game, uint32_t flags, uint32_t fen_flags);

#endif
