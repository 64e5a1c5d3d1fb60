/* SPDX-License-Identifier: MIT */
/* The parallel reader (par_pool.h): a worker reads one batch, from the first byte of the line its
 * first game starts on to the next cut, with range_start there and PGN_READ_RANGE_AT_GAME (the
 * reader starts at once), so that offsets, lines and raw bytes are the whole file's. Diagnostics
 * are kept as values with the number of games read before them; a command's prepare hook formats
 * each game here. */
#include "../base/alloc.h"
#include "par_pool.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Grows *p (an array of *cap elements of size sz) to hold n; 0 when out of memory. */
int pgnk_par_reserve(void *p, size_t *cap, size_t n, size_t sz) {
    if (n <= *cap) {
        return 1;
    }
    void *q = *(void **)p;
    if (!pgnk_grow(NULL, &q, cap, n, sz, 16)) {
        return 0;
    }
    *(void **)p = q;
    return 1;
}

void pgnk_par_keep_diag(void *ctx, const pgn_diag *d) {
    batch *b = ctx;
    if (pgnk_par_reserve(&b->diags, &b->cap_diags, b->ndiags + 1, sizeof *b->diags)) {
        b->diags[b->ndiags].d = *d;
        b->diags[b->ndiags++].after = b->ngames;
    } else {
        b->st = PGN_E_NOMEM;
    }
}

typedef struct mem_in {
    const batch *b;
    size_t at;
} mem_in;

/* The batch's bytes, then a read error (a batch that ends where the input failed). */
static ptrdiff_t read_then_fail(void *ctx, void *buf, size_t cap) {
    mem_in *m = ctx;
    size_t n = m->b->len - m->at;
    if (n == 0) {
        return -1;
    }
    n = n < cap ? n : cap;
    memcpy(buf, m->b->buf + m->at, n);
    m->at += n;
    return (ptrdiff_t)n;
}

/* The game slot i of b (tree mode), made when first needed (again when the callback took it:
 * pgn_par_game.take). */
static pgn_game *slot_game(batch *b, size_t i) {
    if (i < b->kept_games && b->games[i].game) {
        return b->games[i].game;
    }
    pgn_game *g;
    if (pgn_game_new(&g, NULL) != PGN_OK) {
        return NULL;
    }
    b->games[i].game = g;
    b->kept_games = i < b->kept_games ? b->kept_games : i + 1;
    return g;
}

/* psum holds every member of pgn_game_summary but first_error and final_pos (valid during end_game
 * only, NULL in a kept summary): a member added there fails here. */
_Static_assert(offsetof(pgn_game_summary, first_error) ==
                       offsetof(pgn_game_summary, errors) + 2 * sizeof(uint32_t) &&
                   offsetof(pgn_game_summary, plies) ==
                       offsetof(pgn_game_summary, first_error) + sizeof(pgn_diag) &&
                   offsetof(pgn_game_summary, final_pos) - offsetof(pgn_game_summary, marker) <=
                       8 &&
                   sizeof(pgn_game_summary) ==
                       offsetof(pgn_game_summary, final_pos) + sizeof(const pgn_pos *),
               "pgn_game_summary changed: update psum (par_pool.h)");

/* Keeps summary s in pg (its first error in b->firsts). 0 when out of memory. */
static int keep_summary(batch *b, pgame *pg, const pgn_game_summary *s) {
    psum ps = {s->game,  s->start,  s->end_offset, s->errors, s->warnings,
               s->plies, s->broken, s->marker,     0};
    if (s->errors > 0) {
        if (!pgnk_par_reserve(&b->firsts, &b->cap_firsts, b->nfirsts + 1, sizeof *b->firsts)) {
            return 0;
        }
        ps.first = (uint32_t)b->nfirsts;
        b->firsts[b->nfirsts++] = s->first_error;
    }
    pg->sum = ps;
    return 1;
}

void pgnk_par_summary(const batch *b, const pgame *pg, uint64_t base, pgn_game_summary *out) {
    const psum *ps = &pg->sum;
    pgn_game_summary s = {.game = ps->game + base,
                          .start = ps->start,
                          .end_offset = ps->end_offset,
                          .errors = ps->errors,
                          .warnings = ps->warnings,
                          .plies = ps->plies,
                          .broken = ps->broken,
                          .marker = ps->marker};
    *out = s;
    if (ps->errors > 0) {
        out->first_error = b->firsts[ps->first];
        out->first_error.game += base;
    }
}

/* The worker's one game (with a prepare hook the tree is not kept for the callback). */
static pgn_game *worker_game(worker *w) {
    if (!w->game && pgn_game_new(&w->game, NULL) != PGN_OK) {
        w->game = NULL;
    }
    return w->game;
}

/* Reads the batch's text (made ready by work) into its games and diagnostics. */
static void read_batch(worker *w, batch *b, pgn_reader *rd) {
    pool *p = w->p;
    const pgn_par_hooks *h = &p->o->hooks;
    int keep = !p->prepared;             /* the callback gets the tree: one per game of the batch */
    while (b->st == PGN_OK && p->bare) { /* no callback: the games are only counted */
        pgn_status st = pgn_reader_visit(rd, p->v, w->vuser);
        if (st != PGN_OK) {
            b->st = st;
            break;
        }
        b->ngames++;
    }
    while (b->st == PGN_OK) {
        pgn_game *g = NULL;
        if (!pgnk_par_reserve(&b->games, &b->cap_games, b->ngames + 1, sizeof *b->games) ||
            (p->tree && !(g = keep ? slot_game(b, b->ngames) : worker_game(w)))) {
            b->st = PGN_E_NOMEM;
            break;
        }
        pgn_status st = g ? pgn_reader_next(rd, g) : pgn_reader_visit(rd, p->v, w->vuser);
        if (st != PGN_OK) {
            b->st = b->st == PGN_OK ? st : b->st;
            break;
        }
        pgame *pg = &b->games[b->ngames];
        const pgn_game_summary *sum = pgn_reader_summary(rd);
        if (!keep_summary(b, pg, sum)) {
            b->st = PGN_E_NOMEM;
            break;
        }
        pg->raw = pgn_reader_raw(rd);
        pgn_str lead; /* the first batch's reader starts the text: the text before its first game */
        pg->between_len = pgn_reader_raw_between(rd, &lead).len;
        pg->lead_len = lead.len;
        if (b->io_error) { /* a reader over a callback: its window moves on; keep a copy */
            pg->raw_off = b->rawbuf.len + lead.len;
            if (pgn_membuf_write(&b->rawbuf, lead.ptr, lead.len) < 0 ||
                pgn_membuf_write(&b->rawbuf, pg->raw.ptr, pg->raw.len) < 0) {
                b->st = PGN_E_NOMEM;
                break;
            }
        }
        pg->prod_off = b->product.len;
        if (p->prepared) {
            pgn_str between = {pg->raw.ptr + pg->raw.len - pg->between_len, pg->between_len};
            pgn_par_game cg = {
                .game = g, .summary = sum, .raw = pg->raw, .between = between, .lead = lead};
            if ((st = h->prepare(w->wuser, &cg, &b->product)) != PGN_OK) {
                b->st = st;
                break;
            }
        }
        pg->prod_len = b->product.len - pg->prod_off;
        b->ngames++;
    }
    for (size_t i = 0; b->io_error && !p->bare && i < b->ngames; i++) {
        b->games[i].raw.ptr = b->rawbuf.ptr + b->games[i].raw_off;
    }
}

/* Reads one batch on a worker (or again on the main thread, with the true b->from437).
 *
 * The encoding of text that is not UTF-8 (--input-encoding auto) depends on the text before it: a
 * string that cannot tell CP437 from Windows-1252 is read as the last one that could. A batch
 * that holds such bytes is read from a guess of the state the batches before it left
 * (pgn_reader_set_encoding_state), and notes the state it leaves and whether it read undecided
 * text before any text told (then the commit reads it again when the guess was wrong). */
void pgnk_par_work(worker *w, batch *b) {
    pgn_reader_opts ro = w->p->ro;
    pgn_reader *rd = NULL;
    mem_in m = {b, 0};
    ro.diag_ctx = b;
    ro.range_start = b->start;
    ro.line_base = b->line;
    ro.flags |= PGN_READ_RANGE_AT_GAME;
    b->ngames = b->ndiags = b->nfirsts = b->product.len = b->rawbuf.len = 0;
    b->told = b->assumed = b->end437 = 0;
    b->st = b->io_error ? pgn_reader_new(&rd, &ro, read_then_fail, &m)
                        : pgn_reader_new_mem(&rd, &ro, b->buf, b->len);
    if (rd && b->from437) {
        pgn_reader_set_encoding_state(rd, PGN_ENC_CP437);
    }
    read_batch(w, b, rd);
    if (b->io_error == IO_NOMEM && b->st == PGN_E_IO) {
        b->st = PGN_E_NOMEM; /* the main thread ran out of memory: not a failed read */
    }
    if (rd) {
        pgn_encoding_state es = pgn_reader_encoding_state(rd);
        b->told = es.told;
        b->assumed = es.assumed;
        b->end437 = es.last == PGN_ENC_CP437;
        pgn_reader_totals(rd, &b->n_read, &b->errors, &b->warnings);
        pgn_reader_free(rd);
    }
}

void *pgnk_par_worker_main(void *arg) {
    worker *w = arg;
    pool *p = w->p;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->next == p->tail) {
            pthread_cond_wait(&p->work, &p->mu);
        }
        if (p->next == p->tail) { /* stopped, nothing queued */
            break;
        }
        uint64_t seq = p->next++;
        batch *b = &p->slots[seq % p->nslots];
        b->state = B_WORKING;
        b->from437 = b->dirty && p->state437; /* a guess: the text before keeps to one */
        int skip = p->stop;
        pthread_mutex_unlock(&p->mu);
        if (!skip) {
            pgnk_par_work(w, b);
        }
        pthread_mutex_lock(&p->mu);
        b->state = B_DONE;
        if (p->wait_for == seq + 1) { /* the main thread waits for this batch (only) */
            pthread_cond_signal(&p->done);
        }
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}
