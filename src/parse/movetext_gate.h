/* SPDX-License-Identifier: MIT */
/* The move gate (PGN_READ_MOVE_GATE): which moves the fast path may play without telling the
 * visitor (movetext.c). Internal header. */
#ifndef PGNKIT_MOVETEXT_GATE_H
#define PGNKIT_MOVETEXT_GATE_H

#include "pgnkit/reader.h"

#include "../base/bits.h"

/* 1 if the watched pawns of pos are the gate's (a pawn move or a capture may pass). */
static inline int gate_pawns(const pgn_move_gate *g, const pgn_pos *pos) {
    uint64_t p = pos->by_type[PGN_PAWN];
    return g->pawns_open && !(((p & pos->by_color[PGN_WHITE]) ^ g->pawns[0]) & g->watch[0]) &&
           !(((p & pos->by_color[PGN_BLACK]) ^ g->pawns[1]) & g->watch[1]);
}

/* 1 if a pawn the gate's absent names is missing from pos. */
static inline int gate_absent(const pgn_move_gate *g, const pgn_pos *pos) {
    uint64_t p = pos->by_type[PGN_PAWN];
    return g->absent_open && ((g->absent[0] & ~(p & pos->by_color[PGN_WHITE])) |
                              (g->absent[1] & ~(p & pos->by_color[PGN_BLACK])));
}

/* 1 if each colour of pos has the gate's least count of pawns and a pawn on each of its alive
 * sets (a pawn move or a capture may pass). */
static inline int gate_alive(const pgn_move_gate *g, const pgn_pos *pos) {
    if (!g->alive_open) {
        return 0;
    }
    for (int c = 0; c < 2; c++) {
        uint64_t p = pos->by_type[PGN_PAWN] & pos->by_color[c];
        if (g->min_pawns[c] && bits_popcount(p) < g->min_pawns[c]) {
            return 0;
        }
        for (unsigned k = 0; k < g->nalive[c]; k++) {
            if (!(p & g->alive[c][k])) {
                return 0;
            }
        }
    }
    return 1;
}

/* 1 if the gate (PGN_READ_MOVE_GATE) lets mv, just played to pos, pass without a callback: then
 * counted in it. mv comes from pgnk_san_play, which plays no null move and standard chess only
 * (pgnk_pos_general), so neither is tested here. The alive sets, where open, say all the watched
 * pawns can say. */
static inline int gate_pass(pgn_move_gate *g, const pgn_pos *pos, pgn_move mv) {
    if (g->open && PGN_MOVE_KIND(mv) < PGN_MOVE_EN_PASSANT &&
        (!(g->squares & (bits_sq(PGN_MOVE_FROM(mv)) | bits_sq(PGN_MOVE_TO(mv)))) ||
         gate_absent(g, pos)) &&
        (pos->halfmove != 0 || (g->alive_open ? gate_alive(g, pos) : gate_pawns(g, pos)))) {
        g->passed++;
        return 1;
    }
    return 0;
}

#endif
