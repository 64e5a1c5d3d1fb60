/* SPDX-License-Identifier: MIT */
/* The pawns of a game followed from its SAN text alone (issue 31 point 6): pawn pushes, pawn
 * captures, en passant and promotions from the pawns' squares; a capture on a square holding a
 * pawn removes it; castling and piece moves leave the pawns alone. No piece move is resolved. For
 * a legal game the pawns are those of the full replay at every ply; a move no pawn can make, or a
 * text not read as SAN here, stops the tracker (qpawns.ok = 0) and the caller falls back to the
 * full replay. */
#include "query_internal.h"

#include "../base/bits.h"

void pgnk_qpawns_start(qpawns *t, const pgn_pos *start) {
    t->p[PGN_WHITE] = start->by_color[PGN_WHITE] & start->by_type[PGN_PAWN];
    t->p[PGN_BLACK] = start->by_color[PGN_BLACK] & start->by_type[PGN_PAWN];
    t->side = start->side;
    t->ep = start->ep;
    t->ok = start->variant == PGN_VARIANT_STANDARD;
}

static int file_of(char c) {
    return c >= 'a' && c <= 'h' ? c - 'a' : -1;
}
static int rank_of(char c) {
    return c >= '1' && c <= '8' ? c - '1' : -1;
}

/* The SAN text without its check, mate and annotation marks: its length. */
static size_t san_core(const char *s, size_t n) {
    while (n > 0 && (s[n - 1] == '+' || s[n - 1] == '#' || s[n - 1] == '!' || s[n - 1] == '?')) {
        n--;
    }
    return n;
}

/* A pawn move of side c: "e4", "exd5", "e8=Q", "e8Q", "exd8=Q". 0 if no pawn can make it. */
static int pawn_move(qpawns *t, int c, const char *s, size_t n) {
    int ff = file_of(s[0]), tf, tr;
    int capture = n > 1 && s[1] == 'x';
    size_t i = capture ? 2 : 0;
    if (n < i + 2 || (tf = file_of(s[i])) < 0 || (tr = rank_of(s[i + 1])) < 0) {
        return 0;
    }
    size_t rest = i + 2;
    int promo = (c == PGN_WHITE && tr == 7) || (c == PGN_BLACK && tr == 0);
    if (promo) {
        rest += rest < n && s[rest] == '=';
        if (rest >= n || !(s[rest] == 'Q' || s[rest] == 'R' || s[rest] == 'B' || s[rest] == 'N')) {
            return 0;
        }
        rest++;
    }
    if (rest != n || (capture ? (tf - ff != 1 && ff - tf != 1) : tf != ff)) {
        return 0;
    }
    int dir = c == PGN_WHITE ? 8 : -8, to = tr * 8 + tf, from = to - dir + (capture ? ff - tf : 0);
    uint64_t all = t->p[0] | t->p[1];
    if (from < 0 || from > 63 || !(t->p[c] & bits_sq((unsigned)from))) {
        if (capture || from < 0 || from > 63 || (all & bits_sq((unsigned)from))) {
            return 0;
        }
        from -= dir; /* a double step from the second rank */
        if (from < 0 || from > 63 || from / 8 != (c == PGN_WHITE ? 1 : 6) ||
            !(t->p[c] & bits_sq((unsigned)from))) {
            return 0;
        }
    }
    if (!capture && (all & bits_sq((unsigned)to))) {
        return 0;
    }
    uint8_t ep = PGN_SQ_NONE;
    if (capture && to == t->ep && !(t->p[!c] & bits_sq((unsigned)to))) {
        t->p[!c] &= ~bits_sq((unsigned)(to - dir));
    } else if (capture) {
        t->p[!c] &= ~bits_sq((unsigned)to);
    } else if (from - to == 2 * dir || to - from == 2 * dir) {
        ep = (uint8_t)(from + dir);
    }
    t->p[c] &= ~bits_sq((unsigned)from);
    t->p[c] |= promo ? 0 : bits_sq((unsigned)to);
    t->ep = ep;
    return 1;
}

int pgnk_qpawns_play(qpawns *t, const char *san, size_t len) {
    size_t n = san_core(san, len);
    int c = t->side;
    if (!t->ok || n < 2) {
        t->ok = 0;
        return 0;
    }
    if (file_of(san[0]) >= 0) {
        t->ok = (uint8_t)pawn_move(t, c, san, n);
    } else if (san[0] == 'O' || san[0] == '0' || (n == 2 && san[0] == '-' && san[1] == '-') ||
               (n == 2 && san[0] == 'Z' && san[1] == '0')) {
        t->ep = PGN_SQ_NONE; /* castling or a null move: no pawn moves */
    } else if (san[0] == 'K' || san[0] == 'Q' || san[0] == 'R' || san[0] == 'B' || san[0] == 'N') {
        int tf = file_of(san[n - 2]), tr = rank_of(san[n - 1]);
        if (n < 3 || tf < 0 || tr < 0 || san[n - 3] == '-') {
            t->ok = 0; /* long algebraic ("Ng1-f3"): not read here */
        } else {
            t->p[!c] &= ~bits_sq((unsigned)(tr * 8 + tf)); /* a capture of a pawn, if any */
            t->ep = PGN_SQ_NONE;
        }
    } else {
        t->ok = 0;
    }
    t->side = (uint8_t)!c;
    return t->ok;
}
