/* SPDX-License-Identifier: MIT */
/* pgnkit serve: the jobs (serve_jobs.c, over the library's analysis queue, pgnkit/jobs.h) behind
 * the HTTP layer (cmd_serve.c). A job is one pasted PGN analysed game by game by one of a fixed
 * number of engine workers; every answer is a JSON document built here, so the HTTP layer only
 * routes, checks headers and caps bodies. */
#ifndef PGNKIT_CLI_SERVE_H
#define PGNKIT_CLI_SERVE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"

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
    int move_ms;           /* one search: past it "stop" (pgn_engine_config.timeout_ms) */
    unsigned job_s;        /* one job, from its start: past it the job ends as "timeout" */
    unsigned idle_s;       /* a job not polled for this long is cancelled (the page went away) */
    unsigned keep_s;       /* a finished job is dropped this long after it finished */
    size_t max_results;    /* bytes the jobs in the table may hold, results and pastes */
} serve_limits;

typedef struct serve_jobs serve_jobs;

/* Milliseconds of the monotonic clock. */
int64_t serve_now_ms(void);

/* Starts the workers, each with its engine (started now, so that a missing engine is reported at
 * once). Returns 0, or -1 with a message in err. */
int serve_jobs_start(serve_jobs **out, const serve_limits *lim, const pgn_engine_config *cfg,
                     char *err, size_t errcap);
/* Cancels every job, stops the workers and their engines, frees everything. */
void serve_jobs_stop(serve_jobs *j);
/* The server stops: every job is cancelled and every running search told to stop at once (the
 * engine killed, with its process group, if it does not stop within a second). Returns at once;
 * serve_jobs_stop then waits for the workers. */
void serve_jobs_abort(serve_jobs *j);
/* Waits for the workers and stops their engines (serve_jobs_stop then frees what is left). */
void serve_jobs_halt(serve_jobs *j);
/* The thread that waits for a second stop signal while the server stops (arg: a serve_second):
 * it kills the engines' process groups and exits the process at once, with status 0. */
typedef struct serve_second {
    serve_jobs *jobs;
    sigset_t stop;
} serve_second;
void *serve_second_signal(void *arg);

/* Each of these writes a JSON document to body and returns the HTTP status. */

/* Reads the PGN text (fix: repairing what is clear): 200 with the games that read whole (for the
 * viewer) and every diagnostic (line, column, code, message, suggestions), the broken games
 * counted; 422 when no game reads whole or the text is over a cap. */
int serve_check(serve_jobs *j, const char *pgn, size_t len, int fix, pgn_membuf *body);
/* serve_check, then queues a job: 202 {"id": ...}; 422 as serve_check; 400 for a limit over its
 * cap; 503 when the queue is full. */
int serve_submit(serve_jobs *j, const char *pgn, size_t len, int fix, pgn_search_limit kind,
                 uint64_t value, pgn_membuf *body);
/* A job's state and progress, the bytes it holds, and the results of its games from the from'th
 * on; 404 unknown.
 * serve_submit's 202 also has "entries": the games as serve_check gives them, not analysed. */
int serve_status(serve_jobs *j, const char *id, unsigned from, pgn_membuf *body);
/* The annotated PGN of the games done (text, not JSON); 404 unknown, 409 not finished. */
int serve_pgn(serve_jobs *j, const char *id, pgn_membuf *body);
/* Cancels a job: 200, or 404. */
int serve_cancel(serve_jobs *j, const char *id, pgn_membuf *body);

/* ---- a job's events as Server-Sent Events (serve_stream.c) ---- */

typedef struct serve_stream serve_stream;
/* How the HTTP layer wakes a connection that serve_stream_read suspended (called under the
 * queue's lock, from a worker or the queue's ticker); set before any stream opens. */
void serve_jobs_set_resume(serve_jobs *j, void (*resume)(void *conn));
/* A reader of job id's events for the connection conn, from the first: 200 and *out, else the
 * status (404 unknown) with a JSON body. */
int serve_stream_open(serve_jobs *j, const char *id, void *conn, serve_stream **out,
                      pgn_membuf *body);
/* Up to max bytes of the stream into buf: their count; 0 when there is nothing yet (then
 * suspend(conn) was called, under the lock, and the resume function will be); -1 at the end. */
long serve_stream_read(serve_jobs *j, serve_stream *st, char *buf, size_t max,
                       void (*suspend)(void *conn));
/* Frees a reader (its connection closed). */
void serve_stream_close(serve_jobs *j, serve_stream *st);
/* Ends every stream (the server stops) and waits up to ms for them to close: 0, or -1 if some
 * are still open. */
int serve_streams_end(serve_jobs *j, int ms);

/* Appends s (NUL-terminated, n bytes when n != (size_t)-1) as a JSON string with <, >, & escaped
 * too (\u00XX); returns 0, or -1 when out of memory. */
int serve_json_string(pgn_membuf *b, const char *s, size_t n);
/* Appends n bytes at p (p may be NULL when n is 0); -1 when out of memory. */
int serve_put(pgn_membuf *b, const void *p, size_t n);
/* Appends printf text; -1 when out of memory. */
int serve_printf(pgn_membuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- reading a paste (serve_paste.c), shared by the checks and the jobs ---- */

/* Reads every game of the paste with the caps of lim (pgn_paste_read: each whole game's viewer
 * entry in pa->entries; a broken game counted and left out, issue 28; release pa with
 * pgn_paste_free). Returns the HTTP status: 200, 422 (no game reads whole, a cap of lim), 500 (out
 * of memory). */
int serve_read_paste(const serve_limits *lim, const char *text, size_t len, int fix, pgn_paste *pa);
/* Reader options for a paste: all zero, with PGN_READ_FIX when fix (once reader.h has it). */
void serve_reader_opts(pgn_reader_opts *ro, int fix);
/* The members every answer about a paste has (pgn_paste_json): 0, or -1. */
int serve_paste_json(pgn_membuf *b, const pgn_paste *pa);
/* body becomes {"error": "out of memory"}: returns 500. */
int serve_nomem(pgn_membuf *b);
/* body becomes {"error": msg}: returns status (500 when out of memory). */
int serve_error_json(pgn_membuf *b, int status, const char *msg);

#endif
