/* SPDX-License-Identifier: MIT */
/* Sources (source.h, issue 29; from cli/compress.c of issue 16): the bytes below (a file
 * descriptor, a callback, memory), their format from the first bytes (RFC 1952 gzip, RFC 8878
 * zstd, bzip2, xz; magic.c), decoded by the codec of codec.h; several gzip members, bzip2
 * streams, xz streams and zstd frames (skippable ones too) follow each other. Archives: archive.c;
 * ranges: range.c; a zstd file's frames: frames.c. POSIX (read, lseek, fstat). */
#define _POSIX_C_SOURCE 200809L
#include "source_int.h"

#include "../base/alloc.h"
#include "../base/errtext.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { ZSTD_FEED = 1 << 14 };

void pgnk_source_fail(pgn_source *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, sizeof s->err, fmt, ap);
    va_end(ap);
}

/* ---- the bytes below ---- */

ptrdiff_t pgnk_raw_read(pgn_source *s, void *buf, size_t cap) {
    if (s->mem != NULL) {
        size_t n = s->mem_len - s->mem_pos < cap ? s->mem_len - s->mem_pos : cap;
        memcpy(buf, s->mem + s->mem_pos, n);
        s->mem_pos += n;
        return (ptrdiff_t)n;
    }
    if (s->fn != NULL) {
        ptrdiff_t n = s->fn(s->fn_ctx, buf, cap);
        if (n < 0) {
            pgnk_source_fail(s, "read error at byte %llu",
                             (unsigned long long)(s->in_off + s->in_len));
        }
        return n < 0 ? -1 : n;
    }
    for (;;) {
        ssize_t n = read(s->fd, buf, cap);
        if (n >= 0) {
            return (ptrdiff_t)n;
        }
        if (errno != EINTR) {
            char e[64];
            pgnk_source_fail(s, "read error at byte %llu: %s",
                             (unsigned long long)(s->in_off + s->in_len),
                             pgnk_errno_text(errno, e));
            return -1;
        }
    }
}

int pgnk_raw_seek(pgn_source *s, uint64_t off) {
    if (!s->seekable) {
        return -1;
    }
    if (s->mem != NULL) {
        s->mem_pos = off < s->mem_len ? (size_t)off : s->mem_len;
        return 0;
    }
    return lseek(s->fd, (off_t)(s->base + off), SEEK_SET) < 0 ? -1 : 0;
}

/* ---- the input buffer ---- */

/* Makes at least n bytes available in in[in_pos..) unless the bytes end first (n <= IN_CAP).
 * Returns 0, or -1 on a read error (s->err set). */
static int fill(pgn_source *s, size_t n) {
    if (s->in_len - s->in_pos >= n || s->in_eof) {
        return 0;
    }
    size_t keep = s->in_len - s->in_pos;
    memmove(s->in, s->in + s->in_pos, keep);
    s->in_off += s->in_pos;
    s->in_pos = 0;
    s->in_len = keep;
    while (s->in_len < n && !s->in_eof) {
        ptrdiff_t got = pgnk_raw_read(s, s->in + s->in_len, PGNK_IN_CAP - s->in_len);
        if (got < 0) {
            return -1;
        }
        s->in_len += (size_t)got;
        s->in_eof = got == 0;
    }
    return 0;
}

static uint64_t at_byte(const pgn_source *s) {
    return s->in_off + s->in_pos;
}

/* ---- decoding: one step each, from in[in_pos..in_len) into out ---- */

/* Sets s->err to "corrupt FORMAT data at byte N: why" and returns -1. */
static int corrupt(pgn_source *s, const char *why) {
    pgnk_source_fail(s, "corrupt %s data at byte %llu: %s", pgn_format_name(s->fmt),
                     (unsigned long long)at_byte(s), why);
    return -1;
}

static int start_decoder(pgn_source *s) {
    if (!pgnk_codec_start(&s->c, s->fmt, 0)) {
        pgnk_source_fail(s, "out of memory");
        return -1;
    }
    return 0;
}

/* One step of the decoder from in[in_pos..in_len) into out: 1 a stream ended, 0, or -1. zstd is
 * fed in small pieces, so that a failure (which leaves its input where it was) is placed within
 * ZSTD_FEED bytes after the point where the decoder found it. */
static int step(pgn_source *s, unsigned char *out, size_t cap, size_t *made) {
    size_t avail = s->in_len - s->in_pos;
    if (s->fmt == PGN_FORMAT_ZSTD && avail > ZSTD_FEED) {
        avail = ZSTD_FEED;
    }
    pgnk_zstep x = {s->in + s->in_pos, avail, 0, out, cap, 0, s->in_eof, NULL};
    int r = pgnk_codec_step(&s->c, &x);
    s->in_pos += r == PGNK_ZC_ERR && s->fmt == PGN_FORMAT_ZSTD ? avail : x.used;
    *made = x.made;
    return r == PGNK_ZC_ERR ? corrupt(s, x.why) : r == PGNK_ZC_END;
}

/* After a stream ended with more bytes in the file: the next gzip member or bzip2 stream starts
 * (zstd frames follow each other in one decoder; xz does it itself). Anything else after the end
 * is an error: it is not the format's data. */
static int next_stream(pgn_source *s) {
    if (fill(s, 6) < 0) {
        return -1;
    }
    const pgn_magic *m = pgn_magic_find(s->in + s->in_pos, s->in_len - s->in_pos);
    if (m == NULL || m->format != (int)s->fmt) {
        const char *f = pgn_format_name(s->fmt);
        pgnk_source_fail(s, "data that is not %s after the %s stream, at byte %llu", f, f,
                         (unsigned long long)at_byte(s));
        return -1;
    }
    if (s->fmt == PGN_FORMAT_GZIP || s->fmt == PGN_FORMAT_BZIP2) {
        pgnk_codec_end(&s->c);
        return start_decoder(s);
    }
    return 0;
}

/* After a step that made nothing at the end of the bytes: the data is cut. */
static void check_truncated(pgn_source *s, size_t made) {
    if (made == 0 && s->in_eof && s->in_pos == s->in_len) {
        pgnk_source_fail(s, "truncated %s data: the file ends at byte %llu",
                         pgn_format_name(s->fmt), (unsigned long long)at_byte(s));
        s->done = -1;
    }
}

/* Decodes into out; > 0 bytes, 0 at the end, -1 on failure (s->err set). */
static ptrdiff_t decode_some(pgn_source *s, unsigned char *out, size_t cap) {
    for (;;) {
        if (s->done) {
            return s->done < 0 ? -1 : 0;
        }
        if (fill(s, 1) < 0) {
            s->done = -1;
            continue;
        }
        int empty = s->in_pos == s->in_len;
        if (s->ended && empty) {
            s->done = 1;
            continue;
        }
        if (s->ended) {
            s->ended = 0;
            if (next_stream(s) < 0) {
                s->done = -1;
                continue;
            }
        }
        size_t made = 0;
        int r = step(s, out, cap, &made);
        if (r < 0) {
            s->done = -1;
        } else if (r == 1) {
            s->ended = 1;
            if (s->on_end != NULL) {
                s->on_end(s->end_user, at_byte(s), made);
            }
        } else {
            check_truncated(s, made);
        }
        if (made > 0) {
            return (ptrdiff_t)made;
        }
    }
}

/* Copies what is left of src[*pos..len) into buf (up to cap bytes); the count. */
static ptrdiff_t take(const unsigned char *src, size_t *pos, size_t len, void *buf, size_t cap) {
    size_t n = len - *pos < cap ? len - *pos : cap;
    memcpy(buf, src + *pos, n);
    *pos += n;
    return (ptrdiff_t)n;
}

ptrdiff_t pgnk_zread(pgn_source *s, void *buf, size_t cap) {
    if (s->peek_pos < s->peek_len) {
        return take(s->peek, &s->peek_pos, s->peek_len, buf, cap);
    }
    if (s->fmt != PGN_FORMAT_PLAIN) {
        return decode_some(s, buf, cap);
    }
    if (s->in_pos < s->in_len) {
        return take(s->in, &s->in_pos, s->in_len, buf, cap);
    }
    ptrdiff_t got = pgnk_raw_read(s, buf, cap);
    s->in_off += got > 0 ? (uint64_t)got : 0;
    return got;
}

void pgnk_zreset(pgn_source *s) {
    pgnk_codec_end(&s->c);
    s->in_pos = s->in_len = s->peek_len = s->peek_pos = 0;
    s->in_off = 0;
    s->in_eof = s->done = s->ended = 0;
    s->fmt = PGN_FORMAT_PLAIN;
    s->archive = NULL;
}

pgn_status pgnk_zstart(pgn_source *s, int plain, char *msg, size_t cap) {
    if (fill(s, PGNK_PEEK) < 0) {
        pgnk_set_msg(msg, cap, "%s", s->err);
        return PGN_E_IO;
    }
    const pgn_magic *m = plain ? NULL : pgn_magic_find(s->in, s->in_len);
    if (m != NULL && pgnk_magic_refuse(m, NULL, msg, cap) < 0) {
        return PGN_E_IO;
    }
    if (m == NULL || m->format < 0) {
        s->archive = m != NULL ? m->what : NULL;
        return PGN_OK;
    }
    s->fmt = (pgn_format)m->format;
    if (start_decoder(s) < 0) {
        pgnk_set_msg(msg, cap, "out of memory");
        return PGN_E_NOMEM;
    }
    /* the decoded text's first bytes: compressed again is refused, an archive (a .tar.gz) is
     * read by archive.c; a decoding failure this early is kept for the reader (it gets -1 after
     * these bytes) */
    ptrdiff_t n;
    while (s->peek_len < PGNK_PEEK &&
           (n = decode_some(s, s->peek + s->peek_len, PGNK_PEEK - s->peek_len)) > 0) {
        s->peek_len += (size_t)n;
    }
    const pgn_magic *m2 = pgn_magic_find(s->peek, s->peek_len);
    if (m2 != NULL && pgnk_magic_refuse(m2, pgn_format_name(s->fmt), msg, cap) < 0) {
        return PGN_E_IO;
    }
    s->archive = m2 != NULL ? m2->what : NULL;
    return PGN_OK;
}

int64_t pgnk_zseek(pgn_source *s, int64_t off, int whence) {
    if (whence == SEEK_CUR) {
        off += (int64_t)at_byte(s);
    } else if (whence == SEEK_END) {
        off += (int64_t)s->size;
    }
    if (s->fmt != PGN_FORMAT_PLAIN || off < 0 || pgnk_raw_seek(s, (uint64_t)off) < 0) {
        return -1;
    }
    s->in_off = (uint64_t)off;
    s->in_pos = s->in_len = s->peek_len = s->peek_pos = 0;
    s->in_eof = 0;
    return off;
}

int pgnk_zrestart(pgn_source *s, void (*on_end)(void *user, uint64_t at, size_t made), void *user) {
    pgn_format fmt = s->fmt;
    /* decode again from the start, without the bytes read ahead to recognise the format */
    if (pgnk_raw_seek(s, 0) < 0) {
        char e[64];
        pgnk_source_fail(s, "cannot seek: %s", s->mem ? "memory" : pgnk_errno_text(errno, e));
        return -1;
    }
    pgnk_zreset(s);
    s->fmt = fmt;
    s->on_end = on_end;
    s->end_user = user;
    return start_decoder(s);
}

/* ---- opening ---- */

/* A new source with the options' allocator, name and member endings. */
static pgn_source *new_source(const pgn_source_opts *o, const char *name, pgn_status *st) {
    static const char *const pgn_ext[] = {".pgn", NULL};
    const pgn_allocator *a = o ? o->alloc : NULL;
    pgn_source *s = pgnk_alloc_object(a, sizeof *s, st);
    if (s == NULL) {
        return NULL;
    }
    pgnk_alloc_copy(&s->alloc, a);
    s->fd = -1;
    s->exts = o && o->members ? o->members : pgn_ext;
    s->plain_only = o && (o->flags & PGN_SOURCE_PLAIN);
    name = o && o->name ? o->name : name;
    size_t n = strlen(name) + 1;
    s->in = pgnk_malloc(&s->alloc, PGNK_IN_CAP);
    s->name = pgnk_malloc(&s->alloc, n);
    if (s->in == NULL || s->name == NULL) {
        pgn_source_free(s);
        *st = PGN_E_NOMEM;
        return NULL;
    }
    memcpy(s->name, name, n);
    return s;
}

/* Notes whether fd is a regular file (seekable, its size). */
static void stat_fd(pgn_source *s) {
    struct stat sb;
    if (fstat(s->fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        off_t at = lseek(s->fd, 0, SEEK_CUR);
        s->seekable = at >= 0;
        s->base = at >= 0 ? (uint64_t)at : 0;
        s->size = (uint64_t)sb.st_size > s->base ? (uint64_t)sb.st_size - s->base : 0;
    }
}

/* Tells the format and opens an archive at its first member; frees s on failure. */
static pgn_status start(pgn_source **out, pgn_source *s, char *msg, size_t cap) {
    pgn_status st = pgnk_zstart(s, s->plain_only, msg, cap);
    if (st == PGN_OK && s->archive != NULL) {
        st = pgnk_arc_open(&s->arc, s, msg, cap);
        if (st == PGN_OK && (st = pgn_source_next(s)) != PGN_OK) {
            st = st == PGN_E_NOMEM ? st : PGN_E_IO;
            pgnk_set_msg(msg, cap, "%s", s->err);
        }
    }
    if (st != PGN_OK) {
        pgn_source_free(s);
        return st;
    }
    *out = s;
    return PGN_OK;
}

pgn_status pgn_source_open_fd(pgn_source **out, int fd, const pgn_source_opts *opts, char *msg,
                              size_t cap) {
    pgn_status st;
    *out = NULL;
    pgn_source *s = new_source(opts, fd == 0 ? "<stdin>" : "<input>", &st);
    if (s == NULL) {
        pgnk_set_msg(msg, cap, "%s", pgn_status_message(st));
        return st;
    }
    s->fd = fd;
    stat_fd(s);
    return start(out, s, msg, cap);
}

pgn_status pgn_source_open_path(pgn_source **out, const char *path, const pgn_source_opts *opts,
                                char *msg, size_t cap) {
    *out = NULL;
    if (strcmp(path, "-") == 0) {
        pgn_source_opts o = opts ? *opts : (pgn_source_opts){0};
        o.name = o.name ? o.name : "<stdin>";
        pgn_status st = pgn_source_open_fd(out, 0, &o, msg, cap);
        if (*out != NULL) {
            (*out)->no_range = 1;
        }
        return st;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    int err = errno;
    if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        close(fd);
        fd = -1;
        err = EISDIR;
    }
    if (fd < 0) {
        char e[64];
        pgnk_set_msg(msg, cap, "%s", pgnk_errno_text(err, e));
        return PGN_E_IO;
    }
    pgn_status st;
    pgn_source *s = new_source(opts, path, &st);
    if (s == NULL) {
        close(fd);
        pgnk_set_msg(msg, cap, "%s", pgn_status_message(st));
        return st;
    }
    s->fd = fd;
    s->own_fd = 1;
    stat_fd(s);
    return start(out, s, msg, cap);
}

pgn_status pgn_source_open_read(pgn_source **out, pgn_read_fn read_fn, void *ctx,
                                const pgn_source_opts *opts, char *msg, size_t cap) {
    pgn_status st;
    *out = NULL;
    pgn_source *s = new_source(opts, "<input>", &st);
    if (s == NULL) {
        pgnk_set_msg(msg, cap, "%s", pgn_status_message(st));
        return st;
    }
    s->fn = read_fn;
    s->fn_ctx = ctx;
    return start(out, s, msg, cap);
}

pgn_status pgn_source_open_mem(pgn_source **out, const void *data, size_t len,
                               const pgn_source_opts *opts, char *msg, size_t cap) {
    static const unsigned char nothing[1] = {0};
    pgn_status st;
    *out = NULL;
    pgn_source *s = new_source(opts, "<memory>", &st);
    if (s == NULL) {
        pgnk_set_msg(msg, cap, "%s", pgn_status_message(st));
        return st;
    }
    s->mem = len ? data : nothing;
    s->mem_len = len;
    s->seekable = 1;
    s->size = len;
    return start(out, s, msg, cap);
}

/* ---- reading ---- */

ptrdiff_t pgn_source_read(void *source, void *buf, size_t cap) {
    pgn_source *s = source;
    if (s->empty) {
        return 0;
    }
    return s->arc != NULL ? pgnk_arc_read(s->arc, buf, cap) : pgnk_zread(s, buf, cap);
}

const char *pgn_source_error(const pgn_source *s) {
    if (s->err[0]) {
        return s->err;
    }
    return s->arc != NULL ? pgnk_arc_error(s->arc) : NULL;
}

const char *pgn_source_name(const pgn_source *s) {
    return s->member != NULL ? s->member : s->name;
}

const char *pgn_source_outer_name(const pgn_source *s) {
    return s->name;
}

pgn_format pgn_source_format(const pgn_source *s) {
    return s->fmt;
}

const char *pgn_source_archive(const pgn_source *s) {
    return s->archive;
}

uint64_t pgnk_source_at(const pgn_source *s) {
    return at_byte(s);
}

uint64_t pgn_source_consumed(const pgn_source *s) {
    return s->ahead ? s->ahead_at : at_byte(s);
}

uint64_t pgn_source_size(const pgn_source *s) {
    return s->size;
}

int pgn_source_seekable(const pgn_source *s) {
    return s->seekable;
}

void pgn_source_free(pgn_source *s) {
    if (s == NULL) {
        return;
    }
    pgnk_arc_free(s->arc);
    pgnk_codec_end(&s->c);
    if (s->own_fd && s->fd >= 0) {
        close(s->fd);
    }
    pgnk_free(&s->alloc, s->member);
    pgnk_free(&s->alloc, s->name);
    pgnk_free(&s->alloc, s->in);
    pgnk_free(&s->alloc, s);
}
