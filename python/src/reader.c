/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit.Reader: a streaming reader over a path, bytes or a binary file object (whose
 * read() is called with the GIL taken back, chunk by chunk). One call at a time: a second thread,
 * or a file object whose read() calls the reader again, is refused (issue 36), since the reader
 * runs without the GIL. */
#include "reader.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int pk_reader_enter(ReaderObject *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "pgnkit: this reader is in use (by another thread, or called again from "
                        "its file's read()); a reader reads on one thread at a time");
        return -1;
    }
    self->busy = 1;
    return 0;
}

void pk_reader_leave(ReaderObject *self) {
    self->busy = 0;
}

int pk_reader_no_pending(ReaderObject *self, const char *method) {
    if (pk_tagdicts_pending(self->tags)) {
        PyErr_Format(PyExc_ValueError,
                     "%s: the reader has read games ahead for next(); read them first", method);
        return -1;
    }
    return 0;
}

PyObject *pk_reader_failed(ReaderObject *self, pgn_status st) {
    if (self->io_err && self->io_err != Py_None) {
        PyErr_SetObject((PyObject *)Py_TYPE(self->io_err), self->io_err);
        return NULL;
    }
    if (st == PGN_E_NOMEM) {
        return PyErr_NoMemory();
    }
    const char *why = self->src ? pgn_source_error(self->src) : NULL;
    if (st == PGN_E_IO && why) { /* decoding failed: the games before were given */
        PyErr_Format(pk_state_of(Py_TYPE(self))->source_error, "%s: %s",
                     PyBytes_AS_STRING(self->name), why);
        return NULL;
    }
    pk_raise_status(pk_state_of(Py_TYPE(self)), st, PyBytes_AS_STRING(self->name));
    return NULL;
}

/* A pgn_read_fn over a file-like object: takes the GIL for the call to its read(), and runs the
 * signal handlers (Ctrl-C) after each chunk; an exception of either ends the read (-1) and is
 * kept in io_err, raised when the read returns. */
static ptrdiff_t pyfile_read(void *ctx, void *buf, size_t cap) {
    ReaderObject *self = ctx;
    PyGILState_STATE g = PyGILState_Ensure();
    ptrdiff_t n = -1;
    PyObject *data = self->keep ? PyObject_CallMethod(self->keep, "read", "n", (Py_ssize_t)cap)
                                : PyErr_Format(PyExc_ValueError, "pgnkit: the reader was cleared");
    if (data && PyBytes_Check(data) && (size_t)PyBytes_GET_SIZE(data) <= cap) {
        n = PyBytes_GET_SIZE(data);
        memcpy(buf, PyBytes_AS_STRING(data), (size_t)n);
    } else if (data) {
        PyErr_SetString(PyExc_TypeError, "pgnkit.read: the file must be opened in binary mode");
    }
    Py_XDECREF(data);
    if (n >= 0 && PyErr_CheckSignals() < 0) {
        n = -1;
    }
    if (n < 0 && !self->io_err) {
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyErr_NormalizeException(&t, &v, &tb);
        if (v && tb) {
            PyException_SetTraceback(v, tb);
        }
        self->io_err = v ? v : Py_NewRef(Py_None);
        Py_XDECREF(t);
        Py_XDECREF(tb);
    }
    PyErr_Clear();
    PyGILState_Release(g);
    return n;
}

static int reader_traverse(ReaderObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->keep);
    Py_VISIT(self->io_err);
    return 0;
}

/* The garbage collector's: a file object can hold the reader (bytes cannot, and the reader reads
 * them: they stay to the end). */
static int reader_clear(ReaderObject *self) {
    if (self->keep && !PyBytes_Check(self->keep)) {
        Py_CLEAR(self->keep);
    }
    Py_CLEAR(self->io_err);
    return 0;
}

static void reader_dealloc(ReaderObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    pgn_reader_free(self->r);
    pgn_query_matcher_free(self->m);
    pgn_query_free(self->q);
    pgn_source_free(self->src);
    if (self->fd >= 0) {
        close(self->fd);
    }
    Py_XDECREF(self->keep);
    Py_XDECREF(self->io_err);
    Py_XDECREF(self->name);
    pgn_membuf_free(&self->diags.buf);
    pk_tagdicts_free(self->tags);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* where=: compiles the expression and its matcher, and sets the reader's flags (the raw bytes kept,
 * and what the query lets the first pass leave out). Returns 0, or -1 with an exception set. */
static int reader_where(ReaderObject *self, const char *where, pgn_reader_opts *o) {
    pgn_query_error e;
    pgn_status st = pgn_query_compile(&self->q, where, strlen(where), NULL, &e);
    if (st == PGN_OK) {
        st = pgn_query_matcher_new(&self->m, self->q, NULL);
    }
    if (st == PGN_E_NOMEM) {
        PyErr_NoMemory();
        return -1;
    }
    if (st != PGN_OK) {
        PyErr_Format(PyExc_ValueError, "where: column %u: %s%s%s", (unsigned)e.column, e.message,
                     e.expected[0] ? "; expected " : "", e.expected);
        return -1;
    }
    self->sub = *o;
    self->sub.on_diag = NULL;
    self->sub.range_start = self->sub.range_end = 0;
    o->flags |= PGN_READ_KEEP_RAW | pgn_query_reader_flags(self->q);
    return 0;
}

/* 1 if src names a file: a str or an os.PathLike (bytes are the text itself). */
static int is_path(PyObject *src) {
    return PyUnicode_Check(src) ||
           (!PyBytes_Check(src) && PyObject_HasAttrString((PyObject *)Py_TYPE(src), "__fspath__"));
}

/* Opens self->src over src: a path (in the file system's encoding, so that a name that is not
 * UTF-8 opens too: OSError as open() gives it), bytes, or a file object read through pyfile_read.
 * The source layer tells what the bytes hold (CompressedError for what it refuses). Returns 0, or
 * -1 with an exception set. */
static int source_open(ReaderObject *self, PyObject *src) {
    char msg[512] = "";
    pgn_source_opts so = {.name = PyBytes_AS_STRING(self->name)};
    pgn_status st;
    if (is_path(src)) {
        PyObject *path = NULL;
        if (!PyUnicode_FSConverter(src, &path)) {
            return -1;
        }
        Py_BEGIN_ALLOW_THREADS
        self->fd = open(PyBytes_AS_STRING(path), O_RDONLY | O_CLOEXEC);
        Py_END_ALLOW_THREADS
        Py_DECREF(path);
        if (self->fd < 0) {
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, src);
            return -1;
        }
        Py_BEGIN_ALLOW_THREADS
        st = pgn_source_open_fd(&self->src, self->fd, &so, msg, sizeof msg);
        Py_END_ALLOW_THREADS
    } else if (PyBytes_Check(src)) {
        self->keep = Py_NewRef(src);
        st = pgn_source_open_mem(&self->src, PyBytes_AS_STRING(src), (size_t)PyBytes_GET_SIZE(src),
                                 &so, msg, sizeof msg);
    } else {
        self->keep = Py_NewRef(src);
        st = pgn_source_open_read(&self->src, pyfile_read, self, &so, msg, sizeof msg);
    }
    if (st == PGN_OK) {
        return 0;
    }
    if (self->io_err && self->io_err != Py_None) {
        PyErr_SetObject((PyObject *)Py_TYPE(self->io_err), self->io_err);
    } else if (st == PGN_E_NOMEM) {
        PyErr_NoMemory();
    } else {
        PyErr_Format(pk_state_of(Py_TYPE(self))->source_error, "%s: %s",
                     PyBytes_AS_STRING(self->name), msg);
    }
    return -1;
}

/* The reader of the source's current text (an archive's member: its name taken as the name). A
 * byte range is cut by the source layer (a plain file anywhere, a zstd file at its frames; a
 * file object is read from where it stands, as the range semantics ask of a stream). Returns 0,
 * or -1 with an exception set. */
static int reader_open(ReaderObject *self, PyObject *src) {
    pgn_reader_opts *o = &self->o;
    if (pgn_source_archive(self->src)) {
        Py_SETREF(self->name, PyBytes_FromString(pgn_source_name(self->src)));
        if (!self->name) {
            return -1;
        }
        o->source_name = self->sub.source_name = PyBytes_AS_STRING(self->name);
    }
    int ranged = o->range_start || o->range_end; /* (a line_base alone: the reader's) */
    if (ranged && (!src || PyBytes_Check(src) || is_path(src))) {
        pgn_status st;
        Py_BEGIN_ALLOW_THREADS
        st = pgn_source_range(self->src, o->range_start, o->range_end, o->line_base, o);
        Py_END_ALLOW_THREADS
        if (st != PGN_OK) {
            if (st == PGN_E_NOMEM) {
                PyErr_NoMemory();
            } else {
                PyErr_Format(PyExc_ValueError, "%s: range=: %s", PyBytes_AS_STRING(self->name),
                             pgn_source_error(self->src));
            }
            return -1;
        }
    }
    if (pgn_reader_new(&self->r, o, pgn_source_read, self->src) != PGN_OK) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

PyObject *pk_reader_next_member(ReaderObject *self, PyObject *unused) {
    (void)unused;
    if (pk_reader_enter(self) < 0) {
        return NULL;
    }
    pgn_status st;
    PyObject *out = NULL;
    Py_BEGIN_ALLOW_THREADS
    st = pgn_source_next(self->src);
    Py_END_ALLOW_THREADS
    if (st == PGN_END) {
        out = Py_NewRef(Py_None);
    } else if (st != PGN_OK) {
        pk_reader_failed(self, st);
    } else {
        pgn_reader_free(self->r);
        self->r = NULL;
        pk_tagdicts_free(self->tags);
        self->tags = NULL;
        if ((!self->tags_only || (self->tags = pk_tagdicts_new())) &&
            reader_open(self, NULL) == 0) {
            out = PyUnicode_DecodeFSDefault(PyBytes_AS_STRING(self->name));
        } else if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
    }
    pk_reader_leave(self);
    return out;
}

/* Reader(source, name="<input>", encoding=None, strict=False, tags_only=False, range_start=0,
 * range_end=0, where=None, line_base=0, fix=False): source is a path (str or os.PathLike), bytes,
 * or a binary file-like object. where: an expression of the selection language (docs/query.md) or
 * None. line_base: the line number of byte range_start (0: 1). */
static PyObject *reader_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char k0[] = "source", k1[] = "name", k2[] = "encoding", k3[] = "strict",
                k4[] = "tags_only", k5[] = "range_start", k6[] = "range_end", k7[] = "where",
                k8[] = "line_base", k9[] = "fix";
    static char *kws[] = {k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, NULL};
    PyObject *src, *name = NULL, *enc = Py_None;
    const char *where = NULL;
    int strict = 0, tags_only = 0, fix = 0;
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O&OppO&O&zO&p", kws, &src, PyUnicode_FSConverter,
                                     &name, &enc, &strict, &tags_only, pk_uint64_arg,
                                     &o.range_start, pk_uint64_arg, &o.range_end, &where,
                                     pk_uint32_arg, &o.line_base, &fix) ||
        !pk_encoding_arg(enc, &o.encoding)) {
        Py_XDECREF(name);
        return NULL;
    }
    ReaderObject *self = (ReaderObject *)type->tp_alloc(type, 0);
    if (!self) {
        Py_XDECREF(name);
        return NULL;
    }
    self->fd = -1;
    self->name = name ? name : PyBytes_FromString("<input>");
    self->tags_only = tags_only;
    if (tags_only && !(self->tags = pk_tagdicts_new())) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    o.flags = (strict ? PGN_READ_STRICT : 0) |
              (tags_only ? PGN_READ_NO_BOARD | PGN_READ_TAGS_ONLY | PGN_READ_TAG_SPANS : 0) |
              (fix ? PGN_READ_FIX : 0); /* docs/repair.md */
    o.on_diag = pk_diags_collect;
    o.diag_ctx = &self->diags;
    o.source_name = self->name ? PyBytes_AS_STRING(self->name) : NULL;
    self->o = o;
    if (!self->name || (where && !tags_only && reader_where(self, where, &self->o) < 0) ||
        source_open(self, src) < 0 || reader_open(self, src) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static const pk_fn_slot reader_fns[] = {{Py_tp_new, (pk_fn)reader_new},
                                        {Py_tp_dealloc, (pk_fn)reader_dealloc},
                                        {Py_tp_traverse, (pk_fn)reader_traverse},
                                        {Py_tp_clear, (pk_fn)reader_clear},
                                        {Py_tp_iter, (pk_fn)PyObject_SelfIter},
                                        {Py_tp_iternext, (pk_fn)pk_reader_next},
                                        {0, NULL}};

const pk_type_def pk_reader_def = {
    "pgnkit._pgnkit.Reader",
    sizeof(ReaderObject),
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE,
    reader_fns,
    pk_reader_methods,
    "A streaming PGN reader (one thread at a time).",
};
