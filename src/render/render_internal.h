/* SPDX-License-Identifier: MIT */
/* The render layer's output: a fixed buffer on the caller's stack that is flushed to a
 * pgn_write_fn, so drawing a board or a graph allocates nothing. */
#ifndef PGNKIT_RENDER_INTERNAL_H
#define PGNKIT_RENDER_INTERNAL_H

#include "pgnkit/render.h"

typedef struct svg_out {
    pgn_write_fn fn;
    void *ctx;
    int failed; /* fn returned an error: nothing more is written */
    size_t len;
    char buf[4096];
} svg_out;

void pgnk_svg_init(svg_out *o, pgn_write_fn fn, void *ctx);
/* Appends n bytes. */
void pgnk_svg_put(svg_out *o, const char *s, size_t n);
/* Appends the NUL-terminated s. */
void pgnk_svg_puts(svg_out *o, const char *s);
/* Appends printf-formatted text (at most sizeof buf - 1 bytes per call; numbers and fixed words
 * only). */
void pgnk_svg_printf(svg_out *o, const char *fmt, ...);
/* Flushes; PGN_OK, or PGN_E_IO if fn failed at any point. */
pgn_status pgnk_svg_finish(svg_out *o);

#endif
