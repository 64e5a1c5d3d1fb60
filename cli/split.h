/* SPDX-License-Identifier: MIT */
/* pgnkit split's state, between cli/cmd_split.c (the options and the games), cli/split_files.c
 * (the files written, put in place at the end) and cli/split_names.c (the file names made from
 * the pattern). */
#ifndef PGNKIT_CLI_SPLIT_H
#define PGNKIT_CLI_SPLIT_H

#include "cli.h"

#include <stdint.h>
#include <stdio.h>

#define MAX_FIELDS 8
#define VALUE_MAX 100    /* bytes of a value in a file name */
#define PATTERN_MAX 1024 /* bytes of the pattern */

typedef struct out_file {
    char *path;
    char *tmp; /* its temporary file until put in place (cli/tempfile.h), malloc'd */
    FILE *f;   /* open on tmp (NULL: closed, opened again to append) */
    uint64_t games;
    uint64_t n;     /* its number among the files of its value */
    uint64_t stamp; /* last use, to close the least recently used */
} out_file;

typedef struct split_state {
    const char *pattern, *by;
    uint64_t per_file;       /* 0: no limit */
    char *field[MAX_FIELDS]; /* tag names the pattern uses, and --by */
    size_t nfields;
    char *val[MAX_FIELDS]; /* this game's values, malloc'd */
    size_t len[MAX_FIELDS];
    pgn_tally *keys;  /* value -> aux = index of its current out_file + 1 */
    pgn_tally *names; /* the file names given out */
    out_file *files;
    size_t nfiles, capfiles, nopen, open_max;
    uint64_t clock;
    int force;   /* --force: existing names are replaced */
    char **dirs; /* the directories this run made (removed again if nothing is written) */
    size_t ndirs;
    int kept_dirs; /* the files were put in place: the directories stay */
} split_state;

/* The index of field name (len bytes) among the fields, added when new; -1 when full. */
int split_field(split_state *s, const char *name, size_t len);
/* The file the current game goes to, open; NULL after a message. */
out_file *split_file_for(split_state *s);
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

/* The name of file number n of the value at by (the pattern with {n}, {value} and {TAG}
 * replaced), made unique among the names given out (name~2.ext, ...), its directories created;
 * malloc'd, or NULL (after a message when a directory cannot be created). */
char *split_path(split_state *s, uint64_t n, int by);

#endif
