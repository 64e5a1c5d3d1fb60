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

#endif
