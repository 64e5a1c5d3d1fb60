/* SPDX-License-Identifier: MIT */
/* The general SAN reader: SAN and its real-world lax forms (digest §5.2, §6.2), each tolerated
 * quirk a PGN_W_* warning; UCI moves. Whatever the fast path (san_fast.c) leaves comes here. */
#include "san.h"

#include <string.h>

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
    int king_promo; /* antichess: =K is a promotion */
} san_desc;

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
        } else if (len > 5 && memcmp(s + len - 3, "e.p", 3) == 0 && is_rank(s[len - 4])) {
            len -= 3; /* exd6e.p. glued: the lexer leaves the last period to the next token */
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
    if (t < PGN_KNIGHT || (t > PGN_QUEEN && !(t == PGN_KING && d->king_promo))) {
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

static pgn_status describe(const char *s, size_t len, san_desc *d, int b_as_bishop,
                           int king_promo) {
    memset(d, 0, sizeof *d);
    d->from_file = d->from_rank = -1;
    d->king_promo = king_promo;
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

pgn_move pgnk_san_find_castle(const pgn_pos *p, int side, int king_to) {
    uint64_t kings = pieces_of(p, (pgn_color)p->side, PGN_KING);
    if (!kings) {
        return PGN_MOVE_NONE; /* antichess, horde */
    }
    unsigned ksq = bits_ctz(kings);
    pgn_movelist l;
    pgn_pos_legal_moves_masked(p, bits_sq(ksq), p->castle, &l);
    for (unsigned i = 0; i < l.count; i++) {
        pgn_move m = l.moves[i];
        unsigned rsq = PGN_MOVE_TO(m);
        if (PGN_MOVE_KIND(m) != PGN_MOVE_CASTLE || PGN_MOVE_IS_DROP(m)) {
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

/* Castling (king takes rook) or a crazyhouse drop: never what a SAN with a destination means. */
static int is_castle_or_drop(pgn_move m) {
    return PGN_MOVE_IS_DROP(m) ||
           (PGN_MOVE_KIND(m) == PGN_MOVE_CASTLE && !PGN_MOVE_IS_KING_PROMO(m));
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
            m = pgnk_san_find_castle(p, 0, (int)to);
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
        if (is_castle_or_drop(m) || (int)PGN_MOVE_PROMOTED(m) != promo) {
            continue;
        }
        *out = m;
        return PGN_OK;
    }
    return PGN_E_ILLEGAL_MOVE;
}

static pgn_status match_san(const pgn_pos *p, san_desc *d, uint32_t flags, pgn_move *out) {
    if (d->castle) {
        *out = pgnk_san_find_castle(p, d->castle, -1);
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
        if (is_castle_or_drop(m)) {
            continue;
        }
        if (PGN_MOVE_PROMOTED(m)) {
            int want = d->promo ? d->promo : ((flags & PGN_SAN_AUTO_QUEEN) ? PGN_QUEEN : 0);
            missing_promo |= !d->promo;
            if ((int)PGN_MOVE_PROMOTED(m) != want) {
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
            unsigned need = pgnk_san_needed_disambiguation(p, mv);
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
        if (d->form != FORM_UCI && !is_castle_or_drop(mv) && capture != d->capture_mark) {
            d->warn |= PGN_WARN_BIT(PGN_W_CAPTURE_MARK);
        }
    } else if (d->form == FORM_UCI) {
        d->warn |= PGN_WARN_BIT(PGN_W_UCI_MOVE);
    }
    /* UCI never carries check marks */
    if (!(flags & PGN_SAN_NO_VERIFY) && d->form != FORM_UCI &&
        pgnk_san_check_suffix(p, mv) != d->suffix) {
        d->warn |= PGN_WARN_BIT(PGN_W_CHECK_SUFFIX);
    }
}

static int is_null_token(const char *s, size_t len) {
    return (len == 2 && (memcmp(s, "--", 2) == 0 || memcmp(s, "Z0", 2) == 0)) ||
           (len == 4 && memcmp(s, "0000", 4) == 0);
}

static pgn_status parse_once(const pgn_pos *p, const char *s, size_t len, uint32_t flags,
                             int b_as_bishop, san_desc *d, pgn_move *mv) {
    pgn_status st = describe(s, len, d, b_as_bishop, p->variant == PGN_VARIANT_ANTICHESS);
    if (st == PGN_OK) {
        st = match_san(p, d, flags, mv);
    }
    if (st == PGN_OK || st == PGN_E_AMBIGUOUS_MOVE) {
        check_form(p, *mv, flags, d);
    }
    return st;
}

static int has_at(const char *s, size_t len) {
    return memchr(s, '@', len) != NULL;
}

/* A drop: N@f3, P@e4 or chess.com's @e4 for a pawn, with an optional check mark. */
static pgn_status parse_drop(const pgn_pos *pos, const char *s, size_t len, uint32_t flags,
                             pgn_san_result *out) {
    san_desc d;
    memset(&d, 0, sizeof d);
    len = strip_suffixes(s, len, &d);
    size_t at = len >= 1 && s[0] == '@' ? 0 : 1;
    if (len != at + 3 || s[at] != '@' || !is_file(s[at + 1]) || !is_rank(s[at + 2])) {
        return PGN_E_BAD_SAN;
    }
    int type = at ? piece_from_letter(s[0]) : PGN_PAWN;
    if (type < PGN_PAWN || type > PGN_QUEEN) {
        return PGN_E_BAD_SAN;
    }
    pgn_move mv = PGN_MOVE_MAKE_DROP(type, PGN_SQ(s[at + 1] - 'a', s[at + 2] - '1'));
    if (!pgn_pos_is_legal(pos, mv)) {
        return PGN_E_ILLEGAL_MOVE;
    }
    if (!(flags & PGN_SAN_NO_VERIFY) && pgnk_san_check_suffix(pos, mv) != d.suffix) {
        d.warn |= PGN_WARN_BIT(PGN_W_CHECK_SUFFIX);
    }
    if ((flags & PGN_SAN_STRICT) && d.warn) {
        return PGN_E_BAD_SAN;
    }
    out->move = mv;
    out->warnings = d.warn;
    return PGN_OK;
}

pgn_status pgnk_san_general(const pgn_pos *pos, const char *san, size_t len, uint32_t flags,
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
    if (pos->variant == PGN_VARIANT_CRAZYHOUSE && has_at(san, len)) {
        return parse_drop(pos, san, len, flags, out);
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

pgn_status pgn_uci_parse(const pgn_pos *pos, const char *uci, size_t len, pgn_move *out) {
    *out = PGN_MOVE_NONE;
    if (len == 4 && memcmp(uci, "0000", 4) == 0) {
        *out = PGN_MOVE_NULL;
        return pgn_pos_in_check(pos) ? PGN_E_ILLEGAL_MOVE : PGN_OK;
    }
    if (len == 4 && uci[1] == '@' && is_file(uci[2]) && is_rank(uci[3])) {
        int type = piece_from_letter((char)(uci[0] >= 'a' ? uci[0] - 32 : uci[0]));
        if (type < PGN_PAWN || type > PGN_QUEEN) {
            return PGN_E_BAD_SAN;
        }
        pgn_move mv = PGN_MOVE_MAKE_DROP(type, PGN_SQ(uci[2] - 'a', uci[3] - '1'));
        if (!pgn_pos_is_legal(pos, mv)) {
            return PGN_E_ILLEGAL_MOVE;
        }
        *out = mv;
        return PGN_OK;
    }
    if ((len != 4 && len != 5) || !is_file(uci[0]) || !is_rank(uci[1]) || !is_file(uci[2]) ||
        !is_rank(uci[3])) {
        return PGN_E_BAD_SAN;
    }
    int promo = 0;
    if (len == 5) {
        promo = piece_from_letter((char)(uci[4] >= 'a' ? uci[4] - 32 : uci[4]));
        int king_ok = promo == PGN_KING && pos->variant == PGN_VARIANT_ANTICHESS;
        if ((promo < PGN_KNIGHT || promo > PGN_QUEEN) && !king_ok) {
            return PGN_E_BAD_SAN;
        }
    }
    return resolve_squares(pos, (unsigned)PGN_SQ(uci[0] - 'a', uci[1] - '1'),
                           (unsigned)PGN_SQ(uci[2] - 'a', uci[3] - '1'), promo, out);
}
