/* SPDX-License-Identifier: MIT */
/* The tags of a whole source as columns (tagcols.c), for pgnkit.read_tags_frame. */
#ifndef PGNKIT_PY_TAGCOLS_H
#define PGNKIT_PY_TAGCOLS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "pgnkit.h"

/* (games, [(name, column)]) of the rest of r's games (a reader opened with PGN_READ_NO_BOARD),
 * read in one call with the GIL released; ints and dates: the tag names typed as integers and as
 * dates. NULL with *st the reader's failure and no exception set, or with an exception set. */
PyObject *pk_tag_columns(pgn_reader *r, PyObject *ints, PyObject *dates, pgn_status *st);

/* A source that tag columns can read in parts, each by its own reader on its own thread. */
typedef struct pk_tag_source {
    const char *path;           /* a file's path, or NULL: the len bytes at data */
    const char *data;
    size_t len;
    uint64_t size;              /* its size in bytes (0: unknown, as for a pipe: read in one part) */
    pgn_reader_opts opts;       /* the readers' options (encoding, flags); no diagnostic callback */
    uint64_t range_start, range_end; /* as pgn_reader_opts' (0, 0: all of it) */
    size_t jobs;                /* at most this many parts (threads) */
    size_t part_bytes;          /* and at least this many bytes in each */
    int guess;                  /* give a part the encoding state the last part read told (else
                                   AUTO: the worst case of the threads' timing, for tests) */
} pk_tag_source;

/* As pk_tag_columns, over src read in parts when it holds at least 2 * part_bytes: [start, end)
 * is cut into equal byte ranges, read with the library's range semantics on as many threads, and
 * their columns joined in order. A part that one reader would have come to in another encoding
 * state (pgn_reader_encoding_state) is read again from that state. When the parts do not read
 * every game once as one reader would (a range that starts inside a comment holding a tag-like
 * line, a game without tags at a cut, a UTF-16 stream), the source is read again with one
 * reader. *parts: the number of parts of the read that counted (1 after such a fallback). A
 * failure to open the path: NULL, *st PGN_E_IO with errno set, no exception. */
PyObject *pk_tag_columns_of(const pk_tag_source *src, PyObject *ints, PyObject *dates,
                            pgn_status *st, size_t *parts);

#endif
