/* SPDX-License-Identifier: MIT */
/* pgnkit serve's jobs inside, shared by the answers about jobs (serve_jobs.c), the event streams
 * (serve_stream.c) and the shutdown (serve_halt.c): the library's analysis queue (pgnkit/jobs.h)
 * and what the server adds to it, the engines' abort pipe and the HTTP layer's resume. */
#ifndef PGNKIT_CLI_SERVE_JOBS_H
#define PGNKIT_CLI_SERVE_JOBS_H

#include "serve.h"

struct serve_jobs {
    pgn_jobs *q;
    serve_limits lim;
    pgn_engine_config cfg;
    int64_t tick_ms;            /* the queue's tick: a stream's heartbeat is due a tick late */
    void (*resume)(void *conn); /* wakes a waiting stream's connection (set by the HTTP layer) */
    int abort_pipe[2]; /* written when the server stops: every engine wait ends (cfg.abort_fd) */
};

/* The pipe of pgn_engine_config.abort_fd (never 0), and the engines in process groups of their own:
 * 0, or -1 (serve_halt.c). */
int serve_open_abort_pipe(serve_jobs *j);

#endif
