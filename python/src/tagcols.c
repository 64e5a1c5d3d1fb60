/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit.tag_columns: the tags of every game of a source as columns, for
 * pgnkit.read_tags_frame (issue 19). The scan runs with the GIL released and keeps, per tag name
 * (a column, in order of first appearance), the set of its distinct values and a (row, code) pair
 * per occurrence; only then are Python objects made: one str per distinct value, and each column as
 * one bytearray of int32 codes (strings), of int64 values and a mask (integer tags), or of int64
 * days since 1970 (dates), which the Python layer views with numpy without a per-row object. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
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

typedef struct tcol {
    strtab values;
    uint64_t *rows;  /* the game of each occurrence */
    uint32_t *codes; /* its value's index in values */
    size_t n, cap;
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
        free(s->cols[i].rows);
        free(s->cols[i].codes);
    }
    free(s->cols);
    free(s->after);
    strtab_free(&s->names);
}

/* The column of tag name p[0..n): the one that followed the previous tag last time if it is that
 * name (tags come in the same order game after game), else looked up or added; -1 when out of
 * memory. */
static int64_t column_of(tscan *s, const char *p, size_t n) {
    uint32_t guess = s->after ? s->after[s->prev] : UINT32_MAX;
    int64_t c = strtab_is(&s->names, guess, p, n) ? guess : strtab_intern(&s->names, p, n);
    if (c >= 0 && (size_t)c == s->ncols) {
        if (grow((void **)&s->cols, &s->capcols, s->ncols + 1, sizeof *s->cols) < 0 ||
            grow((void **)&s->after, &s->capafter, s->ncols + 2, sizeof *s->after) < 0) {
            return -1;
        }
        memset(&s->cols[s->ncols++], 0, sizeof *s->cols);
        s->after[0] = s->ncols == 1 ? UINT32_MAX : s->after[0];
        s->after[s->ncols] = UINT32_MAX;
    }
    if (c >= 0) {
        s->after[s->prev] = (uint32_t)c;
        s->prev = (uint32_t)c + 1;
    }
    return c;
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    tscan *s = user;
    const char *vp = value.ptr ? value.ptr : "";
    int64_t c = column_of(s, name.ptr ? name.ptr : "", name.len);
    tcol *col = c >= 0 ? &s->cols[c] : NULL;
    int64_t v =
        -1; /* the value of the column's last occurrence (Event, Site...) if it is this one */
    if (col && col->n && strtab_is(&col->values, col->codes[col->n - 1], vp, value.len)) {
        v = col->codes[col->n - 1];
    } else if (col) {
        v = strtab_intern(&col->values, vp, value.len);
    }
    size_t cap = col ? col->cap : 0;
    if (v < 0 || grow((void **)&col->rows, &cap, col->n + 1, sizeof *col->rows) < 0 ||
        grow((void **)&col->codes, &col->cap, col->n + 1, sizeof *col->codes) < 0) {
        s->oom = 1;
        return PGN_FLOW_STOP;
    }
    col->rows[col->n] = s->row;
    col->codes[col->n++] = (uint32_t)v;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end_tags(void *user, const pgn_pos *start) {
    (void)user;
    (void)start;
    return PGN_FLOW_SKIP;
}

/* Scans every game of r into s; no Python call (run without the GIL). */
static pgn_status scan_all(pgn_reader *r, tscan *s) {
    static const pgn_visitor v = {NULL, on_tag, on_end_tags, NULL, NULL, NULL, NULL, NULL, NULL};
    pgn_status st;
    while ((st = pgn_reader_visit(r, &v, s)) == PGN_OK || st == PGN_E_LIMIT) {
        if (s->oom) {
            return PGN_E_NOMEM;
        }
        s->row++;
        s->prev = 0;
    }
    return s->oom ? PGN_E_NOMEM : st;
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

/* ("s", [distinct values], int32 codes, -1 where the game has no such tag). */
static PyObject *str_column(const tcol *c, uint64_t rows) {
    PyObject *vals = PyList_New(c->values.n), *codes = new_buf(rows, sizeof(int32_t), 0xff);
    for (uint32_t i = 0; vals && codes && i < c->values.n; i++) {
        const strent *e = &c->values.ent[i];
        PyObject *o = PyUnicode_DecodeUTF8(c->values.bytes + e->off, e->len, "replace");
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
    int32_t *out = (int32_t *)PyByteArray_AS_STRING(codes);
    for (size_t i = 0; i < c->n; i++) {
        out[c->rows[i]] = (int32_t)c->codes[i];
    }
    return Py_BuildValue("(sNN)", "s", vals, codes);
}

/* ("i", int64 values, bool mask: 1 where missing or not an integer) or ("d", int64 days since
 * 1970, INT64_MIN (numpy's NaT) where missing or not a complete date). */
static PyObject *typed_column(const tcol *c, uint64_t rows, int kind) {
    int64_t *val = malloc((c->values.n ? c->values.n : 1) * sizeof *val);
    char *ok = malloc(c->values.n ? c->values.n : 1);
    PyObject *a = new_buf(rows, sizeof(int64_t), 0), *mask = new_buf(rows, 1, 1);
    if (!val || !ok || !a || !mask) {
        free(val);
        free(ok);
        Py_XDECREF(a);
        Py_XDECREF(mask);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    for (uint32_t i = 0; i < c->values.n; i++) {
        const char *s = c->values.bytes + c->values.ent[i].off;
        ok[i] = (char)(kind == KIND_INT ? parse_int(s, &val[i]) : parse_date(s, &val[i]));
    }
    int64_t *out = (int64_t *)PyByteArray_AS_STRING(a);
    char *m = PyByteArray_AS_STRING(mask);
    for (size_t i = 0; i < c->n; i++) {
        uint32_t k = c->codes[i];
        out[c->rows[i]] = ok[k] ? val[k] : 0;
        m[c->rows[i]] = (char)!ok[k];
    }
    for (uint64_t i = 0; kind == KIND_DATE && i < rows; i++) {
        out[i] = m[i] ? INT64_MIN : out[i];
    }
    free(val);
    free(ok);
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
static PyObject *columns_of(const tscan *s, PyObject *ints, PyObject *dates) {
    PyObject *out = PyList_New((Py_ssize_t)s->ncols);
    for (size_t i = 0; out && i < s->ncols; i++) {
        const char *name = s->names.bytes + s->names.ent[i].off;
        int kind = kind_of(name, ints, dates);
        PyObject *col = kind < 0           ? NULL
                        : kind == KIND_STR ? str_column(&s->cols[i], s->row)
                                           : typed_column(&s->cols[i], s->row, kind);
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

/* (games, [(name, column)]) of the rest of r's games, read in one call without the GIL; NULL with
 * *st the reader's failure (no exception set) or with a Python exception set. */
PyObject *pk_tag_columns(pgn_reader *r, PyObject *ints, PyObject *dates, pgn_status *st) {
    tscan s;
    memset(&s, 0, sizeof s);
    Py_BEGIN_ALLOW_THREADS *st = scan_all(r, &s);
    Py_END_ALLOW_THREADS PyObject *out = NULL;
    if (*st == PGN_END) {
        PyObject *cols = columns_of(&s, ints, dates);
        out = cols ? Py_BuildValue("(KN)", (unsigned long long)s.row, cols) : NULL;
    }
    tscan_free(&s);
    return out;
}
