/* SPDX-License-Identifier: MIT */
/* Compressed outputs (issue 16): -o x.gz (.zst, .bz2, .xz) writes through a stdio stream whose
 * writes are compressed (fopencookie) by the codec of zcodec.h. */
#define _GNU_SOURCE /* fopencookie */
#include "zcodec.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

enum { OUT_CAP = 1 << 16, STREAM_CAP = 1 << 20 };

cli_zformat cli_zformat_of_name(const char *path) {
    static const char *const ext[] = {NULL, ".gz", ".zst", ".bz2", ".xz"};
    size_t n = path ? strlen(path) : 0;
    for (int f = CLI_Z_GZIP; f <= CLI_Z_XZ; f++) {
        size_t k = strlen(ext[f]);
        if (n > k && strcmp(path + n - k, ext[f]) == 0) {
            return (cli_zformat)f;
        }
    }
    return CLI_Z_PLAIN;
}

typedef struct zout {
    FILE *under;
    int failed;
    cli_zcodec c;
    unsigned char buf[OUT_CAP];
    char stream[STREAM_CAP]; /* the stdio stream's buffer (output.c: big_buffer) */
} zout;

/* Writes the compressed bytes buf[0..n) to the file below. */
static int put(zout *o, size_t n) {
    if (n && fwrite(o->buf, 1, n, o->under) != n) {
        o->failed = 1;
    }
    return o->failed ? -1 : 0;
}

/* Compresses data[0..len) (finish: and ends the stream). Returns 0 or -1. */
static int compress_chunk(zout *o, const unsigned char *data, size_t len, int finish) {
    for (;;) {
        cli_zstep x = {data, len, 0, o->buf, OUT_CAP, 0, finish, NULL};
        int r = cli_zcodec_step(&o->c, &x);
        o->failed |= r == CLI_ZC_ERR;
        if (put(o, x.made) < 0) {
            return -1;
        }
        data += x.used;
        len -= x.used;
        if (finish ? r == CLI_ZC_END : (len == 0 && x.made < OUT_CAP)) {
            return 0;
        }
    }
}

static ssize_t zout_write(void *cookie, const char *data, size_t len) {
    zout *o = cookie;
    return compress_chunk(o, (const unsigned char *)data, len, 0) < 0 ? -1 : (ssize_t)len;
}

static int zout_close(void *cookie) {
    zout *o = cookie;
    int bad = o->failed || compress_chunk(o, NULL, 0, 1) < 0;
    cli_zcodec_end(&o->c);
    free(o);
    return bad ? EOF : 0;
}

FILE *cli_zout_open(FILE *under, cli_zformat fmt, char *msg, size_t cap) {
    if (fmt == CLI_Z_PLAIN) {
        return under;
    }
    const char *lib = cli_zformat_missing_lib(fmt);
    if (lib != NULL) {
        cli_set_msg(msg, cap, "cannot write %s: this pgnkit was built without %s",
                    cli_zformat_name(fmt), lib);
        return NULL;
    }
    zout *o = calloc(1, sizeof *o);
    if (o == NULL) {
        cli_set_msg(msg, cap, "out of memory");
        return NULL;
    }
    o->under = under;
    if (!cli_zcodec_start(&o->c, fmt, 1)) {
        cli_zcodec_end(&o->c);
        free(o);
        cli_set_msg(msg, cap, "out of memory");
        return NULL;
    }
    cookie_io_functions_t io = {NULL, zout_write, NULL, zout_close};
    FILE *f = fopencookie(o, "w", io);
    if (f == NULL) {
        cli_zcodec_end(&o->c);
        free(o);
        cli_set_msg(msg, cap, "out of memory");
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
