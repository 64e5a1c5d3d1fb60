/* SPDX-License-Identifier: MIT */
/* The selection language's lexer and parser (docs/query.md, "Grammar"): a recursive-descent parser
 * whose depth is capped at QUERY_MAX_DEPTH (an expression nested deeper is refused), building the
 * tree of qnodes; errors carry the column, the offending token and what was expected there. */
#include <stdio.h>
#include <string.h>

#include "query_internal.h"

typedef enum { T_END, T_LP, T_RP, T_STR, T_WORD, T_OP, T_BAD } tkind;

typedef struct tok {
    tkind kind;
    uint32_t at, len; /* byte offset and length in the text (strings: with their quotes) */
    uint8_t cmp;      /* T_OP */
    uint8_t icase;    /* T_STR followed by i */
} tok;

typedef struct parser {
    pgn_query *q;
    const char *s;
    size_t n, i;
    tok t; /* the current token */
    uint32_t depth;
    pgn_query_error *err;
    pgn_status st;
} parser;

static int is_word_char(const char *s, size_t n, size_t i) {
    unsigned char c = (unsigned char)s[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
        return 1;
    }
    if (strchr("_.:+#/$-", c) && c) {
        return 1;
    }
    /* e8=Q: an = glued between a rank digit and a piece letter belongs to the move */
    return c == '=' && i > 0 && i + 1 < n && s[i - 1] >= '1' && s[i - 1] <= '8' &&
           strchr("QRBNqrbn", s[i + 1]) && s[i + 1];
}

/* Reads the next token at p->i into p->t; skips white space and # comments. */
static void lex(parser *p) {
    const char *s = p->s;
    size_t n = p->n, i = p->i;
    for (;;) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) {
            i++;
        }
        if (i < n && s[i] == '#') {
            while (i < n && s[i] != '\n') {
                i++;
            }
            continue;
        }
        break;
    }
    tok t = {T_END, (uint32_t)i, 0, 0, 0};
    if (i >= n) {
        p->t = t;
        p->i = i;
        return;
    }
    char c = s[i];
    size_t j = i + 1;
    if (c == '(' || c == ')') {
        t.kind = c == '(' ? T_LP : T_RP;
    } else if (c == '"') {
        while (j < n && s[j] != '"') {
            j += s[j] == '\\' && j + 1 < n ? 2 : 1;
        }
        if (j >= n) {
            t.kind = T_BAD;
            j = n;
        } else {
            j++;
            t.kind = T_STR;
            if (j < n && s[j] == 'i' && (j + 1 >= n || !is_word_char(s, n, j + 1))) {
                t.icase = 1;
                j++;
            }
        }
    } else if (strchr("=!<>~", c)) {
        char d = j < n ? s[j] : 0;
        t.kind = T_OP;
        if (c == '=') {
            t.cmp = C_EQ;
            j += d == '=';
        } else if (c == '!' && d == '=') {
            t.cmp = C_NE;
            j++;
        } else if (c == '!' && d == '~') {
            t.cmp = C_NRE;
            j++;
        } else if (c == '<') {
            t.cmp = d == '=' ? C_LE : d == '>' ? C_NE : C_LT;
            j += d == '=' || d == '>';
        } else if (c == '>') {
            t.cmp = d == '=' ? C_GE : C_GT;
            j += d == '=';
        } else if (c == '~') {
            t.cmp = C_RE;
        } else {
            t.kind = T_BAD;
        }
    } else if (is_word_char(s, n, i)) {
        while (j < n && is_word_char(s, n, j)) {
            j++;
        }
        t.kind = T_WORD;
    } else {
        t.kind = T_BAD;
        while (j < n && ((unsigned char)s[j] & 0xC0) == 0x80) {
            j++; /* the whole UTF-8 character */
        }
    }
    t.len = (uint32_t)(j - i);
    p->t = t;
    p->i = j;
}

/* Records an error at token t (the first one only). */
static int fail_at(parser *p, const tok *t, const char *msg, const char *expected) {
    if (p->st != PGN_OK) {
        return 0;
    }
    p->st = PGN_E_UNEXPECTED_TOKEN;
    if (p->err) {
        p->err->column = t->at + 1;
        p->err->length = t->len;
        if (t->kind == T_END) {
            snprintf(p->err->message, sizeof p->err->message, "%s at the end", msg);
        } else {
            int l = t->len > 40 ? 40 : (int)t->len;
            snprintf(p->err->message, sizeof p->err->message, "%s '%.*s'", msg, l, p->s + t->at);
        }
        size_t el = expected ? strlen(expected) : 0;
        el = el < sizeof p->err->expected ? el : sizeof p->err->expected - 1;
        memcpy(p->err->expected, expected ? expected : "", el);
        p->err->expected[el] = 0;
    }
    return 0;
}

static int fail(parser *p, const char *msg, const char *expected) {
    return fail_at(p, &p->t, msg, expected);
}

static int word_is(const parser *p, const tok *t, const char *w) {
    size_t l = strlen(w);
    if (t->kind != T_WORD || t->len != l) {
        return 0;
    }
    for (size_t k = 0; k < l; k++) {
        char c = p->s[t->at + k];
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        if (c != w[k]) {
            return 0;
        }
    }
    return 1;
}

static uint32_t new_node(parser *p, qop op) {
    pgn_query *q = p->q;
    if (q->n == q->cap) {
        uint32_t cap = q->cap ? q->cap * 2 : 32;
        qnode *nn = pgnk_arena_realloc(&q->ar, q->nodes, q->cap * sizeof *nn, cap * sizeof *nn);
        if (!nn) {
            p->st = PGN_E_NOMEM;
            return QNONE;
        }
        q->nodes = nn;
        q->cap = cap;
    }
    qnode *nd = &q->nodes[q->n];
    memset(nd, 0, sizeof *nd);
    nd->op = (uint8_t)op;
    nd->child = nd->next = nd->slot = QNONE;
    return q->n++;
}

/* The text of a token: a string's content unescaped (into the arena), or a word as is. */
static const char *tok_text(parser *p, const tok *t, size_t *len) {
    const char *s = p->s + t->at;
    if (t->kind != T_STR) {
        *len = t->len;
        return pgnk_arena_strndup(&p->q->ar, s, t->len);
    }
    size_t inner = t->len - 2u - t->icase;
    char *out = pgnk_arena_alloc(&p->q->ar, inner + 1);
    size_t o = 0;
    if (!out) {
        return NULL;
    }
    for (size_t k = 1; k < 1 + inner; k++) {
        if (s[k] == '\\' && k + 1 < 1 + inner) {
            k++;
        }
        out[o++] = s[k];
    }
    out[o] = 0;
    *len = o;
    return out;
}

/* Takes the current token as an operand (a string or a word); fails with what. */
static const char *operand(parser *p, size_t *len, const char *what) {
    if (p->t.kind != T_STR && p->t.kind != T_WORD) {
        fail(p, "expected an operand, found", what);
        return NULL;
    }
    const char *v = tok_text(p, &p->t, len);
    if (!v) {
        p->st = PGN_E_NOMEM;
    }
    return v;
}

static uint32_t parse_or(parser *p);

/* The remainder of an atom: its source span ends at the token just consumed. */
static void finish_atom(parser *p, uint32_t id, uint32_t start) {
    qnode *nd = &p->q->nodes[id];
    nd->src = start;
    nd->srclen = p->t.at + p->t.len - start;
    lex(p);
}

static uint32_t parse_atom(parser *p);

static uint32_t parse_unary(parser *p) {
    if (++p->depth > QUERY_MAX_DEPTH + 1) { /* 64 levels above the atom */
        if (p->st == PGN_OK) {
            fail(p, "expression nested too deeply at", NULL);
            p->st = PGN_E_LIMIT;
        }
        return QNONE;
    }
    uint32_t id = QNONE;
    qop op = word_is(p, &p->t, "not")       ? Q_NOT
             : word_is(p, &p->t, "flip")    ? Q_FLIP
             : word_is(p, &p->t, "at")      ? Q_AT
             : word_is(p, &p->t, "persist") ? Q_PERSIST
             : word_is(p, &p->t, "in")      ? Q_VARS
                                            : Q_AND;
    if (op != Q_AND) { /* a prefix operator, then its operand */
        double k = 0;
        lex(p);
        if (op == Q_PERSIST &&
            (p->t.kind != T_WORD || !pgnk_qnum_parse(p->s + p->t.at, p->t.len, &k) || k < 1 ||
             k > 10000 || k != (double)(uint32_t)k)) {
            fail(p, "expected a number of plies, found", "a whole number from 1 to 10000");
            return QNONE;
        }
        if (op == Q_VARS && !word_is(p, &p->t, "variations")) {
            fail(p, "unexpected", "'variations'");
            return QNONE;
        }
        if (op == Q_PERSIST || op == Q_VARS) {
            lex(p);
        }
        uint32_t c = parse_unary(p);
        id = c == QNONE ? QNONE : new_node(p, op);
        if (id != QNONE) {
            p->q->nodes[id].child = c;
            p->q->nodes[id].num = k;
        }
    } else if (p->t.kind == T_LP) {
        lex(p);
        id = parse_or(p);
        if (id != QNONE && p->t.kind != T_RP) {
            fail(p, "unexpected", "'and', 'or', 'then', 'next' or ')'");
            return QNONE;
        }
        lex(p);
    } else {
        id = parse_atom(p);
    }
    p->depth--;
    return p->st == PGN_OK ? id : QNONE;
}

/* A chain of unary operands joined by then/next: one Q_SEQ with each gap in the child's sel. */
static uint32_t parse_seq(parser *p) {
    uint32_t first = parse_unary(p);
    if (first == QNONE || !(word_is(p, &p->t, "then") || word_is(p, &p->t, "next"))) {
        return first;
    }
    uint32_t seq = new_node(p, Q_SEQ);
    if (seq == QNONE) {
        return QNONE;
    }
    p->q->nodes[seq].child = first;
    uint32_t last = first, count = 1;
    while (word_is(p, &p->t, "then") || word_is(p, &p->t, "next")) {
        uint8_t gap = (uint8_t)word_is(p, &p->t, "next");
        lex(p);
        uint32_t c = parse_unary(p);
        if (c == QNONE) {
            return QNONE;
        }
        if (++count > 64) {
            return fail(p, "more than 64 steps in a sequence at", NULL), QNONE;
        }
        p->q->nodes[c].gap = gap;
        p->q->nodes[last].next = c;
        last = c;
    }
    return seq;
}

/* A chain joined by word (and / or): one n-ary node. */
static uint32_t parse_chain(parser *p, const char *word, qop op, uint32_t (*sub)(parser *)) {
    uint32_t first = sub(p);
    if (first == QNONE || !word_is(p, &p->t, word)) {
        return first;
    }
    uint32_t id = new_node(p, op);
    if (id == QNONE) {
        return QNONE;
    }
    p->q->nodes[id].child = first;
    uint32_t last = first;
    while (word_is(p, &p->t, word)) {
        lex(p);
        uint32_t c = sub(p);
        if (c == QNONE) {
            return QNONE;
        }
        p->q->nodes[last].next = c;
        last = c;
    }
    return id;
}

static uint32_t parse_and(parser *p) {
    return parse_chain(p, "and", Q_AND, parse_seq);
}

static uint32_t parse_or(parser *p) {
    return parse_chain(p, "or", Q_OR, parse_and);
}

pgn_status pgnk_query_parse(pgn_query *q, pgn_query_error *err) {
    parser p;
    memset(&p, 0, sizeof p);
    p.q = q;
    p.s = q->text;
    p.n = q->len;
    p.err = err;
    lex(&p);
    q->root = parse_or(&p);
    if (p.st == PGN_OK && p.t.kind != T_END) {
        fail(&p, "unexpected", "'and', 'or', 'then', 'next' or the end");
    }
    return p.st;
}

/* ---- printing ---- */

typedef struct out {
    char *buf;
    size_t cap, len;
} out;

static void put(out *o, const char *s, size_t n) {
    for (size_t k = 0; k < n; k++, o->len++) {
        if (o->len + 1 < o->cap) {
            o->buf[o->len] = s[k];
        }
    }
}

static void puts_(out *o, const char *s) {
    put(o, s, strlen(s));
}

/* An atom: its tokens joined by single spaces (comments and line breaks dropped). */
static void print_atom(const pgn_query *q, const qnode *nd, out *o) {
    parser p;
    memset(&p, 0, sizeof p);
    p.s = q->text + nd->src;
    p.n = nd->srclen;
    lex(&p);
    for (int first = 1; p.t.kind != T_END; first = 0) {
        int glue = p.t.kind == T_RP || (!first && p.s[p.t.at - 1] == '(');
        if (!first && !glue) {
            put(o, " ", 1);
        }
        put(o, p.s + p.t.at, p.t.len);
        lex(&p);
    }
}

static void print_node(const pgn_query *q, uint32_t id, out *o, uint32_t depth) {
    const qnode *nd = &q->nodes[id];
    static const char *const names[] = {" and ", " or "};
    if (depth > QUERY_MAX_DEPTH + 2) {
        return; /* cannot happen: the parser caps the depth */
    }
    switch (nd->op) {
    case Q_AND:
    case Q_OR:
        puts_(o, "(");
        for (uint32_t c = nd->child; c != QNONE; c = q->nodes[c].next) {
            print_node(q, c, o, depth + 1);
            if (q->nodes[c].next != QNONE) {
                puts_(o, names[nd->op == Q_OR]);
            }
        }
        puts_(o, ")");
        return;
    case Q_SEQ:
        puts_(o, "(");
        for (uint32_t c = nd->child; c != QNONE; c = q->nodes[c].next) {
            print_node(q, c, o, depth + 1);
            uint32_t nx = q->nodes[c].next;
            if (nx != QNONE) {
                puts_(o, q->nodes[nx].gap ? " next " : " then ");
            }
        }
        puts_(o, ")");
        return;
    case Q_NOT:
    case Q_PERSIST:
    case Q_AT:
    case Q_FLIP:
    case Q_VARS:
    case Q_EXISTS: {
        /* a prefix operator: "(op operand)"; an EXISTS is an at (...) or invisible */
        char pre[32];
        int bare = nd->op == Q_EXISTS && !nd->sel;
        if (nd->op == Q_PERSIST) {
            snprintf(pre, sizeof pre, "(persist %u ", (unsigned)nd->num);
        } else {
            snprintf(pre, sizeof pre, "%s",
                     bare               ? ""
                     : nd->op == Q_NOT  ? "(not "
                     : nd->op == Q_FLIP ? "(flip "
                     : nd->op == Q_VARS ? "(in variations "
                                        : "(at ");
        }
        puts_(o, pre);
        print_node(q, nd->child, o, depth + 1);
        puts_(o, bare ? "" : ")");
        return;
    }
    default: print_atom(q, nd, o);
    }
}

size_t pgn_query_print(const pgn_query *q, char *buf, size_t cap) {
    out o = {buf, cap, 0};
    if (q->root != QNONE) {
        print_node(q, q->root, &o, 0);
    }
    if (cap) {
        buf[o.len < cap ? o.len : cap - 1] = 0;
    }
    return o.len;
}

/* ---- atoms ---- */

#define EXPECT_ATOM                                                                                \
    "a tag comparison (White ~ \"Carlsen\"), an atom (fen, pattern, Pd4, check, move, ...), "      \
    "'not', 'at', 'flip', 'persist', 'in variations' or '('"

/* The token after the current one, without consuming anything. */
static tok peek(parser *p) {
    parser save = *p;
    lex(p);
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
    lex(p);
    tok optok = p->t;
    qcmp cmp = (qcmp)optok.cmp;
    lex(p);
    const named *nm = NULL;
    for (size_t k = 0; k < sizeof comparisons / sizeof comparisons[0]; k++) {
        if (word_is(p, &name, comparisons[k].name)) {
            nm = &comparisons[k];
        }
    }
    tok vtok = p->t;
    size_t vlen;
    const char *v = operand(p, &vlen, "a value: a word or a \"string\"");
    if (!v) {
        return QNONE;
    }
    int isre = cmp == C_RE || cmp == C_NRE;
    uint32_t id;
    if (word_is(p, &name, "result") && strcmp(v, "final") == 0) {
        if (cmp != C_EQ && cmp != C_NE) {
            return fail_at(p, &optok, "unexpected", "'=' or '!='"), QNONE;
        }
        id = new_node(p, Q_RESULT_FINAL);
    } else if (nm) {
        id = new_node(p, (qop)nm->op);
    } else {
        id = new_node(p, Q_TAG);
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
            return fail_at(p, &vtok, m, "a regular expression of the subset in docs/query.md"),
                   QNONE;
        }
        if (nd->op == Q_ECO) {
            nd->op = Q_TAG;
            nd->name = "ECO";
            nd->nlen = 3;
        }
        finish_atom(p, id, start);
        return id;
    }
    if (isre) {
        return fail_at(p, &optok, "'~' does not apply here:", "= != < <= > >="), QNONE;
    }
    if (nm && nm->needs_num && !pgnk_qnum_parse(v, vlen, &nd->num)) {
        return fail_at(p, &vtok, "expected a number, found", "a number"), QNONE;
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
            return fail_at(p, &vtok, "unknown speed",
                           "ultrabullet, bullet, blitz, rapid, classical or correspondence"),
                   QNONE;
        }
        break;
    case Q_ENDS:
        nd->num = find_word(endings, 5, v);
        if (nd->num < 0 || (cmp != C_EQ && cmp != C_NE)) {
            return fail_at(p, nd->num < 0 ? &vtok : &optok, "unexpected",
                           "ends = checkmate|stalemate|repetition|fifty|insufficient (or !=)"),
                   QNONE;
        }
        break;
    case Q_CLOCK:
        if (!pgnk_qclock_parse(v, vlen, &nd->num)) {
            return fail_at(p, &vtok, "expected a time, found", "h:mm:ss, m:ss or seconds"), QNONE;
        }
        break;
    case Q_EVAL:
    case Q_SWING:
        if (!pgnk_qnum_parse(v, vlen, &nd->num)) {
            return fail_at(p, &vtok, "expected an evaluation in pawns, found", "a number (3.0)"),
                   QNONE;
        }
        break;
    default: break;
    }
    finish_atom(p, id, start);
    return id;
}

/* The keyword atoms that take one operand. */
static uint32_t parse_operand_atom(parser *p, qop op, uint32_t start) {
    lex(p);
    tok vtok = p->t;
    size_t vlen;
    const char *v = operand(p, &vlen, op == Q_FEN ? "a FEN in quotes" : "an operand");
    if (!v) {
        return QNONE;
    }
    uint32_t id = new_node(p, op);
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
        return fail_at(p, &vtok, m, w), QNONE;
    }
    finish_atom(p, id, start);
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
    lex(p);
    if (p->t.kind != T_LP) {
        return fail(p, "unexpected", "'(' after count"), QNONE;
    }
    lex(p);
    uint64_t set = p->t.kind == T_WORD ? piece_set(p->s + p->t.at, p->t.len) : 0;
    if (!set) {
        return fail(p, "expected piece letters, found", "piece letters such as R or Pp"), QNONE;
    }
    lex(p);
    if (p->t.kind != T_RP) {
        return fail(p, "unexpected", "')'"), QNONE;
    }
    lex(p);
    if (p->t.kind != T_OP || p->t.cmp >= C_RE) {
        return fail(p, "unexpected", "= != < <= > >="), QNONE;
    }
    uint8_t cmp = p->t.cmp;
    lex(p);
    double k;
    if (p->t.kind != T_WORD || !pgnk_qnum_parse(p->s + p->t.at, p->t.len, &k)) {
        return fail(p, "expected a number, found", "a number"), QNONE;
    }
    uint32_t id = new_node(p, Q_COUNT);
    if (id != QNONE) {
        p->q->nodes[id].bits = set;
        p->q->nodes[id].cmp = cmp;
        p->q->nodes[id].num = k;
        finish_atom(p, id, start);
    }
    return id;
}

static uint32_t parse_atom(parser *p) {
    uint32_t start = p->t.at;
    if (p->t.kind != T_WORD) {
        return fail(p, p->t.kind == T_BAD ? "bad character or unterminated string" : "unexpected",
                    EXPECT_ATOM),
               QNONE;
    }
    tok nx = peek(p);
    if (nx.kind == T_OP) {
        return parse_comparison(p, start);
    }
    for (size_t k = 0; k < sizeof bare_atoms / sizeof bare_atoms[0]; k++) {
        if (word_is(p, &p->t, bare_atoms[k].name)) {
            uint32_t id = new_node(p, (qop)bare_atoms[k].op);
            if (id != QNONE) {
                p->q->nodes[id].src = start;
                p->q->nodes[id].srclen = p->t.len;
                lex(p);
            }
            return id;
        }
    }
    for (size_t k = 0; k < sizeof operand_atoms / sizeof operand_atoms[0]; k++) {
        if (word_is(p, &p->t, operand_atoms[k].name)) {
            return parse_operand_atom(p, (qop)operand_atoms[k].op, start);
        }
    }
    if (word_is(p, &p->t, "count")) {
        return parse_count(p, start);
    }
    if (word_is(p, &p->t, "has")) {
        lex(p);
        if (word_is(p, &p->t, "comment")) {
            uint32_t id = new_node(p, Q_COMMENT);
            if (id != QNONE) {
                finish_atom(p, id, start);
            }
            return id;
        }
        if (!word_is(p, &p->t, "nag")) {
            return fail(p, "unexpected", "'comment' or 'nag'"), QNONE;
        }
        lex(p);
        double k;
        const char *w = p->s + p->t.at;
        size_t wl = p->t.len;
        if (p->t.kind == T_WORD && wl > 1 && w[0] == '$') {
            w++;
            wl--;
        }
        if (p->t.kind != T_WORD || !pgnk_qnum_parse(w, wl, &k) || k < 0 || k > 255 ||
            k != (double)(int)k) {
            return fail(p, "expected a NAG, found", "$1 to $255"), QNONE;
        }
        uint32_t id = new_node(p, Q_NAG);
        if (id != QNONE) {
            p->q->nodes[id].nag = (uint8_t)k;
            finish_atom(p, id, start);
        }
        return id;
    }
    const char *w = p->s + p->t.at;
    uint8_t sq;
    if (p->t.len == 3 && is_piece_letter(w[0]) && square_of(w + 1, &sq)) {
        uint32_t id = new_node(p, Q_PIECE_ON);
        if (id != QNONE) {
            p->q->nodes[id].bits = piece_set(w, 1);
            p->q->nodes[id].num = sq;
            finish_atom(p, id, start);
        }
        return id;
    }
    uint64_t set = piece_set(w, p->t.len);
    if (set && word_is(p, &nx, "on")) {
        lex(p);
        lex(p);
        if (p->t.kind != T_WORD || p->t.len != 2 || !square_of(p->s + p->t.at, &sq)) {
            return fail(p, "expected a square, found", "a square such as d1"), QNONE;
        }
        uint32_t id = new_node(p, Q_PIECE_ON);
        if (id != QNONE) {
            p->q->nodes[id].bits = set;
            p->q->nodes[id].num = sq;
            finish_atom(p, id, start);
        }
        return id;
    }
    return fail(p, "unknown atom", EXPECT_ATOM), QNONE;
}
