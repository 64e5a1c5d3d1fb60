/* SPDX-License-Identifier: MIT */
/* Insufficient material in the variants, as python-chess and lichess define it per variant
 * (docs/variants.md): atomic, antichess, three-check, crazyhouse and horde's White; never in king
 * of the hill, racing kings, nor for horde's Black. Counting only: no allocation, no move made. */
#include "variants.h"

static const uint64_t BB_LIGHT_SQ = UINT64_C(0x55aa55aa55aa55aa);

/* Bishops only, all of one side's on one square colour and the other's on the other colour:
 * they can never meet (atomic: explode each other; antichess: capture each other). */
static int bishops_never_meet(const pgn_pos *p, pgn_color color) {
    uint64_t ours = pieces_of(p, color, PGN_BISHOP), theirs = pieces_of(p, !color, PGN_BISHOP);
    if (!(ours & ~BB_LIGHT_SQ)) {
        return !(theirs & BB_LIGHT_SQ);
    }
    if (!(ours & BB_LIGHT_SQ)) {
        return !(theirs & ~BB_LIGHT_SQ);
    }
    return 0;
}

/* python-chess's AtomicBoard.has_insufficient_material, rule by rule. */
static int atomic_insufficient(const pgn_pos *p, pgn_color color) {
    uint64_t kings = p->by_type[PGN_KING], occ = p->by_type[0];
    if (!(p->by_color[!color] & kings)) {
        return 0;
    }
    if (!(p->by_color[color] & ~kings)) {
        return 1;
    }
    if (p->by_color[!color] & ~kings) {
        return occ == (p->by_type[PGN_BISHOP] | kings) && bishops_never_meet(p, PGN_WHITE);
    }
    if (p->by_type[PGN_QUEEN] | p->by_type[PGN_PAWN]) {
        return 0;
    }
    uint64_t minors = p->by_type[PGN_KNIGHT] | p->by_type[PGN_BISHOP] | p->by_type[PGN_ROOK];
    if (bits_popcount(minors) == 1) {
        return 1;
    }
    return occ == (p->by_type[PGN_KNIGHT] | kings) && bits_popcount(p->by_type[PGN_KNIGHT]) <= 2;
}

/* Antichess (python-chess's giveaway): color cannot lose all its pieces when the other side has
 * none left, when only bishops are left and one of ours stands on a colour where none of theirs
 * does (it can never be taken), or when a knight each is left and the knights never meet with
 * the side to move to take (a knight changes square colour every move). */
static int antichess_insufficient(const pgn_pos *p, pgn_color color) {
    uint64_t ours = p->by_color[color], theirs = p->by_color[!color], occ = p->by_type[0];
    if (!ours || !theirs) {
        return ours != 0;
    }
    if (occ == p->by_type[PGN_BISHOP]) {
        return ((ours & BB_LIGHT_SQ) && !(theirs & BB_LIGHT_SQ)) ||
               ((ours & ~BB_LIGHT_SQ) && !(theirs & ~BB_LIGHT_SQ));
    }
    if (occ == p->by_type[PGN_KNIGHT] && bits_popcount(occ) == 2) {
        int parity = (color == PGN_WHITE) ^ ((p->by_color[PGN_WHITE] & BB_LIGHT_SQ) != 0) ^
                     ((p->by_color[PGN_BLACK] & ~BB_LIGHT_SQ) != 0);
        return (p->side == PGN_WHITE) == parity;
    }
    return 0;
}

static unsigned pocket_count(const pgn_pos *p, unsigned type) {
    return (unsigned)p->pocket[0][type] + p->pocket[1][type];
}

static int crazyhouse_insufficient(const pgn_pos *p) {
    unsigned total = bits_popcount(p->by_type[0]);
    for (unsigned t = PGN_PAWN; t <= PGN_QUEEN; t++) {
        total += pocket_count(p, t);
    }
    uint64_t heavy = p->by_type[PGN_PAWN] | p->by_type[PGN_ROOK] | p->by_type[PGN_QUEEN];
    return total <= 3 && !p->promoted && !heavy && !pocket_count(p, PGN_PAWN) &&
           !pocket_count(p, PGN_ROOK) && !pocket_count(p, PGN_QUEEN);
}

/* ---- Horde: can the horde (White, no king) still mate? ----
 * The rule lichess and python-chess use, derived by S. Papazis (horde-insufficient-material-tests,
 * whose positions tests/data/variant-material-python-chess.tsv samples): it looks only at the
 * material. The king's side can always win by taking the whole horde, so Black is never short. */

/* One side's pieces by type, its bishops by square colour. */
typedef struct side_count {
    unsigned p, n, b, r, q, light, dark;
} side_count;

typedef struct horde_count {
    side_count w, k; /* the horde's units and Black's pieces */
    unsigned units;  /* p + n + r + q + bishops of the horde, at most two of each square colour */
    unsigned all;    /* Black's pieces, the king included */
    /* Black's bishops on the square colour of the horde's bishops (light when it has one there),
     * and on the other colour */
    unsigned same, other;
} horde_count;

static unsigned count(const pgn_pos *p, pgn_color c, pgn_piece_type t) {
    return bits_popcount(pieces_of(p, c, t));
}

static void side_count_of(const pgn_pos *p, pgn_color c, side_count *s) {
    uint64_t bishops = pieces_of(p, c, PGN_BISHOP);
    s->p = count(p, c, PGN_PAWN);
    s->n = count(p, c, PGN_KNIGHT);
    s->b = bits_popcount(bishops);
    s->r = count(p, c, PGN_ROOK);
    s->q = count(p, c, PGN_QUEEN);
    s->light = bits_popcount(bishops & BB_LIGHT_SQ);
    s->dark = s->b - s->light;
}

static void horde_count_of(const pgn_pos *p, horde_count *h) {
    side_count_of(p, PGN_WHITE, &h->w);
    side_count_of(p, PGN_BLACK, &h->k);
    const side_count *w = &h->w;
    h->units =
        w->p + w->n + w->r + w->q + (w->light < 2 ? w->light : 2) + (w->dark < 2 ? w->dark : 2);
    h->all = bits_popcount(p->by_color[PGN_BLACK]);
    h->same = w->light ? h->k.light : h->k.dark;
    h->other = w->light ? h->k.dark : h->k.light;
}

/* A lone knight mates only a king smothered in a corner by enough of its own pieces, or one that
 * Black's pawns, promoted, help into a self-mate: four pieces or more, two of them fit. */
static int lone_knight_can_mate(const horde_count *h) {
    if (h->all < 4) {
        return 0;
    }
    int pair = h->k.n >= 2 || h->k.p >= 2 || (h->k.r && (h->k.n || h->k.b || h->k.p)) ||
               (h->k.n && (h->k.b || h->k.p)) || (h->k.b && h->k.p);
    /* two bishops of one colour block no square of the other: they do not count as a pair */
    return pair && (h->k.dark < 2 || h->all - h->k.dark >= 3) &&
           (h->k.light < 2 || h->all - h->k.light >= 3);
}

/* One unit (not a pawn) against Black's pieces: whether it can never mate. */
static int lone_unit_short(const horde_count *h) {
    if (h->all == 1) {
        return 1; /* one piece never mates a bare king */
    }
    /* a queen: a king in the corner, walled in by a pawn or rook, or two bishops of a colour */
    if (h->w.q) {
        return !(h->k.p || h->k.r || h->k.light >= 2 || h->k.dark >= 2);
    }
    if (h->w.r) { /* a king in the corner, two of its own pieces beside it */
        return !(h->k.p >= 2 || (h->k.r && (h->k.p || h->k.n)) || (h->k.p && h->k.n));
    }
    if (h->w.b) { /* blockers on the squares the bishop does not see */
        return !(h->other >= 2 || (h->other && h->k.p) || h->k.p >= 2);
    }
    return !lone_knight_can_mate(h);
}

/* Two minor pieces (or a rook and a bishop against bishops of the bishop's colour). */
static int two_units_short(const horde_count *h) {
    if (h->all == 1) {
        return 1;
    }
    if (h->w.n == 2) {
        return !(h->k.p || h->k.b || h->k.n);
    }
    if (h->w.light && h->w.dark) { /* the bishop pair */
        return !(h->k.p || h->k.b || (h->k.n && (h->k.r || h->k.q)));
    }
    if (h->w.b && h->w.n) {
        return !(h->k.p || h->other || h->all - h->same >= 3);
    }
    /* two bishops of one colour: Black must block the squares of the other colour */
    return !((h->k.p && (h->other || h->k.n)) || (h->other && h->k.n) || h->other >= 2 ||
             h->k.n >= 2 || h->k.p >= 2);
}

static int horde_insufficient(const pgn_pos *p) {
    horde_count h;
    horde_count_of(p, &h);
    if (h.units == 0) {
        return 1;
    }
    if (h.units >= 4 || ((h.w.p || h.w.q) && h.units >= 2)) {
        return 0;
    }
    if (h.w.r && h.units >= 2 &&
        !(h.units == 2 && h.w.r == 1 && h.w.b == 1 && h.all - h.same == 1)) {
        return 0;
    }
    if (h.units == 1 &&
        h.w.p) { /* the pawn promotes: short only if neither a queen nor a knight mates */
        horde_count q = h, n = h;
        q.w.p = n.w.p = 0;
        q.w.q = 1;
        n.w.n = 1;
        return lone_unit_short(&q) && lone_unit_short(&n);
    }
    if (h.units == 1) {
        return lone_unit_short(&h);
    }
    if (h.units == 2) {
        return two_units_short(&h);
    }
    /* three minor pieces: two knights and a bishop, three knights or the bishop pair mate; two
     * bishops of a colour and a knight need a spare black piece to lose a tempo */
    if ((h.w.n == 2 && h.w.b == 1) || h.w.n == 3 || (h.w.light && h.w.dark)) {
        return 0;
    }
    return h.all == 1;
}

int pgnk_variant_insufficient(const pgn_pos *p, pgn_color color) {
    switch ((pgn_variant)p->variant) {
    case PGN_VARIANT_ATOMIC: return atomic_insufficient(p, color);
    case PGN_VARIANT_ANTICHESS: return antichess_insufficient(p, color);
    case PGN_VARIANT_THREECHECK: return !(p->by_color[color] & ~p->by_type[PGN_KING]);
    case PGN_VARIANT_CRAZYHOUSE: return crazyhouse_insufficient(p);
    case PGN_VARIANT_HORDE: return color == PGN_WHITE && horde_insufficient(p);
    default: return 0; /* king of the hill, racing kings: a win is always possible */
    }
}
