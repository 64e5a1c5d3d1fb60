/* SPDX-License-Identifier: MIT */
/* pgnkit serve's job queue: a paste is read once (diagnostics, caps), queued, then analysed game
 * by game by one of the workers with pgn_game_analyze and the library's engine process
 * (pgn_engine_*), exactly as pgnkit analyze does; results (the annotated PGN, each game's JSON and
 * graph for the viewer) grow as games finish. Jobs time out, are cancelled when their page stops
 * polling, and are dropped some time after they finish; every figure is a cap of serve_limits. */
#define _DEFAULT_SOURCE
#include "serve_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const state_names[] = {"queued", "running",   "done",
                                          "failed", "cancelled", "timeout"};

/* body (the answer's head) + entries (taken) + "]}" into body, the entries moved in their own
 * buffer rather than copied (an answer may be many MB: two copies at once would double the
 * memory a paste costs). 0, or -1 when out of memory. */
static int close_entries(cli_membuf *body, pgn_membuf *entries) {
    size_t need = body->len + entries->len + 2;
    if (entries->cap < need) { /* the library's buffer grows through libc (alloc NULL) */
        char *p = realloc(entries->ptr, need);
        if (!p) {
            return -1;
        }
        entries->ptr = p;
        entries->cap = need;
    }
    if (entries->len) {
        memmove(entries->ptr + body->len, entries->ptr, entries->len);
    }
    memcpy(entries->ptr, body->p, body->len);
    memcpy(entries->ptr + body->len + entries->len, "]}", 2);
    free(body->p);
    *body = (cli_membuf){entries->ptr, need, entries->cap};
    *entries = (pgn_membuf){0};
    return 0;
}

int serve_check(serve_jobs *j, const char *pgn, size_t len, int fix, cli_membuf *body) {
    pgn_paste pa;
    int status = serve_read_paste(&j->lim, pgn, len, fix, &pa);
    body->len = 0;
    pa.entries.len = status == 200 ? pa.entries.len : 0;
    if (status != 500 &&
        (serve_printf(body, "{") < 0 || serve_paste_json(body, &pa) < 0 ||
         serve_printf(body, ",\"results\":[") < 0 || close_entries(body, &pa.entries) < 0)) {
        status = 500;
    }
    pgn_paste_free(&pa);
    return status == 500 ? serve_nomem(body) : status;
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
static job *new_job(const char *pgn, size_t len, int fix, pgn_search_limit kind, uint64_t value,
                    const pgn_paste *pa) {
    job *jb = calloc(1, sizeof *jb);
    if (!jb || !(jb->pgn = malloc(len ? len : 1)) ||
        !(jb->ends = calloc(pa->games + 1, sizeof *jb->ends)) || random_id(jb->id) != 0) {
        serve_job_free(jb);
        return NULL;
    }
    memcpy(jb->pgn, pgn, len);
    jb->pgn_len = len;
    jb->fix = fix;
    jb->kind = kind;
    jb->value = value;
    jb->games = pa->games;
    jb->positions = pa->positions;
    jb->created = jb->last_poll = serve_now_ms();
    return jb;
}

/* Puts jb in the table for a worker: 200, or 503 with why (jb not taken) when the queue is full
 * or the results held would be over --max-results. */
static int enqueue(serve_jobs *j, job *jb, char *why, size_t whycap) {
    pthread_mutex_lock(&j->mu);
    serve_sweep(j);
    unsigned queued = 0;
    for (size_t i = 0; i < j->cap; i++) {
        queued += j->jobs[i] && j->jobs[i]->state == J_QUEUED;
    }
    long slot = -1;
    if (queued >= j->lim.queue) {
        snprintf(why, whycap,
                 "the server is busy: %u jobs are waiting already (--queue); try again later",
                 j->lim.queue);
    } else if (!serve_make_room(j, sizeof *jb + jb->pgn_len)) {
        snprintf(why, whycap,
                 "the server is busy: the jobs under way hold %zu of %zu bytes (--max-results); "
                 "try again later",
                 j->bytes, j->lim.max_results);
    } else if ((slot = serve_free_slot(j)) >= 0) {
        jb->seq = j->next_seq++;
        j->jobs[slot] = jb;
        serve_account(j, jb);
        pthread_cond_broadcast(&j->cv);
    }
    pthread_mutex_unlock(&j->mu);
    return slot < 0 ? 503 : 200;
}

/* The limit asked for, within its cap: 0, or 400 with the message in body. */
static int check_limit(serve_jobs *j, pgn_search_limit kind, uint64_t value, cli_membuf *body) {
    uint64_t max = kind == PGN_LIMIT_DEPTH   ? j->lim.max_depth
                   : kind == PGN_LIMIT_NODES ? j->lim.max_nodes
                                             : j->lim.max_movetime;
    if (value >= 1 && value <= max) {
        return 0;
    }
    char msg[160];
    snprintf(msg, sizeof msg, "the %s must be between 1 and %llu",
             kind == PGN_LIMIT_DEPTH   ? "depth"
             : kind == PGN_LIMIT_NODES ? "node count"
                                       : "time per move (ms)",
             (unsigned long long)max);
    return serve_error_json(body, 400, msg);
}

int serve_submit(serve_jobs *j, const char *pgn, size_t len, int fix, pgn_search_limit kind,
                 uint64_t value, cli_membuf *body) {
    int status = check_limit(j, kind, value, body);
    if (status) {
        return status;
    }
    pgn_paste pa;
    status = serve_read_paste(&j->lim, pgn, len, fix, &pa);
    body->len = 0;
    job *jb = NULL;
    if (status == 200 && !(jb = new_job(pgn, len, fix, kind, value, &pa))) {
        status = 500;
    }
    if (status == 200 && (status = enqueue(j, jb, pa.error, sizeof pa.error)) != 200) {
        serve_job_free(jb); /* never in the table */
    }
    /* from 202 on the job is in the table, which owns it: only its id is read here */
    int bad = status == 200 ? serve_printf(body, "{\"id\":\"%s\",\"state\":\"queued\",", jb->id) < 0
                            : serve_printf(body, "{") < 0;
    pa.entries.len = status == 200 ? pa.entries.len : 0;
    bad = bad || serve_paste_json(body, &pa) < 0 || serve_printf(body, ",\"entries\":[") < 0 ||
          close_entries(body, &pa.entries) < 0;
    pgn_paste_free(&pa);
    return bad || status == 500 ? serve_nomem(body) : status == 200 ? 202 : status;
}

int serve_status(serve_jobs *j, const char *id, unsigned from, cli_membuf *body) {
    body->len = 0;
    pthread_mutex_lock(&j->mu);
    serve_sweep(j);
    job *jb = serve_find(j, id);
    int status = 200;
    if (!jb) {
        pthread_mutex_unlock(&j->mu);
        return serve_error_json(body, 404,
                                "no such job (finished jobs are kept for --keep seconds)");
    }
    int64_t t = serve_now_ms();
    jb->last_poll = t;
    int64_t elapsed = jb->started ? (jb->finished ? jb->finished : t) - jb->started : 0;
    unsigned ahead = 0;
    for (size_t i = 0; i < j->cap; i++) {
        ahead += j->jobs[i] && j->jobs[i]->state == J_QUEUED && j->jobs[i]->seq < jb->seq;
    }
    if (serve_printf(body,
                     "{\"id\":\"%s\",\"state\":\"%s\",\"queued_ahead\":%u,\"games\":%u,"
                     "\"games_done\":%u,\"positions\":%llu,\"positions_done\":%llu,"
                     "\"elapsed_ms\":%lld,\"bytes\":%zu,\"from\":%u,\"error\":",
                     jb->id, state_names[jb->state], jb->state == J_QUEUED ? ahead : 0, jb->games,
                     jb->games_done, (unsigned long long)jb->positions,
                     (unsigned long long)jb->positions_done, (long long)elapsed, jb->bytes,
                     from) < 0 ||
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
    job *jb = serve_find(j, id);
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
    job *jb = serve_find(j, id);
    if (jb) {
        jb->cancel = 1;
        if (jb->state == J_QUEUED) {
            serve_job_finish(j, jb, J_CANCELLED, "cancelled");
        }
    }
    pthread_mutex_unlock(&j->mu);
    if (!jb) {
        return serve_error_json(body, 404, "no such job");
    }
    body->len = 0;
    return serve_printf(body, "{\"cancelled\":true}") < 0 ? serve_nomem(body) : 200;
}
