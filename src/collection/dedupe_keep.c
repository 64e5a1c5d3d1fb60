/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe's decision (include/pgnkit/collection.h, pgn_dedupe_keeper): the set of line
 * keys, each distinct game's line record (in memory up to a bound, then in the caller's spill
 * store) against which an equal key is confirmed, the clusters with their kept copy, the counts.
 * Moved from the program for issue 29 point 3, so that the database import and Python can use the
 * same rule. */
#include "../base/alloc.h"
#include "pgnkit/collection.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef struct cluster {
    pgn_dedupe_cluster pub;
    uint64_t at; /* its first copy's record: below memory in mem, else memory + spill offset */
    uint32_t len;
} cluster;

struct pgn_dedupe_keeper {
    pgn_allocator alloc;
    uint32_t flags;
    pgn_dedupe *set;
    pgn_dedupe_line *line; /* for pgn_dedupe_keeper_add_game */
    pgn_dedupe_spill spill;
    size_t memory;
    unsigned char *mem; /* the first records, compared in place */
    size_t mem_len, mem_cap;
    int mem_full, nomem;
    uint64_t spilled;
    unsigned char *back; /* a record read back from the spill store */
    size_t back_cap;
    pgn_str cur; /* the record being added */
    cluster *clusters;
    size_t nclusters, cap;
    uint64_t *kept; /* after finish: the kept copies' ordinals, sorted */
    uint64_t broken, dropped;
};

pgn_status pgn_dedupe_keeper_new(pgn_dedupe_keeper **out, const pgn_dedupe_keeper_opts *opts) {
    const pgn_allocator *alloc = opts ? opts->alloc : NULL;
    pgn_status st;
    pgn_dedupe_keeper *k = pgnk_alloc_object(alloc, sizeof *k, &st);
    assert(out);
    if (!k) {
        return st;
    }
    pgnk_alloc_copy(&k->alloc, alloc);
    k->flags = opts ? opts->flags : 0;
    k->memory = opts && opts->memory ? opts->memory : (size_t)4 << 20;
    if (opts) {
        k->spill = opts->spill;
    }
    pgn_dedupe_opts o = {k->flags & PGN_DEDUPE_TAGS, &k->alloc};
    if ((st = pgn_dedupe_new(&k->set, &o)) != PGN_OK ||
        (st = pgn_dedupe_line_new(&k->line, k->flags & PGN_DEDUPE_TAGS, &k->alloc)) != PGN_OK) {
        pgn_dedupe_keeper_free(k);
        return st;
    }
    *out = k;
    return PGN_OK;
}

void pgn_dedupe_keeper_free(pgn_dedupe_keeper *k) {
    if (k) {
        pgn_allocator alloc = k->alloc;
        pgn_dedupe_free(k->set);
        pgn_dedupe_line_free(k->line);
        pgnk_free(&alloc, k->mem);
        pgnk_free(&alloc, k->back);
        pgnk_free(&alloc, k->clusters);
        pgnk_free(&alloc, k->kept);
        pgnk_free(&alloc, k);
    }
}

/* pgn_dedupe_same_key_fn: the record of cluster ref compared with the one being added, in memory
 * or read back from the spill store. */
static int same_record(void *ctx, uint64_t ref) {
    pgn_dedupe_keeper *k = ctx;
    const cluster *c = &k->clusters[ref];
    size_t len = k->cur.len;
    if (c->len != len) {
        return 0;
    }
    if (c->at < k->memory) {
        return memcmp(k->mem + c->at, k->cur.ptr, len) == 0;
    }
    if (k->back_cap < len) {
        unsigned char *b = pgnk_realloc(&k->alloc, k->back, k->back_cap, len);
        if (!b) {
            k->nomem = 1;
            return -1;
        }
        k->back = b;
        k->back_cap = len;
    }
    if (k->spill.read(k->spill.ctx, c->at - k->memory, k->back, len) != 0) {
        return -1;
    }
    return memcmp(k->back, k->cur.ptr, len) == 0;
}

/* Keeps the record of a new line: in memory while it fits there, else in the spill store. */
static pgn_status keep_record(pgn_dedupe_keeper *k, cluster *c) {
    size_t len = k->cur.len;
    if (!k->mem_full && len <= k->memory - k->mem_len) {
        if (k->mem_len + len > k->mem_cap) {
            size_t cap = k->mem_cap ? k->mem_cap * 2 : (size_t)64 << 10;
            cap = cap < k->mem_len + len ? k->mem_len + len : cap;
            cap = cap > k->memory ? k->memory : cap;
            unsigned char *m = pgnk_realloc(&k->alloc, k->mem, k->mem_cap, cap);
            if (!m) {
                return PGN_E_NOMEM;
            }
            k->mem = m;
            k->mem_cap = cap;
        }
        memcpy(k->mem + k->mem_len, k->cur.ptr, len);
        c->at = k->mem_len;
        k->mem_len += len;
        return PGN_OK;
    }
    if (!k->spill.write) {
        return PGN_E_LIMIT;
    }
    k->mem_full = 1;
    if (k->spill.write(k->spill.ctx, k->cur.ptr, len) != 0) {
        return PGN_E_IO;
    }
    c->at = k->memory + k->spilled;
    k->spilled += len;
    return PGN_OK;
}

pgn_status pgn_dedupe_keeper_add(pgn_dedupe_keeper *k, uint64_t ordinal, uint64_t key,
                                 pgn_str record, uint64_t richness, uint64_t *cluster_out,
                                 int *is_new) {
    assert(k && !k->kept && cluster_out && is_new);
    if (record.len > UINT32_MAX) {
        return PGN_E_LIMIT;
    }
    if (k->nclusters == k->cap && !pgnk_grow(&k->alloc, (void **)&k->clusters, &k->cap,
                                             k->nclusters + 1, sizeof(cluster), 1024)) {
        return PGN_E_NOMEM;
    }
    k->cur = record;
    k->nomem = 0;
    pgn_status st =
        pgn_dedupe_add_key(k->set, key, k->nclusters, same_record, k, cluster_out, is_new);
    if (st != PGN_OK) {
        return st == PGN_E_IO && k->nomem ? PGN_E_NOMEM : st;
    }
    if (!*is_new) {
        cluster *c = &k->clusters[*cluster_out];
        k->dropped++;
        if (richness > c->pub.richness) {
            c->pub.richness = richness;
            c->pub.keep = ordinal;
        }
        return PGN_OK;
    }
    cluster *c = &k->clusters[k->nclusters++];
    c->pub.first = c->pub.keep = ordinal;
    c->pub.richness = richness;
    c->len = (uint32_t)record.len;
    return keep_record(k, c);
}

pgn_status pgn_dedupe_keeper_add_game(pgn_dedupe_keeper *k, uint64_t ordinal, const pgn_game *game,
                                      uint64_t *cluster_out, int *is_new) {
    uint64_t key;
    pgn_str record;
    assert(k && game);
    pgn_status st = pgn_dedupe_line_from_game(k->line, game, &key, &record);
    if (st != PGN_OK) {
        return st;
    }
    uint64_t rich = (k->flags & PGN_DEDUPE_RICHEST) ? pgn_game_richness(game) : 0;
    return pgn_dedupe_keeper_add(k, ordinal, key, record, rich, cluster_out, is_new);
}

void pgn_dedupe_keeper_add_broken(pgn_dedupe_keeper *k) {
    assert(k);
    k->broken++;
}

pgn_dedupe_counts pgn_dedupe_keeper_counts(const pgn_dedupe_keeper *k) {
    pgn_dedupe_counts c = {k->nclusters + k->broken, k->dropped, k->broken};
    return c;
}

const pgn_dedupe_cluster *pgn_dedupe_keeper_cluster(const pgn_dedupe_keeper *k, uint64_t c) {
    assert(k && c < k->nclusters);
    return &k->clusters[c].pub;
}

static int by_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

pgn_status pgn_dedupe_keeper_finish(pgn_dedupe_keeper *k) {
    assert(k && !k->kept);
    size_t n = k->nclusters;
    k->kept = pgnk_malloc(&k->alloc, (n ? n : 1) * sizeof *k->kept);
    if (!k->kept) {
        return PGN_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        k->kept[i] = k->clusters[i].pub.keep;
    }
    qsort(k->kept, n, sizeof *k->kept, by_u64);
    return PGN_OK;
}

int pgn_dedupe_keeper_is_kept(const pgn_dedupe_keeper *k, uint64_t ordinal) {
    assert(k && k->kept);
    size_t lo = 0, hi = k->nclusters;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->kept[mid] < ordinal) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < k->nclusters && k->kept[lo] == ordinal;
}
