/* SPDX-License-Identifier: MIT */
/* What each streaming writer of this layer (pgn_writer, pgn_json_writer) keeps of its caller, as
 * the first member of its struct: a copy of the allocator, the output callback and its context,
 * and the game iterator it walks the move tree with. One constructor, one destructor and one way
 * of handing bytes to the callback for both. Internal. */
#ifndef PGNKIT_EXPORT_SINK_H
#define PGNKIT_EXPORT_SINK_H

#include "pgnkit/game.h"
#include "pgnkit/writer.h"

typedef struct pgnk_sink {
    pgn_allocator alloc; /* the caller's, copied: no pointer of the caller's is kept */
    pgn_write_fn fn;
    void *ctx;
    pgn_iter *iter; /* the walk of the move tree */
} pgnk_sink;

/* A zero-filled writer of size bytes (size >= sizeof(pgnk_sink)) whose first member is a
 * pgnk_sink, that sink filled in from alloc (NULL: libc), fn and ctx, with a fresh iterator.
 * NULL with *st PGN_E_BAD_ALLOCATOR or PGN_E_NOMEM. */
void *pgnk_sink_new(size_t size, const pgn_allocator *alloc, pgn_write_fn fn, void *ctx,
                    pgn_status *st);

/* Frees the iterator and the writer whose first member is sink (the writer's other blocks are
 * the caller's to free first, with sink->alloc). Accepts NULL. */
void pgnk_sink_free(pgnk_sink *sink);

/* Hands the n bytes at p to the callback: PGN_OK, or PGN_E_IO when it fails or takes fewer. */
pgn_status pgnk_sink_write(const pgnk_sink *sink, const void *p, size_t n);

#endif
