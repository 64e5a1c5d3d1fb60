/* SPDX-License-Identifier: MIT */
/* Compiling a selection expression (docs/query.md, "Evaluation"): after parsing, each maximal
 * subtree of point atoms is wrapped in an "exists a point" node, sequences and persist get their
 * state slots, children are ordered cheap first, and the query learns what it needs from the
 * reader (no board at all for tags only). */
#include <string.h>

#include "../base/alloc.h"
#include "../base/bits.h"
#include "query_internal.h"

typedef struct compiler {
    pgn_query *q;
    pgn_query_error *err;
    pgn_status st;
} compiler;

static uint32_t first_atom(const pgn_query *q, uint32_t id) {
    while (q->nodes[id].child != QNONE && q->nodes[id].op < Q_TAG) {
        id = q->nodes[id].child;
    }
    return id;
}

static void compile_fail(compiler *c, pgn_status st, uint32_t id, const char *msg,
                         const char *expected) {
    if (c->st != PGN_OK) {
        return;
    }
    const qnode *a = &c->q->nodes[first_atom(c->q, id)];
    c->st = st;
    if (c->err) {
        c->err->column = a->src + 1;
        c->err->length = a->srclen;
        memset(c->err->message, 0, sizeof c->err->message);
        strncpy(c->err->message, msg, sizeof c->err->message - 1);
        memset(c->err->expected, 0, sizeof c->err->expected);
        strncpy(c->err->expected, expected, sizeof c->err->expected - 1);
    }
}

static void compile_error(compiler *c, uint32_t id, const char *msg, const char *expected) {
    compile_fail(c, PGN_E_UNEXPECTED_TOKEN, id, msg, expected);
}

/* The number of nodes from id down to its deepest atom, which *deepest receives. The parser caps
 * the nesting of the text (2 x QUERY_MAX_DEPTH + 1 levels), which bounds this recursion. */
static uint32_t height(const pgn_query *q, uint32_t id, uint32_t *deepest) {
    uint32_t h = 0;
    *deepest = id;
    for (uint32_t c = q->nodes[id].op < Q_TAG ? q->nodes[id].child : QNONE; c != QNONE;
         c = q->nodes[c].next) {
        uint32_t a, k = height(q, c, &a);
        if (k > h) {
            h = k;
            *deepest = a;
        }
    }
    return h + 1;
}

/* The first flip below id (id included) with more than QUERY_MAX_FLIPS flips above it or at it,
 * or QNONE. A flip tests its operand twice (as is and colour-reversed), so nested flips cost 2^k:
 * they are capped, which loses nothing, since a flip's value is the same on both colours
 * (flip (a and flip b) is flip a and flip b). Bounded like height(). */
static uint32_t flips_too_deep(const pgn_query *q, uint32_t id, uint32_t above) {
    const qnode *n = &q->nodes[id];
    above += n->op == Q_FLIP;
    if (above > QUERY_MAX_FLIPS) {
        return id;
    }
    for (uint32_t c = n->op < Q_TAG ? n->child : QNONE; c != QNONE; c = q->nodes[c].next) {
        uint32_t f = flips_too_deep(q, c, above);
        if (f != QNONE) {
            return f;
        }
    }
    return QNONE;
}

static uint8_t atom_cost(const qnode *n) {
    switch (n->op) {
    case Q_PATTERN: return 3;
    case Q_CHECK: return 4;
    case Q_MATE:
    case Q_STALEMATE: return 12;
    case Q_PLIES:
    case Q_MOVES: return 40;
    case Q_ENDS:
    case Q_RESULT_FINAL: return 45;
    default: return 1;
    }
}

static uint32_t flags_of(const qnode *n) {
    switch (n->op) {
    case Q_PLIES:
    case Q_MOVES: return QF_MOVETEXT;
    case Q_ENDS:
        return QF_BOARD | QF_MOVETEXT | QF_END_POS | (n->num == 2 ? QF_KEYS | QF_ZOBRIST : 0);
    case Q_RESULT_FINAL: return QF_BOARD | QF_MOVETEXT | QF_END_POS | QF_TAGS;
    case Q_REPETITION: return QF_BOARD | QF_MOVETEXT | QF_KEYS | QF_ZOBRIST;
    case Q_HASH: return QF_BOARD | QF_MOVETEXT | QF_ZOBRIST;
    case Q_FEN:
    case Q_OPENING: return QF_BOARD | QF_MOVETEXT | QF_NEVER_PLY;
    case Q_MOVE:
    case Q_CAPTURE: return QF_BOARD | QF_MOVETEXT | QF_BEFORE;
    case Q_COMMENT:
    case Q_NAG:
    case Q_CLOCK:
    case Q_EVAL:
    case Q_SWING: return QF_BOARD | QF_MOVETEXT | QF_ANNOT;
    default: return n->op >= Q_POINT_FIRST ? QF_BOARD | QF_MOVETEXT : QF_TAGS;
    }
}

/* Sorts the children of an n-ary node by cost (insertion sort on the sibling list). */
static void sort_children(pgn_query *q, uint32_t id) {
    uint32_t sorted = QNONE, c = q->nodes[id].child;
    while (c != QNONE) {
        uint32_t nx = q->nodes[c].next, *link = &sorted;
        while (*link != QNONE && q->nodes[*link].cost <= q->nodes[c].cost) {
            link = &q->nodes[*link].next;
        }
        q->nodes[c].next = *link;
        *link = c;
        c = nx;
    }
    q->nodes[id].child = sorted;
}

static uint32_t add_slot(compiler *c, uint32_t id) {
    pgn_query *q = c->q;
    uint32_t *s =
        pgnk_arena_realloc(&q->ar, q->slots, q->nslots * sizeof *s, (q->nslots + 1) * sizeof *s);
    if (!s) {
        c->st = PGN_E_NOMEM;
        return QNONE;
    }
    q->slots = s;
    s[q->nslots] = id;
    return q->nslots++;
}

/* Makes room for k more nodes, so that pointers into the nodes stay valid while wrapping. */
static int reserve(compiler *c, uint32_t k) {
    pgn_query *q = c->q;
    if (q->n + k <= q->cap) {
        return 1;
    }
    uint32_t cap = q->n + k + 8;
    qnode *nn = pgnk_arena_realloc(&q->ar, q->nodes, q->cap * sizeof *nn, cap * sizeof *nn);
    if (!nn) {
        c->st = PGN_E_NOMEM;
        return 0;
    }
    q->nodes = nn;
    q->cap = cap;
    return 1;
}

/* Wraps node *link (a point subtree) in an EXISTS node with a slot. */
static void wrap(compiler *c, uint32_t *link, uint8_t vars) {
    pgn_query *q = c->q;
    uint32_t inner = *link;
    uint32_t e = q->n++; /* room made by reserve() */
    qnode *n = &q->nodes[e];
    memset(n, 0, sizeof *n);
    n->op = Q_EXISTS;
    n->child = inner;
    n->next = q->nodes[inner].next;
    n->vars = vars;
    n->gap = q->nodes[inner].gap;
    n->cost = (uint8_t)(q->nodes[inner].cost > 200 ? 250 : q->nodes[inner].cost + 50);
    q->nodes[inner].next = QNONE;
    *link = e;
    n->slot = add_slot(c, e);
    if (vars) {
        q->flags |= QF_VARS;
    }
}

/* 1 if the point subtree id reads nothing but the material (piece counts), which only a capture
 * or a promotion changes. */
static int material_only(const pgn_query *q, uint32_t id) {
    const qnode *n = &q->nodes[id];
    switch (n->op) {
    case Q_AND:
    case Q_OR:
        for (uint32_t c = n->child; c != QNONE; c = q->nodes[c].next) {
            if (!material_only(q, c)) {
                return 0;
            }
        }
        return 1;
    case Q_NOT:
    case Q_AT: return material_only(q, n->child);
    case Q_MATERIAL:
    case Q_IMBALANCE:
    case Q_COUNT: return 1;
    default: return 0;
    }
}

static int is_point_leaf(const qnode *n) {
    return n->op >= Q_POINT_FIRST || n->op == Q_FLIP;
}

/* Gives an EXISTS node (a slot) the point group under it. */
static void make_exists(compiler *c, uint32_t id, uint8_t vars) {
    qnode *n = &c->q->nodes[id];
    n->op = Q_EXISTS;
    n->sel = 1; /* printed as at (...) */
    n->vars = vars;
    n->cost = (uint8_t)(n->cost > 200 ? 250 : n->cost + 50);
    n->slot = add_slot(c, id);
    if (vars) {
        c->q->flags |= QF_VARS;
    }
}

/* Marks the subtree: costs and needs bottom-up, slots, and "exists a point" above each point atom
 * in game context (and, or, not between games) and above each `at (...)` group (and, or, not on
 * one point). in_point: inside at, then, next, persist or flip. Depth is bounded by the parser. */
static void mark(compiler *c, uint32_t id, uint8_t vars, int in_point) {
    pgn_query *q = c->q;
    qnode *n = &q->nodes[id];
    if (n->op >= Q_TAG) {
        n->cost = atom_cost(n);
        q->flags |= flags_of(n);
        if (in_point && n->op < Q_POINT_FIRST) {
            compile_error(c, id, "a game condition inside a position group",
                          "at, then, next, persist and flip take position, move and annotation "
                          "atoms only");
        }
        return;
    }
    uint8_t op = n->op, v = (uint8_t)(vars || op == Q_VARS);
    int inner = in_point || op == Q_AT || op == Q_SEQ || op == Q_PERSIST || op == Q_FLIP;
    if (in_point && (op == Q_SEQ || op == Q_PERSIST)) {
        compile_error(c, id, "a sequence inside a position group",
                      "then, next and persist outside at (...) and flip");
        return;
    }
    unsigned cost = 0;
    uint32_t k = 0;
    for (uint32_t ch = n->child; ch != QNONE && c->st == PGN_OK; ch = q->nodes[ch].next) {
        mark(c, ch, v, inner);
        cost += q->nodes[ch].cost;
        k += (uint32_t)is_point_leaf(&q->nodes[ch]);
    }
    n = &q->nodes[id];
    n->cost = (uint8_t)(cost > 250 ? 250 : cost);
    if (c->st != PGN_OK) {
        return;
    }
    if (op == Q_AT && !in_point) {
        make_exists(c, id, v);
    } else if ((op == Q_SEQ || op == Q_PERSIST)) {
        n->cost = (uint8_t)(n->cost > 200 ? 250 : n->cost + 50);
        n->slot = add_slot(c, id);
    } else if (!inner && reserve(c, k)) {
        /* game context: each point atom becomes "exists a point where ..." */
        for (uint32_t *link = &q->nodes[id].child; *link != QNONE; link = &q->nodes[*link].next) {
            if (is_point_leaf(&q->nodes[*link])) {
                wrap(c, link, v);
            }
        }
    }
    if (op == Q_AND || op == Q_OR) {
        sort_children(q, id);
    }
}

/* The squares a FEN pattern reads: its bitboard tests, and whole ranks run by the cell program. */
static uint64_t pattern_dep(const qpattern *p) {
    uint64_t d = p->occ | p->white | p->black | p->slow;
    for (int c = 0; c < 15; c++) {
        d |= p->req[c];
    }
    for (int r = 0; r < 8; r++) {
        if (!p->full_rank[r]) {
            d |= UINT64_C(0xff) << ((7 - r) * 8);
        }
    }
    return d;
}

static uint64_t point_dep(const pgn_query *q, uint32_t id) {
    const qnode *n = &q->nodes[id];
    uint64_t d = 0;
    switch (n->op) {
    case Q_AND:
    case Q_OR:
        for (uint32_t c = n->child; c != QNONE; c = q->nodes[c].next) {
            d |= point_dep(q, c);
        }
        return d;
    case Q_NOT:
    case Q_AT:
    case Q_VARS:
    case Q_EXISTS: return point_dep(q, n->child);
    case Q_FLIP: d = point_dep(q, n->child); return d | bits_bswap(d);
    case Q_PIECE_ON: return UINT64_C(1) << (unsigned)n->num;
    case Q_PATTERN: return pattern_dep(n->pat);
    default: return ~UINT64_C(0); /* the side, the move, annotations, counts, the whole board */
    }
}

/* No square at all (a pattern of '*' only): a constant, tested at every point. */
uint64_t pgnk_qpoint_dep(const pgn_query *q, uint32_t id) {
    uint64_t d = point_dep(q, id);
    return d ? d : ~UINT64_C(0);
}

/* The caps on the tree (the parser caps the text): 64 operators above an atom (the canonical form,
 * which parenthesises each, needs up to twice as many levels of text, which the parser allows),
 * QUERY_MAX_FLIPS flips nested. */
static int nesting_ok(compiler *c) {
    uint32_t at;
    if (height(c->q, c->q->root, &at) > QUERY_MAX_DEPTH + 1) {
        compile_fail(c, PGN_E_LIMIT, at, "expression nested too deeply",
                     "at most 64 operators above an atom");
    } else if ((at = flips_too_deep(c->q, c->q->root, 0)) != QNONE) {
        compile_fail(c, PGN_E_LIMIT, at, "flip nested more than 4 deep",
                     "flip (a and flip b) is flip a and flip b");
    }
    return c->st == PGN_OK;
}

pgn_status pgn_query_compile(pgn_query **out, const char *text, size_t len,
                             const pgn_allocator *alloc, pgn_query_error *err) {
    if (err) {
        memset(err, 0, sizeof *err);
    }
    if (len > QUERY_MAX_LEN) {
        if (err) {
            strcpy(err->message, "expression longer than 64 KiB");
        }
        return PGN_E_LIMIT;
    }
    pgn_status st;
    pgn_query *q = pgnk_alloc_object(alloc, sizeof *q, &st);
    if (!q) {
        return st;
    }
    pgnk_arena_init(&q->ar, alloc);
    q->text = pgnk_arena_strndup(&q->ar, text, len);
    q->len = len;
    st = q->text ? pgnk_query_parse(q, err) : PGN_E_NOMEM;
    if (st == PGN_OK && q->root == QNONE) {
        st = PGN_E_UNEXPECTED_TOKEN;
    }
    if (st == PGN_OK) {
        compiler c = {q, err, PGN_OK};
        if (nesting_ok(&c)) {
            mark(&c, q->root, 0, 0);
        }
        if (c.st == PGN_OK && is_point_leaf(&q->nodes[q->root]) && reserve(&c, 1)) {
            wrap(&c, &q->root, 0);
        }
        st = c.st;
    }
    if (st != PGN_OK) {
        pgn_query_free(q);
        return st;
    }
    for (uint32_t s = 0; s < q->nslots; s++) {
        qnode *e = &q->nodes[q->slots[s]];
        e->matonly =
            (uint8_t)((e->op == Q_EXISTS || e->op == Q_PERSIST) && material_only(q, e->child));
        e->dep = e->op == Q_SEQ ? ~UINT64_C(0) : pgnk_qpoint_dep(q, e->child);
        if (e->op != Q_SEQ) {
            e->nvk = pgnk_qpoint_never_kind(q, e->child, e->need);
        }
        for (uint32_t c = e->op == Q_SEQ ? e->child : QNONE; c != QNONE; c = q->nodes[c].next) {
            q->nodes[c].nvk = pgnk_qpoint_never_kind(q, c, q->nodes[c].need);
            q->nodes[c].dep = pgnk_qpoint_dep(q, c);
        }
    }
    if (q->nslots || (q->flags & QF_KEYS)) {
        q->flags |= QF_POINTS; /* else only the final position: no move callback needed */
    }
    /* an atom that counts or reads moves reads them, and meets their errors (issue 34) */
    q->reader_flags = !(q->flags & (QF_BOARD | QF_MOVETEXT)) ? PGN_READ_NO_BOARD
                      : (q->flags & QF_ZOBRIST)              ? 0
                                                             : PGN_READ_NO_KEYS;
    *out = q;
    return PGN_OK;
}

void pgn_query_free(pgn_query *q) {
    if (q) {
        pgn_allocator a = q->ar.alloc;
        pgnk_arena_free(&q->ar);
        pgnk_free(&a, q);
    }
}

uint32_t pgn_query_reader_flags(const pgn_query *q) {
    return q->reader_flags;
}
