/* SPDX-License-Identifier: MIT */
/* SAN (PGN §8.2.3), internal: what the writer (san_write.c), the general reader (san_read.c) and
 * the fast path (san_fast.c) share. The reader generates only the candidate moves (that piece
 * type to that square), never every move as SAN. */
#ifndef PGNKIT_SAN_H
#define PGNKIT_SAN_H

#include "attacks.h"

static inline int is_file(char c) {
    return c >= 'a' && c <= 'h';
}
static inline int is_rank(char c) {
    return c >= '1' && c <= '8';
}

static inline int piece_from_letter(char c) {
    switch (c) {
    case 'P': return PGN_PAWN;
    case 'N': return PGN_KNIGHT;
    case 'B': return PGN_BISHOP;
    case 'R': return PGN_ROOK;
    case 'Q': return PGN_QUEEN;
    case 'K': return PGN_KING;
    default: return 0;
    }
}

/* Which origin coordinates canonical SAN needs for mv: bit 0 = file, bit 1 = rank. */
unsigned pgnk_san_needed_disambiguation(const pgn_pos *p, pgn_move mv);
/* '+', '#' or 0 for the position after mv. */
char pgnk_san_check_suffix(const pgn_pos *p, pgn_move mv);
/* A castling move of the side to move: by side (1 h-side, 2 a-side) or by king destination;
 * PGN_MOVE_NONE when there is none. */
pgn_move pgnk_san_find_castle(const pgn_pos *p, int side, int king_to);
/* pgn_san_parse without the fast path: null moves, castling, quirks, errors. */
pgn_status pgnk_san_general(const pgn_pos *pos, const char *san, size_t len, uint32_t flags,
                            pgn_san_result *out);

#endif
