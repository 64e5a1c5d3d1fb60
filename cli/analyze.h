/* SPDX-License-Identifier: MIT */
/* pgnkit analyze's threads: the ring of games between the reading thread and the engine threads
 * (cli/analyze_run.c), the analysis of one game against a worker's engine (cli/analyze_game.c);
 * the options and the setup are in cli/cmd_analyze.c. */
#ifndef PGNKIT_CLI_ANALYZE_H
#define PGNKIT_CLI_ANALYZE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* A game between the reader and the output: its raw bytes while queued, its output when done. */
typedef struct slot {
    int state; /* SLOT_FREE, SLOT_QUEUED, SLOT_TAKEN, SLOT_DONE */
    char *buf;
    size_t len;
    const char *src; /* its input's name (in buf, after the text) and its ordinal there */
    uint64_t game_no;
} slot;
enum { SLOT_FREE, SLOT_QUEUED, SLOT_TAKEN, SLOT_DONE };

typedef struct shared {
    pthread_mutex_t mu;
    pthread_mutex_t err_mu; /* stderr: messages and the progress line; taken after mu */
    int progress_shown;     /* a progress line without its line break is on the terminal */
    pthread_cond_t cv;
    cli_run *run;
    /* the ring of games in input order: queued by the reader (next_seq), taken by the workers
     * (next_take), written in order (next_write) */
    uint64_t next_seq, next_take, next_write;
    slot *ring;
    size_t ring_cap;
    int eof, fatal;
    FILE *out;
    uint64_t games, analysed, not_analysed, positions;
    int64_t t0, last_progress;
    int progress;
    /* for the ETA: input sizes when every input is a regular file (total_bytes 0: unknown) */
    uint64_t total_bytes, finished_bytes;
    const pgn_engine_config *cfg;
    int replace;
} shared;

typedef struct worker {
    shared *s;
    pgn_engine *eng;
    pthread_t th;
    pgn_game *game;
    pgn_writer *writer;
    /* the output of the current game */
    cli_membuf out;
    const char *src; /* the current game's file (in raw.p) and ordinal in it, for messages */
    uint64_t game_no;
    cli_membuf raw;      /* the current game's text */
    char err[256];       /* the engine's last failure */
    int new_game_failed; /* the game was not analysed because no engine would start it */
} worker;

/* Every message of analyze goes through here (or through analyze_diag): one line on stderr, never
 * run into the progress line. Safe from any thread. */
void analyze_say(shared *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The reader's diagnostics (pgn_reader_opts.on_diag, ctx the shared state), printed like the
 * other commands' after the progress line is cleared. */
void analyze_diag(void *ctx, const pgn_diag *d);
/* The progress line on stderr, at most every 250 ms unless final. Under mu. */
void analyze_progress(shared *s, int final);
/* CLOCK_MONOTONIC in milliseconds: the progress line. */
int64_t analyze_now_ms(void);
/* Analyses one taken game into w->out; 0 analysed, 1 not analysed (reported), -1 out of memory.
 */
int analyze_taken(worker *w);
/* The reading thread (the driver) and jobs worker threads; returns when all is written. */
void analyze_run(cli_run *r, shared *s, worker *ws, unsigned jobs);

#endif
