/* The slip model (docs/repair.md): how far a typed move is from a legal move's SAN, in units of
 * the slips people make copying a scoresheet. Both texts are first reduced to their letters and
 * digits (capture, check and promotion marks, dashes and glyphs are dropped: a wrong or missing
 * mark costs nothing); then a weighted edit distance with transpositions is taken:
 *   a file or rank one off (Bc5 for Bb5, Nf4 for Nf3)          1
 *   another file or rank                                     2
 *   another language's letter for the piece (S for N)      1
 *   a lowercase piece letter (bb5)                          1
 *   another piece letter (Nc3 for Bc3)                       1
 *   a missing or extra disambiguation (Nd2 for Nbd2)         1
 *   a missing piece letter (b5 for Bb5)                      1
 *   any other missing or extra character                    3
 *   two neighbouring characters swapped (fN3 for Nf3)       1
 * A wrong or missing piece letter costs no more than a square one off: priced at 2, they let a
 * nearer square of the typed piece win a repair over the piece meant (Bd6 typed for Qd6 read as
 * Be6; g5 typed for Bg5 read as g6), measured by tests/unit/test_slips.c (issue 28 point 2).
 * A move with nothing in common with the typed text (every character replaced: O-O against a3)
 * is past PGNK_SLIP_MAX_COST: no suggestion rather than a senseless one.
 * Only the error path of the reader calls this. */
#include "slips.h"

#include <string.h>

#define NORM_MAX 16

static int is_file(char c) {
    return c >= 'a' && c <= 'h';
}

static int is_rank(char c) {
    return c >= '1' && c <= '8';
}

static int is_piece(char c) {
    return c == 'K' || c == 'Q' || c == 'R' || c == 'B' || c == 'N';
}

/* Letters and digits of text, castling's zeros as O (O-O, 0-0: OO). Returns the length. */
static size_t normalize(const char *text, size_t len, char *out) {
    size_t n = 0;
    for (size_t i = 0; i < len && n < NORM_MAX; i++) {
        char c = text[i];
        if (c == '0' && (len >= 3 && (text[1] == '-' || text[1] == '0'))) {
            c = 'O';
        }
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '1' && c <= '9')) {
            out[n++] = c;
        }
    }
    /* a promotion's =: e8=Q and e8Q are the same; x in a capture: dropped above (lowercase x
     * is not a file) */
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (out[i] != 'x') {
            out[k++] = out[i];
        }
    }
    return k;
}

/* Other languages' letters for each English piece (docs/notation.md): German, French, Spanish,
 * Dutch, Italian and others; a typed letter among them costs 1. */
static int foreign_letter(char typed, char piece) {
    static const char *const letters[] = {"KR", "QDH", "RTV", "BLFA", "NSCPG"};
    static const char order[] = "KQRBN";
    const char *p = strchr(order, piece);
    if (p == NULL || piece == 0) {
        return 0;
    }
    return strchr(letters[p - order], typed) != NULL && typed != 0;
}

static unsigned sub_cost(char t, char s) {
    if (t == s) {
        return 0;
    }
    if (is_file(t) && is_file(s)) {
        return (t - s == 1 || s - t == 1) ? 1u : 2u;
    }
    if (is_rank(t) && is_rank(s)) {
        return (t - s == 1 || s - t == 1) ? 1u : 2u;
    }
    if (is_piece(s)) {
        if (t == s + ('a' - 'A') || foreign_letter(t, s)) {
            return 1;
        }
        if (is_piece(t)) {
            return 1;
        }
    }
    return 3;
}

/* Cost of s[i] missing from the typed text. */
static unsigned missing_cost(const char *s, size_t slen, size_t i) {
    if (is_piece(s[i]) && i == 0) {
        return 1;
    }
    /* disambiguation: a file or rank right after the piece letter, a square following */
    if (i == 1 && is_piece(s[0]) && slen >= 4 && (is_file(s[i]) || is_rank(s[i]))) {
        return 1;
    }
    if (i == 2 && is_piece(s[0]) && slen == 5) {
        return 1;
    }
    return 3;
}

unsigned pgnk_slip_cost(const char *typed, size_t tlen, const char *san, size_t slen) {
    char t[NORM_MAX], s[NORM_MAX];
    size_t n = normalize(typed, tlen, t), m = normalize(san, slen, s);
    unsigned d[NORM_MAX + 1][NORM_MAX + 1];
    for (size_t i = 0; i <= n; i++) {
        for (size_t j = 0; j <= m; j++) {
            unsigned best;
            if (i == 0 && j == 0) {
                best = 0;
            } else {
                best = ~0u;
                if (i > 0) { /* an extra character typed */
                    unsigned extra =
                        (i == 1 || i == n) && (is_file(t[i - 1]) || is_rank(t[i - 1])) ? 2u : 3u;
                    if (d[i - 1][j] + extra < best) {
                        best = d[i - 1][j] + extra;
                    }
                }
                if (j > 0 && d[i][j - 1] + missing_cost(s, m, j - 1) < best) {
                    best = d[i][j - 1] + missing_cost(s, m, j - 1);
                }
                if (i > 0 && j > 0 && d[i - 1][j - 1] + sub_cost(t[i - 1], s[j - 1]) < best) {
                    best = d[i - 1][j - 1] + sub_cost(t[i - 1], s[j - 1]);
                }
                if (i > 1 && j > 1 && t[i - 1] == s[j - 2] && t[i - 2] == s[j - 1] &&
                    d[i - 2][j - 2] + 1 < best) {
                    best = d[i - 2][j - 2] + 1;
                }
            }
            d[i][j] = best;
        }
    }
    /* nothing in common (O-O against a3: every character replaced) is no slip at all */
    size_t longer = n > m ? n : m;
    if (longer > 0 && d[n][m] >= 3u * (unsigned)longer) {
        return PGNK_SLIP_MAX_COST + 1;
    }
    return d[n][m];
}

size_t pgnk_slip_candidates(const pgn_pos *pos, const char *typed, size_t len, pgnk_slip *out,
                            size_t cap) {
    pgn_movelist list;
    pgn_pos_legal_moves(pos, &list);
    size_t count = 0;
    for (uint32_t i = 0; i < list.count && cap > 0; i++) {
        pgnk_slip c;
        size_t sl = pgn_san_write(pos, list.moves[i], c.san);
        c.move = list.moves[i];
        c.cost = pgnk_slip_cost(typed, len, c.san, sl);
        if (c.cost > PGNK_SLIP_MAX_COST) {
            continue;
        }
        /* insert by cost, then SAN (a stable order whatever the generator's) */
        size_t k = count < cap ? count : cap - 1;
        if (count == cap &&
            (out[k].cost < c.cost || (out[k].cost == c.cost && strcmp(out[k].san, c.san) < 0))) {
            continue;
        }
        while (k > 0 && (out[k - 1].cost > c.cost ||
                         (out[k - 1].cost == c.cost && strcmp(out[k - 1].san, c.san) > 0))) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = c;
        count += count < cap;
    }
    return count;
}
