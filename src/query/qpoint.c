/* SPDX-License-Identifier: MIT */
/* The point atoms of the selection language (docs/query.md): bitboard tests on one position and
 * the move that led to it, cheap tests first; `flip` runs its operand on the colour-reversed
 * point; and the "can no longer match" test (material never grows beyond what promotions allow,
 * pawns never return to their start squares, castling rights never come back). */
#include <string.h>

#include "../base/bits.h"
#include "../base/table.h"
#include "query_internal.h"

static unsigned count_of(const pgn_pos *pos, int color, int type) {
    return bits_popcount(pos->by_color[color] & pos->by_type[type]);
}

/* Pieces of a set (bit colour * 8 + type) on the board. */
static unsigned count_set(const pgn_pos *pos, uint64_t set) {
    unsigned n = 0;
    for (int c = 0; c < 2; c++) {
        for (int t = PGN_PAWN; t <= PGN_KING; t++) {
            if ((set >> (c * 8 + t)) & 1) {
                n += count_of(pos, c, t);
            }
        }
    }
    return n;
}

/* The most pieces of the set that any later position of the line can hold. */
/* A count comparison's left side minus its right side's counts: sum of coef times count. */
static int count_lin(const pgn_pos *pos, const int8_t coef[2][7]) {
    int v = 0;
    for (int c = 0; c < 2; c++) {
        for (int t = PGN_PAWN; t <= PGN_KING; t++) {
            v += coef[c][t] ? coef[c][t] * (int)count_of(pos, c, t) : 0;
        }
    }
    return v;
}

static unsigned count_set_max(const pgn_pos *pos, uint64_t set) {
    unsigned n = count_set(pos, set);
    for (int c = 0; c < 2; c++) {
        uint64_t pieces = (set >> (c * 8)) & 0x3Cu; /* N B R Q */
        if (pieces && !((set >> (c * 8 + PGN_PAWN)) & 1)) {
            n += count_of(pos, c, PGN_PAWN); /* each pawn may promote */
        }
    }
    return n;
}

static int ep_square(const pgn_pos *pos) {
    return pgn_pos_has_legal_ep(pos) ? pos->ep : PGN_SQ_NONE;
}

static int fen_equal(const pgn_pos *a, const pgn_pos *b) {
    return a->by_type[0] == b->by_type[0] && a->side == b->side &&
           memcmp(a->board, b->board, 64) == 0 && a->castle == b->castle &&
           ep_square(a) == ep_square(b);
}

static int material_eq(const pgn_pos *pos, const int8_t mat[2][7]) {
    for (int c = 0; c < 2; c++) {
        for (int t = PGN_PAWN; t < PGN_KING; t++) {
            if (count_of(pos, c, t) != (unsigned)mat[c][t]) {
                return 0;
            }
        }
    }
    return 1;
}

static int imbalance_eq(const pgn_pos *pos, const int8_t mat[2][7]) {
    for (int t = mat[1][PGN_PAWN] ? PGN_PAWN : PGN_KNIGHT; t < PGN_KING; t++) {
        if ((int)count_of(pos, 0, t) - (int)count_of(pos, 1, t) != mat[0][t]) {
            return 0;
        }
    }
    return 1;
}

static int move_atom(const qnode *n, const qpt *pt) {
    pgn_move mv = pt->mv;
    if (mv == PGN_MOVE_NONE || mv == PGN_MOVE_NULL) {
        return 0;
    }
    int kind = PGN_MOVE_KIND(mv);
    switch (n->op) {
    case Q_MOVE: return pgnk_qmove_match(&n->mp, pt->before, mv);
    case Q_CASTLES: return kind == PGN_MOVE_CASTLE;
    case Q_CAPTURE: return pgn_move_is_capture(pt->before, mv);
    case Q_PROMOTION: return kind == PGN_MOVE_PROMOTION;
    case Q_UNDERPROMOTION: return kind == PGN_MOVE_PROMOTION && PGN_MOVE_PROMO(mv) != PGN_QUEEN;
    default: return kind == PGN_MOVE_EN_PASSANT;
    }
}

static int annot_atom(const qnode *n, const qpt *pt) {
    const qann *a = pt->ann;
    switch (n->op) {
    case Q_COMMENT: return a && a->comment;
    case Q_NAG: return a && (a->nags[n->nag >> 6] >> (n->nag & 63)) & 1;
    case Q_CLOCK: return a && a->has_clock && pgnk_qcmp_num((qcmp)n->cmp, a->clock_ms, n->num);
    case Q_EVAL: return a && a->has_eval && pgnk_qcmp_num((qcmp)n->cmp, a->eval, n->num);
    default: return pt->has_swing && pgnk_qcmp_num((qcmp)n->cmp, pt->swing, n->num);
    }
}

static int atom(const qnode *n, const qpt *pt) {
    const pgn_pos *pos = pt->pos;
    switch (n->op) {
    case Q_WTM: return pos->side == PGN_WHITE;
    case Q_BTM: return pos->side == PGN_BLACK;
    case Q_PIECE_ON: {
        uint8_t pc = pos->board[(unsigned)n->num];
        return pc && (n->bits >> (PGN_PIECE_COLOR(pc) * 8 + PGN_PIECE_TYPE(pc))) & 1;
    }
    case Q_COUNT:
        return pgnk_qcmp_num((qcmp)n->cmp,
                             n->sel ? count_lin(pos, n->mat) : (double)count_set(pos, n->bits),
                             n->num);
    case Q_MATERIAL: return material_eq(pos, n->mat);
    case Q_IMBALANCE: return imbalance_eq(pos, n->mat);
    case Q_FEN: return fen_equal(pos, n->pos);
    case Q_OPENING: return pt->ply == (uint32_t)n->num && fen_equal(pos, n->pos);
    case Q_HASH: return (pt->mirrored ? pgn_pos_compute_key(pos) : pos->key) == n->bits;
    case Q_PATTERN: return pgnk_qpattern_match(n->pat, pos);
    case Q_FIFTY: return pos->halfmove >= 100;
    case Q_REPETITION: return pt->reps >= 3;
    case Q_CHECK: return pgn_pos_checkers(pos) != 0;
    case Q_MATE: return pgn_pos_is_checkmate(pos);
    case Q_STALEMATE: return pgn_pos_is_stalemate(pos);
    case Q_COMMENT:
    case Q_NAG:
    case Q_CLOCK:
    case Q_EVAL:
    case Q_SWING: return annot_atom(n, pt);
    default: return move_atom(n, pt);
    }
}

/* pos with White and Black exchanged: ranks reversed, colours swapped, the other side to move. */
static void mirror_pos(const pgn_pos *in, pgn_pos *out) {
    *out = *in;
    out->by_color[0] = bits_bswap(in->by_color[1]);
    out->by_color[1] = bits_bswap(in->by_color[0]);
    for (int t = 0; t < 7; t++) {
        out->by_type[t] = bits_bswap(in->by_type[t]);
    }
    out->castle = bits_bswap(in->castle);
    for (int sq = 0; sq < 64; sq++) {
        uint8_t pc = in->board[sq ^ 56];
        out->board[sq] = pc ? (uint8_t)(pc ^ 8) : 0;
    }
    out->side = (uint8_t)(in->side ^ 1);
    out->ep = in->ep == PGN_SQ_NONE ? PGN_SQ_NONE : (uint8_t)(in->ep ^ 56);
}

static int flip_eval(const pgn_query *q, const qnode *n, const qpt *pt) {
    if (pgnk_qpoint_eval(q, n->child, pt)) {
        return 1;
    }
    pgn_pos pos, before;
    qann ann;
    qpt m = *pt;
    mirror_pos(pt->pos, &pos);
    m.pos = &pos;
    m.mirrored = 1;
    if (pt->before) {
        mirror_pos(pt->before, &before);
        m.before = &before;
    }
    if (pt->mv != PGN_MOVE_NONE && pt->mv != PGN_MOVE_NULL) {
        unsigned kind = PGN_MOVE_KIND(pt->mv), promo = (pt->mv >> 14) & 3;
        m.mv = (pgn_move)((PGN_MOVE_FROM(pt->mv) ^ 56) | (unsigned)(PGN_MOVE_TO(pt->mv) ^ 56) << 6 |
                          kind << 12 | promo << 14);
    }
    if (pt->ann) {
        ann = *pt->ann;
        ann.eval = -ann.eval;
        m.ann = &ann;
    }
    return pgnk_qpoint_eval(q, n->child, &m);
}

int pgnk_qpoint_eval(const pgn_query *q, uint32_t id, const qpt *pt) {
    const qnode *n = &q->nodes[id];
    switch (n->op) {
    case Q_AND:
        for (uint32_t c = n->child; c != QNONE; c = q->nodes[c].next) {
            if (!pgnk_qpoint_eval(q, c, pt)) {
                return 0;
            }
        }
        return 1;
    case Q_OR:
        for (uint32_t c = n->child; c != QNONE; c = q->nodes[c].next) {
            if (pgnk_qpoint_eval(q, c, pt)) {
                return 1;
            }
        }
        return 0;
    case Q_NOT: return !pgnk_qpoint_eval(q, n->child, pt);
    case Q_VARS:
    case Q_AT:
    case Q_EXISTS: return pgnk_qpoint_eval(q, n->child, pt);
    case Q_FLIP: return flip_eval(q, n, pt);
    default: return atom(n, pt);
    }
}

/* pawn_cones[c][sq]: the squares a pawn of colour c must stand on now to reach sq later (pawns
 * only go forward, one rank a move, one file aside when they capture): a cone behind sq, sq
 * included, k files either side k ranks back, on the ranks pawns stand on (2nd to 7th); empty when
 * sq is on the first or last rank. */
#define PAWN_RANK(r) ((r) >= 1 && (r) <= 6)
#define CONE_SPAN(f, k) /* the files within k of file f, as one rank's byte */                     \
    ((0xFFu << ((f) > (k) ? (f) - (k) : 0)) & (0xFFu >> ((f) + (k) < 7 ? 7 - (f) - (k) : 0)))
#define CONE_ROW_AT(f, k, r) /* the shift is kept in range even where the row is not taken */      \
    (PAWN_RANK(r) ? (uint64_t)CONE_SPAN(f, k) << 8 * (PAWN_RANK(r) ? (r) : 0) : 0)
#define CONE_ROW(c, sq, k) CONE_ROW_AT((sq) % 8, k, (c) ? (sq) / 8 + (k) : (sq) / 8 - (k))
#define CONE(c, sq)                                                                                \
    (PAWN_RANK((sq) / 8) ? CONE_ROW(c, sq, 0) | CONE_ROW(c, sq, 1) | CONE_ROW(c, sq, 2) |          \
                               CONE_ROW(c, sq, 3) | CONE_ROW(c, sq, 4) | CONE_ROW(c, sq, 5)        \
                         : 0)
#define WHITE_CONE(sq) CONE(0, sq)
#define BLACK_CONE(sq) CONE(1, sq)
static const uint64_t pawn_cones[2][64] = {{PGNK_TABLE64(WHITE_CONE)}, {PGNK_TABLE64(BLACK_CONE)}};
#undef BLACK_CONE
#undef WHITE_CONE
#undef CONE
#undef CONE_ROW
#undef CONE_ROW_AT
#undef CONE_SPAN
#undef PAWN_RANK

/* 1 if some square of need (pawns of colour c) can no longer get one: no pawn of c in its cone,
 * or fewer pawns of c than squares. */
static int pawns_never(const pgn_pos *pos, int c, uint64_t need) {
    uint64_t have = pos->by_color[c] & pos->by_type[PGN_PAWN];
    if ((need & ~have) == 0) {
        return 0;
    }
    for (uint64_t b = need & ~have; b; b &= b - 1) {
        if (!(have & pawn_cones[c][bits_ctz(b)])) {
            return 1;
        }
    }
    return (need & (need - 1)) && bits_popcount(need) > bits_popcount(have);
}

/* Pawns target has that no pawn of pos can still become (pawns_never), castling rights target has
 * and pos lost, and too few pieces. */
static int fen_never(const pgn_pos *pos, const pgn_pos *target) {
    if (pawns_never(pos, PGN_WHITE, target->by_color[0] & target->by_type[PGN_PAWN]) ||
        pawns_never(pos, PGN_BLACK, target->by_color[1] & target->by_type[PGN_PAWN])) {
        return 1;
    }
    if (target->castle & ~pos->castle) {
        return 1;
    }
    for (int c = 0; c < 2; c++) {
        if (bits_popcount(target->by_color[c]) > bits_popcount(pos->by_color[c]) ||
            count_of(target, c, PGN_PAWN) > count_of(pos, c, PGN_PAWN)) {
            return 1;
        }
    }
    return 0;
}

/* 1 if target is out of reach in the left plies that follow pos (standard chess): a move of colour
 * c changes what c holds on two squares (castling, while c may castle, four), a capture by the
 * other side on one, and none can take a piece of c when pos has no more of them than target. */
static int opening_far(const pgn_pos *pos, const pgn_pos *target, uint32_t left) {
    if (pos->variant != PGN_VARIANT_STANDARD) {
        return 0;
    }
    for (int c = 0; c < 2; c++) {
        uint32_t moves = c == pos->side ? (left + 1) / 2 : left / 2;
        uint64_t diff = 0;
        for (int t = PGN_PAWN; t <= PGN_KING; t++) {
            diff |=
                (pos->by_color[c] & pos->by_type[t]) ^ (target->by_color[c] & target->by_type[t]);
        }
        uint32_t most = 2 * moves + (pos->castle ? 2u : 0u);
        if (bits_popcount(pos->by_color[c]) > bits_popcount(target->by_color[c])) {
            most += left - moves;
        }
        if (bits_popcount(diff) > most) {
            return 1;
        }
    }
    return 0;
}

static int atom_never(const qnode *n, const pgn_pos *pos, uint32_t ply) {
    switch (n->op) {
    case Q_PIECE_ON: {
        unsigned sq = (unsigned)n->num;
        uint64_t b = bits_sq(sq);
        /* only a pawn: one in its cone */
        if (n->bits == (UINT64_C(1) << PGN_PAWN)) {
            return pawns_never(pos, PGN_WHITE, b);
        }
        if (n->bits == (UINT64_C(1) << (8 + PGN_PAWN))) {
            return pawns_never(pos, PGN_BLACK, b);
        }
        return count_set_max(pos, n->bits) == 0;
    }
    case Q_COUNT: {
        if (n->sel) {
            return 0; /* a difference of counts: no bound kept */
        }
        /* compared as doubles: the operand may be any number ("count Q > 1e300") */
        double most = (double)count_set_max(pos, n->bits);
        switch (n->cmp) {
        case C_GE:
        case C_EQ: return most < n->num;
        case C_GT: return most <= n->num;
        default: return 0;
        }
    }
    case Q_MATERIAL:
        for (int c = 0; c < 2; c++) {
            unsigned total = 0, now = bits_popcount(pos->by_color[c]) - 1;
            for (int t = PGN_PAWN; t < PGN_KING; t++) {
                total += (unsigned)n->mat[c][t];
            }
            if (total > now || (unsigned)n->mat[c][PGN_PAWN] > count_of(pos, c, PGN_PAWN)) {
                return 1;
            }
        }
        return 0;
    case Q_FEN: return fen_never(pos, n->pos);
    case Q_PATTERN:
        return pawns_never(pos, PGN_WHITE, n->pat->req[PGN_PAWN]) ||
               pawns_never(pos, PGN_BLACK, n->pat->req[8 + PGN_PAWN]);
    case Q_OPENING:
        return ply >= (uint32_t)n->num || opening_far(pos, n->pos, (uint32_t)n->num - ply) ||
               fen_never(pos, n->pos);
    default: return 0;
    }
}

int pgnk_qpoint_never(const pgn_query *q, uint32_t id, const pgn_pos *pos, uint32_t ply) {
    const qnode *n = &q->nodes[id];
    switch (n->op) {
    case Q_AND:
        for (uint32_t c = n->child; c != QNONE; c = q->nodes[c].next) {
            if (pgnk_qpoint_never(q, c, pos, ply)) {
                return 1;
            }
        }
        return 0;
    case Q_OR:
        for (uint32_t c = n->child; c != QNONE; c = q->nodes[c].next) {
            if (!pgnk_qpoint_never(q, c, pos, ply)) {
                return 0;
            }
        }
        return 1;
    case Q_AT: return pgnk_qpoint_never(q, n->child, pos, ply);
    case Q_NOT:
    case Q_FLIP:
    case Q_VARS: return 0;
    default: return atom_never(n, pos, ply);
    }
}

/* Pawns start from the 2nd rank and only go forward, material only decreases (promotions to N, B,
 * R, Q aside): not so in crazyhouse (pieces and pawns dropped back), horde (White's pawns on the
 * 1st rank) and antichess (promotion to a king). */
int pgnk_qnever_rules(const pgn_pos *pos) {
    return pos->variant != PGN_VARIANT_CRAZYHOUSE && pos->variant != PGN_VARIANT_HORDE &&
           pos->variant != PGN_VARIANT_ANTICHESS;
}

int pgnk_qpawns_never(const pgn_pos *pos, const uint64_t need[2]) {
    return pawns_never(pos, PGN_WHITE, need[0]) || pawns_never(pos, PGN_BLACK, need[1]);
}

/* pawns_never reads the pawns of colour c on need and in the cones behind need's squares, and
 * when need has two squares or more, their count: every square. */
void pgnk_qpawns_watch(const uint64_t need[2], uint64_t watch[2]) {
    for (int c = 0; c < 2; c++) {
        uint64_t w = need[c];
        for (uint64_t b = need[c]; b; b &= b - 1) {
            w |= pawn_cones[c][bits_ctz(b)];
        }
        watch[c] |= (need[c] & (need[c] - 1)) ? ~UINT64_C(0) : w;
    }
}

/* Adds to g's alive sets and least counts what pawns_never reads for need: it says no where each
 * square of need[c] has a pawn of colour c in its cone, and, for two squares or more, there are as
 * many pawns of c. 0 (g unchanged) if g has no room left. */
int pgnk_qpawns_alive(const uint64_t need[2], pgn_move_gate *g) {
    for (int c = 0; c < 2; c++) {
        if (g->nalive[c] + bits_popcount(need[c]) > PGN_GATE_ALIVE_MAX) {
            return 0;
        }
    }
    for (int c = 0; c < 2; c++) {
        for (uint64_t b = need[c]; b; b &= b - 1) {
            g->alive[c][g->nalive[c]++] = pawn_cones[c][bits_ctz(b)];
        }
        unsigned n = (need[c] & (need[c] - 1)) ? bits_popcount(need[c]) : 0;
        g->min_pawns[c] = (uint8_t)(n > g->min_pawns[c] ? n : g->min_pawns[c]);
    }
    return 1;
}

/* 1 if atom_never can be true for n in some position. */
static int atom_can_never(const qnode *n) {
    switch (n->op) {
    case Q_PIECE_ON:
    case Q_MATERIAL:
    case Q_FEN:
    case Q_OPENING: return 1;
    case Q_COUNT: return !n->sel && (n->cmp == C_GE || n->cmp == C_EQ || n->cmp == C_GT);
    case Q_PATTERN: return (n->pat->req[PGN_PAWN] | n->pat->req[8 + PGN_PAWN]) != 0;
    default: return 0;
    }
}

static int can_never(const pgn_query *q, uint32_t id) {
    const qnode *n = &q->nodes[id];
    switch (n->op) {
    case Q_AND:
    case Q_OR:
        for (uint32_t c = n->child; c != QNONE; c = q->nodes[c].next) {
            if (can_never(q, c) == (n->op == Q_AND)) {
                return n->op == Q_AND;
            }
        }
        return n->op == Q_OR;
    case Q_AT: return can_never(q, n->child);
    case Q_NOT:
    case Q_FLIP:
    case Q_VARS: return 0;
    default: return atom_can_never(n);
    }
}

/* A pawn atom, a pattern, and an `and` of them on one point: all their pawns at once. */
uint8_t pgnk_qpoint_never_kind(const pgn_query *q, uint32_t id, uint64_t need[2]) {
    const qnode *n = &q->nodes[id];
    uint8_t k = NV_NONE;
    switch (n->op) {
    case Q_PIECE_ON:
        for (int c = 0; c < 2; c++) {
            if (n->bits == UINT64_C(1) << (c * 8 + PGN_PAWN)) {
                need[c] |= bits_sq((unsigned)n->num);
                return NV_PAWNS;
            }
        }
        return NV_ANY;
    case Q_PATTERN:
        need[0] |= n->pat->req[PGN_PAWN];
        need[1] |= n->pat->req[8 + PGN_PAWN];
        return (need[0] | need[1]) ? NV_PAWNS : NV_NONE;
    case Q_AND:
        for (uint32_t c = n->child; c != QNONE && k != NV_ANY; c = q->nodes[c].next) {
            uint8_t kc = pgnk_qpoint_never_kind(q, c, need);
            k = kc > k ? kc : k;
        }
        return k;
    case Q_AT: return pgnk_qpoint_never_kind(q, n->child, need);
    default: return can_never(q, id) ? NV_ANY : NV_NONE;
    }
}
