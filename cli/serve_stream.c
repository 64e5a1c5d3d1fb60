/* SPDX-License-Identifier: MIT */
/* pgnkit serve's event streams: GET /api/jobs/ID/events is a Server-Sent Events response that
 * replays the job's events (the library's pgn_job_reader: "state", one "move" per position
 * searched, "game" per game finished, "end") and then sends each new one as the worker adds it.
 * The daemon's threads never block on a job: a stream with nothing to send suspends its
 * connection (the way libmicrohttpd prescribes for a content reader with no data yet) and the
 * queue resumes it when there is more, both under the queue's lock so that no wake-up is lost.
 * The queue also resumes every stream each tick: a heartbeat comment goes out, a page that went
 * away is noticed by the failed write, and a stream counts as the page asking for its job
 * (--idle-timeout). */
#define _DEFAULT_SOURCE
#include "serve_jobs.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct serve_stream {
    serve_jobs *j;
    pgn_job_reader *r;
    void *conn;                  /* the HTTP layer's connection, given to suspend and resume */
    void (*suspend)(void *conn); /* serve_stream_read's */
    pgn_membuf pend;             /* events as text, not sent yet: pend.ptr[sent..len) */
    size_t sent;
    int64_t last_write; /* when bytes were last sent (the heartbeat is due a tick later) */
};

int64_t serve_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void serve_jobs_set_resume(serve_jobs *j, void (*resume)(void *conn)) {
    j->resume = resume; /* before the daemon starts: no stream reads it yet */
}

static void wait_conn(void *ctx) {
    serve_stream *st = ctx;
    st->suspend(st->conn);
}

static void wake_conn(void *ctx) {
    serve_stream *st = ctx;
    if (st->j->resume) {
        st->j->resume(st->conn);
    }
}

int serve_stream_open(serve_jobs *j, const char *id, void *conn, serve_stream **out,
                      pgn_membuf *body) {
    serve_stream *st = calloc(1, sizeof *st);
    if (!st) {
        return serve_nomem(body);
    }
    st->j = j;
    st->conn = conn;
    st->last_write = serve_now_ms();
    pgn_job_waker w = {wait_conn, wake_conn, st};
    pgn_status s = pgn_job_reader_new(&st->r, j->q, id, &w);
    if (s != PGN_OK) {
        free(st);
        return s == PGN_END
                   ? serve_error_json(body, 404,
                                      "no such job (finished jobs are kept for --keep seconds)")
                   : serve_nomem(body);
    }
    *out = st;
    return 200;
}

/* An event as Server-Sent Events text into st->pend; stops past 4 KiB (the rest comes later). */
static int sse_event(void *ctx, pgn_job_event ev, const char *json, size_t len) {
    serve_stream *st = ctx;
    if (serve_printf(&st->pend, "event: %s\ndata: ", pgn_job_event_name(ev)) < 0 ||
        serve_put(&st->pend, json, len) < 0 || serve_put(&st->pend, "\n\n", 2) < 0) {
        return 1; /* out of memory: the page's poll still has it all */
    }
    return st->pend.len >= 4096;
}

long serve_stream_read(serve_jobs *j, serve_stream *st, char *buf, size_t max,
                       void (*suspend)(void *conn)) {
    int64_t t = serve_now_ms();
    if (st->sent == st->pend.len) {
        st->sent = st->pend.len = 0;
        st->suspend = suspend;
        int beat = t - st->last_write >= j->tick_ms && max >= 3;
        int n = pgn_job_reader_next(st->r, sse_event, st, !beat);
        if (n < 0) {
            return -1; /* everything sent, the "end" event last */
        }
        if (n == 0 && beat) {
            memcpy(buf, ":\n\n", 3); /* a heartbeat: an SSE comment */
            st->last_write = t;
            return 3;
        }
    }
    size_t n = st->pend.len - st->sent;
    n = n < max ? n : max;
    if (n) {
        memcpy(buf, st->pend.ptr + st->sent, n);
        st->sent += n;
        st->last_write = t;
    }
    return (long)n;
}

void serve_stream_close(serve_jobs *j, serve_stream *st) {
    (void)j;
    pgn_job_reader_free(st->r);
    free(st->pend.ptr);
    free(st);
}

int serve_streams_end(serve_jobs *j, int ms) {
    return pgn_jobs_end_readers(j->q, ms);
}
