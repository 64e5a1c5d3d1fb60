/* SPDX-License-Identifier: MIT */
/* Compressed outputs (issue 16): -o x.gz (.zst, .bz2, .xz) writes through a stdio stream whose
 * writes go to the library's compressing writer (pgn_encoder, fopencookie). */
#define _GNU_SOURCE /* fopencookie */
#include "compress.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

enum { STREAM_CAP = 1 << 20 };

typedef struct zout {
    FILE *under;
    pgn_encoder *e;
    char stream[STREAM_CAP]; /* the stdio stream's buffer (output.c: big_buffer) */
} zout;

/* The encoder's output: the file below. */
static ptrdiff_t put(void *ctx, const void *buf, size_t len) {
    zout *o = ctx;
    return fwrite(buf, 1, len, o->under) == len ? (ptrdiff_t)len : -1;
}

static ssize_t zout_write(void *cookie, const char *data, size_t len) {
    zout *o = cookie;
    return pgn_encoder_write(o->e, data, len) < 0 ? -1 : (ssize_t)len;
}

static int zout_close(void *cookie) {
    zout *o = cookie;
    int bad = pgn_encoder_finish(o->e) != PGN_OK;
    pgn_encoder_free(o->e);
    free(o);
    return bad ? EOF : 0;
}

FILE *cli_zout_open(FILE *under, pgn_format fmt, char *msg, size_t cap) {
    if (fmt == PGN_FORMAT_PLAIN) {
        return under;
    }
    zout *o = calloc(1, sizeof *o);
    if (o == NULL) {
        snprintf(msg, cap, "out of memory");
        return NULL;
    }
    o->under = under;
    if (pgn_encoder_new(&o->e, fmt, put, o, msg, cap) != PGN_OK) {
        free(o);
        return NULL;
    }
    cookie_io_functions_t io = {NULL, zout_write, NULL, zout_close};
    FILE *f = fopencookie(o, "w", io);
    if (f == NULL) {
        pgn_encoder_free(o->e);
        free(o);
        snprintf(msg, cap, "out of memory");
        return NULL;
    }
    setvbuf(f, o->stream, _IOFBF, STREAM_CAP); /* with NULL, glibc would ignore the size */
    return f;
}

int cli_zout_close(FILE *f, FILE *under) {
    if (f == under) {
        return 0;
    }
    return fclose(f) == 0 ? 0 : -1;
}
