/* SPDX-License-Identifier: MIT */
/* The parallel reader (par_pool.h): the calling thread gives each read batch's games,
 * diagnostics and the caller's callback out in input order, with the game ordinals of the whole
 * text, so that every output, the diagnostics and the totals are those of one reader. */
#include "par_pool.h"

#include <string.h>

static void emit_diags(const pool *p, const batch *b, size_t *k, uint64_t upto, uint64_t base,
                       uint64_t counts[2]) {
    const pgn_reader_opts *ro = &p->o->reader;
    for (; *k < b->ndiags && b->diags[*k].after <= upto; (*k)++) {
        pgn_diag d = b->diags[*k].d;
        d.game += base;
        counts[d.severity == PGN_SEV_ERROR ? 0 : 1]++;
        if (ro->on_diag) {
            ro->on_diag(ro->diag_ctx, &d);
        }
    }
}

/* One more game given out: the progress callback. */
static void progress(pool *p, uint64_t games) {
    if (p->o->progress) {
        p->o->progress(p->o->user, pgn_source_consumed(p->src), games);
    }
}

/* Gives out batch b's games in order; *base counts the input's games. PGN_OK, or the status
 * that ends the input (*from_fn when the command's). */
static pgn_status commit(pool *p, batch *b, uint64_t *base) {
    const pgn_parallel_opts *o = p->o;
    if (b->dirty && b->assumed && b->from437 != p->state437 && b->st == PGN_END) {
        b->from437 = p->state437; /* the guess was wrong, and undecided text was read from it */
        pgnk_par_work(&p->w[p->nw], b);
    }
    if (b->dirty && b->told) {
        pthread_mutex_lock(&p->mu);
        p->state437 = b->end437;
        pthread_mutex_unlock(&p->mu);
    }
    size_t k = 0;
    uint64_t counts[2] = {0, 0};
    pgn_status st = PGN_OK;
    size_t i;
    for (i = 0; i < b->ngames && st == PGN_OK; i++) {
        emit_diags(p, b, &k, i, *base, counts);
        progress(p, p->tot.games + i + 1);
        if (!o->each) {
            continue;
        }
        pgame *pg = &b->games[i];
        pgn_game_summary sum;
        pgnk_par_summary(b, pg, *base, &sum);
        pgn_par_game g = {p->tree && !p->prepared ? pg->game : NULL,
                          &sum,
                          pg->raw,
                          {b->product.ptr + pg->prod_off, pg->prod_len},
                          p->prepared,
                          p->tree && !p->prepared ? &pg->game : NULL,
                          {pg->raw.ptr + pg->raw.len - pg->between_len, pg->between_len},
                          {pg->raw.ptr - pg->lead_len, pg->lead_len}};
        st = o->each(o->user, &g);
    }
    if (st != PGN_OK) { /* the caller stopped: the totals of what was given out */
        p->tot.from_each = 1;
        p->tot.games += i;
        p->tot.errors += counts[0];
        p->tot.warnings += counts[1];
        return st;
    }
    emit_diags(p, b, &k, UINT64_MAX, *base, counts);
    *base += b->ngames;
    p->tot.games += b->n_read;
    p->tot.errors += b->errors;
    p->tot.warnings += b->warnings;
    return b->st == PGN_END ? PGN_OK : b->st;
}

/* Waits until the oldest batch in flight is read, then commits it. */
pgn_status pgnk_par_commit_head(pool *p, uint64_t *base) {
    batch *b = &p->slots[p->head % p->nslots];
    pthread_mutex_lock(&p->mu);
    p->wait_for = p->head + 1;
    while (b->state != B_DONE) {
        pthread_cond_wait(&p->done, &p->mu);
    }
    p->wait_for = 0;
    pthread_mutex_unlock(&p->mu);
    pgn_status st = commit(p, b, base);
    b->state = B_FREE;
    p->head++;
    return st;
}
