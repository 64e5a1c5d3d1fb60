/* SPDX-License-Identifier: MIT */
/* pgnkit split's state, between cli/cmd_split.c (the options and the games) and
 * cli/split_files.c (the files written, put in place at the end). Which game goes to which file
 * and the files' names are the library's (pgn_split_*, include/pgnkit/split.h). */
#ifndef PGNKIT_CLI_SPLIT_H
#define PGNKIT_CLI_SPLIT_H

#include "cli.h"

#include <stdint.h>
#include <stdio.h>

/* The program's side of the library's file of the same index. */
typedef struct out_file {
    char *tmp;      /* its temporary file until put in place (cli/tempfile.h), malloc'd */
    FILE *f;        /* open on tmp (NULL: closed, opened again to append) */
    uint64_t stamp; /* last use, to close the least recently used */
} out_file;

typedef struct split_state {
    const char *pattern, *by;
    uint64_t per_file; /* 0: no limit */
    int force;         /* --force: existing names are replaced */
    pgn_split *split;
    out_file *files;
    size_t capfiles, nopen, open_max;
    uint64_t clock;
    int kept_dirs; /* the files were put in place: the directories stay */
} split_state;

/* The file the current game goes to, open, its name in *name; NULL after a message (or out of
 * memory), *st saying which. */
FILE *split_file_for(split_state *s, pgn_status *st, const char **name);
/* Before reading: refuses (EXIT_USAGE, after a message) when an input is a name the pattern
 * gives, for a pattern without tag values (those names are checked by split_commit). */
int split_precheck(const split_state *s, const cli_run *r);
/* After reading: puts every file in place, each named on stderr ("wrote NAME (N games)"), only
 * when none of them is an input and none exists (without --force); else writes nothing
 * (EXIT_USAGE after a message naming each). EXIT_OK, EXIT_USAGE or EXIT_RESOURCE. */
int split_commit(split_state *s, const cli_run *r);
/* Removes the temporary files left (a refused or failed run) and the directories the run made
 * if they are empty, and frees the files. */
void split_discard(split_state *s);

#endif
