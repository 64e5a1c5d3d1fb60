/* SPDX-License-Identifier: MIT */
/* pgnkit game tree: tags in input order, a start position, a tree of moves with comments, NAGs and
 * variations (PGN §8.2.5 RAVs), and the game termination marker (PGN §8.2.6). Everything of a game
 * lives in one arena owned by the pgn_game (STYLE C6). */
#ifndef PGNKIT_GAME_H
#define PGNKIT_GAME_H

#include "base.h"
#include "chess.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The game termination marker. PGN_RESULT_NONE: the movetext had none (a warning when reading). */
typedef enum pgn_result {
    PGN_RESULT_NONE = 0,
    PGN_RESULT_WHITE_WINS, /* 1-0 */
    PGN_RESULT_BLACK_WINS, /* 0-1 */
    PGN_RESULT_DRAW,       /* 1/2-1/2 */
    PGN_RESULT_UNKNOWN     /* * */
} pgn_result;

/** "1-0", "0-1", "1/2-1/2" or "*" (PGN_RESULT_NONE gives "*"); never NULL. */
PGN_API const char *pgn_result_str(pgn_result result);
/** The result for exactly one of the four standard markers, else PGN_RESULT_NONE. */
PGN_API pgn_result pgn_result_parse(const char *text, size_t len);

typedef struct pgn_game pgn_game;
typedef struct pgn_node pgn_node;

/**
 * Creates an empty game (no tags, the standard start position, only the root node) whose memory
 * comes from alloc (NULL: libc). Ownership passes to the caller: release it with pgn_game_free.
 * Returns PGN_OK or PGN_E_NOMEM.
 */
PGN_API PGN_NODISCARD pgn_status pgn_game_new(pgn_game **out, const pgn_allocator *alloc);
/** Frees the game and everything in it; accepts NULL. */
PGN_API void pgn_game_free(pgn_game *game);
/** Empties the game as pgn_game_new makes it, keeping its largest arena chunk for reuse (so that
 * the next game of a similar size allocates nothing). Every pointer and string obtained from the
 * game becomes invalid. */
PGN_API void pgn_game_reset(pgn_game *game);

/* ---- tags, in input order; strings are borrowed from the game ---- */

/** The number of tags (name-value pairs) of the game. */
PGN_API size_t pgn_game_tag_count(const pgn_game *game);
/** The name of tag index (0 <= index < pgn_game_tag_count). Borrowed. */
PGN_API pgn_str pgn_game_tag_name(const pgn_game *game, size_t index);
/** The value of tag index, without quotes or escapes. Borrowed. */
PGN_API pgn_str pgn_game_tag_value(const pgn_game *game, size_t index);
/** Finds the tag called name (exact, case-sensitive); 1 and *value set if found, else 0. */
PGN_API int pgn_game_tag_get(const pgn_game *game, const char *name, pgn_str *value);
/** Sets tag name to value, replacing an existing one in place or appending. Both are copied.
 * Returns PGN_OK or PGN_E_NOMEM. */
PGN_API PGN_NODISCARD pgn_status pgn_game_tag_set(pgn_game *game, pgn_str name, pgn_str value);
/** Removes every tag. Strings obtained from the game stay valid until it is reset. */
PGN_API void pgn_game_tags_clear(pgn_game *game);
/** Removes the tag called name; returns 1 if there was one. */
PGN_API int pgn_game_tag_remove(pgn_game *game, const char *name);

/* ---- start position and result ---- */

/** The position before the first move (standard start unless a FEN set it). Borrowed. */
PGN_API const pgn_pos *pgn_game_start(const pgn_game *game);
/** Sets the position before the first move (copied). Moves already in the tree are not
 * checked against it, and the game is no longer pgn_game_san_complete. */
PGN_API void pgn_game_set_start(pgn_game *game, const pgn_pos *start);
/** The game termination marker (PGN_RESULT_NONE if the movetext had none). */
PGN_API pgn_result pgn_game_result(const pgn_game *game);
/** Sets the game termination marker (the Result tag is not changed). */
PGN_API void pgn_game_set_result(pgn_game *game, pgn_result result);
/** The termination marker as the reader read it (PGN_RESULT_NONE: none, or a game built through
 * the API). It differs from pgn_game_result when the Result tag disagreed (the tag wins:
 * W_RESULT_MISMATCH); PGN_EDIT_FIX_RESULTS falls back on it. */
PGN_API pgn_result pgn_game_marker(const pgn_game *game);
/** Sets what pgn_game_marker returns (the JSON reader and other builders of games). */
PGN_API void pgn_game_set_marker(pgn_game *game, pgn_result marker);

/* ---- the move tree ----
 * The root node holds no move; its comment is the game comment (before the first move). A node's
 * child is the main continuation; its siblings are the alternatives to its own move (RAVs), in
 * input order. A node's pre-comment is the comment written before its move at the start of a
 * variation. Nodes are borrowed from the game and stay valid until it is reset or freed. */

/** The root node (no move; the game comment); never NULL. Borrowed. */
PGN_API pgn_node *pgn_game_root(const pgn_game *game);
/** The node whose move comes before node's, or NULL for the root. Borrowed. */
PGN_API pgn_node *pgn_node_parent(const pgn_node *node);
/** The main continuation of node, or NULL at the end of a line. Borrowed. */
PGN_API pgn_node *pgn_node_child(const pgn_node *node);
/** The next alternative to node's move (a RAV), or NULL. Borrowed. */
PGN_API pgn_node *pgn_node_sibling(const pgn_node *node);
/** The move of node (PGN_MOVE_NONE for the root). */
PGN_API pgn_move pgn_node_move(const pgn_node *node);
/** The comment after node's move (empty if none), braces removed. Borrowed. */
PGN_API pgn_str pgn_node_comment(const pgn_node *node);
/** The comment before node's move at the start of a variation (empty if none). Borrowed. */
PGN_API pgn_str pgn_node_pre_comment(const pgn_node *node);
/** The number of NAGs after node's move. */
PGN_API size_t pgn_node_nag_count(const pgn_node *node);
/** NAG index (0 <= index < pgn_node_nag_count) in input order: 0..255. */
PGN_API unsigned pgn_node_nag(const pgn_node *node, size_t index);
/** The move's SAN as it was read, when the reader found it canonical (the export writer then
 * reuses it instead of replaying the game); empty for other nodes. Borrowed, not NUL-terminated. */
PGN_API pgn_str pgn_node_san(const pgn_node *node);
/** Nonzero if every node of the game has its SAN (pgn_node_san) and the start position has not
 * been changed after the first move was added: the SAN can be written without a board. */
PGN_API int pgn_game_san_complete(const pgn_game *game);
/** Where the move's SAN began in the input (all zero for nodes not read from text). */
PGN_API pgn_loc pgn_node_loc(const pgn_node *node);
/** Number of main-line plies (the chain of first children from the root). */
PGN_API size_t pgn_game_ply_count(const pgn_game *game);

/** Appends a node for mv (legal after parent's move; not checked here) as the last child of
 * parent: the main continuation if parent had none, else a new variation. Returns PGN_OK or
 * PGN_E_NOMEM. */
PGN_API PGN_NODISCARD pgn_status pgn_node_add(pgn_game *game, pgn_node *parent, pgn_move mv,
                                              pgn_loc at, pgn_node **out);
/** Appends text to the node's comment (joined to an existing one with a space); copied. */
PGN_API PGN_NODISCARD pgn_status pgn_node_append_comment(pgn_game *game, pgn_node *node,
                                                         pgn_str text);
/** Appends text to the node's pre-comment; copied. */
PGN_API PGN_NODISCARD pgn_status pgn_node_append_pre_comment(pgn_game *game, pgn_node *node,
                                                             pgn_str text);
/** Replaces the node's comment (an empty text removes it); copied. */
PGN_API PGN_NODISCARD pgn_status pgn_node_set_comment(pgn_game *game, pgn_node *node, pgn_str text);
/** Replaces the node's pre-comment (an empty text removes it); copied. PGN_OK or PGN_E_NOMEM. */
PGN_API PGN_NODISCARD pgn_status pgn_node_set_pre_comment(pgn_game *game, pgn_node *node,
                                                          pgn_str text);
/** Unlinks node and its subtree from its parent (not the root): when it was the main
 * continuation, its next alternative takes its place. Its memory stays in the game's arena
 * until the game is reset; the node must not be used again. */
PGN_API void pgn_node_remove(pgn_node *node);
/** Adds NAG nag (0..255) to the node unless it is already there (input order kept). */
PGN_API PGN_NODISCARD pgn_status pgn_node_add_nag(pgn_game *game, pgn_node *node, unsigned nag);
/** Removes every NAG of the node. */
PGN_API void pgn_node_clear_nags(pgn_node *node);

/* ---- walking a game: the one tree iterator (cmark's cmark_iter shape) ----
 * Events in PGN order. The game is entered (node: the root), then each move of the main line is
 * entered and left; between a move's enter and leave come its alternatives, each as a variation
 * that is entered (node: the variation's first move), walked the same way, and left. For
 * "1. e4 (1. d4 d5) e5": GAME_ENTER, MOVE_ENTER e4, VARIATION_ENTER d4, MOVE_ENTER d4,
 * MOVE_LEAVE d4, MOVE_ENTER d5, MOVE_LEAVE d5, VARIATION_LEAVE d4, MOVE_LEAVE e4, MOVE_ENTER e5,
 * MOVE_LEAVE e5, GAME_LEAVE; then pgn_iter_next returns PGN_END. The walk uses a stack of open
 * variations (memory grows with their nesting, never with the plies; nothing recurses). The
 * position before the current move is kept incrementally: its side to move and move number
 * always, the whole board with PGN_ITER_BOARD. The tree must not change shape during the walk
 * (comments and NAGs may be edited), except that with PGN_ITER_MAIN_LINE alternatives of the
 * main line's moves may be added or removed (the annotator does). */

typedef enum pgn_iter_event {
    PGN_ITER_GAME_ENTER = 1,  /* node: the root */
    PGN_ITER_MOVE_ENTER,      /* node: a move; position: before it */
    PGN_ITER_VARIATION_ENTER, /* node: the variation's first move; position: before it */
    PGN_ITER_VARIATION_LEAVE, /* node: the variation's first move; position: before it */
    PGN_ITER_MOVE_LEAVE,      /* node: the move, after its variations; position: before it */
    PGN_ITER_GAME_LEAVE       /* node: the root */
} pgn_iter_event;

/* pgn_iter_reset flags */
#define PGN_ITER_BOARD 0x01u         /* keep the board: pgn_iter_pos and pgn_iter_pos_after */
#define PGN_ITER_MAIN_LINE 0x02u     /* the main line only: no variation is entered */
#define PGN_ITER_NO_MOVE_LEAVE 0x04u /* no MOVE_LEAVE events (one step less per move) */

typedef struct pgn_iter pgn_iter;

/** Creates an iterator whose stack comes from alloc (NULL: libc). Ownership passes to the
 * caller: release it with pgn_iter_free. Returns PGN_OK, PGN_E_NOMEM or PGN_E_BAD_ALLOCATOR. */
PGN_API PGN_NODISCARD pgn_status pgn_iter_new(pgn_iter **out, const pgn_allocator *alloc);
/** Frees the iterator; accepts NULL. */
PGN_API void pgn_iter_free(pgn_iter *it);
/** Starts a walk of game (borrowed: it must outlive the walk) with PGN_ITER_* flags. An iterator
 * may walk any number of games in turn; its stack is kept. */
PGN_API void pgn_iter_reset(pgn_iter *it, const pgn_game *game, uint32_t flags);
/** Moves to the next event and stores it in *event. Returns PGN_OK, PGN_END after GAME_LEAVE
 * (and from then on), or PGN_E_NOMEM when the stack could not grow (the walk cannot go on). */
PGN_API PGN_NODISCARD pgn_status pgn_iter_next(pgn_iter *it, pgn_iter_event *event);
/** The node of the current event (see pgn_iter_event), borrowed from the game. */
PGN_API pgn_node *pgn_iter_node(const pgn_iter *it);
/** The number of variations open around the current event (0 on the main line). */
PGN_API size_t pgn_iter_depth(const pgn_iter *it);
/** Plies from the start position to the position of the current event. */
PGN_API size_t pgn_iter_ply(const pgn_iter *it);
/** The side to move in the position of the current event (before a move's move). */
PGN_API pgn_color pgn_iter_side(const pgn_iter *it);
/** The move number (PGN §8.2.2) of that position. */
PGN_API uint32_t pgn_iter_fullmove(const pgn_iter *it);
/** Nonzero at MOVE_ENTER when variations (the move's alternatives) follow before MOVE_LEAVE. */
PGN_API int pgn_iter_has_variations(const pgn_iter *it);
/** The position of the current event (for moves: before the move). Needs PGN_ITER_BOARD.
 * Borrowed until the next pgn_iter_next. */
PGN_API const pgn_pos *pgn_iter_pos(const pgn_iter *it);
/** At MOVE_ENTER and MOVE_LEAVE, the position after the move, computed once (the walk then goes
 * on from it). Needs PGN_ITER_BOARD. Borrowed until the next pgn_iter_next. */
PGN_API const pgn_pos *pgn_iter_pos_after(pgn_iter *it);

#ifdef __cplusplus
}
#endif
#endif
