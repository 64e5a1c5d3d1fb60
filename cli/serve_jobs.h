/* SPDX-License-Identifier: MIT */
/* pgnkit serve's jobs inside, shared by the job queue (serve_jobs.c), the result store
 * (serve_store.c), the engine workers (serve_worker.c) and the event streams (serve_stream.c).
 * Every field of a job in the table is read and written under serve_jobs.mu, but a worker's own
 * fields and a running job's paste. */
#ifndef PGNKIT_CLI_SERVE_JOBS_H
#define PGNKIT_CLI_SERVE_JOBS_H

#include <pthread.h>

#include "serve.h"

enum { J_QUEUED, J_RUNNING, J_DONE, J_FAILED, J_CANCELLED, J_TIMEOUT };
#define KEPT_JOBS 32 /* finished jobs kept besides the running and queued ones */

typedef struct job {
    char id[33];
    int state, busy, cancel;
    uint64_t seq;
    char *pgn;
    size_t pgn_len;
    int fix; /* read with PGN_READ_FIX */
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
    cli_membuf events; /* the job's Server-Sent Events so far (serve_stream.c replays them) */
    unsigned readers;  /* streams reading the job: it is not dropped while there are any */
    size_t bytes;      /* what it holds, as last counted in serve_jobs.bytes */
} job;

/* One connection reading a job's events (serve_stream.c); in serve_jobs.streams. */
typedef struct serve_stream {
    struct serve_stream *next, *prev;
    job *jb;            /* pinned: jb->readers counts this stream */
    void *conn;         /* the HTTP layer's connection, given to serve_jobs.resume */
    size_t off;         /* bytes of jb->events sent */
    int waiting;        /* suspended until there is more to send */
    int64_t last_write; /* when bytes were last sent (the heartbeat is due a tick later) */
} serve_stream;

typedef struct worker {
    struct serve_jobs *j;
    pthread_t th;
    int started;
    pgn_engine *eng;
    pgn_game *game;
    pgn_writer *writer;
    cli_membuf pgnbuf, entry;
    job *cur;
    int stop_state; /* J_CANCELLED or J_TIMEOUT when the current job must end */
    char err[256];
} worker;

struct serve_jobs {
    serve_limits lim;
    pgn_engine_config cfg;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stopping;
    uint64_t next_seq;
    job **jobs;
    size_t cap;
    worker *ws;
    size_t bytes;               /* held by every job in the table (--max-results) */
    serve_stream *streams;      /* the open event streams */
    void (*resume)(void *conn); /* wakes a waiting stream's connection (set by the HTTP layer) */
    int closing;                /* the server stops: every stream ends */
    pthread_t ticker;           /* wakes the streams every tick (heartbeat, gone pages) */
    int ticker_started;
    int64_t tick_ms;
    int abort_pipe[2]; /* written when the server stops: every engine wait ends (cfg.abort_fd) */
};

/* ---- the result store (serve_store.c); every function under mu ---- */

/* Ends jb in state: its paste is freed, why kept as its error, the "end" event added. */
void serve_job_finish(serve_jobs *j, job *jb, int state, const char *why);
/* Frees a job and what it holds (NULL: nothing); its slot and bytes are the caller's. */
void serve_job_free(job *jb);
/* Drops table slot i (its job counted out of j->bytes). */
void serve_drop(serve_jobs *j, size_t i);
/* Counts again what jb holds into j->bytes. */
void serve_account(serve_jobs *j, job *jb);
/* Drops the oldest finished jobs that no stream reads until the table holds at most
 * --max-results bytes with extra more: 1 when it does, 0 when the running and queued jobs
 * alone are over. */
int serve_make_room(serve_jobs *j, size_t extra);
/* Drops finished jobs past keep_s, cancels queued jobs whose page stopped asking. */
void serve_sweep(serve_jobs *j);
/* The job of id, or NULL. */
job *serve_find(serve_jobs *j, const char *id);
/* A free slot of the table, made by dropping the oldest finished job if need be; -1 if none. */
long serve_free_slot(serve_jobs *j);
/* Adds an event "event: name\ndata: DATA\n\n" (DATA from fmt) to jb and wakes its streams.
 * 0, or -1 when out of memory (the event is then missing: the page's poll still has it all). */
int serve_event(serve_jobs *j, job *jb, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Wakes every waiting stream of jb (NULL: of every job). */
void serve_wake(serve_jobs *j, const job *jb);

/* ---- shutdown (serve_halt.c) ---- */
/* The pipe of pgn_engine_config.abort_fd (never 0), and the engines in process groups of their own:
 * 0, or -1. */
int serve_open_abort_pipe(serve_jobs *j);

/* ---- the ticker (serve_stream.c) ---- */
/* Starts the thread that wakes the streams every tick: 0, or -1. */
int serve_ticker_start(serve_jobs *j);

#endif
