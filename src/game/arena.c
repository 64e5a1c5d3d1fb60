/* SPDX-License-Identifier: MIT */
/* The game arena (STYLE C6): chunks from the caller's allocator, growing geometrically up to a
 * cap, bump allocation, reset keeping the first chunk. Sizes are overflow-checked; no globals. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN PGNK_ARENA_ALIGN
#define HEADER_SIZE PGNK_ARENA_HEADER

void pgnk_arena_init(arena *a, const pgn_allocator *alloc) {
    memset(a, 0, sizeof *a);
    pgnk_alloc_copy(&a->alloc, alloc);
    a->next_size = ARENA_FIRST_CHUNK;
}

void pgnk_arena_free(arena *a) {
    arena_chunk *c = a->head;
    while (c != NULL) {
        arena_chunk *next = c->next;
        pgnk_free(&a->alloc, c);
        c = next;
    }
    a->head = NULL;
    a->first = NULL;
    a->last = NULL;
    a->next_size = ARENA_FIRST_CHUNK;
}

void pgnk_arena_reset(arena *a) {
    /* the head is kept, not the oldest chunk: it is the largest regular one, so that a stream of
     * games of one size finds its room at once instead of a malloc and a free of the chunks beyond
     * the first each game (issue 32); memory stays bounded by the largest game */
    arena_chunk *keep = a->head, *c = a->head;
    while (c != NULL) {
        arena_chunk *next = c->next;
        if (c != keep) {
            pgnk_free(&a->alloc, c);
        }
        c = next;
    }
    a->first = keep;
    a->last = NULL;
    a->next_size = ARENA_FIRST_CHUNK;
    if (keep != NULL) {
        size_t size = keep->cap + HEADER_SIZE; /* the growth continues as after this chunk */
        keep->next = NULL;
        keep->used = 0;
        a->next_size = size < ARENA_MAX_CHUNK / 2 ? size * 2 : ARENA_MAX_CHUNK;
        if (a->next_size < ARENA_FIRST_CHUNK * 2) {
            a->next_size = ARENA_FIRST_CHUNK * 2;
        }
    }
}

static arena_chunk *chunk_new(arena *a, size_t cap) {
    arena_chunk *c;
    if (cap > SIZE_MAX - HEADER_SIZE) {
        return NULL;
    }
    c = pgnk_malloc(&a->alloc, HEADER_SIZE + cap);
    if (c == NULL) {
        return NULL;
    }
    c->next = NULL;
    c->cap = cap;
    c->used = 0;
    return c;
}

static char *chunk_data(arena_chunk *c) {
    return (char *)c + HEADER_SIZE;
}

/* Makes room for rounded bytes: a chunk of its own for a large request (left behind the head so
 * that the head keeps serving small ones), else a new head of the next geometric size. */
static void *alloc_slow(arena *a, size_t rounded) {
    arena_chunk *c;
    if (a->head != NULL && rounded > a->next_size / 4) {
        c = chunk_new(a, rounded);
        if (c == NULL) {
            return NULL;
        }
        c->used = rounded;
        c->next = a->head->next;
        a->head->next = c;
        a->last = NULL;
        return chunk_data(c);
    }
    c = chunk_new(a, rounded > a->next_size - HEADER_SIZE ? rounded : a->next_size - HEADER_SIZE);
    if (c == NULL) {
        return NULL;
    }
    c->next = a->head;
    a->head = c;
    if (a->first == NULL) {
        a->first = c;
    }
    if (a->next_size < ARENA_MAX_CHUNK) {
        a->next_size *= 2;
    }
    c->used = rounded;
    a->last = chunk_data(c);
    return a->last;
}

void *pgnk_arena_alloc(arena *a, size_t size) {
    size_t rounded;
    arena_chunk *h = a->head;
    if (size > SIZE_MAX - ALIGN) {
        return NULL;
    }
    rounded = (size + ALIGN - 1) / ALIGN * ALIGN;
    if (h != NULL && h->cap - h->used >= rounded) {
        a->last = chunk_data(h) + h->used;
        h->used += rounded;
        return a->last;
    }
    return alloc_slow(a, rounded);
}

void *pgnk_arena_alloc_some(arena *a, size_t size, size_t max, size_t *count) {
    void *p = pgnk_arena_alloc(a, size); /* the first, as any allocation */
    arena_chunk *h = a->head;
    size_t n, start;
    *count = p != NULL;
    if (p == NULL || max < 2 || size == 0 ||
        (char *)p != chunk_data(h) + h->used - (size + ALIGN - 1) / ALIGN * ALIGN) {
        return p; /* (not the head's latest: an oversized allocation) */
    }
    /* objects of size bytes one after the other from p (a C array: each as aligned as its type)
     * up to the end of the head's room (a multiple of ALIGN, as used stays) */
    start = (size_t)((char *)p - chunk_data(h));
    n = (h->cap - start) / size;
    n = n < max ? n : max;
    h->used = (start + n * size + ALIGN - 1) / ALIGN * ALIGN;
    h->used = h->used < h->cap ? h->used : h->cap;
    a->last = n > 1 ? NULL : a->last; /* (nothing to grow in place past the objects) */
    *count = n;
    return p;
}

void *pgnk_arena_calloc(arena *a, size_t count, size_t size) {
    void *p;
    if (size != 0 && count > SIZE_MAX / size) {
        return NULL;
    }
    p = pgnk_arena_alloc(a, count * size);
    if (p != NULL) {
        memset(p, 0, count * size);
    }
    return p;
}

void *pgnk_arena_realloc(arena *a, void *ptr, size_t old_size, size_t new_size) {
    arena_chunk *h = a->head;
    void *p;
    if (ptr == NULL) {
        return pgnk_arena_alloc(a, new_size);
    }
    if (new_size <= old_size) {
        return ptr;
    }
    if (ptr == a->last && h != NULL && new_size <= SIZE_MAX - ALIGN) {
        size_t offset = (size_t)(a->last - chunk_data(h));
        size_t rounded = (new_size + ALIGN - 1) / ALIGN * ALIGN;
        if (rounded <= h->cap - offset) {
            h->used = offset + rounded;
            return ptr;
        }
    }
    p = pgnk_arena_alloc(a, new_size);
    if (p != NULL) {
        memcpy(p, ptr, old_size);
    }
    return p;
}

char *pgnk_arena_strndup(arena *a, const char *s, size_t len) {
    char *p;
    if (len == SIZE_MAX) {
        return NULL;
    }
    p = pgnk_arena_alloc(a, len + 1);
    if (p != NULL) {
        if (len != 0) {
            memcpy(p, s, len);
        }
        p[len] = '\0';
    }
    return p;
}
