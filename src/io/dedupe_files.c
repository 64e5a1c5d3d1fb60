/* SPDX-License-Identifier: MIT */
/* A deduplicating run's temporary files (include/pgnkit/dedupe_run.h; from pgnkit dedupe's
 * cli/dedupe_out.c, issue 29 point 3): the keeper's spill store, appended through a buffer and
 * read back by offset (pread, after the buffer is written), and the spool of the games' texts,
 * each after a header (ordinal, length, broken), read back in order by the second pass. Anonymous
 * files (pgn_temp_open): they go with their descriptors. POSIX (write, pread, lseek). */
#define _POSIX_C_SOURCE 200809L
#include "pgnkit/dedupe_run.h"

#include "pgnkit/tempfile.h"
#include "sort_int.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BUF = 1 << 16, HEAD = 17 }; /* HEAD: a spooled game's ordinal, length and broken flag */

/* A temporary file written through buf (len bytes not yet written); fd -1: none. */
typedef struct tfile {
    int fd;
    char *buf;
    size_t len;
} tfile;

struct pgn_dedupe_files {
    tfile spill, spool;
};

static int flush(tfile *t) {
    int bad = t->len && pgnk_fd_write_all(t->fd, t->buf, t->len) != 0;
    t->len = 0;
    return bad ? -1 : 0;
}

/* Appends p[0..n) to t: 0 or -1. */
static int append(tfile *t, const void *p, size_t n) {
    if (t->len + n > BUF && flush(t) != 0) {
        return -1;
    }
    if (n >= BUF) {
        return pgnk_fd_write_all(t->fd, p, n);
    }
    memcpy(t->buf + t->len, p, n);
    t->len += n;
    return 0;
}

static pgn_status open_file(tfile *t, const char *dir, char *msg, size_t cap) {
    if (!(t->buf = malloc(BUF))) {
        return PGN_E_NOMEM;
    }
    return pgn_temp_open(dir ? dir : "/tmp", &t->fd, msg, cap);
}

void pgn_dedupe_files_free(pgn_dedupe_files *f) {
    if (!f) {
        return;
    }
    tfile *ts[2] = {&f->spill, &f->spool};
    for (int i = 0; i < 2; i++) {
        if (ts[i]->fd >= 0) {
            close(ts[i]->fd);
        }
        free(ts[i]->buf);
    }
    free(f);
}

pgn_status pgn_dedupe_files_new(pgn_dedupe_files **out, const char *dir, int texts, char *msg,
                                size_t cap) {
    assert(out != NULL);
    *out = NULL;
    pgn_dedupe_files *f = calloc(1, sizeof *f);
    if (!f) {
        return PGN_E_NOMEM;
    }
    f->spill.fd = f->spool.fd = -1;
    pgn_status st = open_file(&f->spill, dir, msg, cap);
    if (st == PGN_OK && texts) {
        st = open_file(&f->spool, dir, msg, cap);
    }
    if (st != PGN_OK) {
        pgn_dedupe_files_free(f);
        return st;
    }
    *out = f;
    return PGN_OK;
}

static int spill_write(void *ctx, const void *buf, size_t len) {
    return append(&((pgn_dedupe_files *)ctx)->spill, buf, len);
}

static int spill_read(void *ctx, uint64_t offset, void *buf, size_t len) {
    tfile *t = &((pgn_dedupe_files *)ctx)->spill;
    char *d = buf;
    if (flush(t) != 0) {
        return -1;
    }
    while (len > 0) {
        ssize_t k = pread(t->fd, d, len, (off_t)offset);
        if (k < 0 && errno == EINTR) {
            continue;
        }
        if (k <= 0) {
            return -1;
        }
        d += k;
        len -= (size_t)k;
        offset += (uint64_t)k;
    }
    return 0;
}

pgn_dedupe_spill pgn_dedupe_files_spill(pgn_dedupe_files *f) {
    assert(f != NULL);
    pgn_dedupe_spill s = {spill_write, spill_read, f};
    return s;
}

pgn_status pgn_dedupe_files_spool(pgn_dedupe_files *f, uint64_t ordinal, int broken, pgn_str text) {
    assert(f != NULL && f->spool.fd >= 0);
    unsigned char h[HEAD];
    uint64_t len = text.len;
    memcpy(h, &ordinal, 8);
    memcpy(h + 8, &len, 8);
    h[16] = broken != 0;
    return append(&f->spool, h, sizeof h) != 0 || append(&f->spool, text.ptr, text.len) != 0
               ? PGN_E_IO
               : PGN_OK;
}

pgn_status pgn_dedupe_files_replay(pgn_dedupe_files *f, const pgn_dedupe_keeper *k,
                                   pgn_dedupe_replay_fn fn, void *ctx) {
    assert(f != NULL && f->spool.fd >= 0 && k != NULL && fn != NULL);
    if (flush(&f->spool) != 0 || lseek(f->spool.fd, 0, SEEK_SET) != 0) {
        return PGN_E_IO;
    }
    pgnk_fd_reader r = {f->spool.fd, f->spool.buf, 0, 0}; /* the write buffer, now for reading */
    unsigned char h[HEAD];
    char *text = NULL;
    pgn_status st = PGN_OK;
    int got = 0;
    while (st == PGN_OK && (got = pgnk_fd_take(&r, h, sizeof h)) == 1) {
        uint64_t ordinal, len;
        memcpy(&ordinal, h, 8);
        memcpy(&len, h + 8, 8);
        char *t = len < SIZE_MAX ? realloc(text, len ? (size_t)len : 1) : NULL;
        if (!t) {
            st = PGN_E_NOMEM;
            break;
        }
        text = t;
        if (len > 0 && pgnk_fd_take(&r, text, (size_t)len) != 1) {
            st = PGN_E_IO;
            break;
        }
        int kept = h[16] || len > UINT32_MAX || pgn_dedupe_keeper_is_kept(k, ordinal);
        pgn_str s = {text, (size_t)len};
        st = fn(ctx, kept, s);
    }
    free(text);
    return st == PGN_OK && got < 0 ? PGN_E_IO : st;
}
