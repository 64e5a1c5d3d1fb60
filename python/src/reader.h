/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit.Reader's object, shared by reader.c (making it, its sources) and reader_read.c
 * (reading games, tags, checks). */
#ifndef PGNKIT_PY_READER_H
#define PGNKIT_PY_READER_H

#include "pk.h"

#include <pgnkit/source.h>
#include <stdio.h>

#include "tagdicts.h"

typedef struct ReaderObject {
    PyObject_HEAD pgn_reader *r;
    pgn_source *src;      /* the C source layer's: recognition, decoding, archive members */
    int fd;               /* a path's file descriptor, closed here; else -1 */
    pgn_reader_opts o;    /* the reader's options, again for an archive's next member */
    PyObject *keep;       /* the bytes object of a memory reader, or the file-like object */
    PyObject *name;       /* the name of what is read as bytes (an archive's member: A(M)) */
    pk_diags diags;       /* this game's diagnostics */
    int tags_only;        /* scan mode: dicts of tags, no board */
    int busy;             /* a method runs (maybe without the GIL): any other call is refused */
    pk_tagdicts *tags;    /* scan mode's batch and caches (tagdicts.h) */
    PyObject *io_err;     /* an exception raised by a file-like object's read */
    pgn_query *q;         /* where=: the compiled expression, or NULL */
    pgn_query_matcher *m; /* its matcher (the reader's visitor) */
    pgn_reader_opts sub;  /* options of the reader that builds a matching game's tree */
} ReaderObject;

/* Raises ValueError and returns -1 if a tags-only reader holds games scanned ahead for next()
 * that a method reading the rest at once would skip; else 0. */
int pk_reader_no_pending(ReaderObject *self, const char *method);

/* Marks self busy for a method's call; -1 with RuntimeError set when it is busy already (another
 * thread runs a method, or the file object's read() called the reader again). */
int pk_reader_enter(ReaderObject *self);

/* Ends what pk_reader_enter began. */
void pk_reader_leave(ReaderObject *self);

/* Raises the error of a failed read (the file object's exception, memory, ...); returns NULL. */
PyObject *pk_reader_failed(ReaderObject *self, pgn_status st);

/* Moves the reader to the next member of an archive (reader.c): the member's name (str), or
 * None when no member is left; NULL with an exception set. */
PyObject *pk_reader_next_member(ReaderObject *self, PyObject *unused);

/* parallel(threads, put): reads the text on threads (parallel.c). */
PyObject *pk_reader_parallel(ReaderObject *self, PyObject *args);

/* The reader's methods and iterator (reader_read.c). */
extern PyMethodDef pk_reader_methods[];
PyObject *pk_reader_next(ReaderObject *self);

#endif
