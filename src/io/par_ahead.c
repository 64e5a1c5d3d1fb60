/* SPDX-License-Identifier: MIT */
/* The parallel reader's decoder thread (par_pool.h: pgnk_ahead; issue 29): a compressed source is
 * decoded on a thread of its own into a ring of AHEAD_BLOCKS blocks, so that decoding goes on
 * while the calling thread waits for the oldest batch to be read (every slot of the ring of
 * batches in flight), and the calling thread only copies decoded text into the batches and cuts
 * them. Before it, the calling thread decoded between its waits: the workers found no batch
 * queued while it decoded the next one, and the decoder stood still while they read
 * (docs/design.md, "zstd at -j 2"). The text is the same bytes in the same order; while the
 * thread runs, pgn_source_consumed says how much of the file the text given out so far took. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "par_pool.h"
#include "source_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { AHEAD_MEM = AHEAD_BLOCKS * PGNK_AHEAD_BLOCK, HUGE_PAGE = 1 << 21 };

/* Decodes blocks until the end, a failure, or a stop: each block is filled while it has room for
 * one more read of PGNK_READ_CHUNK bytes (the source gives some tens of KiB a call), and marks the
 * end or the failure that follows its bytes. */
static void *ahead_main(void *arg) {
    pgnk_ahead *a = arg;
    for (int fin = 0; fin == 0;) {
        pthread_mutex_lock(&a->mu);
        while (a->tail - a->head == AHEAD_BLOCKS && !a->stop) {
            pthread_cond_wait(&a->freed, &a->mu);
        }
        int stop = a->stop;
        pthread_mutex_unlock(&a->mu);
        if (stop) {
            break;
        }
        size_t i = (size_t)(a->tail % AHEAD_BLOCKS), len = 0;
        char *blk = a->mem + i * PGNK_AHEAD_BLOCK;
        ptrdiff_t n = 1;
        while (PGNK_AHEAD_BLOCK - len >= PGNK_READ_CHUNK &&
               (n = pgn_source_read(a->src, blk + len, PGNK_READ_CHUNK)) > 0) {
            len += (size_t)n;
        }
        fin = n == 0 ? 1 : n < 0 ? -1 : 0;
        uint64_t at = a->src->in_off + a->src->in_pos; /* pgn_source_consumed's count */
        pthread_mutex_lock(&a->mu);
        a->len[i] = len;
        a->fin[i] = fin;
        a->at[i] = at;
        a->tail++;
        pthread_cond_signal(&a->filled);
        pthread_mutex_unlock(&a->mu);
    }
    return NULL;
}

int pgnk_ahead_start(pgnk_ahead *a, pgn_source *src) {
    memset(a, 0, sizeof *a);
    a->src = src;
    if ((a->mem = aligned_alloc(HUGE_PAGE, AHEAD_MEM)) == NULL) {
        return 0;
    }
#ifdef MADV_HUGEPAGE
    (void)madvise(a->mem, AHEAD_MEM, MADV_HUGEPAGE);
#endif
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->filled, NULL);
    pthread_cond_init(&a->freed, NULL);
    src->ahead_at = src->in_off + src->in_pos;
    src->ahead = 1;
    if (pthread_create(&a->th, NULL, ahead_main, a) != 0) {
        pgnk_ahead_stop(a);
        return 0;
    }
    a->started = 1;
    return 1;
}

ptrdiff_t pgnk_ahead_read(pgnk_ahead *a, void *buf, size_t cap) {
    pthread_mutex_lock(&a->mu);
    while (a->head == a->tail) {
        pthread_cond_wait(&a->filled, &a->mu);
    }
    size_t i = (size_t)(a->head % AHEAD_BLOCKS), len = a->len[i];
    int fin = a->fin[i];
    pthread_mutex_unlock(&a->mu);
    if (a->pos == len) { /* only the end or a failure is left (fin != 0) */
        a->src->ahead_at = a->at[i];
        return fin > 0 ? 0 : -1;
    }
    /* block i is the caller's until head moves past it */
    size_t n = len - a->pos < cap ? len - a->pos : cap;
    memcpy(buf, a->mem + i * PGNK_AHEAD_BLOCK + a->pos, n);
    a->pos += n;
    if (a->pos == len && fin == 0) {
        a->src->ahead_at = a->at[i];
        pthread_mutex_lock(&a->mu);
        a->head++;
        a->pos = 0;
        pthread_cond_signal(&a->freed);
        pthread_mutex_unlock(&a->mu);
    }
    return (ptrdiff_t)n;
}

void pgnk_ahead_stop(pgnk_ahead *a) {
    if (a->mem == NULL) {
        return;
    }
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_broadcast(&a->freed);
    pthread_mutex_unlock(&a->mu);
    if (a->started) {
        pthread_join(a->th, NULL);
    }
    a->src->ahead = 0;
    pthread_cond_destroy(&a->freed);
    pthread_cond_destroy(&a->filled);
    pthread_mutex_destroy(&a->mu);
    free(a->mem);
    a->mem = NULL;
}
