/* SPDX-License-Identifier: MIT */
/* Declarations shared by the files of src/engine. */
#ifndef PGNKIT_ENGINE_INTERNAL_H
#define PGNKIT_ENGINE_INTERNAL_H

#include "pgnkit/engine.h"

/* pgn_game_stats_compute over an array of structs of `stride` bytes, each starting with a
 * pgn_engine_eval.
 */
void pgnk_engine_stats_strided(const void *evals, size_t stride, size_t n, pgn_color first_mover,
                               pgn_game_stats *out);

#endif
