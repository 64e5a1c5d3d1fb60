/* SPDX-License-Identifier: MIT */
/* The atoms of the selection language (docs/query.md, "Atoms"): tag comparisons and named ones,
 * position, move, ending and annotation atoms with their operands checked at compile time. */
#include <string.h>

#include "qparser.h"

#define EXPECT_ATOM                                                                                \
    "a tag comparison (White ~ \"Carlsen\"), an atom (fen, pattern, Pd4, check, move, ...), "      \
    "'not', 'at', 'flip', 'persist', 'in variations' or '('"

/* The token after the current one, without consuming anything. */
static tok peek(parser *p) {
    parser save = *p;
    pgnk_qlex(p);
    tok t = p->t;
    p->t = save.t;
    p->i = save.i;
    return t;
}

static int is_piece_letter(char c) {
    return c && strchr("KQRBNPkqrbnp", c) != NULL;
}

static int square_of(const char *s, uint8_t *sq) {
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') {
        return 0;
    }
    *sq = (uint8_t)PGN_SQ(s[0] - 'a', s[1] - '1');
    return 1;
}

/* Bit (colour * 8 + type) for each piece letter of s; 0 if a character is not one. */
static uint64_t piece_set(const char *s, size_t len) {
    uint64_t m = 0;
    for (size_t k = 0; k < len; k++) {
        const char *l = strchr("PNBRQK", s[k] >= 'a' ? s[k] - 'a' + 'A' : s[k]);
        if (!is_piece_letter(s[k]) || !l) {
            return 0;
        }
        unsigned type = (unsigned)(l - "PNBRQK") + 1, color = s[k] >= 'a';
        m |= UINT64_C(1) << (color * 8 + type);
    }
    return m;
}

typedef struct named {
    const char *name;
    uint8_t op, sel, needs_num;
} named;

/* Comparison atoms with a meaning of their own (other names are tags). */
static const named comparisons[] = {
    {"player", Q_PLAYER, 0, 0},
    {"elo", Q_ELO, ELO_BOTH, 1},
    {"elo.white", Q_ELO, ELO_WHITE, 1},
    {"elo.black", Q_ELO, ELO_BLACK, 1},
    {"elo.avg", Q_ELO, ELO_AVG, 1},
    {"elo.diff", Q_ELO, ELO_DIFF, 1},
    {"elo.any", Q_ELO, ELO_EITHER, 1},
    {"eco", Q_ECO, 0, 0},
    {"speed", Q_SPEED, 0, 0},
    {"year", Q_YEAR, 0, 1},
    {"plies", Q_PLIES, 0, 1},
    {"moves", Q_MOVES, 0, 1},
    {"ends", Q_ENDS, 0, 0},
    {"clock", Q_CLOCK, 0, 0},
    {"eval", Q_EVAL, 0, 0},
    {"eval.swing", Q_SWING, 0, 0},
};

static const char *const speeds[] = {"ultrabullet", "bullet",    "blitz",
                                     "rapid",       "classical", "correspondence"};
static const char *const endings[] = {"checkmate", "stalemate", "repetition", "fifty",
                                      "insufficient"};

static int find_word(const char *const *list, size_t n, const char *v) {
    for (size_t k = 0; k < n; k++) {
        if (strcmp(list[k], v) == 0) {
            return (int)k;
        }
    }
    return -1;
}

/* name OP value */
static uint32_t parse_comparison(parser *p, uint32_t start) {
    tok name = p->t;
    pgnk_qlex(p);
    tok optok = p->t;
    qcmp cmp = (qcmp)optok.cmp;
    pgnk_qlex(p);
    const named *nm = NULL;
    for (size_t k = 0; k < sizeof comparisons / sizeof comparisons[0]; k++) {
        if (pgnk_qword_is(p, &name, comparisons[k].name)) {
            nm = &comparisons[k];
        }
    }
    tok vtok = p->t;
    size_t vlen;
    const char *v = pgnk_qoperand(p, &vlen, "a value: a word or a \"string\"");
    if (!v) {
        return QNONE;
    }
    int isre = cmp == C_RE || cmp == C_NRE;
    uint32_t id;
    if (pgnk_qword_is(p, &name, "result") && strcmp(v, "final") == 0) {
        if (cmp != C_EQ && cmp != C_NE) {
            return pgnk_qfail_at(p, &optok, "unexpected", "'=' or '!='"), QNONE;
        }
        id = pgnk_qnew_node(p, Q_RESULT_FINAL);
    } else if (nm) {
        id = pgnk_qnew_node(p, (qop)nm->op);
    } else {
        id = pgnk_qnew_node(p, Q_TAG);
    }
    if (id == QNONE) {
        return QNONE;
    }
    qnode *nd = &p->q->nodes[id];
    nd->cmp = (uint8_t)cmp;
    nd->str = v;
    nd->slen = vlen;
    nd->icase = vtok.icase;
    if (nd->op == Q_TAG) {
        nd->name = pgnk_arena_strndup(&p->q->ar, p->s + name.at, name.len);
        nd->nlen = name.len;
        if (!nd->name) {
            p->st = PGN_E_NOMEM;
            return QNONE;
        }
    }
    if (nm) {
        nd->sel = nm->sel;
    }
    if (isre && (nd->op == Q_TAG || nd->op == Q_PLAYER || nd->op == Q_ECO)) {
        const char *m = pgnk_qre_compile(&p->q->ar, v, vlen, vtok.icase, &nd->re);
        if (m) {
            return pgnk_qfail_at(p, &vtok, m,
                                 "a regular expression of the subset in docs/query.md"),
                   QNONE;
        }
        if (nd->op == Q_ECO) {
            nd->op = Q_TAG;
            nd->name = "ECO";
            nd->nlen = 3;
        }
        pgnk_qfinish_atom(p, id, start);
        return id;
    }
    if (isre) {
        return pgnk_qfail_at(p, &optok, "'~' does not apply here:", "= != < <= > >="), QNONE;
    }
    if (nm && nm->needs_num && !pgnk_qnum_parse(v, vlen, &nd->num)) {
        return pgnk_qfail_at(p, &vtok, "expected a number, found", "a number"), QNONE;
    }
    switch (nd->op) {
    case Q_ECO: {
        const char *dots = strstr(v, "..");
        if (dots) {
            nd->str = pgnk_arena_strndup(&p->q->ar, v, (size_t)(dots - v));
            nd->slen = (size_t)(dots - v);
            nd->str2 = dots + 2;
            if (!nd->str) {
                p->st = PGN_E_NOMEM;
                return QNONE;
            }
        }
        break;
    }
    case Q_SPEED:
        nd->num = find_word(speeds, 6, v);
        if (nd->num < 0) {
            return pgnk_qfail_at(p, &vtok, "unknown speed",
                                 "ultrabullet, bullet, blitz, rapid, classical or correspondence"),
                   QNONE;
        }
        break;
    case Q_ENDS:
        nd->num = find_word(endings, 5, v);
        if (nd->num < 0 || (cmp != C_EQ && cmp != C_NE)) {
            return pgnk_qfail_at(
                       p, nd->num < 0 ? &vtok : &optok, "unexpected",
                       "ends = checkmate|stalemate|repetition|fifty|insufficient (or !=)"),
                   QNONE;
        }
        break;
    case Q_CLOCK:
        if (!pgnk_qclock_parse(v, vlen, &nd->num)) {
            return pgnk_qfail_at(p, &vtok, "expected a time, found", "h:mm:ss, m:ss or seconds"),
                   QNONE;
        }
        break;
    case Q_EVAL:
    case Q_SWING:
        if (!pgnk_qnum_parse(v, vlen, &nd->num)) {
            return pgnk_qfail_at(p, &vtok, "expected an evaluation in pawns, found",
                                 "a number (3.0)"),
                   QNONE;
        }
        break;
    default: break;
    }
    pgnk_qfinish_atom(p, id, start);
    return id;
}

/* The keyword atoms that take one operand. */
static uint32_t parse_operand_atom(parser *p, qop op, uint32_t start) {
    pgnk_qlex(p);
    tok vtok = p->t;
    size_t vlen;
    const char *v = pgnk_qoperand(p, &vlen, op == Q_FEN ? "a FEN in quotes" : "an operand");
    if (!v) {
        return QNONE;
    }
    uint32_t id = pgnk_qnew_node(p, op);
    if (id == QNONE) {
        return QNONE;
    }
    qnode *nd = &p->q->nodes[id];
    const char *m = NULL;
    nd->str = v;
    nd->slen = vlen;
    if (op == Q_FEN || op == Q_OPENING) {
        nd->pos = pgnk_arena_alloc(&p->q->ar, sizeof *nd->pos);
        if (!nd->pos) {
            p->st = PGN_E_NOMEM;
            return QNONE;
        }
    }
    switch (op) {
    case Q_FEN: {
        pgn_fen_diag fd;
        if (pgn_fen_parse(nd->pos, v, vlen, 0, &fd) != PGN_OK) {
            m = fd.reason;
        }
        break;
    }
    case Q_OPENING: m = pgnk_qopening_parse(nd->pos, &nd->num, v, vlen); break;
    case Q_PATTERN:
        nd->pat = pgnk_arena_alloc(&p->q->ar, sizeof *nd->pat);
        if (!nd->pat) {
            p->st = PGN_E_NOMEM;
            return QNONE;
        }
        m = pgnk_qpattern_compile(nd->pat, v, vlen);
        break;
    case Q_HASH: {
        size_t k = vlen > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') ? 2 : 0;
        m = vlen == k || vlen - k > 16 ? "a hash has 1 to 16 hexadecimal digits" : NULL;
        for (; !m && k < vlen; k++) {
            const char *hx = "0123456789abcdef", *d = strchr(hx, v[k] | 0x20);
            if (!d || !v[k]) {
                m = "not a hexadecimal digit in";
                break;
            }
            nd->bits = nd->bits << 4 | (uint64_t)(d - hx);
        }
        break;
    }
    case Q_MATERIAL: m = pgnk_qmaterial_parse(nd->mat, v, vlen); break;
    case Q_IMBALANCE: m = pgnk_qimbalance_parse(nd->mat, v, vlen); break;
    case Q_MOVE: m = pgnk_qmove_parse(&nd->mp, v, vlen); break;
    default: break;
    }
    if (m) {
        static const char *const what[] = {"a FEN: \"8/8/8/8/8/8/8/K1k5 w - -\"",
                                           "a FEN pattern: \"*/*/*/*/3pP3/*/*/*\"",
                                           "a Polyglot key: 0x463b96181691fc9c",
                                           "",
                                           "",
                                           "material: \"KQRkqr\" or \"KRPvKR\"",
                                           "an imbalance: \"R vs BN\""};
        const char *w = op == Q_MOVE      ? "a SAN move: Nxe5, exd6, e8=Q, O-O"
                        : op == Q_OPENING ? "legal SAN moves from the start: \"1. e4 c5 2. Nf3\""
                        : op - Q_FEN < 7  ? what[op - Q_FEN]
                                          : "";
        return pgnk_qfail_at(p, &vtok, m, w), QNONE;
    }
    pgnk_qfinish_atom(p, id, start);
    return id;
}

static const struct {
    const char *name;
    uint8_t op;
} bare_atoms[] = {{"wtm", Q_WTM},
                  {"btm", Q_BTM},
                  {"check", Q_CHECK},
                  {"mate", Q_MATE},
                  {"stalemate", Q_STALEMATE},
                  {"repetition", Q_REPETITION},
                  {"fifty", Q_FIFTY},
                  {"castles", Q_CASTLES},
                  {"capture", Q_CAPTURE},
                  {"promotion", Q_PROMOTION},
                  {"underpromotion", Q_UNDERPROMOTION},
                  {"enpassant", Q_ENPASSANT}},
  operand_atoms[] = {{"fen", Q_FEN},           {"pattern", Q_PATTERN},     {"hash", Q_HASH},
                     {"material", Q_MATERIAL}, {"imbalance", Q_IMBALANCE}, {"opening", Q_OPENING},
                     {"move", Q_MOVE}};

/* count(PIECES) OP N */
static uint32_t parse_count(parser *p, uint32_t start) {
    pgnk_qlex(p);
    if (p->t.kind != T_LP) {
        return pgnk_qfail(p, "unexpected", "'(' after count"), QNONE;
    }
    pgnk_qlex(p);
    uint64_t set = p->t.kind == T_WORD ? piece_set(p->s + p->t.at, p->t.len) : 0;
    if (!set) {
        return pgnk_qfail(p, "expected piece letters, found", "piece letters such as R or Pp"),
               QNONE;
    }
    pgnk_qlex(p);
    if (p->t.kind != T_RP) {
        return pgnk_qfail(p, "unexpected", "')'"), QNONE;
    }
    pgnk_qlex(p);
    if (p->t.kind != T_OP || p->t.cmp >= C_RE) {
        return pgnk_qfail(p, "unexpected", "= != < <= > >="), QNONE;
    }
    uint8_t cmp = p->t.cmp;
    pgnk_qlex(p);
    double k;
    if (p->t.kind != T_WORD || !pgnk_qnum_parse(p->s + p->t.at, p->t.len, &k)) {
        return pgnk_qfail(p, "expected a number, found", "a number"), QNONE;
    }
    uint32_t id = pgnk_qnew_node(p, Q_COUNT);
    if (id != QNONE) {
        p->q->nodes[id].bits = set;
        p->q->nodes[id].cmp = cmp;
        p->q->nodes[id].num = k;
        pgnk_qfinish_atom(p, id, start);
    }
    return id;
}

uint32_t pgnk_qparse_atom(parser *p) {
    uint32_t start = p->t.at;
    if (p->t.kind != T_WORD) {
        return pgnk_qfail(
                   p, p->t.kind == T_BAD ? "bad character or unterminated string" : "unexpected",
                   EXPECT_ATOM),
               QNONE;
    }
    tok nx = peek(p);
    if (nx.kind == T_OP) {
        return parse_comparison(p, start);
    }
    for (size_t k = 0; k < sizeof bare_atoms / sizeof bare_atoms[0]; k++) {
        if (pgnk_qword_is(p, &p->t, bare_atoms[k].name)) {
            uint32_t id = pgnk_qnew_node(p, (qop)bare_atoms[k].op);
            if (id != QNONE) {
                p->q->nodes[id].src = start;
                p->q->nodes[id].srclen = p->t.len;
                pgnk_qlex(p);
            }
            return id;
        }
    }
    for (size_t k = 0; k < sizeof operand_atoms / sizeof operand_atoms[0]; k++) {
        if (pgnk_qword_is(p, &p->t, operand_atoms[k].name)) {
            return parse_operand_atom(p, (qop)operand_atoms[k].op, start);
        }
    }
    if (pgnk_qword_is(p, &p->t, "count")) {
        return parse_count(p, start);
    }
    if (pgnk_qword_is(p, &p->t, "has")) {
        pgnk_qlex(p);
        if (pgnk_qword_is(p, &p->t, "comment")) {
            uint32_t id = pgnk_qnew_node(p, Q_COMMENT);
            if (id != QNONE) {
                pgnk_qfinish_atom(p, id, start);
            }
            return id;
        }
        if (!pgnk_qword_is(p, &p->t, "nag")) {
            return pgnk_qfail(p, "unexpected", "'comment' or 'nag'"), QNONE;
        }
        pgnk_qlex(p);
        double k;
        const char *w = p->s + p->t.at;
        size_t wl = p->t.len;
        if (p->t.kind == T_WORD && wl > 1 && w[0] == '$') {
            w++;
            wl--;
        }
        if (p->t.kind != T_WORD || !pgnk_qnum_parse(w, wl, &k) || k < 0 || k > 255 ||
            k != (double)(int)k) {
            return pgnk_qfail(p, "expected a NAG, found", "$1 to $255"), QNONE;
        }
        uint32_t id = pgnk_qnew_node(p, Q_NAG);
        if (id != QNONE) {
            p->q->nodes[id].nag = (uint8_t)k;
            pgnk_qfinish_atom(p, id, start);
        }
        return id;
    }
    const char *w = p->s + p->t.at;
    uint8_t sq;
    if (p->t.len == 3 && is_piece_letter(w[0]) && square_of(w + 1, &sq)) {
        uint32_t id = pgnk_qnew_node(p, Q_PIECE_ON);
        if (id != QNONE) {
            p->q->nodes[id].bits = piece_set(w, 1);
            p->q->nodes[id].num = sq;
            pgnk_qfinish_atom(p, id, start);
        }
        return id;
    }
    uint64_t set = piece_set(w, p->t.len);
    if (set && pgnk_qword_is(p, &nx, "on")) {
        pgnk_qlex(p);
        pgnk_qlex(p);
        if (p->t.kind != T_WORD || p->t.len != 2 || !square_of(p->s + p->t.at, &sq)) {
            return pgnk_qfail(p, "expected a square, found", "a square such as d1"), QNONE;
        }
        uint32_t id = pgnk_qnew_node(p, Q_PIECE_ON);
        if (id != QNONE) {
            p->q->nodes[id].bits = set;
            p->q->nodes[id].num = sq;
            pgnk_qfinish_atom(p, id, start);
        }
        return id;
    }
    return pgnk_qfail(p, "unknown atom", EXPECT_ATOM), QNONE;
}
