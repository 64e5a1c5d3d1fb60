/* SPDX-License-Identifier: MIT */
/* pgnkit collection tools: telling duplicate games apart (equal start position and main line,
 * found through Zobrist keys and confirmed move by move), how rich a copy is, and comparing tag
 * values as the PGN standard orders them (PGN §8.1.1.3 dates, §8.1.1.4 rounds). */
#ifndef PGNKIT_COLLECTION_H
#define PGNKIT_COLLECTION_H

#include "base.h"
#include "chess.h"
#include "game.h"
#include "reader.h"

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

/** Flag of pgn_dedupe_keeper_opts: pgn_dedupe_keeper_add_game counts each copy's richness
 * (pgn_game_richness), so that the richest copy of each cluster is kept (the first on a tie). */
#define PGN_DEDUPE_RICHEST 0x2u

/**
 * A game's line as a byte record, built without a tree by a visitor (pgn_dedupe_line_visitor)
 * or from a tree (pgn_dedupe_line_from_game): the start position as pgn_game_same_line compares
 * it (board, side, castling rights, identity key), the number of plies, the main line's moves,
 * then with PGN_DEDUPE_TAGS (and always without a move) the four normalised tags. Two games have
 * equal records exactly when pgn_game_same_line holds, and the record comes with the game's line
 * key (pgn_game_line_key). A pgn_dedupe_keeper confirms equal keys by comparing records.
 */
typedef struct pgn_dedupe_line pgn_dedupe_line;

/** Creates a line builder for the duplicate test's flags (PGN_DEDUPE_TAGS) on alloc (NULL:
 * libc): PGN_OK, PGN_E_NOMEM or PGN_E_BAD_ALLOCATOR. The caller frees it with
 * pgn_dedupe_line_free. */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_line_new(pgn_dedupe_line **out, uint32_t flags,
                                                     const pgn_allocator *alloc);
/** Frees the builder; accepts NULL. */
PGN_API void pgn_dedupe_line_free(pgn_dedupe_line *line);

/**
 * The visitor that builds the record of the game the reader visits (its user: the
 * pgn_dedupe_line). It takes comments (and drops them), so that their encoding warnings are the
 * same as when the game is built; it needs the board (no PGN_READ_NO_BOARD) and computes the start
 * position's key itself (PGN_READ_NO_KEYS may be set). A static table, valid for ever.
 */
PGN_API const pgn_visitor *pgn_dedupe_line_visitor(void);

/**
 * After the visitor has read a game: *key is its line key and *record its record, borrowed until
 * the builder is used again or freed. PGN_OK, or PGN_E_NOMEM (also when the visit ran out of
 * memory).
 */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_line_finish(pgn_dedupe_line *line, uint64_t *key,
                                                        pgn_str *record);

/** The key and record of game (a tree), as pgn_dedupe_line_finish gives them after a visit of the
 * same game. PGN_OK or PGN_E_NOMEM. */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_line_from_game(pgn_dedupe_line *line,
                                                           const pgn_game *game, uint64_t *key,
                                                           pgn_str *record);

/**
 * Where a pgn_dedupe_keeper puts the records that do not fit its memory: write appends len bytes
 * at the end of the caller's store (a temporary file), read gives back len bytes from offset
 * (counted from the first byte written). Each returns 0, or -1 on failure (PGN_E_IO). write NULL:
 * no store, and a record past the memory fails with PGN_E_LIMIT.
 */
typedef struct pgn_dedupe_spill {
    int (*write)(void *ctx, const void *buf, size_t len);
    int (*read)(void *ctx, uint64_t offset, void *buf, size_t len);
    void *ctx;
} pgn_dedupe_spill;

typedef struct pgn_dedupe_keeper_opts {
    uint32_t flags;             /* PGN_DEDUPE_TAGS, PGN_DEDUPE_RICHEST */
    size_t memory;              /* bytes of records held in memory; 0: 4 MiB */
    pgn_dedupe_spill spill;     /* the records past memory */
    const pgn_allocator *alloc; /* NULL: libc */
} pgn_dedupe_keeper_opts;

/** One cluster of copies of a game (read-only). */
typedef struct pgn_dedupe_cluster {
    uint64_t first;    /* the caller's ordinal of its first copy */
    uint64_t keep;     /* the ordinal of the copy kept: the first, or the richest */
    uint64_t richness; /* the kept copy's richness (0 without PGN_DEDUPE_RICHEST) */
} pgn_dedupe_cluster;

/** Counts of a pgn_dedupe_keeper. */
typedef struct pgn_dedupe_counts {
    uint64_t distinct;   /* clusters, plus the games with errors (each kept as it is) */
    uint64_t duplicates; /* copies not kept */
    uint64_t broken;     /* games with errors (pgn_dedupe_keeper_add_broken) */
} pgn_dedupe_counts;

/**
 * The decision of pgnkit dedupe, for any caller (the program, the database import, Python):
 * the games are given in order with an ordinal each; the keeper finds each one's cluster
 * (pgn_dedupe's keys, confirmed by comparing line records, never by a key alone), decides which
 * copy is kept (the first, or with PGN_DEDUPE_RICHEST the richest, the first on a tie) and counts.
 * Memory: per distinct game one set entry (at most 96 bytes) and one cluster (40 bytes), the
 * records up to opts.memory, the others in the caller's spill store; never a game's text.
 */
typedef struct pgn_dedupe_keeper pgn_dedupe_keeper;

/** Creates an empty keeper; opts may be NULL (defaults). PGN_OK, PGN_E_NOMEM or
 * PGN_E_BAD_ALLOCATOR. The caller frees it with pgn_dedupe_keeper_free. */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_keeper_new(pgn_dedupe_keeper **out,
                                                       const pgn_dedupe_keeper_opts *opts);
/** Frees the keeper; accepts NULL. */
PGN_API void pgn_dedupe_keeper_free(pgn_dedupe_keeper *k);

/**
 * Adds the game of the caller's ordinal (increasing) with its line key and record
 * (pgn_dedupe_line_finish; the record is copied when the game is new) and its richness (0 but
 * with PGN_DEDUPE_RICHEST). *cluster is its cluster (numbered 0, 1, ... in order of first
 * appearance) and *is_new whether it starts one. Returns PGN_OK, PGN_E_NOMEM, PGN_E_IO (the spill
 * store failed) or PGN_E_LIMIT (past the memory without a spill store); after a failure the keeper
 * is only to be freed.
 */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_keeper_add(pgn_dedupe_keeper *k, uint64_t ordinal,
                                                       uint64_t key, pgn_str record,
                                                       uint64_t richness, uint64_t *cluster,
                                                       int *is_new);
/** pgn_dedupe_keeper_add for a game read into a tree (its key, record and, with
 * PGN_DEDUPE_RICHEST, its richness computed here). Same returns. */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_keeper_add_game(pgn_dedupe_keeper *k, uint64_t ordinal,
                                                            const pgn_game *game, uint64_t *cluster,
                                                            int *is_new);
/** Counts a game with errors, which is kept as it is and belongs to no cluster. */
PGN_API void pgn_dedupe_keeper_add_broken(pgn_dedupe_keeper *k);

/** The counts so far. */
PGN_API pgn_dedupe_counts pgn_dedupe_keeper_counts(const pgn_dedupe_keeper *k);
/** Cluster c (below counts.distinct - counts.broken), borrowed until the next add or free. */
PGN_API const pgn_dedupe_cluster *pgn_dedupe_keeper_cluster(const pgn_dedupe_keeper *k, uint64_t c);

/**
 * Ends the adding (no add after it): the kept copies' ordinals are sorted, so that
 * pgn_dedupe_keeper_is_kept can answer. PGN_OK or PGN_E_NOMEM.
 */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_keeper_finish(pgn_dedupe_keeper *k);
/** After pgn_dedupe_keeper_finish: nonzero when the game of ordinal is the kept copy of its
 * cluster (0 for a duplicate not kept and for a game never added). */
PGN_API int pgn_dedupe_keeper_is_kept(const pgn_dedupe_keeper *k, uint64_t ordinal);

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

/** The tags pgnkit stats counts: indexes of pgn_stats_game.val. */
enum pgn_stats_tag {
    PGN_STATS_WHITE,
    PGN_STATS_BLACK,
    PGN_STATS_WHITE_ELO,
    PGN_STATS_BLACK_ELO,
    PGN_STATS_RESULT,
    PGN_STATS_ECO,
    PGN_STATS_EVENT,
    PGN_STATS_DATE,
    PGN_STATS_TIME_CONTROL,
    PGN_STATS_VARIANT,
    PGN_STATS_NTAGS
};
/** Bytes of a tag value that count (a longer value is counted by its first ones). */
#define PGN_STATS_VAL_MAX 200

/**
 * What one game gives a pgn_stats: its tags of interest (the last value of each), the result
 * marker of its movetext and its number of plies. A plain value (about 2 KiB) that
 * pgn_stats_game_visitor fills, or the caller (e.g. from a worker thread's copy).
 */
typedef struct pgn_stats_game {
    char val[PGN_STATS_NTAGS][PGN_STATS_VAL_MAX]; /* not NUL-terminated */
    size_t len[PGN_STATS_NTAGS];
    uint32_t have; /* bit i: tag i seen */
    pgn_result marker;
    uint32_t plies;
} pgn_stats_game;

/** The visitor that fills the pgn_stats_game given as its user (PGN_READ_NO_BOARD suffices). A
 * static table, valid for ever. */
PGN_API const pgn_visitor *pgn_stats_game_visitor(void);

/** The lists of a pgn_stats (pgn_stats_tally). */
enum pgn_stats_list {
    PGN_STATS_LIST_ECO,
    PGN_STATS_LIST_PLAYERS, /* wins, draws, losses from the player's side; min_elo, max_elo */
    PGN_STATS_LIST_EVENTS,
    PGN_STATS_LIST_YEARS,         /* the first four bytes of Date; "????" without one */
    PGN_STATS_LIST_TIME_CONTROLS, /* bullet, blitz, rapid, classical, none, unknown */
    PGN_STATS_LIST_VARIANTS,      /* "standard" without a Variant tag */
    PGN_STATS_NLISTS
};

/**
 * A collection's statistics, counted while streaming (pgnkit stats; no game kept): plies,
 * results, the per-value lists (pgn_tally each) and the diagnostics by code. Memory: one counter
 * per distinct value and one per ply count up to the longest game.
 */
typedef struct pgn_stats pgn_stats;

/** Creates empty counts on alloc (NULL: libc): PGN_OK, PGN_E_NOMEM or PGN_E_BAD_ALLOCATOR. The
 * caller frees them with pgn_stats_free. */
PGN_API PGN_NODISCARD pgn_status pgn_stats_new(pgn_stats **out, const pgn_allocator *alloc);
/** Frees the counts; accepts NULL. */
PGN_API void pgn_stats_free(pgn_stats *s);

/**
 * Counts game: its plies, its result (the Result tag when it is one of the four markers, else
 * the movetext's), ECO, event, year, variant, time-control class (TimeControl: base + 40 x
 * increment of the first period; bullet < 3 min, blitz < 8, rapid < 25, else classical; "-" none,
 * a missing or "?" value unknown), and each player's games, score and rating range. The values of
 * game are NUL-terminated in place (the last byte of a value of PGN_STATS_VAL_MAX bytes gives way)
 * and Date is cut to its year. PGN_OK or PGN_E_NOMEM (the counts are then partly updated).
 */
PGN_API PGN_NODISCARD pgn_status pgn_stats_add(pgn_stats *s, pgn_stats_game *game);

/** A pgn_diag_fn (ctx: the pgn_stats) counting each diagnostic by its code. */
PGN_API void pgn_stats_diag(void *ctx, const pgn_diag *d);
/** The number of diagnostics of code counted (pgn_stats_diag). */
PGN_API uint64_t pgn_stats_diag_count(const pgn_stats *s, pgn_status code);

/** List which (enum pgn_stats_list) of s, borrowed until pgn_stats_free: the caller reads it with
 * pgn_tally_count and pgn_tally_sorted. */
PGN_API pgn_tally *pgn_stats_tally(pgn_stats *s, unsigned which);

/** The summary of the counts. */
typedef struct pgn_stats_summary {
    uint64_t results[5]; /* games by pgn_result */
    size_t plies_min, plies_median, plies_max;
    double plies_mean;  /* 0 without a game */
    double white_score; /* White's score in percent of the decided and drawn games */
} pgn_stats_summary;

/** The summary over games games (the number added, or the caller's count of the games read: a
 * game not added counts as one of 0 plies). */
PGN_API pgn_stats_summary pgn_stats_summarize(const pgn_stats *s, uint64_t games);

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
