/* SPDX-License-Identifier: MIT */
/* Import (issue 30): the games of a source read on N threads (pgn_parallel_read). Each worker
 * visits its games and packs, per game, the tags kept, the result, the line key of the dedupe
 * rule and the main line's (position, move) pairs, each position once (its first move); the
 * caller's thread stores the game and gathers the pairs of a batch, sorted, into the explorer:
 * a (position, move) that one game of the batch played as an entry of the batch's run (singles,
 * a blob per key prefix: no B-tree row of its own), else one row of explore per (position, move),
 * its counts added and the batch's games appended to its posting list, so the explorer's rows
 * and entries are the position index too (schema 4). */
#include "db_int.h"

#include "pgnkit/collection.h"

#include <stdlib.h>
#include <string.h>

#define TAG_CAP 256

typedef struct entry {
    uint64_t key;
    pgn_move move;
    uint8_t side; /* the side to move in the position */
} entry;

/* A worker's game, as the visitor reads it. */
typedef struct worker {
    char tag[DBT_COUNT][TAG_CAP];
    size_t tag_len[DBT_COUNT];
    uint64_t line_key;
    entry *e;
    size_t n, cap;
    int nomem;
} worker;

static pgn_flow w_begin(void *u, pgn_loc at) {
    worker *w = u;
    (void)at;
    memset(w->tag_len, 0, sizeof w->tag_len);
    w->n = 0;
    w->line_key = 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow w_tag(void *u, pgn_str name, pgn_str value) {
    worker *w = u;
    for (int i = 0; i < DBT_COUNT; i++) {
        if (strlen(pgnk_db_tag_names[i]) == name.len &&
            memcmp(pgnk_db_tag_names[i], name.ptr, name.len) == 0) {
            size_t n = value.len < TAG_CAP ? value.len : TAG_CAP;
            if (n > 0) {
                memcpy(w->tag[i], value.ptr, n);
            }
            w->tag_len[i] = n;
        }
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow w_end_tags(void *u, const pgn_pos *start) {
    worker *w = u;
    if (start == NULL || start->variant != PGN_VARIANT_STANDARD) {
        return PGN_FLOW_SKIP; /* variants are stored, not indexed */
    }
    w->line_key = pgn_line_key_start(start);
    return PGN_FLOW_CONTINUE;
}

/* Appends (key, mv) unless key was met earlier in this game: only within the halfmove window can
 * a position repeat. */
static void add(worker *w, uint64_t key, pgn_move mv, unsigned window, uint8_t side) {
    size_t from = w->n > window ? w->n - window - 1 : 0;
    for (size_t i = from; i < w->n; i++) {
        if (w->e[i].key == key) {
            return;
        }
    }
    if (w->n == w->cap) {
        void *e = w->e;
        if (!pgnk_grow(NULL, &e, &w->cap, w->n + 1, sizeof *w->e, 256)) {
            w->nomem = 1;
            return;
        }
        w->e = e;
    }
    w->e[w->n].key = key;
    w->e[w->n].side = side;
    w->e[w->n++].move = mv;
}

static pgn_flow w_move(void *u, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    worker *w = u;
    (void)san;
    (void)at;
    add(w, before->key, mv, before->halfmove, before->side);
    w->line_key = pgn_line_key_move(w->line_key, mv);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow w_variation(void *u) {
    (void)u;
    return PGN_FLOW_SKIP;
}

static pgn_flow w_end_game(void *u, pgn_result result, const pgn_game_summary *s) {
    worker *w = u;
    (void)result;
    if (s->final_pos != NULL && w->line_key != 0) {
        add(w, s->final_pos->key, PGN_MOVE_NONE, s->final_pos->halfmove, s->final_pos->side);
    }
    return PGN_FLOW_CONTINUE;
}

static const pgn_visitor visitor = {
    .begin_game = w_begin,
    .tag = w_tag,
    .end_tags = w_end_tags,
    .move = w_move,
    .begin_variation = w_variation,
    .end_game = w_end_game,
};

static void *worker_new(void *user) {
    (void)user;
    return calloc(1, sizeof(worker));
}
static void worker_free(void *wu) {
    worker *w = wu;
    if (w != NULL) {
        free(w->e);
        free(w);
    }
}
static void *worker_vuser(void *wu) {
    return wu;
}

/* The record a worker hands over: a header, the tags, the first error, the entries. */
typedef struct rec_head {
    uint64_t line_key;
    uint32_t plies, n;
    uint16_t tag_len[DBT_COUNT];
    uint16_t err_len;
    uint8_t result, broken;
} rec_head;

static pgn_status prepare(void *wu, const pgn_par_game *g, pgn_membuf *out) {
    worker *w = wu;
    if (w->nomem) {
        w->nomem = 0;
        return PGN_E_NOMEM;
    }
    const pgn_game_summary *s = g->summary;
    rec_head h;
    memset(&h, 0, sizeof h);
    h.line_key = w->line_key;
    h.plies = s->plies;
    h.n = (uint32_t)w->n;
    h.broken = (uint8_t)(s->broken != 0);
    h.result = (uint8_t)s->marker;
    char err[160] = "";
    if (s->errors > 0) {
        const pgn_diag *d = &s->first_error;
        size_t k = (size_t)snprintf(err, sizeof err, "%s at line %lu: %s", pgn_status_name(d->code),
                                    (unsigned long)d->at.line, d->token);
        h.err_len = (uint16_t)(k < sizeof err ? k : sizeof err - 1);
    }
    for (int i = 0; i < DBT_COUNT; i++) {
        h.tag_len[i] = (uint16_t)w->tag_len[i];
    }
    if (pgn_membuf_write(out, &h, sizeof h) < 0) {
        return PGN_E_NOMEM;
    }
    for (int i = 0; i < DBT_COUNT; i++) {
        if (pgn_membuf_write(out, w->tag[i], w->tag_len[i]) < 0) {
            return PGN_E_NOMEM;
        }
    }
    if (pgn_membuf_write(out, err, h.err_len) < 0 ||
        pgn_membuf_write(out, w->e, w->n * sizeof *w->e) < 0) {
        return PGN_E_NOMEM;
    }
    return PGN_OK;
}

/* ---- the caller's side ---- */

/* One index entry of a batch: the position, the move played there (PGN_MOVE_NONE: the game
 * ended there), the game (its index in the batch: gm[g]) and the side to move. 16 bytes, for
 * the sort's sake. */
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

typedef struct importer {
    pgn_db *db;
    const pgn_db_import_opts *o;
    pgn_source *src;
    sqlite3_stmt *ins, *dup, *exp, *one;
    bucket b[256];  /* the batch's entries by the key's top byte */
    pending **pool; /* the chunks: pool_n allocated, pool_used of them in the batch */
    size_t pool_n, pool_cap, pool_used;
    pending *tmp, *tmp2;         /* the sort's room for the largest bucket, twice */
    size_t n, tmp_cap, tmp2_cap; /* n: the batch's entries */
    batch_game *gm;
    size_t gn, gcap;
    uint32_t in_batch;
    pgn_db_import_totals tot, batch;
    char *msg;
    size_t mcap;
    uint8_t *blob;
    size_t blob_cap;
    int64_t batch_first; /* the first game stored in the batch: the run's base */
    pgnk_single *run;    /* the one-game entries of prefix sprefix being gathered */
    size_t rcap, sn;
    uint8_t *packed; /* and packed */
    size_t pcap;
    uint64_t sprefix;
    pgnk_blockw bw; /* the games' bytes being packed */
} importer;

/* The digit d (0, 1: the move's bytes; 2..9: the key's) of an entry. */
static unsigned digit(const pending *e, unsigned d) {
    return d < 2 ? (unsigned)(e->move >> (8 * d)) & 0xff
                 : (unsigned)(e->key >> (8 * (d - 2))) & 0xff;
}

/* Sorts a bucket p[0..n) by (key, move), stable (the games of a row stay in id order, as added):
 * a least significant digit radix sort on the digits [0, digits) (see digit; the top byte is the
 * bucket's), a byte a pass, the passes where every entry has the same byte skipped; tmp has room
 * for n entries, and the sorted entries end in p. The keys are random 64-bit numbers, where
 * qsort's comparisons took a sixth of an import's time (perf, TWIC). The entries are gathered
 * by the key's top byte as they come, so that a bucket (about 15,000 entries, 240 KB, for the
 * book's 50,000-game batches) is sorted in the core's cache: ten passes over the whole batch (62
 * MB, and as much again for tmp) took a tenth of an import, most of it memory traffic and the
 * first touch of tmp's pages. */
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

static pgn_status step_done(importer *im, sqlite3_stmt *st, const char *what) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? PGN_OK
                                                 : pgnk_db_fail(im->db, what, im->msg, im->mcap);
}

/* Appends v as a varint to the importer's blob; -1 when out of memory. */
static int put_varint(importer *im, size_t *len, uint64_t v) {
    if (*len + 10 > im->blob_cap) {
        void *b = im->blob;
        if (!pgnk_grow(NULL, &b, &im->blob_cap, *len + 10, 1, 4096)) {
            return -1;
        }
        im->blob = b;
    }
    while (v >= 0x80) {
        im->blob[(*len)++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    im->blob[(*len)++] = (uint8_t)v;
    return 0;
}

/* The batch's games of entries [i, j) (one position and move, in id order) as one chunk of the
 * row's posting list: varint(count), varint(first id), the deltas. */
static pgn_status posting_chunk(importer *im, const pending *p, size_t i, size_t j, size_t *len) {
    *len = 0;
    if (put_varint(im, len, j - i) || put_varint(im, len, (uint64_t)im->gm[p[i].g].id)) {
        return PGN_E_NOMEM;
    }
    for (size_t k = i + 1; k < j; k++) {
        if (put_varint(im, len, (uint64_t)(im->gm[p[k].g].id - im->gm[p[k - 1].g].id))) {
            return PGN_E_NOMEM;
        }
    }
    return PGN_OK;
}

/* The bucket of one-game entries gathered (prefix im->sprefix, im->sn entries in im->run),
 * packed as a row of singles. */
static pgn_status flush_singles(importer *im) {
    if (im->sn == 0) {
        return PGN_OK;
    }
    size_t len = 0;
    if (pgnk_singles_pack(&im->packed, &im->pcap, &len, im->run, im->sn)) {
        return PGN_E_NOMEM;
    }
    /* the rows' ids grow with the batch: the table is appended to, its pages filled */
    sqlite3_bind_int64(im->one, 1, im->batch_first * 65536 + (sqlite3_int64)im->sprefix);
    sqlite3_bind_int64(im->one, 2, (sqlite3_int64)im->sn);
    sqlite3_bind_blob(im->one, 3, im->packed, (int)len, SQLITE_STATIC);
    im->sn = 0;
    return step_done(im, im->one, "explorer");
}

/* The one-game entry of p into the run of its key's prefix. */
static pgn_status add_single(importer *im, const pending *p) {
    pgn_status s = PGN_OK;
    if (im->sn > 0 && p->key >> PGNK_SINGLES_SHIFT != im->sprefix) {
        s = flush_singles(im);
    }
    im->sprefix = p->key >> PGNK_SINGLES_SHIFT;
    if (s == PGN_OK && im->sn == im->rcap) {
        void *b = im->run;
        if (!pgnk_grow(NULL, &b, &im->rcap, im->sn + 1, sizeof *im->run, 256)) {
            return PGN_E_NOMEM;
        }
        im->run = b;
    }
    if (s == PGN_OK) {
        pgnk_single *e = &im->run[im->sn++];
        e->key = p->key;
        e->move = p->move;
        e->delta = (uint64_t)(im->gm[p->g].id - im->batch_first);
        im->batch.positions++;
    }
    return s;
}

/* The rows of the sorted batch: a (position, move) of one game in the batch is an entry of the
 * batch's run (singles, one row per key prefix); the others, one upsert per (position, move)
 * into explore, the counts added and the games' chunk appended. Move PGN_MOVE_NONE holds the
 * games that ended in the position. A (position, move) is the sum of its row and entries. */
/* A (position, move) that at most this many games of a batch played is as many entries of
 * singles (about 9 bytes each), not a row of explore (about 40) */
#define SINGLES_MAX 8

/* The rows of one sorted bucket, p[0..n). */
static pgn_status flush_rows(importer *im, const pending *p, size_t n) {
    for (size_t i = 0; i < n;) {
        size_t j = i, len;
        int64_t c[6] = {0, 0, 0, 0, 0, 0}; /* games, white, draws, black, elo_sum, elo_games */
        int64_t last = 0;
        while (j < n && p[j].key == p[i].key && p[j].move == p[i].move) {
            const pending *q = &p[j++];
            const batch_game *e = &im->gm[q->g];
            uint32_t elo = e->elo[q->side != PGN_WHITE]; /* the mover's */
            c[0]++;
            c[1] += e->result == PGN_RESULT_WHITE_WINS;
            c[2] += e->result == PGN_RESULT_DRAW;
            c[3] += e->result == PGN_RESULT_BLACK_WINS;
            c[4] += elo;
            c[5] += elo != 0;
            last = e->date > last ? e->date : last;
        }
        pgn_status s;
        if (j - i <= SINGLES_MAX) {
            for (; i < j; i++) {
                if ((s = add_single(im, &p[i])) != PGN_OK) {
                    return s;
                }
            }
            continue;
        }
        if (posting_chunk(im, p, i, j, &len) != PGN_OK) {
            return PGN_E_NOMEM;
        }
        sqlite3_bind_int64(im->exp, 1, (sqlite3_int64)p[i].key);
        sqlite3_bind_int(im->exp, 2, p[i].move);
        for (int k = 0; k < 6; k++) {
            sqlite3_bind_int64(im->exp, 3 + k, c[k]);
        }
        sqlite3_bind_int64(im->exp, 9, last);
        sqlite3_bind_blob(im->exp, 10, im->blob, (int)len, SQLITE_STATIC);
        if ((s = step_done(im, im->exp, "explorer")) != PGN_OK) {
            return s;
        }
        im->batch.positions += j - i;
        i = j;
    }
    return PGN_OK;
}

/* Each bucket in key order sorted, then its rows; the last run of singles. */
static pgn_status flush_explore(importer *im) {
    size_t most = 0;
    for (unsigned b = 0; b < 256; b++) {
        most = im->b[b].n > most ? im->b[b].n : most;
    }
    void *t = im->tmp, *t2 = im->tmp2; /* kept from batch to batch: no new pages each time */
    int ok = most <= im->tmp_cap || pgnk_grow(NULL, &t, &im->tmp_cap, most, sizeof *im->tmp, CHUNK);
    im->tmp = t;
    ok = ok && (most <= im->tmp2_cap ||
                pgnk_grow(NULL, &t2, &im->tmp2_cap, most, sizeof *im->tmp2, CHUNK));
    im->tmp2 = t2;
    if (!ok) {
        return PGN_E_NOMEM;
    }
    for (unsigned b = 0; b < 256; b++) {
        const bucket *k = &im->b[b];
        for (size_t c = 0; c < k->nchunk; c++) {
            size_t from = c * CHUNK, len = k->n - from < CHUNK ? k->n - from : CHUNK;
            memcpy(im->tmp + from, im->pool[k->chunk[c]], len * sizeof *im->tmp);
        }
        if (k->n > 1) {
            radix_lsd(im->tmp, im->tmp2, k->n, 9);
        }
        pgn_status s = flush_rows(im, im->tmp, k->n);
        if (s != PGN_OK) {
            return s;
        }
    }
    return flush_singles(im);
}

static pgn_status commit_batch(importer *im) {
    pgn_status s = flush_explore(im);
    if (s == PGN_E_NOMEM && im->msg != NULL && im->mcap > 0) {
        snprintf(im->msg, im->mcap, "out of memory");
    }
    if (s == PGN_OK && pgnk_blockw_flush(&im->bw, im->db) != PGN_OK) {
        s = pgnk_db_fail(im->db, "storing the games", im->msg, im->mcap);
    }
    if (s == PGN_OK) {
        s = pgnk_db_exec(im->db, "COMMIT", im->msg, im->mcap);
    }
    if (s != PGN_OK) {
        sqlite3_exec(im->db->sql, "ROLLBACK", NULL, NULL, NULL);
        pgnk_blockw_reset(&im->bw);
        return s;
    }
    im->tot.games += im->batch.games;
    im->tot.stored += im->batch.stored;
    im->tot.duplicates += im->batch.duplicates;
    im->tot.broken += im->batch.broken;
    im->tot.positions += im->batch.positions;
    memset(&im->batch, 0, sizeof im->batch);
    im->n = 0;
    for (unsigned b = 0; b < 256; b++) {
        im->b[b].n = 0;
        im->b[b].nchunk = 0;
    }
    im->pool_used = 0;
    im->gn = 0;
    im->in_batch = 0;
    im->batch_first = 0;
    if (im->o->progress != NULL) {
        im->o->progress(im->o->user, im->tot.games, pgn_source_consumed(im->src));
    }
    return PGN_OK;
}

static int64_t num(const char *s, size_t len) {
    int64_t v = 0;
    for (size_t i = 0; i < len && s[i] >= '0' && s[i] <= '9' && v < 100000; i++) {
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* The game's tag i among the packed tags. */
static pgn_str tag_at(const rec_head *h, const char *tags, int i) {
    size_t o = 0;
    for (int k = 0; k < i; k++) {
        o += h->tag_len[k];
    }
    pgn_str v = {tags + o, h->tag_len[i]};
    return v;
}

/* Finishes h->line_key with the tags of the dedupe rule; 1 when a stored game has it, 0 when
 * none, -1 when SQLite failed. */
static int is_duplicate(importer *im, rec_head *h, const char *tags) {
    static const int which[4] = {DBT_WHITE, DBT_BLACK, DBT_DATE, -1};
    char norm[4][PGN_DEDUPE_TAG_MAX];
    pgn_str nt[4];
    for (unsigned i = 0; i < 4; i++) {
        pgn_str v = {pgn_result_str((pgn_result)h->result), 0};
        if (which[i] >= 0) {
            v = tag_at(h, tags, which[i]);
        } else {
            v.len = strlen(v.ptr);
        }
        nt[i].ptr = norm[i];
        nt[i].len = pgn_dedupe_norm_tag(i, v, norm[i], sizeof norm[i]);
    }
    h->line_key = pgn_line_key_finish(h->line_key, h->plies, nt);
    sqlite3_bind_int64(im->dup, 1, (sqlite3_int64)h->line_key);
    int rc = sqlite3_step(im->dup);
    sqlite3_reset(im->dup);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* Inserts the games row; PGN_OK or SQLite's failure. */
static pgn_status store_game(importer *im, const rec_head *h, const char *tags,
                             const pgn_par_game *g) {
    const char *t = tags;
    for (int i = 0; i < DBT_COUNT; i++) {
        int64_t v = num(t, h->tag_len[i]);
        if (i != DBT_WHITE_ELO && i != DBT_BLACK_ELO) {
            sqlite3_bind_text(im->ins, 1 + i, t, (int)h->tag_len[i], SQLITE_STATIC);
        } else if (v > 0) {
            sqlite3_bind_int64(im->ins, 1 + i, v);
        } else {
            sqlite3_bind_null(im->ins, 1 + i);
        }
        t += h->tag_len[i];
    }
    sqlite3_bind_text(im->ins, 10, pgn_result_str((pgn_result)h->result), -1, SQLITE_STATIC);
    sqlite3_bind_int64(im->ins, 11, h->plies);
    sqlite3_bind_int(im->ins, 12, h->broken);
    if (h->err_len) {
        sqlite3_bind_text(im->ins, 13, t, h->err_len, SQLITE_STATIC);
    } else {
        sqlite3_bind_null(im->ins, 13);
    }
    if (h->broken || h->line_key == 0) {
        sqlite3_bind_null(im->ins, 14);
    } else {
        sqlite3_bind_int64(im->ins, 14, (sqlite3_int64)h->line_key);
    }
    int64_t block, start;
    pgn_str raw = {g->raw.ptr ? g->raw.ptr : "", g->raw.len};
    pgn_status s = pgnk_blockw_add(&im->bw, im->db, raw, &block, &start);
    if (s != PGN_OK) {
        return s == PGN_E_NOMEM ? s : pgnk_db_fail(im->db, "storing a game", im->msg, im->mcap);
    }
    sqlite3_bind_int64(im->ins, 15, block);
    sqlite3_bind_int64(im->ins, 16, start);
    sqlite3_bind_int64(im->ins, 17, (sqlite3_int64)raw.len);
    return step_done(im, im->ins, "storing a game");
}

/* A chunk of the pool (a new one when all are in use) appended to b; 0 when out of memory. */
static int new_chunk(importer *im, bucket *b) {
    if (b->nchunk == b->ccap) {
        void *c = b->chunk;
        if (!pgnk_grow(NULL, &c, &b->ccap, b->nchunk + 1, sizeof *b->chunk, 16)) {
            return 0;
        }
        b->chunk = c;
    }
    if (im->pool_used == im->pool_n) {
        void *pl = im->pool;
        if (!pgnk_grow(NULL, &pl, &im->pool_cap, im->pool_n + 1, sizeof *im->pool, 256)) {
            return 0;
        }
        im->pool = pl;
        if ((im->pool[im->pool_n] = malloc(CHUNK * sizeof **im->pool)) == NULL) {
            return 0;
        }
        im->pool_n++;
    }
    b->chunk[b->nchunk++] = (uint32_t)im->pool_used++;
    return 1;
}

/* The game's index entries into the batch. */
static pgn_status add_pending(importer *im, const rec_head *h, const char *tags, const char *ent,
                              int64_t id) {
    pgn_str d = tag_at(h, tags, DBT_DATE), we = tag_at(h, tags, DBT_WHITE_ELO),
            be = tag_at(h, tags, DBT_BLACK_ELO);
    if (im->gn == im->gcap) {
        void *gm = im->gm;
        if (!pgnk_grow(NULL, &gm, &im->gcap, im->gn + 1, sizeof *im->gm, 1024)) {
            return PGN_E_NOMEM;
        }
        im->gm = gm;
    }
    batch_game *bg = &im->gm[im->gn];
    bg->id = id;
    bg->date = pgnk_db_date_num(d.ptr, d.len);
    bg->elo[0] = (uint32_t)num(we.ptr, we.len);
    bg->elo[1] = (uint32_t)num(be.ptr, be.len);
    bg->result = h->result;
    for (uint32_t k = 0; k < h->n; k++) {
        entry e;
        memcpy(&e, ent + (size_t)k * sizeof e, sizeof e);
        bucket *b = &im->b[e.key >> 56];
        if (b->n % CHUNK == 0 && !new_chunk(im, b)) {
            return PGN_E_NOMEM;
        }
        im->n++;
        pending *p = &im->pool[b->chunk[b->nchunk - 1]][b->n++ % CHUNK];
        p->key = e.key;
        p->move = e.move;
        p->g = (uint32_t)im->gn;
        p->side = e.side;
    }
    im->gn++;
    return PGN_OK;
}

static pgn_status each(void *user, const pgn_par_game *g) {
    importer *im = user;
    rec_head h;
    if (!g->has_product || g->product.len < sizeof h) {
        return PGN_E_NOMEM;
    }
    memcpy(&h, g->product.ptr, sizeof h);
    const char *tags = g->product.ptr + sizeof h;
    pgn_status s = PGN_OK;
    if (im->in_batch == 0 && (s = pgnk_db_exec(im->db, "BEGIN IMMEDIATE", im->msg, im->mcap))) {
        return s;
    }
    im->in_batch++;
    im->batch.games++;
    int dup = 0;
    if (!h.broken && h.line_key != 0 && !im->o->keep_duplicates &&
        (dup = is_duplicate(im, &h, tags)) < 0) {
        return pgnk_db_fail(im->db, "duplicates", im->msg, im->mcap);
    }
    if (dup) {
        im->batch.duplicates++;
    } else {
        size_t tl = 0;
        for (int i = 0; i < DBT_COUNT; i++) {
            tl += h.tag_len[i];
        }
        if ((s = store_game(im, &h, tags, g)) != PGN_OK) {
            return s;
        }
        int64_t id = sqlite3_last_insert_rowid(im->db->sql);
        im->batch_first = im->batch_first ? im->batch_first : id;
        if ((s = add_pending(im, &h, tags, tags + tl + h.err_len, id)) != PGN_OK) {
            return s;
        }
        im->batch.stored++;
        im->batch.broken += h.broken;
    }
    uint32_t limit = im->o->batch_games ? im->o->batch_games : 50000;
    if (im->in_batch >= limit || im->n >= ((size_t)8 << 20)) {
        return commit_batch(im);
    }
    return PGN_OK;
}

static const char ins_sql[] =
    "INSERT INTO games(white, black, event, site, date, round, white_elo, black_elo, eco, result,"
    " plies, broken, error, line_key, block, start, length)"
    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
static const char exp_sql[] =
    "INSERT INTO explore VALUES(?,?,?,?,?,?,?,?,?,?) ON CONFLICT(key, move) DO UPDATE SET"
    " games = games + excluded.games, white = white + excluded.white,"
    " draws = draws + excluded.draws, black = black + excluded.black,"
    " elo_sum = elo_sum + excluded.elo_sum, elo_games = elo_games + excluded.elo_games,"
    " last_date = max(last_date, excluded.last_date), ids = ids || excluded.ids";

static pgn_status prepare_statements(importer *im) {
    sqlite3 *q = im->db->sql;
    if (sqlite3_prepare_v2(q, ins_sql, -1, &im->ins, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(q, "SELECT 1 FROM games WHERE line_key = ? LIMIT 1", -1, &im->dup,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(q, exp_sql, -1, &im->exp, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(q, "INSERT INTO singles VALUES(?,?,?)", -1, &im->one, NULL) !=
            SQLITE_OK) {
        return pgnk_db_fail(im->db, "import", im->msg, im->mcap);
    }
    return PGN_OK;
}

/* The games of the source read on the parallel reader's threads, each batch committed; at an
 * error the open batch is rolled back and msg says what failed. */
static pgn_status import_all(importer *im) {
    pgn_parallel_opts po;
    memset(&po, 0, sizeof po);
    po.threads = im->o->threads;
    po.reader.flags = PGN_READ_KEEP_RAW;
    po.reader.source_name = pgn_source_name(im->src);
    po.visitor = &visitor;
    po.hooks.worker_new = worker_new;
    po.hooks.worker_free = worker_free;
    po.hooks.worker_vuser = worker_vuser;
    po.hooks.prepare = prepare;
    po.user = im;
    po.each = each;
    pgn_parallel_totals pt;
    pgn_status s = pgn_parallel_read(im->src, &po, &pt);
    if (s == PGN_END) {
        return im->in_batch > 0 ? commit_batch(im) : PGN_OK;
    }
    if (s == PGN_E_IO && !pt.from_each) {
        const char *e = pgn_source_error(im->src);
        if (im->msg != NULL && im->mcap > 0) {
            snprintf(im->msg, im->mcap, "%s", e ? e : "read error");
        }
    } else if (s == PGN_E_NOMEM && im->msg != NULL && im->mcap > 0) {
        snprintf(im->msg, im->mcap, "out of memory");
    }
    if (im->in_batch > 0) {
        sqlite3_exec(im->db->sql, "ROLLBACK", NULL, NULL, NULL);
    }
    pgnk_blockw_reset(&im->bw);
    return s;
}

/* What an import holds: its statements, the batch's buckets and pool, its buffers. */
static void importer_free(importer *im) {
    sqlite3_finalize(im->ins);
    sqlite3_finalize(im->dup);
    sqlite3_finalize(im->exp);
    sqlite3_finalize(im->one);
    for (unsigned b = 0; b < 256; b++) {
        free(im->b[b].chunk);
    }
    for (size_t c = 0; c < im->pool_n; c++) {
        free(im->pool[c]);
    }
    free(im->pool);
    free(im->tmp);
    free(im->tmp2);
    free(im->gm);
    free(im->blob);
    free(im->run);
    free(im->packed);
    pgnk_blockw_free(&im->bw);
}

pgn_status pgn_db_import(pgn_db *db, pgn_source *src, const pgn_db_import_opts *opts,
                         pgn_db_import_totals *totals, char *msg, size_t cap) {
    static const pgn_db_import_opts none;
    importer im;
    memset(&im, 0, sizeof im);
    im.db = db;
    im.o = opts ? opts : &none;
    im.src = src;
    im.msg = msg;
    im.mcap = cap;
    pgn_status s = prepare_statements(&im);
    if (s == PGN_OK) {
        s = import_all(&im);
    }
    importer_free(&im);
    if (totals != NULL) {
        *totals = im.tot;
    }
    return s;
}
