/* SPDX-License-Identifier: MIT */
/* pgnkit serve's result store: the table of jobs and what each holds (its paste while it waits or
 * runs; its annotated PGN, viewer entries, notes and events), capped by count (the table's size),
 * by age (--keep) and by bytes (--max-results): the oldest finished jobs go first, never one that
 * a stream still reads. Every function runs under serve_jobs.mu. */
#define _DEFAULT_SOURCE
#include "serve_jobs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int64_t serve_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void serve_job_free(job *jb) {
    if (jb) {
        free(jb->pgn);
        free(jb->json.p);
        free(jb->ends);
        free(jb->out.p);
        free(jb->notes.p);
        free(jb->events.p);
        free(jb);
    }
}

void serve_drop(serve_jobs *j, size_t i) {
    j->bytes -= j->jobs[i]->bytes;
    serve_job_free(j->jobs[i]);
    j->jobs[i] = NULL;
}

/* The bytes a job holds: its buffers as allocated. */
static size_t job_bytes(const job *jb) {
    return sizeof *jb + (jb->pgn ? jb->pgn_len : 0) + jb->json.cap + jb->out.cap + jb->notes.cap +
           jb->events.cap + ((size_t)jb->games + 1) * sizeof *jb->ends;
}

void serve_account(serve_jobs *j, job *jb) {
    size_t n = job_bytes(jb);
    j->bytes = j->bytes - jb->bytes + n;
    jb->bytes = n;
}

void serve_wake(serve_jobs *j, const job *jb) {
    for (serve_stream *st = j->streams; st; st = st->next) {
        if (st->waiting && (!jb || st->jb == jb) && j->resume) {
            st->waiting = 0;
            j->resume(st->conn);
        }
    }
}

int serve_event(serve_jobs *j, job *jb, const char *name, const char *fmt, ...) {
    char data[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(data, sizeof data, fmt, ap);
    va_end(ap);
    int bad = n < 0 || (size_t)n >= sizeof data ||
              serve_printf(&jb->events, "event: %s\ndata: %s\n\n", name, data) < 0;
    serve_account(j, jb);
    serve_wake(j, jb);
    return bad ? -1 : 0;
}

void serve_job_finish(serve_jobs *j, job *jb, int state, const char *why) {
    static const char *const names[] = {"queued", "running",   "done",
                                        "failed", "cancelled", "timeout"};
    jb->state = state;
    jb->finished = serve_now_ms();
    free(jb->pgn); /* no longer read: only the results are kept */
    jb->pgn = NULL;
    if (why && !jb->error[0]) {
        snprintf(jb->error, sizeof jb->error, "%s", why);
    }
    serve_event(j, jb, "end", "{\"state\":\"%s\",\"games_done\":%u}", names[state], jb->games_done);
}

/* Whether the job may be dropped: finished, no worker on it, no stream reading it. */
static int droppable(const job *jb) {
    return jb && jb->state >= J_DONE && !jb->busy && !jb->readers;
}

void serve_sweep(serve_jobs *j) {
    int64_t t = serve_now_ms();
    for (size_t i = 0; i < j->cap; i++) {
        job *jb = j->jobs[i];
        if (jb && jb->state == J_QUEUED && t - jb->last_poll > (int64_t)j->lim.idle_s * 1000) {
            serve_job_finish(j, jb, J_CANCELLED, "cancelled: the page stopped asking for it");
        }
        if (droppable(jb) && t - jb->finished > (int64_t)j->lim.keep_s * 1000) {
            serve_drop(j, i);
        }
    }
}

job *serve_find(serve_jobs *j, const char *id) {
    if (strlen(id) != 32) {
        return NULL;
    }
    for (size_t i = 0; i < j->cap; i++) {
        if (j->jobs[i] && strcmp(j->jobs[i]->id, id) == 0) {
            return j->jobs[i];
        }
    }
    return NULL;
}

/* The slot of the oldest job that may be dropped, or -1. */
static long oldest_droppable(const serve_jobs *j) {
    long oldest = -1;
    for (size_t i = 0; i < j->cap; i++) {
        job *jb = j->jobs[i];
        if (droppable(jb) && (oldest < 0 || jb->finished < j->jobs[oldest]->finished)) {
            oldest = (long)i;
        }
    }
    return oldest;
}

long serve_free_slot(serve_jobs *j) {
    for (size_t i = 0; i < j->cap; i++) {
        if (!j->jobs[i]) {
            return (long)i;
        }
    }
    long oldest = oldest_droppable(j);
    if (oldest >= 0) {
        serve_drop(j, (size_t)oldest);
    }
    return oldest;
}

int serve_make_room(serve_jobs *j, size_t extra) {
    while (j->bytes + extra > j->lim.max_results) {
        long oldest = oldest_droppable(j);
        if (oldest < 0) {
            return 0;
        }
        serve_drop(j, (size_t)oldest);
    }
    return 1;
}
