/* SPDX-License-Identifier: MIT */
/* Attack generation for the chess core: leaper tables and hyperbola-quintessence sliders over
 * the generated const tables (tables.inc, defined in tables.c). Internal header. */
#ifndef PGNKIT_ATTACKS_H
#define PGNKIT_ATTACKS_H

#include "../base/bits.h"
#include "pgnkit/chess.h"

/* The tables of tables.inc (tools/gen_tables.c), defined once in tables.c: a static copy in each
 * file that looked at them put up to three copies of the 32 KiB between and line masks in the
 * cache at once (issue 32). The short names below are the ones the chess code reads. */
extern const uint64_t pgnk_knight_attacks[64], pgnk_king_attacks[64];
extern const uint64_t pgnk_pawn_attacks[2][64]; /* [colour][sq] */
extern const uint64_t pgnk_file_mask_ex[64], pgnk_diag_mask_ex[64], pgnk_anti_mask_ex[64];
extern const uint64_t pgnk_rook_ray_mask[64], pgnk_bishop_ray_mask[64];
extern const uint64_t pgnk_reach[8][64]; /* [piece type, 1 ^ colour for pawns][sq] */
extern const uint8_t pgnk_first_rank_attacks[8][64];
extern const uint8_t pgnk_fen_rank_layout[256][9];
extern const uint64_t pgnk_between_mask[64][64], pgnk_line_mask[64][64];
#define knight_attacks pgnk_knight_attacks
#define king_attacks pgnk_king_attacks
#define white_pawn_attacks pgnk_pawn_attacks[PGN_WHITE]
#define black_pawn_attacks pgnk_pawn_attacks[PGN_BLACK]
#define file_mask_ex pgnk_file_mask_ex
#define diag_mask_ex pgnk_diag_mask_ex
#define anti_mask_ex pgnk_anti_mask_ex
#define rook_ray_mask pgnk_rook_ray_mask
#define bishop_ray_mask pgnk_bishop_ray_mask
#define first_rank_attacks pgnk_first_rank_attacks
#define fen_rank_layout pgnk_fen_rank_layout
#define between_mask pgnk_between_mask
#define line_mask pgnk_line_mask

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define NOINLINE
#define ALWAYS_INLINE inline
#endif

static const uint64_t BB_RANK_1 = UINT64_C(0xff);
static const uint64_t BB_RANK_8 = UINT64_C(0xff00000000000000);
static const uint64_t BB_FILE_A = UINT64_C(0x0101010101010101);
static const uint64_t BB_FILE_H = UINT64_C(0x8080808080808080);
static const uint64_t BB_ALL = ~UINT64_C(0);

static inline uint64_t pawn_attacks(pgn_color c, unsigned sq) {
    return pgnk_pawn_attacks[c & 1u][sq];
}

/* Hyperbola quintessence along one line mask (which excludes sq). */
static inline uint64_t hq_line(uint64_t occ, uint64_t mask, unsigned sq) {
    uint64_t o = occ & mask;
    uint64_t r = bits_bswap(o);
    uint64_t b = bits_sq(sq);
    o -= b << 1;
    r -= bits_bswap(b) << 1;
    return (o ^ bits_bswap(r)) & mask;
}

static inline uint64_t rank_attacks(uint64_t occ, unsigned sq) {
    unsigned shift = sq & 56u;
    unsigned inner = (unsigned)((occ >> (shift + 1)) & 63u);
    return (uint64_t)first_rank_attacks[sq & 7u][inner] << shift;
}

static inline uint64_t bishop_attacks(unsigned sq, uint64_t occ) {
    return hq_line(occ, diag_mask_ex[sq], sq) | hq_line(occ, anti_mask_ex[sq], sq);
}

static inline uint64_t rook_attacks(unsigned sq, uint64_t occ) {
    return hq_line(occ, file_mask_ex[sq], sq) | rank_attacks(occ, sq);
}

static inline uint64_t queen_attacks(unsigned sq, uint64_t occ) {
    return bishop_attacks(sq, occ) | rook_attacks(sq, occ);
}

static inline uint64_t pieces_of(const pgn_pos *p, pgn_color c, pgn_piece_type t) {
    return p->by_color[c] & p->by_type[t];
}

/* Attackers of either colour on sq with occupancy occ. */
static inline uint64_t attackers_to(const pgn_pos *p, unsigned sq, uint64_t occ) {
    uint64_t rq = p->by_type[PGN_ROOK] | p->by_type[PGN_QUEEN];
    uint64_t bq = p->by_type[PGN_BISHOP] | p->by_type[PGN_QUEEN];
    return (white_pawn_attacks[sq] & pieces_of(p, PGN_BLACK, PGN_PAWN)) |
           (black_pawn_attacks[sq] & pieces_of(p, PGN_WHITE, PGN_PAWN)) |
           (knight_attacks[sq] & p->by_type[PGN_KNIGHT]) |
           (king_attacks[sq] & p->by_type[PGN_KING]) | (rook_attacks(sq, occ) & rq) |
           (bishop_attacks(sq, occ) & bq);
}

static inline unsigned king_square(const pgn_pos *p, pgn_color c) {
    return bits_ctz(pieces_of(p, c, PGN_KING));
}

/* Internal helpers shared by the chess modules (position.c, movegen.c, fen.c, san.c). */
uint64_t pgnk_chess_castle_key(const pgn_pos *p);

/* The Polyglot keys (zobrist_keys.inc, defined in zobrist.c); inline, as every move uses them. */
extern const uint64_t pgnk_chess_polyglot_random[781];
enum { KEY_CASTLE = 768, KEY_EP = 772, KEY_TURN = 780 };

static inline uint64_t chess_piece_key(unsigned piece, unsigned sq) {
    /* Polyglot kind: black pawn 0, white pawn 1, black knight 2, ... white king 11 */
    unsigned kind = 2 * (PGN_PIECE_TYPE(piece) - 1) + (PGN_PIECE_COLOR(piece) == PGN_WHITE);
    return pgnk_chess_polyglot_random[64 * kind + sq];
}

static inline uint64_t chess_side_key(void) {
    return pgnk_chess_polyglot_random[KEY_TURN];
}

/* The Polyglot rule: the en passant file counts only if a pawn of the side to move stands
 * beside the pawn that has just made the double step. */
static inline uint64_t chess_polyglot_ep_key(const pgn_pos *p) {
    if (p->ep == PGN_SQ_NONE) {
        return 0;
    }
    pgn_color us = (pgn_color)p->side;
    if (pawn_attacks((pgn_color)!us, p->ep) & pieces_of(p, us, PGN_PAWN)) {
        return pgnk_chess_polyglot_random[KEY_EP + (p->ep & 7u)];
    }
    return 0;
}
void pgnk_chess_put_piece(pgn_pos *p, unsigned piece, unsigned sq);
void pgnk_chess_clear(pgn_pos *p);
/* Whether the side to move has a legal move (king moves tried first). */
int pgnk_chess_has_legal_move(const pgn_pos *pos);
/* The destination squares of castling with the rook on rook_sq: king and rook. Inline: the
 * SAN fast path plays castling with them (two calls a castling were 3% of its cost, issue 32). */
static inline unsigned pgnk_chess_castle_king_to(unsigned king_sq, unsigned rook_sq) {
    return (king_sq & 56u) + (rook_sq > king_sq ? 6u : 2u);
}
static inline unsigned pgnk_chess_castle_rook_to(unsigned king_sq, unsigned rook_sq) {
    return (king_sq & 56u) + (rook_sq > king_sq ? 5u : 3u);
}

#endif
