/* SPDX-License-Identifier: MIT */
/* The one allocator rule (include/pgnkit/base.h, as yyjson's): a pgn_allocator gives all three
 * functions or none; no allocator, or one with all three NULL, means libc. A half-filled one is
 * refused with PGN_E_BAD_ALLOCATOR by every pgn_*_new that takes one (pgnk_alloc_check), so the
 * functions below never mix the caller's functions with libc's. Also the growth helper, pgnk_grow,
 * for the blocks on the caller's allocator that grow in place (stacks, output buffers); what it
 * does not fit (blocks in a game's arena, a hash table rebuilt) is listed in docs/design.md
 * (allocation and growth). Internal; no globals, nothing printed. */
#ifndef PGNKIT_ALLOC_H
#define PGNKIT_ALLOC_H

#include <stddef.h>

#include "pgnkit/base.h"

/* PGN_OK for NULL, for all three functions, or for none of them; else PGN_E_BAD_ALLOCATOR. */
pgn_status pgnk_alloc_check(const pgn_allocator *alloc);
/* Copies alloc (checked) into *dst; NULL gives the all-NULL allocator, which means libc. */
void pgnk_alloc_copy(pgn_allocator *dst, const pgn_allocator *alloc);

/* A zero-filled object of size bytes for a pgn_*_new: NULL with *st PGN_E_BAD_ALLOCATOR (alloc
 * half-filled) or PGN_E_NOMEM. The constructor then keeps a copy of alloc (pgnk_alloc_copy). */
void *pgnk_alloc_object(const pgn_allocator *alloc, size_t size, pgn_status *st);

/* size bytes (size 0 gives a valid pointer), or NULL when out of memory. alloc may be NULL. */
void *pgnk_malloc(const pgn_allocator *alloc, size_t size);
/* Resizes ptr (old_size bytes; NULL with old_size 0 allocates) to new_size; NULL when out of
 * memory, ptr then unchanged. */
void *pgnk_realloc(const pgn_allocator *alloc, void *ptr, size_t old_size, size_t new_size);
/* Frees ptr (NULL is ignored). */
void pgnk_free(const pgn_allocator *alloc, void *ptr);

/* Grows the block *p of *cap elements of elem bytes to hold at least need: doubling from
 * first (or from *cap), sizes checked for overflow. Returns 1, or 0 when out of memory or too
 * large, with *p and *cap unchanged. */
int pgnk_grow(const pgn_allocator *alloc, void **p, size_t *cap, size_t need, size_t elem,
              size_t first);

/* size bytes rounded up to whole 2 MiB pages, aligned to one and on transparent huge pages
 * where the system gives them (madvise): the kernel maps each in one fault instead of 512, and a
 * first touch of a 4 KiB page costs some microseconds on a virtual machine. For libc's memory
 * only (freed with free); NULL when out of memory. */
void *pgnk_huge_alloc(size_t size);

/* A growable byte buffer through the caller's allocator (the writers' output buffers). */
typedef struct pgnk_buf {
    char *ptr;
    size_t len, cap;
} pgnk_buf;

/* Makes room for n more bytes after len; 1, or 0 when out of memory (the buffer unchanged). */
int pgnk_buf_reserve(pgnk_buf *b, const pgn_allocator *alloc, size_t n);
/* Frees the buffer's memory and empties it. */
void pgnk_buf_free(pgnk_buf *b, const pgn_allocator *alloc);

#endif
