/* SPDX-License-Identifier: MIT */
/* A set of byte strings (the tag names, each tag's distinct values) for the tags' columns:
 * open addressing over an arena of their bytes; no Python object, so it is used without the GIL. */
#ifndef PGNKIT_PY_STRTAB_H
#define PGNKIT_PY_STRTAB_H

#include <stddef.h>
#include <stdint.h>

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

/* A 32-bit hash of the bytes p[0..n). */
uint32_t pk_hash_bytes(const char *p, size_t n);

/* 1 if string i of t (any i: 0 when there is none) is p[0..n). */
int pk_strtab_is(const pk_strtab *t, uint32_t i, const char *p, size_t n);

/* The index of the string p[0..n) in t, added if new; -1 when out of memory. */
int64_t pk_strtab_intern(pk_strtab *t, const char *p, size_t n);

/* Frees t's memory (a zeroed pk_strtab is empty). */
void pk_strtab_free(pk_strtab *t);

#endif
