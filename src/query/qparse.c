/* SPDX-License-Identifier: MIT */
/* The selection language's lexer and parser (docs/query.md, "Grammar"): a recursive-descent parser
 * whose depth is capped at 2 x QUERY_MAX_DEPTH + 1 levels of text (an expression nested deeper is
 * refused), building the tree of qnodes; errors carry the column, the offending token and what was
 * expected there. */
#include <stdio.h>
#include <string.h>

#include "qparser.h"

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

/* The first byte at or after i that is neither white space nor in a # comment. */
static size_t skip_space(const char *s, size_t n, size_t i) {
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
        return i;
    }
}

/* A "string" whose opening quote is at j - 1, with an optional i flag: its end into *j. */
static void lex_string(const char *s, size_t n, size_t *j, tok *t) {
    size_t k = *j;
    while (k < n && s[k] != '"') {
        k += s[k] == '\\' && k + 1 < n ? 2 : 1;
    }
    if (k >= n) {
        t->kind = T_BAD;
        *j = n;
        return;
    }
    k++;
    t->kind = T_STR;
    if (k < n && s[k] == 'i' && (k + 1 >= n || !is_word_char(s, n, k + 1))) {
        t->icase = 1;
        k++;
    }
    *j = k;
}

/* An operator whose first character c is at j - 1 (one of =!<>~): its end into *j. */
static void lex_operator(const char *s, size_t n, char c, size_t *j, tok *t) {
    char d = *j < n ? s[*j] : 0;
    t->kind = T_OP;
    if (c == '=') {
        t->cmp = C_EQ;
        *j += d == '=';
    } else if (c == '!' && (d == '=' || d == '~')) {
        t->cmp = d == '=' ? C_NE : C_NRE;
        (*j)++;
    } else if (c == '<') {
        t->cmp = d == '=' ? C_LE : d == '>' ? C_NE : C_LT;
        *j += d == '=' || d == '>';
    } else if (c == '>') {
        t->cmp = d == '=' ? C_GE : C_GT;
        *j += d == '=';
    } else if (c == '~') {
        t->cmp = C_RE;
    } else {
        t->kind = T_BAD;
    }
}

/* Reads the next token at p->i into p->t; skips white space and # comments. */
void pgnk_qlex(parser *p) {
    const char *s = p->s;
    size_t n = p->n, i = skip_space(s, n, p->i);
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
        lex_string(s, n, &j, &t);
    } else if (strchr("=!<>~", c)) {
        lex_operator(s, n, c, &j, &t);
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
int pgnk_qfail_at(parser *p, const tok *t, const char *msg, const char *expected) {
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

int pgnk_qfail(parser *p, const char *msg, const char *expected) {
    return pgnk_qfail_at(p, &p->t, msg, expected);
}

int pgnk_qword_is(const parser *p, const tok *t, const char *w) {
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

uint32_t pgnk_qnew_node(parser *p, qop op) {
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
const char *pgnk_qoperand(parser *p, size_t *len, const char *what) {
    if (p->t.kind != T_STR && p->t.kind != T_WORD) {
        pgnk_qfail(p, "expected an operand, found", what);
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
void pgnk_qfinish_atom(parser *p, uint32_t id, uint32_t start) {
    qnode *nd = &p->q->nodes[id];
    nd->src = start;
    nd->srclen = p->t.at + p->t.len - start;
    pgnk_qlex(p);
}

static uint32_t parse_unary(parser *p) {
    /* Twice the operators allowed above an atom (query.c checks those): the canonical form writes
     * "(not (not x))" where "not not x" was, and must compile again. */
    if (++p->depth > 2 * QUERY_MAX_DEPTH + 1) {
        if (p->st == PGN_OK) {
            pgnk_qfail(p, "expression nested too deeply at", NULL);
            p->st = PGN_E_LIMIT;
        }
        return QNONE;
    }
    uint32_t id = QNONE;
    qop op = pgnk_qword_is(p, &p->t, "not")       ? Q_NOT
             : pgnk_qword_is(p, &p->t, "flip")    ? Q_FLIP
             : pgnk_qword_is(p, &p->t, "at")      ? Q_AT
             : pgnk_qword_is(p, &p->t, "persist") ? Q_PERSIST
             : pgnk_qword_is(p, &p->t, "in")      ? Q_VARS
                                                  : Q_AND;
    if (op != Q_AND) { /* a prefix operator, then its operand */
        double k = 0;
        pgnk_qlex(p);
        if (op == Q_PERSIST &&
            (p->t.kind != T_WORD || !pgnk_qnum_parse(p->s + p->t.at, p->t.len, &k) || k < 1 ||
             k > 10000 || k != (double)(uint32_t)k)) {
            pgnk_qfail(p, "expected a number of plies, found", "a whole number from 1 to 10000");
            return QNONE;
        }
        if (op == Q_VARS && !pgnk_qword_is(p, &p->t, "variations")) {
            pgnk_qfail(p, "unexpected", "'variations'");
            return QNONE;
        }
        if (op == Q_PERSIST || op == Q_VARS) {
            pgnk_qlex(p);
        }
        uint32_t c = parse_unary(p);
        id = c == QNONE ? QNONE : pgnk_qnew_node(p, op);
        if (id != QNONE) {
            p->q->nodes[id].child = c;
            p->q->nodes[id].num = k;
        }
    } else if (p->t.kind == T_LP) {
        pgnk_qlex(p);
        id = parse_or(p);
        if (id != QNONE && p->t.kind != T_RP) {
            pgnk_qfail(p, "unexpected", "'and', 'or', 'then', 'next' or ')'");
            return QNONE;
        }
        pgnk_qlex(p);
    } else {
        id = pgnk_qparse_atom(p);
    }
    p->depth--;
    return p->st == PGN_OK ? id : QNONE;
}

/* A chain of unary operands joined by then/next: one Q_SEQ with each gap in the child's sel. */
static uint32_t parse_seq(parser *p) {
    uint32_t first = parse_unary(p);
    if (first == QNONE || !(pgnk_qword_is(p, &p->t, "then") || pgnk_qword_is(p, &p->t, "next"))) {
        return first;
    }
    uint32_t seq = pgnk_qnew_node(p, Q_SEQ);
    if (seq == QNONE) {
        return QNONE;
    }
    p->q->nodes[seq].child = first;
    uint32_t last = first, count = 1;
    while (pgnk_qword_is(p, &p->t, "then") || pgnk_qword_is(p, &p->t, "next")) {
        uint8_t gap = (uint8_t)pgnk_qword_is(p, &p->t, "next");
        pgnk_qlex(p);
        uint32_t c = parse_unary(p);
        if (c == QNONE) {
            return QNONE;
        }
        if (++count > 64) {
            return pgnk_qfail(p, "more than 64 steps in a sequence at", NULL), QNONE;
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
    if (first == QNONE || !pgnk_qword_is(p, &p->t, word)) {
        return first;
    }
    uint32_t id = pgnk_qnew_node(p, op);
    if (id == QNONE) {
        return QNONE;
    }
    p->q->nodes[id].child = first;
    uint32_t last = first;
    while (pgnk_qword_is(p, &p->t, word)) {
        pgnk_qlex(p);
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
    pgnk_qlex(&p);
    q->root = parse_or(&p);
    if (p.st == PGN_OK && p.t.kind != T_END) {
        pgnk_qfail(&p, "unexpected", "'and', 'or', 'then', 'next' or the end");
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
    pgnk_qlex(&p);
    for (int first = 1; p.t.kind != T_END; first = 0) {
        int glue = p.t.kind == T_RP || (!first && p.s[p.t.at - 1] == '(');
        if (!first && !glue) {
            put(o, " ", 1);
        }
        put(o, p.s + p.t.at, p.t.len);
        pgnk_qlex(&p);
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
