/* SPDX-License-Identifier: MIT */
/* A set of byte strings: open addressing with linear probing over an arena of their records
 * (strtab.h). */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

void pk_strtab_free(pk_strtab *t) {
    pgn_membuf_free(&t->bytes);
    pgn_membuf_free(&t->ent);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

/* Doubles the slots; -1 when out of memory. */
static int rehash(pk_strtab *t) {
    uint32_t ns = t->nslot ? t->nslot * 2 : 64;
    pk_strslot *s = ns ? calloc(ns, sizeof *s) : NULL;
    if (!s) {
        return -1;
    }
    for (uint32_t i = 0; i < t->n; i++) {
        const pk_strent *e = pk_strtab_ent(t, i);
        uint32_t h = e->hash, j = h & (ns - 1);
        while (s[j].rec) {
            j = (j + 1) & (ns - 1);
        }
        s[j] = (pk_strslot){(uint32_t)((e->off - PK_STRREC_HEAD) / 4 + 1), h};
    }
    free(t->slot);
    t->slot = s;
    t->nslot = ns;
    return 0;
}

/* Appends the n bytes at p to b, in line when b has room (the common case: a call of
 * pgn_membuf_write costs more than a short copy); -1 when out of memory. */
static int append(pgn_membuf *b, const void *p, size_t n) {
    if (!b->ptr || b->cap - b->len < n) {
        return pgn_membuf_write(b, p, n) < 0 ? -1 : 0;
    }
    pk_copy_short(b->ptr + b->len, p, n);
    b->len += n;
    return 0;
}

int64_t pk_strtab_add(pk_strtab *t, const char *p, size_t n, uint32_t h) {
    size_t bytes = t->bytes.len, pad = (4 - bytes % 4) % 4;
    if (n > UINT32_MAX - 16 || t->n >= UINT32_MAX / 2 ||
        (bytes + pad) / 4 + 1 >= UINT32_MAX || /* the slot's record in units of 4 */
        (2 * (uint64_t)t->n + 2 > t->nslot && rehash(t) < 0)) {
        return -1;
    }
    uint32_t j = h & (t->nslot - 1);
    while (t->slot[j].rec) {
        j = (j + 1) & (t->nslot - 1);
    }
    uint32_t head[2] = {t->n, (uint32_t)n};
    pk_strent e = {bytes + pad + PK_STRREC_HEAD, (uint32_t)n, h};
    if ((pad && append(&t->bytes, "\0\0\0", pad) < 0) || append(&t->bytes, head, sizeof head) < 0 ||
        append(&t->bytes, p, n) < 0 || append(&t->bytes, "", 1) < 0 ||
        append(&t->ent, &e, sizeof e) < 0) {
        t->bytes.len = bytes;
        return -1;
    }
    t->slot[j] = (pk_strslot){(uint32_t)((bytes + pad) / 4 + 1), h};
    return t->n++;
}

int64_t pk_strtab_intern(pk_strtab *t, const char *p, size_t n) {
    uint32_t h = pk_hash_bytes(p, n);
    size_t off;
    int64_t i = pk_strtab_find(t, p, n, h, &off);
    return i >= 0 ? i : pk_strtab_add(t, p, n, h);
}
