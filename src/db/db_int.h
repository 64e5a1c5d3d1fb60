/* SPDX-License-Identifier: MIT */
/* The database's shared internals (src/db): the handle, the schema, messages. */
#ifndef PGNKIT_DB_INT_H
#define PGNKIT_DB_INT_H

#include "pgnkit/db.h"
#include "pgnkit/source.h"
#include "pgnkit/writer.h"

#include <sqlite3.h>

#include "../base/alloc.h"

/* PRAGMA application_id of a pgnkit database: "pgnk" */
#define PGNK_DB_APP_ID 0x70676e6b

struct pgn_db {
    sqlite3 *sql;
    int readonly;
    /* the games' bytes read (db_blocks.c): the statements, and the last block decoded */
    sqlite3_stmt *game_st, *block_st;
    int64_t cache_id; /* 0: none */
    pgn_membuf cache;
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

/* The one-game entries of the position index (db_singles.c): an entry, and a row's entries
 * (sorted by key, then move; one key prefix) packed into *buf (grown as *cap says) as the row's
 * data, *len its bytes; -1 when out of memory. */
/* A row of singles holds the entries whose keys share their top 64 - PGNK_SINGLES_SHIFT bits. */
#define PGNK_SINGLES_SHIFT 50
typedef struct pgnk_single {
    uint64_t key, delta; /* delta: the game's id less the batch's first */
    pgn_move move;
} pgnk_single;
/* A position that at least this many games of an import batch reach is dense in the batch: all
 * its moves are rows of explore, none entries (schema 7). */
#define PGNK_DENSE_MIN 16
/* span: the batch's ids, [batch, batch + span), kept in the row for the readers' dense test. */
int pgnk_singles_pack(uint8_t **buf, size_t *cap, size_t *len, const pgnk_single *e, size_t n,
                      uint64_t span);
/* fn for each one-game entry of the position of key key, until it returns nonzero. */
pgn_status pgnk_db_singles_at(pgn_db *db, uint64_t key,
                              int (*fn)(void *user, pgn_move mv, int64_t id), void *user, char *msg,
                              size_t cap);
/* The number of one-game entries and of distinct keys (explore's and the entries'). */
pgn_status pgnk_db_index_counts(pgn_db *db, uint64_t *entries, uint64_t *keys, char *msg,
                                size_t cap);

/* The games' bytes in blocks (db_blocks.c). The block being written by an import, the next
 * block's id (0: not known), and the blocks compressed on a thread of their own (pk; NULL: the
 * caller's thread compresses them): */
typedef struct pgnk_packer pgnk_packer;
typedef struct pgnk_blockw {
    int64_t id; /* 0: none open */
    int64_t next;
    pgnk_packer *pk;
    unsigned games;
    pgn_membuf text, packed;
    pgn_encoder *enc;
    int no_zstd;
    sqlite3_stmt *ins;
} pgnk_blockw;
/* Appends a game's bytes to the open block (opened when none: the next id), its place into
 * *block and *offset; a full block is written. PGN_OK, PGN_E_IO (SQLite's), PGN_E_NOMEM. */
pgn_status pgnk_blockw_add(pgnk_blockw *w, pgn_db *db, pgn_str raw, int64_t *block,
                           int64_t *offset);
/* The blocks compressed on a thread of their own from now on, and inserted after their games
 * (the id of each is known when its first game is stored); PGN_OK or PGN_E_NOMEM (then the
 * caller's thread compresses them, as before). */
pgn_status pgnk_blockw_threaded(pgnk_blockw *w);
/* Writes the open block, if any, as a row of blocks, and every block handed to the thread. */
pgn_status pgnk_blockw_flush(pgnk_blockw *w, pgn_db *db);
/* Forgets the open block (its batch rolled back). */
void pgnk_blockw_reset(pgnk_blockw *w);
void pgnk_blockw_free(pgnk_blockw *w);
/* A block's stored bytes decoded into out (emptied first). */
pgn_status pgnk_db_unpack(pgn_membuf *out, int codec, int64_t size, const void *p, size_t n,
                          char *msg, size_t cap);
/* The bytes [offset, offset + length) of block block, borrowed until the next read of the db's
 * games. PGN_OK, or PGN_E_IO with msg (a damaged database), PGN_E_NOMEM. */
pgn_status pgnk_db_slice(pgn_db *db, int64_t block, int64_t offset, int64_t length, pgn_str *out,
                         char *msg, size_t cap);
/* The bytes of game id, borrowed as pgnk_db_slice's: PGN_OK, PGN_END (no such game), errors. */
pgn_status pgnk_db_game_bytes(pgn_db *db, int64_t id, pgn_str *out, char *msg, size_t cap);

#endif
