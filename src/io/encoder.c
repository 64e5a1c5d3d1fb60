/* SPDX-License-Identifier: MIT */
/* A compressing writer (source.h: pgn_encoder; issue 16's -o x.gz, from cli/zout.c): the bytes
 * written are compressed by the codec of codec.h and handed on to a pgn_write_fn. */
#include "codec.h"

#include <stdlib.h>
#include <string.h>

enum { OUT_CAP = 1 << 16 };

struct pgn_encoder {
    pgn_format fmt;
    pgn_write_fn write;
    void *ctx;
    int failed;
    pgnk_codec c;
    unsigned char buf[OUT_CAP];
};

/* Hands the compressed bytes buf[0..n) on. */
static int put(pgn_encoder *e, size_t n) {
    if (n && e->write(e->ctx, e->buf, n) != (ptrdiff_t)n) {
        e->failed = 1;
    }
    return e->failed ? -1 : 0;
}

/* Compresses data[0..len) (finish: and ends the stream). Returns 0 or -1. */
static int compress_chunk(pgn_encoder *e, const unsigned char *data, size_t len, int finish) {
    for (;;) {
        pgnk_zstep x = {data, len, 0, e->buf, OUT_CAP, 0, finish, NULL};
        int r = pgnk_codec_step(&e->c, &x);
        e->failed |= r == PGNK_ZC_ERR;
        if (put(e, x.made) < 0) {
            return -1;
        }
        data += x.used;
        len -= x.used;
        if (finish ? r == PGNK_ZC_END : (len == 0 && x.made < OUT_CAP)) {
            return 0;
        }
    }
}

pgn_status pgn_encoder_new(pgn_encoder **out, pgn_format fmt, pgn_write_fn write, void *ctx,
                           char *msg, size_t cap) {
    *out = NULL;
    const char *lib = pgn_format_missing_lib(fmt);
    if (lib != NULL) {
        pgnk_set_msg(msg, cap, "cannot write %s: this pgnkit was built without %s",
                     pgn_format_name(fmt), lib);
        return PGN_E_IO;
    }
    pgn_encoder *e = calloc(1, sizeof *e);
    if (e == NULL) {
        pgnk_set_msg(msg, cap, "out of memory");
        return PGN_E_NOMEM;
    }
    e->fmt = fmt;
    e->write = write;
    e->ctx = ctx;
    if (fmt != PGN_FORMAT_PLAIN && !pgnk_codec_start(&e->c, fmt, 1)) {
        pgnk_codec_end(&e->c);
        free(e);
        pgnk_set_msg(msg, cap, "out of memory");
        return PGN_E_NOMEM;
    }
    *out = e;
    return PGN_OK;
}

ptrdiff_t pgn_encoder_write(void *encoder, const void *buf, size_t len) {
    pgn_encoder *e = encoder;
    if (e->fmt == PGN_FORMAT_PLAIN) {
        return e->write(e->ctx, buf, len);
    }
    return compress_chunk(e, buf, len, 0) < 0 ? -1 : (ptrdiff_t)len;
}

pgn_status pgn_encoder_finish(pgn_encoder *e) {
    if (e->fmt == PGN_FORMAT_PLAIN) {
        return e->failed ? PGN_E_IO : PGN_OK;
    }
    int bad = e->failed || compress_chunk(e, NULL, 0, 1) < 0;
    return bad ? PGN_E_IO : PGN_OK;
}

void pgn_encoder_free(pgn_encoder *e) {
    if (e != NULL) {
        pgnk_codec_end(&e->c);
        free(e);
    }
}
