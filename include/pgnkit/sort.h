/* SPDX-License-Identifier: MIT */
/* Sorting a collection by its tags without holding it (the io layer, src/io/sort.c; issue 29
 * point 3, from pgnkit sort's cli/sort_runs.c): the games' texts, unchanged, ordered by a list of
 * tags as pgn_tag_compare orders their values (PGN §8.1.1.3 dates, §8.1.1.4 rounds), stably.
 * Games are held up to a memory limit; beyond it each full batch is sorted into a run in a
 * temporary file (pgn_temp_open of tempfile.h, in the caller's directory) and the runs are
 * merged, 16 at a time as soon as 16 of one level exist, so at most 15 runs per level are open
 * whatever the input's size. POSIX (file descriptors); nothing printed: a failure's sentence is
 * kept for pgn_sort_error. */
#ifndef PGNKIT_SORT_H
#define PGNKIT_SORT_H

#include "base.h"
#include "writer.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Tags a sort can order by. */
#define PGN_SORT_MAX_TAGS 16
/** Bytes of games a sort holds by default (pgn_sort_opts.memory 0). */
#define PGN_SORT_MEMORY ((uint64_t)256 << 20)

typedef struct pgn_sort_opts {
    const char *const *tags;    /* the tag names to order by, first one first (copied) */
    size_t ntags;               /* 1 to PGN_SORT_MAX_TAGS */
    uint64_t memory;            /* bytes of games held before a run is written; 0: the default */
    const char *temp_dir;       /* directory of the run files (copied); NULL: "/tmp" */
    const pgn_allocator *alloc; /* NULL: libc */
} pgn_sort_opts;

/** An external merge sort of games (see the top of this header). */
typedef struct pgn_sort pgn_sort;

/**
 * Creates a sort. opts is required (its tags). Returns PGN_OK, PGN_E_LIMIT (ntags 0 or more than
 * PGN_SORT_MAX_TAGS), PGN_E_NOMEM or PGN_E_BAD_ALLOCATOR; the caller frees it with pgn_sort_free.
 */
PGN_API PGN_NODISCARD pgn_status pgn_sort_new(pgn_sort **out, const pgn_sort_opts *opts);
/** Frees the sort, the games it holds and its runs (their files go with them); accepts NULL. */
PGN_API void pgn_sort_free(pgn_sort *s);

/** Starts a game: forgets the tag values noted so far (call it at a visitor's begin_game). */
PGN_API void pgn_sort_begin_game(pgn_sort *s);
/**
 * Notes tag name's value for the current game when name is one of the sort's tags (a later
 * value of the same tag replaces it; a value of 4 GiB or more is not noted). The strings are
 * copied. Returns PGN_OK or PGN_E_NOMEM.
 */
PGN_API PGN_NODISCARD pgn_status pgn_sort_tag(pgn_sort *s, pgn_str name, pgn_str value);
/**
 * Adds the current game, whose text is raw (copied), with the tag values noted since
 * pgn_sort_begin_game; a tag not noted orders the game before every game that has it, and equal
 * games keep the order of their pgn_sort_add. When the games held pass the memory limit they are
 * sorted into a new run (merging runs as needed). Returns PGN_OK, PGN_E_LIMIT (raw of 4 GiB or
 * more), PGN_E_NOMEM or PGN_E_IO (pgn_sort_error says why).
 */
PGN_API PGN_NODISCARD pgn_status pgn_sort_add(pgn_sort *s, pgn_str raw);
/**
 * Writes every game added, in order, through write (ctx passed on): each game's text as given,
 * followed by a newline when it does not end with one. Call it once; the sort is then empty.
 * Returns PGN_OK, PGN_E_NOMEM or PGN_E_IO (a run could not be written or read back, with
 * pgn_sort_error saying why, or write failed, with pgn_sort_error empty).
 */
PGN_API PGN_NODISCARD pgn_status pgn_sort_finish(pgn_sort *s, pgn_write_fn write, void *ctx);
/** The number of runs written so far (merged runs not counted). */
PGN_API uint64_t pgn_sort_runs(const pgn_sort *s);
/** The sentence of the last failure that has one ("cannot open a temporary run file: ..."), or
 * "" (the status alone tells); owned by the sort, valid until its next call. */
PGN_API const char *pgn_sort_error(const pgn_sort *s);

#ifdef __cplusplus
}
#endif
#endif
