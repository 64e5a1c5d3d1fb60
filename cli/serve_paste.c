/* SPDX-License-Identifier: MIT */
/* pgnkit serve: a paste read with the server's caps (the library's pgn_paste_read) and the JSON
 * writing helpers every answer of the server uses (serve.h). */
#define _DEFAULT_SOURCE
#include "serve.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int serve_put(pgn_membuf *b, const void *p, size_t n) {
    return n == 0 || pgn_membuf_write(b, p, n) >= 0 ? 0 : -1;
}

int serve_printf(pgn_membuf *b, const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return -1;
    }
    if ((size_t)n < sizeof small) {
        return serve_put(b, small, (size_t)n);
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        return -1;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int r = serve_put(b, big, (size_t)n);
    free(big);
    return r;
}

/* pgn_json_html_write into a buffer: JSON from the library (strings) with <, >, & escaped */
static ptrdiff_t put_safe_cb(void *ctx, const void *p, size_t n) {
    pgn_json_html_sink sink = {pgn_membuf_write, ctx};
    return pgn_json_html_write(&sink, p, n);
}

/* the library's one JSON string writer (pgn_json_write_string), and <, >, & escaped */
int serve_json_string(pgn_membuf *b, const char *s, size_t n) {
    return pgn_json_write_string(put_safe_cb, b, s, n == (size_t)-1 ? strlen(s) : n) == PGN_OK ? 0
                                                                                               : -1;
}

void serve_reader_opts(pgn_reader_opts *ro, int fix) {
    memset(ro, 0, sizeof *ro);
#ifdef PGN_READ_FIX
    ro->flags |= fix ? PGN_READ_FIX : 0u;
#else
    (void)fix;
#endif
}

int serve_read_paste(const serve_limits *lim, const char *text, size_t len, int fix,
                     pgn_paste *pa) {
    pgn_paste_opts po = {PGN_PASTE_ENTRIES, 0,   lim->max_games, lim->max_plies, 0,
                         "serve_paste",     NULL};
    pgn_reader_opts ro;
    serve_reader_opts(&ro, fix);
    po.reader_flags = ro.flags;
    pgn_status st = pgn_paste_read(pa, text, len, &po);
    if (pa->over) { /* the page names the option that sets the cap */
        size_t n = strlen(pa->error);
        snprintf(pa->error + n, sizeof pa->error - n, " (%s)",
                 pa->over == PGN_PASTE_OVER_GAMES ? "--max-games" : "--max-plies");
    }
    return st == PGN_OK ? 200 : st == PGN_E_NOMEM ? 500 : 422;
}

int serve_paste_json(pgn_membuf *b, const pgn_paste *pa) {
    return pgn_paste_json(pa, pgn_membuf_write, b) == PGN_OK ? 0 : -1;
}

int serve_nomem(pgn_membuf *b) {
    b->len = 0;
    serve_printf(b, "{\"error\":\"out of memory\"}");
    return 500;
}

int serve_error_json(pgn_membuf *b, int status, const char *msg) {
    b->len = 0;
    if (serve_printf(b, "{\"error\":") < 0 || serve_json_string(b, msg, (size_t)-1) < 0 ||
        serve_printf(b, "}") < 0) {
        return serve_nomem(b);
    }
    return status;
}
