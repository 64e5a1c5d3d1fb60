/* SPDX-License-Identifier: MIT */
/* pgnkit serve's event streams: GET /api/jobs/ID/events is a Server-Sent Events response that
 * replays the job's events (serve_store.c: "state", one "move" per position searched, "game" per
 * game finished, "end") and then sends each new one as the worker adds it. The daemon's threads
 * never block on a job: a stream with nothing to send suspends its connection (the way
 * libmicrohttpd prescribes for a content reader with no data yet) and the worker that adds an
 * event resumes it, both under serve_jobs.mu so that no wake-up is lost. A ticker resumes every
 * stream each tick: a heartbeat comment goes out, a page that went away is noticed by the failed
 * write, and a stream counts as the page asking for its job (--idle-timeout). */
#define _DEFAULT_SOURCE
#include "serve_jobs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The next tick of the ticker, as a CLOCK_REALTIME time for pthread_cond_timedwait (the
 * condition is the workers' one: a wake-up before the tick is not one). */
static struct timespec next_tick(int64_t tick_ms) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t ns = ts.tv_nsec + (tick_ms % 1000) * 1000000;
    ts.tv_sec += (time_t)(tick_ms / 1000 + ns / 1000000000);
    ts.tv_nsec = (long)(ns % 1000000000);
    return ts;
}

static void *ticker_main(void *arg) {
    serve_jobs *j = arg;
    pthread_mutex_lock(&j->mu);
    struct timespec tick = next_tick(j->tick_ms);
    while (!j->stopping) {
        if (pthread_cond_timedwait(&j->cv, &j->mu, &tick) == ETIMEDOUT) {
            serve_sweep(j);
            serve_wake(j, NULL);
            tick = next_tick(j->tick_ms);
        }
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

int serve_ticker_start(serve_jobs *j) {
    int64_t half_idle = (int64_t)j->lim.idle_s * 500;
    j->tick_ms = half_idle < 5000 ? half_idle : 5000;
    if (pthread_create(&j->ticker, NULL, ticker_main, j) != 0) {
        return -1;
    }
    j->ticker_started = 1;
    return 0;
}

void serve_jobs_set_resume(serve_jobs *j, void (*resume)(void *conn)) {
    pthread_mutex_lock(&j->mu);
    j->resume = resume;
    pthread_mutex_unlock(&j->mu);
}

int serve_stream_open(serve_jobs *j, const char *id, void *conn, serve_stream **out,
                      cli_membuf *body) {
    serve_stream *st = calloc(1, sizeof *st);
    if (!st) {
        return serve_nomem(body);
    }
    pthread_mutex_lock(&j->mu);
    job *jb = serve_find(j, id);
    if (jb) {
        jb->readers++;
        jb->last_poll = serve_now_ms();
        st->jb = jb;
        st->conn = conn;
        st->last_write = jb->last_poll;
        st->next = j->streams;
        if (j->streams) {
            j->streams->prev = st;
        }
        j->streams = st;
    }
    pthread_mutex_unlock(&j->mu);
    if (!jb) {
        free(st);
        return serve_error_json(body, 404,
                                "no such job (finished jobs are kept for --keep seconds)");
    }
    *out = st;
    return 200;
}

long serve_stream_read(serve_jobs *j, serve_stream *st, char *buf, size_t max,
                       void (*suspend)(void *conn)) {
    long n = 0;
    pthread_mutex_lock(&j->mu);
    job *jb = st->jb;
    int64_t t = serve_now_ms();
    jb->last_poll = t; /* the page is there: it reads the stream */
    size_t left = jb->events.len - st->off;
    if (left) {
        n = (long)(left < max ? left : max);
        memcpy(buf, jb->events.p + st->off, (size_t)n);
        st->off += (size_t)n;
    } else if (jb->state >= J_DONE || j->closing) {
        n = -1; /* everything sent, the "end" event last */
    } else if (t - st->last_write >= j->tick_ms && max >= 3) {
        memcpy(buf, ":\n\n", 3); /* a heartbeat: an SSE comment */
        n = 3;
    } else {
        st->waiting = 1;
        suspend(st->conn);
    }
    if (n > 0) {
        st->last_write = t;
    }
    pthread_mutex_unlock(&j->mu);
    return n;
}

void serve_stream_close(serve_jobs *j, serve_stream *st) {
    pthread_mutex_lock(&j->mu);
    st->jb->readers--;
    st->jb->last_poll = serve_now_ms(); /* --idle-timeout counts from here */
    if (st->prev) {
        st->prev->next = st->next;
    } else {
        j->streams = st->next;
    }
    if (st->next) {
        st->next->prev = st->prev;
    }
    pthread_mutex_unlock(&j->mu);
    free(st);
}

int serve_streams_end(serve_jobs *j, int ms) {
    pthread_mutex_lock(&j->mu);
    j->closing = 1;
    serve_wake(j, NULL);
    pthread_mutex_unlock(&j->mu);
    for (int waited = 0;; waited += 10) {
        pthread_mutex_lock(&j->mu);
        int open = j->streams != NULL;
        pthread_mutex_unlock(&j->mu);
        if (!open || waited >= ms) {
            return open ? -1 : 0;
        }
        struct timespec ts = {0, 10 * 1000000};
        nanosleep(&ts, NULL);
    }
}
