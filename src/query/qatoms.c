/* SPDX-License-Identifier: MIT */
/* Operands of the selection language's atoms (docs/query.md): numbers, dates with ?? parts (PGN
 * §8.1.1.3), clocks, SAN-like move patterns (PGN §8.2.3), material and imbalance strings,
 * pgn-extract's FEN patterns, opening lines; and the tag atoms' tests over a game's tags. */
#include <math.h>
#include <string.h>

#include "query_internal.h"

int pgnk_qnum_parse(const char *s, size_t len, double *out) {
    size_t i = 0, digits = 0;
    double v = 0, scale = 1;
    int neg = 0;
    if (i < len && (s[i] == '-' || s[i] == '+')) {
        neg = s[i++] == '-';
    }
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
        v = v * 10 + (s[i] - '0');
    }
    if (i < len && s[i] == '.') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
            scale /= 10;
            v += (s[i] - '0') * scale;
        }
    }
    if (i != len || digits == 0 || digits > 15) {
        return 0;
    }
    *out = neg ? -v : v;
    return 1;
}

int pgnk_qdate_parse(const char *s, size_t len, int f[3]) {
    static const size_t widths[3] = {4, 2, 2};
    size_t i = 0;
    int k = 0;
    f[0] = f[1] = f[2] = -1;
    for (; k < 3 && i < len; k++) {
        size_t w = widths[k];
        if (k > 0) {
            if (s[i] != '.') {
                return 0;
            }
            i++;
        }
        if (i + w > len) {
            return 0;
        }
        int v = 0, unknown = 0;
        for (size_t j = 0; j < w; j++) {
            char c = s[i + j];
            if (c == '?') {
                unknown = 1;
            } else if (c >= '0' && c <= '9') {
                v = v * 10 + (c - '0');
            } else {
                return 0;
            }
        }
        f[k] = unknown ? -1 : v;
        i += w;
    }
    return i == len ? k : 0;
}

int pgnk_qclock_parse(const char *s, size_t len, double *ms) {
    double total = 0, part;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || s[i] == ':') {
            if (!pgnk_qnum_parse(s + start, i - start, &part) || part < 0) {
                return 0;
            }
            total = total * 60 + part;
            start = i + 1;
        }
    }
    *ms = total * 1000;
    return 1;
}

int pgnk_qcmp_num(qcmp c, double a, double b) {
    switch (c) {
    case C_EQ: return a == b;
    case C_NE: return a != b;
    case C_LT: return a < b;
    case C_LE: return a <= b;
    case C_GT: return a > b;
    case C_GE: return a >= b;
    default: return 0;
    }
}

/* ---- moves, material ---- */

static int piece_type_of(char c) {
    const char *l = c ? strchr("PNBRQK", c) : NULL;
    return l ? (int)(l - "PNBRQK") + 1 : 0;
}

const char *pgnk_qmove_parse(qmovepat *mp, const char *s, size_t len) {
    memset(mp, 0, sizeof *mp);
    mp->from_file = mp->from_rank = mp->to = 0xff;
    while (len > 0 && strchr("+#!?", s[len - 1])) {
        len--;
    }
    if ((len == 3 || len == 5) && (s[0] == 'O' || s[0] == '0')) {
        int ok = 1;
        for (size_t k = 0; k < len; k++) {
            ok &= (k % 2 == 0) ? s[k] == s[0] : s[k] == '-';
        }
        if (ok) {
            mp->castle = len == 3 ? 1 : 2;
            mp->piece = PGN_KING;
            return NULL;
        }
    }
    if (len >= 2 && piece_type_of(s[len - 1]) >= PGN_KNIGHT &&
        piece_type_of(s[len - 1]) <= PGN_QUEEN) {
        mp->promo = (uint8_t)piece_type_of(s[len - 1]);
        len -= s[len - 2] == '=' ? 2 : 1;
    }
    if (len < 2 || s[len - 2] < 'a' || s[len - 2] > 'h' || s[len - 1] < '1' || s[len - 1] > '8') {
        return "not a move such as Nxe5, e8=Q or O-O:";
    }
    mp->to = (uint8_t)PGN_SQ(s[len - 2] - 'a', s[len - 1] - '1');
    len -= 2;
    if (len > 0 && s[len - 1] == 'x') {
        mp->capture = 1;
        len--;
    }
    size_t i = 0;
    mp->piece = PGN_PAWN;
    if (len > 0 && s[0] >= 'A' && s[0] <= 'Z') {
        int t = piece_type_of(s[0]);
        if (t < PGN_KNIGHT) {
            return "not a piece letter in";
        }
        mp->piece = (uint8_t)t;
        i = 1;
    }
    if (i < len && s[i] >= 'a' && s[i] <= 'h') {
        mp->from_file = (uint8_t)(s[i++] - 'a');
    }
    if (i < len && s[i] >= '1' && s[i] <= '8') {
        mp->from_rank = (uint8_t)(s[i++] - '1');
    }
    return i == len ? NULL : "not a move such as Nxe5, e8=Q or O-O:";
}

int pgnk_qmove_match(const qmovepat *mp, const pgn_pos *before, pgn_move mv) {
    pgn_square from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    int kind = PGN_MOVE_KIND(mv);
    if (mp->castle) {
        return kind == PGN_MOVE_CASTLE && (mp->castle == 1) == ((to & 7) > (from & 7));
    }
    if (kind == PGN_MOVE_CASTLE || to != mp->to ||
        PGN_PIECE_TYPE(before->board[from]) != (pgn_piece_type)mp->piece) {
        return 0;
    }
    if ((mp->from_file != 0xff && (from & 7) != mp->from_file) ||
        (mp->from_rank != 0xff && (from >> 3) != mp->from_rank)) {
        return 0;
    }
    if (mp->capture && !pgn_move_is_capture(before, mv)) {
        return 0;
    }
    return !mp->promo || (kind == PGN_MOVE_PROMOTION && PGN_MOVE_PROMO(mv) == mp->promo);
}

const char *pgnk_qmaterial_parse(int8_t mat[2][7], const char *s, size_t len) {
    memset(mat, 0, 14);
    int side = -1; /* with a v separator: the side by position, letters in any case */
    for (size_t k = 0; k < len; k++) {
        char c = s[k];
        if (c == 'v' && side < 0) {
            side = 1;
            memset(mat, 0, 14);
            /* re-read the first part as White's */
            for (size_t j = 0; j < k; j++) {
                char u = s[j] >= 'a' ? (char)(s[j] - 32) : s[j];
                int t = piece_type_of(u);
                if (!t || mat[0][t] == 127) {
                    return "not material such as KQRkqr or KRPvKR:";
                }
                mat[0][t]++;
            }
            continue;
        }
        char u = c >= 'a' && c <= 'z' ? (char)(c - 32) : c;
        int t = piece_type_of(u);
        if (!t || c == ' ') {
            return "not material such as KQRkqr or KRPvKR:";
        }
        int color = side >= 0 ? 1 : (c >= 'a');
        if (mat[color][t] == 127) {
            return "too many pieces in";
        }
        mat[color][t]++;
    }
    mat[0][PGN_KING] = mat[1][PGN_KING] = 0;
    return NULL;
}

const char *pgnk_qimbalance_parse(int8_t mat[2][7], const char *s, size_t len) {
    memset(mat, 0, 14);
    int side = 0, any_pawn = 0;
    for (size_t k = 0; k < len; k++) {
        char c = s[k];
        if (c == ' ') {
            continue;
        }
        if (c == 'v' && side == 0) {
            side = 1;
            k += k + 1 < len && s[k + 1] == 's';
            continue;
        }
        int t = piece_type_of(c >= 'a' && c <= 'z' ? (char)(c - 32) : c);
        if (!t || t == PGN_KING) {
            return "not an imbalance such as \"R vs BN\":";
        }
        any_pawn |= t == PGN_PAWN;
        mat[0][t] = (int8_t)(mat[0][t] + (side ? -1 : 1));
    }
    if (!side) {
        return "an imbalance needs 'vs':";
    }
    mat[1][PGN_PAWN] = (int8_t)any_pawn; /* pawns take part only when written */
    return NULL;
}

const char *pgnk_qopening_parse(pgn_pos *pos, double *plies, const char *s, size_t len) {
    pgn_pos_init(pos);
    *plies = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n')) {
            i++;
        }
        size_t j = i;
        while (j < len && s[j] >= '0' && s[j] <= '9') {
            j++;
        }
        if (j < len && j > i && s[j] == '.') {
            while (j < len && s[j] == '.') {
                j++;
            }
            i = j; /* a move number, maybe glued to its move (1.e4) */
            continue;
        }
        j = i;
        while (j < len && s[j] != ' ' && s[j] != '\t' && s[j] != '\n') {
            j++;
        }
        if (j == i) {
            break;
        }
        pgn_san_result r;
        if (pgn_san_parse(pos, s + i, j - i, 0, &r) != PGN_OK) {
            return "not a legal move in this line:";
        }
        pgn_pos_play(pos, r.move);
        *plies += 1;
        i = j;
    }
    return *plies == 0 ? "no moves in" : NULL;
}

/* ---- FEN patterns ---- */

/* Square contents as bit indexes: 0 empty, 1..6 White P..K, 9..14 Black p..k. */
#define PAT_ANY 0x7E7Fu
#define PAT_OCC 0x7E7Eu
#define PAT_WHITE 0x007Eu
#define PAT_BLACK 0x7E00u

static uint16_t pat_letter(char c) {
    if (c == 'A') {
        return PAT_WHITE;
    }
    if (c == 'a') {
        return PAT_BLACK;
    }
    int t = piece_type_of(c >= 'a' && c <= 'z' ? (char)(c - 32) : c);
    if (!t) {
        return 0;
    }
    return (uint16_t)(1u << ((unsigned)t + (c >= 'a' ? 8u : 0u)));
}

/* The ranks without '*' as bitboard tests (see qpattern). */
static void compile_bitboards(qpattern *p) {
    for (int r = 0; r < 8; r++) {
        int stars = 0;
        for (int k = 0; k < p->ncell[r]; k++) {
            stars += p->star[r][k];
        }
        if (stars == p->ncell[r]) {
            p->full_rank[r] = stars > 0 ? 2 : 0;
            continue;
        }
        if (stars || p->ncell[r] != 8) {
            continue; /* a rank of other than 8 cells never matches: the cell program says so */
        }
        p->full_rank[r] = 1;
        for (int f = 0; f < 8; f++) {
            unsigned sq = (unsigned)((7 - r) * 8 + f);
            uint64_t b = UINT64_C(1) << sq;
            uint16_t set = p->cell[r][f];
            if (set == PAT_ANY) {
                continue;
            } else if (set == PAT_OCC) {
                p->occ |= b;
            } else if (set == PAT_WHITE) {
                p->white |= b;
            } else if (set == PAT_BLACK) {
                p->black |= b;
            } else if ((set & (set - 1)) == 0) {
                unsigned c = 0;
                while (!((set >> c) & 1)) {
                    c++;
                }
                p->req[c] |= b;
            } else {
                p->slow |= b;
                p->slow_set[sq] = set;
            }
        }
    }
}

/* The cell(s) of pattern character s[*i] (a [...] set moves *i to its ']'): the set of contents
 * allowed, whether it is '*', and how many squares it stands for; NULL or a message. */
static const char *pattern_cell(const char *s, size_t len, size_t *i, uint16_t *set, uint8_t *star,
                                int *cells) {
    char c = s[*i];
    *cells = c >= '1' && c <= '8' ? c - '0' : 1;
    *star = c == '*';
    if (c >= '1' && c <= '8') {
        *set = 1; /* empty */
    } else if (c == '?' || c == '*') {
        *set = PAT_ANY;
    } else if (c == '!') {
        *set = PAT_OCC;
    } else if (c == '[') {
        int neg = *i + 1 < len && s[*i + 1] == '^';
        size_t j = *i + 1 + (size_t)neg;
        uint16_t in = 0;
        for (; j < len && s[j] != ']'; j++) {
            uint16_t b = pat_letter(s[j]);
            if (!b) {
                return "not a piece letter inside [...] of";
            }
            in |= b;
        }
        if (j >= len) {
            return "unterminated [ in";
        }
        *set = neg ? (uint16_t)(PAT_OCC & ~in) : in;
        if (*set == 0) {
            return "a [...] that no square can match in";
        }
        *i = j;
    } else if (!(*set = pat_letter(c))) {
        return "not a pattern character (1-8 ? ! * A a [..] KQRBNPkqrbnp) in";
    }
    return NULL;
}

const char *pgnk_qpattern_compile(qpattern *p, const char *s, size_t len) {
    memset(p, 0, sizeof *p);
    int rank = 0;
    for (size_t i = 0; i < len && s[i] != ' '; i++) { /* a label may follow (pgn-extract) */
        if (s[i] == '/') {
            if (++rank > 7) {
                return "more than 8 ranks in";
            }
            continue;
        }
        int cells;
        uint16_t set;
        uint8_t star;
        const char *m = pattern_cell(s, len, &i, &set, &star, &cells);
        if (m) {
            return m;
        }
        for (int k = 0; k < cells; k++) {
            if (p->ncell[rank] == 24) {
                return "too many cells in a rank of";
            }
            p->cell[rank][p->ncell[rank]] = set;
            p->star[rank][p->ncell[rank]++] = star;
        }
    }
    if (rank != 7) {
        return "not 8 ranks in";
    }
    compile_bitboards(p);
    return NULL;
}

/* One rank: a set of reachable files (bit f: the next square to match is file f). */
static int rank_match(const qpattern *p, int r, const uint8_t *board) {
    uint32_t st = 1;
    for (int k = 0; k < p->ncell[r] && st; k++) {
        if (p->star[r][k]) {
            uint32_t low = st & (~st + 1);
            st = ~(low - 1) & 0x1FFu; /* any file from the first reachable on */
            continue;
        }
        uint32_t nx = 0;
        for (int f = 0; f < 8; f++) {
            if ((st >> f) & 1 && (p->cell[r][k] >> board[f]) & 1) {
                nx |= 1u << (f + 1);
            }
        }
        st = nx;
    }
    return (st >> 8) & 1;
}

int pgnk_qpattern_match(const qpattern *p, const pgn_pos *pos) {
    uint64_t occ = pos->by_type[0];
    if ((occ & p->req[0]) || (occ & p->occ) != p->occ ||
        (pos->by_color[0] & p->white) != p->white || (pos->by_color[1] & p->black) != p->black) {
        return 0;
    }
    for (unsigned c = 1; c < 15; c++) {
        if (p->req[c] && (pos->by_color[c >> 3] & pos->by_type[c & 7] & p->req[c]) != p->req[c]) {
            return 0;
        }
    }
    for (uint64_t s = p->slow; s; s &= s - 1) {
        unsigned sq = 0;
        while (!((s >> sq) & 1)) {
            sq++;
        }
        if (!((p->slow_set[sq] >> pos->board[sq]) & 1)) {
            return 0;
        }
    }
    for (int r = 0; r < 8; r++) {
        if (!p->full_rank[r] && !rank_match(p, r, pos->board + (7 - r) * 8)) {
            return 0;
        }
    }
    return 1;
}

/* ---- tags ---- */

static int name_eq(const char *a, size_t al, const char *b, size_t bl) {
    if (al != bl) {
        return 0;
    }
    for (size_t k = 0; k < al; k++) {
        if ((a[k] | 0x20) != (b[k] | 0x20)) {
            return 0;
        }
    }
    return 1;
}

int pgnk_qtag_get(const qtags *t, const char *name, size_t nlen, pgn_str *out) {
    for (uint32_t k = t->n; k-- > 0;) {
        if (name_eq(t->v[k].name, t->v[k].nlen, name, nlen)) {
            out->ptr = t->v[k].val;
            out->len = t->v[k].vlen;
            return 1;
        }
    }
    return 0;
}

static int sign(int d) {
    return (d > 0) - (d < 0);
}

/* Compares a tag's value with the atom's operand; -2 if they cannot be compared. */
static int compare_values(const qnode *n, pgn_str v) {
    double a, b;
    int fa[3], fb[3];
    int nb = pgnk_qdate_parse(n->str, n->slen, fb);
    if (n->nlen >= 4 && name_eq(n->name + n->nlen - 4, 4, "date", 4) && nb &&
        pgnk_qdate_parse(v.ptr, v.len, fa)) {
        for (int k = 0; k < nb; k++) {
            if (fb[k] < 0) {
                break;
            }
            if (fa[k] < 0) {
                return -2; /* unknown where the query asks */
            }
            if (fa[k] != fb[k]) {
                return sign(fa[k] - fb[k]);
            }
        }
        return 0;
    }
    if (pgnk_qnum_parse(v.ptr, v.len, &a) && pgnk_qnum_parse(n->str, n->slen, &b)) {
        return a < b ? -1 : a > b;
    }
    size_t m = v.len < n->slen ? v.len : n->slen;
    int c = memcmp(v.ptr, n->str, m);
    return c ? sign(c) : (v.len > n->slen) - (v.len < n->slen);
}

static int test_value(const qnode *n, pgn_str v) {
    if (n->cmp == C_RE || n->cmp == C_NRE) {
        return pgnk_qre_match(n->re, v.ptr, v.len) == (n->cmp == C_RE);
    }
    if (n->cmp == C_GLOB) {
        return pgnk_qglob_match(n->str, n->slen, v.ptr, v.len, n->icase);
    }
    int c = compare_values(n, v);
    return c != -2 && pgnk_qcmp_num((qcmp)n->cmp, c, 0);
}

static int tag_num(const qtags *t, const char *name, double *out) {
    pgn_str v;
    return pgnk_qtag_get(t, name, strlen(name), &v) && pgnk_qnum_parse(v.ptr, v.len, out);
}

static int elo_atom(const qnode *n, const qtags *t) {
    double w, b;
    int hw = tag_num(t, "WhiteElo", &w), hb = tag_num(t, "BlackElo", &b);
    qcmp c = (qcmp)n->cmp;
    switch (n->sel) {
    case ELO_WHITE: return hw && pgnk_qcmp_num(c, w, n->num);
    case ELO_BLACK: return hb && pgnk_qcmp_num(c, b, n->num);
    case ELO_BOTH: return hw && hb && pgnk_qcmp_num(c, w, n->num) && pgnk_qcmp_num(c, b, n->num);
    case ELO_EITHER:
        return (hw && pgnk_qcmp_num(c, w, n->num)) || (hb && pgnk_qcmp_num(c, b, n->num));
    case ELO_AVG: return hw && hb && pgnk_qcmp_num(c, (w + b) / 2, n->num);
    default: return hw && hb && pgnk_qcmp_num(c, fabs(w - b), n->num);
    }
}

/* lichess's rule: base + 40 x increment seconds, cut at 29/179/479/1499/21599. -1: unknown. */
static int speed_of(pgn_str tc) {
    double base, inc = 0;
    const char *plus = memchr(tc.ptr, '+', tc.len), *slash = memchr(tc.ptr, '/', tc.len);
    if (slash) {
        return 5; /* moves/seconds: daily or correspondence */
    }
    size_t bl = plus ? (size_t)(plus - tc.ptr) : tc.len;
    if (!pgnk_qnum_parse(tc.ptr, bl, &base) ||
        (plus && !pgnk_qnum_parse(plus + 1, tc.len - bl - 1, &inc))) {
        return -1;
    }
    double t = base + 40 * inc;
    static const double cuts[5] = {29, 179, 479, 1499, 21599};
    int k = 0;
    while (k < 5 && t > cuts[k]) {
        k++;
    }
    return k;
}

int pgnk_qtag_atom(const qnode *n, const qtags *t) {
    pgn_str v, w;
    switch (n->op) {
    case Q_TAG: return pgnk_qtag_get(t, n->name, n->nlen, &v) && test_value(n, v);
    case Q_PLAYER: {
        qnode m = *n;
        m.name = "player";
        m.nlen = 6;
        int hw = pgnk_qtag_get(t, "White", 5, &v), hb = pgnk_qtag_get(t, "Black", 5, &w);
        int tw = hw && test_value(&m, v), tb = hb && test_value(&m, w);
        /* negative operators: neither player is; positive: either is */
        return (n->cmp == C_NE || n->cmp == C_NRE) ? (hw || hb) && (tw || !hw) && (tb || !hb)
                                                   : tw || tb;
    }
    case Q_ELO: return elo_atom(n, t);
    case Q_ECO:
        if (!pgnk_qtag_get(t, "ECO", 3, &v)) {
            return 0;
        }
        if (n->str2) {
            int in = v.len >= 3 && memcmp(v.ptr, n->str, n->slen < 3 ? n->slen : 3) >= 0 &&
                     memcmp(v.ptr, n->str2, strlen(n->str2) < 3 ? strlen(n->str2) : 3) <= 0;
            return n->cmp == C_NE ? !in : n->cmp == C_EQ ? in : 0;
        }
        {
            qnode m = *n;
            m.name = "ECO";
            m.nlen = 3;
            return test_value(&m, v);
        }
    case Q_SPEED: {
        int s = pgnk_qtag_get(t, "TimeControl", 11, &v) ? speed_of(v) : -1;
        return s >= 0 && pgnk_qcmp_num((qcmp)n->cmp, s, n->num);
    }
    case Q_YEAR: {
        int f[3];
        return pgnk_qtag_get(t, "Date", 4, &v) && pgnk_qdate_parse(v.ptr, v.len, f) && f[0] >= 0 &&
               pgnk_qcmp_num((qcmp)n->cmp, f[0], n->num);
    }
    default: return 0;
    }
}

/* ends and result = final / != final at the final position e (reps: its occurrences so far;
 * result: the game's termination marker, read when the tags have no Result). */
int pgnk_qend_atom(const qnode *n, const pgn_pos *e, unsigned reps, const qtags *tags,
                   pgn_result result) {
    if (n->op == Q_ENDS) {
        int mate = pgn_pos_is_checkmate(e), v;
        switch ((int)n->num) {
        case 0: v = mate; break;
        case 1: v = pgn_pos_is_stalemate(e); break;
        case 2: v = reps >= 3; break;
        case 3: v = !mate && e->halfmove >= 100; break;
        default: v = pgn_pos_is_insufficient_material(e);
        }
        return n->cmp == C_EQ ? v : !v;
    }
    /* result = final / != final: only when the board decides the game */
    pgn_result board = PGN_RESULT_NONE;
    pgn_outcome end = pgn_pos_outcome(e, 1); /* the variant's own ending first (issue 35) */
    if (end == PGN_OUTCOME_CHECKMATE || end == PGN_OUTCOME_STALEMATE ||
        end == PGN_OUTCOME_INSUFFICIENT_MATERIAL || end >= PGN_OUTCOME_KING_EXPLODED) {
        int winner = pgn_outcome_winner(e, end);
        board = winner < 0            ? PGN_RESULT_DRAW
                : winner == PGN_WHITE ? PGN_RESULT_WHITE_WINS
                                      : PGN_RESULT_BLACK_WINS;
    }
    if (board == PGN_RESULT_NONE) {
        return 0;
    }
    pgn_str tag;
    pgn_result said =
        pgnk_qtag_get(tags, "Result", 6, &tag) ? pgn_result_parse(tag.ptr, tag.len) : result;
    return (said == board) == (n->cmp == C_EQ);
}
