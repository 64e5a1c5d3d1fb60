/* SPDX-License-Identifier: MIT */
/* -j N (par_pool.h): the main thread gives each read batch's games, diagnostics and the command's
 * callback out in input order, with the game ordinals of the whole input, so that every output,
 * the diagnostics and the summary are those of -j 1. */
#include "par_pool.h"

#include <string.h>

static void emit_diags(cli_run *r, const batch *b, size_t *k, uint64_t upto, uint64_t base,
                       uint64_t counts[2]) {
    for (; *k < b->ndiags && b->diags[*k].after <= upto; (*k)++) {
        pgn_diag d = b->diags[*k].d;
        d.game += base;
        counts[d.severity == PGN_SEV_ERROR ? 0 : 1]++;
        cli_print_diag_detail(&d, r->quiet, NULL);
    }
}

int cli_par_product(const cli_game *g, pgn_str *out) {
    if (!g->has_product) {
        return 0;
    }
    *out = g->product;
    return 1;
}

/* Gives out batch b's games in order; *base counts the input's games. PGN_OK, or the status
 * that ends the input (*from_fn when the command's). */
static pgn_status commit(pool *p, batch *b, uint64_t *base, cli_each_fn fn, void *user,
                         int *from_fn) {
    cli_run *r = p->r;
    if (b->dirty && b->assumed && b->from437 != p->state437 && b->st == PGN_END) {
        b->from437 = p->state437; /* the guess was wrong, and undecided text was read from it */
        cli_par_work(&p->w[p->nw], b);
    }
    if (b->dirty && b->told) {
        pthread_mutex_lock(&p->mu);
        p->state437 = b->end437;
        pthread_mutex_unlock(&p->mu);
    }
    size_t k = 0;
    uint64_t counts[2] = {0, 0};
    int prepared = r->par && r->par->prepare;
    pgn_status st = PGN_OK;
    size_t i;
    for (i = 0; i < b->ngames && st == PGN_OK; i++) {
        emit_diags(r, b, &k, i, *base, counts);
        cli_progress_game();
        if (!fn) {
            continue;
        }
        pgame *pg = &b->games[i];
        pgn_game_summary sum;
        cli_par_summary(b, pg, *base, &sum);
        cli_game g = {
            p->tree && !prepared ? pg->game : NULL,      &sum,    pg->raw, p->in, r->games + i + 1,
            {b->product.p + pg->prod_off, pg->prod_len}, prepared};
        st = fn(r, user, &g);
    }
    if (st != PGN_OK) { /* the command stopped: the totals of what was given out */
        *from_fn = 1;
        r->games += i;
        r->errors += counts[0];
        r->warnings += counts[1];
        return st;
    }
    emit_diags(r, b, &k, UINT64_MAX, *base, counts);
    *base += b->ngames;
    r->games += b->n_read;
    r->errors += b->errors;
    r->warnings += b->warnings;
    return b->st == PGN_END ? PGN_OK : b->st;
}

/* Waits until the oldest batch in flight is read, then commits it. */
pgn_status cli_par_commit_head(pool *p, uint64_t *base, cli_each_fn fn, void *user, int *from_fn) {
    batch *b = &p->slots[p->head % p->nslots];
    pthread_mutex_lock(&p->mu);
    p->wait_for = p->head + 1;
    while (b->state != B_DONE) {
        pthread_cond_wait(&p->done, &p->mu);
    }
    p->wait_for = 0;
    pthread_mutex_unlock(&p->mu);
    pgn_status st = commit(p, b, base, fn, user, from_fn);
    b->state = B_FREE;
    p->head++;
    return st;
}
