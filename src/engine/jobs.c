/* SPDX-License-Identifier: MIT */
/* The analysis queue (include/pgnkit/jobs.h): a text read once by the caller (pgn_paste_read),
 * queued, then analysed game by game by one of the workers (jobs_worker.c); results (the
 * annotated PGN, each game's viewer entry) and events grow as games finish (jobs_store.c). Jobs
 * time out, are cancelled when nobody asks about them, and are dropped some time after they
 * finish; a ticker does the housekeeping and wakes the readers every tick. */
#define _DEFAULT_SOURCE /* getentropy */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "jobs_internal.h"
#include "pgnkit/json.h"

#define DEFAULT_KEPT 32u

const char *pgn_job_state_name(pgn_job_state s) {
    static const char *const names[] = {"queued", "running",   "done",
                                        "failed", "cancelled", "timeout"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

const char *pgn_job_event_name(pgn_job_event ev) {
    static const char *const names[] = {"state", "move", "game", "end"};
    return (unsigned)ev < sizeof names / sizeof names[0] ? names[ev] : "unknown";
}

static void *ticker_main(void *arg) {
    pgn_jobs *j = arg;
    pthread_mutex_lock(&j->mu);
    struct timespec tick = pgnk_after_ms(j->o.tick_ms);
    while (!j->stopping) {
        if (pthread_cond_timedwait(&j->cv, &j->mu, &tick) == ETIMEDOUT) {
            pgnk_jobs_sweep(j);
            pgnk_jobs_wake(j, NULL);
            tick = pgnk_after_ms(j->o.tick_ms);
        }
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

/* The workers' engines, games and writers: PGN_OK, or a status with err. */
static pgn_status start_workers(pgn_jobs *j, char *err, size_t errcap) {
    for (unsigned i = 0; i < j->o.workers; i++) {
        pgnk_worker *w = &j->ws[i];
        w->j = j;
        w->pgnbuf.alloc = w->entry.alloc = &j->alloc;
        pgn_status st = pgn_engine_new(&w->eng, &j->o.engine, &j->alloc);
        if (st == PGN_OK && (st = pgn_engine_start(w->eng, err, errcap)) != PGN_OK) {
            return st;
        }
        if (st == PGN_OK && (st = pgn_game_new(&w->game, &j->alloc)) == PGN_OK) {
            st = pgn_writer_new(&w->writer, NULL, pgn_membuf_write, &w->pgnbuf);
        }
        if (st != PGN_OK) {
            snprintf(err, errcap, "out of memory");
            return st;
        }
    }
    for (unsigned i = 0; i < j->o.workers; i++) {
        if (pthread_create(&j->ws[i].th, NULL, pgnk_jobs_worker_main, &j->ws[i]) != 0) {
            snprintf(err, errcap, "cannot start a thread");
            return PGN_E_IO;
        }
        j->ws[i].started = 1;
    }
    if (pthread_create(&j->ticker, NULL, ticker_main, j) != 0) {
        snprintf(err, errcap, "cannot start a thread");
        return PGN_E_IO;
    }
    j->ticker_started = 1;
    return PGN_OK;
}

pgn_status pgn_jobs_new(pgn_jobs **out, const pgn_jobs_opts *opts, char *err, size_t errcap) {
    *out = NULL;
    pgn_status st;
    pgn_jobs *j = pgnk_alloc_object(opts->alloc, sizeof *j, &st);
    if (!j) {
        snprintf(err, errcap, "%s", pgn_status_message(st));
        return st;
    }
    j->o = *opts;
    pgnk_alloc_copy(&j->alloc, opts->alloc);
    j->o.alloc = NULL; /* j->alloc is the copy */
    j->o.workers = j->o.workers ? j->o.workers : 1;
    j->o.kept = j->o.kept ? j->o.kept : DEFAULT_KEPT;
    if (j->o.tick_ms <= 0) {
        int64_t half_idle = (int64_t)j->o.idle_s * 500;
        j->o.tick_ms = half_idle > 0 && half_idle < 5000 ? (int)half_idle : 5000;
    }
    j->cap = (size_t)j->o.workers + j->o.queue + j->o.kept;
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    pthread_cond_init(&j->ev_cv, NULL);
    j->jobs = pgnk_malloc(&j->alloc, j->cap * sizeof *j->jobs);
    j->ws = pgnk_malloc(&j->alloc, j->o.workers * sizeof *j->ws);
    if (j->jobs) {
        memset(j->jobs, 0, j->cap * sizeof *j->jobs);
    }
    if (j->ws) {
        memset(j->ws, 0, j->o.workers * sizeof *j->ws);
    }
    st = !j->jobs || !j->ws ? PGN_E_NOMEM : start_workers(j, err, errcap);
    if (st != PGN_OK) {
        if (st == PGN_E_NOMEM) {
            snprintf(err, errcap, "out of memory");
        }
        pgn_jobs_free(j);
        return st;
    }
    *out = j;
    return PGN_OK;
}

void pgn_jobs_abort(pgn_jobs *j) {
    pthread_mutex_lock(&j->mu);
    j->stopping = 1;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

void pgn_jobs_kill(pgn_jobs *j) {
    for (unsigned i = 0; j->ws && i < j->o.workers; i++) {
        pgn_engine_kill(j->ws[i].eng);
    }
}

void pgn_jobs_halt(pgn_jobs *j) {
    pgn_jobs_abort(j);
    if (j->ticker_started) {
        pthread_join(j->ticker, NULL);
        j->ticker_started = 0;
    }
    for (unsigned i = 0; j->ws && i < j->o.workers; i++) {
        pgnk_worker *w = &j->ws[i];
        if (w->started) {
            pthread_join(w->th, NULL);
            w->started = 0;
        }
        if (w->eng) {
            pgn_engine_stop(w->eng);
        }
    }
}

void pgn_jobs_free(pgn_jobs *j) {
    if (!j) {
        return;
    }
    pgn_jobs_halt(j);
    for (unsigned i = 0; j->ws && i < j->o.workers; i++) {
        pgnk_worker *w = &j->ws[i];
        pgn_game_free(w->game);
        pgn_writer_free(w->writer);
        pgn_engine_free(w->eng);
        pgn_membuf_free(&w->pgnbuf);
        pgn_membuf_free(&w->entry);
    }
    for (size_t i = 0; j->jobs && i < j->cap; i++) {
        pgnk_job_free(j, j->jobs[i]);
    }
    pgnk_free(&j->alloc, j->jobs);
    pgnk_free(&j->alloc, j->ws);
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    pthread_cond_destroy(&j->ev_cv);
    pgn_allocator a = j->alloc;
    pgnk_free(&a, j);
}

static int random_id(char out[33]) {
    unsigned char r[16];
    if (getentropy(r, sizeof r) != 0) {
        return -1;
    }
    for (int i = 0; i < 16; i++) {
        snprintf(out + 2 * i, 3, "%02x", r[i]);
    }
    return 0;
}

/* A queued job over a copy of the text; NULL when out of memory or without an id (*st). */
static pgnk_job *new_job(pgn_jobs *j, const char *text, size_t len, const pgn_job_opts *jo,
                         pgn_status *st) {
    const pgn_allocator *a = &j->alloc;
    pgnk_job *jb = pgnk_malloc(a, sizeof *jb);
    *st = PGN_E_NOMEM;
    if (!jb) {
        return NULL;
    }
    memset(jb, 0, sizeof *jb);
    jb->json.alloc = jb->out.alloc = jb->notes.alloc = jb->events.alloc = a;
    size_t ends = ((size_t)jo->games + 1) * sizeof *jb->ends;
    if (!(jb->text = pgnk_malloc(a, len ? len : 1)) || !(jb->ends = pgnk_malloc(a, ends)) ||
        random_id(jb->id) != 0) {
        *st = jb->text && jb->ends ? PGN_E_IO : PGN_E_NOMEM;
        pgnk_job_free(j, jb);
        return NULL;
    }
    memset(jb->ends, 0, ends);
    memcpy(jb->text, text, len);
    jb->text_len = len;
    jb->opts = *jo;
    jb->created = jb->last_poll = pgnk_now_ms();
    return jb;
}

/* Puts jb in the table for a worker: PGN_OK, or PGN_E_LIMIT with why (jb not taken) when the
 * queue is full or the results held would be over max_results. */
static pgn_status enqueue(pgn_jobs *j, pgnk_job *jb, char *why, size_t whycap) {
    char msg[160];
    pthread_mutex_lock(&j->mu);
    pgnk_jobs_sweep(j);
    unsigned queued = 0;
    for (size_t i = 0; i < j->cap; i++) {
        queued += j->jobs[i] && j->jobs[i]->state == PGN_JOB_QUEUED;
    }
    long slot = -1;
    if (queued >= j->o.queue) {
        snprintf(msg, sizeof msg, "%u jobs are waiting already", j->o.queue);
        pgnk_jobs_named(why, whycap, msg, j->o.names.queue);
    } else if (!pgnk_jobs_make_room(j, sizeof *jb + jb->text_len)) {
        snprintf(msg, sizeof msg, "the jobs under way hold %zu of %zu bytes", j->bytes,
                 j->o.max_results);
        pgnk_jobs_named(why, whycap, msg, j->o.names.results);
    } else if ((slot = pgnk_jobs_free_slot(j)) >= 0) {
        jb->seq = j->next_seq++;
        j->jobs[slot] = jb;
        pgnk_job_account(j, jb);
        pthread_cond_broadcast(&j->cv);
    } else {
        snprintf(why, whycap, "no room for a job");
    }
    pthread_mutex_unlock(&j->mu);
    return slot < 0 ? PGN_E_LIMIT : PGN_OK;
}

pgn_status pgn_jobs_submit(pgn_jobs *j, const char *text, size_t len, const pgn_job_opts *jo,
                           char id[33], char *err, size_t errcap) {
    pgn_status st;
    pgnk_job *jb = new_job(j, text, len, jo, &st);
    if (!jb) {
        snprintf(err, errcap, "%s", st == PGN_E_IO ? "no random id" : "out of memory");
        return st;
    }
    memcpy(id, jb->id, sizeof jb->id); /* from PGN_OK on the table owns jb */
    st = enqueue(j, jb, err, errcap);
    if (st != PGN_OK) {
        pgnk_job_free(j, jb); /* never in the table */
    }
    return st;
}

/* printf text to fn: 0, or -1. */
static int put(pgn_write_fn fn, void *ctx, const char *text) {
    size_t n = strlen(text);
    return n == 0 || fn(ctx, text, n) == (ptrdiff_t)n ? 0 : -1;
}

/* The status document of jb (under mu): 0, or -1 when fn fails. */
static int status_json(pgn_jobs *j, pgnk_job *jb, unsigned from, pgn_write_fn fn, void *ctx) {
    int64_t t = pgnk_now_ms();
    int64_t elapsed = jb->started ? (jb->finished ? jb->finished : t) - jb->started : 0;
    unsigned ahead = 0;
    for (size_t i = 0; i < j->cap; i++) {
        pgnk_job *o = j->jobs[i];
        ahead += o && o->state == PGN_JOB_QUEUED && o->seq < jb->seq;
    }
    char head[512], live[160];
    snprintf(head, sizeof head,
             "{\"id\":\"%s\",\"state\":\"%s\",\"queued_ahead\":%u,\"games\":%u,"
             "\"games_done\":%u,\"positions\":%llu,\"positions_done\":%llu,"
             "\"elapsed_ms\":%lld,\"bytes\":%zu,\"from\":%u,\"error\":",
             jb->id, pgn_job_state_name(jb->state), jb->state == PGN_JOB_QUEUED ? ahead : 0,
             jb->opts.games, jb->games_done, (unsigned long long)jb->opts.positions,
             (unsigned long long)jb->positions_done, (long long)elapsed, jb->bytes, from);
    snprintf(live, sizeof live, ",\"live\":{\"game\":%u,\"ply\":%zu,\"eval\":\"%s\"}",
             jb->live_game, jb->live_ply, jb->live_eval);
    pgn_json_html_sink sink = {fn, ctx};
    if (put(fn, ctx, head) < 0 ||
        (jb->error[0] ? (pgn_json_write_string(pgn_json_html_write, &sink, jb->error,
                                               strlen(jb->error)) == PGN_OK
                             ? 0
                             : -1)
                      : put(fn, ctx, "null")) < 0 ||
        put(fn, ctx, live) < 0 || put(fn, ctx, ",\"notes\":[") < 0 ||
        (jb->notes.len && fn(ctx, jb->notes.ptr, jb->notes.len) < 0) ||
        put(fn, ctx, "],\"results\":[") < 0) {
        return -1;
    }
    if (from < jb->games_done) {
        size_t start = from ? jb->ends[from - 1] + 1 : 0; /* past the comma */
        size_t n = jb->ends[jb->games_done - 1] - start;
        if (n && fn(ctx, jb->json.ptr + start, n) < 0) {
            return -1;
        }
    }
    return put(fn, ctx, "]}");
}

pgn_status pgn_jobs_status_json(pgn_jobs *j, const char *id, unsigned from, pgn_write_fn fn,
                                void *ctx) {
    pthread_mutex_lock(&j->mu);
    pgnk_jobs_sweep(j);
    pgnk_job *jb = pgnk_jobs_find(j, id);
    pgn_status st = PGN_END;
    if (jb) {
        jb->last_poll = pgnk_now_ms();
        st = status_json(j, jb, from, fn, ctx) == 0 ? PGN_OK : PGN_E_IO;
    }
    pthread_mutex_unlock(&j->mu);
    return st;
}

pgn_status pgn_jobs_pgn(pgn_jobs *j, const char *id, pgn_write_fn fn, void *ctx,
                        pgn_job_state *state) {
    pthread_mutex_lock(&j->mu);
    pgnk_job *jb = pgnk_jobs_find(j, id);
    pgn_status st = jb ? PGN_OK : PGN_END;
    if (jb) {
        *state = jb->state;
        if (jb->state >= PGN_JOB_DONE && jb->out.len && fn(ctx, jb->out.ptr, jb->out.len) < 0) {
            st = PGN_E_IO;
        }
    }
    pthread_mutex_unlock(&j->mu);
    return st;
}

pgn_status pgn_jobs_cancel(pgn_jobs *j, const char *id) {
    pthread_mutex_lock(&j->mu);
    pgnk_job *jb = pgnk_jobs_find(j, id);
    if (jb) {
        jb->cancel = 1;
        if (jb->state == PGN_JOB_QUEUED) {
            pgnk_job_finish(j, jb, PGN_JOB_CANCELLED, "cancelled");
        }
    }
    pthread_mutex_unlock(&j->mu);
    return jb ? PGN_OK : PGN_END;
}
