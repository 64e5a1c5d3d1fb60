/* SPDX-License-Identifier: MIT */
/* pgnkit stats's counts, between cli/cmd_stats.c (counted while streaming) and
 * cli/stats_report.c (printed as a table or as JSON). */
#ifndef PGNKIT_CLI_STATS_H
#define PGNKIT_CLI_STATS_H

#include "cli.h"

#include <stdint.h>

enum { T_WHITE, T_BLACK, T_WELO, T_BELO, T_RESULT, T_ECO, T_EVENT, T_DATE, T_TC, T_VARIANT, NT };
#define VAL_MAX 200 /* longer tag values are counted by their first VAL_MAX bytes */

/* What one game gives the counts: its tags of interest and its movetext's result (the visitor's
 * user: on a worker under -j N, which sends it to the main thread as a product). */
typedef struct stats_game {
    char val[NT][VAL_MAX];
    size_t len[NT];
    unsigned have; /* bit i: tag i seen */
    pgn_result marker;
} stats_game;

typedef struct stats {
    cli_run *run;
    stats_game g;    /* the game being counted */
    uint64_t *plies; /* plies[k]: games of k plies */
    size_t nplies;
    uint64_t results[5];                                        /* by pgn_result */
    pgn_tally *eco, *players, *events, *years, *tcs, *variants; /* pgn_tally_new'd */
    uint64_t diags[256];
    int top, json, oom;
} stats;

/* Prints the counts of games games: a table, or one JSON object with --json. */
void stats_report(const stats *s, uint64_t games);

#endif
