/* SPDX-License-Identifier: MIT */
/* Position basics: setting up, making moves (castling as king-takes-rook, so standard chess
 * and Chess960 share one code path), attackers and incremental Polyglot keys. */
#include "variants.h"

#include <string.h>

void pgnk_chess_clear(pgn_pos *p) {
    memset(p, 0, sizeof *p);
    p->ep = PGN_SQ_NONE;
    p->fullmove = 1;
}

void pgnk_chess_put_piece(pgn_pos *p, unsigned piece, unsigned sq) {
    uint64_t b = bits_sq(sq);
    p->board[sq] = (uint8_t)piece;
    p->by_color[PGN_PIECE_COLOR(piece)] |= b;
    p->by_type[PGN_PIECE_TYPE(piece)] |= b;
    p->by_type[0] |= b;
}

/* keys: also update the Zobrist key (a constant in every caller, so each play is specialised) */
static inline void remove_piece(pgn_pos *p, unsigned sq, int keys) {
    unsigned piece = p->board[sq];
    uint64_t b = bits_sq(sq);
    p->board[sq] = 0;
    p->by_color[PGN_PIECE_COLOR(piece)] ^= b;
    p->by_type[PGN_PIECE_TYPE(piece)] ^= b;
    p->by_type[0] ^= b;
    if (keys) {
        p->key ^= chess_piece_key(piece, sq);
    }
}

static inline void add_piece(pgn_pos *p, unsigned piece, unsigned sq, int keys) {
    pgnk_chess_put_piece(p, piece, sq);
    if (keys) {
        p->key ^= chess_piece_key(piece, sq);
    }
}

void pgn_pos_init(pgn_pos *pos) {
    static const uint8_t back[8] = {PGN_ROOK, PGN_KNIGHT, PGN_BISHOP, PGN_QUEEN,
                                    PGN_KING, PGN_BISHOP, PGN_KNIGHT, PGN_ROOK};
    pgnk_chess_clear(pos);
    for (unsigned f = 0; f < 8; f++) {
        pgnk_chess_put_piece(pos, PGN_PIECE(PGN_WHITE, back[f]), f);
        pgnk_chess_put_piece(pos, PGN_PIECE(PGN_WHITE, PGN_PAWN), 8 + f);
        pgnk_chess_put_piece(pos, PGN_PIECE(PGN_BLACK, PGN_PAWN), 48 + f);
        pgnk_chess_put_piece(pos, PGN_PIECE(PGN_BLACK, back[f]), 56 + f);
    }
    pos->castle = bits_sq(0) | bits_sq(7) | bits_sq(56) | bits_sq(63);
    pos->key = UINT64_C(0x463b96181691fc9c); /* the Polyglot key of the start position (its doc) */
}

int pgn_pos_is_standard_start(const pgn_pos *pos) {
    pgn_pos s;
    pgn_pos_init(&s);
    static const uint8_t empty[2][6] = {{0}};
    if (PGNK_UNLIKELY(pos->variant) &&
        (pos->promoted || memcmp(pos->pocket, empty, sizeof empty) != 0 ||
         (pos->variant == PGN_VARIANT_THREECHECK &&
          (pos->checks[0] != 3 || pos->checks[1] != 3)))) {
        return 0;
    }
    return pos->side == s.side && pos->castle == s.castle && pos->ep == s.ep &&
           pos->halfmove == s.halfmove && pos->fullmove == s.fullmove &&
           memcmp(pos->board, s.board, sizeof s.board) == 0;
}

uint64_t pgn_pos_attackers(const pgn_pos *pos, pgn_square sq, pgn_color by) {
    return attackers_to(pos, sq, pos->by_type[0]) & pos->by_color[by];
}

uint64_t pgn_pos_checkers(const pgn_pos *pos) {
    if (PGNK_UNLIKELY(pgnk_pos_general(pos))) { /* also a side without a king: never in check */
        return pgnk_variant_checkers(pos);
    }
    pgn_color us = (pgn_color)pos->side;
    return pgn_pos_attackers(pos, (pgn_square)king_square(pos, us), (pgn_color)!us);
}

int pgn_pos_in_check(const pgn_pos *pos) {
    return pgn_pos_checkers(pos) != 0;
}

int pgn_move_is_capture(const pgn_pos *pos, pgn_move mv) {
    unsigned kind = PGN_MOVE_KIND(mv);
    if (PGNK_UNLIKELY(PGN_MOVE_IS_DROP(mv))) {
        return 0;
    }
    if (mv == PGN_MOVE_NULL || kind == PGN_MOVE_CASTLE) {
        return PGN_MOVE_IS_KING_PROMO(mv) && pos->board[PGN_MOVE_TO(mv)] != 0;
    }
    return kind == PGN_MOVE_EN_PASSANT || pos->board[PGN_MOVE_TO(mv)] != 0;
}

static inline void play_castle(pgn_pos *p, unsigned from, unsigned to, pgn_color us, int keys) {
    unsigned king = PGN_PIECE(us, PGN_KING), rook = PGN_PIECE(us, PGN_ROOK);
    remove_piece(p, from, keys);
    remove_piece(p, to, keys);
    add_piece(p, king, pgnk_chess_castle_king_to(from, to), keys);
    add_piece(p, rook, pgnk_chess_castle_rook_to(from, to), keys);
}

/* The castling key before mv, when mv may change the rights: a rook with rights moves or is
 * taken, or a king with rights moves; only then is the old key worth computing (0 otherwise). */
static inline uint64_t castle_key_before(const pgn_pos *pos, pgn_move mv, pgn_color us) {
    uint64_t touched = bits_sq(PGN_MOVE_FROM(mv)) | bits_sq(PGN_MOVE_TO(mv));
    if (PGN_PIECE_TYPE(pos->board[PGN_MOVE_FROM(mv)]) == PGN_KING) {
        touched |= us == PGN_WHITE ? BB_RANK_1 : BB_RANK_8;
    }
    return pos->castle & touched ? pgnk_chess_castle_key(pos) : 0;
}

/* The common move without keys (no castling, promotion or en passant): both squares' bitboards
 * in one pass. */
static inline void play_plain(pgn_pos *pos, unsigned from, unsigned to, unsigned piece,
                              pgn_color us) {
    uint64_t f = bits_sq(from), t = bits_sq(to);
    unsigned victim = pos->board[to];
    if (victim) {
        pos->by_color[!us] ^= t;
        pos->by_type[PGN_PIECE_TYPE(victim)] ^= t;
        pos->by_type[0] ^= t;
        pos->halfmove = 0;
    }
    pos->by_color[us] ^= f | t;
    pos->by_type[PGN_PIECE_TYPE(piece)] ^= f | t;
    pos->by_type[0] ^= f | t;
    pos->board[from] = 0;
    pos->board[to] = (uint8_t)piece;
    if (PGN_PIECE_TYPE(piece) == PGN_PAWN) {
        pos->halfmove = 0;
        if ((from ^ to) == 16) {
            pos->ep = (uint8_t)((from + to) / 2);
        }
    }
}

/* Any move but castling, square by square (with keys, or a promotion or en passant). */
static inline void play_squares(pgn_pos *pos, pgn_move mv, unsigned piece, pgn_color us, int keys) {
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv), kind = PGN_MOVE_KIND(mv);
    if (pos->board[to]) {
        remove_piece(pos, to, keys);
        pos->halfmove = 0;
    }
    remove_piece(pos, from, keys);
    if (PGN_PIECE_TYPE(piece) == PGN_PAWN) {
        pos->halfmove = 0;
        if (kind == PGN_MOVE_EN_PASSANT) {
            remove_piece(pos, us == PGN_WHITE ? to - 8 : to + 8, keys);
        } else if (kind == PGN_MOVE_PROMOTION) {
            piece = PGN_PIECE(us, PGN_MOVE_PROMO(mv));
        } else if ((from ^ to) == 16) {
            pos->ep = (uint8_t)((from + to) / 2);
        }
    }
    add_piece(pos, piece, to, keys);
}

/* The pieces of a move that is not null; the castling rights it takes away. */
static inline void play_pieces(pgn_pos *pos, pgn_move mv, pgn_color us, int keys) {
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv), kind = PGN_MOVE_KIND(mv);
    unsigned piece = pos->board[from];
    pos->castle &= ~(bits_sq(from) | bits_sq(to));
    if (PGN_PIECE_TYPE(piece) == PGN_KING) {
        pos->castle &= ~(us == PGN_WHITE ? BB_RANK_1 : BB_RANK_8);
    }
    if (kind == PGN_MOVE_CASTLE) {
        play_castle(pos, from, to, us, keys);
    } else if (!keys && kind == PGN_MOVE_NORMAL) {
        play_plain(pos, from, to, piece, us);
    } else {
        play_squares(pos, mv, piece, us, keys);
    }
}

/* The hot make-move: keys is a constant at each caller, so each copy drops the key work or not. */
static inline void play_std(pgn_pos *pos, pgn_move mv, int keys) {
    pgn_color us = (pgn_color)pos->side, them = (pgn_color)!us;
    uint64_t castle = pos->castle;
    uint64_t old_castle_key = 0;
    if (keys && castle && mv != PGN_MOVE_NULL) {
        old_castle_key = castle_key_before(pos, mv, us);
    }
    if (keys) {
        pos->key ^= chess_polyglot_ep_key(pos);
    }
    pos->ep = PGN_SQ_NONE;
    pos->halfmove++;
    if (mv != PGN_MOVE_NULL) {
        play_pieces(pos, mv, us, keys);
    }
    if (us == PGN_BLACK) {
        pos->fullmove++;
    }
    pos->side = (uint8_t)them;
    if (!keys) {
        return;
    }
    pos->key ^= chess_side_key() ^ chess_polyglot_ep_key(pos);
    if (castle != pos->castle) {
        pos->key ^= old_castle_key ^ pgnk_chess_castle_key(pos);
    }
}

/* The one branch of every move on the variant: standard chess keeps its own code. */
static inline void play(pgn_pos *pos, pgn_move mv, int keys) {
    if (PGNK_UNLIKELY(pos->variant) && mv != PGN_MOVE_NULL) {
        pgnk_variant_play(pos, mv, keys);
        return;
    }
    play_std(pos, mv, keys);
}

void pgn_pos_play(pgn_pos *pos, pgn_move mv) {
    play(pos, mv, 1);
}

void pgnk_chess_play_std(pgn_pos *pos, pgn_move mv) {
    play_std(pos, mv, 1);
}

/* The common move of standard chess without keys (no castling, promotion, en passant or null
 * move), in one pass: what play_std does for it, with fewer values live. */
static inline void play_plain_unkeyed(pgn_pos *pos, pgn_move mv) {
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    pgn_color us = (pgn_color)pos->side;
    unsigned piece = pos->board[from];
    if (pos->castle) {
        pos->castle &= ~(bits_sq(from) | bits_sq(to));
        if (PGN_PIECE_TYPE(piece) == PGN_KING) {
            pos->castle &= ~(us == PGN_WHITE ? BB_RANK_1 : BB_RANK_8);
        }
    }
    pos->ep = PGN_SQ_NONE;
    pos->halfmove++;
    play_plain(pos, from, to, piece, us);
    pos->fullmove += (uint32_t)us; /* after Black's move */
    pos->side = (uint8_t)!us;
    pos->key = 0;
}

/* Every other move; out of line, so that the common one saves no registers. */
static NOINLINE void play_unkeyed_other(pgn_pos *pos, pgn_move mv) {
    play(pos, mv, 0);
    pos->key = 0;
}

void pgn_pos_play_unkeyed(pgn_pos *pos, pgn_move mv) {
    if ((mv >> 12) == 0 && mv != PGN_MOVE_NULL && !pos->variant) {
        play_plain_unkeyed(pos, mv); /* kind normal, and no drop (bits 12-15 are zero) */
        return;
    }
    play_unkeyed_other(pos, mv);
}
