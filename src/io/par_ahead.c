/* SPDX-License-Identifier: MIT */
/* The parallel reader's decoder thread (par_pool.h: pgnk_ahead; issue 29): a compressed source is
 * decoded on a thread of its own, which also cuts the text into batches, some AHEAD_BYTES of text
 * ahead of the calling thread, so that decoding goes on while the calling thread waits for the
 * oldest batch to be read (every slot of the ring of batches in flight). The calling thread takes
 * each text by swapping buffers with the slot it fills: the decoder writes the text where the
 * worker reads it, with no copy between (before 2026-12-07 it decoded into a ring of 256 KiB
 * blocks that the calling thread copied into the batches and cut; docs/design.md, "zstd at -j
 * 2"). The source is read in the same pieces as the calling thread reads it, so the text is the
 * same bytes in the same order and a damaged stream fails at the same byte; while the thread
 * runs, pgn_source_consumed says how much of the file the text taken so far took. */
#define _POSIX_C_SOURCE 200809L
#include "par_pool.h"
#include "source_int.h"

#include <stdlib.h>
#include <string.h>

/* Waits for a free text; 0 when stopped. */
static int wait_free(pgnk_ahead *a) {
    pthread_mutex_lock(&a->mu);
    while (a->tail - a->head == a->n && !a->stop) {
        pthread_cond_wait(&a->freed, &a->mu);
    }
    int stop = a->stop;
    pthread_mutex_unlock(&a->mu);
    return !stop;
}

/* Cuts the text into batches until the end, a failure, or a stop: each text is filled as the
 * calling thread fills a slot (pgnk_par_produce), and the text after its cut starts the next. */
static void *ahead_main(void *arg) {
    pgnk_ahead *a = arg;
    pool *p = a->p;
    pgnk_scanner sc;
    pgnk_par_scanner_init(p, &sc);
    for (uint64_t seq = 0;; seq++) {
        if (!wait_free(a)) {
            break;
        }
        size_t i = (size_t)(a->tail % a->n);
        batch *t = &a->q[i];
        t->len = 0;
        t->io_error = 0;
        if (seq == 0) {
            t->start = 0;
            t->line = p->ro.line_base;
        } else if (!pgnk_par_take_tail(p, &sc, t)) {
            t->io_error = IO_NOMEM;
        }
        int end = pgnk_par_produce(p, &sc, t, a->size, seq, 0);
        uint64_t at = pgnk_source_at(p->src); /* pgn_source_consumed's count */
        pthread_mutex_lock(&a->mu);
        a->at[i] = at;
        a->tail++;
        pthread_cond_signal(&a->filled);
        pthread_mutex_unlock(&a->mu);
        if (end) {
            break;
        }
    }
    return NULL;
}

int pgnk_ahead_start(pool *p, size_t size) {
    pgnk_ahead *a = &p->ahead;
    memset(a, 0, sizeof *a);
    a->p = p;
    a->size = size;
    a->n = AHEAD_BYTES / size;
    a->n = a->n < 1 ? 1 : a->n > AHEAD_TEXTS ? AHEAD_TEXTS : a->n;
    pgnk_par_huge_buffers(p, a->q, a->n, size);
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->filled, NULL);
    pthread_cond_init(&a->freed, NULL);
    a->on = 1;
    p->src->ahead_at = pgnk_source_at(p->src);
    p->src->ahead = 1;
    if (pthread_create(&a->th, NULL, ahead_main, a) != 0) {
        pgnk_ahead_stop(a);
        return 0;
    }
    a->started = 1;
    return 1;
}

int pgnk_ahead_take(pgnk_ahead *a, batch *b) {
    pthread_mutex_lock(&a->mu);
    while (a->head == a->tail) {
        pthread_cond_wait(&a->filled, &a->mu);
    }
    pthread_mutex_unlock(&a->mu);
    /* text head is the caller's until head moves past it */
    size_t i = (size_t)(a->head % a->n);
    batch *t = &a->q[i];
    char *buf = b->buf;
    size_t cap = b->cap;
    b->buf = t->buf;
    b->cap = t->cap;
    b->len = t->len;
    b->start = t->start;
    b->line = t->line;
    b->io_error = t->io_error;
    b->final = t->final;
    b->dirty = t->dirty;
    t->buf = buf; /* the slot's buffer, read and committed: the thread fills it next */
    t->cap = cap;
    a->p->src->ahead_at = a->at[i];
    pthread_mutex_lock(&a->mu);
    a->head++;
    pthread_cond_signal(&a->freed);
    pthread_mutex_unlock(&a->mu);
    return b->final;
}

void pgnk_ahead_stop(pgnk_ahead *a) {
    if (!a->on) {
        return;
    }
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_broadcast(&a->freed);
    pthread_mutex_unlock(&a->mu);
    if (a->started) {
        pthread_join(a->th, NULL);
    }
    a->p->src->ahead = 0;
    pthread_cond_destroy(&a->freed);
    pthread_cond_destroy(&a->filled);
    pthread_mutex_destroy(&a->mu);
    for (size_t i = 0; i < AHEAD_TEXTS; i++) {
        free(a->q[i].buf);
        a->q[i].buf = NULL;
    }
    a->on = 0;
}
