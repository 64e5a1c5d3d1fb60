/* SPDX-License-Identifier: MIT */
/* The game database (issue 30; src/db): games imported once into an SQLite file, then asked in
 * milliseconds: the moves played from a position with their results (the opening explorer), the
 * games that reached a position, the games' own bytes back. The file is an ordinary SQLite
 * database (libsqlite3, linked; docs/design.md says why) whose schema docs/database.md documents
 * and versions (meta table, schema 3): sqlite3, Python's sqlite3 or any GUI can open it.
 *
 * A position is what its Polyglot Zobrist key covers: placement, side to move, castling rights and
 * an en passant square only when a capture there is legal (pgn_pos.key). A game counts once for a
 * position, with the move it played there first.
 *
 * Memory: SQLite allocates through its own allocator (libc), so these functions take no
 * pgn_allocator; an import holds one batch of index entries (bounded, see pgn_db_import).
 * Messages: a failing function writes one English sentence into msg (cap bytes; msg may be NULL
 * with cap 0), never printed. */
#ifndef PGNKIT_DB_H
#define PGNKIT_DB_H

#include "base.h"
#include "chess.h"
#include "game.h"
#include "query.h"
#include "source.h"
#include "writer.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The schema version this library writes and reads. */
#define PGN_DB_SCHEMA 7

typedef struct pgn_db pgn_db;

/* pgn_db_open flags */
#define PGN_DB_READONLY 0x1u /* open for reading only (queries) */
#define PGN_DB_CREATE 0x2u   /* create the file (and the schema) when it does not exist */

/** Opens the database at path. PGN_OK with *out set, else *out NULL and PGN_E_IO with a sentence:
 * the file is missing (without PGN_DB_CREATE), is not an SQLite file, is SQLite but not a pgnkit
 * database, has another schema than PGN_DB_SCHEMA (newer, or older: import the games again),
 * cannot be written; PGN_E_NOMEM. The database is in WAL mode: readers see the last committed
 * batch while an import runs; a second import waits (up to 10 s) for the first to commit a batch,
 * then fails with a sentence saying so. */
PGN_API pgn_status pgn_db_open(pgn_db **out, const char *path, uint32_t flags, char *msg,
                               size_t cap);
/** Closes the database; accepts NULL. */
PGN_API void pgn_db_close(pgn_db *db);

/** Options of pgn_db_import; a zeroed struct (or NULL) gives the defaults. */
typedef struct pgn_db_import_opts {
    unsigned threads;     /* reading threads; 0: one per core (pgn_parallel_read) */
    uint32_t batch_games; /* games a transaction holds; 0: 50000 */
    int keep_duplicates;  /* nonzero: a game equal to one stored is stored again */
    /* After each batch committed (NULL: none): games read so far and bytes of the source consumed.
     */
    void (*progress)(void *user, uint64_t games, uint64_t consumed);
    void *user;
} pgn_db_import_opts;

/** What an import did. */
typedef struct pgn_db_import_totals {
    uint64_t games;      /* games read */
    uint64_t stored;     /* games stored (games - duplicates) */
    uint64_t duplicates; /* skipped: the same start, main line, White, Black, Date and Result as a
                            game stored (the rule of pgnkit dedupe --by moves+tags, by its key) */
    uint64_t broken;     /* stored with broken = 1 and their first error (the moves read indexed) */
    uint64_t positions;  /* (position, game) entries indexed */
} pgn_db_import_totals;

/** Reads every game of src (the current member of an archive) through pgn_parallel_read and stores
 * it: its original bytes, its main tags, its result, its main line's positions in the position
 * index and its moves in the explorer. One transaction per batch: a killed import leaves the games
 * of the committed batches, whole. PGN_OK, or PGN_E_IO (the source or SQLite failed: msg says
 * which; also a database opened with PGN_DB_READONLY, before anything is read), PGN_E_NOMEM;
 * totals (may be NULL) count what was committed. */
PGN_API pgn_status pgn_db_import(pgn_db *db, pgn_source *src, const pgn_db_import_opts *opts,
                                 pgn_db_import_totals *totals, char *msg, size_t cap);

/** One move of the explorer. */
typedef struct pgn_db_move {
    pgn_move move;                       /* legal in the position asked */
    uint64_t games, white, draws, black; /* games that played it; their results (others: '*') */
    uint64_t elo_sum, elo_games;         /* the mover's Elo summed over the games that have it */
    int64_t last_date;                   /* the latest Date as YYYYMMDD (0: none known) */
} pgn_db_move;

/** Calls fn for each move played from pos, the most played first (ties: by move code); a nonzero
 * return stops. *games (may be NULL) gets the number of games that reached pos and went on.
 * PGN_OK or PGN_E_IO (msg). */
PGN_API pgn_status pgn_db_explore(pgn_db *db, const pgn_pos *pos,
                                  int (*fn)(void *user, const pgn_db_move *m), void *user,
                                  uint64_t *games, char *msg, size_t cap);

/**
 * The explorer's answer for pos as JSON (the page's panel, web/explore.js, reads it; FENs, SAN,
 * UCI and numbers only): {"fen", "moves": [{"san", "uci", "games", "white", "draws", "black",
 * "elo" (the movers' mean Elo, 0 unknown), "fen" (after the move)}, ...] (pgn_db_explore's order),
 * "games"}, appended to out. *games (may be NULL) gets the number of games that went on from pos.
 * PGN_OK, PGN_E_NOMEM (out could not grow), PGN_E_BAD_ALLOCATOR (out->alloc half-filled) or
 * PGN_E_IO (msg); on an error out is as it was.
 */
PGN_API pgn_status pgn_db_explore_json(pgn_db *db, const pgn_pos *pos, pgn_membuf *out,
                                       uint64_t *games, char *msg, size_t cap);

/** The explorer's answers along games' main lines (pgnkit html --db writes them into its page):
 * each position the database has, once (a set of position keys), its answer as
 * pgn_db_explore_json gives it; a line is followed up to the first position at most one stored
 * game went on from (a line of one game is that game's, and would make a page many times its
 * games' size). Opaque: pgn_db_answers_new gives one, pgn_db_answers_free releases it. */
typedef struct pgn_db_answers pgn_db_answers;

/** A set of answers from db (borrowed: it must outlive the set). PGN_OK or PGN_E_NOMEM. */
PGN_API pgn_status pgn_db_answers_new(pgn_db_answers **out, pgn_db *db);
/** Adds the answers along g's main line (standard chess only: the database indexes nothing else;
 * another variant adds nothing). PGN_OK, PGN_E_NOMEM or PGN_E_IO (msg). */
PGN_API pgn_status pgn_db_answers_add_game(pgn_db_answers *a, const pgn_game *g, char *msg,
                                           size_t cap);
/** The answers so far, comma- and newline-separated JSON objects ("" when none; *len its
 * length), borrowed until the next add or the free. */
PGN_API const char *pgn_db_answers_json(const pgn_db_answers *a, size_t *len);
/** The number of answers so far. */
PGN_API unsigned long pgn_db_answers_count(const pgn_db_answers *a);
/** Releases a (NULL is allowed). */
PGN_API void pgn_db_answers_free(pgn_db_answers *a);

/** Calls fn with the id of each game whose main line reaches pos (its start or the position after
 * any move), in id (import) order; nonzero stops. PGN_OK or PGN_E_IO (msg). */
PGN_API pgn_status pgn_db_games_at(pgn_db *db, const pgn_pos *pos,
                                   int (*fn)(void *user, int64_t id), void *user, char *msg,
                                   size_t cap);

/** Calls fn with each stored game's id and original bytes (borrowed for the call), in id order,
 * from id first on (1: all); nonzero stops. PGN_OK or PGN_E_IO (msg). */
PGN_API pgn_status pgn_db_games(pgn_db *db, int64_t first,
                                int (*fn)(void *user, int64_t id, pgn_str raw), void *user,
                                char *msg, size_t cap);

/** The same for one game: PGN_OK and fn called once, PGN_END (no such id), PGN_E_IO. */
PGN_API pgn_status pgn_db_game(pgn_db *db, int64_t id,
                               int (*fn)(void *user, int64_t id, pgn_str raw), void *user,
                               char *msg, size_t cap);

/** A game pgn_db_select found. */
typedef struct pgn_db_hit {
    int64_t id;         /* the game's id (import order) */
    pgn_str raw;        /* its bytes as imported, borrowed for the call */
    uint32_t first_ply; /* as pgn_query_result.first_ply (UINT32_MAX: no point condition) */
} pgn_db_hit;

/** What pgn_db_select did. */
typedef struct pgn_db_select_totals {
    uint64_t candidates; /* games replayed with the matcher */
    uint64_t matched;    /* games given to fn */
    int indexed;         /* 1: the candidates came from the position index (a fen, opening or
                            hash every match must reach); 0: every stored game was replayed */
} pgn_db_select_totals;

/** The stored games that query (docs/query.md) matches, in id (import) order, each given to fn
 * (nonzero stops): the same games pgnkit select finds in the imported files, in the same order
 * (with duplicates imported: pgn_db_import_opts.keep_duplicates). A position every match must
 * reach on its main line (a fen, opening or hash atom in the expression's conjunction, outside
 * not, or, flip and in variations) is looked up in the position index, and only the games there
 * (and the games not indexed: variants, broken games) are replayed; otherwise every game is; the
 * same matcher (pgn_query_visitor_for) decides each, from its stored bytes. Memory: one game's
 * reader and the position's posting lists. PGN_OK, PGN_E_IO (SQLite failed: msg), PGN_E_NOMEM;
 * totals may be NULL. */
PGN_API pgn_status pgn_db_select(pgn_db *db, const pgn_query *query,
                                 int (*fn)(void *user, const pgn_db_hit *hit), void *user,
                                 pgn_db_select_totals *totals, char *msg, size_t cap);

/** The number of stored games query matches, into *count: pgn_db_select's matches, counted. When
 * the expression is a fen or hash atom alone (as `fen "..."`: the games whose main line reaches
 * the position), the position index answers it, and only the games it does not hold (variants,
 * broken games) are replayed; else as pgn_db_select. PGN_OK, PGN_E_IO (msg), PGN_E_NOMEM; totals
 * may be NULL (matched: the count; candidates: the games replayed). */
PGN_API pgn_status pgn_db_select_count(pgn_db *db, const pgn_query *query, uint64_t *count,
                                       pgn_db_select_totals *totals, char *msg, size_t cap);

/** What the database holds. */
typedef struct pgn_db_stats {
    uint64_t games, broken, white, draws, black;
    /* explorer_rows: the (position, move)s of explore's rows and, for each import batch, its
     * entries in singles counted once a fingerprint (schema 6 keeps no move in an entry);
     * position_keys: the distinct positions, counted by the key's top 26 bits (the entries'
     * fingerprint), so a little low; position_bytes: the index's blobs (explore's posting lists
     * and singles' data) */
    uint64_t explorer_rows, position_keys, position_bytes;
    int schema;
} pgn_db_stats;

/** Fills *st. PGN_OK or PGN_E_IO (msg). */
PGN_API pgn_status pgn_db_get_stats(pgn_db *db, pgn_db_stats *st, char *msg, size_t cap);

/** SQLite's integrity check and the index's own consistency (every explorer count equals its
 * position's postings is not checked; the per-position totals are). PGN_OK, or PGN_E_IO with the
 * first problem in msg. */
PGN_API pgn_status pgn_db_check(pgn_db *db, char *msg, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
