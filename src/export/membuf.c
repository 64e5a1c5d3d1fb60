/* SPDX-License-Identifier: MIT */
/* pgn_membuf (include/pgnkit/writer.h): the one growable output buffer for the programs that
 * write games to memory (the CLI, the Python binding, the fuzzers), on the library's one growth
 * helper (pgnk_buf_reserve: doubling from 4 KiB, overflow checked). */
#include "pgnkit/writer.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "../base/alloc.h"

ptrdiff_t pgn_membuf_write(void *ctx, const void *buf, size_t len) {
    pgn_membuf *b = ctx;
    assert(b != NULL && (buf != NULL || len == 0) && b->len <= b->cap);
    if (len <= b->cap - b->len && len > 0) { /* it fits: the path of nearly every write */
        memcpy(b->ptr + b->len, buf, len);
        b->len += len;
        return (ptrdiff_t)len;
    }
    if (len > PTRDIFF_MAX || pgnk_alloc_check(b->alloc) != PGN_OK) {
        return -1;
    }
    pgnk_buf out = {b->ptr, b->len, b->cap};
    if (!pgnk_buf_reserve(&out, b->alloc, len)) {
        return -1;
    }
    b->ptr = out.ptr;
    b->cap = out.cap;
    if (len > 0) {
        memcpy(b->ptr + b->len, buf, len);
        b->len += len;
    }
    return (ptrdiff_t)len;
}

void pgn_membuf_free(pgn_membuf *b) {
    assert(b != NULL);
    pgnk_free(b->alloc, b->ptr);
    b->ptr = NULL;
    b->len = 0;
    b->cap = 0;
}
