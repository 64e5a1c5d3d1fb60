/* SPDX-License-Identifier: MIT */
/* The line keys of the games an import has stored (db_seen.c): its duplicate test asks them in
 * memory before SQLite's games_line_key index. */
#ifndef PGNKIT_DB_SEEN_H
#define PGNKIT_DB_SEEN_H

#include "db_int.h"

/* The line keys of the games with ids in (base, top], while complete; an import into a database
 * that had no games when it began (base 0) then needs no lookup in SQLite at all. */
typedef struct pgnk_seen {
    uint64_t *slot; /* open addressing; 0: empty (the key 0 is has_zero) */
    size_t cap, n;
    int64_t base, top;
    int started, complete, has_zero;
} pgnk_seen;

/* At a batch's start, inside its transaction: the games that others stored since top read in
 * (all the games when the import starts: base). PGN_OK or SQLite's failure (msg set); out of
 * memory makes the set incomplete, not an error. */
pgn_status pgnk_seen_begin(pgnk_seen *s, pgn_db *db, char *msg, size_t cap);
/* 1: a game has line key k; 0: none has; -1: not known here (ask SQLite). */
int pgnk_seen_has(const pgnk_seen *s, uint64_t k);
/* Game id, just stored with line key k. */
void pgnk_seen_add(pgnk_seen *s, int64_t id, uint64_t k);
/* Forgets everything (a batch rolled back). */
void pgnk_seen_reset(pgnk_seen *s);
void pgnk_seen_free(pgnk_seen *s);

#endif
