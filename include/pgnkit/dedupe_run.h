/* SPDX-License-Identifier: MIT */
/* What a deduplicating run keeps beside its pgn_dedupe_keeper (the io layer, src/io/dedupe_files.c
 * and src/io/dedupe_report.c; issue 29 point 3, from pgnkit dedupe's cli/dedupe_out.c): its
 * temporary files (the keeper's spill store, and the games' texts for a second pass that writes
 * the kept copies), the copies a report lists, and the report itself as JSON. Memory from libc;
 * POSIX file descriptors; nothing printed. */
#ifndef PGNKIT_DEDUPE_RUN_H
#define PGNKIT_DEDUPE_RUN_H

#include "base.h"
#include "collection.h"
#include "writer.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The temporary files of a deduplicating run: the keeper's spill store and, when asked, a spool
 * of every game's text (with --keep richest the copy to keep is known only at the end). Each is
 * an anonymous temporary file (pgn_temp_open), gone when it is closed however the program ends,
 * written through a buffer of its own. Not thread-safe (one thread at a time). */
typedef struct pgn_dedupe_files pgn_dedupe_files;

/**
 * Creates the spill file and, with texts nonzero, the spool, in directory dir (NULL: /tmp).
 * Returns PGN_OK with the object in *out (the caller frees it with pgn_dedupe_files_free),
 * PGN_E_NOMEM, or PGN_E_IO / PGN_E_LIMIT as pgn_temp_open gives them, with its sentence in msg
 * (cap bytes; msg may be NULL); *out is NULL then.
 */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_files_new(pgn_dedupe_files **out, const char *dir,
                                                      int texts, char *msg, size_t cap);

/** The spill store over the spill file, for pgn_dedupe_keeper_opts.spill (its ctx is f, which
 * must outlive the keeper). */
PGN_API pgn_dedupe_spill pgn_dedupe_files_spill(pgn_dedupe_files *f);

/**
 * Appends a game to the spool (made with texts): its ordinal as given to the keeper, whether it
 * has errors (broken: written whatever the keeper decides) and its text. PGN_OK, or PGN_E_IO
 * (the file could not be written).
 */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_files_spool(pgn_dedupe_files *f, uint64_t ordinal,
                                                        int broken, pgn_str text);

/** The second pass: called with each game of the spool in order, its text (borrowed for the
 * call) and kept, set for a copy k keeps (pgn_dedupe_keeper_is_kept, after
 * pgn_dedupe_keeper_finish), a broken game and a text past 4 GiB (never compared). */
typedef pgn_status (*pgn_dedupe_replay_fn)(void *ctx, int kept, pgn_str text);

/**
 * Reads the spool back from its start, giving each game to fn. Returns PGN_OK, fn's status when
 * it is not PGN_OK (the pass stops), PGN_E_IO (the file could not be read) or PGN_E_NOMEM.
 */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_files_replay(pgn_dedupe_files *f,
                                                         const pgn_dedupe_keeper *k,
                                                         pgn_dedupe_replay_fn fn, void *ctx);

/** Closes the files (they go with their descriptors) and releases f; accepts NULL. */
PGN_API void pgn_dedupe_files_free(pgn_dedupe_files *f);

/** The copies of a deduplicating run, for its report: each cluster's first copy and every
 * duplicate, with the name of the input it came from and its line there. */
typedef struct pgn_dedupe_report pgn_dedupe_report;

/** Creates an empty report. PGN_OK with it in *out (the caller frees it with
 * pgn_dedupe_report_free), or PGN_E_NOMEM (*out NULL). */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_report_new(pgn_dedupe_report **out);

/**
 * Remembers a copy as pgn_dedupe_keeper_add gave it: cluster and is_new as the keeper set them
 * (is_new: the cluster's first copy; clusters are numbered from 0 as they are made, so the first
 * copies come in cluster order), the caller's ordinal of the game, source the name of its input
 * (copied; consecutive copies from one input share one copy of the name) and line the line its
 * game starts on. PGN_OK or PGN_E_NOMEM (nothing remembered).
 */
PGN_API PGN_NODISCARD pgn_status pgn_dedupe_report_add(pgn_dedupe_report *rp, uint64_t cluster,
                                                       int is_new, uint64_t ordinal,
                                                       const char *source, uint32_t line);

/**
 * Writes the report to fn(ctx, ...) as one JSON object and a newline:
 * {"games":N,"distinct":N,"duplicates":N,"by":B,"without_moves_by":"moves+tags","clusters":[...]}
 * with games as given (the games the run considered), distinct and duplicates from k, B "moves"
 * or "moves+tags" (flags & PGN_DEDUPE_TAGS; a game without moves is always compared with its
 * tags), and each cluster of two or more copies, in cluster order, on a line of its own:
 * {"cluster":C,"games":[{"ordinal":O,"source":S,"line":L,"kept":true|false},...]}, its copies in
 * ordinal order (kept: the copy k keeps; call it after pgn_dedupe_keeper_finish). Sorts the
 * remembered duplicates. PGN_OK, or PGN_E_IO when fn failed (the writing stops there).
 */
PGN_API pgn_status pgn_dedupe_report_write(pgn_dedupe_report *rp, const pgn_dedupe_keeper *k,
                                           uint64_t games, uint32_t flags, pgn_write_fn fn,
                                           void *ctx);

/** Releases the report and its copies of the names; accepts NULL. */
PGN_API void pgn_dedupe_report_free(pgn_dedupe_report *rp);

#ifdef __cplusplus
}
#endif
#endif
