/* SPDX-License-Identifier: MIT */
/* The tags of a whole source as columns (tagcols.c), for pgnkit.read_tags_frame. */
#ifndef PGNKIT_PY_TAGCOLS_H
#define PGNKIT_PY_TAGCOLS_H

#include "pk.h"

/* A TagColumns record of the rest of r's games (a reader opened with PGN_READ_NO_BOARD), read in
 * one call with the GIL released (Ctrl-C honoured within it); ints and dates: the tag names typed
 * as integers and as dates. NULL with *st the reader's failure and no exception set, or with an
 * exception set. */
PyObject *pk_tag_columns(const pk_state *s, pgn_reader *r, PyObject *ints, PyObject *dates,
                         pgn_status *st);

/* _pgnkit.tag_columns(source, name, encoding, range_start, range_end, jobs, part_bytes, int_tags,
 * date_tags, guess=True): the tags of a path (str or os.PathLike) or bytes as a TagColumns record,
 * read in parts of at least part_bytes each on up to jobs threads (tagscan.h, pk_scan_source). */
PyObject *pk_mod_tag_columns(PyObject *mod, PyObject *args, PyObject *kw);

/* _pgnkit.take_objects(out, values, codes, missing): fills out (a writable C-contiguous buffer of
 * objects, format "O": a numpy object array) with values[code] for each int32 code of codes (a
 * bytes-like object), missing where the code is -1: a column of TagColumns made into objects
 * without numpy's take. None, or an exception. */
PyObject *pk_mod_take_objects(PyObject *mod, PyObject *args);

#endif
