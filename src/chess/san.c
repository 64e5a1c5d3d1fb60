/* SPDX-License-Identifier: MIT */
/* SAN (PGN §8.2.3): the canonical writer (disambiguation by legal moves only: file, then rank,
 * then square) and a reader for SAN and its real-world lax forms (digest §5.2, §6.2). The reader
 * generates only the candidate moves (that piece type to that square), never every move as SAN. */
#include "attacks.h"

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

#include <string.h>

static const char piece_letters[] = " PNBRQK";

/* Which origin coordinates canonical SAN needs for mv: bit 0 = file, bit 1 = rank. */
static unsigned needed_disambiguation(const pgn_pos *p, pgn_move mv) {
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    unsigned type = PGN_PIECE_TYPE(p->board[from]);
    if (type == PGN_PAWN) {
        return pgn_move_is_capture(p, mv) ? 1u : 0u;
    }
    if (type == PGN_KING) {
        return 0;
    }
    uint64_t others = pieces_of(p, (pgn_color)p->side, (pgn_piece_type)type) & ~bits_sq(from);
    if (!others) {
        return 0;
    }
    pgn_movelist l;
    pgn_pos_legal_moves_masked(p, others, bits_sq(to), &l);
    int any = 0, same_file = 0, same_rank = 0;
    for (unsigned i = 0; i < l.count; i++) {
        unsigned f = PGN_MOVE_FROM(l.moves[i]);
        if (PGN_MOVE_KIND(l.moves[i]) == PGN_MOVE_CASTLE) {
            continue;
        }
        any = 1;
        same_file |= (f & 7) == (from & 7);
        same_rank |= (f >> 3) == (from >> 3);
    }
    if (!any) {
        return 0;
    }
    if (!same_file) {
        return 1;
    }
    return same_rank ? 3u : 2u;
}

/* '+', '#' or 0 for the position after mv. */
static char check_suffix(const pgn_pos *p, pgn_move mv) {
    pgn_pos q = *p;
    pgn_pos_play_unkeyed(&q, mv);
    if (!pgn_pos_in_check(&q)) {
        return 0;
    }
    return pgnk_chess_has_legal_move(&q) ? '+' : '#';
}

size_t pgn_san_write(const pgn_pos *pos, pgn_move mv, char buf[PGN_SAN_MAX]) {
    size_t n = 0;
    if (mv == PGN_MOVE_NULL) {
        memcpy(buf, "--", 3);
        return 2;
    }
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    if (PGN_MOVE_KIND(mv) == PGN_MOVE_CASTLE) {
        memcpy(buf, to > from ? "O-O" : "O-O-O", to > from ? 3 : 5);
        n = to > from ? 3 : 5;
    } else {
        unsigned type = PGN_PIECE_TYPE(pos->board[from]);
        unsigned need = needed_disambiguation(pos, mv);
        if (type != PGN_PAWN) {
            buf[n++] = piece_letters[type];
        }
        if (need & 1) {
            buf[n++] = (char)('a' + (from & 7));
        }
        if (need & 2) {
            buf[n++] = (char)('1' + (from >> 3));
        }
        if (pgn_move_is_capture(pos, mv)) {
            buf[n++] = 'x';
        }
        buf[n++] = (char)('a' + (to & 7));
        buf[n++] = (char)('1' + (to >> 3));
        if (PGN_MOVE_KIND(mv) == PGN_MOVE_PROMOTION) {
            buf[n++] = '=';
            buf[n++] = piece_letters[PGN_MOVE_PROMO(mv)];
        }
    }
    char c = check_suffix(pos, mv);
    if (c) {
        buf[n++] = c;
    }
    buf[n] = 0;
    return n;
}

/* ---- reading ---- */

/* FORM_SQUARE: a piece letter, the origin square, optional x, the target (Nh4g6, Qa6xb7): canonical
 * SAN when both file and rank are needed (PGN §8.2.3.4), long algebraic otherwise. */
enum { FORM_SAN, FORM_LONG, FORM_UCI, FORM_SQUARE };

typedef struct san_desc {
    int castle; /* 0, 1 = h-side (O-O), 2 = a-side (O-O-O) */
    int piece;  /* pgn_piece_type; PGN_NO_PIECE = take the piece on the origin square */
    int from_file, from_rank, to;
    int promo;        /* 0 or pgn_piece_type */
    int capture_mark; /* x or : written */
    int form;
    char suffix; /* 0, '+', '#' as written ('#' also for ++) */
    uint32_t warn;
} san_desc;

static int is_file(char c) {
    return c >= 'a' && c <= 'h';
}
static int is_rank(char c) {
    return c >= '1' && c <= '8';
}

static int piece_from_letter(char c) {
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

/* Strips trailing check marks, annotation glyphs and e.p. suffixes; records what it saw. */
static size_t strip_suffixes(const char *s, size_t len, san_desc *d) {
    for (;;) {
        if (len > 0 && (s[len - 1] == '!' || s[len - 1] == '?')) {
            len--;
        } else if (len > 0 && (s[len - 1] == '+' || s[len - 1] == '#')) {
            char c = s[--len];
            if (d->suffix == 0) {
                d->suffix = c;
            } else {
                /* more than one mark: ++ (and any run with #) means mate, and is no canonical SAN
                 * (Qh4#+ must not be kept as the move's text) */
                d->warn |= PGN_WARN_BIT(PGN_W_CHECK_SUFFIX);
                if (c == '#' || (c == '+' && d->suffix == '+')) {
                    d->suffix = '#';
                }
            }
        } else if (len > 6 && memcmp(s + len - 4, "e.p.", 4) == 0) {
            len -= 4;
            d->warn |= PGN_WARN_BIT(PGN_W_EP_SUFFIX);
        } else if (len > 4 && memcmp(s + len - 2, "ep", 2) == 0 && is_rank(s[len - 3])) {
            len -= 2;
            d->warn |= PGN_WARN_BIT(PGN_W_EP_SUFFIX);
        } else {
            return len;
        }
    }
}

static int parse_castling(const char *s, size_t len, san_desc *d) {
    unsigned os = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == 'O' || s[i] == '0' || s[i] == 'o') {
            os++;
        } else if (s[i] != '-' || i == 0 || s[i - 1] == '-') {
            return 0;
        }
    }
    if (os != 2 && os != 3) {
        return 0;
    }
    d->castle = os == 2 ? 1 : 2;
    if (!(len == 3 && memcmp(s, "O-O", 3) == 0) && !(len == 5 && memcmp(s, "O-O-O", 5) == 0)) {
        d->warn |= PGN_WARN_BIT(PGN_W_CASTLE_ZERO);
    }
    return 1;
}

/* Promotion after the destination: =Q, Q, =q, q, (Q), /Q. Returns the bytes used or -1. */
static int parse_promotion(const char *s, size_t len, san_desc *d) {
    if (len == 0) {
        return 0;
    }
    size_t i = 0;
    int paren = 0;
    if (s[0] == '=' || s[0] == '/') {
        i = 1;
    } else if (s[0] == '(') {
        i = 1;
        paren = 1;
    }
    if (i >= len) {
        return -1;
    }
    char c = s[i];
    int t = piece_from_letter((char)(c >= 'a' ? c - 32 : c));
    if (t < PGN_KNIGHT || t > PGN_QUEEN) {
        return -1;
    }
    i++;
    if (paren) {
        if (i >= len || s[i] != ')') {
            return -1;
        }
        i++;
    }
    d->promo = t;
    int canonical = s[0] == '=' && c < 'a';
    int uci_style = s[0] != '=' && !paren && s[0] != '/' && c >= 'a';
    if (!canonical && !(uci_style && d->form == FORM_UCI)) {
        d->warn |= PGN_WARN_BIT(PGN_W_PROMOTION_FORM);
    }
    return (int)i;
}

/* The body after an optional piece letter: [file][rank][x|-|:]file rank [promotion]. */
static pgn_status parse_body(const char *s, size_t len, san_desc *d) {
    size_t i = 0;
    int f1 = -1, r1 = -1, sep = 0;
    if (i < len && is_file(s[i])) {
        f1 = s[i++] - 'a';
    }
    if (i < len && is_rank(s[i])) {
        r1 = s[i++] - '1';
    }
    if (i < len && (s[i] == 'x' || s[i] == ':' || s[i] == '-')) {
        sep = s[i++];
    }
    if (i + 2 <= len && is_file(s[i]) && is_rank(s[i + 1])) {
        d->from_file = f1;
        d->from_rank = r1;
        d->to = PGN_SQ(s[i] - 'a', s[i + 1] - '1');
        i += 2;
    } else if (!sep && f1 >= 0 && r1 >= 0) {
        d->to = PGN_SQ(f1, r1);
    } else {
        return PGN_E_BAD_SAN;
    }
    d->capture_mark = sep == 'x' || sep == ':';
    if (d->from_file >= 0 && d->from_rank >= 0) {
        d->form = d->piece == PGN_NO_PIECE ? (sep ? FORM_LONG : FORM_UCI) : FORM_SQUARE;
    }
    if (sep == '-' || sep == ':') {
        d->form = FORM_LONG;
    }
    int used = parse_promotion(s + i, len - i, d);
    if (used < 0 || i + (size_t)used != len) {
        return PGN_E_BAD_SAN;
    }
    return PGN_OK;
}

static pgn_status describe(const char *s, size_t len, san_desc *d, int b_as_bishop) {
    memset(d, 0, sizeof *d);
    d->from_file = d->from_rank = -1;
    len = strip_suffixes(s, len, d);
    if (len == 0) {
        return PGN_E_BAD_SAN;
    }
    if (parse_castling(s, len, d)) {
        return PGN_OK;
    }
    char c = s[0];
    size_t i = 1;
    if (c != 'P' && piece_from_letter(c)) {
        d->piece = piece_from_letter(c);
    } else if (c == 'n' || c == 'r' || c == 'q' || c == 'k' || (c == 'b' && b_as_bishop)) {
        d->piece = piece_from_letter((char)(c - 32));
        d->warn |= PGN_WARN_BIT(PGN_W_LOWERCASE_PIECE);
    } else if (c == 'P' || c == 'p') {
        d->piece = PGN_PAWN;
        d->warn |= PGN_WARN_BIT(PGN_W_PAWN_LETTER);
    } else {
        i = 0;
    }
    return parse_body(s + i, len - i, d);
}

/* A castling move of the side to move: by side (1 h-side, 2 a-side) or by king destination. */
static pgn_move find_castle(const pgn_pos *p, int side, int king_to) {
    unsigned ksq = king_square(p, (pgn_color)p->side);
    pgn_movelist l;
    pgn_pos_legal_moves_masked(p, bits_sq(ksq), p->castle, &l);
    for (unsigned i = 0; i < l.count; i++) {
        pgn_move m = l.moves[i];
        unsigned rsq = PGN_MOVE_TO(m);
        if (PGN_MOVE_KIND(m) != PGN_MOVE_CASTLE) {
            continue;
        }
        if (side && (side == 1) == (rsq > ksq)) {
            return m;
        }
        if (king_to >= 0 && pgnk_chess_castle_king_to(ksq, rsq) == (unsigned)king_to) {
            return m;
        }
    }
    return PGN_MOVE_NONE;
}

/* Resolves a move given by origin and destination squares (UCI, long algebraic). */
static pgn_status resolve_squares(const pgn_pos *p, unsigned from, unsigned to, int promo,
                                  pgn_move *out) {
    unsigned piece = p->board[from];
    if (!piece || PGN_PIECE_COLOR(piece) != p->side) {
        return PGN_E_ILLEGAL_MOVE;
    }
    if (PGN_PIECE_TYPE(piece) == PGN_KING) {
        unsigned target = p->board[to];
        pgn_move m = PGN_MOVE_NONE;
        if (target == PGN_PIECE(p->side, PGN_ROOK)) {
            m = PGN_MOVE_MAKE(from, to, PGN_MOVE_CASTLE, 0);
            m = pgn_pos_is_legal(p, m) ? m : PGN_MOVE_NONE;
        } else if ((from >> 3) == (to >> 3) &&
                   ((from & 7) >= (to & 7) + 2 || (to & 7) >= (from & 7) + 2)) {
            /* a king never steps two files: this is castling written as the king's move (e1g1) */
            m = find_castle(p, 0, (int)to);
        }
        if (m != PGN_MOVE_NONE) {
            *out = m;
            return promo ? PGN_E_ILLEGAL_MOVE : PGN_OK;
        }
    }
    pgn_movelist l;
    pgn_pos_legal_moves_masked(p, bits_sq(from), bits_sq(to), &l);
    for (unsigned i = 0; i < l.count; i++) {
        pgn_move m = l.moves[i];
        unsigned kind = PGN_MOVE_KIND(m);
        if (kind == PGN_MOVE_CASTLE) {
            continue;
        }
        if ((kind == PGN_MOVE_PROMOTION) != (promo != 0)) {
            continue;
        }
        if (promo && (int)PGN_MOVE_PROMO(m) != promo) {
            continue;
        }
        *out = m;
        return PGN_OK;
    }
    return PGN_E_ILLEGAL_MOVE;
}

static pgn_status match_san(const pgn_pos *p, san_desc *d, uint32_t flags, pgn_move *out) {
    if (d->castle) {
        *out = find_castle(p, d->castle, -1);
        return *out ? PGN_OK : PGN_E_ILLEGAL_MOVE;
    }
    if (d->from_file >= 0 && d->from_rank >= 0 && d->piece == PGN_NO_PIECE) {
        return resolve_squares(p, (unsigned)PGN_SQ(d->from_file, d->from_rank), (unsigned)d->to,
                               d->promo, out);
    }
    int type = d->piece ? d->piece : PGN_PAWN;
    uint64_t from = pieces_of(p, (pgn_color)p->side, (pgn_piece_type)type);
    if (d->from_file >= 0) {
        from &= BB_FILE_A << d->from_file;
    } else if (type == PGN_PAWN && d->capture_mark) {
        if (d->piece != PGN_PAWN) {
            return PGN_E_BAD_SAN; /* xd5: a pawn capture needs its file */
        }
        from &= ~(BB_FILE_A << (d->to & 7)); /* Pxd5 (T40): a capture from either side */
    } else if (type == PGN_PAWN) {
        from &= BB_FILE_A << (d->to & 7); /* no file: a push, never a capture */
    }
    if (d->from_rank >= 0) {
        from &= BB_RANK_1 << (8 * d->from_rank);
    }
    pgn_movelist l;
    pgn_pos_legal_moves_masked(p, from, bits_sq((unsigned)d->to), &l);
    pgn_move found = PGN_MOVE_NONE;
    unsigned n = 0;
    int missing_promo = 0;
    for (unsigned i = 0; i < l.count; i++) {
        pgn_move m = l.moves[i];
        unsigned kind = PGN_MOVE_KIND(m);
        if (kind == PGN_MOVE_CASTLE) {
            continue;
        }
        if (kind == PGN_MOVE_PROMOTION) {
            int want = d->promo ? d->promo : ((flags & PGN_SAN_AUTO_QUEEN) ? PGN_QUEEN : 0);
            missing_promo |= !d->promo;
            if ((int)PGN_MOVE_PROMO(m) != want) {
                continue;
            }
        } else if (d->promo) {
            continue;
        }
        if (found != m) {
            n++;
        }
        found = m;
    }
    if (n == 0) {
        return missing_promo ? PGN_E_BAD_SAN : PGN_E_ILLEGAL_MOVE;
    }
    if (missing_promo) {
        d->warn |= PGN_WARN_BIT(PGN_W_PROMOTION_FORM);
    }
    *out = found;
    return n == 1 ? PGN_OK : PGN_E_AMBIGUOUS_MOVE;
}

/* Warnings that need the resolved move: extra disambiguation, capture mark, check suffix. */
static void check_form(const pgn_pos *p, pgn_move mv, uint32_t flags, san_desc *d) {
    if (!d->castle) {
        int extra = 0;
        if (d->from_file >= 0 || d->from_rank >= 0) {
            unsigned need = needed_disambiguation(p, mv);
            extra = (d->from_file >= 0 && !(need & 1)) || (d->from_rank >= 0 && !(need & 2));
        }
        if (d->form == FORM_UCI) {
            d->warn |= PGN_WARN_BIT(PGN_W_UCI_MOVE);
        } else if (d->form == FORM_LONG || (d->form == FORM_SQUARE && extra)) {
            d->warn |= PGN_WARN_BIT(PGN_W_LONG_ALGEBRAIC);
        } else if (extra) {
            d->warn |= PGN_WARN_BIT(PGN_W_OVER_DISAMBIGUATION);
        }
        int capture = pgn_move_is_capture(p, mv);
        if (d->form != FORM_UCI && PGN_MOVE_KIND(mv) != PGN_MOVE_CASTLE &&
            capture != d->capture_mark) {
            d->warn |= PGN_WARN_BIT(PGN_W_CAPTURE_MARK);
        }
    } else if (d->form == FORM_UCI) {
        d->warn |= PGN_WARN_BIT(PGN_W_UCI_MOVE);
    }
    /* UCI never carries check marks */
    if (!(flags & PGN_SAN_NO_VERIFY) && d->form != FORM_UCI && check_suffix(p, mv) != d->suffix) {
        d->warn |= PGN_WARN_BIT(PGN_W_CHECK_SUFFIX);
    }
}

static int is_null_token(const char *s, size_t len) {
    return (len == 2 && (memcmp(s, "--", 2) == 0 || memcmp(s, "Z0", 2) == 0)) ||
           (len == 4 && memcmp(s, "0000", 4) == 0);
}

static pgn_status parse_once(const pgn_pos *p, const char *s, size_t len, uint32_t flags,
                             int b_as_bishop, san_desc *d, pgn_move *mv) {
    pgn_status st = describe(s, len, d, b_as_bishop);
    if (st == PGN_OK) {
        st = match_san(p, d, flags, mv);
    }
    if (st == PGN_OK || st == PGN_E_AMBIGUOUS_MOVE) {
        check_form(p, *mv, flags, d);
    }
    return st;
}

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

static int san_fast(const pgn_pos *p, const char *s, size_t len, uint32_t flags,
                    pgn_san_result *out) {
    char suffix = 0;
    if (len > 0 && (s[len - 1] == '+' || s[len - 1] == '#')) {
        suffix = s[--len];
    }
    if (len < 2 || len > 6) {
        return 0;
    }
    if (s[0] == 'O') { /* O-O, O-O-O */
        int side = len == 3 && memcmp(s, "O-O", 3) == 0     ? 1
                   : len == 5 && memcmp(s, "O-O-O", 5) == 0 ? 2
                                                            : 0;
        pgn_move mv = side ? find_castle(p, side, -1) : PGN_MOVE_NONE;
        if (mv == PGN_MOVE_NONE ||
            (!(flags & PGN_SAN_NO_VERIFY) && check_suffix(p, mv) != suffix)) {
            return 0;
        }
        out->move = mv;
        out->warnings = 0;
        return 1;
    }
    pgn_color us = (pgn_color)p->side;
    unsigned type = (unsigned)piece_from_letter(s[0]);
    unsigned from, to, promo = 0;
    int capture_mark;
    if (type >= PGN_KNIGHT) {
        /* N [file|rank] [x] file rank */
        size_t i = 1;
        int df = -1, dr = -1;
        if (len - i >= 3 && is_file(s[i]) && (s[i + 1] == 'x' || is_file(s[i + 1]))) {
            df = s[i++] - 'a';
        } else if (len - i >= 3 && is_rank(s[i])) {
            dr = s[i++] - '1';
        }
        capture_mark = s[i] == 'x';
        i += (size_t)capture_mark;
        if (len - i != 2 || !is_file(s[i]) || !is_rank(s[i + 1])) {
            return 0;
        }
        to = (unsigned)PGN_SQ(s[i] - 'a', s[i + 1] - '1');
        uint64_t occ = p->by_type[0];
        if (p->by_color[us] & bits_sq(to)) {
            return 0;
        }
        uint64_t all = attackers_of_type(p, type, to, occ), legal;
        if (type == PGN_KING) {
            uint64_t enemy = p->by_color[!us];
            if (!all || df >= 0 || dr >= 0 ||
                (knight_attacks[to] & p->by_type[PGN_KNIGHT] & enemy) ||
                (pawn_attacks(us, to) & p->by_type[PGN_PAWN] & enemy) ||
                (king_attacks[to] & p->by_type[PGN_KING] & enemy) ||
                slider_hits(p, to, enemy, occ ^ all)) {
                return 0;
            }
            legal = all;
        } else {
            legal = legal_origins(p, all, to);
        }
        uint64_t mask =
            (df >= 0 ? BB_FILE_A << df : BB_ALL) & (dr >= 0 ? BB_RANK_1 << (8 * dr) : BB_ALL);
        uint64_t chosen = legal & mask;
        if (!chosen || bits_many(chosen)) {
            return 0;
        }
        from = bits_ctz(chosen);
        /* the disambiguation written must be the one canonical SAN needs (file, else rank) */
        uint64_t others = legal & ~chosen;
        int need_file = others != 0 && !(others & (BB_FILE_A << (from & 7)));
        int need_rank = others != 0 && !need_file && !(others & (BB_RANK_1 << (from & 56)));
        if (others && !need_file && !need_rank) {
            return 0; /* file and rank both needed: the general path */
        }
        if ((df >= 0) != need_file || (dr >= 0) != need_rank) {
            return 0;
        }
    } else {
        /* e4, exd5, e8=Q, exd8=Q */
        if (!is_file(s[0])) {
            return 0;
        }
        type = PGN_PAWN;
        int ff = s[0] - 'a';
        capture_mark = s[1] == 'x';
        if (capture_mark &&
            (len < 4 || !is_file(s[2]) || (s[2] - 'a' != ff + 1 && s[2] - 'a' != ff - 1))) {
            return 0;
        }
        size_t r_at = capture_mark ? 3 : 1;
        if (!is_rank(s[r_at])) {
            return 0;
        }
        int tf = capture_mark ? s[2] - 'a' : ff;
        int tr = s[r_at] - '1';
        size_t used = r_at + 1;
        int last = us == PGN_WHITE ? 7 : 0;
        if (tr == last) {
            if (len != used + 2 || s[used] != '=') {
                return 0;
            }
            int pt = piece_from_letter(s[used + 1]);
            if (pt < PGN_KNIGHT || pt > PGN_QUEEN) {
                return 0;
            }
            promo = (unsigned)pt;
        } else if (len != used) {
            return 0;
        }
        to = (unsigned)PGN_SQ(tf, tr);
        int dir = us == PGN_WHITE ? -8 : 8;
        uint64_t pawns = pieces_of(p, us, PGN_PAWN);
        int f0;
        if (capture_mark) {
            if (!(p->by_color[!us] & bits_sq(to))) {
                return 0; /* en passant or no capture: the general path */
            }
            f0 = (int)to + dir + (ff - tf);
        } else {
            if (p->by_type[0] & bits_sq(to)) {
                return 0;
            }
            f0 = (int)to + dir;
            if (f0 >= 0 && f0 < 64 && !(p->by_type[0] & bits_sq((unsigned)f0)) &&
                tr == (us == PGN_WHITE ? 3 : 4)) {
                f0 += dir; /* a double step */
            }
        }
        if (f0 < 0 || f0 >= 64) {
            return 0;
        }
        from = (unsigned)f0;
        if (!(pawns & bits_sq(from)) || exposes_king(p, king_square(p, us), from, to)) {
            return 0;
        }
    }
    if (capture_mark != ((p->by_type[0] & bits_sq(to)) != 0)) {
        return 0;
    }
    if (!(flags & PGN_SAN_NO_VERIFY)) {
        char want = 0;
        if (gives_check(p, from, to, promo ? promo : type)) {
            want = mate_or_check(p, fast_move(from, to, promo));
        }
        if (want != suffix) {
            return 0;
        }
    }
    out->move = fast_move(from, to, promo);
    out->warnings = 0;
    return 1;
}

static NOINLINE pgn_status san_general(const pgn_pos *pos, const char *san, size_t len,
                                       uint32_t flags, pgn_san_result *out);

pgn_status pgn_san_parse(const pgn_pos *pos, const char *san, size_t len, uint32_t flags,
                         pgn_san_result *out) {
    if (!(flags & PGN_SAN_NO_FAST) && san_fast(pos, san, len, flags, out)) {
        return PGN_OK;
    }
    return san_general(pos, san, len, flags, out);
}

/* Everything san_fast leaves: null moves, castling, quirks, errors. */
static pgn_status san_general(const pgn_pos *pos, const char *san, size_t len, uint32_t flags,
                              pgn_san_result *out) {
    san_desc d;
    pgn_move mv = PGN_MOVE_NONE;
    out->move = PGN_MOVE_NONE;
    out->warnings = 0;
    if (is_null_token(san, len)) {
        if (!(flags & PGN_SAN_NULL_MOVES) || (flags & PGN_SAN_STRICT)) {
            return PGN_E_BAD_SAN;
        }
        out->move = PGN_MOVE_NULL;
        out->warnings = PGN_WARN_BIT(PGN_W_NULL_MOVE);
        return pgn_pos_in_check(pos) ? PGN_E_ILLEGAL_MOVE : PGN_OK;
    }
    pgn_status st = parse_once(pos, san, len, flags, 0, &d, &mv);
    if (st != PGN_OK && len > 1 && san[0] == 'b' && !(flags & PGN_SAN_STRICT)) {
        /* T39: a lowercase b is a pawn file first; a bishop only if no pawn move matches */
        san_desc d2;
        pgn_move mv2 = PGN_MOVE_NONE;
        if (parse_once(pos, san, len, flags, 1, &d2, &mv2) == PGN_OK) {
            st = PGN_OK;
            d = d2;
            mv = mv2;
        }
    }
    if (st != PGN_OK) {
        return st;
    }
    if ((flags & PGN_SAN_STRICT) && d.warn) {
        return PGN_E_BAD_SAN;
    }
    out->move = mv;
    out->warnings = d.warn;
    return PGN_OK;
}

/* ---- UCI ---- */

size_t pgn_uci_write(const pgn_pos *pos, pgn_move mv, char buf[PGN_UCI_MAX]) {
    if (mv == PGN_MOVE_NULL || mv == PGN_MOVE_NONE) {
        memcpy(buf, "0000", 5);
        return 4;
    }
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    if (PGN_MOVE_KIND(mv) == PGN_MOVE_CASTLE && !pos->chess960) {
        to = pgnk_chess_castle_king_to(from, to);
    }
    size_t n = 0;
    buf[n++] = (char)('a' + (from & 7));
    buf[n++] = (char)('1' + (from >> 3));
    buf[n++] = (char)('a' + (to & 7));
    buf[n++] = (char)('1' + (to >> 3));
    if (PGN_MOVE_KIND(mv) == PGN_MOVE_PROMOTION) {
        buf[n++] = "  nbrq"[PGN_MOVE_PROMO(mv)];
    }
    buf[n] = 0;
    return n;
}

pgn_status pgn_uci_parse(const pgn_pos *pos, const char *uci, size_t len, pgn_move *out) {
    *out = PGN_MOVE_NONE;
    if (len == 4 && memcmp(uci, "0000", 4) == 0) {
        *out = PGN_MOVE_NULL;
        return pgn_pos_in_check(pos) ? PGN_E_ILLEGAL_MOVE : PGN_OK;
    }
    if ((len != 4 && len != 5) || !is_file(uci[0]) || !is_rank(uci[1]) || !is_file(uci[2]) ||
        !is_rank(uci[3])) {
        return PGN_E_BAD_SAN;
    }
    int promo = 0;
    if (len == 5) {
        promo = piece_from_letter((char)(uci[4] >= 'a' ? uci[4] - 32 : uci[4]));
        if (promo < PGN_KNIGHT || promo > PGN_QUEEN) {
            return PGN_E_BAD_SAN;
        }
    }
    return resolve_squares(pos, (unsigned)PGN_SQ(uci[0] - 'a', uci[1] - '1'),
                           (unsigned)PGN_SQ(uci[2] - 'a', uci[3] - '1'), promo, out);
}
