/* SPDX-License-Identifier: MIT */
/* The evaluation model's function shared with the engine layer (annotate.c). */
#ifndef PGNKIT_EVALUATION_INTERNAL_H
#define PGNKIT_EVALUATION_INTERNAL_H

#include "pgnkit/evaluation.h"

/* pgn_game_stats_compute over an array of structs of `stride` bytes, each starting with a
 * pgn_engine_eval.
 */
void pgnk_eval_stats_strided(const void *evals, size_t stride, size_t n, pgn_color first_mover,
                             pgn_game_stats *out);

#endif
