/* SPDX-License-Identifier: MIT */
/* What a deduplicating run keeps beside its pgn_dedupe_keeper (the io layer,
 * src/io/dedupe_report.c; issue 29 point 3, from pgnkit dedupe's cli/dedupe_out.c): the copies a
 * report lists, and the report itself as JSON. Memory from libc; nothing printed. */
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
