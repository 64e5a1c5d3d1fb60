/* SPDX-License-Identifier: MIT */
/* Compressed inputs and outputs (issue 16): the format of an input comes from its first bytes
 * (RFC 1952 gzip, RFC 8878 zstd, bzip2, xz), decoded through the system libraries the build found
 * (PGNKIT_HAVE_ZLIB, _ZSTD, _BZ2, _LZMA); several gzip members, bzip2 streams, xz streams and
 * zstd frames (skippable ones too) follow each other. Outputs are compressed by -o's extension. */
#define _GNU_SOURCE /* fopencookie */
#include "compress.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#ifdef PGNKIT_HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef PGNKIT_HAVE_ZSTD
#include <zstd.h>
#endif
#ifdef PGNKIT_HAVE_BZ2
#include <bzlib.h>
#endif
#ifdef PGNKIT_HAVE_LZMA
#include <lzma.h>
#endif

enum { IN_CAP = 1 << 17, PEEK = 512, OUT_CAP = 1 << 16, ZSTD_FEED = 1 << 14 };

struct cli_zin {
    FILE *f;
    cli_zformat fmt;
    unsigned char *in; /* IN_CAP bytes of the file: in[in_pos..in_len) not consumed yet */
    size_t in_pos, in_len;
    uint64_t in_off; /* offset in the file of in[0] */
    int in_eof;
    int ended;  /* the decoder ended a stream (gzip member, bzip2 stream, zstd frame) */
    int done;   /* 1: the end; -1: failed (err says why) */
    int inited; /* the decoder below is set up */
    union {
#ifdef PGNKIT_HAVE_ZLIB
        z_stream gz;
#endif
#ifdef PGNKIT_HAVE_ZSTD
        ZSTD_DStream *zs;
#endif
#ifdef PGNKIT_HAVE_BZ2
        bz_stream bz;
#endif
#ifdef PGNKIT_HAVE_LZMA
        lzma_stream xz;
#endif
        int none;
    } u;
    /* called when a stream (a zstd frame) ends: at in the file, after made more decoded bytes of
     * the current read */
    void (*on_end)(void *user, uint64_t at, size_t made);
    void *end_user;
    unsigned char peek[PEEK]; /* decoded bytes read ahead to look at them */
    size_t peek_len, peek_pos;
    char err[240];
};

static const char *const format_names[] = {"plain", "gzip", "zstd", "bzip2", "xz"};

const char *cli_zformat_name(cli_zformat f) {
    return format_names[f];
}

/* NULL when this build reads and writes format f, else the library it lacks. */
static const char *missing_lib(cli_zformat f) {
    switch (f) {
#ifndef PGNKIT_HAVE_ZLIB
    case CLI_Z_GZIP: return "zlib (zlib1g-dev)";
#endif
#ifndef PGNKIT_HAVE_ZSTD
    case CLI_Z_ZSTD: return "libzstd (libzstd-dev)";
#endif
#ifndef PGNKIT_HAVE_BZ2
    case CLI_Z_BZIP2: return "libbz2 (libbz2-dev)";
#endif
#ifndef PGNKIT_HAVE_LZMA
    case CLI_Z_XZ: return "liblzma (liblzma-dev)";
#endif
    default: return NULL;
    }
}

/* ---- recognising the first bytes ---- */

typedef struct magic {
    const char *bytes;
    size_t len, at;
    int fmt; /* a cli_zformat, or -1: refused */
    const char *what, *hint;
} magic;

static const magic magics[] = {
    {"\x1f\x8b", 2, 0, CLI_Z_GZIP, "gzip data", "zcat"},
    {"\x28\xb5\x2f\xfd", 4, 0, CLI_Z_ZSTD, "zstd data", "zstdcat"},
    {"BZh", 3, 0, CLI_Z_BZIP2, "bzip2 data", "bzcat"},
    {"\xfd"
     "7zXZ",
     6, 0, CLI_Z_XZ, "xz data", "xzcat"},
    {"PK\x03\x04", 4, 0, -1, "a zip archive", "unzip -p FILE"},
    {"PK\x05\x06", 4, 0, -1, "a zip archive", "unzip -p FILE"},
    {"7z\xbc\xaf\x27\x1c", 6, 0, -1, "a 7z archive", "7z x -so FILE"},
    {"Rar!\x1a\x07", 6, 0, -1, "a RAR archive", "unrar p FILE"},
    {"\x04\x22\x4d\x18", 4, 0, -1, "lz4 data", "lz4cat FILE"},
    {"ustar", 5, 257, -1, "a tar archive", "tar -xOf FILE"},
};

/* The magic at the start of p[0..n), or NULL. A zstd skippable frame (magic 0x184D2A5?, which
 * pzstd and the lichess files put first) counts as zstd; bzip2 needs its block size digit. */
static const magic *find_magic(const unsigned char *p, size_t n) {
    if (n >= 4 && (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18) {
        return &magics[1];
    }
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
        const magic *m = &magics[i];
        if (n >= m->at + m->len && memcmp(p + m->at, m->bytes, m->len) == 0 &&
            (m->fmt != CLI_Z_BZIP2 || (n > 3 && p[3] >= '1' && p[3] <= '9'))) {
            return m;
        }
    }
    return NULL;
}

static void set_msg(char *msg, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
}

/* ---- the input buffer ---- */

/* Makes at least n bytes available in in[in_pos..) unless the file ends first (n <= IN_CAP).
 * Returns 0, or -1 on a read error (z->err set). */
static int fill(cli_zin *z, size_t n) {
    if (z->in_len - z->in_pos >= n || z->in_eof) {
        return 0;
    }
    size_t keep = z->in_len - z->in_pos;
    memmove(z->in, z->in + z->in_pos, keep);
    z->in_off += z->in_pos;
    z->in_pos = 0;
    z->in_len = keep;
    while (z->in_len < n && !z->in_eof) {
        size_t got = fread(z->in + z->in_len, 1, IN_CAP - z->in_len, z->f);
        z->in_len += got;
        if (got == 0) {
            if (ferror(z->f)) {
                set_msg(z->err, sizeof z->err, "read error at byte %llu: %s",
                        (unsigned long long)(z->in_off + z->in_len), strerror(errno));
                return -1;
            }
            z->in_eof = 1;
        }
    }
    return 0;
}

static uint64_t at_byte(const cli_zin *z) {
    return z->in_off + z->in_pos;
}

/* ---- decoders: one step each, from in[in_pos..in_len) into out ---- */

/* Sets z->err to "corrupt FORMAT data at byte N: why" and returns -1. */
static int corrupt(cli_zin *z, const char *why) {
    set_msg(z->err, sizeof z->err, "corrupt %s data at byte %llu: %s", format_names[z->fmt],
            (unsigned long long)at_byte(z), why);
    return -1;
}

static int start_decoder(cli_zin *z) {
    memset(&z->u, 0, sizeof z->u);
    int ok = 0;
    switch (z->fmt) {
#ifdef PGNKIT_HAVE_ZLIB
    case CLI_Z_GZIP: ok = inflateInit2(&z->u.gz, 15 + 16) == Z_OK; break;
#endif
#ifdef PGNKIT_HAVE_ZSTD
    case CLI_Z_ZSTD:
        /* long windows (zstd --long, up to 2 GiB) are accepted: the window is the file's choice */
        ok = (z->u.zs = ZSTD_createDStream()) != NULL &&
             !ZSTD_isError(ZSTD_DCtx_setParameter(z->u.zs, ZSTD_d_windowLogMax, 31));
        break;
#endif
#ifdef PGNKIT_HAVE_BZ2
    case CLI_Z_BZIP2: ok = BZ2_bzDecompressInit(&z->u.bz, 0, 0) == BZ_OK; break;
#endif
#ifdef PGNKIT_HAVE_LZMA
    case CLI_Z_XZ:
        ok = lzma_stream_decoder(&z->u.xz, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
        break;
#endif
    default: break;
    }
    z->inited = ok;
    if (!ok) {
        set_msg(z->err, sizeof z->err, "out of memory");
    }
    return ok ? 0 : -1;
}

static void end_decoder(cli_zin *z) {
    if (!z->inited) {
        return;
    }
    z->inited = 0;
    switch (z->fmt) {
#ifdef PGNKIT_HAVE_ZLIB
    case CLI_Z_GZIP: inflateEnd(&z->u.gz); break;
#endif
#ifdef PGNKIT_HAVE_ZSTD
    case CLI_Z_ZSTD: ZSTD_freeDStream(z->u.zs); break;
#endif
#ifdef PGNKIT_HAVE_BZ2
    case CLI_Z_BZIP2: BZ2_bzDecompressEnd(&z->u.bz); break;
#endif
#ifdef PGNKIT_HAVE_LZMA
    case CLI_Z_XZ: lzma_end(&z->u.xz); break;
#endif
    default: break;
    }
}

#ifdef PGNKIT_HAVE_ZLIB
static int step_gzip(cli_zin *z, unsigned char *out, size_t cap, size_t *made) {
    z_stream *s = &z->u.gz;
    s->next_in = z->in + z->in_pos;
    s->avail_in = (uInt)(z->in_len - z->in_pos);
    s->next_out = out;
    s->avail_out = (uInt)(cap > UINT32_MAX ? UINT32_MAX : cap);
    int r = inflate(s, Z_NO_FLUSH);
    z->in_pos = (size_t)(s->next_in - z->in);
    *made = (size_t)(s->next_out - out);
    if (r == Z_STREAM_END) {
        return 1;
    }
    if (r == Z_OK || r == Z_BUF_ERROR) {
        return 0;
    }
    return corrupt(z, s->msg ? s->msg : "invalid data");
}
#endif

#ifdef PGNKIT_HAVE_ZSTD
static int step_zstd(cli_zin *z, unsigned char *out, size_t cap, size_t *made) {
    /* fed in small pieces, so that a failure (which leaves ib.pos where it was) is placed within
     * ZSTD_FEED bytes after the point where the decoder found it */
    size_t end = z->in_len - z->in_pos > ZSTD_FEED ? z->in_pos + ZSTD_FEED : z->in_len;
    ZSTD_inBuffer ib = {z->in, end, z->in_pos};
    ZSTD_outBuffer ob = {out, cap, 0};
    size_t r = ZSTD_decompressStream(z->u.zs, &ob, &ib);
    z->in_pos = ib.pos;
    *made = ob.pos;
    if (ZSTD_isError(r)) {
        z->in_pos = end;
        return corrupt(z, ZSTD_getErrorName(r));
    }
    return r == 0; /* a frame ended and was flushed */
}
#endif

#ifdef PGNKIT_HAVE_BZ2
static int step_bzip2(cli_zin *z, unsigned char *out, size_t cap, size_t *made) {
    bz_stream *s = &z->u.bz;
    s->next_in = (char *)(z->in + z->in_pos);
    s->avail_in = (unsigned)(z->in_len - z->in_pos);
    s->next_out = (char *)out;
    s->avail_out = (unsigned)(cap > UINT32_MAX ? UINT32_MAX : cap);
    int r = BZ2_bzDecompress(s);
    z->in_pos = (size_t)((unsigned char *)s->next_in - z->in);
    *made = (size_t)((unsigned char *)s->next_out - out);
    if (r == BZ_STREAM_END) {
        return 1;
    }
    if (r == BZ_OK) {
        return 0;
    }
    return corrupt(z, r == BZ_MEM_ERROR ? "out of memory" : "invalid data");
}
#endif

#ifdef PGNKIT_HAVE_LZMA
static int step_xz(cli_zin *z, unsigned char *out, size_t cap, size_t *made) {
    lzma_stream *s = &z->u.xz;
    s->next_in = z->in + z->in_pos;
    s->avail_in = z->in_len - z->in_pos;
    s->next_out = out;
    s->avail_out = cap;
    lzma_ret r = lzma_code(s, z->in_eof ? LZMA_FINISH : LZMA_RUN);
    z->in_pos = (size_t)(s->next_in - z->in);
    *made = (size_t)(s->next_out - out);
    if (r == LZMA_STREAM_END) {
        return 1;
    }
    if (r == LZMA_OK || (r == LZMA_BUF_ERROR && !z->in_eof)) {
        return 0;
    }
    if (r == LZMA_BUF_ERROR) {
        return 0; /* no progress at the end of the file: truncated, said by the caller */
    }
    return corrupt(z, r == LZMA_MEM_ERROR ? "out of memory" : "invalid data");
}
#endif

static int step(cli_zin *z, unsigned char *out, size_t cap, size_t *made) {
    switch (z->fmt) {
#ifdef PGNKIT_HAVE_ZLIB
    case CLI_Z_GZIP: return step_gzip(z, out, cap, made);
#endif
#ifdef PGNKIT_HAVE_ZSTD
    case CLI_Z_ZSTD: return step_zstd(z, out, cap, made);
#endif
#ifdef PGNKIT_HAVE_BZ2
    case CLI_Z_BZIP2: return step_bzip2(z, out, cap, made);
#endif
#ifdef PGNKIT_HAVE_LZMA
    case CLI_Z_XZ: return step_xz(z, out, cap, made);
#endif
    default:
        (void)out;
        (void)cap;
        *made = 0;
        return corrupt(z, "no decoder in this build");
    }
}

/* After a stream ended with more bytes in the file: the next gzip member or bzip2 stream starts
 * (zstd frames follow each other in one decoder; xz does it itself). Anything else after the end
 * is an error: it is not the format's data. */
static int next_stream(cli_zin *z) {
    if (fill(z, 6) < 0) {
        return -1;
    }
    const magic *m = find_magic(z->in + z->in_pos, z->in_len - z->in_pos);
    if (m == NULL || m->fmt != (int)z->fmt) {
        set_msg(z->err, sizeof z->err, "data that is not %s after the %s stream, at byte %llu",
                format_names[z->fmt], format_names[z->fmt], (unsigned long long)at_byte(z));
        return -1;
    }
    if (z->fmt == CLI_Z_GZIP || z->fmt == CLI_Z_BZIP2) {
        end_decoder(z);
        return start_decoder(z);
    }
    return 0;
}

/* Decodes into out; > 0 bytes, 0 at the end, -1 on failure (z->err set). */
static ptrdiff_t decode_some(cli_zin *z, unsigned char *out, size_t cap) {
    for (;;) {
        if (z->done) {
            return z->done < 0 ? -1 : 0;
        }
        if (fill(z, 1) < 0) {
            z->done = -1;
            continue;
        }
        int empty = z->in_pos == z->in_len;
        if (z->ended && empty) {
            z->done = 1;
            continue;
        }
        if (z->ended) {
            z->ended = 0;
            if (next_stream(z) < 0) {
                z->done = -1;
                continue;
            }
        }
        size_t made = 0;
        int r = step(z, out, cap, &made);
        if (r < 0) {
            z->done = -1;
        } else if (r == 1) {
            z->ended = 1;
            if (z->on_end != NULL) {
                z->on_end(z->end_user, at_byte(z), made);
            }
        } else if (made == 0 && z->in_eof && z->in_pos == z->in_len) {
            set_msg(z->err, sizeof z->err, "truncated %s data: the file ends at byte %llu",
                    format_names[z->fmt], (unsigned long long)at_byte(z));
            z->done = -1;
        }
        if (made > 0) {
            return (ptrdiff_t)made;
        }
    }
}

ptrdiff_t cli_zin_read(void *ctx, void *buf, size_t cap) {
    cli_zin *z = ctx;
    if (z->peek_pos < z->peek_len) {
        size_t n = z->peek_len - z->peek_pos;
        n = n < cap ? n : cap;
        memcpy(buf, z->peek + z->peek_pos, n);
        z->peek_pos += n;
        return (ptrdiff_t)n;
    }
    if (z->fmt != CLI_Z_PLAIN) {
        return decode_some(z, buf, cap);
    }
    if (z->in_pos < z->in_len) {
        size_t n = z->in_len - z->in_pos;
        n = n < cap ? n : cap;
        memcpy(buf, z->in + z->in_pos, n);
        z->in_pos += n;
        return (ptrdiff_t)n;
    }
    size_t got = fread(buf, 1, cap, z->f);
    z->in_off += got;
    if (got == 0 && ferror(z->f)) {
        set_msg(z->err, sizeof z->err, "read error at byte %llu: %s", (unsigned long long)z->in_off,
                strerror(errno));
        return -1;
    }
    return (ptrdiff_t)got;
}

/* Refuses what cannot be read: an archive, a format this build lacks. Returns 0 or -1 (msg). */
static int refuse(const magic *m, const char *inside, char *msg, size_t cap) {
    if (m->fmt < 0) {
        set_msg(msg, cap,
                "%s%s%s: pgnkit reads PGN text, plain or compressed once (gzip, zstd, "
                "bzip2, xz); take the games out first (%s)",
                m->what, inside ? " inside " : "", inside ? inside : "", m->hint);
        return -1;
    }
    if (inside) {
        set_msg(msg, cap, "%s inside %s data (compressed twice): decompress it once first", m->what,
                inside);
        return -1;
    }
    const char *lib = missing_lib((cli_zformat)m->fmt);
    if (lib != NULL) {
        set_msg(msg, cap,
                "%s, but this pgnkit was built without %s: install it and rebuild, or "
                "pipe it through %s",
                m->what, lib, m->hint);
        return -1;
    }
    return 0;
}

pgn_status cli_zin_open(cli_zin **out, FILE *f, int plain, char *msg, size_t cap) {
    *out = NULL;
    cli_zin *z = calloc(1, sizeof *z);
    if (z == NULL || (z->in = malloc(IN_CAP)) == NULL) {
        free(z);
        set_msg(msg, cap, "out of memory");
        return PGN_E_NOMEM;
    }
    z->f = f;
    if (fill(z, PEEK) < 0) {
        set_msg(msg, cap, "%s", z->err);
        cli_zin_free(z);
        return PGN_E_IO;
    }
    const magic *m = plain ? NULL : find_magic(z->in, z->in_len);
    if (m != NULL && refuse(m, NULL, msg, cap) < 0) {
        cli_zin_free(z);
        return PGN_E_IO;
    }
    if (m == NULL) {
        *out = z;
        return PGN_OK;
    }
    z->fmt = (cli_zformat)m->fmt;
    if (start_decoder(z) < 0) {
        set_msg(msg, cap, "out of memory");
        cli_zin_free(z);
        return PGN_E_NOMEM;
    }
    /* the decoded text's first bytes: compressed again, or an archive, is refused; a decoding
     * failure this early is kept for the reader (it gets -1 after these bytes) */
    ptrdiff_t n;
    while (z->peek_len < PEEK &&
           (n = decode_some(z, z->peek + z->peek_len, PEEK - z->peek_len)) > 0) {
        z->peek_len += (size_t)n;
    }
    const magic *m2 = find_magic(z->peek, z->peek_len);
    if (m2 != NULL) {
        refuse(m2, format_names[z->fmt], msg, cap);
        cli_zin_free(z);
        return PGN_E_IO;
    }
    *out = z;
    return PGN_OK;
}

const char *cli_zin_error(const cli_zin *z) {
    return z->err[0] ? z->err : NULL;
}

cli_zformat cli_zin_format(const cli_zin *z) {
    return z->fmt;
}

uint64_t cli_zin_consumed(const cli_zin *z) {
    return at_byte(z);
}

void cli_zin_free(cli_zin *z) {
    if (z != NULL) {
        end_decoder(z);
        free(z->in);
        free(z);
    }
}

/* ---- the frames of a zstd file ---- */

typedef struct frame_walk {
    cli_zframe fr;
    uint64_t plain;  /* decoded bytes so far */
    uint64_t breaks; /* line breaks so far (a CR waiting for its LF not yet) */
    int cr;          /* the last byte was a CR */
    size_t made;     /* decoded bytes of the current read that end the frame */
    int ended, stop;
    cli_zframe_fn fn;
    void *user;
} frame_walk;

/* Counts the line breaks of p[0..n): LF, CRLF and a lone CR are one each. */
static void count_breaks(frame_walk *w, const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (w->cr && p[i] != '\n') {
            w->breaks++; /* a lone CR */
        }
        w->cr = p[i] == '\r';
        w->breaks += p[i] == '\n';
    }
    w->plain += n;
}

/* The frame ends here (its decoded bytes all counted): report it, start the next. */
static void finish_frame(frame_walk *w) {
    w->fr.plain_size = w->plain - w->fr.plain_offset;
    w->fr.skippable = w->fr.plain_size == 0;
    w->stop = w->stop || w->fn(w->user, &w->fr) != 0;
    w->fr.offset += w->fr.size;
    w->fr.plain_offset = w->plain;
    w->fr.line = w->breaks + 1;
}

static void frame_end(void *user, uint64_t at, size_t made) {
    frame_walk *w = user;
    w->fr.size = at - w->fr.offset;
    if (made == 0) {
        finish_frame(w); /* the read goes on: nothing of it belongs to this frame */
    } else {
        w->made = made; /* the read returns these bytes now: the caller counts them first */
        w->ended = 1;
    }
}

int cli_zstd_frames(FILE *f, cli_zframe_fn fn, void *user, char *msg, size_t cap) {
    cli_zin *z;
    if (cli_zin_open(&z, f, 0, msg, cap) != PGN_OK) {
        return -1;
    }
    if (z->fmt != CLI_Z_ZSTD) {
        set_msg(msg, cap, "not a zstd file");
        cli_zin_free(z);
        return -1;
    }
    frame_walk w;
    memset(&w, 0, sizeof w);
    w.fr.line = 1;
    w.fn = fn;
    w.user = user;
    /* decode again from the start, without the bytes read ahead to recognise the format */
    if (fseeko(f, 0, SEEK_SET) != 0) {
        set_msg(msg, cap, "cannot seek: %s", strerror(errno));
        cli_zin_free(z);
        return -1;
    }
    end_decoder(z);
    z->in_pos = z->in_len = z->peek_len = z->peek_pos = 0;
    z->in_off = 0;
    z->in_eof = z->done = z->ended = 0;
    z->on_end = frame_end;
    z->end_user = &w;
    unsigned char *buf = start_decoder(z) == 0 ? malloc(OUT_CAP) : NULL;
    int status = buf == NULL ? -1 : 0;
    if (buf == NULL) {
        set_msg(msg, cap, "out of memory");
    }
    while (status == 0 && !w.stop) {
        ptrdiff_t n = decode_some(z, buf, OUT_CAP);
        if (n < 0) {
            set_msg(msg, cap, "%s", z->err);
            status = -1;
        } else if (n == 0) {
            break;
        } else if (w.ended) {
            w.ended = 0;
            count_breaks(&w, buf, w.made);
            finish_frame(&w);
            count_breaks(&w, buf + w.made, (size_t)n - w.made);
        } else {
            count_breaks(&w, buf, (size_t)n);
        }
    }
    free(buf);
    cli_zin_free(z);
    return status < 0 ? -1 : w.stop;
}

/* ---- compressed outputs: a stdio stream whose writes are compressed (fopencookie) ---- */

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
    cli_zformat fmt;
    int failed;
    union {
#ifdef PGNKIT_HAVE_ZLIB
        z_stream gz;
#endif
#ifdef PGNKIT_HAVE_ZSTD
        ZSTD_CStream *zs;
#endif
#ifdef PGNKIT_HAVE_BZ2
        bz_stream bz;
#endif
#ifdef PGNKIT_HAVE_LZMA
        lzma_stream xz;
#endif
        int none;
    } u;
    unsigned char buf[OUT_CAP];
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
        size_t made = 0, left = 0;
        int end = 0;
        switch (o->fmt) {
#ifdef PGNKIT_HAVE_ZLIB
        case CLI_Z_GZIP: {
            z_stream *s = &o->u.gz;
            s->next_in = (unsigned char *)(uintptr_t)data;
            s->avail_in = (uInt)len;
            s->next_out = o->buf;
            s->avail_out = OUT_CAP;
            int r = deflate(s, finish ? Z_FINISH : Z_NO_FLUSH);
            made = OUT_CAP - s->avail_out;
            left = s->avail_in;
            end = r == Z_STREAM_END;
            o->failed |= r == Z_STREAM_ERROR;
            break;
        }
#endif
#ifdef PGNKIT_HAVE_ZSTD
        case CLI_Z_ZSTD: {
            ZSTD_inBuffer ib = {data, len, 0};
            ZSTD_outBuffer ob = {o->buf, OUT_CAP, 0};
            size_t r =
                ZSTD_compressStream2(o->u.zs, &ob, &ib, finish ? ZSTD_e_end : ZSTD_e_continue);
            o->failed |= ZSTD_isError(r);
            made = ob.pos;
            left = len - ib.pos;
            end = r == 0;
            break;
        }
#endif
#ifdef PGNKIT_HAVE_BZ2
        case CLI_Z_BZIP2: {
            bz_stream *s = &o->u.bz;
            s->next_in = (char *)(uintptr_t)data;
            s->avail_in = (unsigned)len;
            s->next_out = (char *)o->buf;
            s->avail_out = OUT_CAP;
            int r = BZ2_bzCompress(s, finish ? BZ_FINISH : BZ_RUN);
            made = OUT_CAP - s->avail_out;
            left = s->avail_in;
            end = r == BZ_STREAM_END;
            o->failed |= r < 0;
            break;
        }
#endif
#ifdef PGNKIT_HAVE_LZMA
        case CLI_Z_XZ: {
            lzma_stream *s = &o->u.xz;
            s->next_in = data;
            s->avail_in = len;
            s->next_out = o->buf;
            s->avail_out = OUT_CAP;
            lzma_ret r = lzma_code(s, finish ? LZMA_FINISH : LZMA_RUN);
            made = OUT_CAP - s->avail_out;
            left = s->avail_in;
            end = r == LZMA_STREAM_END;
            o->failed |= r != LZMA_OK && r != LZMA_STREAM_END;
            break;
        }
#endif
        default: o->failed = 1; break;
        }
        if (put(o, made) < 0) {
            return -1;
        }
        data += len - left;
        len = left;
        if (finish ? end : (len == 0 && made < OUT_CAP)) {
            return 0;
        }
    }
}

static ssize_t zout_write(void *cookie, const char *data, size_t len) {
    zout *o = cookie;
    return compress_chunk(o, (const unsigned char *)data, len, 0) < 0 ? -1 : (ssize_t)len;
}

static void zout_end(zout *o) {
    switch (o->fmt) {
#ifdef PGNKIT_HAVE_ZLIB
    case CLI_Z_GZIP: deflateEnd(&o->u.gz); break;
#endif
#ifdef PGNKIT_HAVE_ZSTD
    case CLI_Z_ZSTD: ZSTD_freeCStream(o->u.zs); break;
#endif
#ifdef PGNKIT_HAVE_BZ2
    case CLI_Z_BZIP2: BZ2_bzCompressEnd(&o->u.bz); break;
#endif
#ifdef PGNKIT_HAVE_LZMA
    case CLI_Z_XZ: lzma_end(&o->u.xz); break;
#endif
    default: break;
    }
}

static int zout_close(void *cookie) {
    zout *o = cookie;
    int bad = o->failed || compress_chunk(o, NULL, 0, 1) < 0;
    zout_end(o);
    free(o);
    return bad ? EOF : 0;
}

static int zout_start(zout *o) {
    switch (o->fmt) {
#ifdef PGNKIT_HAVE_ZLIB
    case CLI_Z_GZIP:
        return deflateInit2(&o->u.gz, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
#endif
#ifdef PGNKIT_HAVE_ZSTD
    case CLI_Z_ZSTD:
        /* with a checksum, like the zstd program */
        return (o->u.zs = ZSTD_createCStream()) != NULL &&
               !ZSTD_isError(ZSTD_CCtx_setParameter(o->u.zs, ZSTD_c_checksumFlag, 1));
#endif
#ifdef PGNKIT_HAVE_BZ2
    case CLI_Z_BZIP2: return BZ2_bzCompressInit(&o->u.bz, 9, 0, 0) == BZ_OK;
#endif
#ifdef PGNKIT_HAVE_LZMA
    case CLI_Z_XZ: return lzma_easy_encoder(&o->u.xz, 6, LZMA_CHECK_CRC64) == LZMA_OK;
#endif
    default: return 0;
    }
}

FILE *cli_zout_open(FILE *under, cli_zformat fmt, char *msg, size_t cap) {
    if (fmt == CLI_Z_PLAIN) {
        return under;
    }
    const char *lib = missing_lib(fmt);
    if (lib != NULL) {
        set_msg(msg, cap, "cannot write %s: this pgnkit was built without %s", format_names[fmt],
                lib);
        return NULL;
    }
    zout *o = calloc(1, sizeof *o);
    if (o == NULL) {
        set_msg(msg, cap, "out of memory");
        return NULL;
    }
    o->under = under;
    o->fmt = fmt;
    if (!zout_start(o)) {
        zout_end(o);
        free(o);
        set_msg(msg, cap, "out of memory");
        return NULL;
    }
    cookie_io_functions_t io = {NULL, zout_write, NULL, zout_close};
    FILE *f = fopencookie(o, "w", io);
    if (f == NULL) {
        zout_end(o);
        free(o);
        set_msg(msg, cap, "out of memory");
        return NULL;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    return f;
}

int cli_zout_close(FILE *f, FILE *under) {
    if (f == under) {
        return 0;
    }
    return fclose(f) == 0 ? 0 : -1;
}
