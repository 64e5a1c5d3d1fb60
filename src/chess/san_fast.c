/* SPDX-License-Identifier: MIT */
/* pgn_san_parse: the fast path for canonical SAN, then the general reader (san_read.c). */
#include "san.h"
#include "san_play.h"
#include "variants.h"

#include <string.h>

/* ---- the fast path ----
 * Canonical SAN of a piece or pawn move (Nf3, Nbd7, R1e2, exd5, e8=Q, with + or #) and O-O/O-O-O
 * are resolved without generating moves: the candidates are the pieces of that type that reach
 * the target (one table look-up for a knight or the king, a look along the target's lines for a
 * slider, the one or two squares behind for a pawn). Legality is one pass over the enemy sliders
 * on the king's lines (a check or a pin shows there); the check suffix is one look from the enemy
 * king at the moved piece and along the line it leaves; mate is looked for only after a check.
 * Anything else (quirks, en passant, no match, ambiguity, a wrong suffix) returns PGN_MOVE_NONE
 * and the general path decides, so both give the same result. */

/* A slider on one of a square's empty-board rays reaches the square when nothing stands between
 * them (between_mask): for the one or two pieces concerned, cheaper than sliding attacks. */
static inline uint64_t rook_rays(unsigned sq) {
    return rook_ray_mask[sq];
}
static inline uint64_t bishop_rays(unsigned sq) {
    return bishop_ray_mask[sq];
}

/* The piece letters of SAN (N, B, R, Q, K; P), by a look-up rather than a jump, over every byte
 * (a range test before it was a second branch, mispredicted on a pawn move, issue 32). */
static inline unsigned fast_letter(char c) {
    static const uint8_t letters[256] = {['B'] = PGN_BISHOP, ['K'] = PGN_KING,  ['N'] = PGN_KNIGHT,
                                         ['P'] = PGN_PAWN,   ['Q'] = PGN_QUEEN, ['R'] = PGN_ROOK};
    return letters[(unsigned char)c];
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

/* Would our king (on ksq) be attacked after a non-king move from -> to (capturing on to)? The
 * full test, for a position in check. */
static NOINLINE int exposes_king(const pgn_pos *p, unsigned ksq, unsigned from, unsigned to) {
    pgn_color them = (pgn_color)(p->side ^ 1u);
    uint64_t t = bits_sq(to);
    uint64_t occ = (p->by_type[0] & ~bits_sq(from)) | t;
    uint64_t enemy = p->by_color[them] & ~t;
    return ((knight_attacks[ksq] & p->by_type[PGN_KNIGHT] & enemy) |
            (pawn_attacks((pgn_color)p->side, ksq) & p->by_type[PGN_PAWN] & enemy)) ||
           slider_hits(p, ksq, enemy, occ);
}

/* Is the non-king move from -> to (no en passant) legal? Not in check (safe), only a pin can
 * make it illegal: an enemy slider on the line through our king and `from` (line_mask), with
 * only `from` between, and a move off that line. Otherwise each slider of theirs on a line of our
 * king is looked at once: with nothing between, it gives check, and the full test decides; with
 * only `from` between, it pins, and the move must stay on its line. A knight or pawn giving check
 * also takes the full test. Out of line: move_is_legal below answers most moves without it. */
static NOINLINE int legal_slow(const pgn_pos *p, unsigned from, unsigned to, int safe) {
    pgn_color us = (pgn_color)p->side;
    unsigned ksq = king_square(p, us);
    uint64_t enemy = p->by_color[us ^ 1u], occ = p->by_type[0];
    uint64_t rq = p->by_type[PGN_ROOK] | p->by_type[PGN_QUEEN];
    uint64_t bq = p->by_type[PGN_BISHOP] | p->by_type[PGN_QUEEN];
    if (safe) {
        uint64_t line = line_mask[ksq][from];
        uint64_t snipers = line & (rq | bq) & enemy & (0 - (uint64_t)((line & bits_sq(to)) == 0));
        while (snipers) {
            unsigned s = bits_pop(&snipers);
            /* a rook on a diagonal, a bishop on a rank or file: no pin */
            uint64_t kind = rook_rays(ksq) & bits_sq(s) ? rq : bq;
            if ((kind & bits_sq(s)) && (between_mask[ksq][s] & occ) == bits_sq(from)) {
                return 0;
            }
        }
        return 1;
    }
    uint64_t snipers = ((rook_rays(ksq) & rq) | (bishop_rays(ksq) & bq)) & enemy;
    if (((knight_attacks[ksq] & p->by_type[PGN_KNIGHT]) |
         (pawn_attacks(us, ksq) & p->by_type[PGN_PAWN])) &
        enemy) {
        return !exposes_king(p, ksq, from, to);
    }
    while (snipers) {
        unsigned s = bits_pop(&snipers);
        uint64_t b = between_mask[ksq][s] & occ;
        if (!b) {
            return !exposes_king(p, ksq, from, to);
        }
        if (b == bits_sq(from) && !(line_mask[ksq][s] & bits_sq(to))) {
            return 0;
        }
    }
    return 1;
}

/* move_is_legal's common case, inline: not in check (safe), and no enemy slider on the line
 * through our king and `from` (most moves: one load and a mask, issue 32), or the move stays on
 * that line. The rest takes legal_slow, whose loop and masks kept a dozen values alive across
 * every move when they were inlined here (issue 32). */
static ALWAYS_INLINE int move_is_legal(const pgn_pos *p, unsigned from, unsigned to, int safe) {
    /* (the other side is us ^ 1 here and below: !us cost a test and two moves, issue 32) */
    pgn_color us = (pgn_color)p->side;
    uint64_t line = line_mask[king_square(p, us)][from];
    uint64_t sliders = p->by_type[PGN_ROOK] | p->by_type[PGN_BISHOP] | p->by_type[PGN_QUEEN];
    if (safe && (!(line & sliders & p->by_color[us ^ 1u]) || (line & bits_sq(to)))) {
        return 1;
    }
    return legal_slow(p, from, to, safe);
}

/* Does one of our sliders on the line through the enemy king (on eksq) and the square left see
 * the king over occupancy occ? `sliders` holds every slider of ours on that line: the kind that
 * moves along it (rooks and queens on a rank or file, bishops and queens on a diagonal) is sorted
 * out here, out of line, as few moves have one there at all. */
static NOINLINE int discovers(const pgn_pos *p, unsigned eksq, uint64_t sliders, uint64_t occ) {
    uint64_t rq = p->by_type[PGN_ROOK] | p->by_type[PGN_QUEEN];
    uint64_t bq = p->by_type[PGN_BISHOP] | p->by_type[PGN_QUEEN];
    sliders &= (rook_rays(eksq) & rq) | (bishop_rays(eksq) & bq);
    while (sliders) {
        if (!(between_mask[eksq][bits_pop(&sliders)] & occ)) {
            return 1;
        }
    }
    return 0;
}

/* Which path found a move, when the caller knows: fast_pawn (FAST_PAWN) or fast_piece for a knight
 * or a slider (bishop, rook, queen: FAST_SLIDER, as between_mask is empty for a knight's step) or
 * the king. A constant where the functions below are inlined, so that each path drops the others'
 * branches (issue 32). */
enum { FAST_ANY, FAST_PAWN, FAST_SLIDER, FAST_KING };
/* fast_piece's answer, when lean, for a move that names its origin or has several pieces of its
 * kind reaching the target: the caller hands it to play_pieces */
enum { FAST_MANY = 2 };

/* Does the move (from -> to, the piece becoming one that reaches as pgnk_reach[row] does: one
 * load, where a switch on the type was a jump mispredicted on most moves and the masks that
 * replaced it twenty instructions, issue 32) give check? The side to move cannot be giving check
 * already (the FEN reader refuses such positions), so it is the moved piece from its new square,
 * or a slider of ours on the line through the enemy king and `from` that nothing else blocks once
 * the move is made. Our sliders that could give check along the enemy king's lines are one mask
 * (rooks and queens on its ranks and files, bishops and queens on its diagonals), where choosing
 * the kind from the line's direction took twice the instructions (issue 32). A move along that
 * line needs no test of its own: its piece still stands between (a slider cannot pass another,
 * nor a piece the king). Both are masks rather than branches (which were mispredicted on a fifth
 * of the moves, issue 32): only a slider found on the line is looked at one by one. */
static ALWAYS_INLINE int gives_check(const pgn_pos *p, unsigned from, unsigned to, unsigned row,
                                     int path, unsigned type) {
    pgn_color us = (pgn_color)p->side, them = (pgn_color)(us ^ 1u);
    unsigned eksq = king_square(p, them);
    uint64_t f = bits_sq(from), t = bits_sq(to);
    uint64_t occ = (p->by_type[0] & ~f) | t;
    uint64_t rays = pgnk_reach[row][eksq]; /* a king gives no check itself */
    /* between_mask is empty for a knight's step or a pawn's capture: their test is one load (a
     * promotion's piece checks as that piece), and a king's none */
    int direct = path == FAST_KING ? 0
                 : path == FAST_PAWN && type == PGN_PAWN
                     ? (rays & t) != 0
                     : ((rays & t) != 0) & ((between_mask[eksq][to] & occ) == 0);
    /* a slider of ours on the line through the enemy king and `from` (other than the mover) may
     * be uncovered; whether it moves along that line is left to discovers (a slider that does,
     * standing behind a piece of its own kind, is still blocked: that piece alone between would
     * be giving check already) */
    uint64_t others = path == FAST_SLIDER || path == FAST_ANY ? ~f : BB_ALL; /* (a slider moving) */
    uint64_t sliders = line_mask[eksq][from] & p->by_color[us] & others &
                       (p->by_type[PGN_ROOK] | p->by_type[PGN_BISHOP] | p->by_type[PGN_QUEEN]);
    return direct | (sliders && discovers(p, eksq, sliders, occ));
}

/* Pieces of ours (by type, after a move) and whether one of them attacks sq (occupancy occ). */
typedef struct after_bb {
    uint64_t type[7];
    uint64_t us;
    pgn_color them;
} after_bb;

static int after_attacks(const after_bb *a, unsigned sq, uint64_t occ) {
    uint64_t rq = (a->type[PGN_ROOK] | a->type[PGN_QUEEN]) & a->us;
    uint64_t bq = (a->type[PGN_BISHOP] | a->type[PGN_QUEEN]) & a->us;
    return ((knight_attacks[sq] & a->type[PGN_KNIGHT]) | (king_attacks[sq] & a->type[PGN_KING]) |
            (pawn_attacks(a->them, sq) & a->type[PGN_PAWN])) &
               a->us ||
           clear_lines(sq, (rook_rays(sq) & rq) | (bishop_rays(sq) & bq), occ);
}

/* '#' or '+' for a move (from -> to, the piece becoming `type`) that gives check: only the
 * replies tell. The enemy king's steps are tried on the pieces' bitboards after the move; with no
 * safe step, the move is played on a copy for the full test. Out of line (the copies would weigh
 * on every move's stack frame). */
static NOINLINE char mate_or_check(const pgn_pos *p, pgn_move mv, unsigned type) {
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    pgn_color us = (pgn_color)p->side, them = (pgn_color)(us ^ 1u);
    uint64_t f = bits_sq(from), t = bits_sq(to);
    after_bb a;
    for (unsigned k = 0; k < 7; k++) {
        a.type[k] = p->by_type[k] & ~t;
    }
    a.type[PGN_PIECE_TYPE(p->board[from])] &= ~f;
    a.type[type] |= t;
    a.us = (p->by_color[us] & ~f) | t;
    a.them = them;
    unsigned eksq = king_square(p, them);
    uint64_t occ = ((p->by_type[0] & ~f) | t) ^ bits_sq(eksq);
    uint64_t steps = king_attacks[eksq] & ~(p->by_color[them] & ~t);
    while (steps) {
        if (!after_attacks(&a, bits_pop(&steps), occ)) {
            return '+';
        }
    }
    /* the king's steps are known to be unsafe (as pgnk_chess_has_legal_move would find them
     * again): the other pieces' moves decide */
    pgn_pos q = *p;
    pgn_pos_play_unkeyed(&q, mv);
    return pgnk_chess_generate_std(&q, ~bits_sq(eksq), BB_ALL, NULL) ? '+' : '#';
}

static pgn_move fast_move(unsigned from, unsigned to, unsigned promo) {
    unsigned kind = promo ? (unsigned)PGN_MOVE_PROMOTION : (unsigned)PGN_MOVE_NORMAL;
    return (pgn_move)(from | (to << 6) | (kind << 12) |
                      ((promo ? promo - (unsigned)PGN_KNIGHT : 0u) << 14));
}

/* A fast-path move: origin, target, promotion piece (0: none), the piece type moving and whether
 * the text wrote a capture mark. */
typedef struct fast_desc {
    unsigned from, to, promo, type;
    int capture_mark;
    int safe;    /* the side to move is known not to be in check */
    char suffix; /* the check sign written (verified: the one the move needs) */
} fast_desc;

/* Is the king's target `to` safe once the king (the only one in `all`) has left its square? A
 * disambiguated king move is left to the general path. Inline in pgnk_san_play's king moves,
 * which have a function of their own (1.6M fewer instructions of check on the book's first 5 MB,
 * issue 32); out of line (fast_king_safe) in pgn_san_parse's one function for every piece, so that
 * its masks do not weigh on the other pieces' moves. */
static ALWAYS_INLINE int king_safe(const pgn_pos *p, unsigned to, uint64_t all, int disambiguated) {
    pgn_color us = (pgn_color)p->side;
    uint64_t enemy = p->by_color[us ^ 1u];
    return all && !disambiguated && !(knight_attacks[to] & p->by_type[PGN_KNIGHT] & enemy) &&
           !(pawn_attacks(us, to) & p->by_type[PGN_PAWN] & enemy) &&
           !(king_attacks[to] & p->by_type[PGN_KING] & enemy) &&
           !slider_hits(p, to, enemy, p->by_type[0] ^ all);
}
static NOINLINE int fast_king_safe(const pgn_pos *p, unsigned to, uint64_t all, int disambiguated) {
    return king_safe(p, to, all, disambiguated);
}

/* Several pieces reach the target: the one written, if its disambiguation is the one canonical
 * SAN needs among the legal origins (file, else rank; both needed: the general path). */
static NOINLINE int pick_among(const pgn_pos *p, uint64_t cands, unsigned to, int df, int dr,
                               int safe) {
    uint64_t legal = 0;
    while (cands) {
        unsigned from = bits_pop(&cands);
        if (move_is_legal(p, from, to, safe)) {
            legal |= bits_sq(from);
        }
    }
    uint64_t mask =
        (df >= 0 ? BB_FILE_A << df : BB_ALL) & (dr >= 0 ? BB_RANK_1 << (8 * dr) : BB_ALL);
    uint64_t chosen = legal & mask;
    if (!chosen || bits_many(chosen)) {
        return -1;
    }
    unsigned from = bits_ctz(chosen);
    uint64_t others = legal & ~chosen;
    int need_file = others != 0 && !(others & (BB_FILE_A << (from & 7)));
    int need_rank = others != 0 && !need_file && !(others & (BB_RANK_1 << (from & 56)));
    if (others && !need_file && !need_rank) {
        return -1;
    }
    return (df >= 0) == need_file && (dr >= 0) == need_rank ? (int)from : -1;
}

/* A piece move's disambiguation byte c: its file (*df) or its rank (*dr); 0 if it is neither. */
static inline int read_origin(unsigned c, int *df, int *dr) {
    if (c - (unsigned)'a' < 8u) {
        *df = (int)(c - (unsigned)'a');
    } else if (c - (unsigned)'1' < 8u) {
        *dr = (int)(c - (unsigned)'1');
    } else {
        return 0;
    }
    return 1;
}

/* A piece move: N [file|rank] [x] file rank (len without the suffix). The target is the last two
 * bytes and the capture mark the one before them, so the text is read from its end: only a
 * disambiguated move has a byte left between the letter and those (issue 32). The capture mark
 * is held against the board here, before any candidate is looked for. Lean (pgnk_san_play's
 * functions for one kind of piece): a disambiguated move, or several pieces reaching the target,
 * is FAST_MANY, so that neither the disambiguation nor pick_among's call weighs on the common
 * move's function (issue 32); one slider is looked at without clear_lines' loop. */
static ALWAYS_INLINE int fast_piece(const pgn_pos *p, const char *s, size_t len, fast_desc *m,
                                    int path, int lean) {
    unsigned tf = (unsigned char)s[len - 2] - (unsigned)'a';
    unsigned tr = (unsigned char)s[len - 1] - (unsigned)'1';
    if (len < 3 || (tf | tr) > 7u) {
        return 0;
    }
    m->capture_mark = s[len - 3] == 'x'; /* (len 3: the letter) */
    size_t mid = len - 3 - (size_t)m->capture_mark;
    int df = -1, dr = -1;
    if (mid) {
        if (lean) {
            return FAST_MANY;
        }
        if (mid > 1 || !read_origin((unsigned char)s[1], &df, &dr)) {
            return 0;
        }
    }
    unsigned to = tr * 8u + tf;
    uint64_t t = bits_sq(to), occ = p->by_type[0];
    uint64_t mine = p->by_color[p->side];
    m->to = to;
    if ((mine & t) || m->capture_mark != ((occ & t) != 0)) {
        return 0;
    }
    mine &= p->by_type[m->type];
    if (path == FAST_KING || (path == FAST_ANY && m->type == PGN_KING)) {
        uint64_t k = king_attacks[to] & mine;
        m->from = k ? bits_ctz(k) : 0;
        return lean ? king_safe(p, to, k, 0) : fast_king_safe(p, to, k, mid != 0);
    }
    uint64_t cands = pgnk_reach[m->type][to] & mine;
    if (path == FAST_SLIDER && !bits_many(cands)) {
        /* the common case, one slider on the target's lines: does it see the target? (none:
         * bit 63 stands in for its square, and the mask is empty whatever it finds) */
        uint64_t one = between_mask[to][bits_ctz(cands | UINT64_C(1) << 63)];
        cands &= 0 - (uint64_t)((one & occ) == 0);
    } else if (path == FAST_SLIDER || (path == FAST_ANY && m->type != PGN_KNIGHT)) {
        cands = clear_lines(to, cands, occ); /* nothing stands between a knight and its target */
    }
    if (bits_many(cands)) {
        if (lean) {
            return FAST_MANY;
        }
        int from = pick_among(p, cands, to, df, dr, m->safe);
        m->from = (unsigned)from;
        return from >= 0;
    }
    /* one piece reaches the target: no disambiguation is canonical */
    if (!cands || mid) {
        return 0;
    }
    m->from = bits_ctz(cands);
    return move_is_legal(p, m->from, to, m->safe);
}

/* A pawn move: e4, exd5, e8=Q, exd8=Q (len without the suffix), then the one pawn that makes it,
 * legally. Read from its end as a piece move is: the last two bytes are the target (or, after a
 * promotion's =Q is taken off, the two before), so a capture is the one shape four bytes long. The
 * coordinates are checked together as unsigned offsets, a capture's files as one difference, and a
 * target on the first or last rank (without a promotion) is refused before the origin is worked
 * out, so that the origin is always on the board (one test for either side, issue 32). Without
 * `promos` (pgnk_san_play's common pawn move) a promotion is no pawn move here. A capture and a
 * push differ by arithmetic on the capture mark and the side to move, not by branches (mispredicted
 * on a third of the pawn moves, issue 32): the target's test, the square behind and the double
 * step. */
static ALWAYS_INLINE int fast_pawn(const pgn_pos *p, const char *s, size_t len, fast_desc *m,
                                   int promos) {
    unsigned us = p->side;
    unsigned tr = (unsigned char)s[len - 1] - (unsigned)'1';
    size_t core = len;
    if (tr > 7u) { /* a promotion (rare): the piece after '=' */
        if (!promos || len < 4 || s[len - 2] != '=') {
            return 0; /* (before core - 1 could fall before s: "--" is no pawn move) */
        }
        int pt = piece_from_letter(s[len - 1]);
        core = len - 2;
        tr = (unsigned char)s[core - 1] - (unsigned)'1';
        if (pt < PGN_KNIGHT || pt > PGN_QUEEN || tr != 7u - 7u * us) {
            return 0;
        }
        m->promo = (unsigned)pt;
    } else if (tr - 1u > 5u) {
        return 0; /* the last rank needs a promotion piece; no pawn reaches the first */
    }
    unsigned cap = core == 4;
    unsigned ff = (unsigned char)s[0] - (unsigned)'a';
    unsigned tf = (unsigned char)s[core - 2] - (unsigned)'a'; /* a push: s[0] again */
    m->capture_mark = (int)cap;
    /* two bytes or four (a capture, whose second is its mark: a push's is its rank); a capture's
     * files differ by one: tf - ff + 1 is 0 or 2 (a push's are the same: 1) */
    if (((ff | tf) > 7u) | (((core - 2u) & ~(size_t)2u) != 0) | ((s[1] == 'x') != cap) |
        (((tf - ff + 1u) & ~2u) != (cap ^ 1u))) {
        return 0;
    }
    unsigned to = tr * 8u + tf, up = 8u - 16u * us; /* (unsigned: -8 for black) */
    uint64_t t = bits_sq(to), occ = p->by_type[0], c = 0 - (uint64_t)cap;
    /* a capture takes an enemy piece (none: en passant, the general path), a push an empty one */
    if (!(((p->by_color[us ^ 1u] & c) | (~occ & ~c)) & t)) {
        return 0;
    }
    unsigned from = to - up + ff - tf;
    /* a push onto our fourth rank over an empty square: a double step */
    unsigned two = (cap ^ 1u) & (unsigned)((occ >> from & 1u) == 0) & (unsigned)(tr == 3u + us);
    from -= up & (0u - two);
    m->to = to;
    m->from = from;
    return (pieces_of(p, (pgn_color)us, PGN_PAWN) & bits_sq(from)) &&
           move_is_legal(p, from, to, m->safe);
}

/* Is sq attacked by the side not to move, under occupancy occ? */
static int attacked(const pgn_pos *p, unsigned sq, uint64_t occ) {
    pgn_color us = (pgn_color)p->side;
    uint64_t enemy = p->by_color[us ^ 1u];
    return ((knight_attacks[sq] & p->by_type[PGN_KNIGHT]) |
            (king_attacks[sq] & p->by_type[PGN_KING]) |
            (pawn_attacks(us, sq) & p->by_type[PGN_PAWN])) &
               enemy ||
           slider_hits(p, sq, enemy, occ);
}

/* Castling of the side to move with the one rook with rights on that side (1 h-side, 2 a-side),
 * by the rules movegen.c's gen_castles applies; several such rooks: the general search. With
 * `safe` (the side to move known not to be in check) the king's own square is not looked at. */
static pgn_move fast_find_castle(const pgn_pos *p, int side, int safe) {
    pgn_color us = (pgn_color)p->side;
    uint64_t kings = pieces_of(p, us, PGN_KING), occ = p->by_type[0];
    if (!kings) {
        return PGN_MOVE_NONE;
    }
    unsigned ksq = bits_ctz(kings);
    uint64_t above = ~(kings | (kings - 1));
    uint64_t rooks = p->castle & pieces_of(p, us, PGN_ROOK) & (side == 1 ? above : kings - 1);
    if (!rooks || bits_many(rooks)) {
        return rooks ? pgnk_san_find_castle(p, side, -1) : PGN_MOVE_NONE;
    }
    unsigned rsq = bits_ctz(rooks);
    unsigned kto = pgnk_chess_castle_king_to(ksq, rsq), rto = pgnk_chess_castle_rook_to(ksq, rsq);
    uint64_t movers = kings | rooks;
    uint64_t kpath = between_mask[ksq][kto] | bits_sq(kto);
    if ((kpath | between_mask[rsq][rto] | bits_sq(rto)) & occ & ~movers) {
        return PGN_MOVE_NONE;
    }
    if (!safe && attacked(p, ksq, occ)) {
        return PGN_MOVE_NONE;
    }
    occ ^= movers;
    while (kpath) {
        if (attacked(p, bits_pop(&kpath), occ)) {
            return PGN_MOVE_NONE;
        }
    }
    return PGN_MOVE_MAKE(ksq, rsq, PGN_MOVE_CASTLE, 0);
}

/* The suffix castling mv needs: our sliders (the rook on its new square) looked at from the enemy
 * king over the board after it; a check needs the replies. */
static char castle_suffix(const pgn_pos *p, pgn_move mv) {
    pgn_color us = (pgn_color)p->side;
    unsigned ksq = PGN_MOVE_FROM(mv), rsq = PGN_MOVE_TO(mv);
    uint64_t rto = bits_sq(pgnk_chess_castle_rook_to(ksq, rsq));
    uint64_t movers = bits_sq(ksq) | bits_sq(rsq);
    uint64_t occ = (p->by_type[0] & ~movers) | rto | bits_sq(pgnk_chess_castle_king_to(ksq, rsq));
    uint64_t own = p->by_color[us];
    uint64_t rq = (((p->by_type[PGN_ROOK] & own) & ~movers) | rto) | (p->by_type[PGN_QUEEN] & own);
    uint64_t bq = (p->by_type[PGN_BISHOP] | p->by_type[PGN_QUEEN]) & own;
    unsigned eksq = king_square(p, (pgn_color)(us ^ 1u));
    if (!clear_lines(eksq, (rook_rays(eksq) & rq) | (bishop_rays(eksq) & bq), occ)) {
        return 0;
    }
    return pgnk_san_check_suffix(p, mv);
}

/* O-O and O-O-O with the right suffix (or none asked for). */
static pgn_move fast_castle(const pgn_pos *p, const char *s, size_t len, uint32_t flags,
                            char suffix, int safe) {
    int side = len == 3 && memcmp(s, "O-O", 3) == 0     ? 1
               : len == 5 && memcmp(s, "O-O-O", 5) == 0 ? 2
                                                        : 0;
    pgn_move mv = side ? fast_find_castle(p, side, safe) : PGN_MOVE_NONE;
    if (mv == PGN_MOVE_NONE || (!(flags & PGN_SAN_NO_VERIFY) && castle_suffix(p, mv) != suffix)) {
        return PGN_MOVE_NONE;
    }
    return mv;
}

/* The piece standing on the target after the move m (found by the path). */
static ALWAYS_INLINE unsigned fast_type_after(const fast_desc *m, int path) {
    return path > FAST_PAWN    ? m->type
           : path == FAST_PAWN ? (m->promo ? m->promo : PGN_PAWN)
           : m->promo          ? m->promo
                               : m->type;
}

/* The end of every piece or pawn move that fast_piece or fast_pawn found (m; both held its
 * capture mark against the board): the check sign against the move's (flags: PGN_SAN_NO_VERIFY
 * skips it). The move, or PGN_MOVE_NONE for the general path. */
/* Does the move m give check (by the path as fast_finish below)? */
static ALWAYS_INLINE int fast_checks(const pgn_pos *p, const fast_desc *m, int path) {
    unsigned type = fast_type_after(m, path);
    /* a pawn checks as a pawn of its colour captures (pgnk_reach's rows 1 ^ colour) */
    unsigned row = path > FAST_PAWN ? type : type ^ ((type == PGN_PAWN) & (p->side ^ 1u));
    return gives_check(p, m->from, m->to, row, path, type);
}

static ALWAYS_INLINE pgn_move fast_finish(const pgn_pos *p, const fast_desc *m, uint32_t flags,
                                          int path) {
    pgn_move mv = fast_move(m->from, m->to, m->promo);
    if (!(flags & PGN_SAN_NO_VERIFY)) {
        char want = fast_checks(p, m, path) ? mate_or_check(p, mv, fast_type_after(m, path)) : 0;
        if (want != m->suffix) {
            return PGN_MOVE_NONE;
        }
    }
    return mv;
}

/* The check sign at the end of s: stripped from *len and returned (0: none). */
static inline char fast_suffix(const char *s, size_t *len) {
    char suffix = 0;
    if (*len > 0 && (s[*len - 1] == '+' || s[*len - 1] == '#')) {
        suffix = s[--*len];
    }
    return suffix;
}

/* Resolves canonical SAN s (len bytes) on p: the move, or PGN_MOVE_NONE for the general path. */
static pgn_move san_fast(const pgn_pos *p, const char *s, size_t len, uint32_t flags) {
    fast_desc m;
    m.safe = 0;
    m.suffix = fast_suffix(s, &len);
    if (len < 2 || len > 6) {
        return PGN_MOVE_NONE;
    }
    m.promo = 0;
    if (s[0] == 'O') {
        return fast_castle(p, s, len, flags, m.suffix, 0);
    }
    m.type = fast_letter(s[0]);
    if (m.type >= PGN_KNIGHT) {
        if (!fast_piece(p, s, len, &m, FAST_ANY, 0)) {
            return PGN_MOVE_NONE;
        }
    } else {
        m.type = PGN_PAWN;
        if (!fast_pawn(p, s, len, &m, 1)) {
            return PGN_MOVE_NONE;
        }
    }
    return fast_finish(p, &m, flags, FAST_ANY);
}

/* Plays the normal move or promotion m, which fast_finish accepted, as pgn_pos_play_unkeyed
 * does, from what the resolver knows: the piece moving, and by the path (a constant where
 * inlined) whether it is a pawn or the king. */
static ALWAYS_INLINE void play_known(pgn_pos *p, const fast_desc *m, int path) {
    int pawn = path == FAST_PAWN;
    int king = path == FAST_KING || (path == FAST_ANY && m->type == PGN_KING);
    unsigned us = p->side;
    uint64_t f = bits_sq(m->from), t = bits_sq(m->to);
    unsigned victim = PGN_PIECE_TYPE(p->board[m->to]);
    unsigned now = m->promo ? m->promo : m->type;
    uint64_t home = us == PGN_WHITE ? BB_RANK_1 : BB_RANK_8;
    p->by_color[us ^ 1u] &= ~t;
    p->by_type[victim] &= ~t; /* (no victim: by_type[0], set again below) */
    p->by_type[m->type] ^= f;
    p->by_type[now] |= t;
    p->by_type[0] = (p->by_type[0] & ~f) | t;
    p->by_color[us] ^= f | t;
    p->board[m->from] = 0;
    p->board[m->to] = PGN_PIECE(us, now);
    p->castle &= ~(f | t | (king ? home : 0));
    p->ep =
        pawn && (m->from ^ m->to) == 16 ? (uint8_t)((m->from + m->to) / 2) : (uint8_t)PGN_SQ_NONE;
    /* a capture or a pawn move resets the clock: a mask, not a branch (issue 32) */
    p->halfmove = (uint16_t)((p->halfmove + 1u) & (0u - (unsigned)(victim == 0 && !pawn)));
    p->fullmove += us;
    p->side = (uint8_t)(us ^ 1u);
    p->key = 0;
}

static pgn_move play_pieces(pgn_pos *p, const char *s, size_t len, unsigned type, int *safe,
                            char suffix);

/* pgnk_san_play's piece moves (three functions, below), pawn move and castling, each out of line
 * with its own registers and reached by a jump (one function for all kept a hundred bytes of values
 * on the stack, issue 32): the move played, or PGN_MOVE_NONE with *p unchanged; *safe as there.
 * The check test's answer is kept rather than folded into the sign wanted, so that a move without
 * a check needs no second look at the sign to say the next side is not in check, and *safe is
 * stored once (3.6M fewer instructions of check on the book's first 5 MB, issue 32). */
static ALWAYS_INLINE pgn_move play_one(pgn_pos *p, const char *s, size_t len, unsigned type,
                                       int *safe, char suffix, int path, int promos) {
    fast_desc m;
    m.safe = *safe;
    m.suffix = suffix;
    m.promo = 0;
    m.type = type;
    int found = path == FAST_PAWN ? fast_pawn(p, s, len, &m, promos)
                                  : fast_piece(p, s, len, &m, path, path != FAST_ANY);
    if (found == FAST_MANY) {
        return play_pieces(p, s, len, type, safe, suffix);
    }
    /* the sign written must be the one the move needs (fast_finish's test) */
    int check = found && fast_checks(p, &m, path);
    if (!found ||
        (check ? mate_or_check(p, fast_move(m.from, m.to, m.promo), fast_type_after(&m, path))
               : 0) != suffix) {
        *safe = 0;
        return PGN_MOVE_NONE;
    }
    play_known(p, &m, path);
    *safe = !check;
    return fast_move(m.from, m.to, m.promo);
}

/* A piece move that names its origin or has several pieces of its kind reaching the target
 * (rare): apart, so that the common move's function holds no values for it (issue 32). */
static NOINLINE pgn_move play_pieces(pgn_pos *p, const char *s, size_t len, unsigned type,
                                     int *safe, char suffix) {
    return play_one(p, s, len, type, safe, suffix, FAST_ANY, 0);
}

/* A piece move: a knight's or a slider's, and the king's, each in its own function with its path
 * a constant, so that its table rows are fixed addresses and the others' branches drop out (one
 * function for each type, a switch, was 13% fewer instructions but slower: its jump was
 * mispredicted, issue 32). The knight takes the sliders' function, where nothing stands between
 * it and its target (between_mask is empty for its step): one branch fewer to choose the function,
 * whose mispredicts were a third of the reader's (cachegrind), for 1.5% more instructions
 * (2026-12-07, issue 32). */
static NOINLINE pgn_move play_slider(pgn_pos *p, const char *s, size_t len, int *safe, char suffix,
                                     unsigned type) {
    return play_one(p, s, len, type, safe, suffix, FAST_SLIDER, 0);
}
static NOINLINE pgn_move play_king(pgn_pos *p, const char *s, size_t len, int *safe, char suffix) {
    return play_one(p, s, len, PGN_KING, safe, suffix, FAST_KING, 0);
}

/* A pawn's move; a promotion (rare) in a function of its own, so that the common move knows that
 * it keeps its piece (issue 32). */
static NOINLINE pgn_move play_promotion(pgn_pos *p, const char *s, size_t len, int *safe,
                                        char suffix) {
    return play_one(p, s, len, PGN_PAWN, safe, suffix, FAST_PAWN, 1);
}
static NOINLINE pgn_move play_pawn(pgn_pos *p, const char *s, size_t len, int *safe, char suffix) {
    if ((unsigned char)s[len - 1] - (unsigned)'1' > 7u) {
        return play_promotion(p, s, len, safe, suffix);
    }
    return play_one(p, s, len, PGN_PAWN, safe, suffix, FAST_PAWN, 0);
}

/* Castling mv (king to rook, as PGN_MOVE_CASTLE encodes it) played as pgn_pos_play_unkeyed does:
 * both pieces off their squares, then on their new ones (in Chess960 a new square may be the
 * other's old one); the king's move takes its side's rights (issue 32: the general play was a
 * quarter of a castling's cost). */
static void play_castling(pgn_pos *p, pgn_move mv) {
    unsigned us = p->side, ksq = PGN_MOVE_FROM(mv), rsq = PGN_MOVE_TO(mv);
    unsigned kto = pgnk_chess_castle_king_to(ksq, rsq), rto = pgnk_chess_castle_rook_to(ksq, rsq);
    uint64_t k = bits_sq(ksq), r = bits_sq(rsq), kt = bits_sq(kto), rt = bits_sq(rto);
    p->by_color[us] = (p->by_color[us] & ~(k | r)) | kt | rt;
    p->by_type[0] = (p->by_type[0] & ~(k | r)) | kt | rt;
    p->by_type[PGN_KING] = (p->by_type[PGN_KING] & ~k) | kt;
    p->by_type[PGN_ROOK] = (p->by_type[PGN_ROOK] & ~r) | rt;
    p->board[ksq] = 0;
    p->board[rsq] = 0;
    p->board[kto] = (uint8_t)PGN_PIECE(us, PGN_KING);
    p->board[rto] = (uint8_t)PGN_PIECE(us, PGN_ROOK);
    p->castle &= ~(k | r | (us == PGN_WHITE ? BB_RANK_1 : BB_RANK_8));
    p->ep = PGN_SQ_NONE;
    p->halfmove++;
    p->fullmove += us;
    p->side = (uint8_t)(us ^ 1u);
    p->key = 0;
}

static NOINLINE pgn_move play_castle(pgn_pos *p, const char *s, size_t len, int *safe,
                                     char suffix) {
    pgn_move mv = fast_castle(p, s, len, 0, suffix, *safe);
    *safe = 0;
    if (mv != PGN_MOVE_NONE) {
        play_castling(p, mv);
        *safe = suffix == 0;
    }
    return mv;
}

pgn_move pgnk_san_play(pgn_pos *pos, const char *san, size_t len, int *safe) {
    char suffix = fast_suffix(san, &len);
    if (pgnk_pos_general(pos) || len < 2 || len > 6) {
        *safe = 0;
        return PGN_MOVE_NONE;
    }
    unsigned type = fast_letter(san[0]);
    if (type >= PGN_KNIGHT) {
        if (type == PGN_KING) {
            return play_king(pos, san, len, safe, suffix);
        }
        return play_slider(pos, san, len, safe, suffix, type);
    }
    if (san[0] != 'O') {
        return play_pawn(pos, san, len, safe, suffix);
    }
    return play_castle(pos, san, len, safe, suffix);
}

pgn_status pgn_san_parse(const pgn_pos *pos, const char *san, size_t len, uint32_t flags,
                         pgn_san_result *out) {
    /* variant positions (drops, explosions, other check rules) and positions where a side has no
     * king take the general path */
    if (!(flags & PGN_SAN_NO_FAST) && !pgnk_pos_general(pos)) {
        pgn_move mv = san_fast(pos, san, len, flags);
        if (mv != PGN_MOVE_NONE) {
            out->move = mv;
            out->warnings = 0;
            return PGN_OK;
        }
    }
    return pgnk_san_general(pos, san, len, flags, out);
}
