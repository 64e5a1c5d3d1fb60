/* SPDX-License-Identifier: MIT */
/* Buffered output of the SVG writers: a fixed buffer flushed to the caller's pgn_write_fn. */
#include "render_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pgnk_svg_init(svg_out *o, pgn_write_fn fn, void *ctx) {
    o->fn = fn;
    o->ctx = ctx;
    o->failed = 0;
    o->len = 0;
}

static void flush(svg_out *o) {
    if (!o->failed && o->len && o->fn(o->ctx, o->buf, o->len) != (ptrdiff_t)o->len) {
        o->failed = 1;
    }
    o->len = 0;
}

void pgnk_svg_put(svg_out *o, const char *s, size_t n) {
    while (n) {
        if (o->len == sizeof o->buf) {
            flush(o);
        }
        size_t room = sizeof o->buf - o->len;
        size_t k = n < room ? n : room;
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
    }
}

void pgnk_svg_puts(svg_out *o, const char *s) {
    pgnk_svg_put(o, s, strlen(s));
}

void pgnk_svg_printf(svg_out *o, const char *fmt, ...) {
    for (int pass = 0; pass < 2; pass++) { /* straight into the buffer; flushed once if full */
        size_t room = sizeof o->buf - o->len;
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(o->buf + o->len, room, fmt, ap);
        va_end(ap);
        if (n < 0) {
            return;
        }
        if ((size_t)n < room || pass == 1) {
            o->len += (size_t)n < room ? (size_t)n : room - 1;
            return;
        }
        flush(o);
    }
}

pgn_status pgnk_svg_finish(svg_out *o) {
    flush(o);
    return o->failed ? PGN_E_IO : PGN_OK;
}
