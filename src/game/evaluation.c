/* SPDX-License-Identifier: MIT */
/* The analysis logic of lichess (lila modules/tree WinPercent.scala and Advice.scala,
 * modules/analyse AccuracyPercent.scala and AccuracyCP.scala), written from their formulas: winning
 * chances, move judgements ($6/$2/$4), move and game accuracy, average centipawn loss; plus our
 * position NAGs. The model sits in the game layer so that both the engine layer (annotating)
 * and the render layer (the evaluation graph) reach it (issue 33 point 4). */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "evaluation_internal.h"

#define CP_CEILING 1000

/* Sign of a decided eval (mate or checkmate): +1 good for White, -1 for Black, 0 otherwise. */
static int decided_sign(pgn_engine_eval e) {
    if (e.kind != PGN_SCORE_MATE && e.kind != PGN_SCORE_CHECKMATE) {
        return 0;
    }
    return e.value > 0 ? 1 : -1;
}

static double chances_of_cp(double cp) {
    double c = 2.0 / (1.0 + exp(-0.00368208 * cp)) - 1.0;
    return c < -1 ? -1 : c > 1 ? 1 : c;
}

double pgn_engine_eval_winning_chances(pgn_engine_eval e) {
    if (e.kind == PGN_SCORE_CP) {
        return chances_of_cp((double)e.value);
    }
    return (double)decided_sign(e);
}

int32_t pgn_engine_eval_cp_capped(pgn_engine_eval e) {
    if (e.kind == PGN_SCORE_CP) {
        return e.value > CP_CEILING ? CP_CEILING : e.value < -CP_CEILING ? -CP_CEILING : e.value;
    }
    return decided_sign(e) * CP_CEILING;
}

double pgn_engine_eval_win_percent(pgn_engine_eval e) {
    if (e.kind == PGN_SCORE_NONE) {
        return 50.0;
    }
    return 50.0 + 50.0 * chances_of_cp((double)pgn_engine_eval_cp_capped(e));
}

double pgn_move_accuracy(double win_before, double win_after) {
    if (win_after >= win_before) {
        return 100.0;
    }
    double raw = 103.1668100711649 * exp(-0.04354415386753951 * (win_before - win_after)) -
                 3.166924740191411;
    raw += 1.0; /* lichess's "uncertainty bonus (due to imperfect analysis)" */
    return raw > 100.0 ? 100.0 : raw < 0.0 ? 0.0 : raw;
}

/* Mate transitions of Advice.scala's MateAdvice, from the mover's point of view. */
static unsigned mate_judgement(pgn_engine_eval before, pgn_engine_eval after, int pov, int *kind) {
    int prev_mate = before.kind == PGN_SCORE_MATE ? decided_sign(before) * pov : 0;
    int next_mate = (after.kind == PGN_SCORE_MATE || after.kind == PGN_SCORE_CHECKMATE)
                        ? decided_sign(after) * pov
                        : 0;
    int64_t prev_cp = before.kind == PGN_SCORE_CP ? (int64_t)before.value * pov : 0;
    int64_t next_cp = after.kind == PGN_SCORE_CP ? (int64_t)after.value * pov : 0;
    if (prev_mate == 0 && next_mate < 0) {
        *kind = 1; /* mate created against the mover */
        return prev_cp < -999 ? 6u : prev_cp < -700 ? 2u : 4u;
    }
    if (prev_mate > 0 && next_mate <= 0) {
        *kind = 2; /* a forced mate lost */
        return next_cp > 999 ? 6u : next_cp > 700 ? 2u : 4u;
    }
    return 0;
}

void pgn_judge_move(pgn_engine_eval before, pgn_engine_eval after, pgn_color mover,
                    pgn_judgement *out) {
    assert(out != NULL);
    int pov = mover == PGN_WHITE ? 1 : -1;
    memset(out, 0, sizeof *out);
    out->chances_loss =
        (pgn_engine_eval_winning_chances(before) - pgn_engine_eval_winning_chances(after)) * pov;
    double wb = pgn_engine_eval_win_percent(before), wa = pgn_engine_eval_win_percent(after);
    out->accuracy = pov > 0 ? pgn_move_accuracy(wb, wa) : pgn_move_accuracy(100.0 - wb, 100.0 - wa);
    int32_t loss = (pgn_engine_eval_cp_capped(before) - pgn_engine_eval_cp_capped(after)) * pov;
    out->cp_loss = loss > 0 ? loss : 0;
    if (before.kind == PGN_SCORE_NONE || after.kind == PGN_SCORE_NONE) {
        return;
    }
    if (before.kind == PGN_SCORE_CP && after.kind == PGN_SCORE_CP) {
        double d = out->chances_loss;
        out->nag = d >= 0.3 ? 4u : d >= 0.2 ? 2u : d >= 0.1 ? 6u : 0u;
        return;
    }
    out->nag = mate_judgement(before, after, pov, &out->mate);
}

unsigned pgn_engine_eval_position_nag(pgn_engine_eval e) {
    if (e.kind == PGN_SCORE_NONE) {
        return 0;
    }
    int64_t cp = e.kind == PGN_SCORE_CP ? e.value : decided_sign(e) * 100000;
    int64_t a = cp < 0 ? -cp : cp;
    if (a <= 30) {
        return 10;
    }
    unsigned white = a <= 80 ? 14u : a <= 200 ? 16u : 18u;
    return cp > 0 ? white : white + 1;
}

size_t pgn_engine_eval_format(pgn_engine_eval e, char buf[32]) {
    int n = 0;
    if (e.kind == PGN_SCORE_CP) {
        int64_t a = e.value < 0 ? -(int64_t)e.value : e.value;
        n = snprintf(buf, 32, "%s%d.%02d", e.value < 0 ? "-" : "", (int)(a / 100), (int)(a % 100));
    } else if (e.kind == PGN_SCORE_MATE) {
        n = snprintf(buf, 32, "#%d", (int)e.value);
    } else {
        buf[0] = 0;
        return 0;
    }
    if (e.depth > 0 && n > 0 && n < 32) {
        n += snprintf(buf + n, 32 - (size_t)n, ",%u", (unsigned)e.depth);
    }
    return n < 0 ? 0 : (size_t)n;
}

int pgn_engine_eval_to_eval(pgn_engine_eval e, pgn_eval *out) {
    assert(out != NULL);
    if (e.kind != PGN_SCORE_CP && e.kind != PGN_SCORE_MATE) {
        return 0;
    }
    int32_t cap = e.kind == PGN_SCORE_CP ? 99999999 : 99999;
    out->kind = e.kind == PGN_SCORE_CP ? PGN_EVAL_CP : PGN_EVAL_MATE;
    out->value = e.value > cap ? cap : e.value < -cap ? -cap : e.value;
    out->depth = e.depth == 0 ? -1 : e.depth > 99999 ? 99999 : (int32_t)e.depth;
    return 1;
}

/* evals[i] in an array of structs of `stride` bytes that start with a pgn_engine_eval. */
static pgn_engine_eval eval_at(const void *base, size_t stride, size_t i) {
    pgn_engine_eval e;
    memcpy(&e, (const char *)base + i * stride, sizeof e);
    return e;
}

/* Population standard deviation of the win percents evals[from..from+len-1]. */
static double window_stddev(const void *evals, size_t stride, size_t from, size_t len) {
    double sum = 0, sq = 0;
    for (size_t i = from; i < from + len; i++) {
        double w = pgn_engine_eval_win_percent(eval_at(evals, stride, i));
        sum += w;
        sq += w * w;
    }
    double mean = sum / (double)len;
    double var = sq / (double)len - mean * mean;
    return var > 0 ? sqrt(var) : 0.0;
}

void pgnk_eval_stats_strided(const void *evals, size_t stride, size_t n, pgn_color first_mover,
                             pgn_game_stats *out) {
    assert(out != NULL && (evals != NULL || n == 0));
    memset(out, 0, sizeof *out);
    double wsum[2] = {0, 0}, wtot[2] = {0, 0}, inv[2] = {0, 0}, cpl[2] = {0, 0};
    size_t moves = n > 0 ? n - 1 : 0;
    /* lichess: windows of clamp(moves / 10, 2, 8) win percents; the first moves reuse the first
     * window */
    size_t win = moves / 10 < 2 ? 2 : moves / 10 > 8 ? 8 : moves / 10;
    if (win > n) {
        win = n;
    }
    for (size_t i = 0; i < moves; i++) {
        int c = (int)((i + (size_t)first_mover) & 1); /* 0 White, 1 Black */
        size_t from = i + 2 > win ? i + 2 - win : 0;
        double weight = win > 0 ? window_stddev(evals, stride, from, win) : 0.5;
        weight = weight < 0.5 ? 0.5 : weight > 12 ? 12 : weight;
        pgn_judgement j;
        pgn_judge_move(eval_at(evals, stride, i), eval_at(evals, stride, i + 1),
                       c == 0 ? PGN_WHITE : PGN_BLACK, &j);
        out->moves[c]++;
        wsum[c] += j.accuracy * weight;
        wtot[c] += weight;
        inv[c] += 1.0 / (j.accuracy < 1.0 ? 1.0 : j.accuracy);
        cpl[c] += j.cp_loss;
        out->inaccuracies[c] += j.nag == 6;
        out->mistakes[c] += j.nag == 2;
        out->blunders[c] += j.nag == 4;
    }
    for (int c = 0; c < 2; c++) {
        if (out->moves[c] == 0) {
            out->accuracy[c] = out->acpl[c] = -1;
            continue;
        }
        double weighted = wsum[c] / wtot[c];
        double harmonic = (double)out->moves[c] / inv[c];
        out->accuracy[c] = (weighted + harmonic) / 2;
        out->acpl[c] = cpl[c] / out->moves[c];
    }
}

void pgn_game_stats_compute(const pgn_engine_eval *evals, size_t n, pgn_color first_mover,
                            pgn_game_stats *out) {
    pgnk_eval_stats_strided(evals, sizeof *evals, n, first_mover, out);
}
