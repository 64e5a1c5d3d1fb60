/* SPDX-License-Identifier: MIT */
/* The ordered work queue (workq.h; issue 29 point 3, from pgnkit analyze's cli/analyze_run.c): a
 * ring of depth slots between the caller, who fills them (next_push), the workers, who take them
 * (next_take), and the hand-back in push order (next_done). The worker that finishes the oldest
 * item hands back every finished item after it, one thread at a time (handing), without the lock
 * held, so that the others keep taking items meanwhile. */
#define _POSIX_C_SOURCE 200809L
#include "pgnkit/workq.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

enum { MAX_WORKERS = 256, DEPTH_PER_WORKER = 4 };
enum { S_QUEUED, S_WORKING, S_DONE };

typedef struct wq_slot {
    void *item;
    int state;
} wq_slot;

typedef struct wq_worker {
    pgn_workq *q;
    unsigned index;
    pthread_t th;
} wq_worker;

struct pgn_workq {
    pgn_workq_opts o;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* an item queued or handed back, the end, the stop */
    wq_slot *ring;
    uint64_t next_push, next_take, next_done;
    int closed;      /* pgn_workq_finish: nothing more is pushed */
    int handing;     /* a worker is handing items back */
    pgn_status stop; /* PGN_OK, or what stopped the queue */
    wq_worker *w;
    unsigned started; /* workers running */
    int joined;
};

/* Hands back the finished items from the oldest on, unless another worker does. Under mu. */
static void hand_back(pgn_workq *q) {
    while (!q->handing && q->stop == PGN_OK && q->next_done < q->next_push) {
        wq_slot *s = &q->ring[q->next_done % q->o.depth];
        if (s->state != S_DONE) {
            break;
        }
        q->handing = 1;
        pthread_mutex_unlock(&q->mu);
        pgn_status st = q->o.done(q->o.user, s->item);
        pthread_mutex_lock(&q->mu);
        q->handing = 0;
        s->item = NULL;
        q->next_done++;
        if (st != PGN_OK && q->stop == PGN_OK) {
            q->stop = st;
        }
        pthread_cond_broadcast(&q->cv);
    }
}

static void *worker_main(void *arg) {
    wq_worker *w = arg;
    pgn_workq *q = w->q;
    pthread_mutex_lock(&q->mu);
    for (;;) {
        while (q->stop == PGN_OK && !q->closed && q->next_take == q->next_push) {
            pthread_cond_wait(&q->cv, &q->mu);
        }
        if (q->stop != PGN_OK || q->next_take == q->next_push) {
            break;
        }
        wq_slot *s = &q->ring[q->next_take++ % q->o.depth];
        s->state = S_WORKING;
        pthread_mutex_unlock(&q->mu);
        pgn_status st = q->o.work(q->o.user, w->index, s->item);
        pthread_mutex_lock(&q->mu);
        s->state = S_DONE;
        if (st != PGN_OK && q->stop == PGN_OK) {
            q->stop = st;
            pthread_cond_broadcast(&q->cv);
        }
        hand_back(q);
    }
    pthread_mutex_unlock(&q->mu);
    return NULL;
}

pgn_status pgn_workq_new(pgn_workq **out, const pgn_workq_opts *opts) {
    *out = NULL;
    pgn_workq *q = calloc(1, sizeof *q);
    if (!q) {
        return PGN_E_NOMEM;
    }
    q->o = *opts;
    q->o.threads = q->o.threads < 1 ? 1 : q->o.threads > MAX_WORKERS ? MAX_WORKERS : q->o.threads;
    q->o.depth = q->o.depth ? q->o.depth : DEPTH_PER_WORKER * (size_t)q->o.threads;
    q->ring = calloc(q->o.depth, sizeof *q->ring);
    q->w = calloc(q->o.threads, sizeof *q->w);
    if (!q->ring || !q->w) {
        free(q->ring);
        free(q->w);
        free(q);
        return PGN_E_NOMEM;
    }
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->cv, NULL);
    for (unsigned i = 0; i < q->o.threads; i++) {
        q->w[q->started].q = q;
        q->w[q->started].index = i;
        if (pthread_create(&q->w[q->started].th, NULL, worker_main, &q->w[q->started]) == 0) {
            q->started++;
        }
    }
    if (q->started == 0) {
        pgn_workq_free(q);
        return PGN_E_IO;
    }
    *out = q;
    return PGN_OK;
}

pgn_status pgn_workq_push(pgn_workq *q, void *item) {
    pthread_mutex_lock(&q->mu);
    while (q->stop == PGN_OK && q->next_push - q->next_done >= q->o.depth) {
        pthread_cond_wait(&q->cv, &q->mu);
    }
    pgn_status st = q->stop;
    if (st == PGN_OK) {
        wq_slot *s = &q->ring[q->next_push++ % q->o.depth];
        s->item = item;
        s->state = S_QUEUED;
        pthread_cond_broadcast(&q->cv);
    }
    pthread_mutex_unlock(&q->mu);
    return st;
}

/* Ends the input and waits for the workers. */
static void join(pgn_workq *q) {
    pthread_mutex_lock(&q->mu);
    q->closed = 1;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    for (unsigned i = 0; !q->joined && i < q->started; i++) {
        pthread_join(q->w[i].th, NULL);
    }
    q->joined = 1;
}

pgn_status pgn_workq_finish(pgn_workq *q) {
    join(q);
    return q->stop;
}

void pgn_workq_free(pgn_workq *q) {
    if (!q) {
        return;
    }
    pthread_mutex_lock(&q->mu);
    if (!q->closed && q->stop == PGN_OK) {
        q->stop = PGN_E_IO; /* freed before the end: the workers take nothing more */
    }
    pthread_mutex_unlock(&q->mu);
    join(q);
    for (uint64_t i = q->next_done; i < q->next_push; i++) {
        if (q->o.drop) {
            q->o.drop(q->o.user, q->ring[i % q->o.depth].item);
        }
    }
    pthread_cond_destroy(&q->cv);
    pthread_mutex_destroy(&q->mu);
    free(q->ring);
    free(q->w);
    free(q);
}
