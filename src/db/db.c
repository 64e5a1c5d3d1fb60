/* SPDX-License-Identifier: MIT */
/* The game database (issue 30): opening and creating the file, its schema (docs/database.md), and
 * the queries: the explorer, the games at a position, the games' bytes, statistics, the check. */
#include "db_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pgnk_db_tag_names[DBT_COUNT] = {"White", "Black",    "Event",    "Site", "Date",
                                                  "Round", "WhiteElo", "BlackElo", "ECO"};

static const char schema_sql[] =
    "PRAGMA application_id = 1885826667;"
    "CREATE TABLE meta(name TEXT PRIMARY KEY, value);"
    "INSERT INTO meta VALUES('schema', 7), ('application', 'pgnkit');"
    "CREATE TABLE games(id INTEGER PRIMARY KEY, white TEXT, black TEXT, event TEXT, site TEXT,"
    " date TEXT, round TEXT, white_elo INTEGER, black_elo INTEGER, eco TEXT, result TEXT,"
    " plies INTEGER, broken INTEGER, error TEXT, line_key INTEGER, block INTEGER, start INTEGER,"
    " length INTEGER);"
    "CREATE TABLE blocks(id INTEGER PRIMARY KEY, codec INTEGER, size INTEGER, data BLOB);"
    "CREATE INDEX games_line_key ON games(line_key);"
    "CREATE TABLE explore(key INTEGER, move INTEGER, games INTEGER, white INTEGER, draws INTEGER,"
    " black INTEGER, elo_sum INTEGER, elo_games INTEGER, last_date INTEGER, ids BLOB,"
    " PRIMARY KEY(key, move)) WITHOUT ROWID;"
    "CREATE TABLE singles(id INTEGER PRIMARY KEY, n INTEGER, data BLOB);";

static void put_msg(char *msg, size_t cap, const char *a, const char *b) {
    if (msg != NULL && cap > 0) {
        snprintf(msg, cap, "%s%s%s", a, b ? ": " : "", b ? b : "");
    }
}

pgn_status pgnk_db_fail(pgn_db *db, const char *what, char *msg, size_t cap) {
    int code = db->sql ? sqlite3_errcode(db->sql) : SQLITE_NOMEM;
    put_msg(msg, cap, what, db->sql ? sqlite3_errmsg(db->sql) : "out of memory");
    return code == SQLITE_NOMEM ? PGN_E_NOMEM : PGN_E_IO;
}

pgn_status pgnk_db_exec(pgn_db *db, const char *sql, char *msg, size_t cap) {
    if (sqlite3_exec(db->sql, sql, NULL, NULL, NULL) != SQLITE_OK) {
        return pgnk_db_fail(db, "database", msg, cap);
    }
    return PGN_OK;
}

int64_t pgnk_db_date_num(const char *s, size_t len) {
    int64_t part[3] = {0, 0, 0};
    size_t i = 0;
    for (int k = 0; k < 3; k++) {
        int digits = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9' && digits < 4) {
            part[k] = part[k] * 10 + (s[i++] - '0');
            digits++;
        }
        if (digits == 0 || (k > 0 && part[k] > (k == 1 ? 12 : 31))) {
            part[k] = 0;
        }
        while (i < len && s[i] != '.') {
            i++;
        }
        i += i < len;
    }
    return part[0] == 0 ? 0 : part[0] * 10000 + part[1] * 100 + part[2];
}

/* One integer from a query with no parameter; -1 when it fails or gives no row. */
static int64_t query_int(pgn_db *db, const char *sql) {
    sqlite3_stmt *st = NULL;
    int64_t v = -1;
    if (sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        v = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return v;
}

/* An empty file (or a new one) gets the schema; another must be a pgnkit database of a schema
 * this library reads. */
static pgn_status check_schema(pgn_db *db, char *msg, size_t cap) {
    /* both read in one snapshot: another import may create the schema between two reads, and
     * an application_id of 0 beside its tables would read as a foreign database */
    sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL);
    int64_t app = query_int(db, "PRAGMA application_id");
    int64_t tables = app < 0 ? -1 : query_int(db, "SELECT count(*) FROM sqlite_master");
    if (app < 0 || tables < 0) {
        pgn_status s = pgnk_db_fail(
            db, sqlite3_errcode(db->sql) == SQLITE_NOTADB ? "not a database" : "cannot read it",
            msg, cap);
        sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
        return s;
    }
    sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
    if (app == 0 && tables == 0) {
        if (db->readonly) {
            put_msg(msg, cap, "an empty file, not a pgnkit database", NULL);
            return PGN_E_IO;
        }
        pgn_status s = pgnk_db_exec(db, "BEGIN IMMEDIATE", msg, cap);
        /* another import may have made the schema while this one waited for the lock */
        if (s == PGN_OK && query_int(db, "SELECT count(*) FROM sqlite_master") == 0) {
            s = pgnk_db_exec(db, schema_sql, msg, cap);
        }
        if (s == PGN_OK) {
            s = pgnk_db_exec(db, "COMMIT", msg, cap);
        }
        if (s != PGN_OK) {
            sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
            return s;
        }
        app = query_int(db, "PRAGMA application_id");
    }
    if (app != PGNK_DB_APP_ID) {
        put_msg(msg, cap, "an SQLite database, but not a pgnkit database (its application_id)",
                NULL);
        return PGN_E_IO;
    }
    int64_t v = query_int(db, "SELECT value FROM meta WHERE name = 'schema'");
    if (v != PGN_DB_SCHEMA) {
        char why[120];
        snprintf(why, sizeof why,
                 v > PGN_DB_SCHEMA
                     ? "schema %lld is newer than this pgnkit's (%d): upgrade pgnkit"
                     : "schema %lld is older than this pgnkit's (%d): import the games again",
                 (long long)v, PGN_DB_SCHEMA);
        put_msg(msg, cap, why, NULL);
        return PGN_E_IO;
    }
    return PGN_OK;
}

pgn_status pgn_db_open(pgn_db **out, const char *path, uint32_t flags, char *msg, size_t cap) {
    *out = NULL;
    pgn_db *db = calloc(1, sizeof *db);
    if (db == NULL) {
        put_msg(msg, cap, "out of memory", NULL);
        return PGN_E_NOMEM;
    }
    db->readonly = (flags & PGN_DB_READONLY) != 0;
    int oflags = db->readonly                   ? SQLITE_OPEN_READONLY
                 : (flags & PGN_DB_CREATE) != 0 ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                                : SQLITE_OPEN_READWRITE;
    pgn_status s = PGN_OK;
    if (sqlite3_open_v2(path, &db->sql, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        s = pgnk_db_fail(db, "cannot open the database", msg, cap);
    } else {
        sqlite3_busy_timeout(db->sql, 10000);
        sqlite3_extended_result_codes(db->sql, 0);
        if (!db->readonly && sqlite3_db_readonly(db->sql, "main") == 1) {
            /* SQLite opens a write-protected file for reading only, silently */
            put_msg(msg, cap, "the file cannot be written (read-only)", NULL);
            s = PGN_E_IO;
        } else {
            s = check_schema(db, msg, cap);
        }
        if (s == PGN_OK && !db->readonly) {
            if ((s = pgnk_db_exec(db, "PRAGMA journal_mode = WAL", msg, cap)) == PGN_OK) {
                s = pgnk_db_exec(db, "PRAGMA synchronous = NORMAL", msg, cap);
            }
            if (s == PGN_OK) {
                s = pgnk_db_exec(db, "PRAGMA cache_size = -65536", msg, cap);
            }
            if (s == PGN_OK) {
                s = pgnk_db_exec(db, "PRAGMA secure_delete = OFF", msg, cap);
            }
        }
    }
    if (s != PGN_OK) {
        pgn_db_close(db);
        return s;
    }
    *out = db;
    return PGN_OK;
}

void pgn_db_close(pgn_db *db) {
    if (db != NULL) {
        sqlite3_finalize(db->game_st);
        sqlite3_finalize(db->block_st);
        pgn_membuf_free(&db->cache);
        sqlite3_close(db->sql);
        free(db);
    }
}

static int is_legal(const pgn_movelist *l, pgn_move m) {
    for (uint32_t i = 0; i < l->count; i++) {
        if (l->moves[i] == m) {
            return 1;
        }
    }
    return 0;
}

/* A position's rows at most: one a legal move (pgn_movelist's room), one for the games
 * ending there */
#define DB_MAX_ROWS 513

/* The moves of a position being summed over its rows of explore and its one-game entries. */
typedef struct tally {
    pgn_movelist legal;
    pgn_db_move m[DB_MAX_ROWS];
    size_t n;
} tally;

/* The entry of move mv, a new one zeroed when none; NULL when mv is not legal (a damaged row, or
 * a key shared by two positions) or is PGN_MOVE_NONE (the games that ended there). */
static pgn_db_move *tally_at(tally *t, pgn_move mv) {
    if (mv == PGN_MOVE_NONE || !is_legal(&t->legal, mv)) {
        return NULL;
    }
    for (size_t i = 0; i < t->n; i++) {
        if (t->m[i].move == mv) {
            return &t->m[i];
        }
    }
    if (t->n == DB_MAX_ROWS) {
        return NULL;
    }
    pgn_db_move *m = &t->m[t->n++];
    memset(m, 0, sizeof *m);
    m->move = mv;
    return m;
}

static int cmp_move(const void *a, const void *b) {
    const pgn_db_move *x = a, *y = b;
    if (x->games != y->games) {
        return x->games > y->games ? -1 : 1;
    }
    return x->move < y->move ? -1 : x->move > y->move;
}

static void tally_add(pgn_db_move *m, const int64_t c[7]) {
    m->games += (uint64_t)c[0];
    m->white += (uint64_t)c[1];
    m->draws += (uint64_t)c[2];
    m->black += (uint64_t)c[3];
    m->elo_sum += (uint64_t)c[4];
    m->elo_games += (uint64_t)c[5];
    m->last_date = c[6] > m->last_date ? c[6] : m->last_date;
}

/* Adds explore's rows of the position to t. SQLITE_DONE or SQLite's failure. */
static int tally_rows(pgn_db *db, tally *t, const pgn_pos *pos) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db->sql,
                                "SELECT move, games, white, draws, black, elo_sum, elo_games,"
                                " last_date FROM explore WHERE key = ?",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) {
        return rc;
    }
    sqlite3_bind_int64(st, 1, (sqlite3_int64)pos->key);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        pgn_db_move *m = tally_at(t, (pgn_move)sqlite3_column_int(st, 0));
        int64_t c[7]; /* games, white, draws, black, elo_sum, elo_games, last_date */
        for (int k = 0; m != NULL && k < 7; k++) {
            c[k] = sqlite3_column_int64(st, 1 + k);
        }
        if (m != NULL) {
            tally_add(m, c);
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/* The one-game entries of a position being added to a tally: each game's row read. */
typedef struct single_tally {
    tally *t;
    const pgn_pos *pos;
    sqlite3_stmt *game;
    int rc; /* SQLite's failure, else SQLITE_DONE */
} single_tally;

static int on_single(void *user, pgn_move mv, int64_t id) {
    single_tally *u = user;
    pgn_db_move *m = tally_at(u->t, mv);
    if (m == NULL) {
        return 0;
    }
    sqlite3_bind_int64(u->game, 1, id);
    int rc = sqlite3_step(u->game);
    if (rc == SQLITE_ROW) {
        const char *r = (const char *)sqlite3_column_text(u->game, 0);
        int64_t elo = sqlite3_column_int64(u->game, u->pos->side == PGN_WHITE ? 1 : 2);
        const char *d = (const char *)sqlite3_column_text(u->game, 3);
        int64_t c[7] = {1,
                        r != NULL && strcmp(r, "1-0") == 0,
                        r != NULL && strcmp(r, "1/2-1/2") == 0,
                        r != NULL && strcmp(r, "0-1") == 0,
                        elo > 0 ? elo : 0,
                        elo > 0,
                        d != NULL ? pgnk_db_date_num(d, strlen(d)) : 0};
        tally_add(m, c);
    } else if (rc != SQLITE_DONE) {
        u->rc = rc;
    }
    sqlite3_reset(u->game);
    return u->rc != SQLITE_DONE;
}

/* Adds the position's one-game entries to t. SQLITE_DONE or SQLite's failure. */
static int tally_singles(pgn_db *db, tally *t, const pgn_pos *pos, char *msg, size_t cap) {
    single_tally u = {t, pos, NULL, SQLITE_DONE};
    int rc = sqlite3_prepare_v2(db->sql,
                                "SELECT result, white_elo, black_elo, date FROM games WHERE id = ?",
                                -1, &u.game, NULL);
    if (rc != SQLITE_OK) {
        return rc;
    }
    if (pgnk_db_singles_at(db, pos->key, on_single, &u, msg, cap) != PGN_OK &&
        u.rc == SQLITE_DONE) {
        u.rc = sqlite3_errcode(db->sql);
        u.rc = u.rc == SQLITE_OK || u.rc == SQLITE_DONE ? SQLITE_ERROR : u.rc;
    }
    sqlite3_finalize(u.game);
    return u.rc;
}

pgn_status pgn_db_explore(pgn_db *db, const pgn_pos *pos,
                          int (*fn)(void *user, const pgn_db_move *m), void *user, uint64_t *games,
                          char *msg, size_t cap) {
    if (games != NULL) {
        *games = 0;
    }
    tally *t = malloc(sizeof *t);
    if (t == NULL) {
        put_msg(msg, cap, "explore", "out of memory");
        return PGN_E_NOMEM;
    }
    t->n = 0;
    pgn_pos_legal_moves(pos, &t->legal);
    int rc = tally_rows(db, t, pos);
    if (rc == SQLITE_DONE) {
        rc = tally_singles(db, t, pos, msg, cap);
    }
    pgn_status s = rc == SQLITE_DONE ? PGN_OK : pgnk_db_fail(db, "explore", msg, cap);
    if (s == PGN_OK && t->n > 1) {
        qsort(t->m, t->n, sizeof t->m[0], cmp_move);
    }
    for (size_t i = 0; s == PGN_OK && i < t->n; i++) {
        if (games != NULL) {
            *games += t->m[i].games;
        }
    }
    for (size_t i = 0; s == PGN_OK && fn != NULL && i < t->n; i++) {
        if (fn(user, &t->m[i])) {
            break;
        }
    }
    free(t);
    return s;
}

/* A posting list being read: chunks of varint(count), varint(first id), count - 1 varint deltas,
 * one chunk per import batch; decoded within the blob, with unsigned arithmetic (a damaged blob
 * gives wrong ids, never a read outside it). */
typedef struct cursor {
    const unsigned char *p;
    size_t n, i;
    uint64_t left; /* ids left in the chunk */
    uint64_t id;
} cursor;

static uint64_t varint(cursor *c) {
    uint64_t d = 0;
    for (unsigned shift = 0; c->i < c->n && shift < 64; shift += 7) {
        unsigned char b = c->p[c->i++];
        d |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            break;
        }
    }
    return d;
}

/* The next id into c->id; 0 at the end of the list. */
static int cursor_next(cursor *c) {
    if (c->i >= c->n) {
        return 0;
    }
    if (c->left == 0) {
        uint64_t count = varint(c);
        if (count == 0 || c->i >= c->n) {
            c->i = c->n;
            return 0;
        }
        c->id = varint(c);
        c->left = count - 1;
        return 1;
    }
    c->id += varint(c);
    c->left--;
    return 1;
}

/* The postings of a position's rows (one a move), merged in id order; 1 when fn stopped. */
static int merge_postings(cursor *c, size_t k, int (*fn)(void *user, int64_t id), void *user) {
    size_t live = 0;
    for (size_t r = 0; r < k; r++) {
        if (cursor_next(&c[r])) {
            c[live++] = c[r];
        }
    }
    while (live > 0) {
        size_t m = 0;
        for (size_t r = 1; r < live; r++) {
            m = c[r].id < c[m].id ? r : m;
        }
        if (fn(user, (int64_t)c[m].id)) {
            return 1;
        }
        if (!cursor_next(&c[m])) {
            c[m] = c[--live];
        }
    }
    return 0;
}

/* The rows' blobs of the position, copied into one buffer, with a cursor each. */
typedef struct postings {
    unsigned char *buf;
    size_t len, cap;
    cursor c[2 * DB_MAX_ROWS];
    size_t k;
} postings;

static int postings_add(postings *ps, const unsigned char *p, size_t n) {
    if (ps->k == 2 * DB_MAX_ROWS) {
        return 0; /* a damaged file: more rows than moves */
    }
    if (ps->len + n > ps->cap) {
        void *b = ps->buf;
        if (!pgnk_grow(NULL, &b, &ps->cap, ps->len + n, 1, 4096)) {
            return -1;
        }
        ps->buf = b;
    }
    if (n > 0) {
        memcpy(ps->buf + ps->len, p, n);
    }
    ps->c[ps->k].i = ps->len; /* made pointers once the buffer stops moving */
    ps->c[ps->k++].n = n;
    ps->len += n;
    return 0;
}

pgn_status pgn_db_games_at(pgn_db *db, const pgn_pos *pos, int (*fn)(void *user, int64_t id),
                           void *user, char *msg, size_t cap) {
    return pgnk_db_games_at_key(db, pos->key, fn, user, msg, cap);
}

/* The ids of a position's one-game entries being gathered. */
typedef struct idlist {
    uint64_t *id;
    size_t n, cap;
    int nomem;
} idlist;

static int on_single_id(void *user, pgn_move mv, int64_t id) {
    idlist *l = user;
    (void)mv;
    if (l->n == l->cap) {
        void *p = l->id;
        if (!pgnk_grow(NULL, &p, &l->cap, l->n + 1, sizeof *l->id, 64)) {
            l->nomem = 1;
            return 1;
        }
        l->id = p;
    }
    l->id[l->n++] = (uint64_t)id;
    return 0;
}

static int cmp_id(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The ids of l, sorted, as one posting chunk of ps; -1 when out of memory. */
static int postings_add_ids(postings *ps, idlist *l) {
    if (l->n == 0) {
        return 0;
    }
    qsort(l->id, l->n, sizeof *l->id, cmp_id);
    unsigned char *b = malloc(10 * (l->n + 1));
    if (b == NULL) {
        return -1;
    }
    size_t n = 0;
    for (size_t i = 0; i <= l->n; i++) {
        uint64_t v = i == 0 ? l->n : i == 1 ? l->id[0] : l->id[i - 1] - l->id[i - 2];
        for (; v >= 0x80; v >>= 7) {
            b[n++] = (unsigned char)(v | 0x80);
        }
        b[n++] = (unsigned char)v;
    }
    int r = postings_add(ps, b, n);
    free(b);
    return r;
}

pgn_status pgnk_db_games_at_key(pgn_db *db, uint64_t key, int (*fn)(void *user, int64_t id),
                                void *user, char *msg, size_t cap) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->sql, "SELECT ids FROM explore WHERE key = ?1", -1, &st, NULL) !=
        SQLITE_OK) {
        return pgnk_db_fail(db, "positions", msg, cap);
    }
    sqlite3_bind_int64(st, 1, (sqlite3_int64)key);
    postings *ps = calloc(1, sizeof *ps);
    int rc = ps == NULL ? SQLITE_NOMEM : SQLITE_ROW;
    while (rc == SQLITE_ROW && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (postings_add(ps, sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0))) {
            rc = SQLITE_NOMEM;
        }
    }
    pgn_status s = PGN_OK;
    idlist l = {NULL, 0, 0, 0};
    if (rc == SQLITE_DONE) {
        s = pgnk_db_singles_at(db, key, on_single_id, &l, msg, cap);
        rc = l.nomem || (s == PGN_OK && postings_add_ids(ps, &l)) ? SQLITE_NOMEM : rc;
    }
    free(l.id);
    if (s != PGN_OK) {
        /* its message is set */
    } else if (rc == SQLITE_DONE) {
        for (size_t r = 0; r < ps->k; r++) {
            ps->c[r].p = ps->buf + ps->c[r].i;
            ps->c[r].i = 0;
        }
        merge_postings(ps->c, ps->k, fn, user);
    } else if (rc == SQLITE_NOMEM) {
        put_msg(msg, cap, "positions", "out of memory");
        s = PGN_E_NOMEM;
    } else {
        s = pgnk_db_fail(db, "positions", msg, cap);
    }
    if (ps != NULL) {
        free(ps->buf);
    }
    free(ps);
    sqlite3_finalize(st);
    return s;
}

pgn_status pgn_db_games(pgn_db *db, int64_t first, int (*fn)(void *user, int64_t id, pgn_str raw),
                        void *user, char *msg, size_t cap) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->sql,
                           "SELECT id, block, start, length FROM games WHERE id >= ? ORDER BY id",
                           -1, &st, NULL) != SQLITE_OK) {
        return pgnk_db_fail(db, "games", msg, cap);
    }
    sqlite3_bind_int64(st, 1, first);
    int rc;
    pgn_status s = PGN_OK;
    while (s == PGN_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        pgn_str raw;
        s = pgnk_db_slice(db, sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
                          sqlite3_column_int64(st, 3), &raw, msg, cap);
        if (s == PGN_OK && fn(user, sqlite3_column_int64(st, 0), raw)) {
            rc = SQLITE_DONE;
            break;
        }
    }
    if (s == PGN_OK && rc != SQLITE_DONE) {
        s = pgnk_db_fail(db, "games", msg, cap);
    }
    sqlite3_finalize(st);
    return s;
}

pgn_status pgn_db_game(pgn_db *db, int64_t id, int (*fn)(void *user, int64_t id, pgn_str raw),
                       void *user, char *msg, size_t cap) {
    pgn_str raw;
    pgn_status s = pgnk_db_game_bytes(db, id, &raw, msg, cap);
    if (s == PGN_OK) {
        fn(user, id, raw);
    }
    return s;
}

pgn_status pgn_db_get_stats(pgn_db *db, pgn_db_stats *st, char *msg, size_t cap) {
    memset(st, 0, sizeof *st);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(
            db->sql,
            "SELECT count(*), coalesce(sum(broken), 0), coalesce(sum(result = '1-0'), 0),"
            " coalesce(sum(result = '1/2-1/2'), 0), coalesce(sum(result = '0-1'), 0),"
            " (SELECT count(*) FROM explore),"
            " (SELECT count(*) FROM explore),"
            " (SELECT coalesce(sum(length(ids)), 0) FROM explore) +"
            " (SELECT coalesce(sum(length(data)), 0) FROM singles),"
            " (SELECT value FROM meta WHERE name = 'schema') FROM games",
            -1, &q, NULL) != SQLITE_OK ||
        sqlite3_step(q) != SQLITE_ROW) {
        sqlite3_finalize(q);
        return pgnk_db_fail(db, "stats", msg, cap);
    }
    uint64_t *f[] = {&st->games, &st->broken,        &st->white,         &st->draws,
                     &st->black, &st->explorer_rows, &st->position_keys, &st->position_bytes};
    for (int i = 0; i < 8; i++) {
        *f[i] = (uint64_t)sqlite3_column_int64(q, i);
    }
    st->schema = sqlite3_column_int(q, 8);
    sqlite3_finalize(q);
    uint64_t entries = 0;
    pgn_status s = pgnk_db_index_counts(db, &entries, &st->position_keys, msg, cap);
    st->explorer_rows += entries;
    return s;
}

pgn_status pgn_db_check(pgn_db *db, char *msg, size_t cap) {
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(db->sql, "PRAGMA integrity_check", -1, &q, NULL) != SQLITE_OK) {
        return pgnk_db_fail(db, "check", msg, cap);
    }
    pgn_status s = PGN_OK;
    int rc = sqlite3_step(q);
    if (rc != SQLITE_ROW) {
        s = pgnk_db_fail(db, "check", msg, cap);
    } else {
        const char *r = (const char *)sqlite3_column_text(q, 0);
        if (r == NULL || strcmp(r, "ok") != 0) {
            put_msg(msg, cap, "integrity check", r != NULL ? r : "no answer");
            s = PGN_E_IO;
        }
    }
    sqlite3_finalize(q);
    return s;
}
