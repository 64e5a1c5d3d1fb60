/* SPDX-License-Identifier: MIT */
/* -j N (parallel.h): the choice of a thread count, and the driver's use of the library's parallel
 * reader (pgn_parallel_read, include/pgnkit/source.h): the command's hooks (the library's
 * pgn_par_hooks, given the command's user) and its callback behind the library's, each game
 * given with its input and its ordinal over the run. */
#define _POSIX_C_SOURCE 200809L
#include "parallel.h"

#include <stdlib.h>
#include <string.h>

/* The number of workers: -j's count, or the cores for -j 0 or auto. Without -j, the cores when
 * the command's work runs on the workers (r->par: check, fmt, convert, select) and reading the
 * input on threads can pay (pgn_parallel_worthwhile: a regular file, not a small plain one), else
 * 1. */
static unsigned jobs_of(const cli_run *r, const cli_input *in) {
    if (r->jobs == 0 && (!r->par || !pgn_parallel_worthwhile(in->src))) {
        return 1;
    }
    return pgn_parallel_workers(r->jobs > 0 ? (unsigned)r->jobs : 0);
}

int cli_par_wanted(const cli_run *r, const cli_input *in, int visitor) {
    if (jobs_of(r, in) < 2 || pgn_parallel_serial(&r->ropts) || r->ropts.on_diag) {
        return 0;
    }
    return !visitor || (r->par && r->par->worker_vuser && r->par->prepare);
}

/* The command's run and callback behind the library's (its hooks are the library's). */
typedef struct par_run {
    cli_run *r;
    const cli_input *in;
    cli_each_fn fn;
    void *user;
    uint64_t before; /* games of the run before this input */
    uint64_t shown;  /* games counted on the progress line */
} par_run;

static pgn_status each(void *user, const pgn_par_game *pg) {
    par_run *pr = user;
    cli_game g = {
        pg->game,    pg->summary,     pg->raw,     pr->in,  pr->before + pg->summary->game,
        pg->product, pg->has_product, pg->between, pg->lead};
    return pr->fn(pr->r, pr->user, &g);
}

static void progress(void *user, uint64_t consumed, uint64_t games) {
    par_run *pr = user;
    (void)consumed; /* the progress line asks the source itself */
    if (pr->shown == games) {
        cli_progress_tick();
    }
    for (; pr->shown < games; pr->shown++) {
        cli_progress_game();
    }
}

/* The library's options for r reading in. */
static void par_options(pgn_parallel_opts *o, par_run *pr, int tree, const pgn_visitor *v) {
    cli_run *r = pr->r;
    const char *batch = getenv("PGNKIT_BATCH"); /* for the tests: small files, many batches */
    memset(o, 0, sizeof *o);
    o->threads = jobs_of(r, pr->in);
    o->batch = batch && atol(batch) > 0 ? (size_t)atol(batch) : 0;
    o->reader = r->ropts;
    o->reader.source_name = pr->in->name;
    o->reader.on_diag = cli_run_diag;
    o->reader.diag_ctx = r;
    if (r->raw || r->rejects.file) {
        o->reader.flags |= PGN_READ_KEEP_RAW;
    }
    o->tree = tree;
    o->visitor = v;
    if (r->par) {
        o->hooks = *r->par;
    }
    o->user = pr;
    o->hooks_user = pr->user;
    o->each = pr->fn ? each : NULL;
    o->progress = progress;
}

pgn_status cli_par_input(cli_run *r, const cli_input *in, int tree, const pgn_visitor *v,
                         cli_each_fn fn, void *user, int *from_fn) {
    par_run pr = {r, in, fn, user, r->games, 0};
    pgn_parallel_opts o;
    pgn_parallel_totals t;
    par_options(&o, &pr, tree, v);
    pgn_status st = pgn_parallel_read(in->src, &o, &t);
    r->games += t.games;
    r->errors += t.errors;
    r->warnings += t.warnings;
    *from_fn = t.from_each;
    return st;
}

int cli_par_product(const cli_game *g, pgn_str *out) {
    if (!g->has_product) {
        return 0;
    }
    *out = g->product;
    return 1;
}
