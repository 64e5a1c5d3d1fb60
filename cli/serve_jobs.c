/* SPDX-License-Identifier: MIT */
/* pgnkit serve's answers about jobs: a paste is read once (diagnostics, caps, serve_paste.c) and
 * handed to the library's analysis queue (pgnkit/jobs.h: engine workers, results and events under
 * caps, timeouts, cancels), whose figures are the caps of serve_limits; here each answer becomes
 * its HTTP status and JSON body, and the server's options are named in the messages. */
#define _DEFAULT_SOURCE
#include "serve_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* body (the answer's head) + entries (taken) + "]}" into body, the entries moved in their own
 * buffer rather than copied (an answer may be many MB: two copies at once would double the
 * memory a paste costs). 0, or -1 when out of memory. */
static int close_entries(pgn_membuf *body, pgn_membuf *entries) {
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
    memcpy(entries->ptr, body->ptr, body->len);
    memcpy(entries->ptr + body->len + entries->len, "]}", 2);
    free(body->ptr);
    *body = (pgn_membuf){entries->ptr, need, entries->cap, NULL};
    *entries = (pgn_membuf){0};
    return 0;
}

int serve_check(serve_jobs *j, const char *pgn, size_t len, int fix, pgn_membuf *body) {
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

/* The limit asked for, within its cap: 0, or 400 with the message in body. */
static int check_limit(serve_jobs *j, pgn_search_limit kind, uint64_t value, pgn_membuf *body) {
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
                 uint64_t value, pgn_membuf *body) {
    int status = check_limit(j, kind, value, body);
    if (status) {
        return status;
    }
    pgn_paste pa;
    status = serve_read_paste(&j->lim, pgn, len, fix, &pa);
    body->len = 0;
    char id[33], why[200];
    if (status == 200) {
        pgn_reader_opts ro;
        serve_reader_opts(&ro, fix);
        pgn_job_opts jo = {ro.flags, pa.games, pa.positions, kind, value};
        pgn_status st = pgn_jobs_submit(j->q, pgn, len, &jo, id, why, sizeof why);
        status = st == PGN_OK ? 200 : st == PGN_E_LIMIT ? 503 : 500;
        if (status == 503) {
            snprintf(pa.error, sizeof pa.error, "the server is busy: %.100s; try again later", why);
        }
    }
    /* from 200 on the job is the queue's: only its id is read here */
    int bad = status == 200 ? serve_printf(body, "{\"id\":\"%s\",\"state\":\"queued\",", id) < 0
                            : serve_printf(body, "{") < 0;
    pa.entries.len = status == 200 ? pa.entries.len : 0;
    bad = bad || serve_paste_json(body, &pa) < 0 || serve_printf(body, ",\"entries\":[") < 0 ||
          close_entries(body, &pa.entries) < 0;
    pgn_paste_free(&pa);
    return bad || status == 500 ? serve_nomem(body) : status == 200 ? 202 : status;
}

int serve_status(serve_jobs *j, const char *id, unsigned from, pgn_membuf *body) {
    body->len = 0;
    pgn_status st = pgn_jobs_status_json(j->q, id, from, pgn_membuf_write, body);
    if (st == PGN_END) {
        return serve_error_json(body, 404,
                                "no such job (finished jobs are kept for --keep seconds)");
    }
    return st == PGN_OK ? 200 : serve_nomem(body);
}

int serve_pgn(serve_jobs *j, const char *id, pgn_membuf *body) {
    body->len = 0;
    pgn_job_state state = PGN_JOB_QUEUED;
    pgn_status st = pgn_jobs_pgn(j->q, id, pgn_membuf_write, body, &state);
    if (st == PGN_END) {
        return serve_error_json(body, 404, "no such job");
    }
    if (st == PGN_OK && state < PGN_JOB_DONE) {
        return serve_error_json(body, 409, "the job has not finished");
    }
    return st == PGN_OK ? 200 : serve_nomem(body);
}

int serve_cancel(serve_jobs *j, const char *id, pgn_membuf *body) {
    if (pgn_jobs_cancel(j->q, id) != PGN_OK) {
        return serve_error_json(body, 404, "no such job");
    }
    body->len = 0;
    return serve_printf(body, "{\"cancelled\":true}") < 0 ? serve_nomem(body) : 200;
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
    if (serve_open_abort_pipe(j) != 0) {
        snprintf(err, errcap, "cannot make a pipe");
        serve_jobs_stop(j);
        return -1;
    }
    int64_t half_idle = (int64_t)lim->idle_s * 500;
    j->tick_ms = half_idle < 5000 ? half_idle : 5000;
    pgn_jobs_names names = {"--queue", "--max-results", "--job-timeout",
                            "the page stopped asking for it"};
    pgn_jobs_opts o = {
        lim->workers,     lim->queue,      0,      lim->job_s, lim->idle_s, lim->keep_s,
        lim->max_results, (int)j->tick_ms, j->cfg, names,      NULL};
    if (pgn_jobs_new(&j->q, &o, err, errcap) != PGN_OK) {
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
    pgn_jobs_free(j->q);
    for (int i = 0; i < 2; i++) {
        if (j->abort_pipe[i] >= 0) {
            close(j->abort_pipe[i]);
        }
    }
    free(j);
}
