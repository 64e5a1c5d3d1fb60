/* SPDX-License-Identifier: MIT */
/* A set of byte strings: open addressing with linear probing over an arena of their bytes
 * (strtab.h). */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

uint32_t pk_hash_bytes(const char *p, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15u ^ n; /* eight bytes a step, multiply and fold */
    size_t i = 0;
    for (; i + 8 < n; i += 8) {
        h = (h ^ pk_load8(p + i)) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    uint64_t w = 0; /* the last bytes, read as pk_bytes_eq reads them (no loop over bytes) */
    if (n >= 8) {
        w = pk_load8(p + n - 8);
    } else if (n >= 4) {
        w = pk_load4(p) | (uint64_t)pk_load4(p + n - 4) << 32;
    } else if (n > 0) {
        w = (uint64_t)(unsigned char)p[0] | (uint64_t)(unsigned char)p[n / 2] << 8 |
            (uint64_t)(unsigned char)p[n - 1] << 16;
    }
    h = (h ^ w) * 0xC4CEB9FE1A85EC53u;
    return (uint32_t)(h ^ h >> 29);
}

void pk_strtab_free(pk_strtab *t) {
    pgn_membuf_free(&t->bytes);
    pgn_membuf_free(&t->ent);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* Doubles the slots; -1 when out of memory. */
static int rehash(pk_strtab *t) {
    uint32_t ns = t->nslot ? t->nslot * 2 : 64;
    uint32_t *s = ns ? calloc(ns, sizeof *s) : NULL;
    if (!s) {
        return -1;
    }
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t j = pk_strtab_ent(t, i)->hash & (ns - 1);
        while (s[j]) {
            j = (j + 1) & (ns - 1);
        }
        s[j] = i + 1;
    }
    free(t->slot);
    t->slot = s;
    t->nslot = ns;
    return 0;
}

int64_t pk_strtab_intern(pk_strtab *t, const char *p, size_t n) {
    if (n > UINT32_MAX || t->n >= UINT32_MAX / 2 ||
        (2 * (uint64_t)t->n + 2 > t->nslot && rehash(t) < 0)) {
        return -1;
    }
    uint32_t h = pk_hash_bytes(p, n), j = h & (t->nslot - 1);
    for (; t->slot[j]; j = (j + 1) & (t->nslot - 1)) {
        const pk_strent *e = pk_strtab_ent(t, t->slot[j] - 1);
        if (e->hash == h && e->len == n && pk_bytes_eq(t->bytes.ptr + e->off, p, n)) {
            return t->slot[j] - 1;
        }
    }
    pk_strent e = {t->bytes.len, (uint32_t)n, h};
    size_t bytes = t->bytes.len;
    if (pgn_membuf_write(&t->bytes, p, n) < 0 || pgn_membuf_write(&t->bytes, "", 1) < 0 ||
        pgn_membuf_write(&t->ent, &e, sizeof e) < 0) {
        t->bytes.len = bytes;
        return -1;
    }
    t->slot[j] = ++t->n;
    return t->n - 1;
}
