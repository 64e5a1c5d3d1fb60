/* SPDX-License-Identifier: MIT */
/* The position index's one-game entries (schema 4, issue 30): a (position, move) that one game of
 * an import batch played is no row of its own but an entry of a run, the batch's entries sorted by
 * key and packed into one blob per 16-bit key prefix (table singles: prefix, batch, n, data). An
 * entry: the key's low 48 bits and the move, 8 bytes little-endian, then varint(game - batch).
 * Readers decode within the blob (a damaged blob gives wrong entries, never a read outside it). */
#include "db_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOW_MASK ((UINT64_C(1) << 48) - 1)

size_t pgnk_single_put(uint8_t *out, uint64_t key, pgn_move mv, uint64_t delta) {
    uint64_t v = (key & LOW_MASK) | ((uint64_t)mv << 48);
    size_t n = 0;
    for (int i = 0; i < 8; i++) {
        out[n++] = (uint8_t)(v >> (8 * i));
    }
    while (delta >= 0x80) {
        out[n++] = (uint8_t)(delta | 0x80);
        delta >>= 7;
    }
    out[n++] = (uint8_t)delta;
    return n;
}

/* The entry at p[*i] (of n bytes): 0 at the end or in a damaged tail. */
static int single_get(const unsigned char *p, size_t n, size_t *i, uint64_t *low, pgn_move *mv,
                      uint64_t *delta) {
    if (n < 9 || *i > n - 9) {
        return 0;
    }
    uint64_t v = 0;
    for (int k = 0; k < 8; k++) {
        v |= (uint64_t)p[*i + (size_t)k] << (8 * k);
    }
    *i += 8;
    *low = v & LOW_MASK;
    *mv = (pgn_move)(v >> 48);
    *delta = 0;
    for (unsigned shift = 0; *i < n && shift < 64; shift += 7) {
        unsigned char b = p[(*i)++];
        *delta |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            break;
        }
    }
    return 1;
}

pgn_status pgnk_db_singles_at(pgn_db *db, uint64_t key,
                              int (*fn)(void *user, pgn_move mv, int64_t id), void *user, char *msg,
                              size_t cap) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->sql, "SELECT batch, data FROM singles WHERE prefix = ?", -1, &st,
                           NULL) != SQLITE_OK) {
        return pgnk_db_fail(db, "positions", msg, cap);
    }
    sqlite3_bind_int64(st, 1, (sqlite3_int64)(key >> 48));
    int rc, stop = 0;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        uint64_t batch = (uint64_t)sqlite3_column_int64(st, 0), low, delta;
        const unsigned char *p = sqlite3_column_blob(st, 1);
        size_t n = (size_t)sqlite3_column_bytes(st, 1), i = 0;
        pgn_move mv;
        while (!stop && p != NULL && single_get(p, n, &i, &low, &mv, &delta) &&
               low <= (key & LOW_MASK)) {
            if (low == (key & LOW_MASK)) {
                stop = fn(user, mv, (int64_t)(batch + delta));
            }
        }
    }
    pgn_status s = stop || rc == SQLITE_DONE ? PGN_OK : pgnk_db_fail(db, "positions", msg, cap);
    sqlite3_finalize(st);
    return s;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The distinct keys among k[0..n); sorts k. */
static uint64_t distinct(uint64_t *k, size_t n) {
    if (n == 0) {
        return 0;
    }
    qsort(k, n, sizeof *k, cmp_u64);
    uint64_t d = 1;
    for (size_t i = 1; i < n; i++) {
        d += k[i] != k[i - 1];
    }
    return d;
}

typedef struct keyset {
    uint64_t *k;
    size_t n, cap;
} keyset;

static int keyset_add(keyset *ks, uint64_t key) {
    if (ks->n == ks->cap) {
        void *k = ks->k;
        if (!pgnk_grow(NULL, &k, &ks->cap, ks->n + 1, sizeof *ks->k, 1024)) {
            return -1;
        }
        ks->k = k;
    }
    ks->k[ks->n++] = key;
    return 0;
}

/* The keys of one prefix: explore's rows (ORDER BY key, from *row on) and the singles' entries
 * (the rows of st for the prefix); their count into *keys; -1 when out of memory. */
static int prefix_keys(sqlite3_stmt *ex, int *exrc, sqlite3_stmt *sg, uint64_t prefix, keyset *ks,
                       uint64_t *entries) {
    ks->n = 0;
    while (*exrc == SQLITE_ROW && (uint64_t)sqlite3_column_int64(ex, 0) >> 48 == prefix) {
        if (keyset_add(ks, (uint64_t)sqlite3_column_int64(ex, 0))) {
            return -1;
        }
        *exrc = sqlite3_step(ex);
    }
    sqlite3_bind_int64(sg, 1, (sqlite3_int64)prefix);
    while (sqlite3_step(sg) == SQLITE_ROW) {
        const unsigned char *p = sqlite3_column_blob(sg, 0);
        size_t n = (size_t)sqlite3_column_bytes(sg, 0), i = 0;
        uint64_t low, delta;
        pgn_move mv;
        while (p != NULL && single_get(p, n, &i, &low, &mv, &delta)) {
            (*entries)++;
            if (keyset_add(ks, prefix << 48 | low)) {
                sqlite3_reset(sg);
                return -1;
            }
        }
    }
    sqlite3_reset(sg);
    return 0;
}

pgn_status pgnk_db_index_counts(pgn_db *db, uint64_t *entries, uint64_t *keys, char *msg,
                                size_t cap) {
    sqlite3_stmt *ex = NULL, *sg = NULL, *pf = NULL;
    *entries = *keys = 0;
    /* explore's keys in unsigned order: the prefixes 0x8000.. are the negative integers */
    if (sqlite3_prepare_v2(db->sql,
                           "SELECT key FROM explore WHERE key >= 0 UNION ALL"
                           " SELECT key FROM explore WHERE key < 0",
                           -1, &ex, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db->sql, "SELECT data FROM singles WHERE prefix = ?", -1, &sg, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(db->sql, "SELECT DISTINCT prefix FROM singles ORDER BY prefix", -1, &pf,
                           NULL) != SQLITE_OK) {
        sqlite3_finalize(ex);
        sqlite3_finalize(sg);
        return pgnk_db_fail(db, "stats", msg, cap);
    }
    keyset ks = {NULL, 0, 0};
    int exrc = sqlite3_step(ex), pfrc = sqlite3_step(pf), bad = 0;
    while (!bad && (exrc == SQLITE_ROW || pfrc == SQLITE_ROW)) {
        uint64_t a = exrc == SQLITE_ROW ? (uint64_t)sqlite3_column_int64(ex, 0) >> 48 : UINT64_MAX;
        uint64_t b = pfrc == SQLITE_ROW ? (uint64_t)sqlite3_column_int64(pf, 0) : UINT64_MAX;
        uint64_t prefix = a < b ? a : b;
        bad = prefix_keys(ex, &exrc, sg, prefix, &ks, entries);
        *keys += distinct(ks.k, ks.n);
        if (b == prefix) {
            pfrc = sqlite3_step(pf);
        }
    }
    free(ks.k);
    sqlite3_finalize(ex);
    sqlite3_finalize(sg);
    sqlite3_finalize(pf);
    if (bad) {
        if (msg != NULL && cap > 0) {
            snprintf(msg, cap, "stats: out of memory");
        }
        return PGN_E_NOMEM;
    }
    return PGN_OK;
}
