/* SPDX-License-Identifier: MIT */
/* The script of the fake UCI engine (tests/tools/fake_engine.c), shared with the unit test that
 * drives pgn_game_analyze in process (tests/unit/test_engine.c), so that both engines say the same
 * lines. Header-only: every function is static. */
#ifndef PGNKIT_FAKE_SCRIPT_H
#define PGNKIT_FAKE_SCRIPT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgnkit.h"

typedef void (*fake_emit_fn)(void *ctx, const char *line);

static int fake_material(const pgn_pos *p) {
    static const int value[7] = {0, 100, 300, 300, 500, 900, 0};
    int sum = 0;
    for (int sq = 0; sq < 64; sq++) {
        uint8_t pc = p->board[sq];
        if (pc) {
            int v = value[PGN_PIECE_TYPE(pc)];
            sum += PGN_PIECE_COLOR(pc) == (pgn_color)p->side ? v : -v;
        }
    }
    return sum;
}

static int fake_set_position(pgn_pos *pos, char *args, int chess960) {
    char *moves = strstr(args, " moves");
    if (moves) {
        *moves = 0;
        moves += 6;
    }
    if (strncmp(args, "startpos", 8) == 0) {
        pgn_pos_init(pos);
        pos->chess960 = (uint8_t)chess960;
    } else if (strncmp(args, "fen ", 4) == 0) {
        if (pgn_fen_parse(pos, args + 4, strlen(args + 4), chess960 ? PGN_FEN_CHESS960 : 0, NULL) !=
            PGN_OK) {
            return -1;
        }
    } else {
        return -1;
    }
    for (char *tok = moves ? strtok(moves, " ") : NULL; tok; tok = strtok(NULL, " ")) {
        pgn_move m;
        if (pgn_uci_parse(pos, tok, strlen(tok), &m) != PGN_OK) {
            return -1;
        }
        pgn_pos_play(pos, m);
    }
    return 0;
}

/* The mate in one if there is one (*mate set), else the first legal move (the last with
 * FAKE_ENGINE_BEST=last). ml is not empty. */
static pgn_move fake_best_move(const pgn_pos *pos, const pgn_movelist *ml, int *mate) {
    for (uint32_t i = 0; i < ml->count; i++) {
        pgn_pos after = *pos;
        pgn_pos_play(&after, ml->moves[i]);
        if (pgn_pos_is_checkmate(&after)) {
            *mate = 1;
            return ml->moves[i];
        }
    }
    const char *b = getenv("FAKE_ENGINE_BEST");
    *mate = 0;
    return b && strcmp(b, "last") == 0 ? ml->moves[ml->count - 1] : ml->moves[0];
}

/* The first lines of a search of pos: its score and best move in *score and *best. Returns 0
 * when the search is over (no legal move: "bestmove (none)" said), else 1. */
static int fake_search_start(const pgn_pos *pos, fake_emit_fn emit, void *ctx, char score[32],
                             char best[PGN_UCI_MAX]) {
    pgn_movelist ml;
    pgn_pos_legal_moves(pos, &ml);
    if (ml.count == 0) {
        emit(ctx, pgn_pos_in_check(pos) ? "info depth 0 score mate 0" : "info depth 0 score cp 0");
        emit(ctx, "bestmove (none)");
        return 0;
    }
    int mate = 0;
    pgn_uci_write(pos, fake_best_move(pos, &ml, &mate), best);
    snprintf(score, 32, mate ? "mate 1" : "cp %d", fake_material(pos));
    char line[256];
    emit(ctx, "info string fake engine searching");
    snprintf(line, sizeof line,
             "info depth 1 seldepth 1 multipv 1 score %s nodes 10 nps 1000 time 1 pv %s", score,
             best);
    emit(ctx, line);
    return 1;
}

/* The rest of a normal search after fake_search_start: the exact line, lines 2..multipv, a
 * bound line that must not win, bestmove. */
static void fake_search_finish(const pgn_pos *pos, int multipv, const char *score,
                               const char *best, fake_emit_fn emit, void *ctx) {
    char line[256];
    snprintf(line, sizeof line,
             "info depth 2 seldepth 3 multipv 1 score %s wdl 10 980 10 nodes 20 nps 2000 "
             "hashfull 0 tbhits 0 time 1 pv %s",
             score, best);
    emit(ctx, line);
    /* lines 2..multipv: moves from the end of the list, the best one skipped */
    pgn_movelist ml;
    pgn_pos_legal_moves(pos, &ml);
    int k = 2;
    for (uint32_t i = ml.count; i-- > 0 && k <= multipv;) {
        char other[PGN_UCI_MAX];
        pgn_uci_write(pos, ml.moves[i], other);
        if (strcmp(other, best) != 0) {
            snprintf(line, sizeof line, "info depth 2 multipv %d score cp %d nodes 20 pv %s", k,
                     -(7700 + k), other);
            emit(ctx, line);
            k++;
        }
    }
    snprintf(line, sizeof line, "info depth 3 currmove %s currmovenumber 1", best);
    emit(ctx, line);
    snprintf(line, sizeof line,
             "info depth 3 seldepth 3 multipv 1 score cp 4242 lowerbound nodes 30 pv %s", best);
    emit(ctx, line);
    snprintf(line, sizeof line, "bestmove %s", best);
    emit(ctx, line);
}

#endif
