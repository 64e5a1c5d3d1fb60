/* SPDX-License-Identifier: MIT */
/* The insides of a pgn_source (source.h), shared by source.c (the bytes below and their
 * decoding), archive.c (members through libarchive), range.c (byte ranges), frames.c (a zstd
 * file's frames) and magic.c (the first bytes). */
#ifndef PGNKIT_IO_SOURCE_INT_H
#define PGNKIT_IO_SOURCE_INT_H

#include "codec.h"
#include "pgnkit/source.h"

#include <stdint.h>

enum { PGNK_IN_CAP = 1 << 17, PGNK_PEEK = 512, PGNK_ERR = 300 };

typedef struct pgnk_arc pgnk_arc;

struct pgn_source {
    pgn_allocator alloc;
    /* the bytes below: a file descriptor, a callback or memory */
    int fd, own_fd; /* fd -1: none; own_fd: opened by pgn_source_open_path, closed by free */
    pgn_read_fn fn;
    void *fn_ctx;
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    uint64_t base;  /* the fd's offset where the source started */
    uint64_t size;  /* a regular file's or memory's size, else 0 */
    int seekable;   /* a regular file or memory */
    int no_range;   /* standard input ("-"): no byte ranges, even from a regular file */
    int plain_only; /* PGN_SOURCE_PLAIN */
    /* decoding */
    pgn_format fmt;
    unsigned char *in; /* PGNK_IN_CAP bytes: in[in_pos..in_len) not consumed yet */
    size_t in_pos, in_len;
    uint64_t in_off; /* offset (from where decoding started) of in[0] */
    int in_eof;
    int ended;    /* the decoder ended a stream (gzip member, bzip2 stream, zstd frame) */
    int done;     /* 1: the end; -1: failed (err says why) */
    pgnk_codec c; /* the decoder */
    void (*on_end)(void *user, uint64_t at, size_t made); /* a stream (zstd frame) ended */
    void *end_user;
    const char *archive;           /* what archive the decoded bytes are ("a zip archive") */
    unsigned char peek[PGNK_PEEK]; /* decoded bytes read ahead to look at them */
    size_t peek_len, peek_pos;
    int empty; /* a range of frames without text: reads nothing */
    /* while the parallel reader's decoder thread (par_ahead.c) reads the source: set, with
     * pgn_source_consumed's answer for the text given out so far (written on the caller's
     * thread only, which the decoder thread never reads) */
    int ahead;
    uint64_t ahead_at;
    /* an archive's members */
    pgnk_arc *arc;
    const char *const *exts;
    char *name;   /* the source's name */
    char *member; /* "name(member)" while at a member, else NULL */
    uint64_t members, skipped;
    char err[PGNK_ERR];
};

/* The bytes of the file decoded so far (pgn_source_consumed without the decoder thread's view):
 * asked only by the thread that reads s. */
uint64_t pgnk_source_at(const pgn_source *s);
/* Sets s->err (printf-style). */
void pgnk_source_fail(pgn_source *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The decoded bytes (of the archive, for an archive): > 0, 0 at the end, -1 (s->err set). */
ptrdiff_t pgnk_zread(pgn_source *s, void *buf, size_t cap);
/* Starts decoding from where the bytes below stand: reads the first bytes to tell the format
 * (none with plain), refuses what cannot be read. PGN_OK, or PGN_E_IO / PGN_E_NOMEM with msg. */
pgn_status pgnk_zstart(pgn_source *s, int plain, char *msg, size_t cap);
/* Ends the decoder and forgets the bytes buffered (before a seek). */
void pgnk_zreset(pgn_source *s);
/* Moves the bytes below to off (from the source's start): 0, or -1 (cannot seek). */
int pgnk_raw_seek(pgn_source *s, uint64_t off);
/* The bytes below, undecoded: > 0, 0 at the end, -1 (s->err set). */
ptrdiff_t pgnk_raw_read(pgn_source *s, void *buf, size_t cap);
/* Moves a plain source to off (SEEK_SET from the start or SEEK_CUR from the bytes read), for
 * libarchive: the new offset, or -1 (cannot seek, or decoded). */
int64_t pgnk_zseek(pgn_source *s, int64_t off, int whence);
/* Decodes again from the start of the file, calling on_end(user, at, made) when a frame ends at
 * byte at, after made more decoded bytes of the read under way. 0, or -1 with s->err. */
int pgnk_zrestart(pgn_source *s, void (*on_end)(void *user, uint64_t at, size_t made), void *user);
/* Refuses what cannot be read (magic.c): 0, or -1 with msg. */
int pgnk_magic_refuse(const pgn_magic *m, const char *inside, char *msg, size_t cap);

/* archive.c: opens the archive of s's decoded bytes; PGN_OK, PGN_E_NOMEM or PGN_E_IO (msg). */
pgn_status pgnk_arc_open(pgnk_arc **out, pgn_source *s, char *msg, size_t cap);
enum { PGNK_ARC_ERROR = -1, PGNK_ARC_END = 0, PGNK_ARC_READ = 1, PGNK_ARC_SKIPPED = 2 };
/* The next member: PGNK_ARC_READ (its name ends in one of s->exts), _SKIPPED, _END, _ERROR. */
int pgnk_arc_next(pgnk_arc *a);
const char *pgnk_arc_member(const pgnk_arc *a);
ptrdiff_t pgnk_arc_read(pgnk_arc *a, void *buf, size_t cap);
const char *pgnk_arc_error(const pgnk_arc *a);
void pgnk_arc_free(pgnk_arc *a);

#endif
