/* SPDX-License-Identifier: MIT */
/* The position index's entries (schema 6, issue 30): a (position, move) that at most a few games of
 * an import batch played is no row of explore but one entry a game, the batch's entries sorted by
 * key and packed into one blob per key prefix (the top 64 - PGNK_SINGLES_SHIFT bits; table singles:
 * id = batch << 16 | prefix, n, data). An entry keeps a fingerprint of the position (the key's bits
 * FP_SHIFT up to the prefix) and the game, not the key and move: a game the fingerprint names is
 * replayed from its stored bytes, which gives the move it played at the position, or shows that it
 * never reached it (a false match: one entry of the row in 2^12). A blob: a byte k, a byte w, then
 * the n entries as a bit stream (least significant bit first), each a flag bit, then: 0, a new
 * fingerprint as the Rice code of the difference to the previous entry's (parameter k: the
 * quotient in unary, ones ended by a zero, then k bits); 1, the fingerprint before; then game -
 * batch in w bits. Readers decode within the blob (a damaged blob gives wrong entries, never a
 * read outside it). */
#include "db_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fingerprint: the key's bits FP_SHIFT..49 (its top 14 are the row's prefix) */
#ifndef FP_SHIFT
#define FP_SHIFT 38
#endif
#define FP_MASK ((UINT64_C(1) << (PGNK_SINGLES_SHIFT - FP_SHIFT)) - 1)

static uint64_t fp_of(uint64_t key) {
    return key >> FP_SHIFT & FP_MASK;
}

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

/* Appends the low w (<= 56) bits of v: the whole bytes stored at once, as 8 bytes little-endian
 * (the buffer has 8 bytes of room past the blob; the bytes past the ones done are written
 * again by the next call). */
static void put_bits(bitw *b, uint64_t v, unsigned w) {
    b->acc |= (v & ((UINT64_C(1) << w) - 1)) << b->nacc;
    b->nacc += w;
    for (unsigned i = 0; i < 8; i++) {
        b->p[b->n + i] = (uint8_t)(b->acc >> (8 * i));
    }
    unsigned bytes = b->nacc >> 3; /* at most 7: nacc < 8 + 56 */
    b->n += bytes;
    b->acc >>= 8 * bytes;
    b->nacc &= 7;
}

/* The varint of v at p; its bytes. */
static size_t put_varint(uint8_t *p, uint64_t v) {
    size_t n = 0;
    for (; v >= 0x80; v >>= 7) {
        p[n++] = (uint8_t)(v | 0x80);
    }
    p[n++] = (uint8_t)v;
    return n;
}

int pgnk_singles_pack(uint8_t **buf, size_t *cap, size_t *len, const pgnk_single *e, size_t n,
                      uint64_t span) {
    uint64_t maxd = 0;
    for (size_t i = 0; i < n; i++) {
        maxd = e[i].delta > maxd ? e[i].delta : maxd;
    }
    uint64_t mean = n == 0 ? 0 : fp_of(e[n - 1].key) / n;
    unsigned k = mean == 0 ? 0 : width(mean) - 1, w = width(maxd);
    uint64_t prev = 0, bits = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t f = fp_of(e[i].key), d = f - prev;
        bits += i > 0 && d == 0 ? 1 + w : 1 + (d >> k) + 1 + k + w;
        prev = f;
    }
    uint8_t head[12];
    size_t hn = put_varint(head, span);
    size_t need = 2 + hn + (size_t)((bits + 7) / 8);
    if (need + 8 > *cap) { /* (put_bits's room) */
        void *b = *buf;
        if (!pgnk_grow(NULL, &b, cap, need + 8, 1, 4096)) {
            return -1;
        }
        *buf = b;
    }
    (*buf)[0] = (uint8_t)k;
    (*buf)[1] = (uint8_t)w;
    memcpy(*buf + 2, head, hn);
    bitw b = {*buf + 2 + hn, 0, 0, 0};
    prev = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t f = fp_of(e[i].key), d = f - prev;
        prev = f;
        uint64_t q = d >> k;
        if (i > 0 && d == 0) {
            put_bits(&b, 1 | e[i].delta << 1, 1 + w);
            continue;
        }
        if (q + 2 + k + w <= 56) { /* the common entry in one call: flag 0, q ones, 0, k, game */
            uint64_t code = ((UINT64_C(1) << q) - 1) << 1 | (d & ((UINT64_C(1) << k) - 1))
                                                                << (q + 2);
            put_bits(&b, code | e[i].delta << (q + 2 + k), (unsigned)(q + 2 + k + w));
        } else {
            put_bits(&b, 0, 1);
            for (; q > 0; q -= q > 32 ? 32 : q) {
                put_bits(&b, UINT64_MAX, q > 32 ? 32 : (unsigned)q);
            }
            put_bits(&b, 0, 1);
            put_bits(&b, d, k);
            put_bits(&b, e[i].delta, w);
        }
    }
    if (b.nacc > 0) {
        b.p[b.n++] = (uint8_t)b.acc;
    }
    *len = need;
    return 0;
}

static uint64_t varint_at(const unsigned char *p, size_t n, size_t *i) {
    uint64_t v = 0;
    for (unsigned shift = 0; *i < n && shift < 64; shift += 7) {
        unsigned char b = p[(*i)++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            break;
        }
    }
    return v;
}

/* Reading a blob's bit stream. */
typedef struct bitr {
    const unsigned char *p;
    size_t nbits, at;
    unsigned k, w;
    uint64_t span; /* the batch's ids: [batch, batch + span) */
    uint64_t fp;   /* the last entry's fingerprint */
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
    if (p == NULL || n < 3 || p[0] > PGNK_SINGLES_SHIFT - FP_SHIFT || p[1] > 40) {
        return 0;
    }
    size_t i = 2;
    r->span = varint_at(p, n, &i);
    r->p = p + i;
    r->nbits = (n - i) * 8;
    r->at = 0;
    r->k = p[0];
    r->w = p[1];
    r->fp = 0;
    r->any = 0;
    return 1;
}

/* The next entry (*same: its fingerprint is the one before); 0 at the end of the stream or in a
 * damaged tail. */
static int single_get(bitr *r, uint64_t *fp, int *same, uint64_t *delta) {
    uint64_t flag, q = 0, bit = 1, rem;
    if (!get_bits(r, 1, &flag)) {
        return 0;
    }
    if (flag) {
        if (!r->any || !get_bits(r, r->w, delta)) {
            return 0;
        }
        *fp = r->fp;
        *same = 1;
        return 1;
    }
    while (get_bits(r, 1, &bit) && bit == 1) {
        q++;
    }
    if (bit != 0 || q > (FP_MASK >> r->k) || !get_bits(r, r->k, &rem) ||
        !get_bits(r, r->w, delta)) {
        return 0;
    }
    uint64_t d = q << r->k | rem;
    if (d > FP_MASK - r->fp) {
        return 0;
    }
    r->fp += d;
    r->any = 1;
    *fp = r->fp;
    *same = 0;
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
        uint64_t next = ((id & 0xffff) < prefix ? batch : batch + 1) << 16 | prefix;
        if (batch >= (UINT64_C(1) << 46) || next <= lo) {
            break; /* the last batch id can have, or a damaged table (a row before the one asked
                    * for: a walk that would not end; db check names the damage) */
        }
        lo = next;
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

/* A chunk of a posting list of explore (one import batch's games of a row): its first id and its
 * games. */
typedef struct chunk {
    uint64_t first, count;
} chunk;

/* The games of the entries whose fingerprint is the position's, and (read when a row has such
 * an entry) the chunks of the position's rows of explore. */
typedef struct at_key {
    pgn_db *db;
    uint64_t key, fp;
    int64_t *id;
    size_t n, cap;
    chunk *ch;
    size_t nch, chcap;
    int loaded, nomem, failed; /* failed: SQLite's */
} at_key;

/* The chunk [first, count) appended to a->ch; 0, or 1 when out of memory. */
static int add_chunk(at_key *a, uint64_t first, uint64_t count) {
    if (a->nch == a->chcap) {
        void *p = a->ch;
        if (!pgnk_grow(NULL, &p, &a->chcap, a->nch + 1, sizeof *a->ch, 16)) {
            a->nomem = 1;
            return 1;
        }
        a->ch = p;
    }
    a->ch[a->nch].first = first;
    a->ch[a->nch++].count = count;
    return 0;
}

/* The chunks of the position's rows of explore into a->ch; 0, or 1 (nomem or failed set). */
static int load_chunks(at_key *a) {
    sqlite3_stmt *st = NULL;
    a->loaded = 1;
    if (sqlite3_prepare_v2(a->db->sql, "SELECT ids FROM explore WHERE key = ?", -1, &st, NULL) !=
        SQLITE_OK) {
        a->failed = 1;
        return 1;
    }
    sqlite3_bind_int64(st, 1, (sqlite3_int64)a->key);
    int rc = SQLITE_DONE;
    while (!a->nomem && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *p = sqlite3_column_blob(st, 0);
        size_t n = (size_t)sqlite3_column_bytes(st, 0), i = 0;
        while (i < n && !a->nomem) {
            uint64_t count = varint_at(p, n, &i), first = varint_at(p, n, &i);
            for (uint64_t c = 1; c < count && i < n; c++) {
                (void)varint_at(p, n, &i);
            }
            add_chunk(a, first, count);
        }
    }
    sqlite3_finalize(st);
    a->failed = !a->nomem && rc != SQLITE_DONE;
    return a->nomem || a->failed;
}

/* 1 when the position is dense in the batch of ids [batch, batch + span): its rows of explore
 * hold PGNK_DENSE_MIN games of the batch or more, so that none of the batch's entries is its. */
static int dense_in(const at_key *a, uint64_t batch, uint64_t span) {
    uint64_t games = 0;
    for (size_t i = 0; i < a->nch; i++) {
        if (a->ch[i].first >= batch && a->ch[i].first - batch < span) {
            games += a->ch[i].count;
        }
    }
    return games >= PGNK_DENSE_MIN;
}

static int row_at_key(void *u, uint64_t batch, bitr *r, int64_t n) {
    at_key *a = u;
    uint64_t fp, delta;
    int same, checked = 0;
    while (n-- > 0 && single_get(r, &fp, &same, &delta) && fp <= a->fp) {
        if (fp != a->fp) {
            continue;
        }
        if (!checked) { /* the first entry of the fingerprint: a false match if it is dense */
            checked = 1;
            if (!a->loaded && load_chunks(a)) {
                return 1;
            }
            if (dense_in(a, batch, r->span)) {
                return 0;
            }
        }
        if (a->n == a->cap) {
            void *p = a->id;
            if (!pgnk_grow(NULL, &p, &a->cap, a->n + 1, sizeof *a->id, 64)) {
                a->nomem = 1;
                return 1;
            }
            a->id = p;
        }
        a->id[a->n++] = (int64_t)(batch + delta);
    }
    return 0;
}

/* A game's main line replayed up to the first position of key key. */
typedef struct finder {
    uint64_t key;
    pgn_move move;
    int indexed, found;
} finder;

static pgn_flow f_end_tags(void *u, const pgn_pos *start) {
    finder *f = u;
    /* as the import: variants are not indexed */
    f->indexed = start != NULL && start->variant == PGN_VARIANT_STANDARD;
    return f->indexed ? PGN_FLOW_CONTINUE : PGN_FLOW_SKIP;
}

static pgn_flow f_move(void *u, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    finder *f = u;
    (void)san;
    (void)at;
    if (before != NULL && before->key == f->key) {
        f->found = 1;
        f->move = mv;
        return PGN_FLOW_SKIP;
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow f_variation(void *u) {
    (void)u;
    return PGN_FLOW_SKIP;
}

static pgn_flow f_end_game(void *u, pgn_result result, const pgn_game_summary *s) {
    finder *f = u;
    (void)result;
    if (!f->found && f->indexed && s->final_pos != NULL && s->final_pos->key == f->key) {
        f->found = 1;
        f->move = PGN_MOVE_NONE; /* the game ended there */
    }
    return PGN_FLOW_CONTINUE;
}

static const pgn_visitor finder_visitor = {
    .end_tags = f_end_tags,
    .move = f_move,
    .begin_variation = f_variation,
    .end_game = f_end_game,
};

/* The move game id played first at the position of key key into *mv: 1, or 0 when its main line
 * never reaches it (or there is no such game); -1 with *s set on a failure. */
static int replay_to(pgn_db *db, int64_t id, uint64_t key, pgn_move *mv, pgn_status *s, char *msg,
                     size_t cap) {
    pgn_str raw;
    *s = pgnk_db_game_bytes(db, id, &raw, msg, cap);
    if (*s != PGN_OK) {
        return *s == PGN_END ? (*s = PGN_OK, 0) : -1;
    }
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    pgn_reader *rd;
    if ((*s = pgn_reader_new_mem(&rd, &ro, raw.len > 0 ? raw.ptr : "", raw.len)) != PGN_OK) {
        return -1;
    }
    finder f = {key, PGN_MOVE_NONE, 0, 0};
    *s = pgn_reader_visit(rd, &finder_visitor, &f);
    pgn_reader_free(rd);
    if (*s == PGN_E_NOMEM) {
        if (msg != NULL && cap > 0) {
            snprintf(msg, cap, "positions: out of memory");
        }
        return -1;
    }
    *s = PGN_OK;
    *mv = f.move;
    return f.found;
}

/* 1 when game id is in the posting list of explore's row (key, mv) (chunks of varint(count),
 * varint(first id), count - 1 varint deltas): a game counts once at a position, and an entry of
 * another position whose fingerprint is this one's may name a game of the row; -1 when SQLite
 * failed. */
static int in_row(sqlite3_stmt *st, uint64_t key, pgn_move mv, int64_t id) {
    sqlite3_bind_int64(st, 1, (sqlite3_int64)key);
    sqlite3_bind_int(st, 2, (int)mv);
    int rc = sqlite3_step(st), found = 0;
    if (rc == SQLITE_ROW) {
        const unsigned char *p = sqlite3_column_blob(st, 0);
        size_t n = (size_t)sqlite3_column_bytes(st, 0), i = 0;
        while (i < n && !found) {
            uint64_t count = varint_at(p, n, &i), cur = varint_at(p, n, &i);
            found = count > 0 && cur == (uint64_t)id;
            for (uint64_t c = 1; c < count && i < n && !found; c++) {
                cur += varint_at(p, n, &i);
                found = cur == (uint64_t)id;
            }
        }
        rc = SQLITE_DONE;
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? found : -1;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

pgn_status pgnk_db_singles_at(pgn_db *db, uint64_t key,
                              int (*fn)(void *user, pgn_move mv, int64_t id), void *user, char *msg,
                              size_t cap) {
    sqlite3_stmt *st = NULL, *row = NULL;
    pgn_status s = prepare_rows(db, &st, "positions", msg, cap);
    if (s != PGN_OK) {
        return s;
    }
    at_key a;
    memset(&a, 0, sizeof a);
    a.db = db;
    a.key = key;
    a.fp = fp_of(key);
    if (prefix_rows(st, key >> PGNK_SINGLES_SHIFT, row_at_key, &a) != SQLITE_DONE && !a.nomem) {
        s = pgnk_db_fail(db, "positions", msg, cap);
    } else if (a.failed) {
        s = pgnk_db_fail(db, "positions", msg, cap);
    } else if (a.nomem) {
        if (msg != NULL && cap > 0) {
            snprintf(msg, cap, "positions: out of memory");
        }
        s = PGN_E_NOMEM;
    } else if (a.n > 0 &&
               sqlite3_prepare_v2(db->sql, "SELECT ids FROM explore WHERE key = ? AND move = ?", -1,
                                  &row, NULL) != SQLITE_OK) {
        s = pgnk_db_fail(db, "positions", msg, cap);
    }
    sqlite3_finalize(st);
    if (a.n > 1) {
        qsort(a.id, a.n, sizeof *a.id, cmp_i64);
    }
    for (size_t i = 0; s == PGN_OK && i < a.n; i++) {
        pgn_move mv;
        int r;
        if (i > 0 && a.id[i] == a.id[i - 1]) {
            continue; /* a game counts once */
        }
        if ((r = replay_to(db, a.id[i], key, &mv, &s, msg, cap)) <= 0) {
            continue; /* a false match, or s failed */
        }
        if ((r = in_row(row, key, mv, a.id[i])) < 0) {
            s = pgnk_db_fail(db, "positions", msg, cap);
        } else if (r == 0 && fn(user, mv, a.id[i])) {
            break;
        }
    }
    sqlite3_finalize(row);
    free(a.id);
    free(a.ch);
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
    uint64_t fp, delta;
    int same;
    (void)batch;
    for (int64_t i = 0; i < n; i++) {
        if (!single_get(r, &fp, &same, &delta)) {
            break;
        }
        if (same) {
            continue; /* another game of the same fingerprint: counted as one */
        }
        (*c->entries)++;
        if (keyset_add(c->ks, c->prefix << PGNK_SINGLES_SHIFT | fp << FP_SHIFT)) {
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
    uint64_t from = 0; /* the batch asked for: a damaged table may give one before it */
    while (s == PGN_OK && (rc = sqlite3_step(seek)) == SQLITE_ROW) {
        uint64_t batch = (uint64_t)sqlite3_column_int64(seek, 0) >> 16;
        if (batch < from) {
            break;
        }
        from = batch + 1;
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
    while (*exrc == SQLITE_ROW &&
           (uint64_t)sqlite3_column_int64(ex, 0) >> PGNK_SINGLES_SHIFT == prefix) {
        /* a key counts by its fingerprint, as the entries can */
        if (keyset_add(ks, (uint64_t)sqlite3_column_int64(ex, 0) >> FP_SHIFT << FP_SHIFT)) {
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
    for (uint64_t prefix = 0; s == PGN_OK && !bad && prefix <= UINT64_MAX >> PGNK_SINGLES_SHIFT;
         prefix++) {
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
