/* SPDX-License-Identifier: MIT */
/* The input loop of the collection commands (eco, dedupe, stats): each game with its tree, summary,
 * raw bytes and input; inputs that are not regular files (stdin, pipes) are first copied to a
 * temporary file so that a game can be read again from its offsets (dedupe's confirmation) and
 * the inputs read twice (dedupe --keep richest). TODO(issue 12): move onto cli/driver.h's
 * cli_run_games once the driver is on main. */
#ifndef PGNKIT_CLI_COLL_H
#define PGNKIT_CLI_COLL_H

#include "cli.h"

typedef struct coll_game {
    pgn_game *game;                  /* the tree (NULL when only visiting) */
    const pgn_game_summary *summary; /* ordinal in its input, start, end_offset, broken */
    pgn_str raw;                     /* the original bytes */
    int input;                       /* index of the input */
    const char *name;                /* the input's name for messages */
    uint64_t ordinal;                /* 1-based over all inputs */
} coll_game;

/* PGN_OK goes on; another status stops the run (reported by coll_games). */
typedef pgn_status (*coll_fn)(void *user, const coll_game *g);

typedef struct coll_run {
    pgn_reader_opts ropts;      /* --strict, --input-encoding; on_diag prints */
    cli_diag_ctx dctx;          /* --diag json, --quiet */
    unsigned flags;             /* COLL_SEEKABLE, COLL_NO_RAW */
    const pgn_visitor *visitor; /* when set: coll_games visits (no tree) instead of building */
    void *visitor_user;
    int nfiles;
    char **files;
    FILE **in;
    const char **names;
    uint64_t games, errors, warnings;
} coll_run;

#define COLL_SEEKABLE 0x1u /* coll_open copies a non-regular input to a temporary file */
#define COLL_NO_RAW 0x2u   /* the games' raw bytes are not needed (coll_game.raw empty) */

/* The shared reading options as long options (values from 1100 up) and their usage text. */
enum { COLL_OPT_STRICT = 1100, COLL_OPT_DIAG, COLL_OPT_ENCODING };
#define COLL_LONG_OPTIONS                                                                          \
    {"strict", no_argument, NULL, COLL_OPT_STRICT},                                                \
        {"diag", required_argument, NULL, COLL_OPT_DIAG},                                          \
        {"input-encoding", required_argument, NULL, COLL_OPT_ENCODING},                            \
        {"quiet", no_argument, NULL, 'q'}, {                                                       \
        "help", no_argument, NULL, 'h'                                                             \
    }
#define COLL_USAGE                                                                                 \
    "Reading: --strict --diag text|json --input-encoding ENC --quiet (warnings not printed)\n"

/* Zeroes r and wires the diagnostics. */
void coll_init(coll_run *r);
/* Handles a shared option (c as getopt_long returned it); returns 1 if handled, 0 if not c's,
 * -1 for a bad value (after a message). */
int coll_option(coll_run *r, const char *cmd, const char *usage, int c, const char *arg);
/* Opens the operands (none: stdin); with COLL_SEEKABLE copies a non-regular input to a temporary
 * file (coll_reread and a second coll_games need one). EXIT_OK or
 * EXIT_RESOURCE after a message. */
int coll_open(coll_run *r, int nfiles, char **files);
/* Reads every input from its start, calling fn after each game; adds the totals. Returns the
 * exit status (EXIT_INPUT if an error was reported, EXIT_RESOURCE on a failure). */
int coll_games(coll_run *r, coll_fn fn, void *user);
/* Reads back the game of input `input` that spans [start, end) into g. PGN_OK or a failure. */
pgn_status coll_reread(coll_run *r, int input, uint64_t start, uint64_t end, pgn_game *g);
void coll_close(coll_run *r);
/* Writes a game's raw bytes (len bytes at raw) to f (NULL: nowhere), with a line break after them
 * when they lack one (the last game of a file), so that games written in another order never run
 * together. PGN_OK or PGN_E_IO. */
pgn_status coll_write_raw(FILE *f, const char *raw, size_t len);

#endif
