/* SPDX-License-Identifier: MIT */
/* A chunked bump allocator over the caller's pgn_allocator: one per game holds its nodes, tags,
 * comments and NAG arrays (STYLE C6). Internal; nothing here prints, aborts or uses globals. */
#ifndef PGNKIT_ARENA_H
#define PGNKIT_ARENA_H

#include <stdalign.h>
#include <stddef.h>

#include "../base/alloc.h"
#include "pgnkit/base.h"

/* Sizes of the chunks: the first one, and the cap of the geometric growth. A request larger than
 * a quarter of the next chunk gets a chunk of its own. */
#define ARENA_FIRST_CHUNK ((size_t)4096)
#define ARENA_MAX_CHUNK ((size_t)1 << 20)

typedef struct arena_chunk arena_chunk;

/* A chunk's header; its data follows at PGNK_ARENA_HEADER bytes from its start. In the header so
 * that pgnk_arena_alloc_inline can bump the head chunk where it is called. */
struct arena_chunk {
    arena_chunk *next;
    size_t cap;  /* usable bytes after the header */
    size_t used; /* bytes handed out, always a multiple of PGNK_ARENA_ALIGN */
};

/* Every allocation is aligned for any object; the header is rounded up to keep the data so. */
#define PGNK_ARENA_ALIGN ((size_t)alignof(max_align_t))
#define PGNK_ARENA_HEADER                                                                          \
    ((sizeof(arena_chunk) + PGNK_ARENA_ALIGN - 1) / PGNK_ARENA_ALIGN * PGNK_ARENA_ALIGN)

typedef struct arena {
    pgn_allocator alloc; /* a copy of the caller's (all NULL = libc) */
    arena_chunk *head;   /* the chunk allocations come from; newest first */
    arena_chunk *first;  /* the chunk pgnk_arena_reset kept, or the oldest one */
    char *last;          /* the most recent allocation, which pgnk_arena_realloc may extend */
    size_t next_size;    /* size of the next regular chunk */
} arena;

/* Prepares an empty arena; allocates nothing. alloc may be NULL (libc); it is copied. */
void pgnk_arena_init(arena *a, const pgn_allocator *alloc);
/* Frees every chunk. The arena may be initialised again afterwards. */
void pgnk_arena_free(arena *a);
/* Forgets every allocation; keeps the head chunk (the largest regular one) and frees the others. */
void pgnk_arena_reset(arena *a);

/* size bytes aligned for any object, or NULL when out of memory (size 0 gives a valid pointer). */
void *pgnk_arena_alloc(arena *a, size_t size);
/* pgnk_arena_alloc for a small size known where it is called (a move's node): the head chunk
 * bumped inline when it has room, else the call. */
static inline void *pgnk_arena_alloc_inline(arena *a, size_t size) {
    size_t rounded = (size + PGNK_ARENA_ALIGN - 1) / PGNK_ARENA_ALIGN * PGNK_ARENA_ALIGN;
    arena_chunk *h = a->head;
    if (h != NULL && h->cap - h->used >= rounded) {
        a->last = (char *)h + PGNK_ARENA_HEADER + h->used;
        h->used += rounded;
        return a->last;
    }
    return pgnk_arena_alloc(a, size);
}
/* pgnk_arena_alloc of size bytes, then as many more objects of that size (up to max in all) as
 * the same chunk holds, one after the other: *count of them (0: NULL, out of memory). For a
 * caller that bumps a pointer of its own (the reader's tree builder, its nodes: issue 32). */
void *pgnk_arena_alloc_some(arena *a, size_t size, size_t max, size_t *count);
/* Like pgnk_arena_alloc for count * size bytes (overflow checked), zero-filled. */
void *pgnk_arena_calloc(arena *a, size_t count, size_t size);
/* Grows ptr (old_size bytes, from this arena) to new_size, in place if it is the latest
 * allocation and fits; otherwise copies. NULL when out of memory (ptr is then unchanged). */
void *pgnk_arena_realloc(arena *a, void *ptr, size_t old_size, size_t new_size);
/* A NUL-terminated copy of len bytes at s (s may be NULL when len is 0), or NULL. */
char *pgnk_arena_strndup(arena *a, const char *s, size_t len);

/* The arena of a game (game.c), for modules of the game layer that compose text in it. */
struct pgn_game;
arena *pgnk_game_arena(struct pgn_game *game);

#endif
