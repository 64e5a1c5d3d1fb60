/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe's parts (cmd_dedupe.c: options and the first pass; dedupe_out.c: the temporary
 * files, the workers of -j N, the second pass of --keep richest and the --report file). The keys,
 * the records, the clusters and the decision are the library's (pgn_dedupe_keeper,
 * include/pgnkit/collection.h). */
#ifndef PGNKIT_CLI_DEDUPE_H
#define PGNKIT_CLI_DEDUPE_H

#include "cli.h"
#include "parallel.h"

typedef struct member { /* --report: a copy (a cluster's first one, or a duplicate) */
    uint64_t cluster, ordinal;
    const char *input;
    uint32_t line;
} member;

typedef struct dd_state {
    cli_run *run;
    FILE *spool; /* --keep richest: every game's text */
    FILE *spill; /* the line records past the keeper's memory */
    uint64_t spooled;
    pgn_dedupe_keeper *keep;
    pgn_dedupe_line *line; /* the visitor's (--keep first) */
    uint32_t flags;
    int richest;
    FILE *out, *dupes, *report;
    member *firsts, *members; /* --report: each cluster's first copy; the duplicates */
    size_t nfirsts, capfirsts, nmembers, capmembers;
    char **names; /* the inputs' names the members point to (an input's own goes with it) */
    size_t nnames, capnames;
} dd_state;

/* Grows *p (n used of *cap elements of size sz) to hold one more; 0 when out of memory. */
int dd_reserve(void **p, size_t n, size_t *cap, size_t sz);

/* Creates the temporary files and the keeper; 0, or 1 after a message. */
int dd_open(dd_state *s);
/* -j N (cli/parallel.h): the workers make each game's line key and record (a pgn_dedupe_line
 * each) and send them as its product, which dd_line_of then takes instead of s->line's own. */
const pgn_par_hooks *dd_line_hooks(void);
/* The key and record of g, read by s->line's visitor or made by a worker. */
pgn_status dd_line_of(dd_state *s, const cli_game *g, uint64_t *key, pgn_str *record);

/* --keep richest: appends g's text to the spool. */
pgn_status dd_spool(dd_state *s, const cli_game *g);
/* --keep richest: the second pass over the spool (kept copies and broken games to the output,
 * the others to --dupes). */
pgn_status dd_second_pass(dd_state *s);
/* --report: the clusters of two or more copies, as JSON. */
void dd_write_report(dd_state *s);

#endif
