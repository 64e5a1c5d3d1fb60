/* SPDX-License-Identifier: MIT */
/* A map from byte strings to counters (stats' per-value counts, split's per-value files): open
 * addressing, keys copied; memory proportional to the number of distinct values. */
#ifndef PGNKIT_CLI_TALLY_H
#define PGNKIT_CLI_TALLY_H

#include <stddef.h>
#include <stdint.h>

typedef struct tally_item {
    char *key; /* NUL-terminated copy */
    size_t len;
    uint64_t n;                   /* the count (stats: games) */
    uint64_t wins, draws, losses; /* stats, players: from the player's side */
    int32_t min_elo, max_elo;     /* stats, players: 0 = none seen */
    uint64_t aux;                 /* for the caller (split: the file's sequence number) */
} tally_item;

typedef struct tally {
    tally_item *items;
    size_t cap, count; /* cap: a power of two, or 0 */
} tally;

/* The item of key (len bytes), created with zero counts when new; NULL when out of memory. */
tally_item *tally_get(tally *t, const char *key, size_t len);
/* The items, sorted by count (highest first, then key), in a malloc'd array of t->count
 * pointers (NULL when out of memory or empty). */
tally_item **tally_sorted(const tally *t);
void tally_free(tally *t);

#endif
