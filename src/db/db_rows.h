/* SPDX-License-Identifier: MIT */
/* A batch's position index being imported (db_rows.c): the games' index entries gathered by the
 * key's top byte, then, at the batch's commit, sorted and made into rows of explore and singles
 * on a thread of their own while the caller's thread inserts the rows already made. */
#ifndef PGNKIT_DB_ROWS_H
#define PGNKIT_DB_ROWS_H

#include "db_int.h"

/* An index entry as a worker packs it: the position, the move played there (PGN_MOVE_NONE: the
 * game ended there) and the side to move. */
typedef struct pgnk_entry {
    uint64_t key;
    pgn_move move;
    uint8_t side;
} pgnk_entry;

typedef struct pgnk_rows pgnk_rows;

/* A new, empty batch index; PGN_OK or PGN_E_NOMEM. */
pgn_status pgnk_rows_new(pgnk_rows **out);
void pgnk_rows_free(pgnk_rows *r);
/* A game stored in the batch (id, date YYYYMMDD, the players' Elo, its result) and its n entries
 * (n pgnk_entry, packed one after the other at ent); PGN_OK or PGN_E_NOMEM. */
pgn_status pgnk_rows_add(pgnk_rows *r, int64_t id, int64_t date, const uint32_t elo[2],
                         uint8_t result, const void *ent, uint32_t n);
/* The entries of the batch. */
size_t pgnk_rows_entries(const pgnk_rows *r);
/* The batch's rows written through exp (the explore upsert) and one (the singles insert), the
 * rows made on a thread of their own when threaded; batch_first: the batch's first game. PGN_OK,
 * PGN_E_NOMEM, or SQLite's failure (msg set). The batch is emptied. */
pgn_status pgnk_rows_write(pgnk_rows *r, pgn_db *db, sqlite3_stmt *exp, sqlite3_stmt *one,
                           int64_t batch_first, int threaded, char *msg, size_t cap);

#endif
