/* SPDX-License-Identifier: MIT */
/* The database's shared internals (src/db): the handle, the schema, messages. */
#ifndef PGNKIT_DB_INT_H
#define PGNKIT_DB_INT_H

#include "pgnkit/db.h"

#include <sqlite3.h>

/* PRAGMA application_id of a pgnkit database: "pgnk" */
#define PGNK_DB_APP_ID 0x70676e6b

struct pgn_db {
    sqlite3 *sql;
    int readonly;
};

/* The tags kept in columns of the games table, in this order. */
enum {
    DBT_WHITE,
    DBT_BLACK,
    DBT_EVENT,
    DBT_SITE,
    DBT_DATE,
    DBT_ROUND,
    DBT_WHITE_ELO,
    DBT_BLACK_ELO,
    DBT_ECO,
    DBT_COUNT
};
extern const char *const pgnk_db_tag_names[DBT_COUNT];

/* msg <- "WHAT: SQLite's message"; returns PGN_E_IO (PGN_E_NOMEM for SQLITE_NOMEM). */
pgn_status pgnk_db_fail(pgn_db *db, const char *what, char *msg, size_t cap);
/* Runs sql (no rows); PGN_OK or pgnk_db_fail's status. */
pgn_status pgnk_db_exec(pgn_db *db, const char *sql, char *msg, size_t cap);
/* pgn_db_games_at for the position of Zobrist key key (db.c). */
pgn_status pgnk_db_games_at_key(pgn_db *db, uint64_t key, int (*fn)(void *user, int64_t id),
                                void *user, char *msg, size_t cap);
/* The Date tag's value as YYYYMMDD (unknown parts 0), 0 when no year. */
int64_t pgnk_db_date_num(const char *s, size_t len);

#endif
