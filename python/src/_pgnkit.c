/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit: the CPython extension over libpgnkit's public C API (issue 19). It reads games
 * (with the GIL released while C code runs), scans tags, checks files, and wraps a position as a
 * Board. The Python layer (pgnkit/__init__.py) shapes the results; this file only crosses over. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pgnkit.h"
#include "tagcols.h"

static PyObject *PgnError; /* set once at module init (CPython's own pattern for exceptions) */

/* Raises PgnError(message, code, severity, what) for status st; returns -1. */
static int raise_status(pgn_status st, const char *what) {
    PyObject *v =
        Py_BuildValue("(ssss)", pgn_status_message(st), pgn_status_name(st), "error", what);
    if (v) {
        PyErr_SetObject(PgnError, v);
        Py_DECREF(v);
    }
    return -1;
}

/* ---- diagnostics collected while the GIL is released ---- */

typedef struct diag_rec {
    pgn_status code;
    pgn_severity severity;
    pgn_loc at;
    uint64_t game;
    char token[48];
} diag_rec;

typedef struct diag_list {
    diag_rec *v;
    size_t n, cap;
    int oom;
} diag_list;

static void collect_diag(void *ctx, const pgn_diag *d) {
    diag_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        diag_rec *v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            l->oom = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    diag_rec *r = &l->v[l->n++];
    r->code = d->code;
    r->severity = d->severity;
    r->at = d->at;
    r->game = d->game;
    memcpy(r->token, d->token, sizeof r->token);
    r->token[sizeof r->token - 1] = '\0';
}

static PyObject *diag_tuple(const diag_rec *r) {
    return Py_BuildValue("(sskkKKN)", pgn_status_name(r->code),
                         r->severity == PGN_SEV_ERROR ? "error" : "warning",
                         (unsigned long)r->at.line, (unsigned long)r->at.column,
                         (unsigned long long)r->at.offset, (unsigned long long)r->game,
                         PyUnicode_DecodeUTF8(r->token, (Py_ssize_t)strlen(r->token), "replace"));
}

/* The diagnostics of l from index from on, as a list of tuples. */
static PyObject *diag_pylist(const diag_list *l, size_t from) {
    PyObject *out = PyList_New(0);
    for (size_t i = from; out && i < l->n; i++) {
        PyObject *t = diag_tuple(&l->v[i]);
        if (!t || PyList_Append(out, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(t);
    }
    return out;
}

static PyObject *str_of(pgn_str s) {
    return PyUnicode_DecodeUTF8(s.ptr ? s.ptr : "", (Py_ssize_t)s.len, "replace");
}

/* ---- Game: owns one pgn_game ---- */

typedef struct GameObject {
    PyObject_HEAD pgn_game *g;
} GameObject;

static void game_dealloc(GameObject *self) {
    pgn_game_free(self->g);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *game_tags(GameObject *self, PyObject *unused) {
    (void)unused;
    size_t n = pgn_game_tag_count(self->g);
    PyObject *out = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; out && i < n; i++) {
        PyObject *t = Py_BuildValue("(NN)", str_of(pgn_game_tag_name(self->g, i)),
                                    str_of(pgn_game_tag_value(self->g, i)));
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, t);
    }
    return out;
}

static PyObject *game_result(GameObject *self, PyObject *unused) {
    (void)unused;
    return PyUnicode_FromString(pgn_result_str(pgn_game_result(self->g)));
}

static int append_str(PyObject *list, const char *s) {
    PyObject *o = PyUnicode_FromString(s);
    int r = o ? PyList_Append(list, o) : -1;
    Py_XDECREF(o);
    return r;
}

/* The parts of a main line that mainline() can make (a bit each). */
enum { LINE_SAN = 1, LINE_UCI = 2, LINE_FEN = 4, LINE_ANNOT = 8, LINE_ALL = 15 };

/* Appends to l[3..6] the comment, NAG tuple, clock (seconds or None) and eval (None, or ("cp", n)
 * / ("mate", n)) of node c; returns 0, or -1 with an exception set. */
static int annot_of(const pgn_node *c, PyObject *const *l) {
    pgn_str cm = pgn_node_comment(c);
    PyObject *o = cm.len ? str_of(cm) : Py_NewRef(Py_None);
    int bad = !o || PyList_Append(l[3], o) < 0;
    Py_XDECREF(o);
    size_t nn = pgn_node_nag_count(c);
    PyObject *t = PyTuple_New((Py_ssize_t)nn);
    for (size_t i = 0; t && i < nn; i++) {
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, PyLong_FromUnsignedLong(pgn_node_nag(c, i)));
    }
    bad |= !t || PyList_Append(l[4], t) < 0;
    Py_XDECREF(t);
    int64_t ms;
    o = pgn_node_clock(c, &ms) ? PyFloat_FromDouble((double)ms / 1000.0) : Py_NewRef(Py_None);
    bad |= !o || PyList_Append(l[5], o) < 0;
    Py_XDECREF(o);
    pgn_eval e;
    o = pgn_node_eval(c, &e)
            ? Py_BuildValue("(si)", e.kind == PGN_EVAL_MATE ? "mate" : "cp", (int)e.value)
            : Py_NewRef(Py_None);
    bad |= !o || PyList_Append(l[6], o) < 0;
    Py_XDECREF(o);
    return bad ? -1 : 0;
}

/* The main line from node's child on, played from *pos, as the 7-tuple (san, uci, fens, comments,
 * nags, clocks, evals) of lists (see annot_of), each None unless its bit is in what (LINE_*). */
static PyObject *line_of(const pgn_node *node, pgn_pos pos, int what) {
    static const int bit[7] = {LINE_SAN,   LINE_UCI,   LINE_FEN,  LINE_ANNOT,
                               LINE_ANNOT, LINE_ANNOT, LINE_ANNOT};
    PyObject *l[7];
    int bad = 0;
    for (int i = 0; i < 7; i++) {
        l[i] = what & bit[i] ? PyList_New(0) : Py_NewRef(Py_None);
        bad |= !l[i];
    }
    for (const pgn_node *c = pgn_node_child(node); c && !bad; c = pgn_node_child(c)) {
        pgn_move mv = pgn_node_move(c);
        char sbuf[PGN_SAN_MAX], ubuf[PGN_UCI_MAX], fbuf[PGN_FEN_MAX];
        if (what & LINE_SAN) {
            pgn_san_write(&pos, mv, sbuf);
            bad |= append_str(l[0], sbuf) < 0;
        }
        if (what & LINE_UCI) {
            pgn_uci_write(&pos, mv, ubuf);
            bad |= append_str(l[1], ubuf) < 0;
        }
        pgn_pos_play(&pos, mv);
        if (what & LINE_FEN) {
            pgn_fen_write(&pos, 0, fbuf, sizeof fbuf);
            bad |= append_str(l[2], fbuf) < 0;
        }
        bad |= (what & LINE_ANNOT) && annot_of(c, l) < 0;
    }
    PyObject *out = bad ? NULL : PyTuple_New(7);
    for (int i = 0; i < 7; i++) {
        if (out) {
            PyTuple_SET_ITEM(out, i, l[i]);
        } else {
            Py_XDECREF(l[i]);
        }
    }
    return out || PyErr_Occurred() ? out : PyErr_NoMemory();
}

/* mainline(what=LINE_SAN | LINE_UCI | LINE_ANNOT): see line_of. */
static PyObject *game_mainline(GameObject *self, PyObject *args) {
    int what = LINE_ALL & ~LINE_FEN;
    if (!PyArg_ParseTuple(args, "|i", &what)) {
        return NULL;
    }
    return line_of(pgn_game_root(self->g), *pgn_game_start(self->g), what & LINE_ALL);
}

static PyObject *game_start_fen(GameObject *self, PyObject *unused) {
    (void)unused;
    char buf[PGN_FEN_MAX];
    pgn_fen_write(pgn_game_start(self->g), 0, buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

/* The FEN after the last main-line move (the start position's for a game without moves). */
static PyObject *game_final_fen(GameObject *self, PyObject *unused) {
    (void)unused;
    pgn_pos pos = *pgn_game_start(self->g);
    for (const pgn_node *c = pgn_node_child(pgn_game_root(self->g)); c; c = pgn_node_child(c)) {
        pgn_pos_play_unkeyed(&pos, pgn_node_move(c));
    }
    char buf[PGN_FEN_MAX];
    pgn_fen_write(&pos, 0, buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

static PyObject *game_comment(GameObject *self, PyObject *unused) {
    (void)unused;
    return str_of(pgn_node_comment(pgn_game_root(self->g)));
}

/* The variations that branch off the main line: (ply, [SAN...]) for each alternative to the
 * main-line move of that ply (1-based), in order; their own sub-variations are not listed. */
static PyObject *game_variations(GameObject *self, PyObject *unused) {
    (void)unused;
    PyObject *out = PyList_New(0);
    pgn_pos pos = *pgn_game_start(self->g);
    size_t ply = 0;
    for (const pgn_node *c = pgn_node_child(pgn_game_root(self->g)); c && out;
         c = pgn_node_child(c)) {
        ply++;
        for (const pgn_node *alt = pgn_node_sibling(c); alt && out; alt = pgn_node_sibling(alt)) {
            pgn_pos p = pos;
            PyObject *moves = PyList_New(0);
            for (const pgn_node *m = alt; m && moves; m = pgn_node_child(m)) {
                char sbuf[PGN_SAN_MAX];
                pgn_san_write(&p, pgn_node_move(m), sbuf);
                pgn_pos_play(&p, pgn_node_move(m));
                if (append_str(moves, sbuf) < 0) {
                    Py_CLEAR(moves);
                }
            }
            PyObject *t = moves ? Py_BuildValue("(nN)", (Py_ssize_t)ply, moves) : NULL;
            if (!t || PyList_Append(out, t) < 0) {
                Py_XDECREF(t);
                Py_CLEAR(out);
                break;
            }
            Py_DECREF(t);
        }
        pgn_pos_play(&pos, pgn_node_move(c));
    }
    return out;
}

static PyObject *game_to_pgn(GameObject *self, PyObject *unused) {
    (void)unused;
    pgn_membuf b = {0};
    pgn_writer *w;
    if (pgn_writer_new(&w, NULL, pgn_membuf_write, &b) != PGN_OK) {
        return PyErr_NoMemory();
    }
    pgn_status st;
    Py_BEGIN_ALLOW_THREADS st = pgn_writer_write(w, self->g);
    Py_END_ALLOW_THREADS pgn_writer_free(w);
    PyObject *out =
        st == PGN_OK ? PyUnicode_DecodeUTF8(b.ptr, (Py_ssize_t)b.len, "replace") : PyErr_NoMemory();
    pgn_membuf_free(&b);
    return out;
}

static PyObject *game_to_json(GameObject *self, PyObject *unused) {
    (void)unused;
    pgn_membuf b = {0};
    pgn_json_writer *w;
    pgn_json_writer_opts o = {PGN_JSON_NDJSON, 0, NULL};
    if (pgn_json_writer_new(&w, &o, pgn_membuf_write, &b) != PGN_OK) {
        return PyErr_NoMemory();
    }
    pgn_status st;
    Py_BEGIN_ALLOW_THREADS st = pgn_json_writer_write(w, self->g);
    Py_END_ALLOW_THREADS pgn_json_writer_free(w);
    while (b.len > 0 && b.ptr[b.len - 1] == '\n') {
        b.len--;
    }
    PyObject *out =
        st == PGN_OK ? PyUnicode_DecodeUTF8(b.ptr, (Py_ssize_t)b.len, "replace") : PyErr_NoMemory();
    pgn_membuf_free(&b);
    return out;
}

static PyMethodDef game_methods[] = {
    {"tags", (PyCFunction)game_tags, METH_NOARGS, "[(name, value)] in file order"},
    {"result", (PyCFunction)game_result, METH_NOARGS, "the termination marker"},
    {"mainline", (PyCFunction)game_mainline, METH_VARARGS,
     "(san, uci, fens, comments, nags, clocks, evals) of the main line; what: bits 1 SAN, 2 UCI, "
     "4 FENs, 8 the rest (a list not asked for is None)"},
    {"start_fen", (PyCFunction)game_start_fen, METH_NOARGS, "FEN of the start position"},
    {"final_fen", (PyCFunction)game_final_fen, METH_NOARGS, "FEN after the main line"},
    {"game_comment", (PyCFunction)game_comment, METH_NOARGS, "the comment before the first move"},
    {"variations", (PyCFunction)game_variations, METH_NOARGS, "[(ply, [san])]"},
    {"to_pgn", (PyCFunction)game_to_pgn, METH_NOARGS, "the game in PGN export format"},
    {"to_json", (PyCFunction)game_to_json, METH_NOARGS, "the game as pgnkit JSON"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pgnkit._pgnkit.CGame",
    .tp_basicsize = sizeof(GameObject),
    .tp_dealloc = (destructor)game_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A game read by pgnkit (owns its C game tree).",
    .tp_methods = game_methods,
};

/* ---- Reader: an iterator of (CGame, diagnostics, ordinal, offset, end, broken) ---- */

typedef struct ReaderObject {
    PyObject_HEAD pgn_reader *r;
    FILE *file;           /* a path's file, closed here */
    PyObject *keep;       /* the bytes object of a memory reader, or the file-like object */
    char *name;           /* source name for diagnostics */
    diag_list diags;      /* this game's diagnostics */
    int tags_only;        /* scan mode: dicts of tags, no board */
    pgn_membuf tagbuf;    /* scan mode: NUL-separated name/value pairs of the current game */
    PyObject *io_err;     /* an exception raised by a file-like object's read */
    pgn_query *q;         /* where=: the compiled expression, or NULL */
    pgn_query_matcher *m; /* its matcher (the reader's visitor) */
    pgn_reader_opts sub;  /* options of the reader that builds a matching game's tree */
} ReaderObject;

static ptrdiff_t pyfile_read(void *ctx, void *buf, size_t cap) {
    ReaderObject *self = ctx;
    PyGILState_STATE g = PyGILState_Ensure();
    ptrdiff_t n = -1;
    PyObject *data = PyObject_CallMethod(self->keep, "read", "n", (Py_ssize_t)cap);
    if (data && PyBytes_Check(data) && (size_t)PyBytes_GET_SIZE(data) <= cap) {
        n = PyBytes_GET_SIZE(data);
        memcpy(buf, PyBytes_AS_STRING(data), (size_t)n);
    } else if (data) {
        PyErr_SetString(PyExc_TypeError, "pgnkit.read: the file must be opened in binary mode");
    }
    if (n < 0 && !self->io_err) {
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyErr_NormalizeException(&t, &v, &tb);
        self->io_err = v ? v : Py_NewRef(Py_None);
        Py_XDECREF(t);
        Py_XDECREF(tb);
    }
    Py_XDECREF(data);
    PyGILState_Release(g);
    return n;
}

static void reader_dealloc(ReaderObject *self) {
    pgn_reader_free(self->r);
    pgn_query_matcher_free(self->m);
    pgn_query_free(self->q);
    if (self->file) {
        fclose(self->file);
    }
    Py_XDECREF(self->keep);
    Py_XDECREF(self->io_err);
    free(self->name);
    free(self->diags.v);
    pgn_membuf_free(&self->tagbuf);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static pgn_encoding encoding_of(const char *name) {
    static const struct {
        const char *name;
        pgn_encoding enc;
    } names[] = {{"utf-8", PGN_ENC_UTF8},
                 {"utf8", PGN_ENC_UTF8},
                 {"latin-1", PGN_ENC_LATIN1},
                 {"latin1", PGN_ENC_LATIN1},
                 {"iso-8859-1", PGN_ENC_LATIN1},
                 {"cp1252", PGN_ENC_CP1252},
                 {"windows-1252", PGN_ENC_CP1252},
                 {"cp437", PGN_ENC_CP437},
                 {"auto", PGN_ENC_AUTO}};
    for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            return names[i].enc;
        }
    }
    return (pgn_encoding)-1;
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

/* _pgnkit.Reader(source, name, encoding, strict, tags_only, range_start, range_end, where,
 * line_base): source is a path (str), bytes, or a binary file-like object; for a path, the file is
 * seeked to range_start. where: an expression of the selection language (docs/query.md) or None.
 * line_base: the line number of byte range_start (0: 1). */
static PyObject *reader_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char *kws[] = {"source",    "name",  "encoding",  "strict", "tags_only", "range_start",
                          "range_end", "where", "line_base", NULL};
    PyObject *src;
    const char *name = "<input>", *enc = NULL, *where = NULL;
    int strict = 0, tags_only = 0;
    unsigned long long rs = 0, re = 0;
    unsigned int line_base = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|szppKKzI", kws, &src, &name, &enc, &strict,
                                     &tags_only, &rs, &re, &where, &line_base)) {
        return NULL;
    }
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    o.encoding = enc ? encoding_of(enc) : PGN_ENC_AUTO;
    if ((int)o.encoding < 0) {
        return PyErr_Format(PyExc_ValueError, "unknown encoding '%s'", enc);
    }
    ReaderObject *self = (ReaderObject *)type->tp_alloc(type, 0);
    if (!self || !(self->name = strdup(name))) {
        Py_XDECREF(self);
        return PyErr_NoMemory();
    }
    self->tags_only = tags_only;
    o.flags = (strict ? PGN_READ_STRICT : 0) | (tags_only ? PGN_READ_NO_BOARD : 0);
    o.source_name = self->name;
    o.on_diag = collect_diag;
    o.diag_ctx = &self->diags;
    o.range_start = rs;
    o.range_end = re;
    o.line_base = line_base;
    if (where && !tags_only && reader_where(self, where, &o) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    pgn_status st;
    if (PyUnicode_Check(src)) {
        self->file = fopen(PyUnicode_AsUTF8(src), "rb");
        if (!self->file) {
            Py_DECREF(self);
            return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, src);
        }
        if (rs > 0 && fseeko(self->file, (off_t)rs, SEEK_SET) != 0) {
            Py_DECREF(self);
            return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, src);
        }
        st = pgn_reader_new_file(&self->r, &o, self->file);
    } else if (PyBytes_Check(src)) {
        /* the stream from byte range_start on, as the range semantics ask of a read callback */
        size_t len = (size_t)PyBytes_GET_SIZE(src), at = rs < len ? (size_t)rs : len;
        self->keep = Py_NewRef(src);
        st = pgn_reader_new_mem(&self->r, &o, PyBytes_AS_STRING(src) + at, len - at);
    } else {
        self->keep = Py_NewRef(src);
        st = pgn_reader_new(&self->r, &o, pyfile_read, self);
    }
    if (st != PGN_OK) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

/* Scan mode: the tag callback keeps the pairs as (length, bytes) of the name, then of the value (a
 * value may hold a NUL byte); end_tags skips the movetext. */
static pgn_flow scan_tag(void *user, pgn_str name, pgn_str value) {
    pgn_membuf *b = user;
    if (pgn_membuf_write(b, &name.len, sizeof name.len) < 0 ||
        pgn_membuf_write(b, name.ptr, name.len) < 0 ||
        pgn_membuf_write(b, &value.len, sizeof value.len) < 0 ||
        pgn_membuf_write(b, value.ptr, value.len) < 0) {
        return PGN_FLOW_STOP;
    }
    return PGN_FLOW_CONTINUE;
}

/* The next (length, bytes) string of a scan buffer at *i, as a str. */
static PyObject *scan_str(const pgn_membuf *b, size_t *i) {
    size_t n;
    memcpy(&n, b->ptr + *i, sizeof n);
    const char *p = b->ptr + *i + sizeof n;
    *i += sizeof n + n;
    return PyUnicode_DecodeUTF8(p, (Py_ssize_t)n, "replace");
}

static pgn_flow scan_end_tags(void *user, const pgn_pos *start) {
    (void)user;
    (void)start;
    return PGN_FLOW_SKIP;
}

/* Raises the error of a failed read (I/O from a file object, memory, ...). */
static PyObject *read_failed(ReaderObject *self, pgn_status st) {
    if (self->io_err && self->io_err != Py_None) {
        PyErr_SetObject((PyObject *)Py_TYPE(self->io_err), self->io_err);
        return NULL;
    }
    if (st == PGN_E_NOMEM) {
        return PyErr_NoMemory();
    }
    raise_status(st, self->name);
    return NULL;
}

/* where= mode: reads the next game through the matcher; a match is read again from its raw bytes
 * into game->g (the first pass gave the diagnostics, with their true places), other games leave
 * *matched 0. Runs without the GIL. */
static pgn_status read_where(ReaderObject *self, GameObject *game, int *matched) {
    pgn_status st = pgn_reader_visit(self->r, pgn_query_visitor(), self->m);
    pgn_query_result res;
    *matched = 0;
    if (st != PGN_OK && st != PGN_E_LIMIT) {
        return st;
    }
    if (pgn_query_matcher_result(self->m, &res) != PGN_OK) {
        return PGN_E_NOMEM;
    }
    if (res.matched) {
        pgn_str raw = pgn_reader_raw(self->r);
        pgn_reader *sub;
        if (pgn_reader_new_mem(&sub, &self->sub, raw.ptr, raw.len) != PGN_OK) {
            return PGN_E_NOMEM;
        }
        pgn_status s2 = pgn_reader_next(sub, game->g);
        pgn_reader_free(sub);
        if (s2 == PGN_E_NOMEM) {
            return s2;
        }
        *matched = 1;
    }
    return st;
}

/* The next game: (payload, diagnostics, ordinal, offset, end_offset, broken, errors), where
 * payload is a CGame or, in scan mode, the list of (name, value) tags; with where=, None for a
 * game that does not match (its diagnostics still come, for strict mode). */
static PyObject *reader_next(ReaderObject *self) {
    pgn_status st;
    GameObject *game = NULL;
    size_t first = self->diags.n = 0;
    if (self->tags_only) {
        static const pgn_visitor v = {NULL, scan_tag, scan_end_tags, NULL, NULL,
                                      NULL, NULL,     NULL,          NULL};
        self->tagbuf.len = 0;
        Py_BEGIN_ALLOW_THREADS st = pgn_reader_visit(self->r, &v, &self->tagbuf);
        Py_END_ALLOW_THREADS
    } else {
        game = PyObject_New(GameObject, &GameType);
        if (!game) {
            return NULL;
        }
        if (pgn_game_new(&game->g, NULL) != PGN_OK) {
            game->g = NULL;
            Py_DECREF(game);
            return PyErr_NoMemory();
        }
        int matched = 1;
        if (self->q) {
            Py_BEGIN_ALLOW_THREADS st = read_where(self, game, &matched);
            Py_END_ALLOW_THREADS
        } else {
            Py_BEGIN_ALLOW_THREADS st = pgn_reader_next(self->r, game->g);
            Py_END_ALLOW_THREADS
        }
        if (!matched && (st == PGN_OK || st == PGN_E_LIMIT)) {
            Py_DECREF(game);
            game = (GameObject *)Py_NewRef(Py_None);
        }
    }
    if (st == PGN_END || (st != PGN_OK && st != PGN_E_LIMIT)) {
        Py_XDECREF(game);
        return st == PGN_END ? NULL : read_failed(self, st);
    }
    if (self->diags.oom) {
        Py_XDECREF(game);
        return PyErr_NoMemory();
    }
    PyObject *payload = (PyObject *)game;
    if (self->tags_only) {
        payload = PyList_New(0);
        for (size_t i = 0; payload && i < self->tagbuf.len;) {
            PyObject *n = scan_str(&self->tagbuf, &i), *v = scan_str(&self->tagbuf, &i);
            PyObject *t = n && v ? PyTuple_Pack(2, n, v) : NULL;
            Py_XDECREF(n);
            Py_XDECREF(v);
            if (!t || PyList_Append(payload, t) < 0) {
                Py_CLEAR(payload);
            }
            Py_XDECREF(t);
        }
        if (!payload) {
            return NULL;
        }
    }
    const pgn_game_summary *s = pgn_reader_summary(self->r);
    return Py_BuildValue("(NNKKKii)", payload, diag_pylist(&self->diags, first),
                         (unsigned long long)s->game, (unsigned long long)s->start.offset,
                         (unsigned long long)s->end_offset, s->broken != 0, (int)s->errors);
}

static PyObject *reader_totals(ReaderObject *self, PyObject *unused) {
    (void)unused;
    uint64_t g, e, w;
    pgn_reader_totals(self->r, &g, &e, &w);
    return Py_BuildValue("(KKK)", (unsigned long long)g, (unsigned long long)e,
                         (unsigned long long)w);
}

/* check mode: reads every game without building trees; returns (diagnostics, totals). */
static PyObject *reader_check_all(ReaderObject *self, PyObject *unused) {
    (void)unused;
    pgn_status st;
    self->diags.n = 0;
    Py_BEGIN_ALLOW_THREADS while ((st = pgn_reader_visit(self->r, NULL, NULL)) == PGN_OK) {
    }
    Py_END_ALLOW_THREADS if (st != PGN_END && st != PGN_E_LIMIT) {
        return read_failed(self, st);
    }
    if (self->diags.oom) {
        return PyErr_NoMemory();
    }
    return Py_BuildValue("(NN)", diag_pylist(&self->diags, 0), reader_totals(self, NULL));
}

/* tag_columns(int_tags, date_tags): the rest of a tags-only reader's games as columns, in one
 * call (tagcols.c): (games, [(name, column)]). */
static PyObject *reader_tag_columns(ReaderObject *self, PyObject *args) {
    PyObject *ints, *dates;
    if (!PyArg_ParseTuple(args, "OO", &ints, &dates)) {
        return NULL;
    }
    if (!self->tags_only) {
        PyErr_SetString(PyExc_ValueError, "tag_columns: the reader must be opened tags_only");
        return NULL;
    }
    pgn_status st = PGN_OK;
    PyObject *out = pk_tag_columns(self->r, ints, dates, &st);
    if (!out && !PyErr_Occurred()) {
        return read_failed(self, st);
    }
    if (out && self->diags.oom) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    return out;
}

/* After the last game (the iterator ended): the diagnostics of the text after it, which belong to
 * no game (junk after the last game, or in a byte range that holds no game). */
static PyObject *reader_trailing(ReaderObject *self, PyObject *unused) {
    (void)unused;
    return diag_pylist(&self->diags, 0);
}

static PyMethodDef reader_methods[] = {
    {"trailing", (PyCFunction)reader_trailing, METH_NOARGS,
     "after the end: the diagnostics that belong to no game"},
    {"tag_columns", (PyCFunction)reader_tag_columns, METH_VARARGS,
     "the rest of a tags-only reader as columns: (games, [(name, column)])"},
    {"totals", (PyCFunction)reader_totals, METH_NOARGS, "(games, errors, warnings) so far"},
    {"check_all", (PyCFunction)reader_check_all, METH_NOARGS, "read the rest: (diags, totals)"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject ReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pgnkit._pgnkit.Reader",
    .tp_basicsize = sizeof(ReaderObject),
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A streaming PGN reader.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)reader_next,
    .tp_methods = reader_methods,
    .tp_new = reader_new,
};

/* ---- Board: a position and the moves played on it ---- */

typedef struct BoardObject {
    PyObject_HEAD pgn_pos pos;
    pgn_pos *stack; /* positions before each pushed move */
    size_t n, cap;
} BoardObject;

static int board_init(BoardObject *self, PyObject *args, PyObject *kw) {
    static char *kws[] = {"fen", "chess960", NULL};
    const char *fen = NULL;
    int c960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|zp", kws, &fen, &c960)) {
        return -1;
    }
    self->n = 0;
    if (!fen) {
        pgn_pos_init(&self->pos);
        self->pos.chess960 = (uint8_t)(c960 != 0);
        return 0;
    }
    pgn_fen_diag d;
    if (pgn_fen_parse(&self->pos, fen, strlen(fen), c960 ? PGN_FEN_CHESS960 : 0, &d) != PGN_OK) {
        return raise_status(d.code, d.reason);
    }
    return 0;
}

static void board_dealloc(BoardObject *self) {
    free(self->stack);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *board_fen(BoardObject *self, PyObject *unused) {
    (void)unused;
    char buf[PGN_FEN_MAX];
    pgn_fen_write(&self->pos, 0, buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

static PyObject *board_legal(BoardObject *self, PyObject *unused) {
    (void)unused;
    pgn_movelist ml;
    pgn_pos_legal_moves(&self->pos, &ml);
    PyObject *out = PyList_New(0);
    for (uint32_t i = 0; out && i < ml.count; i++) {
        char u[PGN_UCI_MAX];
        pgn_uci_write(&self->pos, ml.moves[i], u);
        if (append_str(out, u) < 0) {
            Py_CLEAR(out);
        }
    }
    return out;
}

static int board_push(BoardObject *self, pgn_move mv) {
    if (self->n == self->cap) {
        size_t cap = self->cap ? self->cap * 2 : 64;
        pgn_pos *s = realloc(self->stack, cap * sizeof *s);
        if (!s) {
            PyErr_NoMemory();
            return -1;
        }
        self->stack = s;
        self->cap = cap;
    }
    self->stack[self->n++] = self->pos;
    pgn_pos_play(&self->pos, mv);
    return 0;
}

/* Parses text as SAN (lax) or UCI; returns 0 and *mv, or -1 with PgnError raised. */
static int board_parse(BoardObject *self, const char *text, int uci, pgn_move *mv) {
    pgn_status st;
    if (uci) {
        st = pgn_uci_parse(&self->pos, text, strlen(text), mv);
    } else {
        pgn_san_result r;
        st = pgn_san_parse(&self->pos, text, strlen(text), 0, &r);
        *mv = r.move;
    }
    return st == PGN_OK ? 0 : raise_status(st, text);
}

static PyObject *board_push_text(BoardObject *self, PyObject *args, int uci) {
    const char *text;
    pgn_move mv;
    if (!PyArg_ParseTuple(args, "s", &text) || board_parse(self, text, uci, &mv) < 0) {
        return NULL;
    }
    char out[PGN_SAN_MAX > PGN_UCI_MAX ? PGN_SAN_MAX : PGN_UCI_MAX];
    if (uci) {
        pgn_san_write(&self->pos, mv, out);
    } else {
        pgn_uci_write(&self->pos, mv, out);
    }
    return board_push(self, mv) < 0 ? NULL : PyUnicode_FromString(out);
}

static PyObject *board_push_san(BoardObject *self, PyObject *args) {
    return board_push_text(self, args, 0);
}

static PyObject *board_push_uci(BoardObject *self, PyObject *args) {
    return board_push_text(self, args, 1);
}

static PyObject *board_san(BoardObject *self, PyObject *args) {
    const char *text;
    pgn_move mv;
    if (!PyArg_ParseTuple(args, "s", &text) || board_parse(self, text, 1, &mv) < 0) {
        return NULL;
    }
    char out[PGN_SAN_MAX];
    pgn_san_write(&self->pos, mv, out);
    return PyUnicode_FromString(out);
}

static PyObject *board_uci(BoardObject *self, PyObject *args) {
    const char *text;
    pgn_move mv;
    if (!PyArg_ParseTuple(args, "s", &text) || board_parse(self, text, 0, &mv) < 0) {
        return NULL;
    }
    char out[PGN_UCI_MAX];
    pgn_uci_write(&self->pos, mv, out);
    return PyUnicode_FromString(out);
}

static PyObject *board_pop(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (self->n == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from a board with no moves");
        return NULL;
    }
    self->pos = self->stack[--self->n];
    Py_RETURN_NONE;
}

static PyObject *board_state(BoardObject *self, PyObject *unused) {
    (void)unused;
    return Py_BuildValue(
        "{s:s,s:O,s:O,s:O,s:O,s:I,s:I}", "turn", self->pos.side == PGN_WHITE ? "white" : "black",
        "check", pgn_pos_in_check(&self->pos) ? Py_True : Py_False, "checkmate",
        pgn_pos_is_checkmate(&self->pos) ? Py_True : Py_False, "stalemate",
        pgn_pos_is_stalemate(&self->pos) ? Py_True : Py_False, "insufficient_material",
        pgn_pos_is_insufficient_material(&self->pos) ? Py_True : Py_False, "halfmove_clock",
        (unsigned)self->pos.halfmove, "fullmove_number", (unsigned)self->pos.fullmove);
}

static PyObject *board_key(BoardObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromUnsignedLongLong(pgn_pos_compute_key(&self->pos));
}

static PyMethodDef board_methods[] = {
    {"fen", (PyCFunction)board_fen, METH_NOARGS, "the position as FEN"},
    {"legal_moves", (PyCFunction)board_legal, METH_NOARGS, "every legal move, in UCI"},
    {"push_san", (PyCFunction)board_push_san, METH_VARARGS, "plays a SAN move; returns its UCI"},
    {"push_uci", (PyCFunction)board_push_uci, METH_VARARGS, "plays a UCI move; returns its SAN"},
    {"san", (PyCFunction)board_san, METH_VARARGS, "the SAN of a UCI move"},
    {"uci", (PyCFunction)board_uci, METH_VARARGS, "the UCI of a SAN move"},
    {"pop", (PyCFunction)board_pop, METH_NOARGS, "takes the last move back"},
    {"state", (PyCFunction)board_state, METH_NOARGS, "turn, check, mate, stalemate, clocks"},
    {"polyglot_key", (PyCFunction)board_key, METH_NOARGS, "the Polyglot Zobrist key"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pgnkit._pgnkit.CBoard",
    .tp_basicsize = sizeof(BoardObject),
    .tp_dealloc = (destructor)board_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A chess position over pgnkit's rules core.",
    .tp_methods = board_methods,
    .tp_init = (initproc)board_init,
    .tp_new = PyType_GenericNew,
};

static PyObject *mod_status_message(PyObject *mod, PyObject *args) {
    (void)mod;
    const char *name;
    if (!PyArg_ParseTuple(args, "s", &name)) {
        return NULL;
    }
    for (int c = 0; c < 256; c++) {
        if (strcmp(pgn_status_name((pgn_status)c), name) == 0) {
            return PyUnicode_FromString(pgn_status_message((pgn_status)c));
        }
    }
    return PyUnicode_FromString(name);
}

static PyObject *mod_version(PyObject *mod, PyObject *unused) {
    (void)mod;
    (void)unused;
    return PyUnicode_FromString(pgn_version());
}

/* tag_columns(source, name, encoding, range_start, range_end, jobs, part_bytes, int_tags,
 * date_tags, guess=True): the tags of a path (str) or bytes as columns, read in parts of at least
 * part_bytes each on up to jobs threads (tagcols.h): ((games, [(name, column)]), parts). */
static PyObject *mod_tag_columns(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *src, *ints, *dates;
    const char *name, *enc;
    unsigned long long rs, re;
    Py_ssize_t jobs, part;
    int guess = 1;
    if (!PyArg_ParseTuple(args, "OszKKnnOO|p", &src, &name, &enc, &rs, &re, &jobs, &part, &ints,
                          &dates, &guess)) {
        return NULL;
    }
    pk_tag_source ts;
    memset(&ts, 0, sizeof ts);
    ts.opts.encoding = enc ? encoding_of(enc) : PGN_ENC_AUTO;
    ts.opts.source_name = name;
    ts.range_start = rs;
    ts.range_end = re;
    ts.jobs = jobs > 0 ? (size_t)jobs : 1;
    ts.part_bytes = part > 0 ? (size_t)part : 0;
    ts.guess = guess;
    if ((int)ts.opts.encoding < 0) {
        return PyErr_Format(PyExc_ValueError, "unknown encoding '%s'", enc);
    }
    if (PyBytes_Check(src)) {
        ts.data = PyBytes_AS_STRING(src);
        ts.len = (size_t)PyBytes_GET_SIZE(src);
        ts.size = ts.len;
    } else if (PyUnicode_Check(src) && (ts.path = PyUnicode_AsUTF8(src)) != NULL) {
        FILE *f = fopen(ts.path, "rb"); /* the OSError of a file that cannot be read, up front */
        struct stat sb;
        if (!f) {
            return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, src);
        }
        ts.size = fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
        fclose(f);
    } else {
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "a path or bytes");
    }
    pgn_status st = PGN_OK;
    size_t parts = 1;
    PyObject *out = pk_tag_columns_of(&ts, ints, dates, &st, &parts);
    if (!out) {
        if (!PyErr_Occurred()) {
            st == PGN_E_NOMEM ? (void)PyErr_NoMemory() : (void)raise_status(st, name);
        }
        return NULL;
    }
    return Py_BuildValue("(Nn)", out, (Py_ssize_t)parts);
}

static PyMethodDef mod_methods[] = {
    {"tag_columns", mod_tag_columns, METH_VARARGS,
     "the tags of a path or bytes as columns, on threads: ((games, [(name, column)]), parts)"},
    {"status_message", mod_status_message, METH_VARARGS, "the English sentence of a code"},
    {"version", mod_version, METH_NOARGS, "the library version"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT,
                                    "_pgnkit",
                                    "pgnkit's C extension (see the pgnkit package)",
                                    -1,
                                    mod_methods,
                                    NULL,
                                    NULL,
                                    NULL,
                                    NULL};

PyMODINIT_FUNC PyInit__pgnkit(void) {
    if (PyType_Ready(&GameType) < 0 || PyType_Ready(&ReaderType) < 0 ||
        PyType_Ready(&BoardType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&moddef);
    if (!m) {
        return NULL;
    }
    PgnError = PyErr_NewException("pgnkit.PgnError", PyExc_ValueError, NULL);
    if (!PgnError || PyModule_AddObject(m, "PgnError", Py_NewRef(PgnError)) < 0 ||
        PyModule_AddObject(m, "Reader", Py_NewRef((PyObject *)&ReaderType)) < 0 ||
        PyModule_AddObject(m, "CBoard", Py_NewRef((PyObject *)&BoardType)) < 0 ||
        PyModule_AddObject(m, "CGame", Py_NewRef((PyObject *)&GameType)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
