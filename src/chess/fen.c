/* SPDX-License-Identifier: MIT */
/* FEN (PGN §16.1) reading with full validation, X-FEN and Shredder-FEN castling (digest §7.4),
 * and writing with a choice of en passant convention (digest §7.3). */
#include "variants.h"
#include "fen_ranks.h"

#include <string.h>

typedef struct fen_reader {
    const char *s;
    size_t len, i;
    uint32_t flags;
    pgn_fen_diag *diag;
    uint32_t warnings;
    pgn_variant variant;
} fen_reader;

static pgn_status fail(fen_reader *r, size_t at, unsigned field, const char *reason) {
    if (r->diag) {
        r->diag->code = PGN_E_BAD_FEN;
        r->diag->column = (uint32_t)at + 1;
        r->diag->field = field;
        r->diag->reason = reason;
        r->diag->warnings = r->warnings;
    }
    return PGN_E_BAD_FEN;
}

/* A tolerated quirk: a warning in lax mode, an error under PGN_FEN_STRICT. */
static int quirk(fen_reader *r, pgn_status w) {
    if (r->flags & PGN_FEN_STRICT) {
        return 0;
    }
    r->warnings |= PGN_WARN_BIT(w);
    return 1;
}

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Moves to the next field; returns its start or r->len if there is none. */
static size_t next_field(fen_reader *r) {
    size_t start = r->i;
    while (r->i < r->len && is_space(r->s[r->i])) {
        r->i++;
    }
    if (r->i - start > 1 && r->i < r->len && (r->flags & PGN_FEN_STRICT)) {
        return (size_t)-1;
    }
    return r->i;
}

static size_t field_end(const fen_reader *r, size_t at) {
    while (at < r->len && !is_space(r->s[at])) {
        at++;
    }
    return at;
}

static int piece_of_char(char c) {
    static const char letters[] = "pnbrqk";
    for (int t = 0; t < 6; t++) {
        if (c == letters[t]) {
            return PGN_PIECE(PGN_BLACK, t + 1);
        }
        if (c == letters[t] - 32) {
            return PGN_PIECE(PGN_WHITE, t + 1);
        }
    }
    return 0;
}

/* Crazyhouse pockets: the letters from `at` to `end` (brackets already stripped). */
static pgn_status parse_pocket(fen_reader *r, pgn_pos *p, size_t at, size_t end) {
    unsigned total = 0;
    for (size_t k = at; k < end; k++) {
        int piece = piece_of_char(r->s[k]);
        unsigned type = PGN_PIECE_TYPE(piece);
        if (!piece || type == PGN_KING) {
            return fail(r, k, 1, "invalid piece in the pocket");
        }
        if (++total > 64) {
            return fail(r, k, 1, "more than 64 pieces in the pockets");
        }
        p->pocket[PGN_PIECE_COLOR(piece)][type]++;
    }
    return PGN_OK;
}

/* Whether a crazyhouse pocket starts at k, after the eight ranks: [pocket] or a ninth rank. */
static int pocket_starts(const fen_reader *r, size_t k, int rank, int file) {
    if (r->variant != PGN_VARIANT_CRAZYHOUSE || rank != 0 || file != 8) {
        return 0;
    }
    return r->s[k] == '[' || r->s[k] == '/';
}

static pgn_status placement_pocket(fen_reader *r, pgn_pos *p, size_t k, size_t end) {
    if (r->s[k] == '/') {
        return parse_pocket(r, p, k + 1, end);
    }
    if (r->s[end - 1] != ']') {
        return fail(r, end, 1, "pocket without a closing ]");
    }
    return parse_pocket(r, p, k + 1, end - 1);
}

static pgn_status parse_placement(fen_reader *r, pgn_pos *p) {
    size_t end = field_end(r, r->i);
    int rank = 7, file = 0;
    char prev = 0;
    for (size_t k = r->i; k < end; k++) {
        char c = r->s[k];
        if (pocket_starts(r, k, rank, file)) {
            pgn_status st = placement_pocket(r, p, k, end);
            if (st != PGN_OK) {
                return st;
            }
            break;
        }
        if (c == '~' && r->variant == PGN_VARIANT_CRAZYHOUSE && file > 0 && piece_of_char(prev) &&
            PGN_PIECE_TYPE(piece_of_char(prev)) != PGN_KING) {
            p->promoted |= bits_sq((unsigned)(rank * 8 + file - 1));
            prev = c;
            continue;
        }
        if (c == '/') {
            if (file != 8) {
                return fail(r, k, 1,
                            file < 8 ? "rank has fewer than 8 squares"
                                     : "rank has more than 8 squares");
            }
            if (--rank < 0) {
                return fail(r, k, 1, "more than 8 ranks");
            }
            file = 0;
        } else if (c >= '1' && c <= '8') {
            if (prev >= '1' && prev <= '8') { /* §16.1.3.1: one digit counts a run (issue 35) */
                return fail(r, k, 1,
                            "two digits in a row: one digit counts a run of empty squares");
            }
            file += c - '0';
            if (file > 8) {
                return fail(r, k, 1, "rank has more than 8 squares");
            }
        } else {
            int piece = piece_of_char(c);
            if (!piece) {
                return fail(r, k, 1, "invalid character in piece placement");
            }
            if (file > 7) {
                return fail(r, k, 1, "rank has more than 8 squares");
            }
            pgnk_chess_put_piece(p, (unsigned)piece, (unsigned)(rank * 8 + file));
            file++;
        }
        prev = c;
    }
    if (end == r->i) {
        return fail(r, r->i, 1, "empty piece placement");
    }
    if (rank != 0 || file != 8) {
        return fail(r, end, 1, rank != 0 ? "fewer than 8 ranks" : "rank has fewer than 8 squares");
    }
    r->i = end;
    return PGN_OK;
}

/* The rook for a castling letter: K/Q = outermost rook on that side of the king, A-H = file. */
static int castle_rook(const pgn_pos *p, pgn_color c, char letter) {
    unsigned back = c == PGN_WHITE ? 0 : 56;
    uint64_t rooks = pieces_of(p, c, PGN_ROOK) & (c == PGN_WHITE ? BB_RANK_1 : BB_RANK_8);
    uint64_t king = pieces_of(p, c, PGN_KING) & (c == PGN_WHITE ? BB_RANK_1 : BB_RANK_8);
    char l = (char)(letter | 32);
    if (l >= 'a' && l <= 'h') {
        unsigned sq = back + (unsigned)(l - 'a');
        return (rooks & bits_sq(sq)) && king ? (int)sq : -1;
    }
    if (!king) {
        return -1;
    }
    unsigned ksq = bits_ctz(king);
    uint64_t side = l == 'k' ? rooks & ~((bits_sq(ksq) << 1) - 1) : rooks & (bits_sq(ksq) - 1);
    if (!side) {
        return -1;
    }
    return (int)(l == 'k' ? 63 - bits_clz(side) : bits_ctz(side));
}

static pgn_status parse_castling(fen_reader *r, pgn_pos *p) {
    size_t end = field_end(r, r->i);
    if (end - r->i == 1 && r->s[r->i] == '-') {
        r->i = end;
        return PGN_OK;
    }
    if (end == r->i || end - r->i > 4) {
        return fail(r, r->i, 3, "invalid castling field");
    }
    for (size_t k = r->i; k < end; k++) {
        char c = r->s[k];
        if (!(c == 'K' || c == 'Q' || c == 'k' || c == 'q' || (c >= 'A' && c <= 'H') ||
              (c >= 'a' && c <= 'h'))) {
            return fail(r, k, 3, "invalid character in castling field");
        }
        pgn_color col = (c >= 'a') ? PGN_BLACK : PGN_WHITE;
        int sq = castle_rook(p, col, c);
        if (sq < 0) {
            if (!quirk(r, PGN_W_FEN_CASTLING_DROPPED)) {
                return fail(r, k, 3, "castling right without a king and rook on the back rank");
            }
            continue;
        }
        if (p->castle & bits_sq((unsigned)sq)) {
            return fail(r, k, 3, "castling right given twice");
        }
        /* one rook per side of the king (FCfc with the king on a8 named two h-side rooks) */
        uint64_t back = col == PGN_WHITE ? BB_RANK_1 : BB_RANK_8;
        unsigned ksq = bits_ctz(pieces_of(p, col, PGN_KING) & back);
        uint64_t h_side = ~((bits_sq(ksq) << 1) - 1);
        uint64_t same = p->castle & back & ((unsigned)sq > ksq ? h_side : bits_sq(ksq) - 1);
        if (same) {
            return fail(r, k, 3, "two castling rights on one side of the king");
        }
        p->castle |= bits_sq((unsigned)sq);
    }
    r->i = end;
    return PGN_OK;
}

static int is_chess960_setup(const pgn_pos *p) {
    for (unsigned c = 0; c < 2; c++) {
        uint64_t back = c == PGN_WHITE ? BB_RANK_1 : BB_RANK_8;
        uint64_t rooks = p->castle & back;
        if (!rooks) {
            continue;
        }
        uint64_t corners = back & (BB_FILE_A | BB_FILE_H);
        uint64_t king = pieces_of(p, (pgn_color)c, PGN_KING) & back;
        if ((rooks & ~corners) || !(king & UINT64_C(0x1000000000000010))) {
            return 1;
        }
    }
    return 0;
}

static pgn_status parse_ep(fen_reader *r, pgn_pos *p) {
    size_t end = field_end(r, r->i);
    if (end - r->i == 1 && r->s[r->i] == '-') {
        r->i = end;
        return PGN_OK;
    }
    const char *s = r->s + r->i;
    if (end - r->i != 2 || s[0] < 'a' || s[0] > 'h' || (s[1] != '3' && s[1] != '6')) {
        return fail(r, r->i, 4, "invalid en passant square");
    }
    if ((s[1] == '6') != (p->side == PGN_WHITE)) {
        return fail(r, r->i, 4, "en passant square on the wrong rank for the side to move");
    }
    unsigned ep = PGN_SQ((unsigned)(s[0] - 'a'), (unsigned)(s[1] - '1'));
    unsigned pawn = p->side == PGN_WHITE ? ep - 8 : ep + 8;
    unsigned origin = p->side == PGN_WHITE ? ep + 8 : ep - 8;
    if (p->board[pawn] != PGN_PIECE(!p->side, PGN_PAWN) || p->board[ep] || p->board[origin]) {
        if (!quirk(r, PGN_W_FEN_EP_DROPPED)) {
            return fail(r, r->i, 4,
                        "no pawn can just have made a double step to this en passant square");
        }
    } else {
        p->ep = (uint8_t)ep;
    }
    r->i = end;
    return PGN_OK;
}

static int parse_uint(fen_reader *r, uint32_t max, uint32_t *out) {
    size_t end = field_end(r, r->i);
    uint32_t v = 0;
    if (end == r->i || end - r->i > 9) {
        return 0;
    }
    for (size_t k = r->i; k < end; k++) {
        if (r->s[k] < '0' || r->s[k] > '9') {
            return 0;
        }
        v = v * 10 + (uint32_t)(r->s[k] - '0');
    }
    if (v > max) {
        return 0;
    }
    *out = v;
    r->i = end;
    return 1;
}

/* Moves to counter field `field` (5 halfmove clock, 6 fullmove number): *at its start, or r->len
 * when it is missing and that is tolerated (PGN_W_FEN_MISSING_COUNTERS); else the failure. */
static pgn_status counter_field(fen_reader *r, unsigned field, const char *missing, size_t *at) {
    *at = next_field(r);
    if (*at == (size_t)-1) {
        return fail(r, r->i, field, "more than one space between fields");
    }
    if (*at >= r->len && !quirk(r, PGN_W_FEN_MISSING_COUNTERS)) {
        return fail(r, r->len, field, missing);
    }
    return PGN_OK;
}

/* Three-check counters at r->i: "2+3" (checks remaining, before the clocks) or, given,
 * "+1+0" (lichess, after them). Returns 1 if the field was one. */
static int parse_checks(fen_reader *r, pgn_pos *p) {
    size_t end = field_end(r, r->i), at = r->i;
    const char *s = r->s + at;
    size_t n = end - at;
    int given = n == 4 && s[0] == '+';
    if (r->variant != PGN_VARIANT_THREECHECK || (n != 3 && !given)) {
        return 0;
    }
    s += given;
    if (s[0] < '0' || s[0] > '3' || s[1] != '+' || s[2] < '0' || s[2] > '3') {
        return 0;
    }
    p->checks[0] = (uint8_t)(given ? 3 - (s[0] - '0') : s[0] - '0');
    p->checks[1] = (uint8_t)(given ? 3 - (s[2] - '0') : s[2] - '0');
    r->i = end;
    return 1;
}

static pgn_status parse_counters(fen_reader *r, pgn_pos *p) {
    uint32_t v = 0;
    size_t at;
    pgn_status st = counter_field(r, 5, "missing halfmove clock and fullmove number", &at);
    if (st == PGN_OK && at < r->len && parse_checks(r, p)) {
        st = counter_field(r, 5, "missing halfmove clock and fullmove number", &at);
    }
    if (st != PGN_OK || at >= r->len) {
        return st;
    }
    if (!parse_uint(r, 65535, &v)) {
        return fail(r, at, 5, "invalid halfmove clock");
    }
    p->halfmove = (uint16_t)v;
    if ((st = counter_field(r, 6, "missing fullmove number", &at)) != PGN_OK || at >= r->len) {
        return st;
    }
    if (!parse_uint(r, 999999999, &v)) {
        return fail(r, at, 6, "invalid fullmove number");
    }
    if (v == 0) {
        if (!quirk(r, PGN_W_FEN_FULLMOVE_ZERO)) {
            return fail(r, at, 6, "fullmove number 0");
        }
        v = 1;
    }
    p->fullmove = v;
    return PGN_OK;
}

/* The kings and checks each variant allows (standard: one king each, the side not to move not
 * in check). */
static pgn_status validate_variant(fen_reader *r, pgn_pos *p, size_t side_at) {
    pgn_variant v = r->variant;
    unsigned nw = bits_popcount(pieces_of(p, PGN_WHITE, PGN_KING));
    unsigned nb = bits_popcount(pieces_of(p, PGN_BLACK, PGN_KING));
    if (v == PGN_VARIANT_ANTICHESS) {
        return PGN_OK;
    }
    if (nw > 1 || nb > 1) {
        return fail(r, 0, 1, nw > 1 ? "more than one white king" : "more than one black king");
    }
    if ((v == PGN_VARIANT_ATOMIC && nw + nb == 0) || (v == PGN_VARIANT_HORDE && nb == 0) ||
        (v != PGN_VARIANT_ATOMIC && v != PGN_VARIANT_HORDE && nw + nb != 2)) {
        return fail(r, 0, 1, nb ? "no white king" : "no black king");
    }
    uint64_t bad_pawns = v == PGN_VARIANT_HORDE
                             ? (pieces_of(p, PGN_WHITE, PGN_PAWN) & BB_RANK_8) |
                                   (pieces_of(p, PGN_BLACK, PGN_PAWN) & (BB_RANK_1 | BB_RANK_8))
                             : p->by_type[PGN_PAWN] & (BB_RANK_1 | BB_RANK_8);
    if (bad_pawns) {
        return fail(r, 0, 1, "pawn on the first or last rank");
    }
    /* atomic: the side not to move may stand attacked (a move that explodes the enemy king may
     * leave the mover's own king attacked; python-chess's and scalachess's atomic positions with
     * an opposite check, issue 35); its king is taken only by an explosion */
    if (v != PGN_VARIANT_ATOMIC && pgnk_variant_king_attacked(p, (pgn_color)!p->side)) {
        return fail(r, side_at, 2, "the side not to move is in check");
    }
    if (v == PGN_VARIANT_RACINGKINGS && pgnk_variant_king_attacked(p, (pgn_color)p->side)) {
        return fail(r, side_at, 2, "a king is in check in racing kings");
    }
    /* both kings home with Black to move: the race ended before White's last move (Black home
     * first won, Black home after White drew), so no game reaches it (python-chess's RACE_OVER) */
    if (v == PGN_VARIANT_RACINGKINGS && p->side == PGN_BLACK &&
        bits_many(p->by_type[PGN_KING] & BB_RANK_8)) {
        return fail(r, side_at, 2,
                    "both kings on the eighth rank with Black to move: the race was over before");
    }
    return PGN_OK;
}

/* Standard chess: at most one king each; a side without one (a study, an exercise: issue 28
 * point 4, as python-chess reads them) marks the position kingless, and its moves know no king
 * safety. No pawn on the back ranks; the side not to move, if it has a king, not in check. */
static pgn_status validate(fen_reader *r, pgn_pos *p, size_t side_at) {
    if (r->variant != PGN_VARIANT_STANDARD) {
        p->variant = (uint8_t)r->variant;
        return validate_variant(r, p, side_at);
    }
    unsigned kings[2];
    for (unsigned c = 0; c < 2; c++) {
        kings[c] = bits_popcount(pieces_of(p, (pgn_color)c, PGN_KING));
        if (kings[c] > 1) {
            return fail(r, 0, 1, c ? "more than one black king" : "more than one white king");
        }
    }
    if (p->by_type[PGN_PAWN] & (BB_RANK_1 | BB_RANK_8)) {
        return fail(r, 0, 1, "pawn on the first or last rank");
    }
    p->kingless = (uint8_t)(kings[0] + kings[1] < 2);
    if (pgnk_variant_king_attacked(p, (pgn_color)!p->side)) {
        return fail(r, side_at, 2, "the side not to move is in check");
    }
    return PGN_OK;
}

/* Moves to field number `field` (2 to 4), which must be there: *at its start. A failure names two
 * spaces between fields (strict) or the missing field. */
static pgn_status to_field(fen_reader *r, unsigned field, const char *missing, size_t *at) {
    *at = next_field(r);
    if (*at == (size_t)-1 || *at >= r->len) {
        return fail(r, r->i, field,
                    *at == (size_t)-1 ? "more than one space between fields" : missing);
    }
    return PGN_OK;
}

/* The side to move, one letter at `at`. */
static pgn_status parse_side(fen_reader *r, pgn_pos *p, size_t at) {
    if (field_end(r, at) != at + 1 || (r->s[at] != 'w' && r->s[at] != 'b')) {
        return fail(r, at, 2, "side to move is not w or b");
    }
    p->side = r->s[at] == 'w' ? PGN_WHITE : PGN_BLACK;
    r->i = at + 1;
    return PGN_OK;
}

/* The six fields into *p (not yet validated as a whole); *side_at: where the side to move is. */
static pgn_status parse_fields(fen_reader *r, pgn_pos *p, size_t *side_at) {
    size_t at;
    pgn_status st = parse_placement(r, p);
    if (st != PGN_OK || (st = to_field(r, 2, "missing side to move", side_at)) != PGN_OK ||
        (st = parse_side(r, p, *side_at)) != PGN_OK ||
        (st = to_field(r, 3, "missing castling field", &at)) != PGN_OK ||
        (st = parse_castling(r, p)) != PGN_OK ||
        (st = to_field(r, 4, "missing en passant field", &at)) != PGN_OK ||
        (st = parse_ep(r, p)) != PGN_OK || (st = parse_counters(r, p)) != PGN_OK) {
        return st;
    }
    at = next_field(r);
    if (at != (size_t)-1 && at < r->len && r->s[at] == '+' && parse_checks(r, p)) {
        at = next_field(r); /* lichess's three-check counters, after the clocks */
    }
    if (at != (size_t)-1 && at < r->len) {
        return fail(r, at, 6, "unexpected text after the fullmove number");
    }
    return PGN_OK;
}

pgn_status pgn_fen_parse(pgn_pos *out, const char *fen, size_t len, uint32_t flags,
                         pgn_fen_diag *diag) {
    return pgn_fen_parse_variant(out, PGN_VARIANT_STANDARD, fen, len, flags, diag);
}

pgn_status pgn_fen_parse_variant(pgn_pos *out, pgn_variant variant, const char *fen, size_t len,
                                 uint32_t flags, pgn_fen_diag *diag) {
    fen_reader r = {fen, len, 0, flags, diag, 0, variant};
    pgn_pos p;
    pgnk_chess_clear(&p);
    if ((unsigned)variant >= PGN_VARIANT_COUNT) {
        r.variant = PGN_VARIANT_STANDARD;
    }
    if (r.variant == PGN_VARIANT_THREECHECK) {
        p.checks[0] = p.checks[1] = 3;
    }
    if (diag) {
        diag->code = PGN_OK;
        diag->column = 0;
        diag->field = 0;
        diag->reason = "ok";
        diag->warnings = 0;
    }
    if (!(flags & PGN_FEN_STRICT)) {
        while (len > 0 && is_space(fen[len - 1])) {
            r.len = --len;
        }
        next_field(&r);
    }
    size_t side_at = 0;
    pgn_status st = parse_fields(&r, &p, &side_at);
    if (st != PGN_OK || (st = validate(&r, &p, side_at)) != PGN_OK) {
        return st;
    }
    p.chess960 = (flags & PGN_FEN_CHESS960) || is_chess960_setup(&p);
    p.key = pgn_pos_compute_key(&p);
    if (diag) {
        diag->warnings = r.warnings;
    }
    *out = p;
    return PGN_OK;
}

static size_t put_uint(char *b, uint32_t v) {
    char tmp[12];
    size_t n = 0;
    if (v < 10) { /* the halfmove clock of most positions */
        b[0] = (char)('0' + v);
        return 1;
    }
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++) {
        b[i] = tmp[n - 1 - i];
    }
    return n;
}

static size_t write_castling(const pgn_pos *p, uint32_t flags, char *b) {
    size_t n = 0;
    if (p->castle == 0) {
        b[0] = '-';
        return 1;
    }
    for (unsigned c = 0; c < 2; c++) {
        uint64_t back = c == PGN_WHITE ? BB_RANK_1 : BB_RANK_8;
        uint64_t rights = p->castle & back;
        uint64_t rooks = pieces_of(p, (pgn_color)c, PGN_ROOK) & back;
        uint64_t king = pieces_of(p, (pgn_color)c, PGN_KING) & back;
        if (!rights || !king) {
            continue;
        }
        unsigned ksq = bits_ctz(king);
        uint64_t hside = rights & ~((bits_sq(ksq) << 1) - 1), aside = rights & (bits_sq(ksq) - 1);
        uint64_t sides[2] = {hside, aside};
        for (unsigned s = 0; s < 2; s++) {
            if (!sides[s]) {
                continue;
            }
            unsigned rsq = s == 0 ? 63 - bits_clz(sides[s]) : bits_ctz(sides[s]);
            uint64_t outer =
                s == 0 ? rooks & ~((bits_sq(rsq) << 1) - 1) & back : rooks & (bits_sq(rsq) - 1);
            char letter;
            if (flags & PGN_FEN_SHREDDER || outer) {
                letter = (char)('A' + (rsq & 7));
            } else {
                letter = s == 0 ? 'K' : 'Q';
            }
            b[n++] = c == PGN_WHITE ? letter : (char)(letter | 32);
        }
    }
    if (n == 0) {
        b[n++] = '-';
    }
    return n;
}

static int write_ep_square(const pgn_pos *p, uint32_t flags) {
    if (p->ep == PGN_SQ_NONE) {
        return 0;
    }
    if (flags & PGN_FEN_EP_ALWAYS) {
        return 1;
    }
    if (flags & PGN_FEN_EP_PSEUDO) {
        return (pawn_attacks((pgn_color)!p->side, p->ep) &
                pieces_of(p, (pgn_color)p->side, PGN_PAWN)) != 0;
    }
    return pgn_pos_has_legal_ep(p);
}

/* The text of one rank, table-driven so that no branch depends on the position: the text of its
 * 8 squares and of the 8 run-length digits is indexed through fen_rank_layout (tables.inc) by the
 * rank's occupancy (from the occupied-squares bitboard, which the library keeps equal to the
 * board). Returns 8 bytes, character i in bits 8i..8i+7 (put8 stores them; the bytes past the
 * rank's length are filler), and its length. */
static uint64_t rank_text(const pgn_pos *pos, unsigned rank, size_t *len) {
    static const char letters[17] = " PNBRQK  pnbrqk ";
    const uint8_t *sq = pos->board + rank * 8;
    char sym[17] = "        12345678";
    uint64_t v = 0;
    for (unsigned f = 0; f < 8; f++) {
        sym[f] = letters[sq[f] & 15];
    }
    const uint8_t *layout = fen_rank_layout[(pos->by_type[0] >> (rank * 8)) & 0xffu];
    for (unsigned i = 0; i < 8; i++) {
        v |= (uint64_t)(unsigned char)sym[layout[1 + i]] << (8 * i);
    }
    *len = layout[0];
    return v;
}

/* Stores the 8 bytes of a rank_text value (one store where the compiler merges them). */
static void put8(char *b, uint64_t v) {
    for (unsigned i = 0; i < 8; i++) {
        b[i] = (char)(v >> (8 * i));
    }
}

/* Three-check counters: remaining "2+3", or with PGN_FEN_LICHESS_CHECKS given "+1+0". */
static size_t write_checks(const pgn_pos *pos, uint32_t flags, char *b) {
    size_t n = 0;
    b[n++] = ' ';
    int given = (flags & PGN_FEN_LICHESS_CHECKS) != 0;
    for (unsigned c = 0; c < 2; c++) {
        if (given || c == 1) {
            b[n++] = '+';
        }
        unsigned left = pos->checks[c] > 3 ? 3 : pos->checks[c];
        b[n++] = (char)('0' + (given ? 3 - left : left));
    }
    return n;
}

/* The fields after the piece placement, from the space before the side to move. */
static size_t write_rest(const pgn_pos *pos, uint32_t flags, char *b) {
    size_t n = 0;
    b[n++] = ' ';
    b[n++] = pos->side == PGN_WHITE ? 'w' : 'b';
    b[n++] = ' ';
    n += write_castling(pos, flags, b + n);
    b[n++] = ' ';
    if (write_ep_square(pos, flags)) {
        b[n++] = (char)('a' + (pos->ep & 7));
        b[n++] = (char)('1' + (pos->ep >> 3));
    } else {
        b[n++] = '-';
    }
    int checks = pos->variant == PGN_VARIANT_THREECHECK;
    if (checks && !(flags & PGN_FEN_LICHESS_CHECKS)) {
        n += write_checks(pos, flags, b + n);
    }
    if (!(flags & PGN_FEN_EPD)) {
        b[n++] = ' ';
        n += put_uint(b + n, pos->halfmove);
        b[n++] = ' ';
        n += put_uint(b + n, pos->fullmove);
    }
    if (checks && (flags & PGN_FEN_LICHESS_CHECKS)) {
        n += write_checks(pos, flags, b + n);
    }
    return n;
}

/* A crazyhouse placement: promoted pieces marked ~, then the pockets ([Qn] or a ninth rank). */
static size_t write_crazyhouse_placement(const pgn_pos *pos, uint32_t flags, char *b) {
    static const char letters[17] = " PNBRQK  pnbrqk ";
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        unsigned empty = 0;
        for (unsigned f = 0; f < 8; f++) {
            unsigned sq = (unsigned)rank * 8 + f, piece = pos->board[sq];
            if (!piece) {
                empty++;
                continue;
            }
            if (empty) {
                b[n++] = (char)('0' + empty);
                empty = 0;
            }
            b[n++] = letters[piece & 15];
            if (pos->promoted & bits_sq(sq)) {
                b[n++] = '~';
            }
        }
        if (empty) {
            b[n++] = (char)('0' + empty);
        }
        b[n++] = rank ? '/' : ((flags & PGN_FEN_POCKET_RANK) ? '/' : '[');
    }
    for (unsigned c = 0; c < 2; c++) {
        for (unsigned t = PGN_QUEEN; t >= PGN_PAWN; t--) {
            for (unsigned k = 0; k < pos->pocket[c][t] && n < PGN_FEN_MAX - 48; k++) {
                b[n++] = letters[PGN_PIECE(c, t)];
            }
        }
    }
    if (!(flags & PGN_FEN_POCKET_RANK)) {
        b[n++] = ']';
    }
    return n;
}

size_t pgn_fen_write(const pgn_pos *pos, uint32_t flags, char *buf, size_t cap) {
    char b[PGN_FEN_MAX + 16];
    size_t n = 0;
    if (PGNK_UNLIKELY(pos->variant == PGN_VARIANT_CRAZYHOUSE)) {
        n = write_crazyhouse_placement(pos, flags, b);
        n += write_rest(pos, flags, b + n);
    } else {
        for (int rank = 7; rank >= 0; rank--) { /* 8 bytes of room past the 71 it can take */
            size_t len;
            put8(b + n, rank_text(pos, (unsigned)rank, &len));
            n += len;
            b[n++] = '/';
        }
        n += write_rest(pos, flags, b + n - 1) - 1;
    }
    if (cap > 0) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(buf, b, k);
        buf[k] = 0;
    }
    return n;
}

size_t pgnk_chess_fen_write_ranks(chess_fen_ranks *ranks, const pgn_pos *pos, uint32_t flags,
                                  unsigned changed, char *buf) {
    size_t n = 0;
    if (PGNK_UNLIKELY(pos->variant)) { /* pockets, ~ marks, explosions: the whole FEN */
        return pgn_fen_write(pos, flags, buf, PGN_FEN_MAX + 8);
    }
    for (changed &= 0xffu; changed; changed &= changed - 1) {
        unsigned rank = (unsigned)bits_ctz(changed);
        size_t len;
        ranks->text[rank] = rank_text(pos, rank, &len);
        ranks->len[rank] = (uint8_t)len;
    }
    for (int rank = 7; rank >= 0; rank--) {
        put8(buf + n, ranks->text[rank]);
        n += ranks->len[rank];
        buf[n++] = '/';
    }
    return n - 1 + write_rest(pos, flags, buf + n - 1);
}
