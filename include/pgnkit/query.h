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

#ifdef __cplusplus
}
#endif
#endif
