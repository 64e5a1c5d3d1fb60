/* SPDX-License-Identifier: MIT */
/* pgnkit sort's records: the held games sorted stably by the --by tags (pgn_tag_compare, then
 * input order), written out or, past --memory, to a run in a temporary file; the runs merged into
 * the output. The options and the reading are in cmd_sort.c. */
#define _POSIX_C_SOURCE 200809L
#include "sort.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static pgn_str key_of(const rec *r, size_t k) {
    const char *p = (const char *)(r + 1);
    for (size_t i = 0; i < k; i++) {
        p += r->key_len[i] == NONE ? 0 : r->key_len[i];
    }
    pgn_str v = {p, r->key_len[k] == NONE ? 0 : r->key_len[k]};
    return v;
}

static const char *raw_of(const rec *r) {
    return (const char *)r + r->size - r->raw_len;
}

/* The tag list, for the comparison (qsort has no context argument). */
typedef struct order {
    char *const *names;
    size_t n;
} order;

static int compare(const order *o, const rec *a, const rec *b) {
    for (size_t i = 0; i < o->n; i++) {
        int ha = a->key_len[i] != NONE, hb = b->key_len[i] != NONE;
        int c = ha && hb ? pgn_tag_compare(o->names[i], key_of(a, i), key_of(b, i)) : ha - hb;
        if (c != 0) {
            return c;
        }
    }
    return a->ordinal < b->ordinal ? -1 : a->ordinal > b->ordinal; /* stable */
}

/* Sorts v[0..n) stably (bottom-up merge sort through tmp, n pointers). */
static void sort_recs(const order *o, rec **v, rec **tmp, size_t n) {
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n,
                   hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                tmp[k++] = compare(o, v[j], v[i]) < 0 ? v[j++] : v[i++];
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

/* A new temporary run file, or NULL after a message (naming the limit of open files). */
static FILE *new_run(void) {
    FILE *f = tmpfile();
    if (!f) {
        int err = errno;
        struct rlimit rl;
        if (err == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
            cli_error(NULL,
                      "cannot open a temporary run file: %s (the limit is %llu open files: "
                      "ulimit -n)",
                      strerror(err), (unsigned long long)rl.rlim_cur);
        } else {
            cli_error(NULL, "cannot open a temporary run file: %s", strerror(err));
        }
    }
    return f;
}

static pgn_status merge_into(const order *o, FILE **runs, size_t n, FILE *f, int records);

/* Adds run f (of level level, rewound) to the open runs; merges SORT_FANIN runs of one level into
 * one of the next, as long as there are. */
static pgn_status push_run(sort_state *s, FILE *f, unsigned char level) {
    FILE **runs = realloc(s->runs, (s->nruns + 1) * sizeof *runs);
    unsigned char *levels = runs ? realloc(s->levels, s->nruns + 1) : NULL;
    s->runs = runs ? runs : s->runs;
    s->levels = levels ? levels : s->levels;
    if (!levels) {
        fclose(f);
        return PGN_E_NOMEM;
    }
    s->runs[s->nruns] = f;
    s->levels[s->nruns++] = level;
    order o = {s->names, s->nkeys};
    while (s->nruns >= SORT_FANIN && s->levels[s->nruns - SORT_FANIN] == s->levels[s->nruns - 1]) {
        FILE *m = new_run();
        s->said |= !m;
        size_t first = s->nruns - SORT_FANIN;
        pgn_status st = m ? merge_into(&o, s->runs + first, SORT_FANIN, m, 1) : PGN_E_IO;
        if (st == PGN_OK && (fflush(m) != 0 || fseek(m, 0, SEEK_SET) != 0)) {
            st = PGN_E_IO;
        }
        if (st != PGN_OK) {
            if (m) {
                fclose(m);
            }
            return st;
        }
        for (size_t i = first; i < s->nruns; i++) {
            fclose(s->runs[i]);
        }
        s->runs[first] = m;
        s->levels[first]++;
        s->nruns = first + 1;
    }
    return PGN_OK;
}

pgn_status sort_flush(sort_state *s, int to_run) {
    order o = {s->names, s->nkeys};
    rec **tmp = malloc((s->nrecs + 1) * sizeof *tmp);
    FILE *f = tmp && to_run ? new_run() : s->out;
    s->said |= tmp && !f;
    if (!tmp || !f) {
        free(tmp);
        return tmp ? PGN_E_IO : PGN_E_NOMEM;
    }
    sort_recs(&o, s->recs, tmp, s->nrecs);
    free(tmp);
    int bad = 0;
    for (size_t i = 0; i < s->nrecs; i++) {
        rec *r = s->recs[i];
        bad |= to_run ? fwrite(r, 1, r->size, f) != r->size
                      : cli_write_raw(f, raw_of(r), r->raw_len) != PGN_OK;
        free(r);
    }
    s->nrecs = 0;
    s->held = 0;
    if (to_run) {
        bad |= fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0;
        s->runs_made++;
        if (bad) {
            cli_error(NULL, "cannot write a temporary run file: %s", strerror(errno));
            s->said = 1;
            fclose(f);
            return PGN_E_IO;
        }
        pgn_status st = push_run(s, f, 0);
        if (st != PGN_OK && !s->said) {
            cli_error(NULL, "cannot merge the runs: %s", pgn_status_message(st));
            s->said = 1;
        }
        return st;
    }
    return bad ? PGN_E_IO : PGN_OK;
}

/* Reads the next record of run f into *r (reallocated); 1, 0 at its end, -1 on a failure. */
static int read_rec(FILE *f, rec **r) {
    rec h;
    if (fread(&h, sizeof h, 1, f) != 1) {
        return ferror(f) ? -1 : 0;
    }
    rec *n = realloc(*r, (size_t)h.size);
    if (!n) {
        return -1;
    }
    *n = h;
    *r = n;
    return fread(n + 1, 1, (size_t)(h.size - sizeof h), f) == h.size - sizeof h ? 1 : -1;
}

/* Merges runs[0..n) into f, taking the least record of the runs' heads each time: their raw texts
 * (the output), or the records (records: a run of the next level). */
static pgn_status merge_into(const order *o, FILE **runs, size_t n, FILE *f, int records) {
    rec **head = calloc(n, sizeof *head);
    pgn_status st = head ? PGN_OK : PGN_E_NOMEM;
    for (size_t i = 0; st == PGN_OK && i < n; i++) {
        if (read_rec(runs[i], &head[i]) <= 0) {
            st = PGN_E_IO; /* a run is never empty */
        }
    }
    while (st == PGN_OK) {
        size_t best = n;
        for (size_t i = 0; i < n; i++) {
            if (head[i] && (best == n || compare(o, head[i], head[best]) < 0)) {
                best = i;
            }
        }
        if (best == n) {
            break;
        }
        rec *r = head[best];
        if (records ? fwrite(r, 1, r->size, f) != r->size
                    : cli_write_raw(f, raw_of(r), r->raw_len) != PGN_OK) {
            st = PGN_E_IO;
        }
        int got = read_rec(runs[best], &head[best]);
        if (got <= 0) {
            st = got < 0 ? PGN_E_IO : st;
            free(head[best]);
            head[best] = NULL;
        }
    }
    for (size_t i = 0; head && i < n; i++) {
        free(head[i]);
    }
    free(head);
    return st;
}

pgn_status sort_merge(sort_state *s) {
    order o = {s->names, s->nkeys};
    return merge_into(&o, s->runs, s->nruns, s->out, 0);
}
