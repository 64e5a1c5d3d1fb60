/* SPDX-License-Identifier: MIT */
/* pgnkit serve's job queue: a paste is read once (diagnostics, caps), queued, then analysed game
 * by game by one of the workers with pgn_game_analyze and the engine of cli/engine.c, exactly as
 * pgnkit analyze does; results (the annotated PGN, each game's JSON and graph for the viewer)
 * grow as games finish. Jobs time out, are cancelled when their page stops polling, and are
 * dropped some time after they finish; every figure is a cap of serve_limits. */
#define _DEFAULT_SOURCE
#include "serve.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { J_QUEUED, J_RUNNING, J_DONE, J_FAILED, J_CANCELLED, J_TIMEOUT };
static const char *const state_names[] = {"queued", "running",   "done",
                                          "failed", "cancelled", "timeout"};
#define KEPT_JOBS 32 /* finished jobs kept besides the running and queued ones */

typedef struct job {
    char id[33];
    int state, busy, cancel;
    uint64_t seq;
    char *pgn;
    size_t pgn_len;
    pgn_search_limit kind;
    uint64_t value;
    unsigned games, games_done;
    uint64_t positions, positions_done;
    cli_membuf json;  /* the finished games' entries, comma-separated */
    size_t *ends;     /* ends[i]: where entry i ends in json */
    cli_membuf out;   /* the annotated PGN */
    cli_membuf notes; /* JSON strings, comma-separated: games not analysed */
    char error[256];
    unsigned live_game; /* the last position searched: game, ply, eval (White's view) */
    size_t live_ply;
    char live_eval[32];
    int64_t created, started, finished, last_poll, deadline;
} job;

typedef struct worker {
    struct serve_jobs *j;
    pthread_t th;
    int started;
    engine eng;
    pgn_game *game;
    pgn_writer *writer;
    pgn_json_writer *jw;
    cli_membuf pgnbuf, entry, tmp;
    job *cur;
    int stop_state; /* J_CANCELLED or J_TIMEOUT when the current job must end */
    char err[256];
} worker;

struct serve_jobs {
    serve_limits lim;
    engine_cfg cfg;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stopping;
    uint64_t next_seq;
    job **jobs;
    size_t cap;
    worker *ws;
};

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int serve_check(serve_jobs *j, const char *pgn, size_t len, cli_membuf *body) {
    serve_reading rd = {0};
    serve_paste pa = {0};
    cli_membuf entries = {0};
    int status = serve_read_paste(&j->lim, pgn, len, &rd, &pa, &entries);
    body->len = 0;
    if (status != 500 && (serve_printf(body, "{") < 0 || serve_paste_json(body, &rd, &pa) < 0 ||
                          serve_printf(body, ",\"results\":[") < 0 ||
                          serve_put(body, entries.p, status == 200 ? entries.len : 0) < 0 ||
                          serve_printf(body, "]}") < 0)) {
        status = 500;
    }
    free(rd.diags.p);
    free(entries.p);
    return status == 500 ? serve_nomem(body) : status;
}

/* ---- the job table (under mu) ---- */

static void job_free(job *jb) {
    if (jb) {
        free(jb->pgn);
        free(jb->json.p);
        free(jb->ends);
        free(jb->out.p);
        free(jb->notes.p);
        free(jb);
    }
}

static void finish(job *jb, int state, const char *why) {
    jb->state = state;
    jb->finished = now_ms();
    free(jb->pgn); /* no longer read: only the results are kept */
    jb->pgn = NULL;
    if (why && !jb->error[0]) {
        snprintf(jb->error, sizeof jb->error, "%s", why);
    }
}

/* Drops finished jobs past keep_s, cancels queued jobs whose page stopped polling. */
static void sweep(serve_jobs *j) {
    int64_t t = now_ms();
    for (size_t i = 0; i < j->cap; i++) {
        job *jb = j->jobs[i];
        if (!jb) {
            continue;
        }
        if (jb->state == J_QUEUED && t - jb->last_poll > (int64_t)j->lim.idle_s * 1000) {
            finish(jb, J_CANCELLED, "cancelled: the page stopped asking for it");
        }
        if (jb->state >= J_DONE && !jb->busy && t - jb->finished > (int64_t)j->lim.keep_s * 1000) {
            job_free(jb);
            j->jobs[i] = NULL;
        }
    }
}

static job *find(serve_jobs *j, const char *id) {
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

/* A free slot of the table, made by dropping the oldest finished job if need be; -1 if none. */
static long free_slot(serve_jobs *j) {
    long oldest = -1;
    for (size_t i = 0; i < j->cap; i++) {
        job *jb = j->jobs[i];
        if (!jb) {
            return (long)i;
        }
        if (jb->state >= J_DONE && !jb->busy &&
            (oldest < 0 || jb->finished < j->jobs[oldest]->finished)) {
            oldest = (long)i;
        }
    }
    if (oldest >= 0) {
        job_free(j->jobs[oldest]);
        j->jobs[oldest] = NULL;
    }
    return oldest;
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

/* A queued job over a copy of the paste; NULL when out of memory. */
static job *new_job(const char *pgn, size_t len, pgn_search_limit kind, uint64_t value,
                    const serve_paste *pa) {
    job *jb = calloc(1, sizeof *jb);
    if (!jb || !(jb->pgn = malloc(len ? len : 1)) ||
        !(jb->ends = calloc(pa->games + 1, sizeof *jb->ends)) || random_id(jb->id) != 0) {
        job_free(jb);
        return NULL;
    }
    memcpy(jb->pgn, pgn, len);
    jb->pgn_len = len;
    jb->kind = kind;
    jb->value = value;
    jb->games = pa->games;
    jb->positions = pa->positions;
    jb->created = jb->last_poll = now_ms();
    return jb;
}

/* Puts jb in the table for a worker: 200, or 503 when the queue is full (jb not taken). */
static int enqueue(serve_jobs *j, job *jb) {
    int status = 200;
    pthread_mutex_lock(&j->mu);
    sweep(j);
    unsigned queued = 0;
    for (size_t i = 0; i < j->cap; i++) {
        queued += j->jobs[i] && j->jobs[i]->state == J_QUEUED;
    }
    long slot = queued >= j->lim.queue ? -1 : free_slot(j);
    if (slot < 0) {
        status = 503;
    } else {
        jb->seq = j->next_seq++;
        j->jobs[slot] = jb;
        pthread_cond_broadcast(&j->cv);
    }
    pthread_mutex_unlock(&j->mu);
    return status;
}

int serve_submit(serve_jobs *j, const char *pgn, size_t len, pgn_search_limit kind, uint64_t value,
                 cli_membuf *body) {
    uint64_t max = kind == PGN_LIMIT_DEPTH   ? j->lim.max_depth
                   : kind == PGN_LIMIT_NODES ? j->lim.max_nodes
                                             : j->lim.max_movetime;
    if (value < 1 || value > max) {
        char msg[160];
        snprintf(msg, sizeof msg, "the %s must be between 1 and %llu",
                 kind == PGN_LIMIT_DEPTH   ? "depth"
                 : kind == PGN_LIMIT_NODES ? "node count"
                                           : "time per move (ms)",
                 (unsigned long long)max);
        return serve_error_json(body, 400, msg);
    }
    serve_reading rd = {0};
    serve_paste pa = {0};
    int status = serve_read_paste(&j->lim, pgn, len, &rd, &pa, NULL);
    body->len = 0;
    job *jb = NULL;
    if (status == 200 && !(jb = new_job(pgn, len, kind, value, &pa))) {
        status = 500;
    }
    if (status == 200) {
        status = enqueue(j, jb);
    }
    if (status == 503) {
        snprintf(pa.error, sizeof pa.error,
                 "the server is busy: %u jobs are waiting already (--queue); try again later",
                 j->lim.queue);
    }
    if (status != 200) {
        job_free(jb); /* never in the table */
    }
    int bad = 0;
    if (status == 200) {
        status = 202; /* the job is in the table from here: the table owns it */
        bad = serve_printf(body, "{\"id\":\"%s\",\"state\":\"queued\",", jb->id) < 0;
    } else if (status != 500) {
        bad = serve_printf(body, "{") < 0;
    }
    if (bad) {
        status = 500;
    }
    if (status != 500 && (serve_paste_json(body, &rd, &pa) < 0 || serve_printf(body, "}") < 0)) {
        status = 500;
    }
    free(rd.diags.p);
    return status == 500 ? serve_nomem(body) : status;
}

int serve_status(serve_jobs *j, const char *id, unsigned from, cli_membuf *body) {
    body->len = 0;
    pthread_mutex_lock(&j->mu);
    sweep(j);
    job *jb = find(j, id);
    int status = 200;
    if (!jb) {
        pthread_mutex_unlock(&j->mu);
        return serve_error_json(body, 404,
                                "no such job (finished jobs are kept for --keep seconds)");
    }
    int64_t t = now_ms();
    jb->last_poll = t;
    int64_t elapsed = jb->started ? (jb->finished ? jb->finished : t) - jb->started : 0;
    unsigned ahead = 0;
    for (size_t i = 0; i < j->cap; i++) {
        ahead += j->jobs[i] && j->jobs[i]->state == J_QUEUED && j->jobs[i]->seq < jb->seq;
    }
    if (serve_printf(body,
                     "{\"id\":\"%s\",\"state\":\"%s\",\"queued_ahead\":%u,\"games\":%u,"
                     "\"games_done\":%u,\"positions\":%llu,\"positions_done\":%llu,"
                     "\"elapsed_ms\":%lld,\"from\":%u,\"error\":",
                     jb->id, state_names[jb->state], jb->state == J_QUEUED ? ahead : 0, jb->games,
                     jb->games_done, (unsigned long long)jb->positions,
                     (unsigned long long)jb->positions_done, (long long)elapsed, from) < 0 ||
        (jb->error[0] ? serve_json_string(body, jb->error, (size_t)-1)
                      : serve_printf(body, "null")) < 0 ||
        serve_printf(body, ",\"live\":{\"game\":%u,\"ply\":%zu,\"eval\":\"%s\"}", jb->live_game,
                     jb->live_ply, jb->live_eval) < 0 ||
        serve_printf(body, ",\"notes\":[") < 0 || serve_put(body, jb->notes.p, jb->notes.len) < 0 ||
        serve_printf(body, "],\"results\":[") < 0) {
        status = 500;
    }
    if (status == 200 && from < jb->games_done) {
        size_t start = from ? jb->ends[from - 1] + 1 : 0; /* past the comma */
        if (serve_put(body, jb->json.p + start, jb->ends[jb->games_done - 1] - start) < 0) {
            status = 500;
        }
    }
    pthread_mutex_unlock(&j->mu);
    if (status == 200 && serve_printf(body, "]}") < 0) {
        status = 500;
    }
    return status == 500 ? serve_nomem(body) : status;
}

int serve_pgn(serve_jobs *j, const char *id, cli_membuf *body) {
    body->len = 0;
    pthread_mutex_lock(&j->mu);
    job *jb = find(j, id);
    int status = !jb ? 404 : jb->state < J_DONE ? 409 : 200;
    if (status == 200 && serve_put(body, jb->out.p, jb->out.len) < 0) {
        status = 500;
    }
    pthread_mutex_unlock(&j->mu);
    if (status == 404) {
        return serve_error_json(body, 404, "no such job");
    }
    if (status == 409) {
        return serve_error_json(body, 409, "the job has not finished");
    }
    return status == 500 ? serve_nomem(body) : 200;
}

int serve_cancel(serve_jobs *j, const char *id, cli_membuf *body) {
    pthread_mutex_lock(&j->mu);
    job *jb = find(j, id);
    if (jb) {
        jb->cancel = 1;
        if (jb->state == J_QUEUED) {
            finish(jb, J_CANCELLED, "cancelled");
        }
    }
    pthread_mutex_unlock(&j->mu);
    if (!jb) {
        return serve_error_json(body, 404, "no such job");
    }
    body->len = 0;
    return serve_printf(body, "{\"cancelled\":true}") < 0 ? serve_nomem(body) : 200;
}

/* ---- the workers ---- */

static int restart(worker *w, int chess960) {
    engine_stop(&w->eng);
    if (engine_start(&w->eng, &w->j->cfg, w->err, sizeof w->err) != 0) {
        return -1;
    }
    return engine_new_game(&w->eng, chess960, w->err, sizeof w->err);
}

static pgn_status on_new_game(void *ctx, int chess960) {
    worker *w = ctx;
    if ((w->eng.pid <= 0 || engine_new_game(&w->eng, chess960, w->err, sizeof w->err) != 0) &&
        restart(w, chess960) != 0) {
        return PGN_E_IO;
    }
    return PGN_OK;
}

/* Whether the current job must end (cancelled, past its time, its page gone): stop_state. */
static int must_stop(worker *w) {
    serve_jobs *j = w->j;
    job *jb = w->cur;
    int64_t t = now_ms();
    pthread_mutex_lock(&j->mu);
    if (jb->cancel || j->stopping) {
        w->stop_state = J_CANCELLED;
        snprintf(w->err, sizeof w->err, "cancelled");
    } else if (t > jb->deadline) {
        w->stop_state = J_TIMEOUT;
        snprintf(w->err, sizeof w->err, "the job took longer than %u s (--job-timeout)",
                 j->lim.job_s);
    } else if (t - jb->last_poll > (int64_t)j->lim.idle_s * 1000) {
        w->stop_state = J_CANCELLED;
        snprintf(w->err, sizeof w->err, "cancelled: the page stopped asking for it");
    }
    pthread_mutex_unlock(&j->mu);
    return w->stop_state != 0;
}

static pgn_status on_search(void *ctx, const pgn_search_request *req, pgn_search *search) {
    worker *w = ctx;
    char warn[320];
    for (int attempt = 0; attempt < 2; attempt++) {
        if (must_stop(w)) {
            return PGN_E_IO;
        }
        if (attempt > 0) {
            if (restart(w, req->start->chess960) != 0) {
                return PGN_E_IO;
            }
            pgn_search_begin(search, req->pos);
        }
        if (engine_search(&w->eng, req->position, req->go, search, w->err, sizeof w->err, warn,
                          sizeof warn) == 0) {
            pgn_position_analysis res;
            pgn_search_result(search, &res, NULL, 0);
            char ev[32];
            ev[pgn_engine_eval_format(res.eval, ev)] = 0;
            ev[strcspn(ev, ",")] = 0; /* the depth: the page shows the score */
            pthread_mutex_lock(&w->j->mu);
            job *jb = w->cur;
            jb->live_game = jb->games_done + 1;
            jb->live_ply = req->ply;
            snprintf(jb->live_eval, sizeof jb->live_eval, "%s", ev);
            if (warn[0]) {
                char msg[400];
                snprintf(msg, sizeof msg, "game %u, ply %zu: %s", jb->games_done + 1, req->ply,
                         warn);
                if (jb->notes.len == 0 || serve_put(&jb->notes, ",", 1) == 0) {
                    serve_json_string(&jb->notes, msg, (size_t)-1);
                }
            }
            pthread_mutex_unlock(&w->j->mu);
            return PGN_OK;
        }
    }
    return PGN_E_IO;
}

static void on_position_done(void *ctx, size_t ply) {
    (void)ply;
    worker *w = ctx;
    pthread_mutex_lock(&w->j->mu);
    w->cur->positions_done++;
    pthread_mutex_unlock(&w->j->mu);
}

static void note(job *jb, unsigned game, const char *why) {
    char msg[400];
    snprintf(msg, sizeof msg, "game %u not analysed: %s", game, why);
    if ((jb->notes.len == 0 || serve_put(&jb->notes, ",", 1) >= 0)) {
        serve_json_string(&jb->notes, msg, (size_t)-1);
    }
}

/* Analyses every game of the job; returns the final state (the caller sets it under mu). */
static int run_job(worker *w, job *jb) {
    static const pgn_engine_callbacks cbs = {on_new_game, on_search, on_position_done};
    serve_jobs *j = w->j;
    pgn_reader *r = NULL;
    if (pgn_reader_new_mem(&r, NULL, jb->pgn, jb->pgn_len) != PGN_OK) {
        snprintf(w->err, sizeof w->err, "out of memory");
        return J_FAILED;
    }
    int state = J_DONE;
    for (unsigned n = 1;; n++) {
        pgn_status st = pgn_reader_next(r, w->game);
        if (st != PGN_OK) {
            if (st != PGN_END) {
                snprintf(w->err, sizeof w->err, "%s", pgn_status_message(st));
                state = J_FAILED;
            }
            break;
        }
        if (n > jb->games) {
            break;
        }
        pgn_analyze_opts opts = {jb->kind, jb->value, 0, 0, 0, w->eng.name, NULL};
        pgn_game_stats stats;
        memset(&stats, 0, sizeof stats);
        w->err[0] = 0;
        st = pgn_game_analyze(w->game, &cbs, w, &opts, &stats);
        if (w->stop_state) {
            state = w->stop_state;
            break;
        }
        if (st == PGN_E_NOMEM) {
            snprintf(w->err, sizeof w->err, "out of memory");
            state = J_FAILED;
            break;
        }
        w->pgnbuf.len = w->entry.len = 0;
        if (pgn_writer_write(w->writer, w->game) != PGN_OK ||
            serve_game_entry(&w->entry, &w->tmp, w->jw, w->game, &stats, st == PGN_OK) < 0) {
            snprintf(w->err, sizeof w->err, "out of memory");
            state = J_FAILED;
            break;
        }
        pthread_mutex_lock(&j->mu);
        int bad = serve_put(&jb->out, w->pgnbuf.p, w->pgnbuf.len) < 0 ||
                  (jb->games_done && serve_put(&jb->json, ",", 1) < 0) ||
                  serve_put(&jb->json, w->entry.p, w->entry.len) < 0;
        if (!bad) {
            jb->ends[jb->games_done++] = jb->json.len;
            if (st != PGN_OK) {
                note(jb, n,
                     st == PGN_E_ILLEGAL_MOVE ? "a null move"
                     : w->err[0]              ? w->err
                                              : pgn_status_message(st));
            }
        }
        pthread_mutex_unlock(&j->mu);
        if (bad) {
            snprintf(w->err, sizeof w->err, "out of memory");
            state = J_FAILED;
            break;
        }
    }
    pgn_reader_free(r);
    return state;
}

static void *worker_main(void *arg) {
    worker *w = arg;
    serve_jobs *j = w->j;
    pthread_mutex_lock(&j->mu);
    for (;;) {
        job *jb = NULL;
        while (!j->stopping) {
            for (size_t i = 0; i < j->cap; i++) {
                job *c = j->jobs[i];
                if (c && c->state == J_QUEUED && (!jb || c->seq < jb->seq)) {
                    jb = c;
                }
            }
            if (jb) {
                break;
            }
            pthread_cond_wait(&j->cv, &j->mu);
        }
        if (j->stopping) {
            break;
        }
        jb->state = J_RUNNING;
        jb->busy = 1;
        jb->started = now_ms();
        jb->deadline = jb->started + (int64_t)j->lim.job_s * 1000;
        w->cur = jb;
        w->stop_state = 0;
        pthread_mutex_unlock(&j->mu);
        int state = run_job(w, jb);
        pthread_mutex_lock(&j->mu);
        finish(jb, state, state == J_DONE ? NULL : w->err);
        jb->busy = 0;
        w->cur = NULL;
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

int serve_jobs_start(serve_jobs **out, const serve_limits *lim, const engine_cfg *cfg, char *err,
                     size_t errcap) {
    serve_jobs *j = calloc(1, sizeof *j);
    *out = NULL;
    if (!j) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    j->lim = *lim;
    j->cfg = *cfg;
    j->cap = (size_t)lim->workers + lim->queue + KEPT_JOBS;
    j->jobs = calloc(j->cap, sizeof *j->jobs);
    j->ws = calloc(lim->workers, sizeof *j->ws);
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    if (!j->jobs || !j->ws) {
        snprintf(err, errcap, "out of memory");
        serve_jobs_stop(j);
        return -1;
    }
    pgn_json_writer_opts jo = {PGN_JSON_NDJSON, 0, NULL};
    for (unsigned i = 0; i < lim->workers; i++) {
        worker *w = &j->ws[i];
        w->j = j;
        if (engine_start(&w->eng, &j->cfg, err, errcap) != 0) {
            serve_jobs_stop(j);
            return -1;
        }
        if (pgn_game_new(&w->game, NULL) != PGN_OK ||
            pgn_writer_new(&w->writer, NULL, cli_membuf_write, &w->pgnbuf) != PGN_OK ||
            pgn_json_writer_new(&w->jw, &jo, cli_membuf_write, &w->tmp) != PGN_OK) {
            snprintf(err, errcap, "out of memory");
            serve_jobs_stop(j);
            return -1;
        }
    }
    for (unsigned i = 0; i < lim->workers; i++) {
        if (pthread_create(&j->ws[i].th, NULL, worker_main, &j->ws[i]) != 0) {
            snprintf(err, errcap, "cannot start a thread");
            serve_jobs_stop(j);
            return -1;
        }
        j->ws[i].started = 1;
    }
    *out = j;
    return 0;
}

void serve_jobs_stop(serve_jobs *j) {
    if (!j) {
        return;
    }
    pthread_mutex_lock(&j->mu);
    j->stopping = 1;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
    for (unsigned i = 0; j->ws && i < j->lim.workers; i++) {
        worker *w = &j->ws[i];
        if (w->started) {
            pthread_join(w->th, NULL);
        }
        engine_stop(&w->eng);
        pgn_game_free(w->game);
        pgn_writer_free(w->writer);
        pgn_json_writer_free(w->jw);
        free(w->pgnbuf.p);
        free(w->entry.p);
        free(w->tmp.p);
    }
    for (size_t i = 0; j->jobs && i < j->cap; i++) {
        job_free(j->jobs[i]);
    }
    free(j->jobs);
    free(j->ws);
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    free(j);
}
