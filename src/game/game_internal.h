/* SPDX-License-Identifier: MIT */
/* What the game layer offers the layers above it beyond the public API. Internal header. */
#ifndef PGNKIT_GAME_INTERNAL_H
#define PGNKIT_GAME_INTERNAL_H

#include "pgnkit/game.h"

/* A copied, NUL-terminated string; ptr is NULL when empty. */
typedef struct game_text {
    char *ptr;
    size_t len;
} game_text;

/* The node, visible to the layers above for their hot loops (the export writer reads a node's
 * fields directly instead of through one call per field); everything else uses the API. */
struct pgn_node {
    pgn_node *parent;
    pgn_node *child;      /* the main continuation (first child) */
    pgn_node *sibling;    /* the next alternative to this node's move */
    pgn_node *last_child; /* so that pgn_node_add appends in O(1) */
    game_text pre, post;  /* comment before the move, comment after it */
    uint8_t *nags;        /* from the arena, input order, no duplicates */
    uint16_t nag_count, nag_cap;
    pgn_move move;
    uint8_t san_len; /* 0: no SAN kept */
    char san[8];     /* the SAN as read (at most 7 bytes), when the reader found it canonical
                      * (STYLE: reuse); 8 so that writers may copy it in one 8-byte move */
    pgn_loc loc;
};

/* pgn_node_add, keeping san[0..san_len) as the move's SAN (the caller vouches that it is the
 * canonical SAN of mv in the position before it; at most 7 bytes); NULL: none kept, and the game
 * is no longer pgn_game_san_complete. For the reader's tree builder, so that the export writer
 * need not replay the game. */
pgn_status pgnk_game_node_add_san(pgn_game *game, pgn_node *parent, pgn_move mv, pgn_loc at,
                                  const char *san, size_t san_len, pgn_node **out);

/* pgn_game_tag_set for a name the caller knows the game does not have yet (the reader's builder:
 * the reader tracks the names it has seen), without looking for it. */
pgn_status pgnk_game_tag_add_new(pgn_game *game, pgn_str name, pgn_str value);

/* How a game was read, kept in the game for its readers (pgn_game_marker, and the parse layer's
 * pgn_game_diag...): emptied by pgn_game_reset; diags come from the game's arena. */
typedef struct game_record {
    pgn_result marker; /* the termination marker as read, PGN_RESULT_NONE if none */
    uint8_t broken;    /* cut short: an error lost part of the game */
    void *diags;       /* pgn_diag[cap] (a type of the parse layer) */
    uint32_t count, cap;
    uint64_t dropped; /* diagnostics past cap, counted only */
} game_record;
game_record *pgnk_game_record(pgn_game *game);
const game_record *pgnk_game_record_const(const pgn_game *game);

#endif
