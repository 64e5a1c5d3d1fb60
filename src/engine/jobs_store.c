/* SPDX-License-Identifier: MIT */
/* The analysis queue's store (include/pgnkit/jobs.h): the table of jobs and what each holds (its
 * text while it waits or runs; its annotated PGN, viewer entries, notes and events), capped by
 * count (the table's size), by age (keep_s) and by bytes (max_results): the oldest finished jobs
 * go first, never one that a reader still reads. Also the readers of a job's events. Every
 * function runs under pgn_jobs.mu, but the public ones, which take it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../base/alloc.h"
#include "jobs_internal.h"
#include "pgnkit/json.h"

int64_t pgnk_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void pgnk_jobs_named(char *buf, size_t cap, const char *msg, const char *name) {
    snprintf(buf, cap, name ? "%s (%s)" : "%s", msg, name ? name : "");
}

void pgnk_job_free(pgn_jobs *j, pgnk_job *jb) {
    if (jb) {
        pgnk_free(&j->alloc, jb->text);
        pgn_membuf_free(&jb->json);
        pgnk_free(&j->alloc, jb->ends);
        pgn_membuf_free(&jb->out);
        pgn_membuf_free(&jb->notes);
        pgn_membuf_free(&jb->events);
        pgnk_free(&j->alloc, jb);
    }
}

static void drop(pgn_jobs *j, size_t i) {
    j->bytes -= j->jobs[i]->bytes;
    pgnk_job_free(j, j->jobs[i]);
    j->jobs[i] = NULL;
}

/* The bytes a job holds: its buffers as allocated. */
static size_t job_bytes(const pgnk_job *jb) {
    return sizeof *jb + (jb->text ? jb->text_len : 0) + jb->json.cap + jb->out.cap + jb->notes.cap +
           jb->events.cap + ((size_t)jb->opts.games + 1) * sizeof *jb->ends;
}

void pgnk_job_account(pgn_jobs *j, pgnk_job *jb) {
    size_t n = job_bytes(jb);
    j->bytes = j->bytes - jb->bytes + n;
    jb->bytes = n;
}

void pgnk_jobs_wake(pgn_jobs *j, const pgnk_job *jb) {
    for (pgn_job_reader *r = j->readers; r; r = r->next) {
        if (r->waiting && (!jb || r->jb == jb)) {
            r->waiting = 0;
            if (r->waker.wake) {
                r->waker.wake(r->waker.ctx);
            }
        }
    }
    pthread_cond_broadcast(&j->ev_cv);
}

int pgnk_job_event(pgn_jobs *j, pgnk_job *jb, pgn_job_event ev, const char *data) {
    char kind = (char)('0' + (int)ev);
    size_t len = jb->events.len;
    int bad = pgn_membuf_write(&jb->events, &kind, 1) < 0 ||
              pgn_membuf_write(&jb->events, data, strlen(data) + 1) < 0;
    if (bad) {
        jb->events.len = len; /* no half record */
    }
    pgnk_job_account(j, jb);
    pgnk_jobs_wake(j, jb);
    return bad ? -1 : 0;
}

void pgnk_job_note(pgnk_job *jb, const char *msg) {
    pgn_json_html_sink sink = {pgn_membuf_write, &jb->notes};
    size_t len = jb->notes.len;
    if ((len && pgn_membuf_write(&jb->notes, ",", 1) < 0) ||
        pgn_json_write_string(pgn_json_html_write, &sink, msg, strlen(msg)) != PGN_OK) {
        jb->notes.len = len; /* out of memory: the note is missing, the others whole */
    }
}

void pgnk_job_finish(pgn_jobs *j, pgnk_job *jb, pgn_job_state state, const char *why) {
    jb->state = state;
    jb->finished = pgnk_now_ms();
    pgnk_free(&j->alloc, jb->text); /* no longer read: only the results are kept */
    jb->text = NULL;
    if (why && !jb->error[0]) {
        snprintf(jb->error, sizeof jb->error, "%s", why);
    }
    char data[96];
    snprintf(data, sizeof data, "{\"state\":\"%s\",\"games_done\":%u}", pgn_job_state_name(state),
             jb->games_done);
    (void)pgnk_job_event(j, jb, PGN_JOB_EVENT_END, data);
}

/* Whether the job may be dropped: finished, no worker on it, no reader reading it. */
static int droppable(const pgnk_job *jb) {
    return jb && jb->state >= PGN_JOB_DONE && !jb->busy && !jb->readers;
}

void pgnk_jobs_sweep(pgn_jobs *j) {
    int64_t t = pgnk_now_ms();
    for (size_t i = 0; i < j->cap; i++) {
        pgnk_job *jb = j->jobs[i];
        if (jb && jb->state == PGN_JOB_QUEUED && j->o.idle_s &&
            t - jb->last_poll > (int64_t)j->o.idle_s * 1000) {
            char why[160];
            snprintf(why, sizeof why, "cancelled: %s",
                     j->o.names.idle_why ? j->o.names.idle_why : "nobody asked for it");
            pgnk_job_finish(j, jb, PGN_JOB_CANCELLED, why);
        }
        if (droppable(jb) && t - jb->finished > (int64_t)j->o.keep_s * 1000) {
            drop(j, i);
        }
    }
}

pgnk_job *pgnk_jobs_find(pgn_jobs *j, const char *id) {
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
static long oldest_droppable(const pgn_jobs *j) {
    long oldest = -1;
    for (size_t i = 0; i < j->cap; i++) {
        pgnk_job *jb = j->jobs[i];
        if (droppable(jb) && (oldest < 0 || jb->finished < j->jobs[oldest]->finished)) {
            oldest = (long)i;
        }
    }
    return oldest;
}

long pgnk_jobs_free_slot(pgn_jobs *j) {
    for (size_t i = 0; i < j->cap; i++) {
        if (!j->jobs[i]) {
            return (long)i;
        }
    }
    long oldest = oldest_droppable(j);
    if (oldest >= 0) {
        drop(j, (size_t)oldest);
    }
    return oldest;
}

int pgnk_jobs_make_room(pgn_jobs *j, size_t extra) {
    while (j->o.max_results && j->bytes + extra > j->o.max_results) {
        long oldest = oldest_droppable(j);
        if (oldest < 0) {
            return 0;
        }
        drop(j, (size_t)oldest);
    }
    return 1;
}

/* ---- readers ---- */

pgn_status pgn_job_reader_new(pgn_job_reader **out, pgn_jobs *j, const char *id,
                              const pgn_job_waker *waker) {
    *out = NULL;
    pgn_job_reader *r = pgnk_malloc(&j->alloc, sizeof *r);
    if (!r) {
        return PGN_E_NOMEM;
    }
    memset(r, 0, sizeof *r);
    pthread_mutex_lock(&j->mu);
    pgnk_job *jb = pgnk_jobs_find(j, id);
    if (jb) {
        jb->readers++;
        jb->last_poll = pgnk_now_ms();
        r->j = j;
        r->jb = jb;
        if (waker) {
            r->waker = *waker;
        }
        r->next = j->readers;
        if (j->readers) {
            j->readers->prev = r;
        }
        j->readers = r;
    }
    pthread_mutex_unlock(&j->mu);
    if (!jb) {
        pgnk_free(&j->alloc, r);
        return PGN_END;
    }
    *out = r;
    return PGN_OK;
}

int pgn_job_reader_next(pgn_job_reader *r, pgn_job_event_fn fn, void *ctx, int may_wait) {
    pgn_jobs *j = r->j;
    int n = 0;
    pthread_mutex_lock(&j->mu);
    pgnk_job *jb = r->jb;
    jb->last_poll = pgnk_now_ms(); /* someone is there: it reads the events */
    int more = 1;
    while (more && r->off < jb->events.len) {
        const char *rec = jb->events.ptr + r->off;
        size_t len = strlen(rec + 1);
        r->off += len + 2;
        more = fn(ctx, (pgn_job_event)(rec[0] - '0'), rec + 1, len) == 0;
        n = 1;
    }
    if (!n && (jb->state >= PGN_JOB_DONE || j->closing)) {
        n = -1; /* everything given, the END last */
    } else if (!n && may_wait) {
        r->waiting = 1;
        if (r->waker.wait) {
            r->waker.wait(r->waker.ctx);
        }
    }
    pthread_mutex_unlock(&j->mu);
    return n;
}

struct timespec pgnk_after_ms(int64_t ms) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t ns = ts.tv_nsec + (ms % 1000) * 1000000;
    ts.tv_sec += (time_t)(ms / 1000 + ns / 1000000000);
    ts.tv_nsec = (long)(ns % 1000000000);
    return ts;
}

int pgn_job_reader_wait(pgn_job_reader *r, int timeout_ms) {
    pgn_jobs *j = r->j;
    struct timespec until = pgnk_after_ms(timeout_ms);
    pthread_mutex_lock(&j->mu);
    int ready = 0, rc = 0;
    while (!(ready = r->off < r->jb->events.len || r->jb->state >= PGN_JOB_DONE || j->closing) &&
           rc != ETIMEDOUT) {
        rc = pthread_cond_timedwait(&j->ev_cv, &j->mu, &until);
    }
    pthread_mutex_unlock(&j->mu);
    return ready;
}

void pgn_job_reader_free(pgn_job_reader *r) {
    if (!r) {
        return;
    }
    pgn_jobs *j = r->j;
    pthread_mutex_lock(&j->mu);
    r->jb->readers--;
    r->jb->last_poll = pgnk_now_ms(); /* idle_s counts from here */
    if (r->prev) {
        r->prev->next = r->next;
    } else {
        j->readers = r->next;
    }
    if (r->next) {
        r->next->prev = r->prev;
    }
    pthread_cond_broadcast(&j->ev_cv);
    pthread_mutex_unlock(&j->mu);
    pgnk_free(&j->alloc, r);
}

int pgn_jobs_end_readers(pgn_jobs *j, int ms) {
    struct timespec until = pgnk_after_ms(ms);
    pthread_mutex_lock(&j->mu);
    j->closing = 1;
    pgnk_jobs_wake(j, NULL);
    int rc = 0;
    while (j->readers && rc != ETIMEDOUT) {
        rc = pthread_cond_timedwait(&j->ev_cv, &j->mu, &until);
    }
    int open = j->readers != NULL;
    pthread_mutex_unlock(&j->mu);
    return open ? -1 : 0;
}
