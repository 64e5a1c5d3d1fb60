/* SPDX-License-Identifier: MIT */
/* pgn_san_parse: the fast path for canonical SAN, then the general reader (san_read.c). */
#include "san.h"

#include <string.h>

/* ---- the fast path ----
 * Canonical SAN of a piece or pawn move (Nf3, Nbd7, R1e2, exd5, e8=Q, with + or #) is resolved
 * without generating moves: the candidates are the pieces of that type that attack (or, for
 * pawns, reach) the target, each tested for legality by looking at the king after the move; the
 * check suffix is verified the same way, and mate only when the move gives check. Anything else
 * (castling, quirks, en passant, no match, ambiguity, a wrong suffix) returns 0 and the general
 * path decides, so both give the same result. */

/* The fast path looks at lines, not at attack sets: a slider on one of a square's empty-board
 * rays reaches the square when nothing stands between them (between_mask), which for the one or
 * two pieces concerned is cheaper than computing sliding attacks. */
static inline uint64_t rook_rays(unsigned sq) {
    return file_mask_ex[sq] | ((BB_RANK_1 << (sq & 56u)) ^ bits_sq(sq));
}
static inline uint64_t bishop_rays(unsigned sq) {
    return diag_mask_ex[sq] | anti_mask_ex[sq];
}

/* The pieces of s (on rays of sq) with nothing between them and sq under occupancy occ. */
static inline uint64_t clear_lines(unsigned sq, uint64_t s, uint64_t occ) {
    uint64_t r = 0;
    while (s) {
        unsigned x = bits_pop(&s);
        if (!(between_mask[sq][x] & occ)) {
            r |= bits_sq(x);
        }
    }
    return r;
}

/* Sliders of set `pieces` (rooks, bishops, queens mixed) that reach sq under occupancy occ. */
static inline uint64_t slider_hits(const pgn_pos *p, unsigned sq, uint64_t pieces, uint64_t occ) {
    uint64_t rq = (p->by_type[PGN_ROOK] | p->by_type[PGN_QUEEN]) & pieces;
    uint64_t bq = (p->by_type[PGN_BISHOP] | p->by_type[PGN_QUEEN]) & pieces;
    return clear_lines(sq, (rook_rays(sq) & rq) | (bishop_rays(sq) & bq), occ);
}

/* Would our king (on ksq) be attacked after a non-king move from -> to (capturing on to)? */
static int exposes_king(const pgn_pos *p, unsigned ksq, unsigned from, unsigned to) {
    pgn_color them = (pgn_color)!p->side;
    uint64_t t = bits_sq(to);
    uint64_t occ = (p->by_type[0] & ~bits_sq(from)) | t;
    uint64_t enemy = p->by_color[them] & ~t;
    return ((knight_attacks[ksq] & p->by_type[PGN_KNIGHT] & enemy) |
            (pawn_attacks((pgn_color)p->side, ksq) & p->by_type[PGN_PAWN] & enemy)) ||
           slider_hits(p, ksq, enemy, occ);
}

/* Does the move (from -> to, the piece becoming type `type`) give check? The side to move
 * cannot be giving check already, so it is the moved piece from its new square, or a slider of
 * ours whose line the move opens. */
static int gives_check(const pgn_pos *p, unsigned from, unsigned to, unsigned type) {
    pgn_color us = (pgn_color)p->side, them = (pgn_color)!us;
    unsigned eksq = king_square(p, them);
    uint64_t f = bits_sq(from), t = bits_sq(to);
    uint64_t occ = (p->by_type[0] & ~f) | t;
    uint64_t rays = 0;
    switch (type) {
    case PGN_PAWN:
        return (pawn_attacks(them, eksq) & t) || slider_hits(p, eksq, p->by_color[us] & ~f, occ);
    case PGN_KNIGHT:
        return (knight_attacks[eksq] & t) || slider_hits(p, eksq, p->by_color[us] & ~f, occ);
    case PGN_BISHOP: rays = bishop_rays(eksq); break;
    case PGN_ROOK: rays = rook_rays(eksq); break;
    case PGN_QUEEN: rays = bishop_rays(eksq) | rook_rays(eksq); break;
    default: break; /* a king gives no check itself */
    }
    return ((rays & t) && !(between_mask[eksq][to] & occ)) ||
           slider_hits(p, eksq, p->by_color[us] & ~f, occ);
}

/* The pieces of type `type` and colour us that attack sq (occupancy occ). */
static uint64_t attackers_of_type(const pgn_pos *p, unsigned type, unsigned sq, uint64_t occ) {
    uint64_t mine = pieces_of(p, (pgn_color)p->side, (pgn_piece_type)type);
    switch (type) {
    case PGN_KNIGHT: return knight_attacks[sq] & mine;
    case PGN_BISHOP: return clear_lines(sq, bishop_rays(sq) & mine, occ);
    case PGN_ROOK: return clear_lines(sq, rook_rays(sq) & mine, occ);
    case PGN_QUEEN: return clear_lines(sq, (bishop_rays(sq) | rook_rays(sq)) & mine, occ);
    default: return king_attacks[sq] & mine;
    }
}

/* Legal origins among cands for a non-king piece moving to `to`. */
static uint64_t legal_origins(const pgn_pos *p, uint64_t cands, unsigned to) {
    unsigned ksq = king_square(p, (pgn_color)p->side);
    uint64_t legal = 0;
    while (cands) {
        unsigned from = bits_pop(&cands);
        if (!exposes_king(p, ksq, from, to)) {
            legal |= bits_sq(from);
        }
    }
    return legal;
}

static pgn_move fast_move(unsigned from, unsigned to, unsigned promo) {
    unsigned kind = promo ? (unsigned)PGN_MOVE_PROMOTION : (unsigned)PGN_MOVE_NORMAL;
    return (pgn_move)(from | (to << 6) | (kind << 12) |
                      ((promo ? promo - (unsigned)PGN_KNIGHT : 0u) << 14));
}

/* '#' or '+' for a move that gives check: only the replies tell. Out of line (the position copy
 * would weigh on every move's stack frame). */
static NOINLINE char mate_or_check(const pgn_pos *p, pgn_move mv) {
    pgn_pos q = *p;
    pgn_pos_play_unkeyed(&q, mv);
    return pgnk_chess_has_legal_move(&q) ? '+' : '#';
}

/* A fast-path move: origin, target, promotion piece (0: none), the piece type moving and whether
 * the text wrote a capture mark. */
typedef struct fast_desc {
    unsigned from, to, promo, type;
    int capture_mark;
} fast_desc;

/* O-O and O-O-O with the right suffix (or none asked for). */
static int fast_castle(const pgn_pos *p, const char *s, size_t len, uint32_t flags, char suffix,
                       pgn_san_result *out) {
    int side = len == 3 && memcmp(s, "O-O", 3) == 0     ? 1
               : len == 5 && memcmp(s, "O-O-O", 5) == 0 ? 2
                                                        : 0;
    pgn_move mv = side ? pgnk_san_find_castle(p, side, -1) : PGN_MOVE_NONE;
    if (mv == PGN_MOVE_NONE ||
        (!(flags & PGN_SAN_NO_VERIFY) && pgnk_san_check_suffix(p, mv) != suffix)) {
        return 0;
    }
    out->move = mv;
    out->warnings = 0;
    return 1;
}

/* Is the king's target `to` safe once the king (the only one in `all`) has left its square? A
 * disambiguated king move is left to the general path. */
static inline int fast_king_safe(const pgn_pos *p, unsigned to, uint64_t all, int disambiguated) {
    pgn_color us = (pgn_color)p->side;
    uint64_t enemy = p->by_color[!us];
    return all && !disambiguated && !(knight_attacks[to] & p->by_type[PGN_KNIGHT] & enemy) &&
           !(pawn_attacks(us, to) & p->by_type[PGN_PAWN] & enemy) &&
           !(king_attacks[to] & p->by_type[PGN_KING] & enemy) &&
           !slider_hits(p, to, enemy, p->by_type[0] ^ all);
}

/* Is the disambiguation written (df file, dr rank, -1 when absent) for the origin in `chosen`
 * the one canonical SAN needs among the legal origins `legal` (file, else rank)? Both needed: 0,
 * the general path. */
static inline int fast_canonical_disambiguation(uint64_t legal, uint64_t chosen, unsigned from,
                                                int df, int dr) {
    uint64_t others = legal & ~chosen;
    int need_file = others != 0 && !(others & (BB_FILE_A << (from & 7)));
    int need_rank = others != 0 && !need_file && !(others & (BB_RANK_1 << (from & 56)));
    if (others && !need_file && !need_rank) {
        return 0;
    }
    return (df >= 0) == need_file && (dr >= 0) == need_rank;
}

/* A piece move: N [file|rank] [x] file rank (len without the suffix). */
static inline int fast_piece(const pgn_pos *p, const char *s, size_t len, fast_desc *m) {
    size_t i = 1;
    int df = -1, dr = -1;
    if (len - i >= 3 && is_file(s[i]) && (s[i + 1] == 'x' || is_file(s[i + 1]))) {
        df = s[i++] - 'a';
    } else if (len - i >= 3 && is_rank(s[i])) {
        dr = s[i++] - '1';
    }
    m->capture_mark = s[i] == 'x';
    i += (size_t)m->capture_mark;
    if (len - i != 2 || !is_file(s[i]) || !is_rank(s[i + 1])) {
        return 0;
    }
    m->to = (unsigned)PGN_SQ(s[i] - 'a', s[i + 1] - '1');
    if (p->by_color[p->side] & bits_sq(m->to)) {
        return 0;
    }
    uint64_t all = attackers_of_type(p, m->type, m->to, p->by_type[0]), legal;
    if (m->type == PGN_KING) {
        if (!fast_king_safe(p, m->to, all, df >= 0 || dr >= 0)) {
            return 0;
        }
        legal = all;
    } else {
        legal = legal_origins(p, all, m->to);
    }
    uint64_t mask =
        (df >= 0 ? BB_FILE_A << df : BB_ALL) & (dr >= 0 ? BB_RANK_1 << (8 * dr) : BB_ALL);
    uint64_t chosen = legal & mask;
    if (!chosen || bits_many(chosen)) {
        return 0;
    }
    m->from = bits_ctz(chosen);
    return fast_canonical_disambiguation(legal, chosen, m->from, df, dr);
}

/* The text of a pawn move: e4, exd5, e8=Q, exd8=Q (len without the suffix); sets to, promo and
 * capture_mark, and *ff to the file written first. */
static inline int fast_pawn_text(pgn_color us, const char *s, size_t len, fast_desc *m, int *ff) {
    if (!is_file(s[0])) {
        return 0;
    }
    *ff = s[0] - 'a';
    m->capture_mark = s[1] == 'x';
    if (m->capture_mark &&
        (len < 4 || !is_file(s[2]) || (s[2] - 'a' != *ff + 1 && s[2] - 'a' != *ff - 1))) {
        return 0;
    }
    size_t r_at = m->capture_mark ? 3 : 1;
    if (!is_rank(s[r_at])) {
        return 0;
    }
    int tr = s[r_at] - '1';
    size_t used = r_at + 1;
    if (tr == (us == PGN_WHITE ? 7 : 0)) {
        if (len != used + 2 || s[used] != '=') {
            return 0;
        }
        int pt = piece_from_letter(s[used + 1]);
        if (pt < PGN_KNIGHT || pt > PGN_QUEEN) {
            return 0;
        }
        m->promo = (unsigned)pt;
    } else if (len != used) {
        return 0;
    }
    m->to = (unsigned)PGN_SQ(m->capture_mark ? s[2] - 'a' : *ff, tr);
    return 1;
}

/* A pawn move: its text, then the one pawn that makes it, legally. */
static inline int fast_pawn(const pgn_pos *p, const char *s, size_t len, fast_desc *m) {
    pgn_color us = (pgn_color)p->side;
    int ff;
    if (!fast_pawn_text(us, s, len, m, &ff)) {
        return 0;
    }
    int dir = us == PGN_WHITE ? -8 : 8;
    int tf = (int)(m->to & 7), f0;
    if (m->capture_mark) {
        if (!(p->by_color[!us] & bits_sq(m->to))) {
            return 0; /* en passant or no capture: the general path */
        }
        f0 = (int)m->to + dir + (ff - tf);
    } else {
        if (p->by_type[0] & bits_sq(m->to)) {
            return 0;
        }
        f0 = (int)m->to + dir;
        if (f0 >= 0 && f0 < 64 && !(p->by_type[0] & bits_sq((unsigned)f0)) &&
            (m->to >> 3) == (us == PGN_WHITE ? 3u : 4u)) {
            f0 += dir; /* a double step */
        }
    }
    if (f0 < 0 || f0 >= 64) {
        return 0;
    }
    m->from = (unsigned)f0;
    return (pieces_of(p, us, PGN_PAWN) & bits_sq(m->from)) &&
           !exposes_king(p, king_square(p, us), m->from, m->to);
}

static int san_fast(const pgn_pos *p, const char *s, size_t len, uint32_t flags,
                    pgn_san_result *out) {
    char suffix = 0;
    if (len > 0 && (s[len - 1] == '+' || s[len - 1] == '#')) {
        suffix = s[--len];
    }
    if (len < 2 || len > 6) {
        return 0;
    }
    if (s[0] == 'O') {
        return fast_castle(p, s, len, flags, suffix, out);
    }
    fast_desc m = {0, 0, 0, (unsigned)piece_from_letter(s[0]), 0};
    if (m.type >= PGN_KNIGHT) {
        if (!fast_piece(p, s, len, &m)) {
            return 0;
        }
    } else {
        m.type = PGN_PAWN;
        if (!fast_pawn(p, s, len, &m)) {
            return 0;
        }
    }
    if (m.capture_mark != ((p->by_type[0] & bits_sq(m.to)) != 0)) {
        return 0;
    }
    if (!(flags & PGN_SAN_NO_VERIFY)) {
        char want = 0;
        if (gives_check(p, m.from, m.to, m.promo ? m.promo : m.type)) {
            want = mate_or_check(p, fast_move(m.from, m.to, m.promo));
        }
        if (want != suffix) {
            return 0;
        }
    }
    out->move = fast_move(m.from, m.to, m.promo);
    out->warnings = 0;
    return 1;
}

pgn_status pgn_san_parse(const pgn_pos *pos, const char *san, size_t len, uint32_t flags,
                         pgn_san_result *out) {
    /* variant positions (drops, explosions, other check rules) take the general path */
    if (!(flags & PGN_SAN_NO_FAST) && !pos->variant && san_fast(pos, san, len, flags, out)) {
        return PGN_OK;
    }
    return pgnk_san_general(pos, san, len, flags, out);
}
