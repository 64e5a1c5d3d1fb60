/* SPDX-License-Identifier: MIT */
/* Scan mode of pgnkit._pgnkit.Reader (tagdicts.c): each game's tags as a dict, for
 * pgnkit.scan_tags, built in C from games scanned a batch at a time without the GIL. */
#ifndef PGNKIT_PY_TAGDICTS_H
#define PGNKIT_PY_TAGDICTS_H

#include "pk.h"

typedef struct pk_tagdicts pk_tagdicts;

/* A new scan state, or NULL when out of memory. */
pk_tagdicts *pk_tagdicts_new(void);

/* Frees t (NULL is accepted); needs the GIL (t holds str objects). */
void pk_tagdicts_free(pk_tagdicts *t);

/* The tags of r's next game as a dict (file order; a name given twice keeps its last value), or
 * NULL: at the end (*st PGN_END, no exception), or with *st the read's failure (no exception), or
 * with an exception set. When no scanned game is left, a batch (up to 64 games or 128 KiB of tags)
 * is read with the GIL released; diags then holds what the last read reported, as after one game
 * (at the end: the diagnostics that belong to no game). */
PyObject *pk_tagdicts_next(pk_tagdicts *t, pgn_reader *r, pk_diags *diags, pgn_status *st);

/* A new str of s: an ASCII one copied into a str made at its size (no decoder), else decoded as
 * UTF-8 with U+FFFD for what is not (pk_str). */
PyObject *pk_new_str(pgn_str s);

/* 1 if t holds games scanned but not given yet (the reader has read past them). */
int pk_tagdicts_pending(const pk_tagdicts *t);

#endif
