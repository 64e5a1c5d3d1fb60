/* SPDX-License-Identifier: MIT */
/* pgnkit analyze's threads: the library's ordered work queue between the reading thread and the
 * engine threads (cli/analyze_run.c), the analysis of one game against a worker's engine
 * (cli/analyze_game.c); the options and the setup are in cli/cmd_analyze.c. */
#ifndef PGNKIT_CLI_ANALYZE_H
#define PGNKIT_CLI_ANALYZE_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

typedef struct shared {
    pthread_mutex_t mu;     /* the counts and the progress line */
    pthread_mutex_t err_mu; /* stderr: messages and the progress line; taken after mu */
    int progress_shown;     /* a progress line without its line break is on the terminal */
    cli_run *run;
    pgn_workq *queue;  /* the games between the reader and the engines (include/pgnkit/workq.h) */
    struct worker *ws; /* the queue's workers' states, by the queue's worker number */
    FILE *out;
    uint64_t analysed, not_analysed, positions;
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
    pgn_game *game;
    pgn_writer *writer;
    /* the output of the current game */
    pgn_membuf out;
    const char *src; /* the current game's file and ordinal in it, for messages */
    uint64_t game_no;
    pgn_str raw;         /* the current game's text, borrowed from the queue's item */
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
/* The reading thread (the driver) and jobs engine threads (ws, one a worker of the queue); returns
 * when all is written. */
void analyze_run(cli_run *r, shared *s, worker *ws, unsigned jobs);

#endif
