/* SPDX-License-Identifier: MIT */
/* pgnkit serve: the job queue (serve_jobs.c) behind the HTTP layer (cmd_serve.c). A job is one
 * pasted PGN analysed game by game by one of a fixed number of engine workers; every answer is a
 * JSON document built here, so the HTTP layer only routes, checks headers and caps bodies. */
#ifndef PGNKIT_CLI_SERVE_H
#define PGNKIT_CLI_SERVE_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "engine.h"

/* The caps of docs/design.md "pgnkit serve"; every one has a command-line option. */
typedef struct serve_limits {
    size_t max_body;       /* bytes of one request body */
    unsigned max_games;    /* games in one paste */
    unsigned max_plies;    /* main-line plies of one game */
    unsigned workers;      /* engines, so jobs analysed at once */
    unsigned queue;        /* jobs waiting for an engine */
    unsigned max_depth;    /* the page's limit may not exceed these */
    uint64_t max_nodes;    /* ... */
    uint64_t max_movetime; /* ms */
    int move_ms;           /* one search: past it "stop" (engine_cfg.timeout_ms) */
    unsigned job_s;        /* one job, from its start: past it the job ends as "timeout" */
    unsigned idle_s;       /* a job not polled for this long is cancelled (the page went away) */
    unsigned keep_s;       /* a finished job is dropped this long after it finished */
} serve_limits;

typedef struct serve_jobs serve_jobs;

/* Starts the workers, each with its engine (started now, so that a missing engine is reported at
 * once). Returns 0, or -1 with a message in err. */
int serve_jobs_start(serve_jobs **out, const serve_limits *lim, const engine_cfg *cfg, char *err,
                     size_t errcap);
/* Cancels every job, stops the workers and their engines, frees everything. */
void serve_jobs_stop(serve_jobs *j);

/* Each of these writes a JSON document to body and returns the HTTP status. */

/* Reads the PGN text: 200 with the games (for the viewer) and the warnings, or 422 with the
 * diagnostics (line, column, code, message) when it has an error, no game or is over a cap. */
int serve_check(serve_jobs *j, const char *pgn, size_t len, cli_membuf *body);
/* serve_check, then queues a job: 202 {"id": ...}; 422 as serve_check; 400 for a limit over its
 * cap; 503 when the queue is full. */
int serve_submit(serve_jobs *j, const char *pgn, size_t len, pgn_search_limit kind, uint64_t value,
                 cli_membuf *body);
/* A job's state and progress, and the results of its games from the from'th on; 404 unknown. */
int serve_status(serve_jobs *j, const char *id, unsigned from, cli_membuf *body);
/* The annotated PGN of the games done (text, not JSON); 404 unknown, 409 not finished. */
int serve_pgn(serve_jobs *j, const char *id, cli_membuf *body);
/* Cancels a job: 200, or 404. */
int serve_cancel(serve_jobs *j, const char *id, cli_membuf *body);

/* Appends s (NUL-terminated, n bytes when n != (size_t)-1) as a JSON string with <, >, & escaped
 * too (\u00XX); returns 0, or -1 when out of memory. */
int serve_json_string(cli_membuf *b, const char *s, size_t n);
/* Appends n bytes at p (p may be NULL when n is 0); -1 when out of memory. */
int serve_put(cli_membuf *b, const void *p, size_t n);
/* Appends printf text; -1 when out of memory. */
int serve_printf(cli_membuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
