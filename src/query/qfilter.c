/* SPDX-License-Identifier: MIT */
/* The selection filter (include/pgnkit/query.h, pgn_query_filter_*; moved from the program's
 * --where, issue 29): a query's matcher run as a visitor that never lets the reader skip (the
 * matcher may skip a movetext or a variation, or stop; the reader still reads the whole game, so
 * that every diagnostic of a game is found), and the game's diagnostics held until it is known
 * whether the game matched. Nothing printed; every allocation on the caller's allocator. */
#include "pgnkit/query.h"

#include "../base/alloc.h"

#include <string.h>

struct pgn_query_filter {
    pgn_allocator alloc;
    pgn_query_matcher *m;
    int state;     /* 0: the matcher sees events; 1: it skipped the movetext; 2: it stopped */
    unsigned skip; /* nesting inside a variation the matcher skipped */
    pgn_diag *diags;
    size_t n, cap;
    int nomem; /* a diagnostic could not be held */
};

pgn_status pgn_query_filter_new(pgn_query_filter **out, const pgn_query *query,
                                const pgn_allocator *alloc) {
    *out = NULL;
    pgn_query_matcher *m = NULL; /* first: it checks alloc */
    pgn_status st = pgn_query_matcher_new(&m, query, alloc);
    pgn_query_filter *f = st == PGN_OK ? pgnk_alloc_object(alloc, sizeof *f, &st) : NULL;
    if (f == NULL) {
        pgn_query_matcher_free(m);
        return st;
    }
    pgnk_alloc_copy(&f->alloc, alloc);
    f->m = m;
    *out = f;
    return PGN_OK;
}

void pgn_query_filter_free(pgn_query_filter *filter) {
    if (filter) {
        pgn_query_matcher_free(filter->m);
        pgnk_free(&filter->alloc, filter->diags);
        pgnk_free(&filter->alloc, filter);
    }
}

void pgn_query_filter_diag(void *ctx, const pgn_diag *d) {
    pgn_query_filter *f = ctx;
    void *p = f->diags;
    if (f->n == f->cap && !pgnk_grow(&f->alloc, &p, &f->cap, f->n + 1, sizeof *f->diags, 16)) {
        f->nomem = 1;
        return;
    }
    f->diags = p;
    f->diags[f->n++] = *d;
}

int pgn_query_filter_flush(pgn_query_filter *filter, int pass, pgn_diag_fn fn, void *ctx,
                           uint64_t budget, uint64_t counts[2]) {
    int stopped = 0;
    for (size_t i = 0; pass && i < filter->n && !stopped; i++) {
        int error = filter->diags[i].severity == PGN_SEV_ERROR;
        fn(ctx, &filter->diags[i]);
        counts[!error]++;
        stopped = error && budget && counts[0] >= budget;
    }
    filter->n = 0;
    int nomem = filter->nomem;
    filter->nomem = 0;
    return nomem ? -1 : stopped;
}

/* The matcher's answer to one event: what the reader is told is always CONTINUE. */
static pgn_flow after(pgn_query_filter *f, pgn_flow flow, int in_movetext) {
    if (flow == PGN_FLOW_STOP) {
        f->state = 2;
    } else if (flow == PGN_FLOW_SKIP && in_movetext) {
        f->state = 1;
    }
    return PGN_FLOW_CONTINUE;
}

#define MATCHER (pgn_query_visitor())
#define LIVE(f) ((f)->state == 0 && (f)->skip == 0)

static pgn_flow f_begin(void *user, pgn_loc at) {
    pgn_query_filter *f = user;
    f->state = 0;
    f->skip = 0;
    return MATCHER->begin_game ? after(f, MATCHER->begin_game(f->m, at), 0) : PGN_FLOW_CONTINUE;
}

static pgn_flow f_tag(void *user, pgn_str name, pgn_str value) {
    pgn_query_filter *f = user;
    return LIVE(f) && MATCHER->tag ? after(f, MATCHER->tag(f->m, name, value), 0)
                                   : PGN_FLOW_CONTINUE;
}

static pgn_flow f_end_tags(void *user, const pgn_pos *start) {
    pgn_query_filter *f = user;
    return LIVE(f) && MATCHER->end_tags ? after(f, MATCHER->end_tags(f->m, start), 1)
                                        : PGN_FLOW_CONTINUE;
}

static pgn_flow f_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    pgn_query_filter *f = user;
    return LIVE(f) && MATCHER->move ? after(f, MATCHER->move(f->m, before, mv, san, at), 1)
                                    : PGN_FLOW_CONTINUE;
}

static pgn_flow f_comment(void *user, pgn_str text) {
    pgn_query_filter *f = user;
    return LIVE(f) && MATCHER->comment ? after(f, MATCHER->comment(f->m, text), 1)
                                       : PGN_FLOW_CONTINUE;
}

static pgn_flow f_nag(void *user, unsigned nag) {
    pgn_query_filter *f = user;
    return LIVE(f) && MATCHER->nag ? after(f, MATCHER->nag(f->m, nag), 1) : PGN_FLOW_CONTINUE;
}

static pgn_flow f_begin_variation(void *user) {
    pgn_query_filter *f = user;
    if (!LIVE(f)) {
        f->skip += f->skip > 0;
        return PGN_FLOW_CONTINUE;
    }
    pgn_flow flow = MATCHER->begin_variation ? MATCHER->begin_variation(f->m) : PGN_FLOW_CONTINUE;
    if (flow == PGN_FLOW_SKIP) {
        f->skip = 1; /* the matcher never sees this variation, nor its ')' */
        return PGN_FLOW_CONTINUE;
    }
    return after(f, flow, 0);
}

static pgn_flow f_end_variation(void *user) {
    pgn_query_filter *f = user;
    if (f->skip > 0) {
        f->skip--;
        return PGN_FLOW_CONTINUE;
    }
    return f->state == 0 && MATCHER->end_variation ? after(f, MATCHER->end_variation(f->m), 0)
                                                   : PGN_FLOW_CONTINUE;
}

static pgn_flow f_end_game(void *user, pgn_result result, const pgn_game_summary *summary) {
    pgn_query_filter *f = user;
    if (f->state != 2 && MATCHER->end_game) {
        MATCHER->end_game(f->m, result, summary);
    }
    return PGN_FLOW_CONTINUE;
}

const pgn_visitor *pgn_query_filter_visitor(void) {
    static const pgn_visitor v = {f_begin,   f_tag, f_end_tags,        f_move,
                                  f_comment, f_nag, f_begin_variation, f_end_variation,
                                  f_end_game};
    return &v;
}

pgn_status pgn_query_filter_matched(const pgn_query_filter *filter, int *matched) {
    pgn_query_result res;
    pgn_status st = pgn_query_matcher_result(filter->m, &res);
    *matched = st == PGN_OK && res.matched;
    return st;
}
