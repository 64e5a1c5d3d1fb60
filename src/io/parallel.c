/* SPDX-License-Identifier: MIT */
/* The parallel reader (source.h: pgn_parallel_read; issue 16's -j N, in the library since issue
 * 29): the calling thread's loop. It reads the decoded text and cuts it into batches where one
 * reader surely starts a game (splitter.c), queues them for the workers (par_batch.c) in a ring of
 * 2N slots, and commits the read ones in order (par_commit.c). POSIX threads. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "../base/alloc.h"
#include "par_pool.h"
#include "source_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A batch is cut after BATCH_DEFAULT bytes (splitter.h: where), or BATCH_TREES when the callback
 * gets every game's tree (a tree takes some 20 times its text). */
enum {
    BATCH_DEFAULT = 1 << 20,
    BATCH_TREES = 1 << 16,
    READ_CHUNK = PGNK_READ_CHUNK,
    MAX_JOBS = 256
};
enum { HUGE_PAGE = 1 << 21, HUGE_JOBS = 4 };

int pgn_parallel_serial(const pgn_reader_opts *ro) {
    return ro->max_errors || ro->range_start || ro->range_end || ro->line_base ||
           (ro->flags & PGN_READ_NESTED_COMMENTS);
}

/* Reads into b until a cut past the batch size (the rest carried to the next batch through
 * sc): 0; or to the end or a read error (b->io_error): 1. */
static int fill(pool *p, pgnk_scanner *sc, batch *b, size_t size, int on_main) {
    for (;;) {
        pgnk_text t = {b->buf, b->len, b->start};
        if (pgnk_scan(sc, &t, size, 0) == PGNK_SCAN_CUT) {
            return 0;
        }
        if (!pgnk_par_reserve(&b->buf, &b->cap, b->len + READ_CHUNK, 1)) {
            b->io_error = IO_NOMEM;
            return 1;
        }
        ptrdiff_t n = pgn_source_read(p->src, b->buf + b->len, READ_CHUNK);
        if (n < 0) {
            b->io_error = IO_FAILED;
            return 1;
        }
        if (n == 0) {
            pgnk_text all = {b->buf, b->len, b->start};
            pgnk_scan(sc, &all, SIZE_MAX, 1);
            return 1;
        }
        b->len += (size_t)n;
        if (on_main && p->o->progress) {
            p->o->progress(p->o->user, pgn_source_consumed(p->src), p->tot.games);
        }
    }
}

static void stop_workers(pool *p) {
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; p->w && i <= p->nw; i++) {
        if (p->w[i].started) {
            pthread_join(p->w[i].th, NULL);
        }
        pgn_game_free(p->w[i].game);
        if (p->o->hooks.worker_free && p->w[i].wuser) {
            p->o->hooks.worker_free(p->w[i].wuser);
        }
    }
}

static void free_slots(pool *p) {
    for (size_t i = 0; i < p->nslots; i++) {
        batch *b = &p->slots[i];
        for (size_t g = 0; g < b->kept_games; g++) {
            pgn_game_free(b->games[g].game);
        }
        free(b->games);
        free(b->diags);
        free(b->firsts);
        free(b->buf);
        free(b->product.ptr);
        free(b->rawbuf.ptr);
    }
    free(p->slots);
    free(p->w);
    free(p->carry);
}

/* Starts the workers, each with its state from the command's hooks. 0 when out of memory. */
static int start_workers(pool *p) {
    const pgn_par_hooks *h = &p->o->hooks;
    for (unsigned i = 0; i <= p->nw; i++) {
        worker *w = &p->w[i];
        w->p = p;
        void *user = p->o->hooks_user ? p->o->hooks_user : p->o->user;
        if (h->worker_new && !(w->wuser = h->worker_new(user))) {
            return 0;
        }
        w->vuser = h->worker_vuser ? h->worker_vuser(w->wuser) : NULL;
        if (i == p->nw) {
            break; /* the main thread's, for reading again: no thread */
        }
        if (pthread_create(&w->th, NULL, pgnk_par_worker_main, w) != 0) {
            return 0;
        }
        w->started = 1;
    }
    return 1;
}

/* Keeps the bytes from the cut's line on (the next batch's start) in p->carry, and ends b at the
 * cut: b can then be queued before a slot is free for the next batch. 0 when out of memory. */
static int keep_tail(pool *p, const pgnk_scanner *sc, batch *b) {
    size_t from = (size_t)(sc->cut_from - b->start), n = b->len - from;
    if (!pgnk_par_reserve(&p->carry, &p->carry_cap, n, 1)) {
        return 0;
    }
    memcpy(p->carry, b->buf + from, n);
    p->carry_len = n;
    b->len = (size_t)(sc->cut - b->start);
    return 1;
}

int pgnk_par_take_tail(pool *p, const pgnk_scanner *sc, batch *nb) {
    nb->start = sc->cut_from;
    nb->line = sc->cut_line;
    nb->len = 0;
    if (!pgnk_par_reserve(&nb->buf, &nb->cap, p->carry_len + READ_CHUNK, 1)) {
        return 0;
    }
    memcpy(nb->buf, p->carry, p->carry_len);
    nb->len = p->carry_len;
    return 1;
}

/* The batch size: the caller's (opts.batch), else BATCH_DEFAULT or BATCH_TREES. */
static size_t batch_size(const pool *p) {
    return p->o->batch ? p->o->batch : p->tree && !p->prepared ? BATCH_TREES : BATCH_DEFAULT;
}

/* A buffer of one 2 MiB page, on a transparent huge page where the system gives them (madvise):
 * the kernel maps it in one fault instead of 512, and a first touch of the ring's buffers cost
 * some 15 us a 4 KiB page on the virtual machine measured (docs/design.md). NULL: none. */
static char *huge_buffer(void) {
    char *q = aligned_alloc(HUGE_PAGE, HUGE_PAGE);
#ifdef MADV_HUGEPAGE
    if (q) {
        (void)madvise(q, HUGE_PAGE, MADV_HUGEPAGE);
    }
#endif
    return q;
}

/* With batches of BATCH_DEFAULT and up to -j HUGE_JOBS (the memory: 2N slots of 4 MiB): each
 * slot's text, and its product with a prepare hook, in a huge page buffer (realloc'd like any
 * other if a batch outgrows it). Out of memory is not an error here: the buffers then grow as
 * they would. */
void pgnk_par_huge_buffers(const pool *p, batch *bs, size_t n, size_t size) {
    int prepared = p->prepared && bs == p->slots; /* the texts cut ahead have no product */
    if (size < BATCH_DEFAULT || size + 2 * READ_CHUNK > HUGE_PAGE || p->nslots > 2 * HUGE_JOBS) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        batch *b = &bs[i];
        if ((b->buf = huge_buffer()) != NULL) {
            b->cap = HUGE_PAGE;
        }
        if (prepared && (b->product.ptr = huge_buffer()) != NULL) {
            b->product.cap = HUGE_PAGE;
        }
    }
}

/* The size of the text: a plain file's, or for a compressed regular file an estimate from the
 * share of the file decoded so far (for the batch sizes near the end only); 0: unknown. Asked by
 * whichever thread reads the source (so not through pgn_source_consumed). */
static uint64_t text_size(const pool *p, const batch *b) {
    if (p->size || !p->zsize || b->start == 0) {
        return p->size;
    }
    uint64_t used = pgnk_source_at(p->src);
    return used == 0 || used > p->zsize
               ? 0
               : (uint64_t)((double)b->start * (double)p->zsize / (double)used);
}

/* Where batch b may be cut: after size bytes; the first batch after READ_CHUNK, so that a worker
 * starts sooner; and near the end of a text of known (or estimated) size, after a share of what
 * is left for each slot (READ_CHUNK at least), so that the workers end together rather than one
 * reading the last big batch alone. */
static size_t cut_after(const pool *p, const batch *b, size_t size, uint64_t seq) {
    size_t want = size;
    uint64_t total = text_size(p, b);
    if (total > b->start) {
        uint64_t share = (total - b->start) / p->nslots;
        want = share >= want ? want : share > READ_CHUNK ? (size_t)share : READ_CHUNK;
    }
    return seq == 0 && want > READ_CHUNK ? READ_CHUNK : want;
}

/* Maps b's fresh huge-page buffers in (MADV_POPULATE_WRITE, Linux 5.14: the kernel zeroes the
 * pages without a write to them), on the calling thread, which is idle at the start while a
 * decoder thread cuts the first batches: else the decoder, then the critical path, faults them in
 * when they are swapped to it (docs/design.md, "zstd at -j 2: who waits for whom"). */
static void populate(const batch *b) {
#ifdef MADV_POPULATE_WRITE
    if (b->buf && b->cap == HUGE_PAGE) {
        (void)madvise(b->buf, HUGE_PAGE, MADV_POPULATE_WRITE);
    }
    if (b->product.ptr && b->product.cap == HUGE_PAGE) {
        (void)madvise(b->product.ptr, HUGE_PAGE, MADV_POPULATE_WRITE);
    }
#else
    (void)b;
#endif
}

/* Is the oldest batch in flight read? */
static int head_done(pool *p) {
    pthread_mutex_lock(&p->mu);
    int done = p->head < p->tail && p->slots[p->head % p->nslots].state == B_DONE;
    pthread_mutex_unlock(&p->mu);
    return done;
}

/* Hands b to the workers. */
static void queue(pool *p, batch *b) {
    pthread_mutex_lock(&p->mu);
    b->state = B_QUEUED;
    p->tail++;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

void pgnk_par_scanner_init(const pool *p, pgnk_scanner *sc) {
    memset(sc, 0, sizeof *sc);
    sc->bol = 1;
    sc->check_utf8 = p->ro.encoding == PGN_ENC_AUTO;
}

int pgnk_par_produce(pool *p, pgnk_scanner *sc, batch *b, size_t size, uint64_t seq, int on_main) {
    int end = b->io_error || fill(p, sc, b, cut_after(p, b, size, seq), on_main);
    b->dirty = sc->dirty;
    sc->dirty = 0;
    if (!end && !keep_tail(p, sc, b)) {
        b->io_error = IO_NOMEM;
        end = 1;
    }
    b->final = end;
    return end;
}

/* The main loop: fill a slot (or take the text the decoder thread cut ahead), queue it, commit what
 * is done (waiting for the oldest batch when every slot is in flight: the ring bounds the memory),
 * start the next slot with the text after the cut. A batch is queued before the main thread waits,
 * so that the workers find one more. */
static pgn_status run(pool *p, size_t size) {
    pgnk_scanner sc;
    pgnk_par_scanner_init(p, &sc);
    uint64_t base = 0;
    pgn_status st = PGN_OK;
    batch *b = &p->slots[0];
    b->line = p->ro.line_base;
    for (;;) {
        int end;
        if (p->ahead.on) {
            if (p->tail < p->nslots) {
                populate(b); /* the slot's first use: its fresh buffers */
            }
            end = pgnk_ahead_take(&p->ahead, b);
            if (p->o->progress) {
                p->o->progress(p->o->user, pgn_source_consumed(p->src), p->tot.games);
            }
        } else {
            end = pgnk_par_produce(p, &sc, b, size, p->tail, 1);
        }
        queue(p, b);
        while (st == PGN_OK && (p->tail - p->head == p->nslots || head_done(p))) {
            st = pgnk_par_commit_head(p, &base);
        }
        if (end || st != PGN_OK) {
            break;
        }
        b = &p->slots[p->tail % p->nslots];
        b->from437 = 0;
        b->io_error = p->ahead.on || pgnk_par_take_tail(p, &sc, b) ? 0 : IO_NOMEM;
    }
    while (st == PGN_OK && p->head < p->tail) {
        st = pgnk_par_commit_head(p, &base);
    }
    return st;
}

unsigned pgn_parallel_workers(unsigned threads) {
    if (threads > 0) {
        return threads > MAX_JOBS ? MAX_JOBS : threads;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (unsigned)n;
}

int pgn_parallel_worthwhile(const pgn_source *src) {
    return pgn_source_seekable(src) &&
           (pgn_source_format(src) != PGN_FORMAT_PLAIN || pgn_source_size(src) >= BATCH_DEFAULT);
}

/* The pool's settings from the options. */
static void setup(pool *p, pgn_source *src, const pgn_parallel_opts *o) {
    memset(p, 0, sizeof *p);
    p->o = o;
    p->src = src;
    p->tree = o->tree;
    p->v = o->visitor;
    p->prepared = o->hooks.prepare != NULL;
    p->bare = !o->each && !o->tree && !p->prepared;
    p->ro = o->reader;
    p->ro.on_diag = pgnk_par_keep_diag;
    p->ro.max_errors = 0;
    p->ro.range_end = 0;
    p->nw = pgn_parallel_workers(o->threads);
    if (pgn_source_seekable(src)) {
        *(pgn_source_format(src) == PGN_FORMAT_PLAIN ? &p->size : &p->zsize) = pgn_source_size(src);
    }
    p->nslots = 2 * (size_t)p->nw;
}

pgn_status pgn_parallel_read(pgn_source *src, const pgn_parallel_opts *opts,
                             pgn_parallel_totals *totals) {
    if (pgnk_alloc_check(opts->reader.alloc) != PGN_OK) {
        if (totals) {
            memset(totals, 0, sizeof *totals);
        }
        return PGN_E_BAD_ALLOCATOR;
    }
    pool p;
    setup(&p, src, opts);
    p.slots = calloc(p.nslots, sizeof *p.slots);
    p.w = calloc(p.nw + 1, sizeof *p.w);
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.done, NULL);
    pgn_status st = PGN_E_NOMEM;
    if (p.slots && p.w && start_workers(&p)) {
        /* a compressed source (an archive too) is decoded on a thread of its own; plain text is
         * read by the kernel's copy, which costs little (out of memory: read here) */
        size_t size = batch_size(&p);
        pgnk_par_huge_buffers(&p, p.slots, p.nslots, size);
        if (pgn_source_format(src) != PGN_FORMAT_PLAIN || pgn_source_archive(src) != NULL) {
            (void)pgnk_ahead_start(&p, size);
        }
        st = run(&p, size);
    }
    pgnk_ahead_stop(&p.ahead);
    stop_workers(&p);
    free_slots(&p);
    pthread_cond_destroy(&p.done);
    pthread_cond_destroy(&p.work);
    pthread_mutex_destroy(&p.mu);
    if (totals) {
        *totals = p.tot;
    }
    return st == PGN_OK ? PGN_END : st;
}
