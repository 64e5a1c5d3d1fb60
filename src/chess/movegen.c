/* SPDX-License-Identifier: MIT */
/* Legal move generation straight from checkers and pin masks: no make/unmake test, except for
 * en passant, whose discovered checks along the rank are tested on the board after the capture.
 * Castling is generated as king-takes-rook with the Chess960 rules, which include standard chess.
 */
#include "variants.h"

typedef struct gen {
    const pgn_pos *p;
    pgn_color us, them;
    unsigned ksq;
    uint64_t occ, own, enemy;
    uint64_t checkers, pinned;
    uint64_t target; /* destinations allowed for non-king moves (check evasion) */
    uint64_t from_mask, to_mask;
    pgn_movelist *out; /* NULL: only count */
    unsigned count;
} gen;

static inline void emit(gen *g, unsigned from, unsigned to, unsigned kind, unsigned promo) {
    if (g->out) {
        g->out->moves[g->count] = PGN_MOVE_MAKE(from, to, kind, promo);
    }
    g->count++;
}

static inline void emit_set(gen *g, unsigned from, uint64_t tos) {
    if (!g->out) {
        g->count += bits_popcount(tos);
        return;
    }
    while (tos) {
        emit(g, from, bits_pop(&tos), PGN_MOVE_NORMAL, 0);
    }
}

static uint64_t compute_pinned(const pgn_pos *p, pgn_color us, unsigned ksq, uint64_t occ) {
    pgn_color them = (pgn_color)!us;
    uint64_t rq = pieces_of(p, them, PGN_ROOK) | pieces_of(p, them, PGN_QUEEN);
    uint64_t bq = pieces_of(p, them, PGN_BISHOP) | pieces_of(p, them, PGN_QUEEN);
    uint64_t snipers = (rook_attacks(ksq, 0) & rq) | (bishop_attacks(ksq, 0) & bq);
    uint64_t pinned = 0;
    while (snipers) {
        unsigned s = bits_pop(&snipers);
        uint64_t b = between_mask[ksq][s] & occ;
        if (b && !bits_many(b)) {
            pinned |= b & p->by_color[us];
        }
    }
    return pinned;
}

static void gen_king(gen *g) {
    uint64_t tos = king_attacks[g->ksq] & ~g->own & g->to_mask;
    if (!(g->from_mask & bits_sq(g->ksq))) {
        return;
    }
    uint64_t occ = g->occ ^ bits_sq(g->ksq);
    while (tos) {
        unsigned to = bits_pop(&tos);
        if (!(attackers_to(g->p, to, occ) & g->enemy)) {
            emit(g, g->ksq, to, PGN_MOVE_NORMAL, 0);
        }
    }
}

static void gen_castles(gen *g) {
    const pgn_pos *p = g->p;
    uint64_t rooks = p->castle & g->own & pieces_of(p, g->us, PGN_ROOK) & g->to_mask;
    if (!rooks || !(g->from_mask & bits_sq(g->ksq))) {
        return;
    }
    while (rooks) {
        unsigned rsq = bits_pop(&rooks);
        unsigned kto = pgnk_chess_castle_king_to(g->ksq, rsq),
                 rto = pgnk_chess_castle_rook_to(g->ksq, rsq);
        uint64_t movers = bits_sq(g->ksq) | bits_sq(rsq);
        uint64_t path =
            between_mask[g->ksq][kto] | bits_sq(kto) | between_mask[rsq][rto] | bits_sq(rto);
        if (path & g->occ & ~movers) {
            continue;
        }
        uint64_t occ = g->occ ^ movers;
        uint64_t kpath = between_mask[g->ksq][kto] | bits_sq(kto);
        int ok = 1;
        while (kpath && ok) {
            unsigned s = bits_pop(&kpath);
            ok = !(attackers_to(p, s, occ) & g->enemy);
        }
        if (ok) {
            emit(g, g->ksq, rsq, PGN_MOVE_CASTLE, 0);
        }
    }
}

static void emit_pawn(gen *g, unsigned from, unsigned to) {
    if ((bits_sq(to) & (BB_RANK_1 | BB_RANK_8)) == 0) {
        emit(g, from, to, PGN_MOVE_NORMAL, 0);
        return;
    }
    if (!g->out) {
        g->count += 4;
        return;
    }
    for (unsigned t = PGN_QUEEN; t >= PGN_KNIGHT; t--) {
        emit(g, from, to, PGN_MOVE_PROMOTION, t);
    }
}

/* Pawn moves of the pawns in `pawns` towards `allowed` destinations. */
static void gen_pawns_from(gen *g, uint64_t pawns, uint64_t allowed) {
    const uint64_t rank3 = g->us == PGN_WHITE ? UINT64_C(0xff0000) : UINT64_C(0xff0000000000);
    int up = g->us == PGN_WHITE ? 8 : -8;
    uint64_t empty = ~g->occ;
    uint64_t one = g->us == PGN_WHITE ? (pawns << 8) & empty : (pawns >> 8) & empty;
    uint64_t two = g->us == PGN_WHITE ? ((one & rank3) << 8) & empty : ((one & rank3) >> 8) & empty;
    one &= allowed;
    two &= allowed;
    while (one) {
        unsigned to = bits_pop(&one);
        emit_pawn(g, (unsigned)((int)to - up), to);
    }
    while (two) {
        unsigned to = bits_pop(&two);
        emit(g, (unsigned)((int)to - 2 * up), to, PGN_MOVE_NORMAL, 0);
    }
    uint64_t capl, capr;
    if (g->us == PGN_WHITE) {
        capl = ((pawns & ~BB_FILE_A) << 7) & g->enemy & allowed;
        capr = ((pawns & ~BB_FILE_H) << 9) & g->enemy & allowed;
    } else {
        capl = ((pawns & ~BB_FILE_A) >> 9) & g->enemy & allowed;
        capr = ((pawns & ~BB_FILE_H) >> 7) & g->enemy & allowed;
    }
    int dl = g->us == PGN_WHITE ? 7 : -9, dr = g->us == PGN_WHITE ? 9 : -7;
    while (capl) {
        unsigned to = bits_pop(&capl);
        emit_pawn(g, (unsigned)((int)to - dl), to);
    }
    while (capr) {
        unsigned to = bits_pop(&capr);
        emit_pawn(g, (unsigned)((int)to - dr), to);
    }
}

static void gen_en_passant(gen *g) {
    const pgn_pos *p = g->p;
    unsigned ep = p->ep;
    if (ep == PGN_SQ_NONE || !(g->to_mask & bits_sq(ep))) {
        return;
    }
    unsigned cap = g->us == PGN_WHITE ? ep - 8 : ep + 8;
    uint64_t pawns = pawn_attacks(g->them, ep) & pieces_of(p, g->us, PGN_PAWN) & g->from_mask;
    if (p->board[cap] != PGN_PIECE(g->them, PGN_PAWN) || p->board[ep]) {
        return;
    }
    while (pawns) {
        unsigned from = bits_pop(&pawns);
        uint64_t occ = (g->occ ^ bits_sq(from) ^ bits_sq(cap)) | bits_sq(ep);
        uint64_t att = attackers_to(p, g->ksq, occ) & g->enemy & ~bits_sq(cap);
        if (!att) {
            emit(g, from, ep, PGN_MOVE_EN_PASSANT, 0);
        }
    }
}

/* The moves of the sliders moving like `type` (PGN_BISHOP or PGN_ROOK; queens both ways); a pinned
 * one only along its pin line. Inline, so each call keeps its one attack function. */
static inline void gen_sliders(gen *g, pgn_piece_type type) {
    uint64_t set =
        (pieces_of(g->p, g->us, type) | pieces_of(g->p, g->us, PGN_QUEEN)) & g->from_mask;
    while (set) {
        unsigned from = bits_pop(&set);
        uint64_t t =
            (type == PGN_BISHOP ? bishop_attacks(from, g->occ) : rook_attacks(from, g->occ)) &
            g->target;
        if (g->pinned & bits_sq(from)) {
            t &= line_mask[g->ksq][from];
        }
        emit_set(g, from, t);
    }
}

static void gen_pieces(gen *g) {
    const pgn_pos *p = g->p;
    uint64_t free_pawns = pieces_of(p, g->us, PGN_PAWN) & ~g->pinned & g->from_mask;
    gen_pawns_from(g, free_pawns, g->target);
    uint64_t pinned_pawns = pieces_of(p, g->us, PGN_PAWN) & g->pinned & g->from_mask;
    while (pinned_pawns) {
        unsigned from = bits_pop(&pinned_pawns);
        gen_pawns_from(g, bits_sq(from), g->target & line_mask[g->ksq][from]);
    }
    gen_en_passant(g);
    uint64_t knights = pieces_of(p, g->us, PGN_KNIGHT) & ~g->pinned & g->from_mask;
    while (knights) {
        unsigned from = bits_pop(&knights);
        emit_set(g, from, knight_attacks[from] & g->target);
    }
    gen_sliders(g, PGN_BISHOP);
    gen_sliders(g, PGN_ROOK);
}

static inline unsigned generate_std(const pgn_pos *p, uint64_t from_mask, uint64_t to_mask,
                                    pgn_movelist *out) {
    gen g;
    g.p = p;
    g.us = (pgn_color)p->side;
    g.them = (pgn_color)!g.us;
    g.ksq = king_square(p, g.us);
    g.occ = p->by_type[0];
    g.own = p->by_color[g.us];
    g.enemy = p->by_color[g.them];
    g.checkers = attackers_to(p, g.ksq, g.occ) & g.enemy;
    g.pinned = compute_pinned(p, g.us, g.ksq, g.occ);
    g.from_mask = from_mask;
    g.to_mask = to_mask;
    g.out = out;
    g.count = 0;
    gen_king(&g);
    if (!bits_many(g.checkers)) {
        g.target = ~g.own & to_mask;
        if (g.checkers) {
            unsigned c = bits_ctz(g.checkers);
            g.target &= between_mask[g.ksq][c] | g.checkers;
        } else {
            gen_castles(&g);
        }
        gen_pieces(&g);
    }
    if (out) {
        out->count = g.count;
    }
    return g.count;
}

unsigned pgnk_chess_generate_std(const pgn_pos *p, uint64_t from_mask, uint64_t to_mask,
                                 pgn_movelist *out) {
    return generate_std(p, from_mask, to_mask, out);
}

/* The one branch of every generation on the variant (or a missing king): standard chess keeps
 * its own code. */
static inline unsigned generate(const pgn_pos *p, uint64_t from_mask, uint64_t to_mask,
                                pgn_movelist *out) {
    if (PGNK_UNLIKELY(pgnk_pos_general(p))) {
        return pgnk_variant_generate(p, from_mask, to_mask, out);
    }
    return generate_std(p, from_mask, to_mask, out);
}

void pgn_pos_legal_moves(const pgn_pos *pos, pgn_movelist *out) {
    generate(pos, BB_ALL, BB_ALL, out);
}

void pgn_pos_legal_moves_masked(const pgn_pos *pos, uint64_t from_mask, uint64_t to_mask,
                                pgn_movelist *out) {
    generate(pos, from_mask, to_mask, out);
}

unsigned pgn_pos_count_legal(const pgn_pos *pos) {
    return generate(pos, BB_ALL, BB_ALL, NULL);
}

int pgnk_chess_has_legal_move(const pgn_pos *pos) {
    /* after a check the king can most often step away: its first safe square settles it, with
     * no pins or other pieces looked at; otherwise (mate, stalemate, a lone castling) all moves */
    if (PGNK_UNLIKELY(pgnk_pos_general(pos))) {
        return pgnk_variant_generate(pos, BB_ALL, BB_ALL, NULL) > 0;
    }
    pgn_color us = (pgn_color)pos->side;
    unsigned ksq = king_square(pos, us);
    uint64_t occ = pos->by_type[0] ^ bits_sq(ksq), enemy = pos->by_color[!us];
    uint64_t tos = king_attacks[ksq] & ~pos->by_color[us];
    while (tos) {
        if (!(attackers_to(pos, bits_pop(&tos), occ) & enemy)) {
            return 1;
        }
    }
    return generate(pos, BB_ALL, BB_ALL, NULL) > 0;
}

int pgn_pos_is_legal(const pgn_pos *pos, pgn_move mv) {
    if (mv == PGN_MOVE_NONE || mv == PGN_MOVE_NULL) {
        return 0;
    }
    pgn_movelist l;
    generate(pos, bits_sq(PGN_MOVE_FROM(mv)), bits_sq(PGN_MOVE_TO(mv)), &l);
    for (unsigned i = 0; i < l.count; i++) {
        if (l.moves[i] == mv) {
            return 1;
        }
    }
    return 0;
}

int pgn_pos_has_legal_ep(const pgn_pos *pos) {
    if (pos->ep == PGN_SQ_NONE) {
        return 0;
    }
    if (!(pawn_attacks((pgn_color)!pos->side, pos->ep) &
          pieces_of(pos, (pgn_color)pos->side, PGN_PAWN))) {
        return 0;
    }
    pgn_movelist l;
    generate(pos, BB_ALL, bits_sq(pos->ep), &l);
    for (unsigned i = 0; i < l.count; i++) {
        if (PGN_MOVE_KIND(l.moves[i]) == PGN_MOVE_EN_PASSANT && !PGN_MOVE_IS_DROP(l.moves[i])) {
            return 1;
        }
    }
    return 0;
}

/* Perft's two steps under the rules chosen once, at the root (general: pgnk_pos_general of the
 * root, which holds for every position below it): standard chess keeps its own generator and
 * make-move, a variant or kingless root takes the general ones. */
static inline unsigned perft_moves(const pgn_pos *p, int general, pgn_movelist *l) {
    return general ? pgnk_variant_generate(p, BB_ALL, BB_ALL, l)
                   : generate_std(p, BB_ALL, BB_ALL, l);
}

static inline void perft_play(pgn_pos *p, int general, pgn_move mv) {
    if (general) {
        pgnk_variant_play(p, mv, 0); /* no keys: perft never looks at them */
    } else {
        pgnk_chess_play_std(p, mv);
    }
}

static uint64_t perft_rec(const pgn_pos *p, unsigned depth, int bulk, int general) {
    if (depth == 0) {
        return 1;
    }
    if (bulk && depth == 1) {
        return perft_moves(p, general, NULL);
    }
    pgn_movelist l;
    perft_moves(p, general, &l);
    if (depth == 1) {
        return l.count;
    }
    uint64_t n = 0;
    for (unsigned i = 0; i < l.count; i++) {
        pgn_pos q = *p;
        perft_play(&q, general, l.moves[i]);
        n += perft_rec(&q, depth - 1, bulk, general);
    }
    return n;
}

/* Without bulk counting every leaf is played, which is what the benchmark compares. */
static uint64_t perft_played(const pgn_pos *p, unsigned depth) {
    pgn_movelist l;
    generate_std(p, BB_ALL, BB_ALL, &l);
    uint64_t n = 0;
    for (unsigned i = 0; i < l.count; i++) {
        pgn_pos q = *p;
        pgnk_chess_play_std(&q, l.moves[i]);
        n += depth == 1 ? 1 : perft_played(&q, depth - 1);
    }
    return n;
}

uint64_t pgn_perft(const pgn_pos *pos, unsigned depth, int bulk) {
    int general = pgnk_pos_general(pos);
    if (!general && !bulk && depth > 0) {
        return perft_played(pos, depth);
    }
    /* a constant at each call, which the compiler specialises (cachegrind: 2% fewer instructions in
     * standard perft than one call passing the variable) */
    return general ? perft_rec(pos, depth, bulk, 1) : perft_rec(pos, depth, bulk, 0);
}
