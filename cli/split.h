/* SPDX-License-Identifier: MIT */
/* pgnkit split's state, between cli/cmd_split.c (the options and the games) and
 * cli/split_files.c (the files written, put in place at the end). Which game goes to which file
 * and the files' names and writing are the library's (pgn_split_*, include/pgnkit/split.h). */
#ifndef PGNKIT_CLI_SPLIT_H
#define PGNKIT_CLI_SPLIT_H

#include "cli.h"

#include <stdint.h>

typedef struct split_state {
    const char *pattern, *by;
    uint64_t per_file; /* 0: no limit */
    int force;         /* --force: existing names are replaced */
    pgn_split *split;
    pgn_split_files *files; /* made with the split (cmd_split.c: split_rules) */
    size_t open_max;
    int kept_dirs; /* the files were put in place: the directories stay */
} split_state;

/* Writes the current game's raw text (len bytes) to the file it goes to: PGN_OK, or PGN_E_NOMEM,
 * or PGN_E_IO after a message. */
pgn_status split_write(split_state *s, const char *raw, size_t len);
/* Before reading: refuses (EXIT_USAGE, after a message) when an input is a name the pattern
 * gives, for a pattern without tag values (those names are checked by split_commit). */
int split_precheck(const split_state *s, const cli_run *r);
/* After reading: puts every file in place, each named on stderr ("wrote NAME (N games)"), only
 * when none of them is an input and none exists (without --force); else writes nothing
 * (EXIT_USAGE after a message naming each). EXIT_OK, EXIT_USAGE or EXIT_RESOURCE. */
int split_commit(split_state *s, const cli_run *r);
/* Removes the temporary files left (a refused or failed run) and the directories the run made
 * if they are empty, and frees the files (the split stays). */
void split_discard(split_state *s);

#endif
