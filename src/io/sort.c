/* SPDX-License-Identifier: MIT */
/* The external sort (include/pgnkit/sort.h; issue 29 point 3, from pgnkit sort's cli/cmd_sort.c
 * and cli/sort_runs.c): the games held as records (tag values and raw text), sorted stably by
 * pgn_tag_compare and then order of addition, written out or, past the memory limit, to a run
 * (sort_runs.c). Nothing printed, no globals. */
#include "sort_int.h"

#include "../base/alloc.h"
#include "pgnkit/collection.h"

#include <string.h>

static char *copy_text(const pgn_allocator *a, const char *text) {
    size_t n = strlen(text) + 1;
    char *c = pgnk_malloc(a, n);
    if (c) {
        memcpy(c, text, n);
    }
    return c;
}

pgn_status pgn_sort_new(pgn_sort **out, const pgn_sort_opts *opts) {
    *out = NULL;
    if (opts->ntags == 0 || opts->ntags > PGN_SORT_MAX_TAGS) {
        return PGN_E_LIMIT;
    }
    pgn_status st = PGN_OK;
    pgn_sort *s = pgnk_alloc_object(opts->alloc, sizeof *s, &st);
    if (!s) {
        return st;
    }
    pgnk_alloc_copy(&s->alloc, opts->alloc);
    s->memory = opts->memory ? opts->memory : PGN_SORT_MEMORY;
    s->temp_dir = copy_text(&s->alloc, opts->temp_dir ? opts->temp_dir : "/tmp");
    int ok = s->temp_dir != NULL;
    for (size_t i = 0; ok && i < opts->ntags; i++) {
        ok = (s->names[i] = copy_text(&s->alloc, opts->tags[i])) != NULL;
        s->ntags = ok ? i + 1 : i;
    }
    if (!ok) {
        pgn_sort_free(s);
        return PGN_E_NOMEM;
    }
    pgn_sort_begin_game(s);
    *out = s;
    return PGN_OK;
}

static void drop_recs(pgn_sort *s) {
    for (size_t i = 0; i < s->nrecs; i++) {
        pgnk_free(&s->alloc, s->recs[i]);
    }
    s->nrecs = 0;
    s->held = 0;
}

void pgn_sort_free(pgn_sort *s) {
    if (!s) {
        return;
    }
    drop_recs(s);
    pgnk_sort_close_runs(s);
    for (size_t i = 0; i < PGN_SORT_MAX_TAGS; i++) {
        pgnk_free(&s->alloc, s->names[i]);
        pgnk_free(&s->alloc, s->val[i]);
    }
    pgnk_free(&s->alloc, s->temp_dir);
    pgnk_free(&s->alloc, s->recs);
    pgnk_free(&s->alloc, s->runs);
    pgnk_free(&s->alloc, s->wbuf);
    pgn_allocator alloc = s->alloc;
    pgnk_free(&alloc, s);
}

void pgn_sort_begin_game(pgn_sort *s) {
    for (size_t i = 0; i < s->ntags; i++) {
        s->len[i] = PGNK_SORT_NONE;
    }
}

pgn_status pgn_sort_tag(pgn_sort *s, pgn_str name, pgn_str value) {
    for (size_t i = 0; i < s->ntags; i++) {
        if (name.len != strlen(s->names[i]) || memcmp(name.ptr, s->names[i], name.len) != 0 ||
            value.len >= PGNK_SORT_NONE) {
            continue;
        }
        if (value.len > s->cap[i]) {
            char *v = pgnk_realloc(&s->alloc, s->val[i], s->cap[i], value.len);
            if (!v) {
                return PGN_E_NOMEM;
            }
            s->val[i] = v;
            s->cap[i] = (uint32_t)value.len;
        }
        if (value.len) {
            memcpy(s->val[i], value.ptr, value.len);
        }
        s->len[i] = (uint32_t)value.len;
    }
    return PGN_OK;
}

static pgn_str key_of(const pgnk_rec *r, size_t k) {
    const char *p = (const char *)(r + 1);
    for (size_t i = 0; i < k; i++) {
        p += r->key_len[i] == PGNK_SORT_NONE ? 0 : r->key_len[i];
    }
    pgn_str v = {p, r->key_len[k] == PGNK_SORT_NONE ? 0 : r->key_len[k]};
    return v;
}

int pgnk_sort_compare(const pgn_sort *s, const pgnk_rec *a, const pgnk_rec *b) {
    for (size_t i = 0; i < s->ntags; i++) {
        int ha = a->key_len[i] != PGNK_SORT_NONE, hb = b->key_len[i] != PGNK_SORT_NONE;
        int c = ha && hb ? pgn_tag_compare(s->names[i], key_of(a, i), key_of(b, i)) : ha - hb;
        if (c != 0) {
            return c;
        }
    }
    return a->ordinal < b->ordinal ? -1 : a->ordinal > b->ordinal; /* stable */
}

/* Sorts v[0..n) stably (bottom-up merge sort through tmp, n pointers). */
static void sort_recs(const pgn_sort *s, pgnk_rec **v, pgnk_rec **tmp, size_t n) {
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n,
                   hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                tmp[k++] = pgnk_sort_compare(s, v[j], v[i]) < 0 ? v[j++] : v[i++];
            }
            while (i < mid) {
                tmp[k++] = v[i++];
            }
            while (j < hi) {
                tmp[k++] = v[j++];
            }
        }
        memcpy(v, tmp, n * sizeof *v);
    }
}

/* Sorts the held games and writes them to write (to_run 0: raw) or to a new run. */
static pgn_status flush(pgn_sort *s, int to_run, pgn_write_fn write, void *ctx) {
    size_t n = s->nrecs;
    pgnk_rec **tmp = pgnk_malloc(&s->alloc, (n + 1) * sizeof *tmp);
    if (!tmp) {
        return PGN_E_NOMEM;
    }
    sort_recs(s, s->recs, tmp, n);
    pgnk_free(&s->alloc, tmp);
    pgn_status st = PGN_OK;
    if (to_run) {
        st = pgnk_sort_to_run(s, s->recs, n);
    }
    for (size_t i = 0; !to_run && st == PGN_OK && i < n; i++) {
        const pgnk_rec *r = s->recs[i];
        st = pgnk_sort_emit(write, ctx, (const char *)r + r->size - r->raw_len, r->raw_len);
    }
    drop_recs(s);
    return st;
}

pgn_status pgn_sort_add(pgn_sort *s, pgn_str raw) {
    uint64_t keys = 0;
    for (size_t i = 0; i < s->ntags; i++) {
        keys += s->len[i] == PGNK_SORT_NONE ? 0 : s->len[i];
    }
    uint64_t size = sizeof(pgnk_rec) + keys + raw.len;
    if (raw.len >= UINT32_MAX || size > SIZE_MAX) {
        return PGN_E_LIMIT;
    }
    if (s->nrecs == s->caprecs) {
        size_t cap = s->caprecs ? s->caprecs * 2 : 1024;
        pgnk_rec **v = pgnk_realloc(&s->alloc, s->recs, s->caprecs * sizeof *v, cap * sizeof *v);
        if (!v) {
            return PGN_E_NOMEM;
        }
        s->recs = v;
        s->caprecs = cap;
    }
    pgnk_rec *r = pgnk_malloc(&s->alloc, (size_t)size);
    if (!r) {
        return PGN_E_NOMEM;
    }
    r->ordinal = ++s->added;
    r->size = size;
    r->raw_len = (uint32_t)raw.len;
    char *p = (char *)(r + 1);
    for (size_t i = 0; i < PGN_SORT_MAX_TAGS; i++) {
        r->key_len[i] = i < s->ntags ? s->len[i] : PGNK_SORT_NONE;
        if (i < s->ntags && s->len[i] != PGNK_SORT_NONE && s->len[i]) {
            memcpy(p, s->val[i], s->len[i]);
            p += s->len[i];
        }
    }
    if (raw.len) {
        memcpy(p, raw.ptr, raw.len);
    }
    s->recs[s->nrecs++] = r;
    s->held += size;
    return s->held + s->caprecs * sizeof *s->recs > s->memory ? flush(s, 1, NULL, NULL) : PGN_OK;
}

pgn_status pgn_sort_finish(pgn_sort *s, pgn_write_fn write, void *ctx) {
    s->msg[0] = 0;
    if (s->nruns == 0) {
        return flush(s, 0, write, ctx);
    }
    pgn_status st = s->nrecs ? flush(s, 1, NULL, NULL) : PGN_OK;
    st = st == PGN_OK ? pgnk_sort_merge(s, write, ctx) : st;
    pgnk_sort_close_runs(s);
    return st;
}

uint64_t pgn_sort_runs(const pgn_sort *s) {
    return s->runs_made;
}

const char *pgn_sort_error(const pgn_sort *s) {
    return s->msg;
}
