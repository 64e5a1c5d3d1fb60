/* SPDX-License-Identifier: MIT */
/* A map from byte strings to counters (include/pgnkit/collection.h, pgn_tally_*): open addressing
 * kept at most half full, FNV-1a hashes, keys copied on the caller's allocator. Moved from the
 * program's cli/tally.c (issue 29 point 3). Nothing printed, no globals. */
#include "pgnkit/collection.h"

#include "../base/alloc.h"

#include <stdlib.h>
#include <string.h>

struct pgn_tally {
    pgn_allocator alloc;
    pgn_tally_item *items;
    size_t cap, count;       /* cap: a power of two, or 0 */
    pgn_tally_item **sorted; /* pgn_tally_sorted's array, count pointers */
};

static uint64_t hash(const char *s, size_t len) {
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
    }
    return h;
}

pgn_status pgn_tally_new(pgn_tally **out, const pgn_allocator *alloc) {
    pgn_status st = PGN_OK;
    *out = NULL;
    pgn_tally *t = pgnk_alloc_object(alloc, sizeof *t, &st);
    if (!t) {
        return st;
    }
    pgnk_alloc_copy(&t->alloc, alloc);
    *out = t;
    return PGN_OK;
}

static void drop_sorted(pgn_tally *t) {
    pgnk_free(&t->alloc, t->sorted);
    t->sorted = NULL;
}

void pgn_tally_free(pgn_tally *t) {
    if (!t) {
        return;
    }
    for (size_t i = 0; i < t->cap; i++) {
        pgnk_free(&t->alloc, t->items[i].key);
    }
    pgnk_free(&t->alloc, t->items);
    drop_sorted(t);
    pgn_allocator alloc = t->alloc;
    pgnk_free(&alloc, t);
}

static int grow(pgn_tally *t) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    if (cap > SIZE_MAX / sizeof(pgn_tally_item)) {
        return 0;
    }
    pgn_tally_item *items = pgnk_malloc(&t->alloc, cap * sizeof *items);
    if (!items) {
        return 0;
    }
    memset(items, 0, cap * sizeof *items);
    for (size_t i = 0; i < t->cap; i++) {
        if (t->items[i].key) {
            size_t j = (size_t)hash(t->items[i].key, t->items[i].len) & (cap - 1);
            while (items[j].key) {
                j = (j + 1) & (cap - 1);
            }
            items[j] = t->items[i];
        }
    }
    pgnk_free(&t->alloc, t->items);
    t->items = items;
    t->cap = cap;
    return 1;
}

pgn_tally_item *pgn_tally_get(pgn_tally *t, const char *key, size_t len) {
    if ((t->count + 1) * 2 > t->cap && !grow(t)) {
        return NULL;
    }
    size_t j = (size_t)hash(key, len) & (t->cap - 1);
    for (; t->items[j].key; j = (j + 1) & (t->cap - 1)) {
        if (t->items[j].len == len && memcmp(t->items[j].key, key, len) == 0) {
            return &t->items[j];
        }
    }
    char *copy = len < SIZE_MAX ? pgnk_malloc(&t->alloc, len + 1) : NULL;
    if (!copy) {
        return NULL;
    }
    drop_sorted(t); /* its pointers may move with the next growth */
    memcpy(copy, key, len);
    copy[len] = 0;
    t->items[j].key = copy;
    t->items[j].len = len;
    t->count++;
    return &t->items[j];
}

size_t pgn_tally_count(const pgn_tally *t) {
    return t->count;
}

static int by_count(const void *a, const void *b) {
    const pgn_tally_item *x = *(pgn_tally_item *const *)a, *y = *(pgn_tally_item *const *)b;
    if (x->n != y->n) {
        return x->n > y->n ? -1 : 1;
    }
    int c = memcmp(x->key, y->key, x->len < y->len ? x->len : y->len);
    return c ? c : x->len < y->len ? -1 : x->len > y->len; /* strcmp's order, NUL bytes and all */
}

pgn_tally_item *const *pgn_tally_sorted(pgn_tally *t) {
    drop_sorted(t);
    if (t->count == 0 || t->count > SIZE_MAX / sizeof *t->sorted) {
        return NULL;
    }
    t->sorted = pgnk_malloc(&t->alloc, t->count * sizeof *t->sorted);
    size_t k = 0;
    for (size_t i = 0; t->sorted && i < t->cap; i++) {
        if (t->items[i].key) {
            t->sorted[k++] = &t->items[i];
        }
    }
    if (t->sorted) {
        qsort(t->sorted, k, sizeof *t->sorted, by_count);
    }
    return t->sorted;
}
