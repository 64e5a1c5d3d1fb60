/* SPDX-License-Identifier: MIT */
/* A map from byte strings to counters (see tally.h). */
#include "tally.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s, size_t len) {
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < len; i++) {
        h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
    }
    return h;
}

static int grow(tally *t) {
    size_t cap = t->cap ? t->cap * 2 : 64;
    tally_item *items = calloc(cap, sizeof *items);
    if (!items) {
        return 0;
    }
    for (size_t i = 0; i < t->cap; i++) {
        if (t->items[i].key) {
            size_t j = (size_t)hash(t->items[i].key, t->items[i].len) & (cap - 1);
            while (items[j].key) {
                j = (j + 1) & (cap - 1);
            }
            items[j] = t->items[i];
        }
    }
    free(t->items);
    t->items = items;
    t->cap = cap;
    return 1;
}

tally_item *tally_get(tally *t, const char *key, size_t len) {
    if ((t->count + 1) * 2 > t->cap && !grow(t)) {
        return NULL;
    }
    size_t j = (size_t)hash(key, len) & (t->cap - 1);
    for (; t->items[j].key; j = (j + 1) & (t->cap - 1)) {
        if (t->items[j].len == len && memcmp(t->items[j].key, key, len) == 0) {
            return &t->items[j];
        }
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        return NULL;
    }
    memcpy(copy, key, len);
    copy[len] = 0;
    t->items[j].key = copy;
    t->items[j].len = len;
    t->count++;
    return &t->items[j];
}

static int by_count(const void *a, const void *b) {
    const tally_item *x = *(tally_item *const *)a, *y = *(tally_item *const *)b;
    if (x->n != y->n) {
        return x->n > y->n ? -1 : 1;
    }
    return strcmp(x->key, y->key);
}

tally_item **tally_sorted(const tally *t) {
    tally_item **v = t->count ? malloc(t->count * sizeof *v) : NULL;
    size_t k = 0;
    for (size_t i = 0; v && i < t->cap; i++) {
        if (t->items[i].key) {
            v[k++] = &t->items[i];
        }
    }
    if (v) {
        qsort(v, k, sizeof *v, by_count);
    }
    return v;
}

void tally_free(tally *t) {
    for (size_t i = 0; i < t->cap; i++) {
        free(t->items[i].key);
    }
    free(t->items);
    memset(t, 0, sizeof *t);
}
