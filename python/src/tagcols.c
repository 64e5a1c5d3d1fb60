/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit.tag_columns: the tags of every game of a source as columns, for
 * pgnkit.read_tags_frame (issue 19). The scan runs with the GIL released and keeps, per tag name
 * (a column, in order of first appearance), the set of its distinct values and a (row, code) pair
 * per occurrence; only then are Python objects made: one str per distinct value, and each column as
 * one bytearray of int32 codes (strings), of int64 values and a mask (integer tags), or of int64
 * days since 1970 (dates), which the Python layer views with numpy without a per-row object. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgnkit.h"
#include "tagcols.h"

/* ---- a set of byte strings: open addressing over an arena of their bytes ---- */

typedef struct strent {
    size_t off;
    uint32_t len, hash;
} strent;

typedef struct strtab {
    char *bytes;
    size_t blen, bcap;
    strent *ent;
    uint32_t n, ecap;
    uint32_t *slot; /* 0 empty, else an entry's index + 1 */
    uint32_t nslot; /* a power of two, at least twice n */
} strtab;

static uint32_t hash_of(const char *p, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15u ^ n; /* eight bytes a step, multiply and fold */
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53u;
    return (uint32_t)(h ^ h >> 29);
}

/* 1 if string i of t is p[0..n). */
static int strtab_is(const strtab *t, uint32_t i, const char *p, size_t n) {
    return i < t->n && t->ent[i].len == n && memcmp(t->bytes + t->ent[i].off, p, n) == 0;
}

static void strtab_free(strtab *t) {
    free(t->bytes);
    free(t->ent);
    free(t->slot);
}

static int grow(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) {
        return 0;
    }
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        c *= 2;
    }
    void *q = realloc(*p, c * size);
    if (!q) {
        return -1;
    }
    *p = q;
    *cap = c;
    return 0;
}

static int strtab_rehash(strtab *t) {
    uint32_t ns = t->nslot ? t->nslot * 2 : 64;
    uint32_t *s = calloc(ns, sizeof *s);
    if (!s) {
        return -1;
    }
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t j = t->ent[i].hash & (ns - 1);
        while (s[j]) {
            j = (j + 1) & (ns - 1);
        }
        s[j] = i + 1;
    }
    free(t->slot);
    t->slot = s;
    t->nslot = ns;
    return 0;
}

/* The index of the string p[0..n) in t, added if new; -1 when out of memory. */
static int64_t strtab_intern(strtab *t, const char *p, size_t n) {
    if (n > UINT32_MAX || (2 * (uint64_t)t->n + 2 > t->nslot && strtab_rehash(t) < 0)) {
        return -1;
    }
    uint32_t h = hash_of(p, n), j = h & (t->nslot - 1);
    for (; t->slot[j]; j = (j + 1) & (t->nslot - 1)) {
        const strent *e = &t->ent[t->slot[j] - 1];
        if (e->hash == h && e->len == n && memcmp(t->bytes + e->off, p, n) == 0) {
            return t->slot[j] - 1;
        }
    }
    size_t ecap = t->ecap;
    if (t->n == UINT32_MAX - 1 || grow((void **)&t->ent, &ecap, t->n + 1, sizeof *t->ent) < 0 ||
        grow((void **)&t->bytes, &t->bcap, t->blen + n + 1, 1) < 0) {
        return -1;
    }
    t->ecap = (uint32_t)ecap;
    memcpy(t->bytes + t->blen, p, n);
    t->bytes[t->blen + n] = '\0';
    t->ent[t->n] = (strent){t->blen, (uint32_t)n, h};
    t->blen += n + 1;
    t->slot[j] = ++t->n;
    return t->n - 1;
}

/* ---- the scan ---- */

/* A column's codes by row, in chunks of CHUNK rows made when a row of theirs gets one: chunk k holds
 * rows [k * CHUNK, (k + 1) * CHUNK), NO_CODE where the game has no such tag; a NULL chunk has none.
 * (Dense by row, so no row index is kept beside each code; chunks, so that no array is copied as it
 * grows and a rare tag costs nothing in the rows it is absent from.) */
enum { CHUNK_BITS = 14, CHUNK = 1 << CHUNK_BITS };
#define NO_CODE UINT32_MAX

typedef struct tcol {
    strtab values;
    uint32_t **chunk;
    size_t nchunk;
    uint32_t last; /* the code last stored (NO_CODE: none) */
} tcol;

typedef struct tscan {
    strtab names; /* column i is names' string i */
    tcol *cols;
    size_t ncols, capcols;
    uint32_t *after; /* after[c + 1]: the column that came after column c last time; [0]: first */
    size_t capafter;
    uint32_t prev; /* the last column of this game + 1 (0 at its start) */
    uint64_t row;  /* the game being scanned */
    int oom;
} tscan;

static void tscan_free(tscan *s) {
    for (size_t i = 0; i < s->ncols; i++) {
        strtab_free(&s->cols[i].values);
        for (size_t k = 0; k < s->cols[i].nchunk; k++) {
            free(s->cols[i].chunk[k]);
        }
        free(s->cols[i].chunk);
    }
    free(s->cols);
    free(s->after);
    strtab_free(&s->names);
}

/* Stores code as row's in c; -1 when out of memory. */
static int col_set(tcol *c, uint64_t row, uint32_t code) {
    size_t k = (size_t)(row >> CHUNK_BITS);
    if (k >= c->nchunk) {
        size_t n = c->nchunk ? c->nchunk : 8;
        while (n <= k) {
            n *= 2;
        }
        uint32_t **p = realloc(c->chunk, n * sizeof *p);
        if (!p) {
            return -1;
        }
        memset(p + c->nchunk, 0, (n - c->nchunk) * sizeof *p);
        c->chunk = p;
        c->nchunk = n;
    }
    if (!c->chunk[k]) {
        if (!(c->chunk[k] = malloc(CHUNK * sizeof(uint32_t)))) {
            return -1;
        }
        memset(c->chunk[k], 0xff, CHUNK * sizeof(uint32_t));
    }
    c->chunk[k][row & (CHUNK - 1)] = code;
    c->last = code;
    return 0;
}

static uint32_t col_get(const tcol *c, uint64_t row) {
    size_t k = (size_t)(row >> CHUNK_BITS);
    return k < c->nchunk && c->chunk[k] ? c->chunk[k][row & (CHUNK - 1)] : NO_CODE;
}

/* Makes column c (the names' newest string) if it is new; -1 when out of memory. */
static int add_column(tscan *s, int64_t c) {
    if (c < 0 || (size_t)c < s->ncols) {
        return c < 0 ? -1 : 0;
    }
    if (grow((void **)&s->cols, &s->capcols, s->ncols + 1, sizeof *s->cols) < 0 ||
        grow((void **)&s->after, &s->capafter, s->ncols + 2, sizeof *s->after) < 0) {
        return -1;
    }
    memset(&s->cols[s->ncols++], 0, sizeof *s->cols);
    s->cols[s->ncols - 1].last = NO_CODE;
    s->after[0] = s->ncols == 1 ? UINT32_MAX : s->after[0];
    s->after[s->ncols] = UINT32_MAX;
    return 0;
}

/* The column of tag name p[0..n): the one that followed the previous tag last time if it is that
 * name (tags come in the same order game after game), else looked up or added; -1 when out of
 * memory. */
static int64_t column_of(tscan *s, const char *p, size_t n) {
    uint32_t guess = s->after ? s->after[s->prev] : UINT32_MAX;
    int64_t c = strtab_is(&s->names, guess, p, n) ? guess : strtab_intern(&s->names, p, n);
    if (add_column(s, c) < 0) {
        return -1;
    }
    s->after[s->prev] = (uint32_t)c;
    s->prev = (uint32_t)c + 1;
    return c;
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    tscan *s = user;
    const char *vp = value.ptr ? value.ptr : "";
    int64_t c = column_of(s, name.ptr ? name.ptr : "", name.len);
    tcol *col = c >= 0 ? &s->cols[c] : NULL;
    int64_t v = -1; /* the column's last value (Event, Site...) if it is this one, else looked up */
    if (col && strtab_is(&col->values, col->last, vp, value.len)) {
        v = col->last;
    } else if (col) {
        v = strtab_intern(&col->values, vp, value.len);
    }
    if (v < 0 || col_set(col, s->row, (uint32_t)v) < 0) {
        s->oom = 1;
        return PGN_FLOW_STOP;
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end_tags(void *user, const pgn_pos *start) {
    (void)user;
    (void)start;
    return PGN_FLOW_SKIP;
}

/* Where a part's games lie: the first one's first byte, the last one's end (where the game after
 * it starts), and whether the stream is UTF-16 (E_UTF16: the reader reads none of it). */
typedef struct tspan {
    uint64_t first, end;
    int any, utf16;
} tspan;

/* Scans every game of r into s (span, if not NULL: where they lie); no Python call (runs without
 * the GIL). */
static pgn_status scan_all(pgn_reader *r, tscan *s, tspan *span) {
    static const pgn_visitor v = {NULL, on_tag, on_end_tags, NULL, NULL, NULL, NULL, NULL, NULL};
    pgn_status st;
    while ((st = pgn_reader_visit(r, &v, s)) == PGN_OK || st == PGN_E_LIMIT) {
        if (s->oom) {
            return PGN_E_NOMEM;
        }
        if (span) {
            const pgn_game_summary *sum = pgn_reader_summary(r);
            span->first = span->any ? span->first : sum->start.offset;
            span->end = sum->end_offset;
            span->any = 1;
        }
        s->row++;
        s->prev = 0;
    }
    return s->oom ? PGN_E_NOMEM : st;
}

/* The scans of a source's parts joined: all holds the names and the values of every part, in
 * order of first appearance (its columns have no codes), part p's column i is all's column
 * col[p][i] and its value k all's value val[p][i][k]. One scan is its own join (all is it, the
 * maps are NULL: the identity). */
typedef struct tjoin {
    tscan *part; /* nparts scans, in stream order */
    size_t nparts;
    tscan *all;
    uint32_t **col;
    uint32_t ***val;
    uint64_t rows;
} tjoin;

static void join_free(tjoin *j) {
    for (size_t p = 0; p < j->nparts; p++) {
        for (size_t i = 0; j->val && j->val[p] && i < j->part[p].ncols; i++) {
            free(j->val[p][i]);
        }
        free(j->val ? j->val[p] : NULL);
        free(j->col ? j->col[p] : NULL);
        tscan_free(&j->part[p]);
    }
    if (j->all && j->nparts > 1) {
        tscan_free(j->all);
        free(j->all);
    }
    free(j->part);
    free(j->col);
    free(j->val);
    memset(j, 0, sizeof *j);
}

/* Maps part p's columns and values into j->all; -1 when out of memory. */
static int join_part(tjoin *j, size_t p) {
    const tscan *s = &j->part[p];
    if (!(j->col[p] = calloc(s->ncols + 1, sizeof **j->col)) ||
        !(j->val[p] = calloc(s->ncols + 1, sizeof **j->val))) {
        return -1;
    }
    for (size_t i = 0; i < s->ncols; i++) {
        const tcol *sc = &s->cols[i];
        const strent *ne = &s->names.ent[i];
        int64_t c = strtab_intern(&j->all->names, s->names.bytes + ne->off, ne->len);
        if (add_column(j->all, c) < 0 ||
            !(j->val[p][i] = malloc((sc->values.n + 1) * sizeof ***j->val))) {
            return -1;
        }
        j->col[p][i] = (uint32_t)c;
        for (uint32_t k = 0; k < sc->values.n; k++) {
            const strent *e = &sc->values.ent[k];
            int64_t v = strtab_intern(&j->all->cols[c].values, sc->values.bytes + e->off, e->len);
            if (v < 0) {
                return -1;
            }
            j->val[p][i][k] = (uint32_t)v;
        }
    }
    return 0;
}

/* Joins the n scans at part (j takes them); -1 when out of memory (j then frees them). */
static int join_build(tjoin *j, tscan *part, size_t n) {
    memset(j, 0, sizeof *j);
    j->part = part;
    j->nparts = n;
    for (size_t p = 0; p < n; p++) {
        j->rows += part[p].row;
    }
    if (n == 1) {
        j->all = &part[0];
        return 0;
    }
    j->all = calloc(1, sizeof *j->all);
    j->col = calloc(n, sizeof *j->col);
    j->val = calloc(n, sizeof *j->val);
    for (size_t p = 0; j->all && j->col && j->val && p < n; p++) {
        if (join_part(j, p) < 0) {
            break;
        }
        j->all->row += part[p].row;
    }
    if (!j->all || j->all->row != j->rows) {
        join_free(j);
        return -1;
    }
    return 0;
}

/* The codes of j's column c in every row (-1 where the game has no such tag). */
static void join_codes(const tjoin *j, size_t c, int32_t *out) {
    for (size_t p = 0; p < j->nparts; p++) {
        const tscan *s = &j->part[p];
        size_t i = 0;
        while (i < s->ncols && (j->col ? j->col[p][i] : i) != c) {
            i++;
        }
        const uint32_t *map = i < s->ncols && j->val ? j->val[p][i] : NULL;
        for (uint64_t r = 0; r < s->row; r++) {
            uint32_t k = i < s->ncols ? col_get(&s->cols[i], r) : NO_CODE;
            out[r] = k == NO_CODE ? -1 : (int32_t)(map ? map[k] : k);
        }
        out += s->row;
    }
}

/* ---- the scan in parts, one per thread ---- */

/* One byte range [from, to) of the source (to 0: to its end), read by its own reader on its own
 * thread; state_in: the encoding state its reader was given (pgn_reader_set_encoding_state),
 * state_out: the reader's at the end. */
typedef struct tpart {
    pgn_reader *r;
    FILE *file;
    tscan s;
    tspan span;
    pgn_status st;
    uint64_t from, to;
    pgn_encoding state_in;
    pgn_encoding_state state_out;
    const pk_tag_source *src;
} tpart;

static void part_diag(void *ctx, const pgn_diag *d) {
    tspan *span = ctx;
    span->utf16 |= d->code == PGN_E_UTF16;
}

/* Opens p's reader. PGN_OK, PGN_E_NOMEM, or PGN_E_IO. */
static pgn_status part_open(tpart *p) {
    const pk_tag_source *src = p->src;
    pgn_reader_opts o = src->opts;
    o.flags |= PGN_READ_NO_BOARD;
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

/* Frees what p holds, keeping its range and source. */
static void part_close(tpart *p) {
    pgn_reader_free(p->r);
    if (p->file) {
        fclose(p->file);
    }
    tscan_free(&p->s);
    tpart keep = {.from = p->from, .to = p->to, .state_in = p->state_in, .src = p->src};
    *p = keep;
}

/* Reads part p (a thread's function). */
static void *part_run(void *arg) {
    tpart *p = arg;
    p->st = part_open(p);
    p->st = p->st == PGN_OK ? scan_all(p->r, &p->s, &p->span) : p->st;
    if (p->r) {
        p->state_out = pgn_reader_encoding_state(p->r);
    }
    return NULL;
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
    while ((k = atomic_fetch_add(&q->next, 1)) < q->n) {
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

/* Scans [start, end) of the source in n parts (n >= 2) on up to threads threads into j. 1 when
 * they agree, 0 when they do not (then scan with one reader), -1 when memory ran out. */
static int scan_parts(const pk_tag_source *src, uint64_t start, uint64_t end, size_t n,
                      size_t threads, tjoin *j) {
    tpart *p = calloc(n, sizeof *p);
    tscan *scans = calloc(n, sizeof *scans);
    if (!p || !scans) {
        free(p);
        free(scans);
        return -1;
    }
    uint64_t step = (end - start) / n;
    for (size_t i = 0; i < n; i++) {
        p[i].src = src;
        p[i].from = start + step * i;
        p[i].to = i + 1 < n ? p[i].from + step : end == src->size ? 0 : end;
    }
    parts_run(p, n, threads < n ? threads : n);
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        ok = p[i].st == PGN_E_NOMEM ? -1 : ok;
    }
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
        return join_build(j, scans, n) < 0 ? -1 : 1;
    }
    for (size_t i = 0; i < n; i++) {
        tscan_free(&scans[i]);
    }
    free(scans);
    return ok;
}

/* Scans the source into j: in parts when it is large enough and they agree, else with one reader.
 * PGN_END, or the failure. */
static pgn_status scan_source(const pk_tag_source *src, tjoin *j, size_t *parts) {
    uint64_t start = src->range_start, end = src->range_end ? src->range_end : src->size;
    uint64_t span = end > start ? end - start : 0;
    /* up to 4 parts a thread, so that a core that runs slower takes fewer */
    uint64_t n = src->jobs > 1 && src->part_bytes ? span / src->part_bytes : 1;
    n = n > 4 * (uint64_t)src->jobs ? 4 * (uint64_t)src->jobs : n;
    if (n >= 2 && end <= src->size) {
        int ok = scan_parts(src, start, end, (size_t)n, src->jobs, j);
        if (ok != 0) {
            *parts = (size_t)n;
            return ok > 0 ? PGN_END : PGN_E_NOMEM;
        }
    }
    *parts = 1;
    tpart one = {.from = src->range_start, .to = src->range_end, .src = src};
    tscan *scan = calloc(1, sizeof *scan);
    pgn_status st = scan ? part_open(&one) : PGN_E_NOMEM;
    st = st == PGN_OK ? scan_all(one.r, scan, NULL) : st;
    part_close(&one);
    if (st == PGN_END && join_build(j, scan, 1) < 0) {
        st = PGN_E_NOMEM;
    } else if (st != PGN_END && scan) {
        tscan_free(scan);
        free(scan);
    }
    return st;
}

/* ---- typed values: an integer tag, a date tag ---- */

/* An integer with optional blanks around it and an optional sign, at most 18 digits; else 0. */
static int parse_int(const char *p, int64_t *out) {
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    int neg = *p == '-';
    p += *p == '-' || *p == '+';
    int64_t v = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++) {
        v = digits < 18 ? v * 10 + (*p - '0') : v;
    }
    while (*p == ' ' || *p == '\t') {
        p++;
    }
    if (digits == 0 || digits > 18 || *p) {
        return 0;
    }
    *out = neg ? -v : v;
    return 1;
}

/* Days from 1970-01-01 of a proleptic Gregorian date (the civil-from-days arithmetic). */
static int64_t days_of(int64_t y, int64_t m, int64_t d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* Reads 1 or 2 digits at *p; returns the number, or -1. */
static int small_num(const char **p) {
    int v = 0, k = 0;
    for (; k < 2 && (*p)[0] >= '0' && (*p)[0] <= '9'; k++, (*p)++) {
        v = v * 10 + ((*p)[0] - '0');
    }
    return k ? v : -1;
}

/* "YYYY.MM.DD" of a real day that pandas' datetime64[ns] holds (1677-09-22 to 2262-04-11): what
 * Python's datetime.strptime(value, "%Y.%m.%d") accepts (month and day of 1 or 2 digits, or the
 * day as a blank and a digit), within that range. */
static int parse_date(const char *p, int64_t *days) {
    static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y = 0;
    for (int i = 0; i < 4; i++, p++) {
        if (*p < '0' || *p > '9') {
            return 0;
        }
        y = y * 10 + (*p - '0');
    }
    int m = *p == '.' ? (p++, small_num(&p)) : -1, d = -1;
    if (m >= 1 && m <= 12 && *p == '.') {
        p++;
        p += p[0] == ' ' && p[1] >= '1' && p[1] <= '9' && !p[2]; /* " 5", as strptime's %d */
        d = small_num(&p);
    }
    if (d < 1 || *p || d > mdays[m - 1] ||
        (m == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)))) {
        return 0;
    }
    *days = days_of(y, m, d);
    return *days >= -106751 && *days <= 106751;
}

/* ---- the columns as Python objects ---- */

enum { KIND_STR, KIND_INT, KIND_DATE };

/* A zeroed bytearray of n items of size bytes (a writable buffer numpy views). */
static PyObject *new_buf(uint64_t n, size_t size, int fill) {
    PyObject *b = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(n * size));
    if (b) {
        memset(PyByteArray_AS_STRING(b), fill, (size_t)(n * size));
    }
    return b;
}

/* ("s", [distinct values], int32 codes, -1 where the game has no such tag) of j's column c. */
static PyObject *str_column(const tjoin *j, size_t c) {
    const strtab *values = &j->all->cols[c].values;
    PyObject *vals = PyList_New(values->n), *codes = new_buf(j->rows, sizeof(int32_t), 0);
    for (uint32_t i = 0; vals && codes && i < values->n; i++) {
        const strent *e = &values->ent[i];
        PyObject *o = PyUnicode_DecodeUTF8(values->bytes + e->off, e->len, "replace");
        if (!o) {
            Py_CLEAR(vals);
            break;
        }
        PyList_SET_ITEM(vals, i, o);
    }
    if (!vals || !codes) {
        Py_XDECREF(vals);
        Py_XDECREF(codes);
        return NULL;
    }
    join_codes(j, c, (int32_t *)(void *)PyByteArray_AS_STRING(codes));
    return Py_BuildValue("(sNN)", "s", vals, codes);
}

/* ("i", int64 values, bool mask: 1 where missing or not an integer) or ("d", int64 days since
 * 1970, INT64_MIN (numpy's NaT) where missing or not a complete date) of j's column c. */
static PyObject *typed_column(const tjoin *j, size_t c, int kind) {
    const strtab *values = &j->all->cols[c].values;
    int64_t *val = malloc((values->n ? values->n : 1) * sizeof *val);
    char *ok = malloc(values->n ? values->n : 1);
    int32_t *codes = malloc((j->rows ? j->rows : 1) * sizeof *codes);
    PyObject *a = new_buf(j->rows, sizeof(int64_t), 0), *mask = new_buf(j->rows, 1, 1);
    if (!val || !ok || !codes || !a || !mask) {
        free(val);
        free(ok);
        free(codes);
        Py_XDECREF(a);
        Py_XDECREF(mask);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    for (uint32_t i = 0; i < values->n; i++) {
        const char *s = values->bytes + values->ent[i].off;
        ok[i] = (char)(kind == KIND_INT ? parse_int(s, &val[i]) : parse_date(s, &val[i]));
    }
    join_codes(j, c, codes);
    int64_t *out = (int64_t *)(void *)PyByteArray_AS_STRING(a);
    char *m = PyByteArray_AS_STRING(mask);
    for (uint64_t i = 0; i < j->rows; i++) {
        int good = codes[i] >= 0 && ok[codes[i]];
        out[i] = good ? val[codes[i]] : kind == KIND_DATE ? INT64_MIN : 0;
        m[i] = (char)!good;
    }
    free(val);
    free(ok);
    free(codes);
    if (kind == KIND_DATE) {
        Py_DECREF(mask);
        return Py_BuildValue("(sN)", "d", a);
    }
    return Py_BuildValue("(sNN)", "i", a, mask);
}

static int kind_of(const char *name, PyObject *ints, PyObject *dates) {
    PyObject *n = PyUnicode_FromString(name);
    int k = !n                                  ? -1
            : PySequence_Contains(ints, n) > 0  ? KIND_INT
            : PySequence_Contains(dates, n) > 0 ? KIND_DATE
                                                : KIND_STR;
    Py_XDECREF(n);
    return PyErr_Occurred() ? -1 : k;
}

/* [(name, column)] of s's columns in order of first appearance (see str_column, typed_column). */
static PyObject *columns_of(const tjoin *j, PyObject *ints, PyObject *dates) {
    const tscan *s = j->all;
    PyObject *out = PyList_New((Py_ssize_t)s->ncols);
    for (size_t i = 0; out && i < s->ncols; i++) {
        const char *name = s->names.bytes + s->names.ent[i].off;
        int kind = kind_of(name, ints, dates);
        PyObject *col = kind < 0           ? NULL
                        : kind == KIND_STR ? str_column(j, i)
                                           : typed_column(j, i, kind);
        PyObject *t =
            col ? Py_BuildValue("(NN)", PyUnicode_DecodeUTF8(name, s->names.ent[i].len, "replace"),
                                col)
                : NULL;
        if (!t) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, t);
    }
    return out;
}

/* (games, [(name, column)]) of j, or NULL with an exception set. */
static PyObject *columns_result(const tjoin *j, PyObject *ints, PyObject *dates) {
    PyObject *cols = columns_of(j, ints, dates);
    return cols ? Py_BuildValue("(KN)", (unsigned long long)j->rows, cols) : NULL;
}

PyObject *pk_tag_columns(pgn_reader *r, PyObject *ints, PyObject *dates, pgn_status *st) {
    tscan *s = calloc(1, sizeof *s);
    tjoin j;
    memset(&j, 0, sizeof j);
    if (!s) {
        *st = PGN_E_NOMEM;
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    *st = scan_all(r, s, NULL);
    Py_END_ALLOW_THREADS
    if (*st != PGN_END) {
        tscan_free(s);
        free(s);
    } else if (join_build(&j, s, 1) < 0) {
        *st = PGN_E_NOMEM;
    }
    PyObject *out = *st == PGN_END ? columns_result(&j, ints, dates) : NULL;
    join_free(&j);
    return out;
}

PyObject *pk_tag_columns_of(const pk_tag_source *src, PyObject *ints, PyObject *dates,
                            pgn_status *st, size_t *parts) {
    tjoin j;
    memset(&j, 0, sizeof j);
    Py_BEGIN_ALLOW_THREADS
    *st = scan_source(src, &j, parts);
    Py_END_ALLOW_THREADS
    PyObject *out = *st == PGN_END ? columns_result(&j, ints, dates) : NULL;
    join_free(&j);
    return out;
}
