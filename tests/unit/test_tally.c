/* SPDX-License-Identifier: MIT */
/* The tally (include/pgnkit/collection.h, pgn_tally_*): 20,000 keys drawn from 1,500 values,
 * some with NUL bytes or sharing prefixes, counted against a count the test keeps by value index;
 * the sorted order (count, then key bytes) checked pair by pair; every block through the caller's
 * allocator and freed; running out of memory at each allocation leaves a usable tally. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

enum { VALUES = 1500, DRAWS = 20000 };

/* Value i's key: "v<i>" for even i; for odd i also a NUL byte and "x" (so "v3" and "v3\0x" are
 * two keys). */
static size_t key_of(unsigned i, char *out) {
    int n = snprintf(out, 32, "v%u", i / 2);
    if (i % 2) {
        memcpy(out + n, "\0x", 2);
        n += 2;
    }
    return (size_t)n;
}

static void test_values(void) {
    limit_alloc la = {.left = -1, .live = 0};
    pgn_allocator a = limit_allocator(&la);
    pgn_tally *t = NULL;
    CHECK(pgn_tally_new(&t, &a) == PGN_OK && t);
    CHECK(pgn_tally_sorted(t) == NULL); /* empty */
    static uint64_t want[VALUES];
    uint64_t x = 88172645463325252u;
    for (unsigned d = 0; d < DRAWS; d++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        unsigned i = (unsigned)((x % VALUES) * (x % 7) / 6); /* uneven */
        char key[32];
        pgn_tally_item *it = pgn_tally_get(t, key, key_of(i, key));
        CHECK(it != NULL);
        if (!it) {
            break;
        }
        CHECK(it->n == want[i]); /* a new item starts at zero */
        it->n++;
        want[i]++;
    }
    size_t distinct = 0;
    for (unsigned i = 0; i < VALUES; i++) {
        distinct += want[i] > 0;
    }
    CHECK_EQ_U64(pgn_tally_count(t), distinct);
    pgn_tally_item *const *v = pgn_tally_sorted(t);
    CHECK(v != NULL);
    for (size_t k = 0; v && k < distinct; k++) {
        unsigned i = 0; /* the value the key names */
        while (i < VALUES) {
            char key[32];
            size_t n = key_of(i, key);
            if (n == v[k]->len && memcmp(key, v[k]->key, n) == 0 && v[k]->key[n] == 0) {
                break;
            }
            i++;
        }
        CHECK(i < VALUES && v[k]->n == want[i]);
        if (k > 0) {
            const pgn_tally_item *p = v[k - 1], *q = v[k];
            int c = memcmp(p->key, q->key, p->len < q->len ? p->len : q->len);
            CHECK(p->n > q->n || (p->n == q->n && (c < 0 || (c == 0 && p->len < q->len))));
        }
    }
    CHECK(la.live > 0);
    pgn_tally_free(t);
    CHECK_EQ_U64((uint64_t)la.live, 0);
}

/* Out of memory at the k-th allocation: NULL from the call, nothing leaked, the tally usable. */
static void test_out_of_memory(void) {
    for (long k = 0; k < 40; k++) {
        limit_alloc la = {.left = k, .live = 0};
        pgn_allocator a = limit_allocator(&la);
        pgn_tally *t = NULL;
        if (pgn_tally_new(&t, &a) != PGN_OK) {
            CHECK(t == NULL && la.live == 0);
            continue;
        }
        size_t made = 0;
        for (unsigned i = 0; i < 200; i++) {
            char key[32];
            pgn_tally_item *it = pgn_tally_get(t, key, key_of(i, key));
            made += it != NULL;
            if (it) {
                it->n = i;
            }
        }
        CHECK_EQ_U64(pgn_tally_count(t), made);
        pgn_tally_free(t);
        CHECK_EQ_U64((uint64_t)la.live, 0);
    }
}

int main(void) {
    test_values();
    test_out_of_memory();
    return harness_finish();
}
