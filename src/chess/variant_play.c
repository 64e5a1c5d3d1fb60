/* SPDX-License-Identifier: MIT */
/* Making moves in the variants (drops and pockets, explosions, king promotions, check counters),
 * the keys of variant state, and the variant endings and winners (insufficient material:
 * variant_material.c). */
#include "variants.h"

static void take_off(pgn_pos *p, unsigned sq) {
    unsigned piece = p->board[sq];
    uint64_t b = bits_sq(sq);
    p->board[sq] = 0;
    p->by_color[PGN_PIECE_COLOR(piece)] &= ~b;
    p->by_type[PGN_PIECE_TYPE(piece)] &= ~b;
    p->by_type[0] &= ~b;
    p->promoted &= ~b;
}

/* Atomic: the capturing piece on sq and every piece but pawns around it explode. */
static void explode(pgn_pos *p, unsigned sq) {
    uint64_t blast = (king_attacks[sq] & p->by_type[0] & ~p->by_type[PGN_PAWN]) | bits_sq(sq);
    p->castle &= ~blast;
    while (blast) {
        take_off(p, bits_pop(&blast));
    }
}

static void play_castle(pgn_pos *p, unsigned from, unsigned to, pgn_color us) {
    take_off(p, from);
    take_off(p, to);
    pgnk_chess_put_piece(p, PGN_PIECE(us, PGN_KING), pgnk_chess_castle_king_to(from, to));
    pgnk_chess_put_piece(p, PGN_PIECE(us, PGN_ROOK), pgnk_chess_castle_rook_to(from, to));
}

/* Captures the piece on cap_sq; in crazyhouse it goes to the capturer's pocket (a promoted
 * piece as a pawn). */
static void capture(pgn_pos *p, unsigned cap_sq, pgn_color us) {
    unsigned type = PGN_PIECE_TYPE(p->board[cap_sq]);
    if (p->variant == PGN_VARIANT_CRAZYHOUSE) {
        unsigned t = (p->promoted & bits_sq(cap_sq)) ? PGN_PAWN : type;
        if (t >= PGN_PAWN && t <= PGN_QUEEN && p->pocket[us][t] < 255) {
            p->pocket[us][t]++;
        }
    }
    take_off(p, cap_sq);
    p->halfmove = 0;
}

static void play_normal(pgn_pos *p, pgn_move mv, pgn_color us) {
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv), kind = PGN_MOVE_KIND(mv);
    unsigned piece = p->board[from];
    int is_capture = p->board[to] != 0 || kind == PGN_MOVE_EN_PASSANT;
    if (is_capture) {
        capture(p, kind == PGN_MOVE_EN_PASSANT ? (us == PGN_WHITE ? to - 8 : to + 8) : to, us);
    }
    uint64_t was_promoted = p->promoted & bits_sq(from);
    take_off(p, from);
    pgn_piece_type promo = PGN_MOVE_PROMOTED(mv);
    pgnk_chess_put_piece(p, promo ? PGN_PIECE(us, promo) : piece, to);
    if (p->variant == PGN_VARIANT_CRAZYHOUSE && (promo || was_promoted)) {
        p->promoted |= bits_sq(to);
    }
    if (PGN_PIECE_TYPE(piece) == PGN_PAWN) {
        p->halfmove = 0;
        unsigned rank = from >> 3;
        if ((from ^ to) == 16 && (rank == 1 || rank == 6)) {
            p->ep = (uint8_t)((from + to) / 2);
        }
    }
    if (is_capture && p->variant == PGN_VARIANT_ATOMIC) {
        explode(p, to);
    }
}

void pgnk_variant_play(pgn_pos *p, pgn_move mv, int keys) {
    pgn_color us = (pgn_color)p->side, them = (pgn_color)!us;
    p->ep = PGN_SQ_NONE;
    p->halfmove++;
    if (PGN_MOVE_IS_DROP(mv)) {
        pgn_piece_type t = PGN_MOVE_DROP_PIECE(mv);
        if (t >= PGN_PAWN && t <= PGN_QUEEN && p->pocket[us][t]) {
            p->pocket[us][t]--;
        }
        pgnk_chess_put_piece(p, PGN_PIECE(us, t), PGN_MOVE_TO(mv));
    } else {
        unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
        if (PGN_PIECE_TYPE(p->board[from]) == PGN_KING) {
            p->castle &= ~(us == PGN_WHITE ? BB_RANK_1 : BB_RANK_8);
        }
        p->castle &= ~(bits_sq(from) | bits_sq(to));
        if (PGN_MOVE_KIND(mv) == PGN_MOVE_CASTLE && !PGN_MOVE_IS_KING_PROMO(mv)) {
            play_castle(p, from, to, us);
        } else {
            play_normal(p, mv, us);
        }
    }
    if (us == PGN_BLACK) {
        p->fullmove++;
    }
    p->side = (uint8_t)them;
    if (p->variant == PGN_VARIANT_THREECHECK && p->checks[us] > 0 &&
        pgnk_variant_king_attacked(p, them)) {
        p->checks[us]--;
    }
    p->key = keys ? pgn_pos_compute_key(p) : 0;
}

/* ---- Keys of the variant state: Polyglot's random numbers rotated, so that a standard position
 * keeps its Polyglot key and the variant parts differ from every piece key. ---- */

static uint64_t rotl(uint64_t x, unsigned r) {
    return (x << r) | (x >> (64 - r));
}

uint64_t pgnk_variant_key(const pgn_pos *p) {
    uint64_t k = 0;
    for (unsigned c = 0; c < 2; c++) {
        for (unsigned t = PGN_PAWN; t <= PGN_QUEEN; t++) {
            unsigned n = p->pocket[c][t];
            if (n) {
                k ^= rotl(pgnk_chess_polyglot_random[(c * 5 + t - 1) * 32 + (n & 31)], 17);
            }
        }
        if (p->variant == PGN_VARIANT_THREECHECK) {
            k ^= rotl(pgnk_chess_polyglot_random[320 + c * 4 + (p->checks[c] & 3)], 29);
        }
    }
    for (uint64_t b = p->promoted; b;) {
        k ^= rotl(pgnk_chess_polyglot_random[400 + bits_pop(&b)], 41);
    }
    return k;
}

/* ---- Endings ---- */

pgn_outcome pgnk_variant_end_outcome(const pgn_pos *p) {
    if (!pgn_pos_is_variant_end(p)) {
        return PGN_OUTCOME_NONE;
    }
    switch ((pgn_variant)p->variant) {
    case PGN_VARIANT_ATOMIC: return PGN_OUTCOME_KING_EXPLODED;
    case PGN_VARIANT_KOTH: return PGN_OUTCOME_KING_OF_THE_HILL;
    case PGN_VARIANT_THREECHECK: return PGN_OUTCOME_THIRD_CHECK;
    case PGN_VARIANT_RACINGKINGS: {
        uint64_t k8 = p->by_type[PGN_KING] & BB_RANK_8;
        return bits_many(k8) ? PGN_OUTCOME_RACE_DRAWN : PGN_OUTCOME_RACE_WON;
    }
    default: return PGN_OUTCOME_NO_PIECES;
    }
}

/* The side with a king on the squares in mask, or -1. */
static int king_on(const pgn_pos *p, uint64_t mask) {
    if (pieces_of(p, PGN_WHITE, PGN_KING) & mask) {
        return PGN_WHITE;
    }
    return pieces_of(p, PGN_BLACK, PGN_KING) & mask ? PGN_BLACK : -1;
}

int pgn_outcome_winner(const pgn_pos *pos, pgn_outcome outcome) {
    switch (outcome) {
    case PGN_OUTCOME_CHECKMATE: return !pos->side;
    case PGN_OUTCOME_STALEMATE: return pos->variant == PGN_VARIANT_ANTICHESS ? pos->side : -1;
    case PGN_OUTCOME_KING_EXPLODED: return king_on(pos, BB_ALL);
    case PGN_OUTCOME_THIRD_CHECK: return pos->checks[PGN_WHITE] == 0 ? PGN_WHITE : PGN_BLACK;
    case PGN_OUTCOME_KING_OF_THE_HILL: return king_on(pos, UINT64_C(0x0000001818000000));
    case PGN_OUTCOME_RACE_WON: return king_on(pos, BB_RANK_8);
    case PGN_OUTCOME_NO_PIECES:
        if (pos->variant == PGN_VARIANT_ANTICHESS) {
            return pos->by_color[PGN_WHITE] ? PGN_BLACK : PGN_WHITE;
        }
        return pos->by_color[PGN_WHITE] ? PGN_WHITE : PGN_BLACK;
    default: return -1;
    }
}
