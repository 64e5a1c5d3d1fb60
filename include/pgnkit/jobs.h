/* SPDX-License-Identifier: MIT */
/* An analysis queue (pgnkit serve's jobs, issue 29): pasted PGN texts analysed game by game by a
 * fixed number of engine workers (pgn_game_analyze on pgn_engine processes, as pgnkit analyze
 * does), each job's results and events kept under caps by count, age and bytes, read by callers
 * on other threads. POSIX threads; nothing printed, no HTTP: the caller serves what it reads. */
#ifndef PGNKIT_JOBS_H
#define PGNKIT_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include "base.h"
#include "engine.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A job's state: queued, running, then one of the four final states (DONE and after). */
typedef enum pgn_job_state {
    PGN_JOB_QUEUED = 0,
    PGN_JOB_RUNNING = 1,
    PGN_JOB_DONE = 2,
    PGN_JOB_FAILED = 3,    /* out of memory, over max_results, the text unreadable */
    PGN_JOB_CANCELLED = 4, /* pgn_jobs_cancel, the queue stopping, nobody asking (idle_s) */
    PGN_JOB_TIMEOUT = 5    /* past job_s */
} pgn_job_state;

/** The events of a job, in the order they happen: STATE (running), one MOVE per position
 * searched, one GAME per game finished, END last. Their data is a JSON object:
 * STATE {"state":"running"}; MOVE {"game","ply","plies","eval","wc","done","positions"};
 * GAME {"game"}; END {"state","games_done"}. */
typedef enum pgn_job_event {
    PGN_JOB_EVENT_STATE = 0,
    PGN_JOB_EVENT_MOVE = 1,
    PGN_JOB_EVENT_GAME = 2,
    PGN_JOB_EVENT_END = 3
} pgn_job_event;

/** How the caller names the caps in the messages they cause, each put in parentheses after the
 * message ("--queue" gives "... (--queue)"); NULL: nothing added. idle_why: the reason a job that
 * nobody asked about is cancelled for (NULL: "nobody asked for it"). All borrowed for the
 * queue's lifetime. */
typedef struct pgn_jobs_names {
    const char *queue, *results, *job_time, *idle_why;
} pgn_jobs_names;

/** A queue's configuration. A zeroed struct: one worker on the default engine, no job may wait
 * (every submit refused), no time limits, finished jobs dropped at once, no byte cap. */
typedef struct pgn_jobs_opts {
    unsigned workers;           /* engines, so jobs analysed at once; 0: 1 */
    unsigned queue;             /* jobs waiting for an engine at most */
    unsigned kept;              /* finished jobs kept besides the running and queued ones; 0: 32 */
    unsigned job_s;             /* a job's seconds from its start, then PGN_JOB_TIMEOUT; 0: none */
    unsigned idle_s;            /* a job nobody asked about this long is cancelled; 0: never */
    unsigned keep_s;            /* a finished job is dropped this long after it finished */
    size_t max_results;         /* bytes every job together may hold (texts, results, events);
                                   0: no cap */
    int tick_ms;                /* the housekeeping period (drops, idle cancels, readers woken);
                                   0: idle_s / 2, at most 5 s */
    pgn_engine_config engine;   /* each worker's engine (engine.path borrowed) */
    pgn_jobs_names names;       /* the caller's names of the caps, for the messages */
    const pgn_allocator *alloc; /* every block of the queue, its jobs, engines and games; NULL:
                                   libc; borrowed for the queue's lifetime */
} pgn_jobs_opts;

/** How one job is analysed: the text as pgn_paste_read read it, and the engine's limit. */
typedef struct pgn_job_opts {
    uint32_t reader_flags;  /* pgn_paste_opts.reader_flags the text was read with (PGN_READ_FIX) */
    unsigned games;         /* pgn_paste.games: the whole games, those analysed */
    uint64_t positions;     /* pgn_paste.positions: the positions to search, for the progress */
    pgn_search_limit limit; /* what limit_value counts */
    uint64_t limit_value;   /* per position; 0: as pgn_analyze_opts */
} pgn_job_opts;

/** A thread-safe analysis queue: any function may be called from any thread at once, but
 * pgn_jobs_free. */
typedef struct pgn_jobs pgn_jobs;

/**
 * Creates a queue and starts its workers, each with its engine started now (so that a missing
 * engine is reported at once). Returns PGN_OK; PGN_E_BAD_ALLOCATOR (opts->alloc half-filled);
 * PGN_E_NOMEM; PGN_E_IO with the message in err (an engine that does not start, a thread that
 * cannot). *out is NULL after an error. Free with pgn_jobs_free.
 */
PGN_API PGN_NODISCARD pgn_status pgn_jobs_new(pgn_jobs **out, const pgn_jobs_opts *opts, char *err,
                                              size_t errcap);

/** Stops the queue (pgn_jobs_halt) and frees it with every job; NULL is ignored. Every reader
 * must be freed before. */
PGN_API void pgn_jobs_free(pgn_jobs *j);

/** Tells every worker to stop: no job starts from now on, and a running one ends as cancelled at
 * its next search (a search under way ends as the engine configuration's abort_fd says). Returns
 * at once. */
PGN_API void pgn_jobs_abort(pgn_jobs *j);

/** pgn_jobs_abort, then waits for the workers and stops their engines. */
PGN_API void pgn_jobs_halt(pgn_jobs *j);

/** Kills every worker's engine process (pgn_engine_kill) at once: safe from another thread while
 * the queue runs (a signal's thread). */
PGN_API void pgn_jobs_kill(pgn_jobs *j);

/**
 * Queues the analysis of text (len bytes, copied), read before with pgn_paste_read with
 * jo->reader_flags: jo gives the whole games and positions it found; a broken game is left out
 * here as it was there, and games past jo->games are not analysed. Writes the job's id (32 hex
 * digits and a NUL) to id. Finished jobs that no reader reads are dropped, oldest first, to make
 * room. Returns PGN_OK; PGN_E_LIMIT with the message in err when opts.queue jobs wait already or
 * the jobs held would be over opts.max_results; PGN_E_NOMEM; PGN_E_IO when no random id could be
 * drawn.
 */
PGN_API PGN_NODISCARD pgn_status pgn_jobs_submit(pgn_jobs *j, const char *text, size_t len,
                                                 const pgn_job_opts *jo, char id[33], char *err,
                                                 size_t errcap);

/**
 * Writes job id's state as a JSON object to fn: "id", "state", "queued_ahead", "games",
 * "games_done", "positions", "positions_done", "elapsed_ms", "bytes" (what it holds), "from",
 * "error" (null or a string), "live" (the position searched last: game, ply, eval), "notes"
 * (games not analysed and engine warnings, strings) and "results": the pgn_viewer_entry_json of
 * each game finished from the from'th (0-based) on. Strings have <, > and & escaped
 * (pgn_json_html_write). Counts as the job being asked about (opts.idle_s). Returns PGN_OK;
 * PGN_END when there is no such job (never queued, or dropped); PGN_E_IO when fn fails.
 */
PGN_API PGN_NODISCARD pgn_status pgn_jobs_status_json(pgn_jobs *j, const char *id, unsigned from,
                                                      pgn_write_fn fn, void *ctx);

/**
 * The annotated PGN of a finished job's games to fn (nothing when it has not finished); *state
 * receives its state. Returns PGN_OK; PGN_END when there is no such job; PGN_E_IO when fn fails.
 */
PGN_API PGN_NODISCARD pgn_status pgn_jobs_pgn(pgn_jobs *j, const char *id, pgn_write_fn fn,
                                              void *ctx, pgn_job_state *state);

/** Cancels job id: a queued job ends at once, a running one at its next search. Returns PGN_OK,
 * or PGN_END when there is no such job. */
PGN_API pgn_status pgn_jobs_cancel(pgn_jobs *j, const char *id);

/** "queued", "running", "done", "failed", "cancelled", "timeout"; never NULL. */
PGN_API const char *pgn_job_state_name(pgn_job_state s);

/** "state", "move", "game", "end"; never NULL. */
PGN_API const char *pgn_job_event_name(pgn_job_event ev);

/* ---- reading a job's events as they come ---- */

/** How a reader with nothing to read waits (all may be NULL). wait(ctx): pgn_job_reader_next
 * found nothing and the caller may wait; wake(ctx): later, once, when there is something (an
 * event, the job's end, the queue's tick). Both are called with the queue's lock held, so that no
 * wake-up is lost between them: they must not call the queue. */
typedef struct pgn_job_waker {
    void (*wait)(void *ctx);
    void (*wake)(void *ctx);
    void *ctx;
} pgn_job_waker;

/** One event to a reader: its kind and JSON data (len bytes, valid during the call). A nonzero
 * return stops the delivery (the next event comes at the next call). */
typedef int (*pgn_job_event_fn)(void *ctx, pgn_job_event ev, const char *json, size_t len);

/** A reader of one job's events, from its first; the job is not dropped while it has one. */
typedef struct pgn_job_reader pgn_job_reader;

/**
 * A reader of job id's events (waker copied; NULL: no waker). Counts as the job being asked
 * about. Returns PGN_OK; PGN_END when there is no such job; PGN_E_NOMEM. Free with
 * pgn_job_reader_free, before the queue.
 */
PGN_API PGN_NODISCARD pgn_status pgn_job_reader_new(pgn_job_reader **out, pgn_jobs *j,
                                                    const char *id, const pgn_job_waker *waker);

/**
 * Gives the events not read yet to fn, in order, until fn returns nonzero. Counts as the job
 * being asked about. Returns 1 when an event was given; -1 when every event was given, the END
 * last (or pgn_jobs_end_readers was called); 0 when there is nothing yet: then, if may_wait, the
 * waker's wait is called, and its wake will be.
 */
PGN_API int pgn_job_reader_next(pgn_job_reader *r, pgn_job_event_fn fn, void *ctx, int may_wait);

/** Blocks until the reader has something to read (an event, the end) or timeout_ms pass: 1, or
 * 0 on timeout. */
PGN_API int pgn_job_reader_wait(pgn_job_reader *r, int timeout_ms);

/** Frees a reader (NULL is ignored); the job counts as asked about from now. */
PGN_API void pgn_job_reader_free(pgn_job_reader *r);

/** Ends every reader (pgn_job_reader_next returns -1 from now on, the waiting ones are woken),
 * then waits up to ms for them to be freed: 0, or -1 when some are still open. */
PGN_API int pgn_jobs_end_readers(pgn_jobs *j, int ms);

#ifdef __cplusplus
}
#endif
#endif
