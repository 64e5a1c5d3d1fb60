/* SPDX-License-Identifier: MIT */
/* pgnkit collection tools: telling duplicate games apart (equal start position and main line,
 * found through Zobrist keys and confirmed move by move), how rich a copy is, and comparing tag
 * values as the PGN standard orders them (PGN §8.1.1.3 dates, §8.1.1.4 rounds). */
#ifndef PGNKIT_COLLECTION_H
#define PGNKIT_COLLECTION_H

#include "base.h"
#include "chess.h"
#include "game.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Flags of the duplicate test (pgn_dedupe_opts.flags and pgn_game_same_line). */
#define PGN_DEDUPE_TAGS 0x1u /* also White, Black, Date and Result equal after normalising */

/**
 * The key of a game's line: a 64-bit mix of the Zobrist key of its start position (FEN fields
 * 1-4), of every main-line move, of its length and, with PGN_DEDUPE_TAGS or without a move, of the
 * normalised White, Black, Date and Result. Equal lines give equal keys; unequal lines almost never
 * do, but a key is only a hint: pgn_game_same_line decides.
 */
PGN_API uint64_t pgn_game_line_key(const pgn_game *game, uint32_t flags);

/** Bytes of a normalised tag value that count (a longer value is cut there). */
#define PGN_DEDUPE_TAG_MAX 256

/**
 * pgn_game_line_key built as a visitor reads a game (no tree): key = pgn_line_key_start(start),
 * then key = pgn_line_key_move(key, mv) for each main-line move in order, then
 * pgn_line_key_finish(key, plies, tags) gives the same key as pgn_game_line_key. tags is NULL
 * without PGN_DEDUPE_TAGS for a line of at least one move, else the normalised White, Black, Date
 * and Result (pgn_dedupe_norm_tag; an absent tag is an empty value).
 */
PGN_API uint64_t pgn_line_key_start(const pgn_pos *start);
/** The line key after one more main-line move mv (see pgn_line_key_start). */
PGN_API uint64_t pgn_line_key_move(uint64_t key, pgn_move mv);
/** The finished line key of a line of plies moves (see pgn_line_key_start); tags may be NULL. */
PGN_API uint64_t pgn_line_key_finish(uint64_t key, uint64_t plies, const pgn_str *tags);

/**
 * Normalises value of tag i (0 White, 1 Black, 2 Date, 3 Result) as PGN_DEDUPE_TAGS compares it
 * (see pgn_game_same_line) into out, at most cap bytes (PGN_DEDUPE_TAG_MAX counts); returns the
 * length. value may be empty (an absent tag).
 */
PGN_API size_t pgn_dedupe_norm_tag(unsigned i, pgn_str value, char *out, size_t cap);

/**
 * Nonzero when a and b have the same start position (FEN fields 1-4, an en passant square only
 * when a capture is legal) and the same main line, move by move; with PGN_DEDUPE_TAGS also the
 * same White, Black, Date and Result once normalised (ASCII case, spaces and the punctuation
 * " .,-" ignored in names; Date compared as written; Result as the termination marker). Two
 * games without moves compare these tags with or without PGN_DEDUPE_TAGS: a game without moves
 * (a forfeit, an empty record) is a duplicate only of the same game (issue 31).
 */
PGN_API int pgn_game_same_line(const pgn_game *a, const pgn_game *b, uint32_t flags);

/**
 * How richly a copy of a game is annotated: the number of tags, comments, NAGs and moves in
 * variations. dedupe --keep richest keeps the copy with the highest count (the first on a tie).
 */
PGN_API uint64_t pgn_game_richness(const pgn_game *game);

/**
 * Tells whether the earlier game that the caller recorded as ref has the same line as game
 * (pgn_game_same_line with the set's flags). Returns 1 (same), 0 (not) or -1 (the earlier game
 * could not be read back: pgn_dedupe_add then fails with PGN_E_IO).
 */
typedef int (*pgn_dedupe_same_fn)(void *ctx, uint64_t ref, const pgn_game *game);

typedef struct pgn_dedupe_opts {
    uint32_t flags;             /* PGN_DEDUPE_* */
    const pgn_allocator *alloc; /* NULL: libc */
} pgn_dedupe_opts;

/**
 * A set of distinct games that keeps no game text: each distinct game costs one 24-byte entry
 * (its line key, the caller's 64-bit reference to it, e.g. a file offset, and its cluster
 * number) in an open-addressed table kept at most half full, so at most 48 bytes per distinct
 * game and never more than 96 (just after the table doubles). Confirmation is the caller's:
 * pgn_dedupe_add calls back with the reference of each earlier game whose key is equal.
 */
typedef struct pgn_dedupe pgn_dedupe;

/** Creates an empty set; opts may be NULL (defaults). PGN_OK, PGN_E_NOMEM or PGN_E_BAD_ALLOCATOR.
 * The caller frees it with pgn_dedupe_free. */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_new(pgn_dedupe **out, const pgn_dedupe_opts *opts);
/** Frees the set; accepts NULL. */
PGN_API void pgn_dedupe_free(pgn_dedupe *set);

/**
 * Looks game up: when an earlier game has an equal key and same(ctx, its ref, game) says it has
 * the same line, *cluster is that game's cluster and *is_new is 0; otherwise game starts a new
 * cluster (numbered 0, 1, ... in order of first appearance) recorded under ref, and *is_new is 1.
 * Returns PGN_OK, PGN_E_NOMEM (the set is unchanged) or PGN_E_IO (same returned -1).
 */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_add(pgn_dedupe *set, const pgn_game *game, uint64_t ref,
                                                pgn_dedupe_same_fn same, void *ctx,
                                                uint64_t *cluster, int *is_new);

/**
 * Tells whether the earlier game that the caller recorded as ref has the same line as the game
 * the caller is adding with pgn_dedupe_add_key: 1 (same), 0 (not) or -1 (failure: PGN_E_IO).
 */
typedef int (*pgn_dedupe_same_key_fn)(void *ctx, uint64_t ref);

/**
 * pgn_dedupe_add for a caller that keyed the game itself (pgn_line_key_*, e.g. from a visitor,
 * without a tree): key is the game's line key, same confirms each earlier game of equal key.
 */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_add_key(pgn_dedupe *set, uint64_t key, uint64_t ref,
                                                    pgn_dedupe_same_key_fn same, void *ctx,
                                                    uint64_t *cluster, int *is_new);

/** Number of clusters (distinct games) so far. */
PGN_API uint64_t pgn_dedupe_count(const pgn_dedupe *set);

/** Bytes the set holds now (its table). */
PGN_API size_t pgn_dedupe_memory(const pgn_dedupe *set);

/** One value of a pgn_tally: its key and the caller's counters (all zero when it is new). */
typedef struct pgn_tally_item {
    char *key; /* NUL-terminated copy, the tally's */
    size_t len;
    uint64_t n;                   /* the count (pgnkit stats: games) */
    uint64_t wins, draws, losses; /* pgnkit stats, players: from the player's side */
    int32_t min_elo, max_elo;     /* pgnkit stats, players: 0 = none seen */
    uint64_t aux;                 /* for the caller (pgnkit split: a file's sequence number) */
} pgn_tally_item;

/**
 * A map from byte strings to counters (the per-value counts of a collection's statistics, the
 * file names given out by a split): keys copied, memory proportional to the number of distinct
 * values (an open-addressed table kept at most half full).
 */
typedef struct pgn_tally pgn_tally;

/** Creates an empty tally on alloc (NULL: libc): PGN_OK, PGN_E_NOMEM or PGN_E_BAD_ALLOCATOR.
 * The caller frees it with pgn_tally_free. */
PGN_API PGN_NODISCARD pgn_status pgn_tally_new(pgn_tally **out, const pgn_allocator *alloc);
/** Frees the tally, its keys and its sorted array; accepts NULL. */
PGN_API void pgn_tally_free(pgn_tally *t);
/** The item of key (len bytes), created with zero counters when new; NULL when out of memory.
 * The pointer is valid until the next pgn_tally_get (the table may grow) or pgn_tally_free. */
PGN_API pgn_tally_item *pgn_tally_get(pgn_tally *t, const char *key, size_t len);
/** The number of distinct keys. */
PGN_API size_t pgn_tally_count(const pgn_tally *t);
/** The items sorted by count (highest first, then key bytes), pgn_tally_count pointers in an
 * array the tally owns until the next pgn_tally_get, pgn_tally_sorted or pgn_tally_free; NULL
 * when the tally is empty or out of memory. */
PGN_API pgn_tally_item *const *pgn_tally_sorted(pgn_tally *t);

/**
 * Compares two values of the tag called name as a sort should order them: -1, 0 or 1. Date,
 * EventDate, UTCDate and Round compare field by field between the dots (PGN §8.1.1.3, §8.1.1.4):
 * numbers by value ("2" before "10"), an unknown field ("?", "??", "-" or empty) before any
 * number, other text by bytes; a missing field before a present one ("3" before "3.1"). Other
 * tags compare as whole numbers when both values are digits only (WhiteElo, PlyCount), a value of
 * digits only after any other, and other values by bytes (UTF-8 order). A game without the tag is
 * the caller's to place (pgnkit sort: first).
 */
PGN_API int pgn_tag_compare(const char *name, pgn_str a, pgn_str b);

#ifdef __cplusplus
}
#endif
#endif
