/* SPDX-License-Identifier: MIT */
/* pgnkit evaluations: an engine's evaluation in White's point of view and the analysis logic of
 * lichess on it (winning chances, win percent, move judgements, accuracy, average centipawn loss,
 * position NAGs, the [%eval] form). Pure functions in the game layer (src/game/evaluation.c), so
 * that the engine layer (annotating a game) and the render layer (the evaluation graph) use one
 * model (issue 33 point 4); engine.h includes this header. */
#ifndef PGNKIT_EVALUATION_H
#define PGNKIT_EVALUATION_H

#include "annot.h"
#include "base.h"
#include "chess.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pgn_score_kind {
    PGN_SCORE_NONE = 0,
    PGN_SCORE_CP = 1,   /* centipawns */
    PGN_SCORE_MATE = 2, /* mate in value moves (negative: being mated); never 0 */
    PGN_SCORE_CHECKMATE =
        3 /* the game is over by mate: in a pgn_engine_eval, value +1 White won, -1 Black */
} pgn_score_kind;

/* ---- evaluations and judgements (lichess's analysis, see docs/analysis.md) ---- */

/** An evaluation from White's point of view: kind CP (centipawns), MATE (value > 0: White mates in
 * value moves; < 0: Black mates), or CHECKMATE (the position is mate: +1 White won, -1 Black won).
 * depth 0 means unknown. */
typedef struct pgn_engine_eval {
    pgn_score_kind kind;
    int32_t value;
    uint32_t depth;
} pgn_engine_eval;

/** Winning chances in [-1, 1] for White: 2 / (1 + exp(-0.00368208 * cp)) - 1 on the raw
 * centipawns; mates and checkmates are +1 or -1, PGN_SCORE_NONE 0. */
PGN_API double pgn_engine_eval_winning_chances(pgn_engine_eval e);

/** lichess's "win percent" in [0, 100] for White: 50 + 50 * winning chances with centipawns capped
 * at +-1000 and mates counted as +-1000. */
PGN_API double pgn_engine_eval_win_percent(pgn_engine_eval e);

/** The centipawns used for average centipawn loss: capped at +-1000, mates +-1000 (lichess). */
PGN_API int32_t pgn_engine_eval_cp_capped(pgn_engine_eval e);

/** Accuracy of a move in [0, 100] from the mover's win percent before and after it (lichess:
 * 103.1668 * exp(-0.04354 * loss) - 3.1669, plus 1, clamped; 100 when nothing was lost). */
PGN_API double pgn_move_accuracy(double win_before, double win_after);

/** What a move did, from the mover's point of view. */
typedef struct pgn_judgement {
    double chances_loss; /* loss of winning chances (may be negative: a gain) */
    double accuracy;     /* pgn_move_accuracy of the move */
    int32_t cp_loss;     /* centipawn loss, >= 0, on pgn_engine_eval_cp_capped */
    unsigned nag;        /* 0, 6 (inaccuracy), 2 (mistake) or 4 (blunder) */
    int mate;            /* 0; 1: mate now unavoidable for the mover; 2: a forced mate was lost */
} pgn_judgement;

/**
 * Judges the move that mover played from a position evaluated `before` to one evaluated `after`
 * (both from White's point of view), with lichess's rules (modules/tree Advice.scala): between two
 * centipawn scores, a loss of winning chances >= 0.3 is a blunder, >= 0.2 a mistake, >= 0.1 an
 * inaccuracy; a mate for the opponent appearing is an inaccuracy if the mover was already below
 * -999 cp, a mistake below -700, else a blunder; a forced mate of the mover's disappearing is an
 * inaccuracy if above 999 cp remain, a mistake above 700, else a blunder.
 */
PGN_API void pgn_judge_move(pgn_engine_eval before, pgn_engine_eval after, pgn_color mover,
                            pgn_judgement *out);

/**
 * The position assessment NAG for an evaluation (White's view): $10 when |cp| <= 30, $14/$15 up
 * to 80, $16/$17 up to 200, $18/$19 above 200 and for mates; 0 for PGN_SCORE_NONE.
 */
PGN_API unsigned pgn_engine_eval_position_nag(pgn_engine_eval e);

/** The eval as annot.h's pgn_eval (depth 0 becomes -1; centipawns beyond +-999999.99 pawns, mates
 * beyond 99999 moves and depths beyond 99999 are clamped to what an [%eval] can hold). Returns 1,
 * or 0 for CHECKMATE and NONE, which have no [%eval]. */
PGN_API int pgn_engine_eval_to_eval(pgn_engine_eval e, pgn_eval *out);

/** Writes the eval as an [%eval] argument: "0.35,18", "-1.00", "#3,20", "#-2" (depth only when
 * known; nothing for CHECKMATE or NONE). buf must hold 32 bytes; returns the length. */
PGN_API size_t pgn_engine_eval_format(pgn_engine_eval e, char buf[32]);

/** Per-player figures of an analysed game; index 0 White, 1 Black. */
typedef struct pgn_game_stats {
    double accuracy[2]; /* lichess game accuracy; -1 when the player made no move */
    double acpl[2];     /* average centipawn loss; -1 when the player made no move */
    uint32_t moves[2];
    uint32_t inaccuracies[2], mistakes[2], blunders[2];
} pgn_game_stats;

/**
 * Computes the per-player figures from evals[0..n-1]: evals[0] of the start position, evals[i] of
 * the position after ply i; first_mover moved first. Game accuracy is lichess's (AccuracyPercent
 * gameAccuracy): the mean of a volatility-weighted mean and the harmonic mean of the move
 * accuracies, the weights being the standard deviation of the win percents in a sliding window.
 */
PGN_API void pgn_game_stats_compute(const pgn_engine_eval *evals, size_t n, pgn_color first_mover,
                                    pgn_game_stats *out);

#ifdef __cplusplus
}
#endif

#endif
