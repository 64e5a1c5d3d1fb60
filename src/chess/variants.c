/* SPDX-License-Identifier: MIT */
/* Legal moves of the lichess variants (lichess's rules pages; python-chess's behaviour where they
 * are silent). Crazyhouse, three-check, king of the hill, racing kings and Black in horde keep
 * standard king safety, so they take the standard generator and add to it (drops) or filter it
 * (no check given in racing kings). Atomic, antichess and White in horde (no king) generate
 * pseudo-legal moves here and test each on a copy of the position; a side without a king in
 * standard chess (a set-up position, pgn_pos.kingless) moves as horde's White does. No
 * allocation: lists live on the stack. */
#include "variants.h"

static const uint64_t BB_CENTER = UINT64_C(0x0000001818000000);

static inline pgn_move mk(unsigned from, unsigned to, unsigned kind) {
    return (pgn_move)(from | (to << 6) | (kind << 12));
}

static inline void push(pgn_movelist *l, pgn_move m) {
    if (l->count < sizeof l->moves / sizeof l->moves[0]) {
        l->moves[l->count++] = m;
    }
}

/* ---- Pseudo-legal moves (atomic, antichess, horde's White, a standard side without a king) ----
 */

typedef struct vgen {
    const pgn_pos *p;
    pgn_color us, them;
    uint64_t occ, own, enemy, from_mask, to_mask;
    pgn_movelist *l;
} vgen;

static void push_pawn(vgen *g, unsigned from, unsigned to, unsigned kind) {
    if (!(g->to_mask & bits_sq(to))) {
        return;
    }
    if (!(bits_sq(to) & (BB_RANK_1 | BB_RANK_8))) {
        push(g->l, mk(from, to, kind));
        return;
    }
    for (unsigned t = PGN_QUEEN; t >= PGN_KNIGHT; t--) {
        push(g->l, PGN_MOVE_MAKE(from, to, PGN_MOVE_PROMOTION, t));
    }
    if (g->p->variant == PGN_VARIANT_ANTICHESS) {
        push(g->l, PGN_MOVE_MAKE_KING_PROMO(from, to));
    }
}

/* Whether a pawn of g->us on from may step two squares (horde: also from the first rank). */
static int double_step_rank(const vgen *g, unsigned from) {
    unsigned rank = from >> 3;
    if (g->us == PGN_WHITE) {
        return rank == 1 || (rank == 0 && g->p->variant == PGN_VARIANT_HORDE);
    }
    return rank == 6;
}

static void pseudo_ep(vgen *g, unsigned from) {
    unsigned ep = g->p->ep;
    if (ep == PGN_SQ_NONE || !(pawn_attacks(g->us, from) & bits_sq(ep)) || g->p->board[ep]) {
        return;
    }
    unsigned cap = g->us == PGN_WHITE ? ep - 8 : ep + 8;
    if (g->p->board[cap] == PGN_PIECE(g->them, PGN_PAWN)) {
        push_pawn(g, from, ep, PGN_MOVE_EN_PASSANT);
    }
}

static void pseudo_pawns(vgen *g) {
    uint64_t pawns = pieces_of(g->p, g->us, PGN_PAWN) & g->from_mask;
    int up = g->us == PGN_WHITE ? 8 : -8;
    while (pawns) {
        unsigned from = bits_pop(&pawns);
        int one = (int)from + up;
        if (one >= 0 && one < 64 && !(g->occ & bits_sq((unsigned)one))) {
            push_pawn(g, from, (unsigned)one, PGN_MOVE_NORMAL);
            unsigned two = (unsigned)(one + up);
            if (double_step_rank(g, from) && !(g->occ & bits_sq(two))) {
                push_pawn(g, from, two, PGN_MOVE_NORMAL);
            }
        }
        uint64_t caps = pawn_attacks(g->us, from) & g->enemy;
        while (caps) {
            push_pawn(g, from, bits_pop(&caps), PGN_MOVE_NORMAL);
        }
        pseudo_ep(g, from);
    }
}

static uint64_t piece_targets(const vgen *g, unsigned type, unsigned from) {
    switch (type) {
    case PGN_KNIGHT: return knight_attacks[from];
    case PGN_BISHOP: return bishop_attacks(from, g->occ);
    case PGN_ROOK: return rook_attacks(from, g->occ);
    case PGN_QUEEN: return queen_attacks(from, g->occ);
    default: {
        uint64_t t = king_attacks[from];
        return g->p->variant == PGN_VARIANT_ATOMIC ? t & ~g->enemy : t; /* kings never capture */
    }
    }
}

static void pseudo_pieces(vgen *g) {
    for (unsigned type = PGN_KNIGHT; type <= PGN_KING; type++) {
        uint64_t set = pieces_of(g->p, g->us, (pgn_piece_type)type) & g->from_mask;
        while (set) {
            unsigned from = bits_pop(&set);
            uint64_t t = piece_targets(g, type, from) & ~g->own & g->to_mask;
            while (t) {
                push(g->l, mk(from, bits_pop(&t), PGN_MOVE_NORMAL));
            }
        }
    }
}

/* Whether the king may pass the squares `path` when castling in atomic (squares next to the enemy
 * king are safe: no piece may capture there without exploding it) or antichess (no check). */
static int castle_path_safe(const vgen *g, uint64_t path, uint64_t occ) {
    if (g->p->variant == PGN_VARIANT_ANTICHESS) {
        return 1;
    }
    uint64_t kings = pieces_of(g->p, g->them, PGN_KING);
    while (kings) {
        path &= ~king_attacks[bits_pop(&kings)];
    }
    while (path) {
        if (attackers_to(g->p, bits_pop(&path), occ) & g->enemy) {
            return 0;
        }
    }
    return 1;
}

static void pseudo_castles(vgen *g) {
    const pgn_pos *p = g->p;
    uint64_t back = g->us == PGN_WHITE ? BB_RANK_1 : BB_RANK_8;
    uint64_t king = pieces_of(p, g->us, PGN_KING) & back & g->from_mask;
    uint64_t rooks = p->castle & pieces_of(p, g->us, PGN_ROOK) & back & g->to_mask;
    if (!king || !rooks) {
        return;
    }
    unsigned ksq = bits_ctz(king);
    while (rooks) {
        unsigned rsq = bits_pop(&rooks);
        unsigned kto = pgnk_chess_castle_king_to(ksq, rsq),
                 rto = pgnk_chess_castle_rook_to(ksq, rsq);
        uint64_t movers = bits_sq(ksq) | bits_sq(rsq);
        uint64_t path =
            between_mask[ksq][kto] | bits_sq(kto) | between_mask[rsq][rto] | bits_sq(rto);
        if (path & g->occ & ~movers) {
            continue;
        }
        /* as python-chess: the squares passed with the rook still home, the king's destination
         * with the rook moved */
        uint64_t kpath = between_mask[ksq][kto] | bits_sq(ksq);
        uint64_t occ_to = g->occ ^ movers ^ bits_sq(rto);
        if (castle_path_safe(g, kpath, g->occ ^ bits_sq(ksq)) &&
            castle_path_safe(g, bits_sq(kto), occ_to)) {
            push(g->l, mk(ksq, rsq, PGN_MOVE_CASTLE));
        }
    }
}

static void pseudo_moves(const pgn_pos *p, uint64_t from_mask, uint64_t to_mask, pgn_movelist *l) {
    vgen g;
    g.p = p;
    g.us = (pgn_color)p->side;
    g.them = (pgn_color)!g.us;
    g.occ = p->by_type[0];
    g.own = p->by_color[g.us];
    g.enemy = p->by_color[g.them];
    g.from_mask = from_mask;
    g.to_mask = to_mask;
    g.l = l;
    l->count = 0;
    pseudo_pawns(&g);
    pseudo_pieces(&g);
    pseudo_castles(&g);
}

/* ---- Legality ---- */

int pgnk_variant_king_attacked(const pgn_pos *p, pgn_color color) {
    uint64_t kings = pieces_of(p, color, PGN_KING);
    if (!kings || p->variant == PGN_VARIANT_ANTICHESS) {
        return 0;
    }
    unsigned ksq = bits_ctz(kings);
    if (p->variant == PGN_VARIANT_ATOMIC && (king_attacks[ksq] & pieces_of(p, !color, PGN_KING))) {
        return 0; /* touching kings: no capture can reach a king without exploding both */
    }
    return (attackers_to(p, ksq, p->by_type[0]) & p->by_color[!color]) != 0;
}

/* After mv (on copy q): atomic's own king must survive, and be safe unless the enemy's exploded. */
static int atomic_keeps(const pgn_pos *q, pgn_color us) {
    if (!pieces_of(q, us, PGN_KING)) {
        return 0;
    }
    return !pieces_of(q, !us, PGN_KING) || !pgnk_variant_king_attacked(q, us);
}

/* Keeps the moves of l that leave the mover's king safe (atomic, horde's White with a king) or
 * give no check (racing kings). */
static void filter_by_play(const pgn_pos *p, pgn_movelist *l) {
    pgn_color us = (pgn_color)p->side;
    unsigned n = 0;
    for (unsigned i = 0; i < l->count; i++) {
        pgn_pos q = *p;
        pgnk_variant_play(&q, l->moves[i], 0);
        int keep;
        if (p->variant == PGN_VARIANT_ATOMIC) {
            keep = atomic_keeps(&q, us);
        } else if (p->variant == PGN_VARIANT_RACINGKINGS) {
            keep = !pgnk_variant_king_attacked(&q, (pgn_color)!us);
        } else {
            keep = !pgnk_variant_king_attacked(&q, us);
        }
        if (keep) {
            l->moves[n++] = l->moves[i];
        }
    }
    l->count = n;
}

/* Whether the side to move has any capture (antichess makes them compulsory). */
static int antichess_can_capture(const pgn_pos *p) {
    pgn_color us = (pgn_color)p->side;
    uint64_t occ = p->by_type[0], enemy = p->by_color[!us];
    for (uint64_t own = p->by_color[us]; own;) {
        unsigned sq = bits_pop(&own);
        unsigned type = PGN_PIECE_TYPE(p->board[sq]);
        uint64_t a = type == PGN_PAWN     ? pawn_attacks(us, sq)
                     : type == PGN_KNIGHT ? knight_attacks[sq]
                     : type == PGN_BISHOP ? bishop_attacks(sq, occ)
                     : type == PGN_ROOK   ? rook_attacks(sq, occ)
                     : type == PGN_QUEEN  ? queen_attacks(sq, occ)
                                          : king_attacks[sq];
        if (a & enemy) {
            return 1;
        }
        if (type == PGN_PAWN && p->ep != PGN_SQ_NONE && (a & bits_sq(p->ep)) && !p->board[p->ep] &&
            p->board[us == PGN_WHITE ? p->ep - 8 : p->ep + 8] == PGN_PIECE(!us, PGN_PAWN)) {
            return 1;
        }
    }
    return 0;
}

static void antichess_filter(const pgn_pos *p, pgn_movelist *l) {
    if (!antichess_can_capture(p)) {
        return;
    }
    unsigned n = 0;
    for (unsigned i = 0; i < l->count; i++) {
        pgn_move m = l->moves[i];
        if ((PGN_MOVE_KIND(m) == PGN_MOVE_EN_PASSANT) || p->board[PGN_MOVE_TO(m)] != 0) {
            if (PGN_MOVE_KIND(m) != PGN_MOVE_CASTLE || PGN_MOVE_IS_KING_PROMO(m)) {
                l->moves[n++] = m;
            }
        }
    }
    l->count = n;
}

/* Crazyhouse drops: from the pocket to an empty square (pawns not on the first or last rank),
 * between king and checker when in single check, none in double check. */
static void gen_drops(const pgn_pos *p, uint64_t from_mask, uint64_t to_mask, pgn_movelist *l) {
    pgn_color us = (pgn_color)p->side;
    uint64_t squares = ~p->by_type[0] & from_mask & to_mask;
    const uint8_t *pocket = p->pocket[us];
    if (!squares || !(pocket[1] | pocket[2] | pocket[3] | pocket[4] | pocket[5])) {
        return;
    }
    uint64_t kings = pieces_of(p, us, PGN_KING);
    if (kings) {
        unsigned ksq = bits_ctz(kings);
        uint64_t checkers = attackers_to(p, ksq, p->by_type[0]) & p->by_color[!us];
        if (bits_many(checkers)) {
            return;
        }
        if (checkers) {
            squares &= between_mask[ksq][bits_ctz(checkers)];
        }
    }
    for (unsigned t = PGN_PAWN; t <= PGN_QUEEN; t++) {
        if (!pocket[t]) {
            continue;
        }
        uint64_t s = t == PGN_PAWN ? squares & ~(BB_RANK_1 | BB_RANK_8) : squares;
        while (s) {
            unsigned sq = bits_pop(&s); /* the macro reads its square twice */
            push(l, PGN_MOVE_MAKE_DROP(t, sq));
        }
    }
}

/* The legal moves of a variant position that is not over. */
static void variant_moves(const pgn_pos *p, uint64_t from_mask, uint64_t to_mask, pgn_movelist *l) {
    switch ((pgn_variant)p->variant) {
    case PGN_VARIANT_CRAZYHOUSE:
        pgnk_chess_generate_std(p, from_mask, to_mask, l);
        gen_drops(p, from_mask, to_mask, l);
        return;
    case PGN_VARIANT_RACINGKINGS:
        pgnk_chess_generate_std(p, from_mask, to_mask, l);
        filter_by_play(p, l);
        return;
    case PGN_VARIANT_HORDE:
        if (p->side == PGN_BLACK) {
            pgnk_chess_generate_std(p, from_mask, to_mask, l);
            return;
        }
        pseudo_moves(p, from_mask, to_mask, l);
        if (pieces_of(p, PGN_WHITE, PGN_KING)) {
            filter_by_play(p, l);
        }
        return;
    case PGN_VARIANT_STANDARD:
        /* p->kingless: a side without a king has no king to keep safe (horde's White's rule);
         * a side with one keeps the standard rules, whether or not the other has a king */
        if (!pieces_of(p, (pgn_color)p->side, PGN_KING)) {
            pseudo_moves(p, from_mask, to_mask, l);
            return;
        }
        pgnk_chess_generate_std(p, from_mask, to_mask, l);
        return;
    case PGN_VARIANT_ATOMIC:
        pseudo_moves(p, from_mask, to_mask, l);
        filter_by_play(p, l);
        return;
    case PGN_VARIANT_ANTICHESS:
        pseudo_moves(p, from_mask, to_mask, l);
        antichess_filter(p, l);
        return;
    default: pgnk_chess_generate_std(p, from_mask, to_mask, l); return;
    }
}

unsigned pgnk_variant_generate(const pgn_pos *p, uint64_t from_mask, uint64_t to_mask,
                               pgn_movelist *out) {
    pgn_movelist tmp;
    pgn_movelist *l = out ? out : &tmp;
    l->count = 0;
    if (!pgn_pos_is_variant_end(p)) {
        variant_moves(p, from_mask, to_mask, l);
    }
    return l->count;
}

uint64_t pgnk_variant_checkers(const pgn_pos *p) {
    pgn_color us = (pgn_color)p->side;
    if (!pgnk_variant_king_attacked(p, us)) {
        return 0;
    }
    unsigned ksq = bits_ctz(pieces_of(p, us, PGN_KING));
    return attackers_to(p, ksq, p->by_type[0]) & p->by_color[!us];
}

/* ---- Variant endings ---- */

/* Racing kings: a king on the eighth rank ends the game, except that when White gets there first
 * Black has one move to follow. */
static int race_over(const pgn_pos *p) {
    uint64_t wk = pieces_of(p, PGN_WHITE, PGN_KING), bk = pieces_of(p, PGN_BLACK, PGN_KING);
    if (!((wk | bk) & BB_RANK_8)) {
        return 0;
    }
    if (p->side == PGN_WHITE || (bk & BB_RANK_8) || !bk) {
        return 1;
    }
    pgn_movelist l;
    pgnk_chess_generate_std(p, bk, BB_RANK_8, &l);
    filter_by_play(p, &l);
    return l.count == 0;
}

int pgn_pos_is_variant_end(const pgn_pos *pos) {
    switch ((pgn_variant)pos->variant) {
    case PGN_VARIANT_ATOMIC:
        return !pieces_of(pos, PGN_WHITE, PGN_KING) || !pieces_of(pos, PGN_BLACK, PGN_KING);
    case PGN_VARIANT_KOTH: return (pos->by_type[PGN_KING] & BB_CENTER) != 0;
    case PGN_VARIANT_THREECHECK: return pos->checks[0] == 0 || pos->checks[1] == 0;
    case PGN_VARIANT_ANTICHESS: return !pos->by_color[0] || !pos->by_color[1];
    case PGN_VARIANT_HORDE: return !pos->by_color[PGN_WHITE] || !pos->by_color[PGN_BLACK];
    case PGN_VARIANT_RACINGKINGS: return race_over(pos);
    default: return 0;
    }
}
