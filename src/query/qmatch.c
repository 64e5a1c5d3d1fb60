/* SPDX-License-Identifier: MIT */
/* The matcher (docs/query.md, "Evaluation"): a reader visitor that keeps the tags, tests each
 * point (a position with the move that led to it and that move's comment and NAGs) as the reader
 * plays the moves, runs sequences and persist as small automata, and decides the game in
 * three-valued logic as soon as it can: after the tags (then the movetext is skipped), or at a
 * point (then the rest of the game is not visited), or at the end. */
#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/bits.h"
#include "pgnkit/annot.h"
#include "query_internal.h"

/* One line being read: the main line (depth 0) or a variation. */
typedef struct qline {
    pgn_pos before; /* the position before the pending move (kept only under QF_BEFORE or
                       QF_VARS: the main line's final position comes from the reader) */
    pgn_move mv;    /* the pending move: its point is tested when the next move (or the end)
                       shows its comments and NAGs */
    uint32_t ply;   /* the pending move's point */
    uint8_t pending;
    uint8_t side; /* the side that played the pending move */
    qann ann;
} qline;

enum { SLOT_OPEN = 0, SLOT_TRUE = 1, SLOT_NEVER = 2 };
enum { PASS_NO, PASS_YES, PASS_PAWNS }; /* pass_point */

#define QNEED_MAX 4 /* open groups whose pawns set_quiet keeps for absent_point */

struct pgn_query_matcher {
    pgn_move_gate gate; /* first: the reader's under PGN_READ_MOVE_GATE (set_quiet keeps it);
                           gate.pawns: the pawns of each colour at the last main-line point whose
                           "never" tests ran; gate.watch: the squares whose pawns decide the open
                           groups' pawn "never" tests (set_quiet: their need and the cones behind
                           it) */
    const pgn_query *q;
    pgn_allocator alloc;
    arena ar; /* the game's tags */
    qtags tags;
    uint8_t *slot;     /* per slot: SLOT_* */
    uint64_t *reached; /* Q_SEQ: steps matched so far */
    uint64_t *exact;   /* Q_SEQ: steps matched ending at the previous point */
    uint64_t *sval;    /* Q_SEQ: the steps' values at the previous point, where sknown */
    uint64_t *sknown;
    uint32_t *run; /* Q_PERSIST: consecutive points */
    int8_t *val;   /* per node: a game atom's value after the tags (-1 unknown) */
    qline *lines;
    uint32_t depth, cap; /* lines[0..depth] in use */
    uint64_t *keys;
    size_t nkeys, capkeys;
    double prev_eval;
    uint8_t has_prev_eval, decided, matched, over, tags_done;
    uint8_t quiet_ok;  /* pass_point may pass main-line points over (set_quiet) */
    uint8_t pawns_ok;  /* ... and captures that left the watched pawns as at gate.pawns */
    uint64_t open_dep; /* the squares the open "exists" groups read */
    uint8_t nneed;     /* absent_point: the open groups (0: not used), each true only where */
    uint64_t need[QNEED_MAX][2]; /* the pawns of its need (qnode.need) stand (set_quiet) */
    unsigned last_reps;
    uint32_t first_ply, plies;
    pgn_pos endpos;
    uint8_t has_endpos;
    pgn_result result;
    pgn_status st;
};

/* p grown to need elements (pgnk_grow); NULL (m->st set) when out of memory, p then unchanged. */
static void *grow(pgn_query_matcher *m, void *p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) {
        return p; /* room already: no call, no realloc to the same size */
    }
    if (!pgnk_grow(&m->alloc, &p, cap, need, size, 16)) {
        m->st = PGN_E_NOMEM;
        return NULL;
    }
    return p;
}

pgn_status pgn_query_matcher_new(pgn_query_matcher **out, const pgn_query *q,
                                 const pgn_allocator *alloc) {
    pgn_status st;
    pgn_query_matcher *m = pgnk_alloc_object(alloc, sizeof *m, &st);
    if (!m) {
        return st;
    }
    m->q = q;
    pgnk_alloc_copy(&m->alloc, alloc);
    pgnk_arena_init(&m->ar, alloc);
    size_t ns = q->nslots ? q->nslots : 1;
    m->slot = pgnk_malloc(alloc, ns);
    m->reached = pgnk_malloc(alloc, ns * sizeof *m->reached);
    m->exact = pgnk_malloc(alloc, ns * sizeof *m->exact);
    m->sval = pgnk_malloc(alloc, ns * sizeof *m->sval);
    m->sknown = pgnk_malloc(alloc, ns * sizeof *m->sknown);
    m->run = pgnk_malloc(alloc, ns * sizeof *m->run);
    m->val = pgnk_malloc(alloc, q->n);
    size_t cap = 0;
    m->lines = grow(m, NULL, &cap, 1, sizeof *m->lines);
    m->cap = (uint32_t)cap;
    if (!m->slot || !m->reached || !m->exact || !m->sval || !m->sknown || !m->run || !m->val ||
        !m->lines) {
        pgn_query_matcher_free(m);
        return PGN_E_NOMEM;
    }
    *out = m;
    return PGN_OK;
}

void pgn_query_matcher_free(pgn_query_matcher *m) {
    if (!m) {
        return;
    }
    pgn_allocator a = m->alloc;
    pgnk_free(&a, m->slot);
    pgnk_free(&a, m->reached);
    pgnk_free(&a, m->exact);
    pgnk_free(&a, m->sval);
    pgnk_free(&a, m->sknown);
    pgnk_free(&a, m->run);
    pgnk_free(&a, m->val);
    pgnk_free(&a, m->lines);
    pgnk_free(&a, m->keys);
    pgnk_free(&a, m->tags.v);
    pgnk_arena_free(&m->ar);
    pgnk_free(&a, m);
}

pgn_status pgn_query_matcher_result(const pgn_query_matcher *m, pgn_query_result *out) {
    out->matched = m->matched;
    out->first_ply = m->first_ply;
    return m->st;
}

/* ---- three-valued evaluation of the game-level tree: 0, 1, 2 = not known yet ---- */

static int end_atom(const pgn_query_matcher *m, const qnode *n) {
    if (n->op == Q_PLIES || n->op == Q_MOVES) {
        double v = n->op == Q_PLIES ? m->plies : (m->plies + 1) / 2;
        return pgnk_qcmp_num((qcmp)n->cmp, v, n->num);
    }
    return m->has_endpos && pgnk_qend_atom(n, &m->endpos, m->last_reps, &m->tags, m->result);
}

static int eval3(const pgn_query_matcher *m, uint32_t id) {
    const pgn_query *q = m->q;
    const qnode *n = &q->nodes[id];
    switch (n->op) {
    case Q_AND:
    case Q_OR: {
        int stop = n->op == Q_OR, unknown = 0;
        for (uint32_t c = n->child; c != QNONE; c = q->nodes[c].next) {
            int v = eval3(m, c);
            if (v == stop) {
                return stop;
            }
            unknown |= v == 2;
        }
        return unknown ? 2 : !stop;
    }
    case Q_NOT: {
        int v = eval3(m, n->child);
        return v == 2 ? 2 : !v;
    }
    case Q_VARS: return eval3(m, n->child);
    case Q_EXISTS:
    case Q_SEQ:
    case Q_PERSIST:
        return m->slot[n->slot] == SLOT_TRUE    ? 1
               : m->slot[n->slot] == SLOT_NEVER ? 0
               : m->over                        ? 0
                                                : 2;
    case Q_PLIES:
    case Q_MOVES:
    case Q_ENDS:
    case Q_RESULT_FINAL: return m->over ? end_atom(m, n) : 2;
    default: return m->tags_done ? m->val[id] : 2;
    }
}

/* Decides the game if the tree's value is known. */
static void settle(pgn_query_matcher *m) {
    int v = eval3(m, m->q->root);
    if (v != 2) {
        m->decided = 1;
        m->matched = (uint8_t)v;
    }
}

/* ---- points ---- */

/* One point of the sequence n. A step whose squares the move left alone (moved: the squares it
 * changed) keeps its value of the previous point; a step already reached is not tested again
 * unless the next step is a `next`, which needs it at the point just before. */
static void seq_step(pgn_query_matcher *m, const qnode *n, const qpt *pt, uint64_t moved) {
    const pgn_query *q = m->q;
    uint64_t reached = m->reached[n->slot], prev = m->exact[n->slot], now = 0, known = 0;
    uint64_t was = m->sval[n->slot], was_known = m->sknown[n->slot];
    uint32_t i = 0;
    for (uint32_t c = n->child; c != QNONE; c = q->nodes[c].next, i++) {
        const qnode *st = &q->nodes[c];
        uint64_t bit = UINT64_C(1) << i;
        if ((reached & bit) && (st->next == QNONE || !q->nodes[st->next].gap) && !q->noprune) {
            continue;
        }
        uint64_t ready = i == 0 ? 1 : ((st->gap ? prev : reached) >> (i - 1)) & 1;
        if (!ready) {
            continue;
        }
        int v = (was_known & bit) && !(st->dep & moved) && !q->noprune ? (was & bit) != 0
                                                                       : pgnk_qpoint_eval(q, c, pt);
        known |= bit;
        now |= v ? bit : 0;
    }
    m->sval[n->slot] = now;
    m->sknown[n->slot] = known;
    m->reached[n->slot] = reached | now;
    m->exact[n->slot] = now;
    if ((m->reached[n->slot] >> (i - 1)) & 1) {
        m->slot[n->slot] = SLOT_TRUE;
    }
}

/* 1 if the group id, tested as h says (h->nvk), holds at no later point of the main line. */
static int never_at(const pgn_query *q, const qnode *h, uint32_t id, const qpt *pt) {
    switch (h->nvk) {
    case NV_NONE: return 0;
    case NV_PAWNS: return pgnk_qpawns_never(pt->pos, h->need);
    default: return pgnk_qpoint_never(q, id, pt->pos, pt->ply);
    }
}

/* 1 if the sequence n can no longer complete: a step that no point so far has reached (nor any
 * step after it) must hold at a later point, and holds at none (pgnk_qpoint_never). Steps already
 * reached may be reached again, so only the steps past the furthest one reached are asked. */
static int seq_never(const pgn_query_matcher *m, const qnode *n, const qpt *pt) {
    const pgn_query *q = m->q;
    uint64_t reached = m->reached[n->slot];
    uint32_t i = 0;
    for (uint32_t c = n->child; c != QNONE; c = q->nodes[c].next, i++) {
        if ((reached >> i) == 0 && never_at(q, &q->nodes[c], c, pt)) {
            return 1;
        }
    }
    return 0;
}

/* The squares whose contents the move mv to pos changed; all of them at the start position (no
 * move), for castling, en passant, null moves, variants (drops, explosions) and in variations. */
static uint64_t touched_by(const pgn_pos *pos, pgn_move mv, int in_var) {
    if (pos->variant != PGN_VARIANT_STANDARD || in_var || mv == PGN_MOVE_NONE ||
        mv == PGN_MOVE_NULL || PGN_MOVE_KIND(mv) >= PGN_MOVE_EN_PASSANT) {
        return ~UINT64_C(0);
    }
    return bits_sq(PGN_MOVE_FROM(mv)) | bits_sq(PGN_MOVE_TO(mv));
}

static uint64_t touched(const qpt *pt, int in_var) {
    return touched_by(pt->pos, pt->mv, in_var);
}

/* 1 if the group n must be tested again at pt: the move changed a square it reads. */
static int fresh(const pgn_query *q, const qnode *n, const qpt *pt, int in_var) {
    return n->dep == ~UINT64_C(0) || q->noprune || (n->dep & touched(pt, in_var));
}

/* Tests the open slot s at point pt. never: the "can no longer match" tests may run; unchanged:
 * the material is as at the previous main-line point. */
static void test_slot(pgn_query_matcher *m, uint32_t s, const qpt *pt, int in_var, int never,
                      int unchanged) {
    const pgn_query *q = m->q;
    const qnode *n = &q->nodes[q->slots[s]];
    if (n->op == Q_EXISTS) {
        if ((in_var && !n->vars) || (n->matonly && !in_var && unchanged)) {
            return; /* material as at the previous point, where the group was false */
        }
        /* the squares it reads as at the previous point, where it was false */
        if (fresh(q, n, pt, in_var) && pgnk_qpoint_eval(q, n->child, pt)) {
            m->slot[s] = SLOT_TRUE;
        } else if (never && !n->vars && never_at(q, n, n->child, pt)) {
            m->slot[s] = SLOT_NEVER;
        }
    } else if (in_var) {
        return;
    } else if (n->op == Q_SEQ) {
        seq_step(m, n, pt, touched(pt, in_var));
        if (never && m->slot[s] == SLOT_OPEN && seq_never(m, n, pt)) {
            m->slot[s] = SLOT_NEVER;
        }
    } else {
        int v = (n->matonly && unchanged) || !fresh(q, n, pt, in_var)
                    ? m->run[s] > 0
                    : pgnk_qpoint_eval(q, n->child, pt);
        m->run[s] = v ? m->run[s] + 1 : 0;
        if (m->run[s] >= (uint32_t)n->num) {
            m->slot[s] = SLOT_TRUE;
        } else if (never && never_at(q, n, n->child, pt)) {
            m->slot[s] = SLOT_NEVER; /* the run cannot grow: no later point holds A */
        }
    }
}

/* After the open slots changed: whether pass_point may pass main-line points over, and the
 * squares the open groups read. Only "exists" groups may be passed over (a sequence or a persist
 * changes state at every point), and not when annotations, keys or fen/opening (whose "never"
 * turns at any ply) are read at every point. Material groups are not tested after a quiet move. */
static void set_quiet(pgn_query_matcher *m) {
    const pgn_query *q = m->q;
    uint64_t dep = 0;
    int ok = !q->noprune && !(q->flags & (QF_ANNOT | QF_KEYS | QF_NEVER_PLY)), pawns = ok;
    unsigned nneed = 0;
    int need = ok, alive = ok;
    m->gate.watch[0] = m->gate.watch[1] = 0;
    memset(m->gate.nalive, 0, sizeof m->gate.nalive);
    memset(m->gate.min_pawns, 0, sizeof m->gate.min_pawns);
    for (uint32_t s = 0; s < q->nslots && ok; s++) {
        const qnode *n = &q->nodes[q->slots[s]];
        if (m->slot[s] == SLOT_OPEN) {
            ok = n->op == Q_EXISTS;
            if (n->nvk == NV_PAWNS && !n->vars) {
                pgnk_qpawns_watch(n->need, m->gate.watch);
                alive = alive && pgnk_qpawns_alive(n->need, &m->gate);
            }
            dep |= n->matonly ? 0 : n->dep;
            pawns = pawns && !n->matonly && n->nvk != NV_ANY;
            need = need && !n->matonly && n->nvk == NV_PAWNS && nneed < QNEED_MAX;
            if (need) {
                m->need[nneed][0] = n->need[0];
                m->need[nneed++][1] = n->need[1];
            }
        }
    }
    m->quiet_ok = (uint8_t)ok;
    m->pawns_ok = (uint8_t)(ok && pawns);
    m->open_dep = dep;
    m->gate.squares = dep; /* the moves quiet_move passes over, once decided none */
    m->gate.open = (uint32_t)(ok && !m->decided);
    m->gate.pawns_open = m->pawns_ok; /* pass_point's PASS_YES after a pawn move or a capture */
    m->gate.alive_open = (uint32_t)(m->pawns_ok && alive); /* ... or no pawn test would say yes */
    m->nneed = (uint8_t)(ok && need ? nneed : 0);
    m->gate.absent_open = m->nneed == 1; /* absent_point's, for one group */
    m->gate.absent[0] = m->nneed == 1 ? m->need[0][0] : 0;
    m->gate.absent[1] = m->nneed == 1 ? m->need[0][1] : 0;
}

/* The pawns at a main-line point whose "never" tests ran (all of them said no). */
static void note_pawns(pgn_query_matcher *m, const pgn_pos *pos) {
    m->gate.pawns[0] = pos->by_color[PGN_WHITE] & pos->by_type[PGN_PAWN];
    m->gate.pawns[1] = pos->by_color[PGN_BLACK] & pos->by_type[PGN_PAWN];
}

/* 1 if a pawn "never" test may say otherwise at pos than at the last point noted: the pawns on the
 * watched squares changed (those tests read no others, pgnk_qpawns_watch). Unwatched pawns and
 * pawns that left the watched squares for good (pawns never come back) change nothing. */
static int pawns_moved(const pgn_query_matcher *m, const pgn_pos *pos) {
    uint64_t w = pos->by_color[PGN_WHITE] & pos->by_type[PGN_PAWN];
    uint64_t b = pos->by_color[PGN_BLACK] & pos->by_type[PGN_PAWN];
    return (((w ^ m->gate.pawns[0]) & m->gate.watch[0]) |
            ((b ^ m->gate.pawns[1]) & m->gate.watch[1])) != 0;
}

/* 1 if no open group can hold at the main-line point pos (nneed: every open group is an "exists"
 * group that holds only where the pawns of its need stand): one of each group's pawns is absent.
 * Its value stays false, so only the pawn "never" tests may be due (test_pawns). */
static int absent_point(const pgn_query_matcher *m, const pgn_pos *pos) {
    if (!m->nneed || pos->variant != PGN_VARIANT_STANDARD) {
        return 0;
    }
    uint64_t w = pos->by_color[PGN_WHITE] & pos->by_type[PGN_PAWN];
    uint64_t b = pos->by_color[PGN_BLACK] & pos->by_type[PGN_PAWN];
    for (unsigned i = 0; i < m->nneed; i++) {
        if ((m->need[i][0] & ~w) == 0 && (m->need[i][1] & ~b) == 0) {
            return 0;
        }
    }
    return 1;
}

static void test_pawns(pgn_query_matcher *m, const pgn_pos *pos) {
    const pgn_query *q = m->q;
    int changed = 0;
    if (!pgnk_qnever_rules(pos)) {
        return;
    }
    note_pawns(m, pos);
    for (uint32_t s = 0; s < q->nslots; s++) {
        const qnode *n = &q->nodes[q->slots[s]];
        if (m->slot[s] == SLOT_OPEN && n->nvk == NV_PAWNS && !n->vars &&
            pgnk_qpawns_never(pos, n->need)) {
            m->slot[s] = SLOT_NEVER;
            changed = 1;
        }
    }
    if (changed) {
        settle(m);
        set_quiet(m);
    }
}

/* Whether the main-line point at pos, reached by mv, may be passed over (PASS_YES) because
 * test_point would change nothing there, or would change only what test_pawns does (PASS_PAWNS).
 * Only "exists" groups open (quiet_ok): if none of the squares they read changed, their values are
 * as at the previous point; with no pawn move nor capture no "never" test is due and the material
 * is as before; else (pawns_ok: the open groups read neither the material nor more than pawns for
 * "never") only the pawn "never" tests are due, and not even they when the pawns on the squares
 * those tests read are as at the last ones, which all said no (pawns_moved). If the move touched
 * their squares but one of each open group's pawns is absent (absent_point), each group stays
 * false: again only the pawn tests may be due. */
static int pass_point(const pgn_query_matcher *m, const pgn_pos *pos, pgn_move mv) {
    if (!m->quiet_ok) {
        return PASS_NO;
    }
    if (m->open_dep & touched_by(pos, mv, 0)) {
        if (!absent_point(m, pos)) {
            return PASS_NO;
        }
    } else if (pos->halfmove != 0) {
        return PASS_YES;
    } else if (!m->pawns_ok) {
        return PASS_NO;
    }
    return pos->halfmove == 0 && pawns_moved(m, pos) ? PASS_PAWNS : PASS_YES;
}

/* The commonest PASS_YES of pass_point, tested inline per move: only "exists" groups open, a
 * normal move or a promotion of standard chess that is no pawn move nor capture (the halfmove clock
 * runs) and touched none of the squares the open groups read. */
static inline int quiet_move(const pgn_query_matcher *m, const pgn_pos *pos, pgn_move mv) {
    return m->quiet_ok && pos->halfmove != 0 && PGN_MOVE_KIND(mv) < PGN_MOVE_EN_PASSANT &&
           mv != PGN_MOVE_NULL && pos->variant == PGN_VARIANT_STANDARD &&
           !(m->open_dep & (bits_sq(PGN_MOVE_FROM(mv)) | bits_sq(PGN_MOVE_TO(mv))));
}

/* Tests every open slot at point pt (a main-line point unless in_var). */
static void test_point(pgn_query_matcher *m, qpt *pt, int in_var) {
    const pgn_query *q = m->q;
    int changed = 0;
    if (!in_var && (q->flags & QF_KEYS)) {
        void *keys = grow(m, m->keys, &m->capkeys, m->nkeys + 1, sizeof *m->keys);
        if (!keys) {
            return; /* m->keys kept: the matcher frees it */
        }
        m->keys = keys;
        m->keys[m->nkeys++] = pgn_pos_identity_key(pt->pos);
        pt->reps = m->last_reps =
            pgn_repetitions(m->keys, m->nkeys, pgn_pos_repetition_window(pt->pos));
    }
    if (!q->nslots) {
        return; /* game atoms only (plies, ends...): nothing to test at a point */
    }
    if (!in_var && pt->ann && pt->ann->has_eval) {
        if (m->has_prev_eval) {
            pt->swing = fabs(pt->ann->eval - m->prev_eval);
            pt->has_swing = 1;
        }
        m->prev_eval = pt->ann->eval;
        m->has_prev_eval = 1;
    }
    /* "never" rests on pawns and material (castling rights and the ply for fen and opening),
     * which change only with a pawn move or a capture, the moves that reset the halfmove clock */
    int never = !in_var && !q->noprune && pgnk_qnever_rules(pt->pos) &&
                (pt->pos->halfmove == 0 || (q->flags & QF_NEVER_PLY));
    int unchanged = !q->noprune && pt->ply > 0 && pt->pos->halfmove != 0; /* no capture */
    if (never) {
        note_pawns(m, pt->pos);
    }
    for (uint32_t s = 0; s < q->nslots; s++) {
        if (m->slot[s] != SLOT_OPEN) {
            continue;
        }
        test_slot(m, s, pt, in_var, never, unchanged);
        if (m->slot[s] != SLOT_OPEN) {
            changed = 1;
            if (m->slot[s] == SLOT_TRUE && !in_var && m->first_ply == UINT32_MAX) {
                m->first_ply = pt->ply;
            }
        }
    }
    if (changed) {
        settle(m);
        set_quiet(m);
    }
}

/* The pending move of line l has its point at pos. */
static void test_pending(pgn_query_matcher *m, qline *l, const pgn_pos *pos) {
    const pgn_pos *before = (m->q->flags & (QF_BEFORE | QF_VARS)) ? &l->before : NULL;
    qpt pt = {pos, before, l->mv, l->ply, 0, (m->q->flags & QF_ANNOT) ? &l->ann : NULL, 0, 0, 0};
    test_point(m, &pt, m->depth > 0);
    l->pending = 0;
}

/* ---- the visitor ---- */

static pgn_flow v_begin(void *user, pgn_loc at) {
    pgn_query_matcher *m = user;
    (void)at;
    pgnk_arena_reset(&m->ar);
    m->tags.n = 0;
    size_t ns = m->q->nslots;
    if (ns) { /* (none: a query of tags and the final position, no call) */
        memset(m->slot, 0, ns);
        memset(m->reached, 0, ns * sizeof *m->reached);
        memset(m->exact, 0, ns * sizeof *m->exact);
        memset(m->sknown, 0, ns * sizeof *m->sknown);
        memset(m->run, 0, ns * sizeof *m->run);
    }
    m->depth = 0;
    m->nkeys = 0;
    m->lines[0].pending = 0;
    m->has_prev_eval = m->decided = m->matched = m->over = m->tags_done = m->has_endpos = 0;
    m->last_reps = 1;
    m->gate.pawns[0] = m->gate.pawns[1] = ~UINT64_C(0); /* unlike any position's: tests due */
    m->first_ply = UINT32_MAX;
    m->plies = 0;
    m->gate.open = m->gate.passed = m->gate.pawns_open = m->gate.absent_open = 0;
    m->gate.alive_open = 0;
    m->result = PGN_RESULT_NONE;
    return m->st == PGN_OK ? PGN_FLOW_CONTINUE : PGN_FLOW_STOP;
}

static pgn_flow v_tag(void *user, pgn_str name, pgn_str value) {
    pgn_query_matcher *m = user;
    if (!(m->q->flags & QF_TAGS)) {
        return PGN_FLOW_CONTINUE; /* no atom reads them */
    }
    size_t cap = m->tags.cap;
    void *tags = grow(m, m->tags.v, &cap, m->tags.n + 1, sizeof *m->tags.v);
    if (!tags) {
        return PGN_FLOW_STOP;
    }
    m->tags.v = tags;
    m->tags.cap = (uint32_t)cap;
    qtag *t = &m->tags.v[m->tags.n];
    t->name = pgnk_arena_strndup(&m->ar, name.ptr, name.len);
    t->val = pgnk_arena_strndup(&m->ar, value.ptr, value.len);
    if (!t->name || !t->val) {
        m->st = PGN_E_NOMEM;
        return PGN_FLOW_STOP;
    }
    t->nlen = name.len;
    t->vlen = value.len;
    m->tags.n++;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow v_end_tags(void *user, const pgn_pos *start) {
    pgn_query_matcher *m = user;
    const pgn_query *q = m->q;
    for (uint32_t i = 0; i < q->n; i++) {
        uint8_t op = q->nodes[i].op;
        m->val[i] =
            (int8_t)(op >= Q_TAG && op <= Q_YEAR ? pgnk_qtag_atom(&q->nodes[i], &m->tags) : 0);
    }
    m->tags_done = 1;
    settle(m);
    if (m->decided || !(q->flags & QF_MOVETEXT)) {
        return PGN_FLOW_SKIP;
    }
    if (start && !(q->flags & (QF_POINTS | QF_VARS))) { /* only the final position is read */
        m->endpos = *start;
        m->has_endpos = 1;
    } else if (start) {
        qpt pt;
        memset(&pt, 0, sizeof pt);
        pt.pos = start;
        test_point(m, &pt, 0);
        m->lines[0].before = *start;
        m->lines[0].ply = 0;
        m->endpos = *start;
        m->has_endpos = 1;
        set_quiet(m);
    }
    return m->decided ? PGN_FLOW_SKIP : PGN_FLOW_CONTINUE;
}

static pgn_flow v_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    pgn_query_matcher *m = user;
    const pgn_query *q = m->q;
    (void)san;
    (void)at;
    if (!before || !(q->flags & QF_POINTS)) {
        return PGN_FLOW_CONTINUE; /* no board (the reader counts the plies), or no point to test */
    }
    qline *l = &m->lines[m->depth];
    if (l->pending) {
        int pass = m->depth == 0 ? pass_point(m, before, l->mv) : PASS_NO;
        if (pass == PASS_NO) {
            test_pending(m, l, before);
        } else if (pass == PASS_PAWNS) {
            test_pawns(m, before); /* else nothing it could change: not even built */
        }
        l->pending = 0;
    }
    if (q->flags & (QF_BEFORE | QF_VARS)) {
        l->before = *before;
    }
    l->side = before->side;
    l->mv = mv;
    l->ply++;
    l->pending = 1;
    if (m->q->flags & QF_ANNOT) {
        memset(&l->ann, 0, sizeof l->ann);
    }
    if (m->st != PGN_OK) {
        return PGN_FLOW_STOP;
    }
    return m->decided ? PGN_FLOW_SKIP : PGN_FLOW_CONTINUE; /* the rest is not even resolved */
}

/* Under PGN_READ_MOVE_AFTER (pgn_query_visitor_fast: main-line points only, no annotation, nothing
 * read before a move): the point of mv is tested at once, at the position after it; a game it
 * decides is skipped from the next move on, where v_move would have decided it, so that the same
 * moves are resolved (and their errors found) either way. */
static pgn_flow v_move_after(void *user, const pgn_pos *after, pgn_move mv, pgn_str san,
                             pgn_loc at) {
    pgn_query_matcher *m = user;
    (void)san;
    (void)at;
    if (!after) {
        return PGN_FLOW_CONTINUE;
    }
    if (m->decided) {
        return PGN_FLOW_SKIP; /* the rest is not even resolved */
    }
    qline *l = &m->lines[0];
    l->mv = mv;
    l->ply += 1 + m->gate.passed; /* and the moves the gate let pass */
    m->gate.passed = 0;
    l->pending = 2; /* tested: finish_line only notes the final position */
    if (quiet_move(m, after, mv)) {
        return PGN_FLOW_CONTINUE; /* pass_point's first PASS_YES, without its call */
    }
    int pass = pass_point(m, after, mv);
    if (pass == PASS_NO) {
        qpt pt = {after, NULL, mv, l->ply, 0, NULL, 0, 0, 0};
        test_point(m, &pt, 0);
    } else if (pass == PASS_PAWNS) {
        test_pawns(m, after);
    }
    return m->st == PGN_OK ? PGN_FLOW_CONTINUE : PGN_FLOW_STOP;
}

static pgn_flow v_comment(void *user, pgn_str text) {
    pgn_query_matcher *m = user;
    qline *l = &m->lines[m->depth];
    if (!l->pending || !(m->q->flags & QF_ANNOT)) {
        return PGN_FLOW_CONTINUE;
    }
    pgn_cmd cmd;
    l->ann.comment = 1;
    if (pgn_cmd_find(text, PGN_CMD_CLK, &cmd)) {
        l->ann.has_clock = 1;
        l->ann.clock_ms = (double)cmd.ms;
    }
    if (pgn_cmd_find(text, PGN_CMD_EVAL, &cmd)) {
        int32_t v = cmd.eval.value;
        l->ann.has_eval = 1;
        if (cmd.eval.kind == PGN_EVAL_CP) {
            l->ann.eval = v / 100.0;
        } else if (v != 0) {
            l->ann.eval = v > 0 ? 1000.0 - v : -1000.0 - v;
        } else { /* #0: the side to move after the move is mated */
            l->ann.eval = l->side == PGN_WHITE ? 1000.0 : -1000.0;
        }
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow v_nag(void *user, unsigned nag) {
    pgn_query_matcher *m = user;
    qline *l = &m->lines[m->depth];
    if (l->pending && nag < 256 && (m->q->flags & QF_ANNOT)) {
        l->ann.nags[nag >> 6] |= UINT64_C(1) << (nag & 63);
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow v_begin_var(void *user) {
    pgn_query_matcher *m = user;
    if (!(m->q->flags & QF_VARS)) {
        return PGN_FLOW_SKIP;
    }
    size_t cap = m->cap;
    void *lines = grow(m, m->lines, &cap, (size_t)m->depth + 2, sizeof *m->lines);
    if (!lines) {
        return PGN_FLOW_STOP;
    }
    m->lines = lines;
    m->cap = (uint32_t)cap;
    qline *parent = &m->lines[m->depth], *l = &m->lines[++m->depth];
    l->before = parent->before; /* the variation replaces the parent's pending move */
    l->ply = parent->ply - 1;
    l->pending = 0;
    return PGN_FLOW_CONTINUE;
}

/* The final point of a line: the pending move played; on the main line, final is where the reader
 * left it (NULL if it did not say). */
static void finish_line(pgn_query_matcher *m, const pgn_pos *final) {
    qline *l = &m->lines[m->depth];
    if (!l->pending) {
        return;
    }
    pgn_pos after;
    const pgn_pos *pos = m->depth == 0 ? final : NULL;
    if (!pos && (m->q->flags & (QF_BEFORE | QF_VARS))) {
        after = l->before;
        pgn_pos_play(&after, l->mv);
        pos = &after;
    }
    if (!pos) {
        l->pending = 0;
        return;
    }
    if (m->depth == 0) {
        m->endpos = *pos;
    }
    if (l->pending == 2) {
        l->pending = 0; /* v_move_after tested it */
        return;
    }
    test_pending(m, l, pos);
}

static pgn_flow v_end_var(void *user) {
    pgn_query_matcher *m = user;
    if (m->depth == 0) {
        return PGN_FLOW_CONTINUE;
    }
    finish_line(m, NULL);
    m->depth--;
    return m->decided ? PGN_FLOW_STOP : PGN_FLOW_CONTINUE;
}

static pgn_flow v_end_game(void *user, pgn_result result, const pgn_game_summary *sum) {
    pgn_query_matcher *m = user;
    if (m->decided) {
        return PGN_FLOW_CONTINUE;
    }
    m->depth = 0;
    m->lines[0].pending = m->gate.passed ? 2 : m->lines[0].pending; /* moves after the last call */
    if (m->has_endpos && !(m->q->flags & QF_POINTS) && sum->final_pos) {
        m->endpos = *sum->final_pos; /* no move was seen: the reader's final position */
    } else if (m->has_endpos) {
        finish_line(m, sum->final_pos);
    }
    m->plies = sum->plies;
    m->result = result;
    m->over = 1;
    settle(m);
    return PGN_FLOW_CONTINUE;
}

static const pgn_visitor query_visitor = {v_begin, v_tag,       v_end_tags, v_move,    v_comment,
                                          v_nag,   v_begin_var, v_end_var,  v_end_game};

/* Without move callbacks: a query that reads only the final position (QF_POINTS unset); [1]
 * without the tag callback either, for pgn_query_visitor_fast when no atom reads a tag. */
static const pgn_visitor query_visitor_end[2] = {
    {v_begin, v_tag, v_end_tags, NULL, v_comment, v_nag, v_begin_var, v_end_var, v_end_game},
    {v_begin, NULL, v_end_tags, NULL, v_comment, v_nag, v_begin_var, v_end_var, v_end_game}};

/* pgn_query_visitor_fast: [after][tags]; without tag atoms no tag callback (the reader then
 * copies no tag). The comment callback stays: without it the reader would not decode comments,
 * and their encoding warnings would be lost. */
static const pgn_visitor query_visitor_fast[2][2] = {
    {{v_begin, NULL, v_end_tags, v_move, v_comment, v_nag, v_begin_var, v_end_var, v_end_game},
     {v_begin, v_tag, v_end_tags, v_move, v_comment, v_nag, v_begin_var, v_end_var, v_end_game}},
    {{v_begin, NULL, v_end_tags, v_move_after, v_comment, v_nag, v_begin_var, v_end_var,
      v_end_game},
     {v_begin, v_tag, v_end_tags, v_move_after, v_comment, v_nag, v_begin_var, v_end_var,
      v_end_game}}};

const pgn_visitor *pgn_query_visitor(void) {
    return &query_visitor;
}

const pgn_visitor *pgn_query_visitor_for(const pgn_query *q) {
    return (q->flags & QF_POINTS) ? &query_visitor : &query_visitor_end[0];
}

const pgn_visitor *pgn_query_visitor_fast(const pgn_query *q, uint32_t *flags) {
    *flags |= q->reader_flags;
    uint32_t before = QF_BEFORE | QF_VARS | QF_ANNOT | QF_KEYS | QF_ZOBRIST;
    if (!(q->flags & QF_POINTS)) {
        return &query_visitor_end[!(q->flags & QF_TAGS)];
    }
    int after = !(q->flags & before);
    *flags |= after ? PGN_READ_MOVE_AFTER | PGN_READ_MOVE_GATE : 0;
    return &query_visitor_fast[after][(q->flags & QF_TAGS) != 0];
}
