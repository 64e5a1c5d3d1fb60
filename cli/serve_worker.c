/* SPDX-License-Identifier: MIT */
/* pgnkit serve's engine workers: each takes the oldest queued job and analyses its games one by
 * one with pgn_game_analyze and the library's engine process (pgn_engine_*), exactly as pgnkit
 * analyze does, adding each game's annotated PGN and viewer entry to the job as it finishes; it
 * stops a job that is cancelled, past --job-timeout or no longer asked for (--idle-timeout). */
#define _DEFAULT_SOURCE
#include "serve_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A new game on the engine (pgn_engine_new_game: its variant through UCI_Variant, as pgnkit
 * analyze does, docs/variants.md; a variant the engine does not list refused, the reason in
 * w->err). */
static pgn_status on_new_game(void *ctx, int chess960) {
    worker *w = ctx;
    (void)chess960; /* the game's start says it */
    return pgn_engine_new_game(w->eng, pgn_game_start(w->game), w->err, sizeof w->err);
}

/* Whether the current job must end (cancelled, past its time, its page gone): stop_state. */
static int must_stop(worker *w) {
    serve_jobs *j = w->j;
    job *jb = w->cur;
    int64_t t = serve_now_ms();
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
    } else if (!serve_make_room(j, 0)) {
        w->stop_state = J_FAILED;
        snprintf(w->err, sizeof w->err,
                 "stopped: the jobs under way hold more than %zu bytes of results (--max-results)",
                 j->lim.max_results);
    }
    pthread_mutex_unlock(&j->mu);
    return w->stop_state != 0;
}

/* A search's result, under mu: the job's live position, its "move" event, an engine warning as a
 * note. */
static void live_result(worker *w, const pgn_search_request *req, pgn_search *search,
                        const char *warn) {
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
        snprintf(msg, sizeof msg, "game %u, ply %zu: %s", jb->games_done + 1, req->ply, warn);
        if (jb->notes.len == 0 || serve_put(&jb->notes, ",", 1) == 0) {
            serve_json_string(&jb->notes, msg, (size_t)-1);
        }
    }
    /* ev is a number ("0.35", "-1.20") or a mate ("#3", "#-2"): JSON-safe as a string */
    serve_event(w->j, jb, "move",
                "{\"game\":%u,\"ply\":%zu,\"plies\":%zu,\"eval\":\"%s\",\"wc\":%.4f,"
                "\"done\":%llu,\"positions\":%llu}",
                jb->live_game, req->ply, pgn_game_ply_count(w->game), ev,
                pgn_engine_eval_winning_chances(res.eval),
                (unsigned long long)jb->positions_done + 1, (unsigned long long)jb->positions);
    pthread_mutex_unlock(&w->j->mu);
}

/* pgn_engine_search_retry after a failed search: a retry only while the job goes on. */
static int on_failed(void *ctx, const pgn_search_request *req, const char *err, int retry) {
    (void)req;
    (void)err;
    return retry && must_stop(ctx);
}

static pgn_status on_search(void *ctx, const pgn_search_request *req, pgn_search *search) {
    worker *w = ctx;
    char warn[320];
    if (must_stop(w)) {
        return PGN_E_IO;
    }
    const pgn_search_retry retry = {1, on_failed, w};
    if (pgn_engine_search_retry(w->eng, req, search, &retry, w->err, sizeof w->err, warn,
                                sizeof warn) != PGN_OK) {
        return PGN_E_IO;
    }
    live_result(w, req, search, warn);
    return PGN_OK;
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

/* Adds game n (analysed with status st) to the job's results: its annotated PGN and its viewer
 * entry. 0, or -1 with w->err. */
static int keep_game(worker *w, job *jb, unsigned n, pgn_status st, const pgn_game_stats *stats) {
    serve_jobs *j = w->j;
    w->pgnbuf.len = w->entry.len = 0;
    if (pgn_writer_write(w->writer, w->game) != PGN_OK ||
        pgn_viewer_entry_json(w->game, 0, stats, st == PGN_OK, cli_membuf_write, &w->entry) !=
            PGN_OK) {
        snprintf(w->err, sizeof w->err, "out of memory");
        return -1;
    }
    pthread_mutex_lock(&j->mu);
    int bad = serve_put(&jb->out, w->pgnbuf.p, w->pgnbuf.len) < 0 ||
              (jb->games_done && serve_put(&jb->json, ",", 1) < 0) ||
              serve_put(&jb->json, w->entry.p, w->entry.len) < 0;
    if (!bad) {
        jb->ends[jb->games_done++] = jb->json.len;
        serve_event(j, jb, "game", "{\"game\":%u}", n);
        if (st != PGN_OK) {
            note(jb, n,
                 st == PGN_E_ILLEGAL_MOVE ? "a null move"
                 : w->err[0]              ? w->err
                                          : pgn_status_message(st));
        }
    }
    serve_account(j, jb);
    int over = !bad && !serve_make_room(j, 0);
    pthread_mutex_unlock(&j->mu);
    if (bad) {
        snprintf(w->err, sizeof w->err, "out of memory");
    } else if (over) {
        snprintf(w->err, sizeof w->err,
                 "stopped: the jobs under way hold more than %zu bytes of results (--max-results)",
                 j->lim.max_results);
    }
    return bad || over ? -1 : 0;
}

/* Analyses every game of the job; returns the final state (the caller sets it under mu). */
static int run_job(worker *w, job *jb) {
    static const pgn_engine_callbacks cbs = {on_new_game, on_search, on_position_done};
    pgn_reader *r = NULL;
    pgn_reader_opts ro;
    serve_reader_opts(&ro, jb->fix);
    if (pgn_reader_new_mem(&r, &ro, jb->pgn, jb->pgn_len) != PGN_OK) {
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
        if (pgn_reader_summary(r)->broken && n--) { /* left out when the paste was read */
            continue;
        }
        if (n > jb->games) {
            break;
        }
        pgn_analyze_opts opts = {jb->kind, jb->value, 0, 0, 0, pgn_engine_name(w->eng), NULL};
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
        if (keep_game(w, jb, n, st, &stats) != 0) {
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
        jb->started = serve_now_ms();
        jb->deadline = jb->started + (int64_t)j->lim.job_s * 1000;
        w->cur = jb;
        w->stop_state = 0;
        serve_event(j, jb, "state", "{\"state\":\"running\"}");
        pthread_mutex_unlock(&j->mu);
        int state = run_job(w, jb);
        pthread_mutex_lock(&j->mu);
        serve_job_finish(j, jb, state, state == J_DONE ? NULL : w->err);
        jb->busy = 0;
        w->cur = NULL;
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

int serve_jobs_start(serve_jobs **out, const serve_limits *lim, const pgn_engine_config *cfg,
                     char *err, size_t errcap) {
    serve_jobs *j = calloc(1, sizeof *j);
    *out = NULL;
    if (!j) {
        snprintf(err, errcap, "out of memory");
        return -1;
    }
    j->lim = *lim;
    j->cfg = *cfg;
    j->abort_pipe[0] = j->abort_pipe[1] = -1;
    j->cap = (size_t)lim->workers + lim->queue + KEPT_JOBS;
    j->jobs = calloc(j->cap, sizeof *j->jobs);
    j->ws = calloc(lim->workers, sizeof *j->ws);
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    if (!j->jobs || !j->ws || serve_open_abort_pipe(j) != 0) {
        snprintf(err, errcap, !j->jobs || !j->ws ? "out of memory" : "cannot make a pipe");
        serve_jobs_stop(j);
        return -1;
    }
    for (unsigned i = 0; i < lim->workers; i++) {
        worker *w = &j->ws[i];
        w->j = j;
        if (pgn_engine_new(&w->eng, &j->cfg, NULL) != PGN_OK) {
            snprintf(err, errcap, "out of memory");
            serve_jobs_stop(j);
            return -1;
        }
        if (pgn_engine_start(w->eng, err, errcap) != PGN_OK) {
            serve_jobs_stop(j);
            return -1;
        }
        if (pgn_game_new(&w->game, NULL) != PGN_OK ||
            pgn_writer_new(&w->writer, NULL, cli_membuf_write, &w->pgnbuf) != PGN_OK) {
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
    if (serve_ticker_start(j) != 0) {
        snprintf(err, errcap, "cannot start a thread");
        serve_jobs_stop(j);
        return -1;
    }
    *out = j;
    return 0;
}

void serve_jobs_stop(serve_jobs *j) {
    if (!j) {
        return;
    }
    serve_jobs_halt(j);
    for (unsigned i = 0; j->ws && i < j->lim.workers; i++) {
        worker *w = &j->ws[i];
        pgn_game_free(w->game);
        pgn_writer_free(w->writer);
        pgn_engine_free(w->eng);
        free(w->pgnbuf.p);
        free(w->entry.p);
    }
    for (size_t i = 0; j->jobs && i < j->cap; i++) {
        serve_job_free(j->jobs[i]);
    }
    free(j->jobs);
    free(j->ws);
    for (int i = 0; i < 2; i++) {
        if (j->abort_pipe[i] >= 0) {
            close(j->abort_pipe[i]);
        }
    }
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    free(j);
}
