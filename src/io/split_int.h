/* SPDX-License-Identifier: MIT */
/* A split's state (include/pgnkit/split.h), between src/io/split.c (the tags, the files, which
 * game goes where) and src/io/split_names.c (the names made from the pattern). Internal. */
#ifndef PGNKIT_IO_SPLIT_INT_H
#define PGNKIT_IO_SPLIT_INT_H

#include "pgnkit/collection.h"
#include "pgnkit/split.h"

/* A file name being built: the pattern is at most PGN_SPLIT_PATTERN_MAX bytes and each value at
 * most PGN_SPLIT_VALUE_MAX, so it always fits. */
#define PGNK_SPLIT_NAME_MAX                                                                        \
    (PGN_SPLIT_PATTERN_MAX + PGN_SPLIT_MAX_TAGS * (PGN_SPLIT_VALUE_MAX + 8) + 64)

typedef struct pgnk_split_file {
    char *path;
    uint64_t games;
    uint64_t n; /* its number among the files of its value */
} pgnk_split_file;

struct pgn_split {
    pgn_allocator alloc;
    char *pattern;
    int by; /* the field split by, or -1 */
    uint64_t per_file;
    char *field[PGN_SPLIT_MAX_TAGS]; /* tag names the pattern uses, and the one split by */
    size_t nfields;
    char *val[PGN_SPLIT_MAX_TAGS];                           /* this game's values */
    size_t len[PGN_SPLIT_MAX_TAGS], cap[PGN_SPLIT_MAX_TAGS]; /* len SIZE_MAX: not seen */
    pgn_tally *keys;  /* value -> aux = index of its current file + 1 */
    pgn_tally *names; /* the file names given out */
    pgnk_split_file *files;
    size_t nfiles, capfiles;
    char **dirs; /* the directories made */
    size_t ndirs, capdirs;
    char err_name[PGNK_SPLIT_NAME_MAX];
    char msg[160];
};

/* The name of file number n of the current game's value (the pattern expanded), made unique
 * among the names given out and its directories created; the split's allocator's, or NULL with
 * *st PGN_E_NOMEM or PGN_E_IO (pgn_split_error). */
char *pgnk_split_path(pgn_split *s, uint64_t n, pgn_status *st);

#endif
