/* SPDX-License-Identifier: MIT */
/* A set of byte strings (the tag names, each tag's distinct values) for the tags' columns:
 * open addressing over an arena of their bytes; no Python object, so it is used without the GIL. */
#ifndef PGNKIT_PY_STRTAB_H
#define PGNKIT_PY_STRTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pgnkit.h"

typedef struct pk_strent {
    size_t off; /* in the arena; the bytes are NUL-terminated there */
    uint32_t len, hash;
} pk_strent;

typedef struct pk_strtab {
    pgn_membuf bytes; /* the strings' bytes, each followed by a NUL */
    pgn_membuf ent;   /* pk_strent values, by index */
    uint32_t n;       /* strings kept */
    uint32_t *slot;   /* 0 empty, else an entry's index + 1 */
    uint32_t nslot;   /* a power of two, at least twice n */
} pk_strtab;

/* Entry i of t (i < t->n). */
static inline const pk_strent *pk_strtab_ent(const pk_strtab *t, uint32_t i) {
    return (const pk_strent *)(const void *)t->ent.ptr + i;
}

/* The bytes of string i of t (NUL-terminated). */
static inline const char *pk_strtab_str(const pk_strtab *t, uint32_t i) {
    return t->bytes.ptr + pk_strtab_ent(t, i)->off;
}

/* 1 if a[0..n) and b[0..n) are the same bytes: eight at a time in line (tag names and values
 * are short: a call of memcmp would cost more than the compare). */
static inline int pk_bytes_eq(const char *a, const char *b, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y) {
            return 0;
        }
    }
    for (; i < n; i++) {
        if (a[i] != b[i]) {
            return 0;
        }
    }
    return 1;
}

/* A 32-bit hash of the bytes p[0..n). */
uint32_t pk_hash_bytes(const char *p, size_t n);

/* 1 if string i of t (any i: 0 when there is none) is p[0..n). */
static inline int pk_strtab_is(const pk_strtab *t, uint32_t i, const char *p, size_t n) {
    if (i >= t->n) {
        return 0;
    }
    const pk_strent *e = pk_strtab_ent(t, i);
    return e->len == n && pk_bytes_eq(t->bytes.ptr + e->off, p, n);
}

/* The index of the string p[0..n) in t, added if new; -1 when out of memory. */
int64_t pk_strtab_intern(pk_strtab *t, const char *p, size_t n);

/* Frees t's memory (a zeroed pk_strtab is empty). */
void pk_strtab_free(pk_strtab *t);

#endif
