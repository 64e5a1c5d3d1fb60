/* SPDX-License-Identifier: MIT */
/* The analysis queue's inside (include/pgnkit/jobs.h), shared by the queue (jobs.c), the store of
 * jobs and events (jobs_store.c) and the workers (jobs_worker.c). Every field of a job in the
 * table is read and written under pgn_jobs.mu, but a running job's text, read by its worker. */
#ifndef PGNKIT_ENGINE_JOBS_INTERNAL_H
#define PGNKIT_ENGINE_JOBS_INTERNAL_H

#include <pthread.h>

#include "pgnkit/render.h"

#include "pgnkit/jobs.h"

typedef struct pgnk_job {
    char id[33];
    pgn_job_state state;
    int busy, cancel;
    uint64_t seq;
    char *text;
    size_t text_len;
    pgn_job_opts opts;
    unsigned games_done;
    uint64_t positions_done;
    pgn_membuf json;  /* the finished games' viewer entries, comma-separated */
    size_t *ends;     /* ends[i]: where entry i ends in json */
    pgn_membuf out;   /* the annotated PGN */
    pgn_membuf notes; /* JSON strings, comma-separated: games not analysed, engine warnings */
    char error[256];
    unsigned live_game; /* the last position searched: game, ply, eval (White's view) */
    size_t live_ply;
    char live_eval[32];
    int64_t created, started, finished, last_poll, deadline;
    pgn_membuf events; /* records: the kind's digit, the JSON data, a NUL */
    unsigned readers;  /* readers of the job: it is not dropped while there are any */
    size_t bytes;      /* what it holds, as last counted in pgn_jobs.bytes */
} pgnk_job;

struct pgn_job_reader {
    struct pgn_job_reader *next, *prev;
    pgn_jobs *j;
    pgnk_job *jb;
    size_t off; /* bytes of jb->events given */
    int waiting;
    pgn_job_waker waker;
};

typedef struct pgnk_worker {
    pgn_jobs *j;
    pthread_t th;
    int started;
    pgn_engine *eng;
    pgn_game *game;
    pgn_writer *writer;
    pgn_membuf pgnbuf, entry;
    pgnk_job *cur;
    pgn_job_state stop_state; /* nonzero when the current job must end */
    char err[256];
} pgnk_worker;

struct pgn_jobs {
    pgn_jobs_opts o;
    pgn_allocator alloc;
    pthread_mutex_t mu;
    pthread_cond_t cv;    /* the workers' and the ticker's */
    pthread_cond_t ev_cv; /* an event, a reader freed, the queue's tick */
    int stopping, closing;
    uint64_t next_seq;
    pgnk_job **jobs;
    size_t cap;
    pgnk_worker *ws;
    size_t bytes; /* held by every job in the table (max_results) */
    pgn_job_reader *readers;
    pthread_t ticker;
    int ticker_started;
};

/* ---- jobs_store.c; every function under mu but pgnk_now_ms and pgnk_after_ms ---- */

/* Milliseconds of the monotonic clock. */
int64_t pgnk_now_ms(void);
/* The CLOCK_REALTIME time ms from now, for pthread_cond_timedwait (the ticker's next tick: a
 * wake-up of the workers' condition before it is not one). */
struct timespec pgnk_after_ms(int64_t ms);
/* Frees a job and what it holds (NULL: nothing); its slot and bytes are the caller's. */
void pgnk_job_free(pgn_jobs *j, pgnk_job *jb);
/* Counts again what jb holds into j->bytes. */
void pgnk_job_account(pgn_jobs *j, pgnk_job *jb);
/* Ends jb in state: its text freed, why kept as its error (NULL: none), the END event added. */
void pgnk_job_finish(pgn_jobs *j, pgnk_job *jb, pgn_job_state state, const char *why);
/* Adds the event ev with the JSON data to jb and wakes its readers; 0, or -1 when out of memory
 * (the event is then missing: a status answer still has it all). */
int pgnk_job_event(pgn_jobs *j, pgnk_job *jb, pgn_job_event ev, const char *data);
/* Appends the JSON string of msg (<, >, & escaped) to jb's notes. */
void pgnk_job_note(pgnk_job *jb, const char *msg);
/* Wakes every waiting reader of jb (NULL: of every job). */
void pgnk_jobs_wake(pgn_jobs *j, const pgnk_job *jb);
/* Drops finished jobs past keep_s, cancels queued jobs nobody asked about for idle_s. */
void pgnk_jobs_sweep(pgn_jobs *j);
/* Drops the oldest finished jobs that no reader reads until the table holds at most max_results
 * bytes with extra more: 1 when it does, 0 when the running and queued jobs alone are over. */
int pgnk_jobs_make_room(pgn_jobs *j, size_t extra);
/* A free slot of the table, made by dropping the oldest finished job if need be; -1 if none. */
long pgnk_jobs_free_slot(pgn_jobs *j);
/* The job of id, or NULL. */
pgnk_job *pgnk_jobs_find(pgn_jobs *j, const char *id);
/* msg with the caller's name of a cap in parentheses (name NULL: msg alone) into buf. */
void pgnk_jobs_named(char *buf, size_t cap, const char *msg, const char *name);

/* ---- jobs_worker.c ---- */

/* A worker's thread (arg: its pgnk_worker). */
void *pgnk_jobs_worker_main(void *arg);

#endif
