/* SPDX-License-Identifier: MIT */
/* The analysis queue's workers (include/pgnkit/jobs.h): each takes the oldest queued job and
 * analyses its games one by one with pgn_game_analyze and its engine process (pgn_engine_*), as
 * pgnkit analyze does, adding each game's annotated PGN and viewer entry to the job as it
 * finishes; it stops a job that is cancelled, past job_s or that nobody asks about (idle_s). */
#include <stdio.h>
#include <string.h>

#include "jobs_internal.h"
#include "pgnkit/reader.h"

/* A new game on the engine (pgn_engine_new_game: its variant through UCI_Variant, as pgnkit
 * analyze does, docs/variants.md; a variant the engine does not list refused, the reason in
 * w->err). */
static pgn_status on_new_game(void *ctx, int chess960) {
    pgnk_worker *w = ctx;
    (void)chess960; /* the game's start says it */
    return pgn_engine_new_game(w->eng, pgn_game_start(w->game), w->err, sizeof w->err);
}

/* The message of the max_results cap stopping a job. */
static void over_results(pgnk_worker *w) {
    char msg[160];
    snprintf(msg, sizeof msg, "stopped: the jobs under way hold more than %zu bytes of results",
             w->j->o.max_results);
    pgnk_jobs_named(w->err, sizeof w->err, msg, w->j->o.names.results);
}

/* Whether the current job must end (cancelled, past its time, nobody asking): stop_state. */
static int must_stop(pgnk_worker *w) {
    pgn_jobs *j = w->j;
    pgnk_job *jb = w->cur;
    int64_t t = pgnk_now_ms();
    pthread_mutex_lock(&j->mu);
    if (jb->cancel || j->stopping) {
        w->stop_state = PGN_JOB_CANCELLED;
        snprintf(w->err, sizeof w->err, "cancelled");
    } else if (j->o.job_s && t > jb->deadline) {
        char msg[64];
        w->stop_state = PGN_JOB_TIMEOUT;
        snprintf(msg, sizeof msg, "the job took longer than %u s", j->o.job_s);
        pgnk_jobs_named(w->err, sizeof w->err, msg, j->o.names.job_time);
    } else if (j->o.idle_s && t - jb->last_poll > (int64_t)j->o.idle_s * 1000) {
        w->stop_state = PGN_JOB_CANCELLED;
        snprintf(w->err, sizeof w->err, "cancelled: %s",
                 j->o.names.idle_why ? j->o.names.idle_why : "nobody asked for it");
    } else if (!pgnk_jobs_make_room(j, 0)) {
        w->stop_state = PGN_JOB_FAILED;
        over_results(w);
    }
    pthread_mutex_unlock(&j->mu);
    return w->stop_state != 0;
}

/* A search's result, under mu: the job's live position, its MOVE event, an engine warning as a
 * note. */
static void live_result(pgnk_worker *w, const pgn_search_request *req, pgn_search *search,
                        const char *warn) {
    pgn_position_analysis res;
    pgn_search_result(search, &res, NULL, 0);
    char ev[32];
    ev[pgn_engine_eval_format(res.eval, ev)] = 0;
    ev[strcspn(ev, ",")] = 0; /* the depth: the page shows the score */
    pthread_mutex_lock(&w->j->mu);
    pgnk_job *jb = w->cur;
    jb->live_game = jb->games_done + 1;
    jb->live_ply = req->ply;
    snprintf(jb->live_eval, sizeof jb->live_eval, "%s", ev);
    if (warn[0]) {
        char msg[400];
        snprintf(msg, sizeof msg, "game %u, ply %zu: %s", jb->games_done + 1, req->ply, warn);
        pgnk_job_note(jb, msg);
    }
    /* ev is a number ("0.35", "-1.20") or a mate ("#3", "#-2"): JSON-safe as a string */
    char data[256];
    snprintf(data, sizeof data,
             "{\"game\":%u,\"ply\":%zu,\"plies\":%zu,\"eval\":\"%s\",\"wc\":%.4f,"
             "\"done\":%llu,\"positions\":%llu}",
             jb->live_game, req->ply, pgn_game_ply_count(w->game), ev,
             pgn_engine_eval_winning_chances(res.eval), (unsigned long long)jb->positions_done + 1,
             (unsigned long long)jb->opts.positions);
    (void)pgnk_job_event(w->j, jb, PGN_JOB_EVENT_MOVE, data);
    pthread_mutex_unlock(&w->j->mu);
}

/* pgn_engine_search_retry after a failed search: a retry only while the job goes on. */
static int on_failed(void *ctx, const pgn_search_request *req, const char *err, int retry) {
    (void)req;
    (void)err;
    return retry && must_stop(ctx);
}

static pgn_status on_search(void *ctx, const pgn_search_request *req, pgn_search *search) {
    pgnk_worker *w = ctx;
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
    pgnk_worker *w = ctx;
    pthread_mutex_lock(&w->j->mu);
    w->cur->positions_done++;
    pthread_mutex_unlock(&w->j->mu);
}

/* Adds game n (analysed with status st) to the job's results: its annotated PGN and its viewer
 * entry. 0, or -1 with w->err. */
static int keep_game(pgnk_worker *w, pgnk_job *jb, unsigned n, pgn_status st,
                     const pgn_game_stats *stats) {
    pgn_jobs *j = w->j;
    w->pgnbuf.len = w->entry.len = 0;
    if (pgn_writer_write(w->writer, w->game) != PGN_OK ||
        pgn_viewer_entry_json(w->game, 0, stats, st == PGN_OK, pgn_membuf_write, &w->entry) !=
            PGN_OK) {
        snprintf(w->err, sizeof w->err, "out of memory");
        return -1;
    }
    pthread_mutex_lock(&j->mu);
    int bad = pgn_membuf_write(&jb->out, w->pgnbuf.ptr, w->pgnbuf.len) < 0 ||
              (jb->games_done && pgn_membuf_write(&jb->json, ",", 1) < 0) ||
              pgn_membuf_write(&jb->json, w->entry.ptr, w->entry.len) < 0;
    if (!bad) {
        char data[32];
        jb->ends[jb->games_done++] = jb->json.len;
        snprintf(data, sizeof data, "{\"game\":%u}", n);
        (void)pgnk_job_event(j, jb, PGN_JOB_EVENT_GAME, data);
        if (st != PGN_OK) {
            char msg[400];
            snprintf(msg, sizeof msg, "game %u not analysed: %s", n,
                     st == PGN_E_ILLEGAL_MOVE ? "a null move"
                     : w->err[0]              ? w->err
                                              : pgn_status_message(st));
            pgnk_job_note(jb, msg);
        }
    }
    pgnk_job_account(j, jb);
    int over = !bad && !pgnk_jobs_make_room(j, 0);
    pthread_mutex_unlock(&j->mu);
    if (bad) {
        snprintf(w->err, sizeof w->err, "out of memory");
    } else if (over) {
        over_results(w);
    }
    return bad || over ? -1 : 0;
}

/* Analyses every game of the job; returns the final state (the caller sets it under mu). */
static pgn_job_state run_job(pgnk_worker *w, pgnk_job *jb) {
    static const pgn_engine_callbacks cbs = {on_new_game, on_search, on_position_done};
    pgn_reader *r = NULL;
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = jb->opts.reader_flags;
    ro.alloc = &w->j->alloc;
    if (pgn_reader_new_mem(&r, &ro, jb->text, jb->text_len) != PGN_OK) {
        snprintf(w->err, sizeof w->err, "out of memory");
        return PGN_JOB_FAILED;
    }
    pgn_job_state state = PGN_JOB_DONE;
    for (unsigned n = 1;; n++) {
        pgn_status st = pgn_reader_next(r, w->game);
        if (st != PGN_OK) {
            if (st != PGN_END) {
                snprintf(w->err, sizeof w->err, "%s", pgn_status_message(st));
                state = PGN_JOB_FAILED;
            }
            break;
        }
        if (pgn_reader_summary(r)->broken && n--) { /* left out when the text was read */
            continue;
        }
        if (n > jb->opts.games) {
            break;
        }
        pgn_analyze_opts opts = {jb->opts.limit,          jb->opts.limit_value, 0, 0, 0,
                                 pgn_engine_name(w->eng), &w->j->alloc};
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
            state = PGN_JOB_FAILED;
            break;
        }
        if (keep_game(w, jb, n, st, &stats) != 0) {
            state = PGN_JOB_FAILED;
            break;
        }
    }
    pgn_reader_free(r);
    return state;
}

/* The oldest queued job, or NULL. */
static pgnk_job *oldest_queued(const pgn_jobs *j) {
    pgnk_job *jb = NULL;
    for (size_t i = 0; i < j->cap; i++) {
        pgnk_job *c = j->jobs[i];
        if (c && c->state == PGN_JOB_QUEUED && (!jb || c->seq < jb->seq)) {
            jb = c;
        }
    }
    return jb;
}

void *pgnk_jobs_worker_main(void *arg) {
    pgnk_worker *w = arg;
    pgn_jobs *j = w->j;
    pthread_mutex_lock(&j->mu);
    for (;;) {
        pgnk_job *jb = NULL;
        while (!j->stopping && !(jb = oldest_queued(j))) {
            pthread_cond_wait(&j->cv, &j->mu);
        }
        if (j->stopping) {
            break;
        }
        jb->state = PGN_JOB_RUNNING;
        jb->busy = 1;
        jb->started = pgnk_now_ms();
        jb->deadline = jb->started + (int64_t)j->o.job_s * 1000;
        w->cur = jb;
        w->stop_state = 0;
        (void)pgnk_job_event(j, jb, PGN_JOB_EVENT_STATE, "{\"state\":\"running\"}");
        pthread_mutex_unlock(&j->mu);
        pgn_job_state state = run_job(w, jb);
        pthread_mutex_lock(&j->mu);
        pgnk_job_finish(j, jb, state, state == PGN_JOB_DONE ? NULL : w->err);
        jb->busy = 0;
        w->cur = NULL;
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}
