/* SPDX-License-Identifier: MIT */
/* Variant rules (stubs for the API commit). */
#include "variants.h"

unsigned pgnk_variant_generate(const pgn_pos *p, uint64_t from_mask, uint64_t to_mask,
                               pgn_movelist *out) {
    (void)p;
    (void)from_mask;
    (void)to_mask;
    if (out) {
        out->count = 0;
    }
    return 0;
}

void pgnk_variant_play(pgn_pos *p, pgn_move mv, int keys) {
    (void)p;
    (void)mv;
    (void)keys;
}

uint64_t pgnk_variant_checkers(const pgn_pos *p) {
    (void)p;
    return 0;
}

uint64_t pgnk_variant_key(const pgn_pos *p) {
    (void)p;
    return 0;
}

int pgnk_variant_insufficient(const pgn_pos *p, pgn_color color) {
    (void)p;
    (void)color;
    return 0;
}

int pgn_pos_is_variant_end(const pgn_pos *pos) {
    (void)pos;
    return 0;
}

int pgn_outcome_winner(const pgn_pos *pos, pgn_outcome outcome) {
    if (outcome == PGN_OUTCOME_CHECKMATE) {
        return !pos->side;
    }
    return -1;
}

pgn_status pgn_fen_parse_variant(pgn_pos *out, pgn_variant v, const char *fen, size_t len,
                                 uint32_t flags, pgn_fen_diag *diag) {
    pgn_pos p;
    pgn_status st = pgn_fen_parse(&p, fen, len, flags, diag);
    if (st == PGN_OK) {
        p.variant = (uint8_t)v;
        if (v == PGN_VARIANT_THREECHECK) {
            p.checks[0] = p.checks[1] = 3;
        }
        *out = p;
    }
    return st;
}
