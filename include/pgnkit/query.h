/* SPDX-License-Identifier: MIT */
/* pgnkit selection language (docs/query.md): an expression over tags, positions, moves, endings
 * and annotations is compiled once, then a matcher runs it as a reader visitor, incrementally
 * on each position the reader plays, and tells whether each game matches. */
#ifndef PGNKIT_QUERY_H
#define PGNKIT_QUERY_H

#include "base.h"
#include "chess.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A compiled expression. Immutable once compiled: one query may serve matchers on several
 * threads at once. */
typedef struct pgn_query pgn_query;

/** Why an expression was refused: the 1-based byte column and length of the offending token, a
 * message naming what was found, and the list of what was expected there. */
typedef struct pgn_query_error {
    uint32_t column;    /* 1-based byte column in the expression text (0: no place) */
    uint32_t length;    /* bytes of the offending token (0 at the end of the text) */
    char message[96];   /* "unknown atom 'foo'", NUL-terminated */
    char expected[160]; /* "a tag name, an atom, 'not' or '('", NUL-terminated; may be empty */
} pgn_query_error;

/**
 * Compiles the expression of len bytes at text. alloc may be NULL (libc); it is copied.
 * Returns PGN_OK and *out (release with pgn_query_free); PGN_E_UNEXPECTED_TOKEN for a syntax
 * error, an unknown atom or a bad operand (a FEN, a SAN move, a pattern, a regular expression),
 * with *err filled when err is not NULL; PGN_E_LIMIT (*err filled too) for more than 64
 * operators above an atom, text nested deeper than 129 levels, more than 4 flips nested in one
 * another, or an expression longer than 64 KiB (docs/query.md); PGN_E_NOMEM; PGN_E_BAD_ALLOCATOR
 * for a half-filled alloc.
 */
PGN_API PGN_NODISCARD pgn_status pgn_query_compile(pgn_query **out, const char *text, size_t len,
                                                   const pgn_allocator *alloc,
                                                   pgn_query_error *err);
/** Releases a query (NULL is fine). Matchers built on it must be freed first. */
PGN_API void pgn_query_free(pgn_query *query);

/**
 * The reader flags that make the reader do only what the query needs: PGN_READ_NO_BOARD when it
 * reads only tags (then it never resolves a move; an atom that counts or reads moves has them
 * resolved, so that an illegal one is an error), PGN_READ_NO_KEYS when it looks
 * at no Zobrist key (hash and repetition do). OR them into pgn_reader_opts.flags.
 */
PGN_API uint32_t pgn_query_reader_flags(const pgn_query *query);

/**
 * Writes the expression in canonical form (every operator parenthesised, atoms as written,
 * comments dropped) into buf, NUL-terminated, truncated to cap bytes. Returns the full length
 * (without NUL). Compiling the canonical form gives the same query.
 */
PGN_API size_t pgn_query_print(const pgn_query *query, char *buf, size_t cap);

/** The state of one query over one stream of games. Not shared between threads. */
typedef struct pgn_query_matcher pgn_query_matcher;

/** Creates a matcher of query (borrowed: it must outlive the matcher). alloc may be NULL.
 * Returns PGN_OK, PGN_E_NOMEM or PGN_E_BAD_ALLOCATOR. */
PGN_API PGN_NODISCARD pgn_status pgn_query_matcher_new(pgn_query_matcher **out,
                                                       const pgn_query *query,
                                                       const pgn_allocator *alloc);
/** Frees the matcher (not its query); accepts NULL. */
PGN_API void pgn_query_matcher_free(pgn_query_matcher *matcher);

/**
 * The visitor that runs the matcher: pass it to pgn_reader_visit with the matcher as user. Each
 * game is decided when it ends (or sooner: the visitor then skips the rest of the movetext
 * when it can). Returns a static visitor, never NULL.
 */
PGN_API const pgn_visitor *pgn_query_visitor(void);
/**
 * The same visitor for query, without the move callback when the query tests no position but the
 * final one (ends, result != final, plies, tags): the reader then calls nothing per move, and the
 * matcher reads the final position from the summary end_game gets. Same answers as
 * pgn_query_visitor(). Returns a static visitor, never NULL.
 */
PGN_API const pgn_visitor *pgn_query_visitor_for(const pgn_query *query);

/**
 * The fastest way to read for query: returns the visitor to pass to pgn_reader_visit (a matcher of
 * query as user) and ORs the reader flags it needs into *flags: pgn_query_reader_flags, and
 * PGN_READ_MOVE_AFTER when the query tests points of the main line only and reads neither the
 * position before a move, nor annotations, nor keys (the reader then reads and plays each move in
 * one pass), with PGN_READ_MOVE_GATE (the matcher, the user, holds the gate: no callback for the
 * moves that cannot change what is known of the game). Read with those flags: the same answers,
 * and the same moves resolved (so the same diagnostics), as pgn_query_visitor_for. Returns a static
 * visitor, never NULL.
 */
PGN_API const pgn_visitor *pgn_query_visitor_fast(const pgn_query *query, uint32_t *flags);

/** The outcome for the game last visited. */
typedef struct pgn_query_result {
    int matched;        /* 1: the game matches the expression */
    uint32_t first_ply; /* the first main-line point (0 = start position, n = after the n-th move)
                           at which a position or move condition held; UINT32_MAX if none */
} pgn_query_result;

/**
 * The result for the game last visited. Returns PGN_OK, or PGN_E_NOMEM when the matcher ran out
 * of memory during the game (the result is then not valid).
 */
PGN_API PGN_NODISCARD pgn_status pgn_query_matcher_result(const pgn_query_matcher *matcher,
                                                          pgn_query_result *out);

/**
 * A selection filter: a matcher of query run so that the reader reads every game whole (the
 * matcher may skip or stop; the reader is never told, so every diagnostic of a game is found),
 * with the game's diagnostics held until it is known whether the game matched (what pgnkit's
 * --where prints: the diagnostics of the games that match). Not shared between threads.
 */
typedef struct pgn_query_filter pgn_query_filter;
/** Creates a filter of query (borrowed: it must outlive the filter). alloc may be NULL.
 * Returns PGN_OK, PGN_E_NOMEM or PGN_E_BAD_ALLOCATOR. */
PGN_API PGN_NODISCARD pgn_status pgn_query_filter_new(pgn_query_filter **out,
                                                      const pgn_query *query,
                                                      const pgn_allocator *alloc);
/** Frees the filter and its held diagnostics (not its query); accepts NULL. */
PGN_API void pgn_query_filter_free(pgn_query_filter *filter);
/** The visitor to read with, the filter as user: it always answers PGN_FLOW_CONTINUE. Returns a
 * static visitor, never NULL. */
PGN_API const pgn_visitor *pgn_query_filter_visitor(void);
/** A pgn_diag_fn (ctx: the filter) for pgn_reader_opts.on_diag: holds a copy of d (its source
 * pointer must stay valid until the flush: the reader's source_name). Out of memory, the
 * diagnostic is dropped and the next pgn_query_filter_flush returns -1. */
PGN_API void pgn_query_filter_diag(void *ctx, const pgn_diag *d);
/** Whether the game just visited matched (*matched 1 or 0). PGN_OK, or PGN_E_NOMEM when the
 * matcher ran out of memory during the game (*matched is then 0). */
PGN_API PGN_NODISCARD pgn_status pgn_query_filter_matched(const pgn_query_filter *filter,
                                                          int *matched);
/** Passes the held diagnostics to fn(ctx, d) in order when pass is nonzero, counting errors in
 * counts[0] and warnings in counts[1], and stopping after the error that makes counts[0] reach
 * budget (0: no budget); then drops them all. Returns 1 when the budget was reached, -1 when a
 * diagnostic of the game could not be held (out of memory), else 0. */
PGN_API int pgn_query_filter_flush(pgn_query_filter *filter, int pass, pgn_diag_fn fn, void *ctx,
                                   uint64_t budget, uint64_t counts[2]);

#ifdef __cplusplus
}
#endif
#endif
