/* SPDX-License-Identifier: MIT */
/* pgnkit sort's state, between cli/cmd_sort.c (the options and the games held as records) and
 * cli/sort_runs.c (the records sorted, written to runs on disk and merged). */
#ifndef PGNKIT_CLI_SORT_H
#define PGNKIT_CLI_SORT_H

#include "cli.h"

#include <stdint.h>
#include <stdio.h>

#define MAX_KEYS 16
#define NONE UINT32_MAX /* a key the game does not have */

/* A game as held and as written to a run: this header, the key bytes, then the raw text. */
typedef struct rec {
    uint64_t ordinal;
    uint64_t size; /* of the whole record */
    uint32_t raw_len;
    uint32_t key_len[MAX_KEYS];
} rec;

typedef struct sort_state {
    char *names[MAX_KEYS];
    size_t nkeys;
    uint64_t memory, held;
    char *val[MAX_KEYS];
    uint32_t len[MAX_KEYS];
    rec **recs;
    size_t nrecs, caprecs;
    FILE **runs; /* open runs, oldest first; levels[i]: runs[i] merges SORT_FANIN^levels[i] */
    unsigned char *levels;
    size_t nruns, runs_made;
    int said; /* a failure was reported (the summary's error line) */
    FILE *out;
} sort_state;

/* Runs merged at once (issue 34 point 6): SORT_FANIN runs of one level are merged into one of the
 * next as soon as they are written, so that at most SORT_FANIN - 1 runs per level are open (a few
 * dozen for millions of games) whatever the number of runs. */
#define SORT_FANIN 16

/* Sorts the held games and writes them to out (raw) or, as records, to a new run file. */
pgn_status sort_flush(sort_state *s, int to_run);
/* Merges the runs into out, taking the least record of the runs' heads each time. */
pgn_status sort_merge(sort_state *s);

#endif
