/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe's parts (cmd_dedupe.c: options and the first pass; dedupe_out.c: the library's
 * objects made, the workers of -j N and the second pass of --keep richest). The keys, the
 * records, the clusters and the decision are the library's (pgn_dedupe_keeper,
 * include/pgnkit/collection.h), and so are the temporary files and the --report file's JSON
 * (pgn_dedupe_files, pgn_dedupe_report: include/pgnkit/dedupe_run.h). */
#ifndef PGNKIT_CLI_DEDUPE_H
#define PGNKIT_CLI_DEDUPE_H

#include "cli.h"
#include "parallel.h"

typedef struct dd_state {
    cli_run *run;
    pgn_dedupe_files *files; /* the keeper's spill file; --keep richest: every game's text */
    pgn_dedupe_keeper *keep;
    pgn_dedupe_line *line; /* the visitor's (--keep first) */
    uint32_t flags;
    int richest;
    FILE *out, *dupes;
    cli_output *report;     /* --report (NULL: none) */
    pgn_dedupe_report *rep; /* --report: the copies (include/pgnkit/dedupe_run.h) */
} dd_state;

/* Creates the temporary files and the keeper; 0, or 1 after a message. */
int dd_open(dd_state *s);
/* -j N (cli/parallel.h): the workers make each game's line key and record (a pgn_dedupe_line
 * each) and send them as its product, which dd_line_of then takes instead of s->line's own. */
const pgn_par_hooks *dd_line_hooks(void);
/* The key and record of g, read by s->line's visitor or made by a worker. */
pgn_status dd_line_of(dd_state *s, const cli_game *g, uint64_t *key, pgn_str *record);

/* --keep richest: the second pass over the spool (kept copies and broken games to the output,
 * the others to --dupes). */
pgn_status dd_second_pass(dd_state *s);

#endif
