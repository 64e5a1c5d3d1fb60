/* SPDX-License-Identifier: MIT */
/* pgnkit split's state, between cli/cmd_split.c (the options, the games and the files written)
 * and cli/split_names.c (the file names made from the pattern). */
#ifndef PGNKIT_CLI_SPLIT_H
#define PGNKIT_CLI_SPLIT_H

#include "cli.h"
#include "tally.h"

#include <stdint.h>
#include <stdio.h>

#define MAX_FIELDS 8
#define VALUE_MAX 100    /* bytes of a value in a file name */
#define PATTERN_MAX 1024 /* bytes of the pattern */

typedef struct out_file {
    char *path;
    FILE *f;
    uint64_t games;
    uint64_t n;     /* its number among the files of its value */
    int started;    /* written to before: reopen in append mode */
    uint64_t stamp; /* last use, to close the least recently used */
} out_file;

typedef struct split_state {
    const char *pattern, *by;
    uint64_t per_file;       /* 0: no limit */
    char *field[MAX_FIELDS]; /* tag names the pattern uses, and --by */
    size_t nfields;
    char *val[MAX_FIELDS]; /* this game's values, malloc'd */
    size_t len[MAX_FIELDS];
    tally keys;  /* value -> aux = index of its current out_file + 1 */
    tally names; /* the file names given out */
    out_file *files;
    size_t nfiles, capfiles, nopen, open_max;
    uint64_t clock;
} split_state;

/* The name of file number n of the value at by (the pattern with {n}, {value} and {TAG}
 * replaced), made unique among the names given out (name~2.ext, ...), its directories created;
 * malloc'd, or NULL (after a message when a directory cannot be created). */
char *split_path(split_state *s, uint64_t n, int by);

#endif
