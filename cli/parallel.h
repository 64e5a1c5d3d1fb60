/* SPDX-License-Identifier: MIT */
/* -j N for the commands that read games through the driver (issue 16): the library's parallel
 * reader (pgn_parallel_read, include/pgnkit/source.h) reads an input on N threads and gives each
 * game, its diagnostics and the command's callback in input order, so that every output, the
 * diagnostics and the summary are byte-identical to -j 1. And the progress line. */
#ifndef PGNKIT_CLI_PARALLEL_H
#define PGNKIT_CLI_PARALLEL_H

#include "cli.h"

/* Work a command may do on the worker threads: cli_run.par, the library's pgn_par_hooks
 * (include/pgnkit/source.h), whose worker_new gets the command's user. A state per worker, the
 * visitor's user for that worker (visitor mode), and prepare, called on the worker after each
 * game with that state: the bytes it appends to out come back to the command's ordered callback
 * through cli_par_product. A command without prepare gets its callback on the main thread with
 * the game as read (tree mode), which is always correct; a visitor with a user needs
 * worker_vuser (else the run is serial). With prepare, the callback gets no tree (cli_game.game
 * NULL) when it gets a product: the workers keep one tree each, not one per game in flight. */

/* Help text of -j and --progress, for the usage of the commands that read games. */
#define CLI_JOBS_USAGE                                                                             \
    "  -j N            read on N threads (0 or auto: one per core); same output. Default: one\n"   \
    "                  per core for a regular file with check, fmt, convert --to uci|fen,\n"       \
    "                  select, eco, dedupe (--keep first) and stats, else 1\n"                     \
    "  --progress, --no-progress  a progress line on stderr (default: on a terminal)\n"

/* The most threads -j takes. */
enum { CLI_MAX_JOBS = 256 };
/* Whether r reads in on threads: -j above 1 (without -j: the cores, when r->par is set and in is
 * a regular file), and nothing that needs one reader over the whole
 * input (--max-errors, --range, nested comments, a diagnostics callback of the command's own,
 * a visitor user without hooks). */
int cli_par_wanted(const cli_run *r, const cli_input *in, int visitor);
/* Reads in, as run_input's loop would, on r->jobs threads (a visitor v gets each worker's user
 * from r->par): games to fn in order, totals added to r. Returns the status that ended the input
 * (PGN_END, PGN_E_IO, PGN_E_NOMEM or fn's), and *from_fn set when fn returned it. */
pgn_status cli_par_input(cli_run *r, const cli_input *in, int tree, const pgn_visitor *v,
                         cli_each_fn fn, void *user, int *from_fn);
/* In a callback: the bytes prepare made for g (1), or 0 (no prepare, or a serial run). */
int cli_par_product(const cli_game *g, pgn_str *out);

/* ---- the progress line (stderr, a terminal) ---- */

/* --progress (1), --no-progress (0), neither (-1: when stderr is a terminal). */
void cli_progress_mode(int mode);
/* Starts counting an input (its size for the ETA when it is a regular file). */
void cli_progress_input(const cli_input *in);
/* One more game of the current input; redraws the line a few times a second. */
void cli_progress_game(void);
/* Redraws the line if it is due (more bytes were read). */
void cli_progress_tick(void);
/* Erases the line, if shown, before a message (messages.c) and at the end. */
void cli_progress_clear(void);

#endif
