/* SPDX-License-Identifier: MIT */
/* One step function over the compression libraries (zcodec.h): each library's stream is driven
 * the same way, from an input span into an output span, for decoding and encoding alike. */
#define _DEFAULT_SOURCE          /* madvise's MADV_HUGEPAGE (Linux) */
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_createDStream_advanced (libzstd.so exports it too) */
#include "codec.h"

#ifdef PGNK_GZIP_ISAL
#include <dlfcn.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef PGNKIT_HAVE_ZSTD
#include <sys/mman.h>
#endif

const char *pgn_format_missing_lib(pgn_format f) {
    switch (f) {
#ifndef PGNKIT_HAVE_ZLIB
    case PGN_FORMAT_GZIP: return "zlib (zlib1g-dev)";
#endif
#ifndef PGNKIT_HAVE_ZSTD
    case PGN_FORMAT_ZSTD: return "libzstd (libzstd-dev)";
#endif
#ifndef PGNKIT_HAVE_BZ2
    case PGN_FORMAT_BZIP2: return "libbz2 (libbz2-dev)";
#endif
#ifndef PGNKIT_HAVE_LZMA
    case PGN_FORMAT_XZ: return "liblzma (liblzma-dev)";
#endif
    default: return NULL;
    }
}

#ifdef PGNKIT_HAVE_ZSTD
enum { HUGE_PAGE = 1 << 21 };

/* The decoder's allocations. Its window (the frame's window, 2 MiB at zstd -3, with its input
 * and output blocks: one allocation) is taken in whole 2 MiB pages, transparent huge pages where
 * the system gives them (madvise), so that the kernel maps it in a few faults instead of one a 4
 * KiB page as the decoder first writes it: some 600 faults on a 2 MiB window, on the decoder
 * thread while -j N's workers wait for its first batches (docs/design.md, "zstd's window on huge
 * pages"). */
static void *zstd_alloc(void *opaque, size_t size) {
    (void)opaque;
    if (size < HUGE_PAGE / 2 || size > SIZE_MAX - HUGE_PAGE) {
        return malloc(size);
    }
    size_t whole = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *q = aligned_alloc(HUGE_PAGE, whole);
#ifdef MADV_HUGEPAGE
    if (q) {
        (void)madvise(q, whole, MADV_HUGEPAGE);
    }
#endif
    return q;
}

static void zstd_free(void *opaque, void *q) {
    (void)opaque;
    free(q);
}

static int start_zstd(pgnk_codec *c) {
    if (c->encode) { /* with a checksum, like the zstd program */
        return (c->u.ze = ZSTD_createCStream()) != NULL &&
               !ZSTD_isError(ZSTD_CCtx_setParameter(c->u.ze, ZSTD_c_checksumFlag, 1));
    }
    /* long windows (zstd --long, up to 2 GiB) are accepted: the window is the file's choice */
    ZSTD_customMem mem = {zstd_alloc, zstd_free, NULL};
    return (c->u.zd = ZSTD_createDStream_advanced(mem)) != NULL &&
           !ZSTD_isError(ZSTD_DCtx_setParameter(c->u.zd, ZSTD_d_windowLogMax, 31));
}
#endif

#ifdef PGNK_GZIP_ISAL
#ifndef PGNKIT_ISAL_SONAME
#define PGNKIT_ISAL_SONAME "libisal.so.2"
#endif
/* igzip with ISAL_GZIP reads the member's header, inflates, and checks the trailer's CRC-32 and
 * size. Its state (some 85 KB) is allocated: the codec lives in the caller's structures. libisal
 * is opened here, not linked: loaded at every start, its symbols bound at once (BIND_NOW) took a
 * third of a start's instructions (docs/design.md). 1; 0 when out of memory; -1 when libisal
 * cannot be opened (zlib decodes). dlsym's pointers go through memcpy (POSIX makes the conversion
 * valid, ISO C does not name it); RTLD_NODELETE keeps the library loaded after dlclose. */
static int start_isal(pgnk_codec *c) {
    void *lib = dlopen(PGNKIT_ISAL_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    void *init = lib != NULL ? dlsym(lib, "isal_inflate_init") : NULL;
    void *inflate = lib != NULL ? dlsym(lib, "isal_inflate") : NULL;
    if (lib != NULL) {
        dlclose(lib);
    }
    if (init == NULL || inflate == NULL) {
        return -1;
    }
    void (*init_fn)(struct inflate_state *);
    memcpy(&init_fn, &init, sizeof init_fn);
    if ((c->u.igz = malloc(sizeof *c->u.igz)) == NULL) {
        return 0;
    }
    memcpy(&c->igz_inflate, &inflate, sizeof c->igz_inflate);
    init_fn(c->u.igz);
    c->u.igz->crc_flag = ISAL_GZIP;
    return 1;
}
#endif

int pgnk_codec_start(pgnk_codec *c, pgn_format fmt, int encode) {
    memset(c, 0, sizeof *c);
    c->fmt = fmt;
    c->encode = encode;
    int ok = 0;
    switch (fmt) {
#ifdef PGNKIT_HAVE_ZLIB
    case PGN_FORMAT_GZIP:
#ifdef PGNK_GZIP_ISAL
        if (!encode && (ok = start_isal(c)) >= 0) {
            break;
        }
#endif
        ok = (encode ? deflateInit2(&c->u.gz, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)
                     : inflateInit2(&c->u.gz, 15 + 16)) == Z_OK;
        break;
#endif
#ifdef PGNKIT_HAVE_ZSTD
    case PGN_FORMAT_ZSTD: ok = start_zstd(c); break;
#endif
#ifdef PGNKIT_HAVE_BZ2
    case PGN_FORMAT_BZIP2:
        ok = (encode ? BZ2_bzCompressInit(&c->u.bz, 9, 0, 0)
                     : BZ2_bzDecompressInit(&c->u.bz, 0, 0)) == BZ_OK;
        break;
#endif
#ifdef PGNKIT_HAVE_LZMA
    case PGN_FORMAT_XZ:
        ok = (encode ? lzma_easy_encoder(&c->u.xz, 6, LZMA_CHECK_CRC64)
                     : lzma_stream_decoder(&c->u.xz, UINT64_MAX, LZMA_CONCATENATED)) == LZMA_OK;
        break;
#endif
    default: break;
    }
    c->inited = ok;
    return ok;
}

void pgnk_codec_end(pgnk_codec *c) {
    if (!c->inited) {
        return;
    }
    c->inited = 0;
    switch (c->fmt) {
#ifdef PGNKIT_HAVE_ZLIB
    case PGN_FORMAT_GZIP:
#ifdef PGNK_GZIP_ISAL
        if (c->igz_inflate != NULL) {
            free(c->u.igz);
            break;
        }
#endif
        (void)(c->encode ? deflateEnd(&c->u.gz) : inflateEnd(&c->u.gz));
        break;
#endif
#ifdef PGNKIT_HAVE_ZSTD
    case PGN_FORMAT_ZSTD:
        (void)(c->encode ? ZSTD_freeCStream(c->u.ze) : ZSTD_freeDStream(c->u.zd));
        break;
#endif
#ifdef PGNKIT_HAVE_BZ2
    case PGN_FORMAT_BZIP2:
        (void)(c->encode ? BZ2_bzCompressEnd(&c->u.bz) : BZ2_bzDecompressEnd(&c->u.bz));
        break;
#endif
#ifdef PGNKIT_HAVE_LZMA
    case PGN_FORMAT_XZ: lzma_end(&c->u.xz); break;
#endif
    default: break;
    }
}

#if defined(PGNKIT_HAVE_ZLIB) || defined(PGNKIT_HAVE_BZ2)
/* The span sizes a 32-bit stream field takes. */
static unsigned clamp32(size_t n) {
    return n > UINT32_MAX ? UINT32_MAX : (unsigned)n;
}
#endif

#ifdef PGNKIT_HAVE_ZLIB
static int step_gzip(pgnk_codec *c, pgnk_zstep *x) {
    z_stream *s = &c->u.gz;
    s->next_in = (unsigned char *)(uintptr_t)x->in;
    s->avail_in = clamp32(x->in_len);
    s->next_out = x->out;
    s->avail_out = clamp32(x->cap);
    int r = c->encode ? deflate(s, x->finish ? Z_FINISH : Z_NO_FLUSH) : inflate(s, Z_NO_FLUSH);
    x->used = (size_t)(s->next_in - x->in);
    x->made = (size_t)(s->next_out - x->out);
    if (r == Z_STREAM_END) {
        return PGNK_ZC_END;
    }
    if (r == Z_OK || r == Z_BUF_ERROR || (c->encode && r != Z_STREAM_ERROR)) {
        return PGNK_ZC_OK;
    }
    x->why = s->msg ? s->msg : "invalid data";
    return PGNK_ZC_ERR;
}
#endif

#ifdef PGNK_GZIP_ISAL
static const char *isal_why(int r) {
    switch (r) {
    case ISAL_INVALID_BLOCK: return "invalid block";
    case ISAL_INVALID_SYMBOL: return "invalid symbol";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER: return "invalid gzip header";
    case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
    default: return "invalid data";
    }
}

/* Decoding gzip with igzip: PGNK_ZC_END when the member's trailer was read and checked. */
static int step_isal(pgnk_codec *c, pgnk_zstep *x) {
    struct inflate_state *s = c->u.igz;
    s->next_in = (uint8_t *)(uintptr_t)x->in;
    s->avail_in = clamp32(x->in_len);
    s->next_out = x->out;
    s->avail_out = clamp32(x->cap);
    int r = c->igz_inflate(s);
    x->used = (size_t)(s->next_in - x->in);
    x->made = (size_t)(s->next_out - x->out);
    if (r != ISAL_DECOMP_OK) {
        x->why = isal_why(r);
        return PGNK_ZC_ERR;
    }
    return s->block_state == ISAL_BLOCK_FINISH ? PGNK_ZC_END : PGNK_ZC_OK;
}
#endif

#ifdef PGNKIT_HAVE_ZSTD
static int step_zstd(pgnk_codec *c, pgnk_zstep *x) {
    ZSTD_inBuffer ib = {x->in, x->in_len, 0};
    ZSTD_outBuffer ob = {x->out, x->cap, 0};
    size_t r = c->encode ? ZSTD_compressStream2(c->u.ze, &ob, &ib,
                                                x->finish ? ZSTD_e_end : ZSTD_e_continue)
                         : ZSTD_decompressStream(c->u.zd, &ob, &ib);
    x->used = ib.pos;
    x->made = ob.pos;
    if (ZSTD_isError(r)) {
        x->why = ZSTD_getErrorName(r);
        return PGNK_ZC_ERR;
    }
    return r == 0 ? PGNK_ZC_END : PGNK_ZC_OK; /* decoding: a frame ended and was flushed */
}
#endif

#ifdef PGNKIT_HAVE_BZ2
static int step_bzip2(pgnk_codec *c, pgnk_zstep *x) {
    bz_stream *s = &c->u.bz;
    s->next_in = (char *)(uintptr_t)x->in;
    s->avail_in = clamp32(x->in_len);
    s->next_out = (char *)x->out;
    s->avail_out = clamp32(x->cap);
    int r = c->encode ? BZ2_bzCompress(s, x->finish ? BZ_FINISH : BZ_RUN) : BZ2_bzDecompress(s);
    x->used = (size_t)((const unsigned char *)s->next_in - x->in);
    x->made = (size_t)((unsigned char *)s->next_out - x->out);
    if (r == BZ_STREAM_END) {
        return PGNK_ZC_END;
    }
    if (r == BZ_OK || (c->encode && r >= 0)) {
        return PGNK_ZC_OK;
    }
    x->why = r == BZ_MEM_ERROR ? "out of memory" : "invalid data";
    return PGNK_ZC_ERR;
}
#endif

#ifdef PGNKIT_HAVE_LZMA
static int step_xz(pgnk_codec *c, pgnk_zstep *x) {
    lzma_stream *s = &c->u.xz;
    s->next_in = x->in;
    s->avail_in = x->in_len;
    s->next_out = x->out;
    s->avail_out = x->cap;
    lzma_ret r = lzma_code(s, x->finish ? LZMA_FINISH : LZMA_RUN);
    x->used = (size_t)(s->next_in - x->in);
    x->made = (size_t)(s->next_out - x->out);
    if (r == LZMA_STREAM_END) {
        return PGNK_ZC_END;
    }
    /* decoding, no progress: more input is needed, or the file is truncated (said by the caller) */
    if (r == LZMA_OK || (!c->encode && r == LZMA_BUF_ERROR)) {
        return PGNK_ZC_OK;
    }
    x->why = r == LZMA_MEM_ERROR ? "out of memory" : "invalid data";
    return PGNK_ZC_ERR;
}
#endif

int pgnk_codec_step(pgnk_codec *c, pgnk_zstep *x) {
    x->used = x->made = 0;
    switch (c->inited ? c->fmt : PGN_FORMAT_PLAIN) {
#ifdef PGNKIT_HAVE_ZLIB
    case PGN_FORMAT_GZIP:
#ifdef PGNK_GZIP_ISAL
        if (c->igz_inflate != NULL) {
            return step_isal(c, x);
        }
#endif
        return step_gzip(c, x);
#endif
#ifdef PGNKIT_HAVE_ZSTD
    case PGN_FORMAT_ZSTD: return step_zstd(c, x);
#endif
#ifdef PGNKIT_HAVE_BZ2
    case PGN_FORMAT_BZIP2: return step_bzip2(c, x);
#endif
#ifdef PGNKIT_HAVE_LZMA
    case PGN_FORMAT_XZ: return step_xz(c, x);
#endif
    default: x->why = "no decoder in this build"; return PGNK_ZC_ERR;
    }
}
