/* SPDX-License-Identifier: MIT */
/* A batch's position index (issue 30): the entries of the batch's games gathered as they come
 * into 256 buckets by the key's top byte; at the commit each bucket in key order is sorted and
 * made into rows, a (position, move) of at most SINGLES_MAX games of the batch as entries of the
 * batch's run (singles, a row per key prefix), the others as one upsert of explore each. The rows
 * are made on a thread of their own, a bucket at a time, and handed to the caller's thread, which
 * only binds and steps SQLite's statements: the sort, the posting lists and the Rice coding of
 * the runs (a third of the caller's CPU time on the book: perf) run beside SQLite's inserts. */
#include "db_rows.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One index entry of a batch: the position, the move, the game (its index in the batch: gm[g])
 * and the side to move. 16 bytes, for the sort's sake. */
typedef struct pending {
    uint64_t key;
    uint32_t g;
    pgn_move move;
    uint8_t side;
} pending;

/* A game stored in the batch: its id, result, date (YYYYMMDD) and the players' Elo. */
typedef struct batch_game {
    int64_t id, date;
    uint32_t elo[2];
    uint8_t result;
} batch_game;

/* The batch's entries whose key has one top byte, in the order added: n entries in the pool's
 * chunks chunk[0..nchunk), CHUNK a chunk. */
typedef struct bucket {
    uint32_t *chunk;
    size_t nchunk, ccap, n;
} bucket;

/* Entries a chunk (64 KB): the buckets grow a chunk at a time from a pool kept from batch to
 * batch, so that no entry is copied as a bucket grows and a batch after the first touches no new
 * page (arrays grown by realloc spent a twentieth of the import in page faults, copies and
 * mremap's TLB flushes: perf, the book). */
#define CHUNK 4096
/* Chunks a slab: the pool is allocated 2 MiB at a time, on a transparent huge page where the
 * system gives them (pgnk_huge_alloc): the book's batch of 50,000 games touched 62 MB of chunks,
 * 15,000 page faults a batch of 4 KiB pages */
#define SLAB 32

/* A (position, move) that at most this many games of a batch played is as many entries of
 * singles (about 9 bytes each), not a row of explore (about 40) */
#define SINGLES_MAX 8

/* A row made: of explore (key, move, the counts c: games, white, draws, black, elo_sum,
 * elo_games, last date) or of singles (key: the row's id, c[0]: its entries); its blob the
 * bytes [off, off + len) of its part. */
typedef struct row {
    uint64_t key;
    int64_t c[7];
    size_t off, len;
    pgn_move move;
    uint8_t single;
} row;

/* The rows of one bucket, handed from the thread that makes them to the one that writes them. */
typedef struct part {
    row *rows;
    size_t n, cap;
    uint8_t *bytes;
    size_t len, bcap;
} part;

#define NPART 4

/* The rows of singles inserted by one statement (a part has at most 64: the prefixes of its top
 * byte): a statement's start and end cost about as much as a row's insert, and singles were
 * 56% of a batch's statements (bk5: 16,384 of 29,097) */
#define MANY 16

/* A bucket is spread over at most 1 << SUB_BITS parts to be sorted (sort_bucket) */
#define SUB_BITS 16

struct pgnk_rows {
    bucket b[256];  /* the batch's entries by the key's top byte */
    pending **pool; /* the chunks: pool_n allocated, pool_used of them in the batch */
    size_t pool_n, pool_cap, pool_used;
    pending *tmp, *tmp2; /* the sort's room for the largest bucket, twice */
    size_t n, tmp_cap, tmp2_cap;
    uint32_t *sub; /* the sort's counts of a bucket's parts (1 << SUB_BITS) */
    batch_game *gm;
    size_t gn, gcap;
    int64_t batch_first;
    pgnk_single *run; /* the one-game entries of prefix sprefix being gathered */
    size_t rcap, sn;
    uint64_t sprefix;
    uint8_t *packed;
    size_t pcap;
    /* the parts: free ones, ready ones (in order), the one being made (NPART: none) */
    part p[NPART];
    unsigned freel[NPART], nfree, ready[NPART], rhead, nready, cur;
    int threaded, done, stop;
    pgn_status made; /* the maker's status */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* the writer's side */
    pgn_db *db;
    sqlite3_stmt *exp, *one, *many; /* many: MANY rows of singles a statement */
    char *msg;
    size_t mcap;
    pgn_status wrote;
};

pgn_status pgnk_rows_new(pgnk_rows **out) {
    pgnk_rows *r = calloc(1, sizeof *r);
    if (r == NULL) {
        return PGN_E_NOMEM;
    }
    if (pthread_mutex_init(&r->mu, NULL) != 0) {
        free(r);
        return PGN_E_NOMEM;
    }
    if (pthread_cond_init(&r->cv, NULL) != 0) {
        pthread_mutex_destroy(&r->mu);
        free(r);
        return PGN_E_NOMEM;
    }
    *out = r;
    return PGN_OK;
}

void pgnk_rows_free(pgnk_rows *r) {
    if (r == NULL) {
        return;
    }
    sqlite3_finalize(r->many);
    for (unsigned b = 0; b < 256; b++) {
        free(r->b[b].chunk);
    }
    for (size_t c = 0; c < r->pool_n; c += SLAB) {
        free(r->pool[c]);
    }
    for (unsigned i = 0; i < NPART; i++) {
        free(r->p[i].rows);
        free(r->p[i].bytes);
    }
    free(r->pool);
    free(r->tmp);
    free(r->tmp2);
    free(r->sub);
    free(r->gm);
    free(r->run);
    free(r->packed);
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
    free(r);
}

size_t pgnk_rows_entries(const pgnk_rows *r) {
    return r->n;
}

/* A chunk of the pool (a new one when all are in use) appended to b; 0 when out of memory. */
static int new_chunk(pgnk_rows *r, bucket *b) {
    if (b->nchunk == b->ccap) {
        void *c = b->chunk;
        if (!pgnk_grow(NULL, &c, &b->ccap, b->nchunk + 1, sizeof *b->chunk, 16)) {
            return 0;
        }
        b->chunk = c;
    }
    if (r->pool_used == r->pool_n) { /* a slab of SLAB chunks */
        void *pl = r->pool;
        if (!pgnk_grow(NULL, &pl, &r->pool_cap, r->pool_n + SLAB, sizeof *r->pool, 256)) {
            return 0;
        }
        r->pool = pl;
        pending *slab = pgnk_huge_alloc(SLAB * CHUNK * sizeof *slab);
        if (slab == NULL) {
            return 0;
        }
        for (size_t k = 0; k < SLAB; k++) {
            r->pool[r->pool_n++] = slab + k * CHUNK;
        }
    }
    b->chunk[b->nchunk++] = (uint32_t)r->pool_used++;
    return 1;
}

pgn_status pgnk_rows_add(pgnk_rows *r, int64_t id, int64_t date, const uint32_t elo[2],
                         uint8_t result, const void *ent, uint32_t n) {
    if (r->gn == r->gcap) {
        void *gm = r->gm;
        if (!pgnk_grow(NULL, &gm, &r->gcap, r->gn + 1, sizeof *r->gm, 1024)) {
            return PGN_E_NOMEM;
        }
        r->gm = gm;
    }
    batch_game *bg = &r->gm[r->gn];
    bg->id = id;
    bg->date = date;
    bg->elo[0] = elo[0];
    bg->elo[1] = elo[1];
    bg->result = result;
    for (uint32_t k = 0; k < n; k++) {
        pgnk_entry e;
        memcpy(&e, (const char *)ent + (size_t)k * sizeof e, sizeof e);
        bucket *b = &r->b[e.key >> 56];
        if (b->n % CHUNK == 0 && !new_chunk(r, b)) {
            return PGN_E_NOMEM;
        }
        r->n++;
        pending *p = &r->pool[b->chunk[b->nchunk - 1]][b->n++ % CHUNK];
        p->key = e.key;
        p->move = e.move;
        p->g = (uint32_t)r->gn;
        p->side = e.side;
    }
    r->gn++;
    return PGN_OK;
}

/* The digit d (0, 1: the move's bytes; 2..9: the key's) of an entry. */
static unsigned digit(const pending *e, unsigned d) {
    return d < 2 ? (unsigned)(e->move >> (8 * d)) & 0xff
                 : (unsigned)(e->key >> (8 * (d - 2))) & 0xff;
}

/* Sorts p[0..n) (entries of one key byte 7, the bucket's) by (key, move), stable (the games of a
 * row stay in id order, as added): a least significant digit radix sort on the digits
 * [0, digits) (see digit), a byte a pass, the passes where every entry has the same byte skipped;
 * tmp has room for n entries, and the sorted entries end in p. The keys are random 64-bit
 * numbers, where qsort's comparisons took a sixth of an import's time (perf, TWIC). Used for the
 * large parts of a bucket (sort_bucket): many entries of one key, whose key passes are skipped. */
static void radix_lsd(pending *p, pending *tmp, size_t n, unsigned digits) {
    uint32_t count[10][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        for (unsigned d = 0; d < digits; d++) {
            count[d][digit(&p[i], d)]++;
        }
    }
    pending *src = p;
    for (unsigned d = 0; d < digits; d++) {
        if (count[d][digit(&src[0], d)] == n) {
            continue; /* one value: the order stays */
        }
        uint32_t at = 0;
        for (unsigned b = 0; b < 256; b++) {
            uint32_t c = count[d][b];
            count[d][b] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++) {
            tmp[count[d][digit(&src[i], d)]++] = src[i];
        }
        pending *t = src;
        src = tmp;
        tmp = t;
    }
    if (src != p) {
        memcpy(p, src, n * sizeof *p);
    }
}

/* (key, move) of a before b's. */
static int before(const pending *a, const pending *b) {
    return a->key < b->key || (a->key == b->key && a->move < b->move);
}

/* Sorts p[0..n) by (key, move), stable, by insertion (few entries out of place). */
static void insertion(pending *p, size_t n) {
    for (size_t i = 1; i < n; i++) {
        if (!before(&p[i], &p[i - 1])) {
            continue;
        }
        pending x = p[i];
        size_t j = i;
        do {
            p[j] = p[j - 1];
            j--;
        } while (j > 0 && before(&x, &p[j - 1]));
        p[j] = x;
    }
}

/* A part of a bucket past which it is sorted by radix_lsd, not by insertion */
#define SUB_RADIX 32

/* Bucket k's entries copied from its chunks into r->tmp, sorted by (key, move), stable: spread
 * by the key's next bits into parts of about 2 entries (the counts in r->sub), then each part
 * sorted by insertion, or by radix_lsd when large (a position many games of the batch reached:
 * the start's thousands of entries share their key). Nine LSD passes over the bucket took a fifth
 * of the import's rows and zstd threads (callgrind, bk5). */
static void sort_bucket(pgnk_rows *r, const bucket *k) {
    size_t n = k->n;
    unsigned s = 0;
    while (s < SUB_BITS && ((size_t)2 << s) < n) {
        s++;
    }
    unsigned shift = 56 - s;
    uint32_t mask = (UINT32_C(1) << s) - 1, *sub = r->sub;
    memset(sub, 0, ((size_t)mask + 1) * sizeof *sub);
    for (size_t c = 0; c < k->nchunk; c++) {
        const pending *p = r->pool[k->chunk[c]];
        size_t len = n - c * CHUNK < CHUNK ? n - c * CHUNK : CHUNK;
        for (size_t i = 0; i < len; i++) {
            sub[p[i].key >> shift & mask]++;
        }
    }
    uint32_t at = 0;
    for (uint32_t b = 0; b <= mask; b++) {
        uint32_t c = sub[b];
        sub[b] = at;
        at += c;
    }
    for (size_t c = 0; c < k->nchunk; c++) {
        const pending *p = r->pool[k->chunk[c]];
        size_t len = n - c * CHUNK < CHUNK ? n - c * CHUNK : CHUNK;
        for (size_t i = 0; i < len; i++) {
            r->tmp[sub[p[i].key >> shift & mask]++] = p[i];
        }
    }
    uint32_t from = 0; /* sub[b] is now the end of part b */
    for (uint32_t b = 0; b <= mask; b++) {
        uint32_t m = sub[b] - from;
        if (m > SUB_RADIX) {
            radix_lsd(r->tmp + from, r->tmp2, m, 9);
        } else if (m > 1) {
            insertion(r->tmp + from, m);
        }
        from = sub[b];
    }
}

/* ---- the parts: made on one thread, written on the other ---- */

/* The part being made (a free one taken when none, waiting for one); NULL when the writer has
 * stopped. */
static part *cur_part(pgnk_rows *r) {
    if (r->cur == NPART) {
        pthread_mutex_lock(&r->mu);
        while (r->nfree == 0 && !r->stop) {
            pthread_cond_wait(&r->cv, &r->mu);
        }
        if (!r->stop) {
            r->cur = r->freel[--r->nfree];
        }
        pthread_mutex_unlock(&r->mu);
        if (r->cur == NPART) {
            return NULL;
        }
        r->p[r->cur].n = 0;
        r->p[r->cur].len = 0;
    }
    return &r->p[r->cur];
}

/* A new row of the current part, its blob (len bytes) copied there; NULL when out of memory or
 * the writer has stopped (r->made says which). */
static row *new_row(pgnk_rows *r, const uint8_t *blob, size_t len) {
    part *p = cur_part(r);
    if (p == NULL) {
        r->made = r->made ? r->made : PGN_E_IO;
        return NULL;
    }
    void *rows = p->rows, *bytes = p->bytes;
    int ok = p->n < p->cap || pgnk_grow(NULL, &rows, &p->cap, p->n + 1, sizeof *p->rows, 1024);
    p->rows = rows;
    ok = ok && (p->len + len <= p->bcap ||
                pgnk_grow(NULL, &bytes, &p->bcap, p->len + len, 1, (size_t)64 << 10));
    p->bytes = bytes;
    if (!ok) {
        r->made = PGN_E_NOMEM;
        return NULL;
    }
    row *w = &p->rows[p->n++];
    memset(w, 0, sizeof *w);
    if (len > 0) {
        memcpy(p->bytes + p->len, blob, len);
    }
    w->off = p->len;
    w->len = len;
    p->len += len;
    return w;
}

static pgn_status write_part(pgnk_rows *r, const part *p);

/* The current part handed to the writer (written at once when not threaded). */
static void publish(pgnk_rows *r) {
    if (r->cur == NPART) {
        return;
    }
    unsigned i = r->cur;
    r->cur = NPART;
    if (!r->threaded) {
        if (r->wrote == PGN_OK) {
            r->wrote = write_part(r, &r->p[i]);
        }
        r->stop = r->wrote != PGN_OK;
        r->freel[r->nfree++] = i;
        return;
    }
    pthread_mutex_lock(&r->mu);
    r->ready[(r->rhead + r->nready++) % NPART] = i;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

/* Appends v as a varint to buf (room for 10 bytes at *len and more). */
static void put_varint(uint8_t *buf, size_t *len, uint64_t v) {
    while (v >= 0x80) {
        buf[(*len)++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    buf[(*len)++] = (uint8_t)v;
}

/* The run of one-game entries gathered (prefix r->sprefix, r->sn entries), packed as a row of
 * singles; 0, or -1 (r->made says why). */
static int flush_singles(pgnk_rows *r) {
    if (r->sn == 0) {
        return 0;
    }
    size_t len = 0;
    uint64_t span = (uint64_t)(r->gm[r->gn - 1].id - r->batch_first + 1);
    if (pgnk_singles_pack(&r->packed, &r->pcap, &len, r->run, r->sn, span)) {
        r->made = PGN_E_NOMEM;
        return -1;
    }
    row *w = new_row(r, r->packed, len);
    if (w == NULL) {
        return -1;
    }
    /* the rows' ids grow with the batch: the table is appended to, its pages filled */
    w->key = (uint64_t)(r->batch_first * 65536 + (int64_t)r->sprefix);
    w->c[0] = (int64_t)r->sn;
    w->single = 1;
    r->sn = 0;
    return 0;
}

/* The one-game entry of p into the run of its key's prefix; 0 or -1. */
static int add_single(pgnk_rows *r, const pending *p) {
    if (r->sn > 0 && p->key >> PGNK_SINGLES_SHIFT != r->sprefix && flush_singles(r) < 0) {
        return -1;
    }
    r->sprefix = p->key >> PGNK_SINGLES_SHIFT;
    if (r->sn == r->rcap) {
        void *b = r->run;
        if (!pgnk_grow(NULL, &b, &r->rcap, r->sn + 1, sizeof *r->run, 256)) {
            r->made = PGN_E_NOMEM;
            return -1;
        }
        r->run = b;
    }
    pgnk_single *e = &r->run[r->sn++];
    e->key = p->key;
    e->move = p->move;
    e->delta = (uint64_t)(r->gm[p->g].id - r->batch_first);
    return 0;
}

/* The row of explore of entries [i, j) (one position and move, in id order): the counts, and
 * the batch's games as one chunk of the row's posting list: varint(count), varint(first id),
 * the deltas. 0 or -1. */
static int explore_row(pgnk_rows *r, const pending *p, size_t i, size_t j) {
    size_t need = (j - i + 2) * 10, len = 0;
    if (need > r->pcap) {
        void *b = r->packed;
        if (!pgnk_grow(NULL, &b, &r->pcap, need, 1, 4096)) {
            r->made = PGN_E_NOMEM;
            return -1;
        }
        r->packed = b;
    }
    put_varint(r->packed, &len, j - i);
    put_varint(r->packed, &len, (uint64_t)r->gm[p[i].g].id);
    for (size_t k = i + 1; k < j; k++) {
        put_varint(r->packed, &len, (uint64_t)(r->gm[p[k].g].id - r->gm[p[k - 1].g].id));
    }
    row *w = new_row(r, r->packed, len);
    if (w == NULL) {
        return -1;
    }
    w->key = p[i].key;
    w->move = p[i].move;
    for (size_t k = i; k < j; k++) {
        const batch_game *e = &r->gm[p[k].g];
        uint32_t elo = e->elo[p[k].side != PGN_WHITE]; /* the mover's */
        w->c[0]++;
        w->c[1] += e->result == PGN_RESULT_WHITE_WINS;
        w->c[2] += e->result == PGN_RESULT_DRAW;
        w->c[3] += e->result == PGN_RESULT_BLACK_WINS;
        w->c[4] += elo;
        w->c[5] += elo != 0;
        w->c[6] = e->date > w->c[6] ? e->date : w->c[6];
    }
    return 0;
}

/* The rows of one sorted bucket, p[0..n): a (position, move) of at most SINGLES_MAX games as
 * entries of the run, else a row of explore; every move of a dense position (one that at least
 * PGNK_DENSE_MIN games of the batch reach) a row of explore, so that its count and moves are read
 * without a game replayed (a reader skips its fingerprint's entries in the batch). 0 or -1. */
static int bucket_rows(pgnk_rows *r, const pending *p, size_t n) {
    for (size_t i = 0, start = 0, end = 0; i < n;) {
        if (i == end) { /* a new position: dense when PGNK_DENSE_MIN games of the batch reach it */
            start = end;
            while (end < n && p[end].key == p[start].key) {
                end++;
            }
        }
        size_t j = i;
        while (j < end && p[j].move == p[i].move) {
            j++;
        }
        if (j - i <= SINGLES_MAX && end - start < PGNK_DENSE_MIN) {
            for (; i < j; i++) {
                if (add_single(r, &p[i]) < 0) {
                    return -1;
                }
            }
        } else if (explore_row(r, p, i, j) < 0) {
            return -1;
        }
        i = j;
    }
    return 0;
}

/* Each bucket in key order sorted and made into rows, a part a bucket; the last run. */
static void make_rows(pgnk_rows *r) {
    /* a writer that stopped is seen at the next part taken (cur_part): r->made is set */
    for (unsigned b = 0; b < 256 && r->made == PGN_OK; b++) {
        const bucket *k = &r->b[b];
        sort_bucket(r, k);
        if (bucket_rows(r, r->tmp, k->n) < 0) {
            break;
        }
        publish(r);
    }
    if (r->made == PGN_OK && flush_singles(r) == 0) {
        publish(r);
    }
    if (r->cur != NPART) { /* a part left by a failure: back to the free ones */
        pthread_mutex_lock(&r->mu);
        r->freel[r->nfree++] = r->cur;
        r->cur = NPART;
        pthread_mutex_unlock(&r->mu);
    }
    pthread_mutex_lock(&r->mu);
    r->done = 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

static void *maker_main(void *arg) {
    make_rows(arg);
    return NULL;
}

/* ---- the writer: the caller's thread ---- */

static pgn_status step(pgnk_rows *r, sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? PGN_OK
                                                 : pgnk_db_fail(r->db, "explorer", r->msg, r->mcap);
}

/* The rows of singles sg[0..n) of part p (in the order made) inserted, MANY a statement where
 * there are as many. */
static pgn_status write_singles(pgnk_rows *r, const part *p, const row *const *sg, size_t n) {
    pgn_status s = PGN_OK;
    for (size_t i = 0; i < n && s == PGN_OK;) {
        sqlite3_stmt *st = n - i >= MANY && r->many != NULL ? r->many : r->one;
        for (int k = 0; k < (st == r->one ? 1 : MANY); k++, i++) {
            const row *w = sg[i];
            sqlite3_bind_int64(st, 3 * k + 1, (sqlite3_int64)w->key);
            sqlite3_bind_int64(st, 3 * k + 2, w->c[0]);
            sqlite3_bind_blob(st, 3 * k + 3, w->len > 0 ? (const void *)(p->bytes + w->off) : "",
                              (int)w->len, SQLITE_STATIC);
        }
        s = step(r, st);
    }
    return s;
}

/* The rows of part p: explore's upserts one by one, singles' rows MANY at a time (the two tables
 * are apart: only the order within each matters). */
static pgn_status write_part(pgnk_rows *r, const part *p) {
    pgn_status s = PGN_OK;
    const row *sg[64];
    size_t ns = 0;
    for (size_t i = 0; i < p->n && s == PGN_OK; i++) {
        const row *w = &p->rows[i];
        if (w->single) {
            if (ns == sizeof sg / sizeof *sg) {
                s = write_singles(r, p, sg, ns);
                ns = 0;
            }
            sg[ns++] = w;
            continue;
        }
        sqlite3_bind_int64(r->exp, 1, (sqlite3_int64)w->key);
        sqlite3_bind_int(r->exp, 2, w->move);
        for (int k = 0; k < 7; k++) {
            sqlite3_bind_int64(r->exp, 3 + k, w->c[k]);
        }
        sqlite3_bind_blob(r->exp, 10, w->len > 0 ? (const void *)(p->bytes + w->off) : "",
                          (int)w->len, SQLITE_STATIC);
        s = step(r, r->exp);
    }
    return s == PGN_OK ? write_singles(r, p, sg, ns) : s;
}

/* The parts written as the maker hands them over, until it is done. */
static void write_parts(pgnk_rows *r) {
    for (;;) {
        pthread_mutex_lock(&r->mu);
        while (r->nready == 0 && !r->done) {
            pthread_cond_wait(&r->cv, &r->mu);
        }
        if (r->nready == 0) {
            pthread_mutex_unlock(&r->mu);
            return;
        }
        unsigned i = r->ready[r->rhead];
        r->rhead = (r->rhead + 1) % NPART;
        r->nready--;
        pthread_mutex_unlock(&r->mu);
        if (r->wrote == PGN_OK) {
            r->wrote = write_part(r, &r->p[i]);
        }
        pthread_mutex_lock(&r->mu);
        r->stop = r->wrote != PGN_OK;
        r->freel[r->nfree++] = i;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
    }
}

/* Room to sort the largest bucket; 0 when out of memory. */
static int sort_room(pgnk_rows *r) {
    size_t most = 0;
    for (unsigned b = 0; b < 256; b++) {
        most = r->b[b].n > most ? r->b[b].n : most;
    }
    void *t = r->tmp, *t2 = r->tmp2; /* kept from batch to batch: no new pages each time */
    int ok = most <= r->tmp_cap || pgnk_grow(NULL, &t, &r->tmp_cap, most, sizeof *r->tmp, CHUNK);
    r->tmp = t;
    ok = ok &&
         (most <= r->tmp2_cap || pgnk_grow(NULL, &t2, &r->tmp2_cap, most, sizeof *r->tmp2, CHUNK));
    r->tmp2 = t2;
    if (ok && r->sub == NULL) {
        r->sub = malloc(((size_t)1 << SUB_BITS) * sizeof *r->sub);
        ok = r->sub != NULL;
    }
    return ok;
}

pgn_status pgnk_rows_write(pgnk_rows *r, pgn_db *db, sqlite3_stmt *exp, sqlite3_stmt *one,
                           int64_t batch_first, int threaded, char *msg, size_t cap) {
    r->db = db;
    r->exp = exp;
    r->one = one;
    if (r->many == NULL) { /* (none: the rows go one by one) */
        char sql[40 + MANY * 8] = "INSERT INTO singles VALUES(?,?,?)";
        for (int k = 1; k < MANY; k++) {
            strcat(sql, ",(?,?,?)");
        }
        (void)sqlite3_prepare_v2(db->sql, sql, -1, &r->many, NULL);
    }
    r->msg = msg;
    r->mcap = cap;
    r->batch_first = batch_first;
    r->wrote = r->made = PGN_OK;
    r->done = r->stop = 0;
    r->sn = 0;
    r->cur = NPART;
    r->nready = r->rhead = 0;
    r->nfree = NPART;
    for (unsigned i = 0; i < NPART; i++) {
        r->freel[i] = i;
    }
    pthread_t th;
    r->threaded = threaded; /* set before the maker starts: it reads it */
    if (!sort_room(r)) {
        r->made = PGN_E_NOMEM;
    } else if (threaded && pthread_create(&th, NULL, maker_main, r) == 0) {
        write_parts(r);
        pthread_join(th, NULL);
    } else {
        r->threaded = 0;
        make_rows(r); /* one thread: each part written as it is made */
    }
    for (unsigned b = 0; b < 256; b++) {
        r->b[b].n = 0;
        r->b[b].nchunk = 0;
    }
    r->pool_used = 0;
    r->gn = 0;
    r->n = 0;
    return r->wrote != PGN_OK ? r->wrote : r->made;
}
