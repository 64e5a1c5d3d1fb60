/* SPDX-License-Identifier: MIT */
/* A set of byte strings (the tag names, each tag's distinct values) for the tags' columns:
 * open addressing over an arena of their records; no Python object, so it is used without the
 * GIL. */
#ifndef PGNKIT_PY_STRTAB_H
#define PGNKIT_PY_STRTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pgnkit.h"

typedef struct pk_strent {
    size_t off; /* of the bytes in the arena; they are NUL-terminated there */
    uint32_t len, hash;
} pk_strent;

/* A slot of the table: where the string's record lies in the arena, in units of 4 bytes, + 1
 * (0: empty), and its hash, so that a probe past another string compares the hashes here and
 * reads no record. A record is the string's index and length (4 bytes each), then its bytes and a
 * NUL, padded to 4 bytes: a look-up reads the slot and the record, two places (a big column's
 * table misses the cache in both), and no entry between them (2026-12-07: the entry was a third
 * miss, 18% of on_tag's samples on the book). */
typedef struct pk_strslot {
    uint32_t rec, hash;
} pk_strslot;

enum { PK_STRREC_HEAD = 8 };

typedef struct pk_strtab {
    pgn_membuf bytes; /* the strings' records */
    pgn_membuf ent;   /* pk_strent values, by index */
    uint32_t n;       /* strings kept */
    pk_strslot *slot;
    uint32_t nslot; /* a power of two, at least twice n */
} pk_strtab;

/* Entry i of t (i < t->n). */
static inline const pk_strent *pk_strtab_ent(const pk_strtab *t, uint32_t i) {
    return (const pk_strent *)(const void *)t->ent.ptr + i;
}

/* The bytes of string i of t (NUL-terminated). */
static inline const char *pk_strtab_str(const pk_strtab *t, uint32_t i) {
    return t->bytes.ptr + pk_strtab_ent(t, i)->off;
}

/* The 8 bytes at p, and the 4 bytes at p, as a number (memcpy: any alignment). */
static inline uint64_t pk_load8(const char *p) {
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline uint32_t pk_load4(const char *p) {
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

/* 1 if a[0..n) and b[0..n) are the same bytes, compared in line (tag names and values are short:
 * a call of memcmp would cost more than the compare): eight bytes at a time, the last eight (or
 * four) overlapping the ones before, with no loop over single bytes. */
static inline int pk_bytes_eq(const char *a, const char *b, size_t n) {
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8) {
            if (pk_load8(a + i) != pk_load8(b + i)) {
                return 0;
            }
        }
        return pk_load8(a + n - 8) == pk_load8(b + n - 8);
    }
    if (n >= 4) {
        return pk_load4(a) == pk_load4(b) && pk_load4(a + n - 4) == pk_load4(b + n - 4);
    }
    return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

/* 1 if the n bytes at p are all ASCII (below 0x80), read as pk_bytes_eq reads them. */
static inline int pk_is_ascii(const char *p, size_t n) {
    uint64_t high = 0;
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8) {
            high |= pk_load8(p + i);
        }
        high |= pk_load8(p + n - 8);
    } else if (n >= 4) {
        high = pk_load4(p) | pk_load4(p + n - 4);
    } else if (n > 0) {
        high = (uint64_t)(unsigned char)p[0] | (unsigned char)p[n / 2] | (unsigned char)p[n - 1];
    }
    return !(high & 0x8080808080808080u);
}

/* Copies the n bytes at s to d in line when n is at most 16 (tag names and most values: a call of
 * memcpy would cost more than the copy), as two words that may overlap, so no loop that a
 * compiler would turn back into a call. */
static inline void pk_copy_short(char *d, const char *s, size_t n) {
    if (n > 16) {
        memcpy(d, s, n);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n > 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* A 32-bit hash of the bytes p[0..n): eight bytes a step, multiply and fold; the last bytes read
 * as pk_bytes_eq reads them (no loop over bytes). In line: it is called for every tag. */
static inline uint32_t pk_hash_bytes(const char *p, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15u ^ n;
    size_t i = 0;
    for (; i + 8 < n; i += 8) {
        h = (h ^ pk_load8(p + i)) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    uint64_t w = 0;
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

/* 1 if string i of t (any i: 0 when there is none) is p[0..n). */
static inline int pk_strtab_is(const pk_strtab *t, uint32_t i, const char *p, size_t n) {
    if (i >= t->n) {
        return 0;
    }
    const pk_strent *e = pk_strtab_ent(t, i);
    return e->len == n && pk_bytes_eq(t->bytes.ptr + e->off, p, n);
}

/* The index of the string p[0..n), whose pk_hash_bytes is h, in t, and *off the offset of its bytes
 * in t's arena; -1 when t does not hold it. In line: a column's value is looked up for most tags.
 */
static inline int64_t pk_strtab_find(const pk_strtab *t, const char *p, size_t n, uint32_t h,
                                     size_t *off) {
    uint32_t mask = t->nslot - 1;
    for (uint32_t j = h & mask; t->nslot && t->slot[j].rec; j = (j + 1) & mask) {
        if (t->slot[j].hash == h) {
            const char *r = t->bytes.ptr + (size_t)(t->slot[j].rec - 1) * 4;
            if (pk_load4(r + 4) == n && pk_bytes_eq(r + PK_STRREC_HEAD, p, n)) {
                *off = (size_t)(r - t->bytes.ptr) + PK_STRREC_HEAD;
                return pk_load4(r);
            }
        }
    }
    return -1;
}

/* Adds the string p[0..n), whose pk_hash_bytes is h and which t does not hold, to t; its index,
 * or -1 when out of memory. */
int64_t pk_strtab_add(pk_strtab *t, const char *p, size_t n, uint32_t h);

/* The index of the string p[0..n) in t, added if new; -1 when out of memory. */
int64_t pk_strtab_intern(pk_strtab *t, const char *p, size_t n);

/* Frees t's memory (a zeroed pk_strtab is empty). */
void pk_strtab_free(pk_strtab *t);

#endif
