/* SPDX-License-Identifier: MIT */
/* The position index's entries (schema 5, issue 30): a (position, move) that at most a few games of
 * an import batch played is no row of explore but one entry a game, the batch's entries sorted by
 * key and packed into one blob per 16-bit key prefix (table singles: id = batch << 16 | prefix, n,
 * data). A blob: a byte k, a byte w, then the n entries as a bit stream (least significant bit
 * first), each a flag bit, then: 0, a new key: its low 48 bits as the Rice code of the difference
 * to the previous entry's (parameter k: the quotient in unary, ones ended by a zero, then k bits)
 * and the move in 16 bits; 1, the key before: 1 and the same move, or 0 and the move in 16 bits;
 * then game - batch in w bits. Readers decode within the blob (a damaged blob gives wrong entries,
 * never a read outside it). */
#include "db_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOW_MASK ((UINT64_C(1) << 48) - 1)

/* The bits a value needs (0 for 0). */
static unsigned width(uint64_t v) {
    unsigned w = 0;
    while (v != 0) {
        w++;
        v >>= 1;
    }
    return w;
}

typedef struct bitw {
    uint8_t *p;
    size_t n;     /* bytes written */
    uint64_t acc; /* bits not yet written, nacc of them (fewer than 8 between calls) */
    unsigned nacc;
} bitw;

/* Appends the low w (<= 48) bits of v. */
static void put_bits(bitw *b, uint64_t v, unsigned w) {
    b->acc |= (v & ((UINT64_C(1) << w) - 1)) << b->nacc;
    b->nacc += w;
    while (b->nacc >= 8) {
        b->p[b->n++] = (uint8_t)b->acc;
        b->acc >>= 8;
        b->nacc -= 8;
    }
}

int pgnk_singles_pack(uint8_t **buf, size_t *cap, size_t *len, const pgnk_single *e, size_t n) {
    uint64_t maxd = 0;
    for (size_t i = 0; i < n; i++) {
        maxd = e[i].delta > maxd ? e[i].delta : maxd;
    }
    uint64_t mean = n == 0 ? 0 : (e[n - 1].key & LOW_MASK) / n;
    unsigned k = mean == 0 ? 0 : width(mean) - 1, w = width(maxd);
    uint64_t prev = 0, bits = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t low = e[i].key & LOW_MASK, d = low - prev;
        if (i > 0 && d == 0) {
            bits += e[i].move == e[i - 1].move ? 2 + w : 2 + 16 + w;
        } else {
            bits += 1 + (d >> k) + 1 + k + 16 + w;
        }
        prev = low;
    }
    size_t need = 2 + (size_t)((bits + 7) / 8);
    if (need > *cap) {
        void *b = *buf;
        if (!pgnk_grow(NULL, &b, cap, need, 1, 4096)) {
            return -1;
        }
        *buf = b;
    }
    (*buf)[0] = (uint8_t)k;
    (*buf)[1] = (uint8_t)w;
    bitw b = {*buf + 2, 0, 0, 0};
    prev = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t low = e[i].key & LOW_MASK, d = low - prev;
        prev = low;
        if (i > 0 && d == 0) {
            put_bits(&b, 1, 1);
            put_bits(&b, e[i].move == e[i - 1].move, 1);
            if (e[i].move != e[i - 1].move) {
                put_bits(&b, e[i].move, 16);
            }
            put_bits(&b, e[i].delta, w);
            continue;
        }
        put_bits(&b, 0, 1);
        for (uint64_t q = d >> k; q > 0; q -= q > 32 ? 32 : q) {
            put_bits(&b, UINT64_MAX, q > 32 ? 32 : (unsigned)q);
        }
        put_bits(&b, 0, 1);
        put_bits(&b, d, k);
        put_bits(&b, e[i].move, 16);
        put_bits(&b, e[i].delta, w);
    }
    if (b.nacc > 0) {
        b.p[b.n++] = (uint8_t)b.acc;
    }
    *len = need;
    return 0;
}

/* Reading a blob's bit stream. */
typedef struct bitr {
    const unsigned char *p;
    size_t nbits, at;
    unsigned k, w;
    uint64_t low;  /* the last entry's key bits */
    pgn_move move; /* and move */
    int any;       /* an entry was read */
} bitr;

/* The next w (<= 48) bits into *v; 0 past the end. */
static int get_bits(bitr *r, unsigned w, uint64_t *v) {
    if (w > r->nbits - r->at) {
        return 0;
    }
    size_t byte = r->at >> 3;
    unsigned sh = (unsigned)(r->at & 7), got = 0;
    uint64_t x = 0;
    while (got < w + sh) {
        x |= (uint64_t)r->p[byte++] << got;
        got += 8;
    }
    *v = w == 0 ? 0 : (x >> sh) & ((UINT64_C(1) << w) - 1);
    r->at += w;
    return 1;
}

/* r over the blob p[0..n); 0 when its header is not one a writer makes. */
static int bitr_init(bitr *r, const unsigned char *p, size_t n) {
    if (p == NULL || n < 2 || p[0] > 47 || p[1] > 40) {
        return 0;
    }
    r->p = p + 2;
    r->nbits = (n - 2) * 8;
    r->at = 0;
    r->k = p[0];
    r->w = p[1];
    r->low = 0;
    r->move = PGN_MOVE_NONE;
    r->any = 0;
    return 1;
}

/* The next entry: 0 at the end of the stream or in a damaged tail. */
static int single_get(bitr *r, uint64_t *low, pgn_move *mv, uint64_t *delta) {
    uint64_t same, q = 0, bit = 1, rem, m;
    if (!get_bits(r, 1, &same)) {
        return 0;
    }
    if (same) {
        /* the key of the entry before; the same move, or another */
        if (!r->any || !get_bits(r, 1, &same) || (!same && !get_bits(r, 16, &m)) ||
            !get_bits(r, r->w, delta)) {
            return 0;
        }
        r->move = same ? r->move : (pgn_move)m;
        *low = r->low;
        *mv = r->move;
        return 1;
    }
    while (get_bits(r, 1, &bit) && bit == 1) {
        q++;
    }
    if (bit != 0 || q > (LOW_MASK >> r->k) || !get_bits(r, r->k, &rem) || !get_bits(r, 16, &m) ||
        !get_bits(r, r->w, delta)) {
        return 0;
    }
    uint64_t d = q << r->k | rem;
    if (d > LOW_MASK - r->low) {
        return 0;
    }
    r->low += d;
    r->move = (pgn_move)m;
    r->any = 1;
    *low = r->low;
    *mv = r->move;
    return 1;
}

/* The rows of singles of key prefix prefix, one per batch that has one, in batch order: st (SELECT
 * id, n, data FROM singles WHERE id >= ? ORDER BY id LIMIT 1) seeks the next row from id lo on,
 * ids being batch << 16 | prefix; row() for each (nonzero: stop). SQLite's code, SQLITE_DONE at
 * the end. */
static int prefix_rows(sqlite3_stmt *st, uint64_t prefix,
                       int (*row)(void *u, uint64_t batch, bitr *r, int64_t n), void *u) {
    uint64_t lo = prefix;
    int rc;
    for (;;) {
        sqlite3_bind_int64(st, 1, (sqlite3_int64)lo);
        if ((rc = sqlite3_step(st)) != SQLITE_ROW) {
            break;
        }
        uint64_t id = (uint64_t)sqlite3_column_int64(st, 0), batch = id >> 16;
        if ((id & 0xffff) == prefix) {
            bitr r;
            int64_t n = sqlite3_column_int64(st, 1);
            if (bitr_init(&r, sqlite3_column_blob(st, 2), (size_t)sqlite3_column_bytes(st, 2)) &&
                row(u, batch, &r, n)) {
                rc = SQLITE_DONE;
                break;
            }
        }
        sqlite3_reset(st);
        if (batch >= (UINT64_C(1) << 46)) {
            break; /* the last batch id can have (a damaged id otherwise) */
        }
        lo = ((id & 0xffff) < prefix ? batch : batch + 1) << 16 | prefix;
    }
    sqlite3_reset(st);
    return rc;
}

static pgn_status prepare_rows(pgn_db *db, sqlite3_stmt **st, const char *what, char *msg,
                               size_t cap) {
    if (sqlite3_prepare_v2(db->sql,
                           "SELECT id, n, data FROM singles WHERE id >= ? ORDER BY id LIMIT 1", -1,
                           st, NULL) != SQLITE_OK) {
        return pgnk_db_fail(db, what, msg, cap);
    }
    return PGN_OK;
}

typedef struct at_key {
    uint64_t low;
    int (*fn)(void *user, pgn_move mv, int64_t id);
    void *user;
} at_key;

static int row_at_key(void *u, uint64_t batch, bitr *r, int64_t n) {
    const at_key *a = u;
    uint64_t low, delta;
    pgn_move mv;
    while (n-- > 0 && single_get(r, &low, &mv, &delta) && low <= a->low) {
        if (low == a->low && a->fn(a->user, mv, (int64_t)(batch + delta))) {
            return 1;
        }
    }
    return 0;
}

pgn_status pgnk_db_singles_at(pgn_db *db, uint64_t key,
                              int (*fn)(void *user, pgn_move mv, int64_t id), void *user, char *msg,
                              size_t cap) {
    sqlite3_stmt *st = NULL;
    pgn_status s = prepare_rows(db, &st, "positions", msg, cap);
    if (s != PGN_OK) {
        return s;
    }
    at_key a = {key & LOW_MASK, fn, user};
    if (prefix_rows(st, key >> 48, row_at_key, &a) != SQLITE_DONE) {
        s = pgnk_db_fail(db, "positions", msg, cap);
    }
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

typedef struct count_row {
    keyset *ks;
    uint64_t prefix, *entries;
    int nomem;
} count_row;

static int row_keys(void *u, uint64_t batch, bitr *r, int64_t n) {
    count_row *c = u;
    uint64_t low, delta;
    pgn_move mv;
    (void)batch;
    for (int64_t i = 0; i < n; i++) {
        uint64_t plow = r->low;
        pgn_move pmv = r->move;
        if (!single_get(r, &low, &mv, &delta)) {
            break;
        }
        if (i > 0 && low == plow && mv == pmv) {
            continue; /* another game of the same (position, move): one row of the explorer */
        }
        (*c->entries)++;
        if (keyset_add(c->ks, c->prefix << 48 | low)) {
            c->nomem = 1;
            return 1;
        }
    }
    return 0;
}

/* One cursor per import batch over its rows of singles, in id order (so in prefix order). */
typedef struct cursors {
    sqlite3_stmt **st;
    int *rc;
    size_t n, cap_st, cap_rc;
} cursors;

static void cursors_free(cursors *c) {
    for (size_t i = 0; i < c->n; i++) {
        sqlite3_finalize(c->st[i]);
    }
    free(c->st);
    free(c->rc);
}

/* The batches found with two seeks each; PGN_OK, PGN_E_NOMEM, or SQLite's failure. */
static pgn_status cursors_open(pgn_db *db, cursors *c, char *msg, size_t cap) {
    sqlite3_stmt *seek = NULL;
    if (sqlite3_prepare_v2(db->sql, "SELECT id FROM singles WHERE id >= ? ORDER BY id LIMIT 1", -1,
                           &seek, NULL) != SQLITE_OK) {
        return pgnk_db_fail(db, "stats", msg, cap);
    }
    pgn_status s = PGN_OK;
    int rc;
    sqlite3_bind_int64(seek, 1, 0);
    while (s == PGN_OK && (rc = sqlite3_step(seek)) == SQLITE_ROW) {
        uint64_t batch = (uint64_t)sqlite3_column_int64(seek, 0) >> 16;
        void *a = c->st, *b = c->rc;
        int grown = pgnk_grow(NULL, &a, &c->cap_st, c->n + 1, sizeof *c->st, 16);
        c->st = a;
        if (!grown || !pgnk_grow(NULL, &b, &c->cap_rc, c->n + 1, sizeof *c->rc, 16)) {
            if (msg != NULL && cap > 0) {
                snprintf(msg, cap, "stats: out of memory");
            }
            s = PGN_E_NOMEM;
            break;
        }
        c->rc = b;
        sqlite3_stmt **st = &c->st[c->n];
        if (sqlite3_prepare_v2(db->sql,
                               "SELECT id, n, data FROM singles WHERE id >= ? AND id < ?"
                               " ORDER BY id",
                               -1, st, NULL) != SQLITE_OK) {
            s = pgnk_db_fail(db, "stats", msg, cap);
            break;
        }
        sqlite3_bind_int64(*st, 1, (sqlite3_int64)(batch << 16));
        sqlite3_bind_int64(*st, 2, (sqlite3_int64)((batch + 1) << 16));
        c->rc[c->n++] = sqlite3_step(*st);
        sqlite3_reset(seek);
        if (batch >= (UINT64_C(1) << 46)) {
            break;
        }
        sqlite3_bind_int64(seek, 1, (sqlite3_int64)((batch + 1) << 16));
    }
    if (s == PGN_OK && rc != SQLITE_ROW && rc != SQLITE_DONE) {
        s = pgnk_db_fail(db, "stats", msg, cap);
    }
    sqlite3_finalize(seek);
    return s;
}

/* The keys of one prefix: explore's rows (ORDER BY key, from *row on) and the singles' entries
 * (the cursors' rows of the prefix) into ks; 1 when out of memory, -1 when SQLite failed. */
static int prefix_keys(sqlite3_stmt *ex, int *exrc, cursors *cs, uint64_t prefix, keyset *ks,
                       uint64_t *entries) {
    ks->n = 0;
    while (*exrc == SQLITE_ROW && (uint64_t)sqlite3_column_int64(ex, 0) >> 48 == prefix) {
        if (keyset_add(ks, (uint64_t)sqlite3_column_int64(ex, 0))) {
            return 1;
        }
        *exrc = sqlite3_step(ex);
    }
    count_row c = {ks, prefix, entries, 0};
    for (size_t i = 0; i < cs->n; i++) {
        sqlite3_stmt *st = cs->st[i];
        while (cs->rc[i] == SQLITE_ROW &&
               ((uint64_t)sqlite3_column_int64(st, 0) & 0xffff) <= prefix) {
            bitr r;
            if (bitr_init(&r, sqlite3_column_blob(st, 2), (size_t)sqlite3_column_bytes(st, 2)) &&
                row_keys(&c, 0, &r, sqlite3_column_int64(st, 1))) {
                return 1;
            }
            cs->rc[i] = sqlite3_step(st);
        }
        if (cs->rc[i] != SQLITE_ROW && cs->rc[i] != SQLITE_DONE) {
            return -1;
        }
    }
    return 0;
}

pgn_status pgnk_db_index_counts(pgn_db *db, uint64_t *entries, uint64_t *keys, char *msg,
                                size_t cap) {
    sqlite3_stmt *ex = NULL;
    *entries = *keys = 0;
    /* explore's keys in unsigned order: the prefixes 0x8000.. are the negative integers */
    if (sqlite3_prepare_v2(db->sql,
                           "SELECT key FROM explore WHERE key >= 0 UNION ALL"
                           " SELECT key FROM explore WHERE key < 0",
                           -1, &ex, NULL) != SQLITE_OK) {
        return pgnk_db_fail(db, "stats", msg, cap);
    }
    cursors cs = {NULL, NULL, 0, 0, 0};
    pgn_status s = cursors_open(db, &cs, msg, cap);
    keyset ks = {NULL, 0, 0};
    int exrc = sqlite3_step(ex), bad = 0;
    for (uint64_t prefix = 0; s == PGN_OK && !bad && prefix <= 0xffff; prefix++) {
        bad = prefix_keys(ex, &exrc, &cs, prefix, &ks, entries);
        *keys += distinct(ks.k, ks.n);
    }
    free(ks.k);
    if (s != PGN_OK) {
        /* its message is set */
    } else if (bad < 0 || (exrc != SQLITE_ROW && exrc != SQLITE_DONE)) {
        s = pgnk_db_fail(db, "stats", msg, cap);
    } else if (bad) {
        if (msg != NULL && cap > 0) {
            snprintf(msg, cap, "stats: out of memory");
        }
        s = PGN_E_NOMEM;
    }
    sqlite3_finalize(ex);
    cursors_free(&cs);
    return s;
}
