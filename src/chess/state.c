/* SPDX-License-Identifier: MIT */
/* Game state: check, checkmate, stalemate, insufficient material, the 50- and 75-move rules and
 * threefold and fivefold repetition (FIDE Laws 5.2, 9.2, 9.3, 9.6). */
#include "variants.h"

#include <limits.h>

static const uint64_t BB_LIGHT = UINT64_C(0x55aa55aa55aa55aa);

/* No legal move: pgnk_chess_has_legal_move stops at the first one (a king's step first), where
 * counting them all would generate every move. */
int pgn_pos_is_checkmate(const pgn_pos *pos) {
    if (PGNK_UNLIKELY(pos->variant) && pgn_pos_is_variant_end(pos)) {
        return 0; /* the variant's own ending is asked first (issue 35) */
    }
    return pgn_pos_in_check(pos) && !pgnk_chess_has_legal_move(pos);
}

int pgn_pos_is_stalemate(const pgn_pos *pos) {
    if (PGNK_UNLIKELY(pos->variant) && pgn_pos_is_variant_end(pos)) {
        return 0; /* a won race, an exploded king: over by the variant's rule, not stalemate */
    }
    return !pgn_pos_in_check(pos) && !pgnk_chess_has_legal_move(pos);
}

int pgn_pos_insufficient_material_for(const pgn_pos *pos, pgn_color color) {
    if (PGNK_UNLIKELY(pos->variant)) {
        return pgnk_variant_insufficient(pos, color);
    }
    uint64_t us = pos->by_color[color], them = pos->by_color[!color];
    if (us & (pos->by_type[PGN_PAWN] | pos->by_type[PGN_ROOK] | pos->by_type[PGN_QUEEN])) {
        return 0;
    }
    uint64_t knights = us & pos->by_type[PGN_KNIGHT], bishops = us & pos->by_type[PGN_BISHOP];
    if (knights) {
        /* one knight mates only with help: a lone king or only a queen cannot be helped into it */
        return !bits_many(knights) && !bishops &&
               !(them & ~pos->by_type[PGN_KING] & ~pos->by_type[PGN_QUEEN]);
    }
    if (bishops) {
        uint64_t all_bishops = pos->by_type[PGN_BISHOP];
        int same_colour = !(all_bishops & BB_LIGHT) || !(all_bishops & ~BB_LIGHT);
        return same_colour && !(them & (pos->by_type[PGN_PAWN] | pos->by_type[PGN_KNIGHT]));
    }
    return 1;
}

int pgn_pos_is_insufficient_material(const pgn_pos *pos) {
    return pgn_pos_insufficient_material_for(pos, PGN_WHITE) &&
           pgn_pos_insufficient_material_for(pos, PGN_BLACK);
}

unsigned pgn_repetitions(const uint64_t *keys, size_t n, unsigned halfmove) {
    if (n == 0) {
        return 0;
    }
    unsigned count = 1;
    uint64_t k = keys[n - 1];
    size_t back = halfmove < n - 1 ? halfmove : n - 1;
    for (size_t d = 2; d <= back; d += 2) {
        count += keys[n - 1 - d] == k;
    }
    return count;
}

unsigned pgn_pos_repetition_window(const pgn_pos *pos) {
    return pos->variant == PGN_VARIANT_CRAZYHOUSE ? UINT_MAX : pos->halfmove;
}

pgn_outcome pgn_pos_outcome(const pgn_pos *pos, unsigned repetitions) {
    if (PGNK_UNLIKELY(pos->variant)) {
        pgn_outcome end = pgnk_variant_end_outcome(pos);
        if (end != PGN_OUTCOME_NONE) {
            return end;
        }
    }
    int no_moves = !pgnk_chess_has_legal_move(pos);
    if (no_moves) {
        return pgn_pos_in_check(pos) ? PGN_OUTCOME_CHECKMATE : PGN_OUTCOME_STALEMATE;
    }
    if (pgn_pos_is_insufficient_material(pos)) {
        return PGN_OUTCOME_INSUFFICIENT_MATERIAL;
    }
    /* crazyhouse has no 50- or 75-move rule (lichess, python-chess): material never leaves */
    int clock_rules = pos->variant != PGN_VARIANT_CRAZYHOUSE;
    if (clock_rules && pos->halfmove >= 150) {
        return PGN_OUTCOME_SEVENTYFIVE_MOVES;
    }
    if (repetitions >= 5) {
        return PGN_OUTCOME_FIVEFOLD_REPETITION;
    }
    if (clock_rules && pos->halfmove >= 100) {
        return PGN_OUTCOME_FIFTY_MOVES;
    }
    if (repetitions >= 3) {
        return PGN_OUTCOME_THREEFOLD_REPETITION;
    }
    return PGN_OUTCOME_NONE;
}

const char *pgn_outcome_name(pgn_outcome outcome) {
    switch (outcome) {
    case PGN_OUTCOME_NONE: return "none";
    case PGN_OUTCOME_CHECKMATE: return "checkmate";
    case PGN_OUTCOME_STALEMATE: return "stalemate";
    case PGN_OUTCOME_INSUFFICIENT_MATERIAL: return "insufficient material";
    case PGN_OUTCOME_SEVENTYFIVE_MOVES: return "seventy-five-move rule";
    case PGN_OUTCOME_FIVEFOLD_REPETITION: return "fivefold repetition";
    case PGN_OUTCOME_FIFTY_MOVES: return "fifty-move rule";
    case PGN_OUTCOME_THREEFOLD_REPETITION: return "threefold repetition";
    case PGN_OUTCOME_KING_EXPLODED: return "king exploded";
    case PGN_OUTCOME_THIRD_CHECK: return "third check";
    case PGN_OUTCOME_KING_OF_THE_HILL: return "king of the hill";
    case PGN_OUTCOME_NO_PIECES: return "no pieces left";
    case PGN_OUTCOME_RACE_WON: return "race won";
    case PGN_OUTCOME_RACE_DRAWN: return "race drawn";
    }
    return "unknown";
}
