/* SPDX-License-Identifier: MIT */
/* A deduplicating run's report (include/pgnkit/dedupe_run.h): the copies remembered as the keeper
 * gives them, the names of their inputs kept once per input, and the JSON of the clusters of two
 * or more copies, written through the caller's pgn_write_fn. */
#include "pgnkit/dedupe_run.h"

#include "pgnkit/json.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct member { /* a copy: a cluster's first one, or a duplicate */
    uint64_t cluster, ordinal;
    const char *input;
    uint32_t line;
} member;

struct pgn_dedupe_report {
    member *firsts, *members; /* each cluster's first copy; the duplicates */
    size_t nfirsts, capfirsts, nmembers, capmembers;
    char **names; /* the inputs' names the members point to */
    size_t nnames, capnames;
};

pgn_status pgn_dedupe_report_new(pgn_dedupe_report **out) {
    assert(out != NULL);
    *out = calloc(1, sizeof **out);
    return *out ? PGN_OK : PGN_E_NOMEM;
}

void pgn_dedupe_report_free(pgn_dedupe_report *rp) {
    if (!rp) {
        return;
    }
    free(rp->firsts);
    free(rp->members);
    for (size_t i = 0; i < rp->nnames; i++) {
        free(rp->names[i]);
    }
    free(rp->names);
    free(rp);
}

/* Grows *p (n used of *cap elements of size sz) to hold one more; 0 when out of memory. */
static int reserve(void **p, size_t n, size_t *cap, size_t sz) {
    if (n < *cap) {
        return 1;
    }
    size_t c = *cap ? *cap * 2 : 1024;
    void *q = c <= SIZE_MAX / sz ? realloc(*p, c * sz) : NULL;
    if (!q) {
        return 0;
    }
    *p = q;
    *cap = c;
    return 1;
}

/* The report's copy of name (one per input: the last one's when it is the same); NULL when out of
 * memory. */
static const char *input_name(pgn_dedupe_report *rp, const char *name) {
    if (rp->nnames > 0 && strcmp(rp->names[rp->nnames - 1], name) == 0) {
        return rp->names[rp->nnames - 1];
    }
    size_t len = strlen(name) + 1;
    char *copy = malloc(len);
    if (!copy || !reserve((void **)&rp->names, rp->nnames, &rp->capnames, sizeof(char *))) {
        free(copy);
        return NULL;
    }
    memcpy(copy, name, len);
    return rp->names[rp->nnames++] = copy;
}

pgn_status pgn_dedupe_report_add(pgn_dedupe_report *rp, uint64_t cluster, int is_new,
                                 uint64_t ordinal, const char *source, uint32_t line) {
    assert(rp != NULL && source != NULL);
    const char *name = input_name(rp, source);
    member m = {cluster, ordinal, name, line};
    member **v = is_new ? &rp->firsts : &rp->members;
    size_t *n = is_new ? &rp->nfirsts : &rp->nmembers;
    size_t *cap = is_new ? &rp->capfirsts : &rp->capmembers;
    if (!name || !reserve((void **)v, *n, cap, sizeof(member))) {
        return PGN_E_NOMEM;
    }
    (*v)[(*n)++] = m;
    return PGN_OK;
}

static int by_member(const void *a, const void *b) {
    const member *x = a, *y = b;
    if (x->cluster != y->cluster) {
        return x->cluster < y->cluster ? -1 : 1;
    }
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

/* Writes the text t (NUL-terminated); 0, or -1 when fn failed. */
static int put(pgn_write_fn fn, void *ctx, const char *t) {
    size_t len = strlen(t);
    return fn(ctx, t, len) == (ptrdiff_t)len ? 0 : -1;
}

static int write_copy(const pgn_dedupe_keeper *k, const member *m, int first, pgn_write_fn fn,
                      void *ctx) {
    uint64_t keep = pgn_dedupe_keeper_cluster(k, m->cluster)->keep;
    char buf[96];
    snprintf(buf, sizeof buf, "%s{\"ordinal\":%llu,\"source\":", first ? "" : ",",
             (unsigned long long)m->ordinal);
    if (put(fn, ctx, buf) < 0 ||
        pgn_json_write_string(fn, ctx, m->input, strlen(m->input)) != PGN_OK) {
        return -1;
    }
    snprintf(buf, sizeof buf, ",\"line\":%u,\"kept\":%s}", m->line,
             keep == m->ordinal ? "true" : "false");
    return put(fn, ctx, buf);
}

pgn_status pgn_dedupe_report_write(pgn_dedupe_report *rp, const pgn_dedupe_keeper *k,
                                   uint64_t games, uint32_t flags, pgn_write_fn fn, void *ctx) {
    assert(rp != NULL && k != NULL && fn != NULL);
    pgn_dedupe_counts n = pgn_dedupe_keeper_counts(k);
    char buf[256];
    if (rp->nmembers > 0) {
        qsort(rp->members, rp->nmembers, sizeof *rp->members, by_member);
    }
    snprintf(buf, sizeof buf,
             "{\"games\":%llu,\"distinct\":%llu,\"duplicates\":%llu,\"by\":\"%s\","
             "\"without_moves_by\":\"moves+tags\",\"clusters\":[",
             (unsigned long long)games, (unsigned long long)n.distinct,
             (unsigned long long)n.duplicates, (flags & PGN_DEDUPE_TAGS) ? "moves+tags" : "moves");
    int bad = put(fn, ctx, buf) < 0;
    for (size_t i = 0; i < rp->nmembers && !bad;) {
        uint64_t c = rp->members[i].cluster;
        snprintf(buf, sizeof buf, "%s\n{\"cluster\":%llu,\"games\":[", i ? "," : "",
                 (unsigned long long)c);
        bad = put(fn, ctx, buf) < 0 || write_copy(k, &rp->firsts[c], 1, fn, ctx) < 0;
        for (; i < rp->nmembers && rp->members[i].cluster == c && !bad; i++) {
            bad = write_copy(k, &rp->members[i], 0, fn, ctx) < 0;
        }
        bad = bad || put(fn, ctx, "]}") < 0;
    }
    return bad || put(fn, ctx, "\n]}\n") < 0 ? PGN_E_IO : PGN_OK;
}
