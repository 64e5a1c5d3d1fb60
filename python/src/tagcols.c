/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit.tag_columns: the tags of every game of a source as columns, for
 * pgnkit.read_tags_frame (issue 19). The scan (tagscan.c, tagparts.c) runs with the GIL released;
 * only then are Python objects made: one str per distinct value, and each column as one bytearray
 * of int32 codes (strings), of int64 values and a mask (integer tags), or of int64 nanoseconds
 * since 1970 (dates: datetime64[ns] as pandas keeps it, so no conversion pass after), which the
 * Python layer views with numpy without a per-row object. */
#include "tagcols.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tagdicts.h"
#include "tagscan.h"

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

#define DAY_NS ((int64_t)86400 * 1000 * 1000 * 1000)

/* A bytearray of n items of size bytes (a writable buffer numpy views), left as it comes: the
 * caller writes every item. */
static PyObject *new_buf(uint64_t n, size_t size) {
    return PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(n * size));
}

/* The distinct values of j's column c, as a list of str. */
static PyObject *values_of(const pk_tjoin *j, size_t c) {
    const pk_strtab *values = &pk_tscan_col(j->all, c)->values;
    PyObject *vals = PyList_New(values->n);
    for (uint32_t i = 0; vals && i < values->n; i++) {
        pgn_str v = {pk_strtab_str(values, i), pk_strtab_ent(values, i)->len};
        PyObject *o = pk_new_str(v);
        if (!o) {
            Py_CLEAR(vals);
            break;
        }
        PyList_SET_ITEM(vals, i, o);
    }
    return vals;
}

/* values (str), data (int32 codes, -1 where the game has no such tag) of j's column c. */
static int str_column(const pk_tjoin *j, size_t c, PyObject **items) {
    items[2] = values_of(j, c);
    items[3] = new_buf(j->rows, sizeof(int32_t));
    items[4] = Py_NewRef(Py_None);
    if (items[2] && items[3]) {
        pk_join_codes(j, c, (int32_t *)(void *)PyByteArray_AS_STRING(items[3]));
    }
    return 0;
}

/* Of j's column c: data, int64 values, and mask, 1 where missing or not an integer (KIND_INT); or
 * data, int64 nanoseconds since 1970 (the day's 00:00), INT64_MIN (numpy's NaT) where missing or
 * not a complete date (KIND_DATE). */
static int typed_column(const pk_tjoin *j, size_t c, int kind, PyObject **items) {
    const pk_strtab *values = &pk_tscan_col(j->all, c)->values;
    int64_t *val = malloc((values->n ? values->n : 1) * sizeof *val);
    char *ok = malloc(values->n ? values->n : 1);
    int32_t *codes = malloc((j->rows ? j->rows : 1) * sizeof *codes);
    items[2] = Py_NewRef(Py_None);
    items[3] = new_buf(j->rows, sizeof(int64_t));
    items[4] = kind == KIND_INT ? new_buf(j->rows, 1) : Py_NewRef(Py_None);
    if (val && ok && codes && items[3] && items[4]) {
        for (uint32_t i = 0; i < values->n; i++) {
            const char *s = pk_strtab_str(values, i);
            ok[i] = (char)(kind == KIND_INT ? parse_int(s, &val[i]) : parse_date(s, &val[i]));
            if (kind == KIND_DATE && ok[i]) {
                val[i] *= DAY_NS; /* within int64: parse_date's range */
            }
        }
        pk_join_codes(j, c, codes);
        int64_t *out = (int64_t *)(void *)PyByteArray_AS_STRING(items[3]);
        char *m = kind == KIND_INT ? PyByteArray_AS_STRING(items[4]) : NULL;
        for (uint64_t i = 0; i < j->rows; i++) {
            int good = codes[i] >= 0 && ok[codes[i]];
            out[i] = good ? val[codes[i]] : kind == KIND_DATE ? INT64_MIN : 0;
            if (m) {
                m[i] = (char)!good;
            }
        }
    } else if (!PyErr_Occurred()) {
        PyErr_NoMemory();
    }
    free(val);
    free(ok);
    free(codes);
    return 0;
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

/* The TagColumn record of j's column i. */
static PyObject *column_of(const pk_state *s, pk_tjoin *j, size_t i, PyObject *ints,
                           PyObject *dates) {
    static const char *const kinds[] = {"s", "i", "d"};
    const pk_strtab *names = &j->all->names;
    const char *name = pk_strtab_str(names, (uint32_t)i);
    int kind = kind_of(name, ints, dates);
    if (kind < 0) {
        return NULL;
    }
    PyObject *items[5] = {
        PyUnicode_DecodeUTF8(name, pk_strtab_ent(names, (uint32_t)i)->len, "replace"),
        PyUnicode_FromString(kinds[kind])};
    if (kind == KIND_STR) {
        str_column(j, i, items);
    } else {
        typed_column(j, i, kind, items);
    }
    pk_join_drop(j, i);
    if (PyErr_Occurred()) {
        for (int k = 0; k < 5; k++) {
            Py_CLEAR(items[k]);
        }
    }
    return pk_record_new(s, PK_REC_COLUMN, items);
}

/* The TagColumns record of j (columns in order of first appearance), or NULL with an exception
 * set. */
static PyObject *columns_result(const pk_state *s, pk_tjoin *j, size_t parts, PyObject *ints,
                                PyObject *dates) {
    size_t ncols = pk_tscan_ncols(j->all);
    PyObject *cols = PyList_New((Py_ssize_t)ncols);
    for (size_t i = 0; cols && i < ncols; i++) {
        PyObject *col = column_of(s, j, i, ints, dates);
        if (!col) {
            Py_CLEAR(cols);
            break;
        }
        PyList_SET_ITEM(cols, (Py_ssize_t)i, col);
    }
    PyObject *items[] = {PyLong_FromUnsignedLongLong(j->rows), cols, PyLong_FromSize_t(parts)};
    return pk_record_new(s, PK_REC_COLUMNS, items);
}

PyObject *pk_tag_columns(const pk_state *s, pgn_reader *r, PyObject *ints, PyObject *dates,
                         pgn_status *st) {
    pk_tscan *scan = calloc(1, sizeof *scan);
    pk_tjoin j;
    memset(&j, 0, sizeof j);
    if (!scan) {
        *st = PGN_E_NOMEM;
        return NULL;
    }
    pk_nogil n;
    pk_nogil_begin(&n);
    *st = pk_scan_all(r, scan, NULL, &n);
    if (pk_nogil_end(&n) < 0 || *st != PGN_END) {
        pk_tscan_free(scan);
        free(scan);
        return NULL;
    }
    if (pk_join_build(&j, scan, 1) < 0) {
        *st = PGN_E_NOMEM;
        return NULL;
    }
    PyObject *out = columns_result(s, &j, 1, ints, dates);
    pk_join_free(&j);
    return out;
}

/* out[i] = values[codes[i]], missing where codes[i] is -1, each a new reference, the item it
 * replaces released. 0, or -1 with an exception set (a code out of range: the items before it
 * are written). */
static int take_into(PyObject **out, Py_ssize_t n, const char *codes, PyObject *values,
                     PyObject *missing) {
    Py_ssize_t nvals = PyList_GET_SIZE(values);
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t k;
        memcpy(&k, codes + i * (Py_ssize_t)sizeof k, sizeof k); /* any alignment */
        if (k < -1 || k >= nvals) {
            PyErr_Format(PyExc_ValueError, "take_objects: code %ld out of range", (long)k);
            return -1;
        }
        PyObject *old = out[i];
        out[i] = Py_NewRef(k < 0 ? missing : PyList_GET_ITEM(values, k));
        Py_XDECREF(old);
    }
    return 0;
}

PyObject *pk_mod_take_objects(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *out, *values, *missing;
    Py_buffer ob, cb;
    if (!PyArg_ParseTuple(args, "OO!y*O", &out, &PyList_Type, &values, &cb, &missing)) {
        return NULL;
    }
    if (PyObject_GetBuffer(out, &ob, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&cb);
        return NULL;
    }
    int rc = -1;
    if (!ob.format || strcmp(ob.format, "O") != 0 || ob.itemsize != (Py_ssize_t)sizeof out) {
        PyErr_SetString(PyExc_TypeError, "take_objects: out is not an array of objects");
    } else if (ob.len / ob.itemsize != cb.len / (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "take_objects: out and codes differ in length");
    } else {
        rc = take_into(ob.buf, ob.len / ob.itemsize, cb.buf, values, missing);
    }
    PyBuffer_Release(&ob);
    PyBuffer_Release(&cb);
    return rc < 0 ? NULL : Py_NewRef(Py_None);
}

/* Sets src's path or bytes from source (a str or os.PathLike, or bytes); path holds the bytes of a
 * path. 0, or -1 with an exception set. */
static int source_of(PyObject *source, pk_tag_source *src, PyObject **path) {
    if (PyBytes_Check(source)) {
        src->data = PyBytes_AS_STRING(source);
        src->size = src->len = (size_t)PyBytes_GET_SIZE(source);
        return 0;
    }
    if (!PyUnicode_FSConverter(source, path)) {
        return -1;
    }
    src->path = PyBytes_AS_STRING(*path);
    FILE *f = fopen(src->path, "rb"); /* the OSError of a file that cannot be read, up front */
    struct stat sb;
    if (!f) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, source);
        return -1;
    }
    src->size = fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
    fclose(f);
    return 0;
}

/* Scans src (made from the arguments) into a TagColumns record. */
static PyObject *tag_columns_of(const pk_state *s, const pk_tag_source *src, PyObject *ints,
                                PyObject *dates, const char *name) {
    pk_tjoin j;
    memset(&j, 0, sizeof j);
    size_t parts = 1;
    pk_nogil n;
    pk_nogil_begin(&n);
    pgn_status st = pk_scan_source(src, &j, &parts, &n);
    if (pk_nogil_end(&n) < 0) {
        pk_join_free(&j);
        return NULL;
    }
    PyObject *out = NULL;
    if (st == PGN_END) {
        out = columns_result(s, &j, parts, ints, dates);
    } else if (st == PGN_E_NOMEM) {
        PyErr_NoMemory();
    } else if (st == PGN_E_IO) {
        PyErr_SetFromErrnoWithFilename(PyExc_OSError, name);
    } else {
        pk_raise_status(s, st, name);
    }
    pk_join_free(&j);
    return out;
}

PyObject *pk_mod_tag_columns(PyObject *mod, PyObject *args, PyObject *kw) {
    static char k0[] = "source", k1[] = "name", k2[] = "encoding", k3[] = "range_start",
                k4[] = "range_end", k5[] = "jobs", k6[] = "part_bytes", k7[] = "int_tags",
                k8[] = "date_tags", k9[] = "guess";
    static char *kws[] = {k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, NULL};
    PyObject *source, *name = NULL, *enc = Py_None, *path = NULL, *out = NULL;
    PyObject *ints, *dates;
    Py_ssize_t jobs, part;
    int guess = 1;
    pk_tag_source src;
    memset(&src, 0, sizeof src);
    if (PyArg_ParseTupleAndKeywords(args, kw, "OO&OO&O&nnOO|p", kws, &source, PyUnicode_FSConverter,
                                    &name, &enc, pk_uint64_arg, &src.range_start, pk_uint64_arg,
                                    &src.range_end, &jobs, &part, &ints, &dates, &guess) &&
        pk_encoding_arg(enc, &src.opts.encoding) && source_of(source, &src, &path) == 0) {
        src.opts.source_name = PyBytes_AS_STRING(name);
        src.jobs = jobs > 0 ? (size_t)jobs : 1;
        src.part_bytes = part > 0 ? (size_t)part : 0;
        src.guess = guess;
        out = tag_columns_of(PyModule_GetState(mod), &src, ints, dates, src.opts.source_name);
    }
    Py_XDECREF(name);
    Py_XDECREF(path);
    return out;
}
