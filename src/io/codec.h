/* SPDX-License-Identifier: MIT */
/* The four compression libraries behind one step function (source.c decodes sources with it,
 * encoder.c encodes outputs): gzip (zlib; decoded by ISA-L's igzip when the build also found
 * libisal), zstd (libzstd), bzip2 (libbz2), xz (liblzma), each present when the build found it
 * (PGNKIT_HAVE_ZLIB, _ISAL, _ZSTD, _BZ2, _LZMA). */
#ifndef PGNKIT_IO_CODEC_H
#define PGNKIT_IO_CODEC_H

#include "pgnkit/source.h"

#include "../base/errtext.h"

#include <stddef.h>

#ifdef PGNKIT_HAVE_ZLIB
#include <zlib.h>
#endif
#if defined(PGNKIT_HAVE_ZLIB) && defined(PGNKIT_HAVE_ISAL)
#include <isa-l/igzip_lib.h>
/* gzip is decoded by ISA-L's igzip (some twice zlib's speed), encoded by zlib; libisal is opened
 * (dlopen) at the first gzip decoded, zlib decoding when it cannot be */
#define PGNK_GZIP_ISAL 1
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

typedef struct pgnk_codec {
    pgn_format fmt;
    int encode;
    int inited; /* the library's stream below is set up */
    union {
#ifdef PGNKIT_HAVE_ZLIB
        z_stream gz;
#endif
#ifdef PGNK_GZIP_ISAL
        struct inflate_state *igz;
#endif
#ifdef PGNKIT_HAVE_ZSTD
        ZSTD_DStream *zd;
        ZSTD_CStream *ze;
#endif
#ifdef PGNKIT_HAVE_BZ2
        bz_stream bz;
#endif
#ifdef PGNKIT_HAVE_LZMA
        lzma_stream xz;
#endif
        int none;
    } u;
#ifdef PGNK_GZIP_ISAL
    int (*igz_inflate)(struct inflate_state *); /* igzip's, taken from libisal; NULL: zlib's */
#endif
} pgnk_codec;

/* One step: from in[0..in_len) into out[0..cap); used and made say how much. finish: encoding,
 * end the stream; decoding xz, the file has no more bytes. why: the failure, for PGNK_ZC_ERR. */
typedef struct pgnk_zstep {
    const unsigned char *in;
    size_t in_len, used;
    unsigned char *out;
    size_t cap, made;
    int finish;
    const char *why;
} pgnk_zstep;

enum { PGNK_ZC_ERR = -1, PGNK_ZC_OK = 0, PGNK_ZC_END = 1 /* a stream (member, frame) ended */ };

/* Sets up c to decode (encode 0) or encode (gzip level 6, zstd 3 with a checksum, bzip2 9, xz 6)
 * fmt. 1, or 0 (out of memory, or no library for fmt in this build). */
int pgnk_codec_start(pgnk_codec *c, pgn_format fmt, int encode);
void pgnk_codec_end(pgnk_codec *c);
/* PGNK_ZC_OK, PGNK_ZC_END or PGNK_ZC_ERR (x->why set). */
int pgnk_codec_step(pgnk_codec *c, pgnk_zstep *x);

#endif
