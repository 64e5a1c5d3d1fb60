/* SPDX-License-Identifier: MIT */
/* pgnkit stats's state, between cli/cmd_stats.c (options, the reading) and cli/stats_report.c
 * (printed as a table or as JSON). The counting is the library's (pgn_stats,
 * include/pgnkit/collection.h). */
#ifndef PGNKIT_CLI_STATS_H
#define PGNKIT_CLI_STATS_H

#include "cli.h"

#include <stdint.h>

typedef struct stats {
    cli_run *run;
    pgn_stats_game g; /* the game being counted (the visitor's user) */
    pgn_stats *counts;
    int top, json;
} stats;

/* Prints the counts of games games: a table, or one JSON object with --json. */
void stats_report(stats *s, uint64_t games);

#endif
