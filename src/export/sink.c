/* SPDX-License-Identifier: MIT */
/* The writers' common head (sink.h): their allocation, their iterator, their output callback. */
#include "sink.h"

#include <assert.h>

#include "../base/alloc.h"

void *pgnk_sink_new(size_t size, const pgn_allocator *alloc, pgn_write_fn fn, void *ctx,
                    pgn_status *st) {
    pgnk_sink *s;
    assert(size >= sizeof *s && fn != NULL);
    s = pgnk_alloc_object(alloc, size, st);
    if (s == NULL) {
        return NULL;
    }
    pgnk_alloc_copy(&s->alloc, alloc);
    s->fn = fn;
    s->ctx = ctx;
    if (pgn_iter_new(&s->iter, &s->alloc) != PGN_OK) {
        pgnk_sink_free(s);
        *st = PGN_E_NOMEM;
        return NULL;
    }
    return s;
}

void pgnk_sink_free(pgnk_sink *sink) {
    pgn_allocator alloc;
    if (sink == NULL) {
        return;
    }
    alloc = sink->alloc;
    pgn_iter_free(sink->iter);
    pgnk_free(&alloc, sink);
}

pgn_status pgnk_sink_write(const pgnk_sink *sink, const void *p, size_t n) {
    ptrdiff_t r = sink->fn(sink->ctx, p, n);
    return r < 0 || (size_t)r != n ? PGN_E_IO : PGN_OK;
}
