/* SPDX-License-Identifier: MIT */
/* Polyglot Zobrist hashing: the same keys as Polyglot opening books, python-chess and
 * pgn-extract -H, so hashes can be compared across tools. */
#include "variants.h"

#include "zobrist_keys.inc"

/* Castling keys by side of the king (h-side = "short"), which for standard positions are the
 * Polyglot K, Q, k, q keys. */
uint64_t pgnk_chess_castle_key(const pgn_pos *p) {
    uint64_t k = 0;
    if (!p->castle) {
        return 0;
    }
    for (unsigned c = 0; c < 2; c++) {
        uint64_t rooks = p->castle & (c == PGN_WHITE ? BB_RANK_1 : BB_RANK_8);
        uint64_t king =
            pieces_of(p, (pgn_color)c, PGN_KING) & (c == PGN_WHITE ? BB_RANK_1 : BB_RANK_8);
        if (!rooks || !king) {
            continue;
        }
        unsigned ksq = bits_ctz(king);
        if (rooks >> ksq > 1) {
            k ^= pgnk_chess_polyglot_random[KEY_CASTLE + 2 * c];
        }
        if (rooks & (bits_sq(ksq) - 1)) {
            k ^= pgnk_chess_polyglot_random[KEY_CASTLE + 2 * c + 1];
        }
    }
    return k;
}

uint64_t pgn_pos_compute_key(const pgn_pos *pos) {
    uint64_t k = 0;
    for (uint64_t occ = pos->by_type[0]; occ;) {
        unsigned sq = bits_pop(&occ);
        k ^= chess_piece_key(pos->board[sq], sq);
    }
    k ^= pgnk_chess_castle_key(pos) ^ chess_polyglot_ep_key(pos);
    if (pos->side == PGN_WHITE) {
        k ^= pgnk_chess_polyglot_random[KEY_TURN];
    }
    if (PGNK_UNLIKELY(pos->variant)) {
        k ^= pgnk_variant_key(pos);
    }
    return k;
}

uint64_t pgn_pos_identity_key(const pgn_pos *pos) {
    uint64_t k = pos->key;
    if (chess_polyglot_ep_key(pos) && !pgn_pos_has_legal_ep(pos)) {
        k ^= chess_polyglot_ep_key(pos);
    }
    return k;
}
