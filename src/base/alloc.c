/* SPDX-License-Identifier: MIT */
/* The one allocator rule: the caller's three functions, or libc's (see alloc.h). */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE (Linux) */
#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

pgn_status pgnk_alloc_check(const pgn_allocator *alloc) {
    int n;
    if (alloc == NULL) {
        return PGN_OK;
    }
    n = (alloc->malloc != NULL) + (alloc->realloc != NULL) + (alloc->free != NULL);
    return n == 0 || n == 3 ? PGN_OK : PGN_E_BAD_ALLOCATOR;
}

void pgnk_alloc_copy(pgn_allocator *dst, const pgn_allocator *alloc) {
    static const pgn_allocator libc = {NULL, NULL, NULL, NULL};
    *dst = alloc != NULL ? *alloc : libc;
}

void *pgnk_alloc_object(const pgn_allocator *alloc, size_t size, pgn_status *st) {
    void *p;
    *st = pgnk_alloc_check(alloc);
    if (*st != PGN_OK) {
        return NULL;
    }
    p = pgnk_malloc(alloc, size);
    if (p == NULL) {
        *st = PGN_E_NOMEM;
        return NULL;
    }
    memset(p, 0, size);
    return p;
}

void *pgnk_malloc(const pgn_allocator *alloc, size_t size) {
    if (alloc == NULL || alloc->malloc == NULL) {
        return malloc(size ? size : 1);
    }
    return alloc->malloc(alloc->ctx, size ? size : 1);
}

void *pgnk_realloc(const pgn_allocator *alloc, void *ptr, size_t old_size, size_t new_size) {
    if (alloc == NULL || alloc->malloc == NULL) {
        return realloc(ptr, new_size ? new_size : 1);
    }
    if (ptr == NULL) {
        return alloc->malloc(alloc->ctx, new_size ? new_size : 1);
    }
    return alloc->realloc(alloc->ctx, ptr, old_size, new_size ? new_size : 1);
}

void pgnk_free(const pgn_allocator *alloc, void *ptr) {
    if (ptr == NULL) {
        return;
    }
    if (alloc == NULL || alloc->malloc == NULL) {
        free(ptr);
    } else {
        alloc->free(alloc->ctx, ptr);
    }
}

int pgnk_grow(const pgn_allocator *alloc, void **p, size_t *cap, size_t need, size_t elem,
              size_t first) {
    size_t n = *cap ? *cap : (first ? first : 1);
    void *q;
    while (n < need) {
        if (n > SIZE_MAX / 2) {
            return 0;
        }
        n *= 2;
    }
    if (n > SIZE_MAX / elem) {
        return 0;
    }
    q = pgnk_realloc(alloc, *p, *cap * elem, n * elem);
    if (q == NULL) {
        return 0;
    }
    *p = q;
    *cap = n;
    return 1;
}

int pgnk_buf_reserve(pgnk_buf *b, const pgn_allocator *alloc, size_t n) {
    void *p = b->ptr;
    if (n <= b->cap - b->len) {
        return 1;
    }
    if (n > SIZE_MAX - b->len || !pgnk_grow(alloc, &p, &b->cap, b->len + n, 1, 4096)) {
        return 0;
    }
    b->ptr = p;
    return 1;
}

void pgnk_buf_free(pgnk_buf *b, const pgn_allocator *alloc) {
    pgnk_free(alloc, b->ptr);
    b->ptr = NULL;
    b->len = 0;
    b->cap = 0;
}

void *pgnk_huge_alloc(size_t size) {
    const size_t huge = (size_t)1 << 21;
    if (size > SIZE_MAX - huge) {
        return NULL;
    }
    size_t whole = size == 0 ? huge : (size + huge - 1) / huge * huge;
    void *q = aligned_alloc(huge, whole);
#ifdef MADV_HUGEPAGE
    if (q != NULL) {
        (void)madvise(q, whole, MADV_HUGEPAGE);
    }
#endif
    return q;
}
