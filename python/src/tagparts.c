/* SPDX-License-Identifier: MIT */
/* The tags of a path or bytes scanned in byte ranges on several threads, each range by its own
 * reader with the library's range semantics, and checked against what one reader reads
 * (tagscan.h, pk_scan_source; docs/design.md, "The tags frame on every core"). */
#include "tagscan.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One byte range [from, to) of the source (to 0: to its end), read by its own reader on its own
 * thread; state_in: the encoding state its reader was given (pgn_reader_set_encoding_state),
 * state_out: the reader's at the end. */
typedef struct tpart {
    pgn_reader *r;
    FILE *file;
    pk_tscan s;
    pk_tspan span;
    pgn_status st;
    uint64_t from, to;
    pgn_encoding state_in;
    pgn_encoding_state state_out;
    const pk_tag_source *src;
    pk_nogil *poll;
} tpart;

static void part_diag(void *ctx, const pgn_diag *d) {
    pk_tspan *span = ctx;
    span->utf16 |= d->code == PGN_E_UTF16;
}

/* Opens p's reader. PGN_OK, PGN_E_NOMEM, or PGN_E_IO. */
static pgn_status part_open(tpart *p) {
    const pk_tag_source *src = p->src;
    pgn_reader_opts o = src->opts;
    o.flags |= PGN_READ_NO_BOARD | PGN_READ_TAGS_ONLY | PGN_READ_TAG_SPANS;
    o.on_diag = part_diag;
    o.diag_ctx = &p->span;
    o.range_start = p->from;
    o.range_end = p->to;
    pgn_status st;
    if (!src->path) {
        size_t at = p->from < src->len ? (size_t)p->from : src->len;
        st = pgn_reader_new_mem(&p->r, &o, src->data + at, src->len - at);
    } else if (!(p->file = fopen(src->path, "rb")) ||
               (p->from > 0 && fseeko(p->file, (off_t)p->from, SEEK_SET) != 0)) {
        return PGN_E_IO;
    } else {
        st = pgn_reader_new_file(&p->r, &o, p->file);
    }
    if (st == PGN_OK) {
        pgn_reader_set_encoding_state(p->r, p->state_in);
    }
    return st;
}

/* Frees what p holds, keeping its range, source and poll. */
static void part_close(tpart *p) {
    pgn_reader_free(p->r);
    if (p->file) {
        fclose(p->file);
    }
    pk_tscan_free(&p->s);
    tpart keep = {
        .from = p->from, .to = p->to, .state_in = p->state_in, .src = p->src, .poll = p->poll};
    *p = keep;
}

/* Reads part p. */
static void part_run(tpart *p) {
    p->st = part_open(p);
    p->st = p->st == PGN_OK ? pk_scan_all(p->r, &p->s, &p->span, p->poll) : p->st;
    if (p->r) {
        p->state_out = pgn_reader_encoding_state(p->r);
    }
}

/* 1 if the states a and b read undecided text alike (AUTO and CP1252 both as Windows-1252). */
static int reads_alike(pgn_encoding a, pgn_encoding b) {
    return (a == PGN_ENC_CP437) == (b == PGN_ENC_CP437);
}

/* One reader would have come to part i in the state the parts before it left; part i was given a
 * guess. Where the guess reads undecided text otherwise and the part read such text before any
 * text told, the part is read again from the true state. */
static void parts_fix_encoding(tpart *p, size_t n) {
    pgn_encoding state = PGN_ENC_AUTO; /* part 0 starts where one reader does */
    for (size_t i = 0; i < n; i++) {
        if (p[i].state_out.assumed && !reads_alike(p[i].state_in, state)) {
            part_close(&p[i]);
            p[i].state_in = state;
            part_run(&p[i]);
        }
        state = p[i].state_out.told ? p[i].state_out.last : state;
    }
}

/* 1 if the parts read every game once as one reader would: each part's first game starts where
 * the one before it ended (parts without a range boundary have none), the last game read ends at
 * the end of the stream unless the last part read it, and the stream is not UTF-16 (which a reader
 * refuses from its first bytes, and a part after them would not see). The range semantics make
 * this hold but for their caveats (include/pgnkit/reader.h); it is checked, not trusted. */
static int parts_agree(const tpart *p, size_t n, uint64_t size) {
    const tpart *last = NULL; /* the last part with games */
    for (size_t i = 0; i < n; i++) {
        if (p[i].st != PGN_END || p[i].span.utf16) {
            return 0;
        }
        if (p[i].span.any) {
            if (last && last->span.end != p[i].span.first) {
                return 0;
            }
            last = &p[i];
        }
    }
    return last && (last == &p[n - 1] || last->span.end >= size);
}

/* The parts not yet taken, for the threads that read them. */
typedef struct tqueue {
    tpart *p;
    size_t n;
    atomic_size_t next;
    atomic_int guess; /* the encoding the last part read told: most files keep to one */
} tqueue;

static void *queue_run(void *arg) {
    tqueue *q = arg;
    size_t k;
    while ((k = atomic_fetch_add(&q->next, 1)) < q->n && !atomic_load(&q->p[0].poll->stop)) {
        int guess = k > 0 && q->p[k].src->guess;
        q->p[k].state_in = guess ? (pgn_encoding)atomic_load(&q->guess) : PGN_ENC_AUTO;
        part_run(&q->p[k]);
        if (q->p[k].state_out.told) {
            atomic_store(&q->guess, (int)q->p[k].state_out.last);
        }
    }
    return NULL;
}

/* Reads the n parts on up to threads threads, this one included, each taking the next part left
 * (a slower core reads fewer). */
static void parts_run(tpart *p, size_t n, size_t threads) {
    tqueue q = {p, n, 0, PGN_ENC_AUTO};
    pthread_t *t = calloc(threads, sizeof *t);
    size_t started = 0;
    while (t && started + 1 < threads && pthread_create(&t[started], NULL, queue_run, &q) == 0) {
        started++;
    }
    queue_run(&q);
    for (size_t i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
    }
    free(t);
}

/* 1 if every part was read (none stopped by a poll), -1 if one ran out of memory, else 0. */
static int parts_done(const tpart *p, size_t n) {
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        ok = p[i].st == PGN_E_NOMEM ? -1 : ok;
    }
    return ok > 0 && atomic_load(&p[0].poll->stop) ? 0 : ok;
}

/* Scans [start, end) of the source in n parts (n >= 2) on up to threads threads into j. 1 when
 * they agree, 0 when they do not (then scan with one reader), -1 when memory ran out. */
static int scan_parts(const pk_tag_source *src, uint64_t start, uint64_t end, size_t n,
                      pk_nogil *poll, pk_tjoin *j) {
    tpart *p = calloc(n, sizeof *p);
    pk_tscan *scans = calloc(n, sizeof *scans);
    if (!p || !scans) {
        free(p);
        free(scans);
        return -1;
    }
    uint64_t step = (end - start) / n;
    for (size_t i = 0; i < n; i++) {
        p[i].src = src;
        p[i].poll = poll;
        p[i].from = start + step * i;
        p[i].to = i + 1 < n ? p[i].from + step : end == src->size ? 0 : end;
    }
    parts_run(p, n, src->jobs < n ? src->jobs : n);
    int ok = parts_done(p, n);
    if (ok > 0) {
        parts_fix_encoding(p, n);
        ok = parts_agree(p, n, src->size);
    }
    for (size_t i = 0; i < n; i++) {
        scans[i] = p[i].s; /* the scans go to the join, the rest is freed */
        memset(&p[i].s, 0, sizeof p[i].s);
        part_close(&p[i]);
    }
    free(p);
    if (ok > 0) {
        return pk_join_build(j, scans, n) < 0 ? -1 : 1;
    }
    for (size_t i = 0; i < n; i++) {
        pk_tscan_free(&scans[i]);
    }
    free(scans);
    return ok;
}

pgn_status pk_scan_source(const pk_tag_source *src, pk_tjoin *j, size_t *parts, pk_nogil *poll) {
    uint64_t start = src->range_start, end = src->range_end ? src->range_end : src->size;
    uint64_t span = end > start ? end - start : 0;
    /* up to 4 parts a thread, so that a core that runs slower takes fewer */
    uint64_t n = src->jobs > 1 && src->part_bytes ? span / src->part_bytes : 1;
    n = n > 4 * (uint64_t)src->jobs ? 4 * (uint64_t)src->jobs : n;
    if (n >= 2 && end <= src->size) {
        int ok = scan_parts(src, start, end, (size_t)n, poll, j);
        if (ok != 0 || atomic_load(&poll->stop)) {
            *parts = (size_t)n;
            return ok > 0 ? PGN_END : ok < 0 ? PGN_E_NOMEM : PGN_E_IO;
        }
    }
    *parts = 1;
    tpart one = {.from = src->range_start, .to = src->range_end, .src = src, .poll = poll};
    pk_tscan *scan = calloc(1, sizeof *scan);
    pgn_status st = scan ? part_open(&one) : PGN_E_NOMEM;
    st = st == PGN_OK ? pk_scan_all(one.r, scan, NULL, poll) : st;
    part_close(&one);
    if (st == PGN_END && pk_join_build(j, scan, 1) < 0) {
        st = PGN_E_NOMEM;
    } else if (st != PGN_END && scan) {
        pk_tscan_free(scan);
        free(scan);
    }
    return st;
}
