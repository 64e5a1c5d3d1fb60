/* SPDX-License-Identifier: MIT */
/* SAN and UCI writing: canonical SAN (disambiguation by legal moves only: file, then rank, then
 * square; correct + and #). */
#include "san.h"

#include <string.h>

static const char piece_letters[] = " PNBRQK";

unsigned pgnk_san_needed_disambiguation(const pgn_pos *p, pgn_move mv) {
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    unsigned type = PGN_PIECE_TYPE(p->board[from]);
    if (type == PGN_PAWN) {
        return pgn_move_is_capture(p, mv) ? 1u : 0u;
    }
    if (type == PGN_KING && p->variant != PGN_VARIANT_ANTICHESS) {
        return 0; /* one king: only antichess may have more */
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
        if (PGN_MOVE_KIND(l.moves[i]) == PGN_MOVE_CASTLE || PGN_MOVE_IS_DROP(l.moves[i])) {
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

/* The marks of the variants, as python-chess and lichess write them: # also for a move that wins
 * by the variant's own rule (third check, the hill, an explosion, the last piece taken, a race won;
 * in antichess also a stalemate, which wins); no + in antichess and racing kings, which have no
 * check, and no mark for a drawn race. */
static NOINLINE char variant_suffix(const pgn_pos *p, pgn_move mv) {
    pgn_pos q = *p;
    pgn_pos_play_unkeyed(&q, mv);
    if (pgn_pos_is_variant_end(&q)) {
        return pgn_outcome_winner(&q, pgn_pos_outcome(&q, 1)) < 0 ? 0 : '#';
    }
    if (p->variant == PGN_VARIANT_ANTICHESS) {
        return pgnk_chess_has_legal_move(&q) ? 0 : '#';
    }
    if (p->variant == PGN_VARIANT_RACINGKINGS || !pgn_pos_in_check(&q)) {
        return 0;
    }
    return pgnk_chess_has_legal_move(&q) ? '+' : '#';
}

char pgnk_san_check_suffix(const pgn_pos *p, pgn_move mv) {
    if (p->variant) {
        return variant_suffix(p, mv);
    }
    pgn_pos q = *p;
    pgn_pos_play_unkeyed(&q, mv);
    if (!pgn_pos_in_check(&q)) {
        return 0;
    }
    return pgnk_chess_has_legal_move(&q) ? '+' : '#';
}

/* Appends square sq ("e4") at buf[n]; returns the new length. */
static size_t put_square(char *buf, size_t n, unsigned sq) {
    buf[n] = (char)('a' + (sq & 7));
    buf[n + 1] = (char)('1' + (sq >> 3));
    return n + 2;
}

/* Ends the SAN of mv at buf[n]: its check or mate mark, then the NUL; returns the length. */
static size_t end_san(const pgn_pos *pos, pgn_move mv, char *buf, size_t n) {
    char c = pgnk_san_check_suffix(pos, mv);
    if (c) {
        buf[n++] = c;
    }
    buf[n] = 0;
    return n;
}

/* A drop, N@f3 (P@e4 for a pawn), and its mark. */
static size_t san_drop(const pgn_pos *pos, pgn_move mv, char *buf) {
    buf[0] = piece_letters[PGN_MOVE_DROP_PIECE(mv) & 7];
    buf[1] = '@';
    return end_san(pos, mv, buf, put_square(buf, 2, PGN_MOVE_TO(mv)));
}

size_t pgn_san_write(const pgn_pos *pos, pgn_move mv, char buf[PGN_SAN_MAX]) {
    size_t n = 0;
    if (mv == PGN_MOVE_NULL) {
        memcpy(buf, "--", 3);
        return 2;
    }
    if (PGN_MOVE_IS_DROP(mv)) {
        return san_drop(pos, mv, buf);
    }
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    if (PGN_MOVE_KIND(mv) == PGN_MOVE_CASTLE && !PGN_MOVE_IS_KING_PROMO(mv)) {
        memcpy(buf, to > from ? "O-O" : "O-O-O", to > from ? 3 : 5);
        n = to > from ? 3 : 5;
    } else {
        unsigned type = PGN_PIECE_TYPE(pos->board[from]);
        unsigned need = pgnk_san_needed_disambiguation(pos, mv);
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
        n = put_square(buf, n, to);
        pgn_piece_type promo = PGN_MOVE_PROMOTED(mv);
        if (promo) {
            buf[n++] = '=';
            buf[n++] = piece_letters[promo];
        }
    }
    return end_san(pos, mv, buf, n);
}

size_t pgn_uci_write(const pgn_pos *pos, pgn_move mv, char buf[PGN_UCI_MAX]) {
    if (mv == PGN_MOVE_NULL || mv == PGN_MOVE_NONE) {
        memcpy(buf, "0000", 5);
        return 4;
    }
    unsigned from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    size_t n = 0;
    if (PGN_MOVE_IS_DROP(mv)) {
        buf[n++] = piece_letters[PGN_MOVE_DROP_PIECE(mv) & 7];
        buf[n++] = '@';
        buf[n++] = (char)('a' + (to & 7));
        buf[n++] = (char)('1' + (to >> 3));
        buf[n] = 0;
        return n;
    }
    if (PGN_MOVE_KIND(mv) == PGN_MOVE_CASTLE && !PGN_MOVE_IS_KING_PROMO(mv) && !pos->chess960) {
        to = pgnk_chess_castle_king_to(from, to);
    }
    buf[n++] = (char)('a' + (from & 7));
    buf[n++] = (char)('1' + (from >> 3));
    buf[n++] = (char)('a' + (to & 7));
    buf[n++] = (char)('1' + (to >> 3));
    if (PGN_MOVE_PROMOTED(mv)) {
        buf[n++] = "  nbrqk"[PGN_MOVE_PROMOTED(mv)];
    }
    buf[n] = 0;
    return n;
}
