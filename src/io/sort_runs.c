/* SPDX-License-Identifier: MIT */
/* The external sort's runs (include/pgnkit/sort.h; from cli/sort_runs.c, issue 29 point 3):
 * anonymous temporary files (pgn_temp_open) of records written and read through buffers of the
 * sort's allocator, PGNK_SORT_FANIN runs of one level merged into one of the next as soon as they
 * exist (issue 34 point 6), and the last merge into the caller's pgn_write_fn. POSIX (read,
 * write, lseek). */
#define _POSIX_C_SOURCE 200809L
#include "sort_int.h"

#include "../base/alloc.h"
#include "../base/errtext.h"
#include "pgnkit/tempfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { WBUF = 1 << 16, RBUF = PGNK_FD_READ };

/* Keeps the sentence of a failure (the first one: what follows from it says less). */
static void fail(pgn_sort *s, const char *fmt, ...) {
    if (s->msg[0]) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
}

int pgnk_fd_write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Appends n bytes to the run being written on fd, through the write buffer: 0 or -1. */
static int put(pgn_sort *s, int fd, const void *p, size_t n) {
    if (s->wlen + n > WBUF && s->wlen) {
        if (pgnk_fd_write_all(fd, s->wbuf, s->wlen) != 0) {
            return -1;
        }
        s->wlen = 0;
    }
    if (n >= WBUF) {
        return pgnk_fd_write_all(fd, p, n);
    }
    memcpy(s->wbuf + s->wlen, p, n);
    s->wlen += n;
    return 0;
}

/* Flushes the write buffer and rewinds fd for reading: 0 or -1. */
static int finish_run(pgn_sort *s, int fd) {
    int bad = s->wlen && pgnk_fd_write_all(fd, s->wbuf, s->wlen) != 0;
    s->wlen = 0;
    return bad || lseek(fd, 0, SEEK_SET) != 0 ? -1 : 0;
}

/* A new run file on *fd, its write buffer ready; PGN_OK, or a failure with its sentence. */
static pgn_status new_run(pgn_sort *s, int *fd) {
    char why[200];
    if (!s->wbuf && !(s->wbuf = pgnk_malloc(&s->alloc, WBUF))) {
        return PGN_E_NOMEM;
    }
    s->wlen = 0;
    pgn_status st = pgn_temp_open(s->temp_dir, fd, why, sizeof why);
    if (st != PGN_OK) {
        fail(s, "cannot open a temporary run file: %s", why);
    }
    return st;
}

pgn_status pgnk_sort_emit(pgn_write_fn write, void *ctx, const char *raw, size_t len) {
    if (len == 0) {
        return PGN_OK;
    }
    int ok = write(ctx, raw, len) == (ptrdiff_t)len &&
             (raw[len - 1] == '\n' || write(ctx, "\n", 1) == 1);
    return ok ? PGN_OK : PGN_E_IO;
}

int pgnk_fd_take(pgnk_fd_reader *r, void *dst, size_t n) {
    char *d = dst;
    size_t got = 0;
    while (got < n) {
        if (r->pos == r->len) {
            ssize_t k = read(r->fd, r->buf, PGNK_FD_READ);
            if (k < 0 && errno == EINTR) {
                continue;
            }
            if (k <= 0) {
                return k == 0 && got == 0 ? 0 : -1;
            }
            r->pos = 0;
            r->len = (size_t)k;
        }
        size_t c = r->len - r->pos < n - got ? r->len - r->pos : n - got;
        memcpy(d + got, r->buf + r->pos, c);
        r->pos += c;
        got += c;
    }
    return 1;
}

/* Reads the next record of r into *rec (*cap bytes, grown): 1, 0 at its end, -1 on a failure,
 * -2 out of memory. */
static int read_rec(pgn_sort *s, pgnk_fd_reader *r, pgnk_rec **rec, size_t *cap) {
    pgnk_rec h;
    int got = pgnk_fd_take(r, &h, sizeof h);
    if (got <= 0) {
        return got;
    }
    if (h.size < sizeof h || h.size > SIZE_MAX) {
        return -1;
    }
    if (h.size > *cap) {
        pgnk_rec *n = pgnk_realloc(&s->alloc, *rec, *cap, (size_t)h.size);
        if (!n) {
            return -2;
        }
        *rec = n;
        *cap = (size_t)h.size;
    }
    **rec = h;
    return pgnk_fd_take(r, *rec + 1, (size_t)(h.size - sizeof h)) == 1 ? 1 : -1;
}

/* The heads of the runs being merged. */
typedef struct head {
    pgnk_fd_reader rd;
    pgnk_rec *rec; /* NULL: the run is done */
    size_t cap;
} head;

/* Merges runs[0..n) into out_fd (>= 0: records) or write, taking the least record of the runs'
 * heads each time. */
static pgn_status merge_into(pgn_sort *s, const pgnk_run *runs, size_t n, int out_fd,
                             pgn_write_fn write, void *ctx) {
    head *h = pgnk_malloc(&s->alloc, n * sizeof *h);
    pgn_status st = h ? PGN_OK : PGN_E_NOMEM;
    for (size_t i = 0; h && i < n; i++) {
        h[i].rd.fd = runs[i].fd;
        h[i].rd.pos = h[i].rd.len = 0;
        h[i].rec = NULL;
        h[i].cap = 0;
        h[i].rd.buf = pgnk_malloc(&s->alloc, RBUF);
        st = !h[i].rd.buf ? PGN_E_NOMEM : st;
    }
    for (size_t i = 0; st == PGN_OK && i < n; i++) {
        int got = read_rec(s, &h[i].rd, &h[i].rec, &h[i].cap);
        st = got == -2 ? PGN_E_NOMEM : got <= 0 ? PGN_E_IO : st; /* a run is never empty */
    }
    while (st == PGN_OK) {
        size_t best = n;
        for (size_t i = 0; i < n; i++) {
            if (h[i].rec && (best == n || pgnk_sort_compare(s, h[i].rec, h[best].rec) < 0)) {
                best = i;
            }
        }
        if (best == n) {
            break;
        }
        const pgnk_rec *r = h[best].rec;
        if (out_fd >= 0 ? put(s, out_fd, r, (size_t)r->size) != 0
                        : pgnk_sort_emit(write, ctx, (const char *)r + r->size - r->raw_len,
                                         r->raw_len) != PGN_OK) {
            st = PGN_E_IO;
        }
        int got = read_rec(s, &h[best].rd, &h[best].rec, &h[best].cap);
        if (got <= 0) {
            st = got == -2 ? PGN_E_NOMEM : got < 0 ? PGN_E_IO : st;
            pgnk_free(&s->alloc, h[best].rec);
            h[best].rec = NULL;
        }
    }
    for (size_t i = 0; h && i < n; i++) {
        pgnk_free(&s->alloc, h[i].rec);
        pgnk_free(&s->alloc, h[i].rd.buf);
    }
    pgnk_free(&s->alloc, h);
    return st;
}

/* Adds run fd (of level level, rewound) to the open runs; merges PGNK_SORT_FANIN runs of one
 * level into one of the next, as long as there are. */
static pgn_status push_run(pgn_sort *s, int fd, unsigned level) {
    if (s->nruns == s->capruns) {
        size_t cap = s->capruns ? s->capruns * 2 : 32;
        pgnk_run *v = pgnk_realloc(&s->alloc, s->runs, s->capruns * sizeof *v, cap * sizeof *v);
        if (!v) {
            close(fd);
            return PGN_E_NOMEM;
        }
        s->runs = v;
        s->capruns = cap;
    }
    s->runs[s->nruns].fd = fd;
    s->runs[s->nruns++].level = level;
    while (s->nruns >= PGNK_SORT_FANIN &&
           s->runs[s->nruns - PGNK_SORT_FANIN].level == s->runs[s->nruns - 1].level) {
        int m = -1;
        size_t first = s->nruns - PGNK_SORT_FANIN;
        pgn_status st = new_run(s, &m);
        st = st == PGN_OK ? merge_into(s, s->runs + first, PGNK_SORT_FANIN, m, NULL, NULL) : st;
        if (st == PGN_OK && finish_run(s, m) != 0) {
            st = PGN_E_IO;
        }
        if (st != PGN_OK) {
            if (m >= 0) {
                close(m);
            }
            return st;
        }
        for (size_t i = first; i < s->nruns; i++) {
            close(s->runs[i].fd);
        }
        s->runs[first].fd = m;
        s->runs[first].level++;
        s->nruns = first + 1;
    }
    return PGN_OK;
}

pgn_status pgnk_sort_to_run(pgn_sort *s, pgnk_rec *const *recs, size_t n) {
    int fd = -1;
    pgn_status st = new_run(s, &fd);
    if (st != PGN_OK) {
        return st;
    }
    int bad = 0;
    for (size_t i = 0; !bad && i < n; i++) {
        bad = put(s, fd, recs[i], (size_t)recs[i]->size) != 0;
    }
    bad = bad || finish_run(s, fd) != 0;
    s->runs_made++;
    if (bad) {
        char why[64];
        fail(s, "cannot write a temporary run file: %s", pgnk_errno_text(errno, why));
        close(fd);
        return PGN_E_IO;
    }
    st = push_run(s, fd, 0);
    if (st != PGN_OK) {
        fail(s, "cannot merge the runs: %s", pgn_status_message(st));
    }
    return st;
}

pgn_status pgnk_sort_merge(pgn_sort *s, pgn_write_fn write, void *ctx) {
    return merge_into(s, s->runs, s->nruns, -1, write, ctx);
}

void pgnk_sort_close_runs(pgn_sort *s) {
    for (size_t i = 0; i < s->nruns; i++) {
        close(s->runs[i].fd);
    }
    s->nruns = 0;
}
