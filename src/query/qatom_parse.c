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

/* The node of a comparison: result = final, a named comparison (nm) or a tag; QNONE on error. */
static uint32_t comparison_node(parser *p, const tok *name, const tok *optok, const named *nm,
                                const char *v) {
    qcmp cmp = (qcmp)optok->cmp;
    uint32_t id;
    if (pgnk_qword_is(p, name, "result") && strcmp(v, "final") == 0) {
        if (cmp != C_EQ && cmp != C_NE) {
            return pgnk_qfail_at(p, optok, "unexpected", "'=' or '!='"), QNONE;
        }
        id = pgnk_qnew_node(p, Q_RESULT_FINAL);
    } else {
        id = pgnk_qnew_node(p, nm ? (qop)nm->op : Q_TAG);
    }
    if (id == QNONE) {
        return QNONE;
    }
    qnode *nd = &p->q->nodes[id];
    nd->cmp = (uint8_t)cmp;
    nd->sel = nm ? nm->sel : 0;
    if (nd->op == Q_TAG) {
        nd->name = pgnk_arena_strndup(&p->q->ar, p->s + name->at, name->len);
        nd->nlen = name->len;
        if (!nd->name) {
            p->st = PGN_E_NOMEM;
            return QNONE;
        }
    }
    return id;
}

/* name glob "pattern": kept as written (qglob.c reads it); eco becomes a test of the ECO tag. */
static int glob_value(qnode *nd) {
    if (nd->op == Q_ECO) {
        nd->op = Q_TAG;
        nd->name = "ECO";
        nd->nlen = 3;
    }
    return 1;
}

/* name ~ "re": a regular expression for a tag, player or eco (then a test of the ECO tag). */
static int regex_value(parser *p, qnode *nd, const tok *vtok) {
    const char *m = pgnk_qre_compile(&p->q->ar, nd->str, nd->slen, vtok->icase, &nd->re);
    if (m) {
        pgnk_qfail_at(p, vtok, m, "a regular expression of the subset in docs/query.md");
        return 0;
    }
    if (nd->op == Q_ECO) {
        nd->op = Q_TAG;
        nd->name = "ECO";
        nd->nlen = 3;
    }
    return 1;
}

/* eco = A00..B99: the range's bounds. */
static int eco_range(parser *p, qnode *nd) {
    const char *v = nd->str, *dots = strstr(v, "..");
    if (dots) {
        nd->str = pgnk_arena_strndup(&p->q->ar, v, (size_t)(dots - v));
        nd->slen = (size_t)(dots - v);
        nd->str2 = dots + 2;
        if (!nd->str) {
            p->st = PGN_E_NOMEM;
            return 0;
        }
    }
    return 1;
}

/* The value of a named comparison that is not a plain string or number, checked. */
static int special_value(parser *p, qnode *nd, const tok *optok, const tok *vtok) {
    const char *v = nd->str;
    switch (nd->op) {
    case Q_ECO: return eco_range(p, nd);
    case Q_SPEED:
        nd->num = find_word(speeds, 6, v);
        return nd->num >= 0 ||
               (pgnk_qfail_at(p, vtok, "unknown speed",
                              "ultrabullet, bullet, blitz, rapid, classical or correspondence"),
                0);
    case Q_ENDS:
        nd->num = find_word(endings, 5, v);
        if (nd->num < 0 || (nd->cmp != C_EQ && nd->cmp != C_NE)) {
            pgnk_qfail_at(p, nd->num < 0 ? vtok : optok, "unexpected",
                          "ends = checkmate|stalemate|repetition|fifty|insufficient (or !=)");
            return 0;
        }
        return 1;
    case Q_CLOCK:
        return pgnk_qclock_parse(v, nd->slen, &nd->num) ||
               (pgnk_qfail_at(p, vtok, "expected a time, found", "h:mm:ss, m:ss or seconds"), 0);
    case Q_EVAL:
    case Q_SWING:
        return pgnk_qnum_parse(v, nd->slen, &nd->num) ||
               (pgnk_qfail_at(p, vtok, "expected an evaluation in pawns, found", "a number (3.0)"),
                0);
    default: return 1;
    }
}

/* name OP value */
static uint32_t parse_comparison(parser *p, uint32_t start) {
    tok name = p->t;
    pgnk_qlex(p);
    tok optok = p->t;
    if (optok.kind == T_WORD) { /* the word operator glob */
        optok.cmp = C_GLOB;
    }
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
    uint32_t id = v ? comparison_node(p, &name, &optok, nm, v) : QNONE;
    if (id == QNONE) {
        return QNONE;
    }
    qnode *nd = &p->q->nodes[id];
    nd->str = v;
    nd->slen = vlen;
    nd->icase = vtok.icase;
    if (optok.cmp >= C_RE) {
        if (nd->op != Q_TAG && nd->op != Q_PLAYER && nd->op != Q_ECO) {
            return pgnk_qfail_at(p, &optok,
                                 optok.cmp == C_GLOB ? "'glob' does not apply here:"
                                                     : "'~' does not apply here:",
                                 "= != < <= > >="),
                   QNONE;
        }
        if (optok.cmp == C_GLOB ? !glob_value(nd) : !regex_value(p, nd, &vtok)) {
            return QNONE;
        }
    } else if (nm && nm->needs_num && !pgnk_qnum_parse(v, vlen, &nd->num)) {
        return pgnk_qfail_at(p, &vtok, "expected a number, found", "a number"), QNONE;
    } else if (!special_value(p, nd, &optok, &vtok)) {
        return QNONE;
    }
    pgnk_qfinish_atom(p, id, start);
    return id;
}

/* hash 0x...: 1 to 16 hexadecimal digits into nd->bits; NULL or a message. */
static const char *parse_hash(qnode *nd, const char *v, size_t vlen) {
    size_t k = vlen > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') ? 2 : 0;
    if (vlen == k || vlen - k > 16) {
        return "a hash has 1 to 16 hexadecimal digits";
    }
    for (; k < vlen; k++) {
        const char *hx = "0123456789abcdef", *d = strchr(hx, v[k] | 0x20);
        if (!d || !v[k]) {
            return "not a hexadecimal digit in";
        }
        nd->bits = nd->bits << 4 | (uint64_t)(d - hx);
    }
    return NULL;
}

/* The operand v of keyword atom nd, compiled; NULL or a message (p->st set when out of memory). */
static const char *compile_operand(parser *p, qnode *nd, const char *v, size_t vlen) {
    void *mem = NULL;
    if (nd->op == Q_FEN || nd->op == Q_OPENING) {
        mem = nd->pos = pgnk_arena_alloc(&p->q->ar, sizeof *nd->pos);
    } else if (nd->op == Q_PATTERN) {
        mem = nd->pat = pgnk_arena_alloc(&p->q->ar, sizeof *nd->pat);
    }
    if (!mem && (nd->op == Q_FEN || nd->op == Q_OPENING || nd->op == Q_PATTERN)) {
        p->st = PGN_E_NOMEM;
        return "out of memory";
    }
    switch (nd->op) {
    case Q_FEN: {
        pgn_fen_diag fd;
        return pgn_fen_parse(nd->pos, v, vlen, 0, &fd) != PGN_OK ? fd.reason : NULL;
    }
    case Q_OPENING: return pgnk_qopening_parse(nd->pos, &nd->num, v, vlen);
    case Q_PATTERN: return pgnk_qpattern_compile(nd->pat, v, vlen);
    case Q_HASH: return parse_hash(nd, v, vlen);
    case Q_MATERIAL: return pgnk_qmaterial_parse(nd->mat, v, vlen);
    case Q_IMBALANCE: return pgnk_qimbalance_parse(nd->mat, v, vlen);
    case Q_MOVE: return pgnk_qmove_parse(&nd->mp, v, vlen);
    default: return NULL;
    }
}

/* What the operand of op should look like, for an error message. */
static const char *operand_form(qop op) {
    static const char *const what[] = {"a FEN: \"8/8/8/8/8/8/8/K1k5 w - -\"",
                                       "a FEN pattern: \"*/*/*/*/3pP3/*/*/*\"",
                                       "a Polyglot key: 0x463b96181691fc9c",
                                       "",
                                       "",
                                       "material: \"KQRkqr\" or \"KRPvKR\"",
                                       "an imbalance: \"R vs BN\""};
    return op == Q_MOVE      ? "a SAN move: Nxe5, exd6, e8=Q, O-O"
           : op == Q_OPENING ? "legal SAN moves from the start: \"1. e4 c5 2. Nf3\""
           : op - Q_FEN < 7  ? what[op - Q_FEN]
                             : "";
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
    nd->str = v;
    nd->slen = vlen;
    const char *m = compile_operand(p, nd, v, vlen);
    if (p->st != PGN_OK) {
        return QNONE;
    }
    if (m) {
        return pgnk_qfail_at(p, &vtok, m, operand_form(op)), QNONE;
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

/* A count comparison: sums of count(PIECES) and numbers on both sides (docs/query.md). The
 * piece counts are kept as one coefficient per colour and type, the numbers as one constant. */
typedef struct qsum {
    int coef[2][7];
    double k;       /* the constants, left side minus right side */
    unsigned terms; /* capped at COUNT_TERMS: coefficients stay within an int8_t */
    uint64_t set;   /* the union of the left side's sets */
    int simple;     /* left: count() terms added, sets disjoint; right: numbers only */
} qsum;

#define COUNT_TERMS 16

/* count(PIECES) or a number, at the current token, added to s with sign; p->t is its last token
 * on return. 0 after an error. */
static int count_term(parser *p, int sign, qsum *s) {
    double k;
    if (++s->terms > COUNT_TERMS) {
        return pgnk_qfail(p, "too many terms at", "at most 16 count() or number terms");
    }
    if (p->t.kind == T_WORD && pgnk_qnum_parse(p->s + p->t.at, p->t.len, &k)) {
        s->k += sign * k;
        s->simple &= sign < 0;
        return 1;
    }
    if (!pgnk_qword_is(p, &p->t, "count")) {
        return pgnk_qfail(p, "expected a number or count(...), found", "a number or count(...)");
    }
    pgnk_qlex(p);
    if (p->t.kind != T_LP) {
        return pgnk_qfail(p, "unexpected", "'(' after count");
    }
    pgnk_qlex(p);
    uint64_t set = p->t.kind == T_WORD ? piece_set(p->s + p->t.at, p->t.len) : 0;
    if (!set) {
        return pgnk_qfail(p, "expected piece letters, found", "piece letters such as R or Pp");
    }
    pgnk_qlex(p);
    if (p->t.kind != T_RP) {
        return pgnk_qfail(p, "unexpected", "')'");
    }
    for (int c = 0; c < 2; c++) {
        for (int t = PGN_PAWN; t <= PGN_KING; t++) {
            s->coef[c][t] += (set >> (c * 8 + t) & 1) ? sign : 0;
        }
    }
    s->simple &= sign > 0 && !(s->set & set);
    s->set |= sign > 0 ? set : 0;
    return 1;
}

/* term (+|- term)*, the first term at the current token. A sign glued to the next term
 * ("-count(n)", "+2") is read as the operator before it. */
static int count_sum(parser *p, int sign, qsum *s) {
    if (!count_term(p, sign, s)) {
        return 0;
    }
    for (;;) {
        tok t = peek(p);
        char c = t.kind == T_WORD ? p->s[t.at] : 0;
        if (c != '+' && c != '-') {
            return 1;
        }
        p->i = t.at + 1; /* the term after the sign, glued or not */
        pgnk_qlex(p);
        if (!count_term(p, c == '-' ? -sign : sign, s)) {
            return 0;
        }
    }
}

/* count(PIECES) [+|- TERM]... OP TERM [+|- TERM]... */
static uint32_t parse_count(parser *p, uint32_t start) {
    qsum s;
    memset(&s, 0, sizeof s);
    s.simple = 1;
    if (!count_sum(p, 1, &s)) {
        return QNONE;
    }
    pgnk_qlex(p);
    if (p->t.kind != T_OP || p->t.cmp >= C_RE) {
        return pgnk_qfail(p, "unexpected", "= != < <= > >= + -"), QNONE;
    }
    uint8_t cmp = p->t.cmp;
    pgnk_qlex(p);
    if (!count_sum(p, -1, &s)) {
        return QNONE;
    }
    uint32_t id = pgnk_qnew_node(p, Q_COUNT);
    if (id != QNONE) {
        qnode *nd = &p->q->nodes[id];
        nd->cmp = cmp;
        nd->num = -s.k;
        nd->bits = s.set;
        nd->sel = !s.simple; /* 1: the sum of coefficients times counts, in mat */
        for (int c = 0; c < 2; c++) {
            for (int t = 0; t < 7; t++) {
                nd->mat[c][t] = (int8_t)s.coef[c][t];
            }
        }
        pgnk_qfinish_atom(p, id, start);
    }
    return id;
}

/* has comment, has nag $N */
static uint32_t parse_has(parser *p, uint32_t start) {
    pgnk_qlex(p);
    int comment = pgnk_qword_is(p, &p->t, "comment");
    if (!comment && !pgnk_qword_is(p, &p->t, "nag")) {
        return pgnk_qfail(p, "unexpected", "'comment' or 'nag'"), QNONE;
    }
    double k = 0;
    if (!comment) {
        pgnk_qlex(p);
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
    }
    uint32_t id = pgnk_qnew_node(p, comment ? Q_COMMENT : Q_NAG);
    if (id != QNONE) {
        p->q->nodes[id].nag = (uint8_t)k;
        pgnk_qfinish_atom(p, id, start);
    }
    return id;
}

/* Pd4 (one piece letter and a square), or "PIECES on SQUARE" when nx is the word on; QNONE
 * without an error when the word is neither (*tried stays 0). */
static uint32_t parse_piece_on(parser *p, const tok *nx, uint32_t start, int *tried) {
    const char *w = p->s + p->t.at;
    uint8_t sq;
    uint64_t set = 0;
    if (p->t.len == 3 && is_piece_letter(w[0]) && square_of(w + 1, &sq)) {
        set = piece_set(w, 1);
    } else if ((set = piece_set(w, p->t.len)) != 0 && pgnk_qword_is(p, nx, "on")) {
        pgnk_qlex(p);
        pgnk_qlex(p);
        if (p->t.kind != T_WORD || p->t.len != 2 || !square_of(p->s + p->t.at, &sq)) {
            *tried = 1;
            return pgnk_qfail(p, "expected a square, found", "a square such as d1"), QNONE;
        }
    } else {
        return QNONE;
    }
    *tried = 1;
    uint32_t id = pgnk_qnew_node(p, Q_PIECE_ON);
    if (id != QNONE) {
        p->q->nodes[id].bits = set;
        p->q->nodes[id].num = sq;
        pgnk_qfinish_atom(p, id, start);
    }
    return id;
}

/* 1 if t names an atom that takes an operand (move, fen...): "move glob" is not a comparison. */
static int is_operand_atom(parser *p, const tok *t) {
    for (size_t k = 0; k < sizeof operand_atoms / sizeof operand_atoms[0]; k++) {
        if (pgnk_qword_is(p, t, operand_atoms[k].name)) {
            return 1;
        }
    }
    return 0;
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
    if (nx.kind == T_OP ||
        (nx.kind == T_WORD && pgnk_qword_is(p, &nx, "glob") && !is_operand_atom(p, &p->t))) {
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
        return parse_has(p, start);
    }
    int tried = 0;
    uint32_t id = parse_piece_on(p, &nx, start, &tried);
    return tried ? id : (pgnk_qfail(p, "unknown atom", EXPECT_ATOM), QNONE);
}
