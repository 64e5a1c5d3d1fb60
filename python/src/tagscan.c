/* SPDX-License-Identifier: MIT */
/* The tags of every game as columns of codes, and the join of several parts' scans
 * (tagscan.h), for pgnkit.read_tags_frame (issue 19). */
#include "tagscan.h"

#include <stdlib.h>
#include <string.h>

size_t pk_tscan_ncols(const pk_tscan *s) {
    return s->cols.len / sizeof(pk_tcol);
}

pk_tcol *pk_tscan_col(const pk_tscan *s, size_t i) {
    return (pk_tcol *)(void *)s->cols.ptr + i;
}

static uint32_t *after_of(const pk_tscan *s) {
    return (uint32_t *)(void *)s->after.ptr;
}

/* Frees c's codes (its chunks); the column then has none. */
static void col_free_codes(pk_tcol *c) {
    uint32_t **chunk = (uint32_t **)(void *)c->chunks.ptr;
    for (size_t k = 0; k < c->chunks.len / sizeof *chunk; k++) {
        free(chunk[k]);
    }
    pgn_membuf_free(&c->chunks);
}

void pk_tscan_free(pk_tscan *s) {
    for (size_t i = 0; i < pk_tscan_ncols(s); i++) {
        pk_tcol *c = pk_tscan_col(s, i);
        pk_strtab_free(&c->values);
        col_free_codes(c);
    }
    pgn_membuf_free(&s->cols);
    pgn_membuf_free(&s->after);
    pk_strtab_free(&s->names);
}

/* Fills c's rows [from, to) with PK_NO_CODE in the chunks it has (a chunk is not filled when it
 * is made: only the rows a scan reaches are ever written, so the pages of a chunk past the last
 * row are not touched). */
static void col_fill(pk_tcol *c, uint64_t from, uint64_t to) {
    uint32_t **chunk = (uint32_t **)(void *)c->chunks.ptr;
    size_t nchunks = c->chunks.len / sizeof *chunk;
    while (from < to) {
        size_t k = (size_t)(from >> PK_CHUNK_BITS);
        uint64_t end = ((uint64_t)k + 1) << PK_CHUNK_BITS;
        end = end < to ? end : to;
        if (k < nchunks && chunk[k]) {
            memset(chunk[k] + (from & (PK_CHUNK - 1)), 0xff, (size_t)(end - from) * sizeof **chunk);
        }
        from = end;
    }
}

/* Stores code as row's in c (row at least the last row stored: rows come in order), the rows
 * between them without a code; -1 when out of memory. */
static int col_set(pk_tcol *c, uint64_t row, uint32_t code) {
    size_t k = (size_t)(row >> PK_CHUNK_BITS);
    static uint32_t *const none = NULL;
    while (c->chunks.len / sizeof none <= k) {
        if (pgn_membuf_write(&c->chunks, &none, sizeof none) < 0) {
            return -1;
        }
    }
    uint32_t **chunk = (uint32_t **)(void *)c->chunks.ptr;
    if (!chunk[k] && !(chunk[k] = malloc(PK_CHUNK * sizeof(uint32_t)))) {
        return -1;
    }
    if (row > c->next) {
        col_fill(c, c->next, row);
    }
    chunk[k][row & (PK_CHUNK - 1)] = code;
    c->last = code;
    c->next = row + 1;
    return 0;
}

static uint32_t col_get(const pk_tcol *c, uint64_t row) {
    size_t k = (size_t)(row >> PK_CHUNK_BITS);
    uint32_t *const *chunk = (uint32_t *const *)(const void *)c->chunks.ptr;
    return k < c->chunks.len / sizeof *chunk && chunk[k] ? chunk[k][row & (PK_CHUNK - 1)]
                                                         : PK_NO_CODE;
}

/* Makes column c (the names' newest string) if it is new; -1 when out of memory. */
static int add_column(pk_tscan *s, int64_t c) {
    if (c < 0 || (size_t)c < pk_tscan_ncols(s)) {
        return c < 0 ? -1 : 0;
    }
    pk_tcol col;
    memset(&col, 0, sizeof col);
    col.last = PK_NO_CODE;
    uint32_t none = UINT32_MAX;
    while (s->after.len < 2 * sizeof none) { /* [0] and the new column's */
        if (pgn_membuf_write(&s->after, &none, sizeof none) < 0) {
            return -1;
        }
    }
    if (s->after.len < (pk_tscan_ncols(s) + 2) * sizeof none &&
        pgn_membuf_write(&s->after, &none, sizeof none) < 0) {
        return -1;
    }
    return pgn_membuf_write(&s->cols, &col, sizeof col) < 0 ? -1 : 0;
}

/* The column of tag name p[0..n): the one that followed the previous tag last time if it is that
 * name (tags come in the same order game after game), else looked up or added; -1 when out of
 * memory. */
static int64_t column_of(pk_tscan *s, const char *p, size_t n) {
    uint32_t guess = s->after.len ? after_of(s)[s->prev] : UINT32_MAX;
    int64_t c = pk_strtab_is(&s->names, guess, p, n) ? guess : pk_strtab_intern(&s->names, p, n);
    if (add_column(s, c) < 0) {
        return -1;
    }
    after_of(s)[s->prev] = (uint32_t)c;
    s->prev = (uint32_t)c + 1;
    return c;
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    pk_tscan *s = user;
    const char *vp = value.ptr ? value.ptr : "";
    int64_t c = column_of(s, name.ptr ? name.ptr : "", name.len);
    pk_tcol *col = c >= 0 ? pk_tscan_col(s, (size_t)c) : NULL;
    int64_t v = -1; /* the column's last value (Event, Site...) if it is this one, else looked up */
    size_t off = 0;
    if (col && col->last != PK_NO_CODE && col->last_len == value.len &&
        pk_bytes_eq(col->values.bytes.ptr + col->last_off, vp, value.len)) {
        v = col->last;
        off = col->last_off;
    } else if (col) {
        uint32_t h = pk_hash_bytes(vp, value.len);
        v = pk_strtab_find(&col->values, vp, value.len, h, &off);
        if (v < 0 && (v = pk_strtab_add(&col->values, vp, value.len, h)) >= 0) {
            off = pk_strtab_ent(&col->values, (uint32_t)v)->off;
        }
    }
    if (v < 0 || col_set(col, s->row, (uint32_t)v) < 0) {
        s->oom = 1;
        return PGN_FLOW_STOP;
    }
    col->last_len = (uint32_t)value.len;
    col->last_off = off;
    return PGN_FLOW_CONTINUE;
}

pgn_flow pk_skip_movetext(void *user, const pgn_pos *start) {
    (void)user;
    (void)start;
    return PGN_FLOW_SKIP;
}

pgn_status pk_scan_all(pgn_reader *r, pk_tscan *s, pk_tspan *span, pk_nogil *n) {
    static const pgn_visitor v = {NULL, on_tag, pk_skip_movetext, NULL, NULL, NULL, NULL,
                                  NULL, NULL};
    pgn_status st;
    uint64_t polled = 0;
    while ((st = pgn_reader_visit(r, &v, s)) == PGN_OK || st == PGN_E_LIMIT) {
        if (s->oom) {
            return PGN_E_NOMEM;
        }
        const pgn_game_summary *sum = pgn_reader_summary(r);
        if (span) {
            span->first = span->any ? span->first : sum->start.offset;
            span->end = sum->end_offset;
            span->any = 1;
        }
        s->row++;
        s->prev = 0;
        if (n && sum->end_offset - polled >= PK_POLL_BYTES) {
            polled = sum->end_offset;
            if (pk_nogil_poll(n)) {
                break;
            }
        }
    }
    for (size_t i = 0; i < pk_tscan_ncols(s); i++) { /* the rows after each column's last code */
        pk_tcol *c = pk_tscan_col(s, i);
        col_fill(c, c->next, s->row);
        c->next = s->row;
    }
    return s->oom ? PGN_E_NOMEM : st;
}

void pk_join_free(pk_tjoin *j) {
    for (size_t p = 0; p < j->nparts; p++) {
        for (size_t i = 0; j->val && j->val[p] && i < pk_tscan_ncols(&j->part[p]); i++) {
            free(j->val[p][i]);
        }
        free(j->val ? j->val[p] : NULL);
        free(j->col ? j->col[p] : NULL);
        pk_tscan_free(&j->part[p]);
    }
    if (j->all && j->nparts > 1) {
        pk_tscan_free(j->all);
        free(j->all);
    }
    free(j->part);
    free(j->col);
    free(j->val);
    memset(j, 0, sizeof *j);
}

/* Maps part p's columns and values into j->all; -1 when out of memory. */
static int join_part(pk_tjoin *j, size_t p) {
    const pk_tscan *s = &j->part[p];
    size_t ncols = pk_tscan_ncols(s);
    if (!(j->col[p] = calloc(ncols + 1, sizeof **j->col)) ||
        !(j->val[p] = calloc(ncols + 1, sizeof **j->val))) {
        return -1;
    }
    for (size_t i = 0; i < ncols; i++) {
        const pk_strtab *values = &pk_tscan_col(s, i)->values;
        const pk_strent *ne = pk_strtab_ent(&s->names, (uint32_t)i);
        int64_t c =
            pk_strtab_intern(&j->all->names, pk_strtab_str(&s->names, (uint32_t)i), ne->len);
        if (add_column(j->all, c) < 0 ||
            !(j->val[p][i] = malloc((values->n + 1) * sizeof ***j->val))) {
            return -1;
        }
        j->col[p][i] = (uint32_t)c;
        pk_strtab *all = &pk_tscan_col(j->all, (size_t)c)->values;
        for (uint32_t k = 0; k < values->n; k++) {
            int64_t v =
                pk_strtab_intern(all, pk_strtab_str(values, k), pk_strtab_ent(values, k)->len);
            if (v < 0) {
                return -1;
            }
            j->val[p][i][k] = (uint32_t)v;
        }
    }
    return 0;
}

int pk_join_build(pk_tjoin *j, pk_tscan *part, size_t n) {
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
        pk_join_free(j);
        return -1;
    }
    return 0;
}

/* The codes of c's rows [0, rows) into out, a chunk at a time: -1 where the game has no such tag
 * (PK_NO_CODE, all bits set, is -1 as an int32_t: a chunk is copied as it is). */
static void chunk_codes(const pk_tcol *c, uint64_t rows, int32_t *out) {
    uint32_t *const *chunk = (uint32_t *const *)(const void *)c->chunks.ptr;
    size_t nchunks = c->chunks.len / sizeof *chunk;
    for (uint64_t r = 0; r < rows; r += PK_CHUNK) {
        size_t k = (size_t)(r >> PK_CHUNK_BITS),
               n = (size_t)(rows - r < PK_CHUNK ? rows - r : PK_CHUNK);
        if (k < nchunks && chunk[k]) {
            memcpy(out + r, chunk[k], n * sizeof *out);
        } else {
            memset(out + r, 0xff, n * sizeof *out);
        }
    }
}

/* The column of part p that is j's column c, or the part's number of columns if it has none. */
static size_t part_col(const pk_tjoin *j, size_t p, size_t c) {
    size_t i = 0, ncols = pk_tscan_ncols(&j->part[p]);
    while (i < ncols && (j->col ? j->col[p][i] : i) != c) {
        i++;
    }
    return i;
}

void pk_join_codes(const pk_tjoin *j, size_t c, int32_t *out) {
    for (size_t p = 0; p < j->nparts; p++) {
        const pk_tscan *s = &j->part[p];
        size_t ncols = pk_tscan_ncols(s), i = part_col(j, p, c);
        const uint32_t *map = i < ncols && j->val ? j->val[p][i] : NULL;
        if (i < ncols && !map) { /* one part: its codes as they are, a chunk at a time */
            chunk_codes(pk_tscan_col(s, i), s->row, out);
        } else {
            for (uint64_t r = 0; r < s->row; r++) {
                uint32_t k = i < ncols ? col_get(pk_tscan_col(s, i), r) : PK_NO_CODE;
                out[r] = k == PK_NO_CODE ? -1 : (int32_t)(map ? map[k] : k);
            }
        }
        out += s->row;
    }
}

void pk_join_drop(pk_tjoin *j, size_t c) {
    if (j->rows > PK_CHUNK) {
        return;
    }
    for (size_t p = 0; p < j->nparts; p++) {
        size_t i = part_col(j, p, c);
        if (i < pk_tscan_ncols(&j->part[p])) { /* its values are in the maps (several parts) */
            col_free_codes(pk_tscan_col(&j->part[p], i));
            pk_strtab_free(&pk_tscan_col(&j->part[p], i)->values);
        }
    }
    pk_strtab_free(&pk_tscan_col(j->all, c)->values);
}
