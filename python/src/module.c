/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit, the CPython extension over libpgnkit's public C API (issue 19): the module,
 * initialised in phases (PEP 489) with its state (the types, the records, PgnError), as CPython's
 * own modules are; its functions; and the helpers the types share. The Python layer
 * (pgnkit/__init__.py) shapes the results; this extension only crosses over. */
#include "pk.h"

#include <stdio.h>
#include <string.h>

#include "tagcols.h"

static struct PyModuleDef pk_moddef;

pk_state *pk_state_of(PyTypeObject *type) {
    PyObject *m = PyType_GetModuleByDef(type, &pk_moddef);
    return m ? PyModule_GetState(m) : NULL;
}

int pk_raise_status(const pk_state *s, pgn_status st, const char *what) {
    PyObject *v =
        Py_BuildValue("(ssss)", pgn_status_message(st), pgn_status_name(st), "error", what);
    if (v) {
        PyErr_SetObject(s->pgn_error, v);
        Py_DECREF(v);
    }
    return -1;
}

PyObject *pk_str(pgn_str s) {
    return PyUnicode_DecodeUTF8(s.ptr ? s.ptr : "", (Py_ssize_t)s.len, "replace");
}

int pk_append_str(PyObject *list, const char *s) {
    PyObject *o = PyUnicode_FromString(s);
    int r = o ? PyList_Append(list, o) : -1;
    Py_XDECREF(o);
    return r;
}

int pk_uint64_arg(PyObject *o, void *out) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "an integer is required, not %.100s", Py_TYPE(o)->tp_name);
        return 0;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o); /* OverflowError: negative, too large */
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        return 0;
    }
    *(uint64_t *)out = (uint64_t)v;
    return 1;
}

int pk_uint32_arg(PyObject *o, void *out) {
    uint64_t v;
    if (!pk_uint64_arg(o, &v)) {
        return 0;
    }
    if (v > UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "the integer is larger than 2**32 - 1");
        return 0;
    }
    *(uint32_t *)out = (uint32_t)v;
    return 1;
}

int pk_encoding_arg(PyObject *o, void *out) {
    if (o == Py_None) {
        *(pgn_encoding *)out = PGN_ENC_AUTO;
        return 1;
    }
    const char *name = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (!name) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "encoding: a str or None is required");
        }
        return 0;
    }
    if (!pgn_encoding_from_name(name, out)) {
        PyErr_Format(PyExc_ValueError, "unknown encoding '%s'", name);
        return 0;
    }
    return 1;
}

void pk_nogil_begin(pk_nogil *n) {
    n->owner = PyThread_get_thread_ident();
    atomic_init(&n->stop, 0);
    n->ts = PyEval_SaveThread();
}

int pk_nogil_end(pk_nogil *n) {
    PyEval_RestoreThread(n->ts);
    return atomic_load(&n->stop) ? -1 : 0;
}

int pk_nogil_poll(pk_nogil *n) {
    if (!atomic_load(&n->stop) && PyThread_get_thread_ident() == n->owner) {
        PyEval_RestoreThread(n->ts);
        if (PyErr_CheckSignals() < 0) { /* the exception stays set until pk_nogil_end */
            atomic_store(&n->stop, 1);
        }
        n->ts = PyEval_SaveThread();
    }
    return atomic_load(&n->stop);
}

PyTypeObject *pk_type_new(PyObject *m, const pk_type_def *def) {
    enum { MAX_SLOTS = 16 };
    PyType_Slot slots[MAX_SLOTS];
    size_t n = 0;
    for (const pk_fn_slot *f = def->fns; f->slot && n + 3 < MAX_SLOTS; f++, n++) {
        slots[n].slot = f->slot;
        memcpy(&slots[n].pfunc, &f->fn, sizeof slots[n].pfunc);
    }
    char doc[256]; /* Py_tp_doc takes a char *; the type copies it */
    snprintf(doc, sizeof doc, "%s", def->doc);
    slots[n++] = (PyType_Slot){Py_tp_methods, def->methods};
    slots[n++] = (PyType_Slot){Py_tp_doc, doc};
    slots[n] = (PyType_Slot){0, NULL};
    PyType_Spec spec = {def->name, (int)def->basicsize, 0, def->flags, slots};
    return (PyTypeObject *)PyType_FromModuleAndSpec(m, &spec, NULL);
}

/* The status of a name ("E_ILLEGAL_MOVE"): 1, or 0 when no status has it. */
static int status_named(const char *name, pgn_status *out) {
    for (int c = 0; c < 256; c++) {
        if (strcmp(pgn_status_name((pgn_status)c), name) == 0) {
            *out = (pgn_status)c;
            return 1;
        }
    }
    return 0;
}

/* status_message(name): the English sentence of a status name ("E_ILLEGAL_MOVE"). */
static PyObject *mod_status_message(PyObject *mod, PyObject *arg) {
    (void)mod;
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    pgn_status st;
    if (!name) {
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "a str is required");
    }
    return status_named(name, &st) ? PyUnicode_FromString(pgn_status_message(st)) : Py_NewRef(arg);
}

/* diag_json(code, severity, line, column, offset, game, token, suggestions, replacement, source):
 * the diagnostic's one JSON form (pgn_diag_json, docs/diagnostics.schema.json) as a str. */
static PyObject *mod_diag_json(PyObject *mod, PyObject *args) {
    (void)mod;
    const char *code, *sev, *token, *repl, *source;
    unsigned line, column;
    unsigned long long offset, game;
    PyObject *sugg;
    pgn_diag d = {0};
    if (!PyArg_ParseTuple(args, "ssIIKKsO!zz", &code, &sev, &line, &column, &offset, &game, &token,
                          &PyTuple_Type, &sugg, &repl, &source)) {
        return NULL;
    }
    if (!status_named(code, &d.code)) {
        return PyErr_Format(PyExc_ValueError, "no such code: %s", code);
    }
    d.severity = strcmp(sev, "error") == 0 ? PGN_SEV_ERROR : PGN_SEV_WARNING;
    d.at.line = line, d.at.column = column, d.at.offset = offset, d.game = game;
    d.source = source;
    snprintf(d.token, sizeof d.token, "%s", token);
    snprintf(d.replacement, sizeof d.replacement, "%s", repl ? repl : "");
    size_t n = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(sugg); i++) {
        const char *m = PyUnicode_AsUTF8(PyTuple_GET_ITEM(sugg, i));
        if (!m) {
            return NULL;
        }
        int k = snprintf(d.suggestions + n, sizeof d.suggestions - n, "%s%s", i ? " " : "", m);
        n = k < 0 || (size_t)k >= sizeof d.suggestions - n ? sizeof d.suggestions - 1
                                                           : n + (size_t)k;
    }
    pgn_membuf b = {0};
    if (pgn_diag_json(&d, NULL, pgn_membuf_write, &b) != PGN_OK) {
        pgn_membuf_free(&b);
        return PyErr_NoMemory();
    }
    PyObject *out = PyUnicode_DecodeUTF8(b.ptr, (Py_ssize_t)b.len, "strict");
    pgn_membuf_free(&b);
    return out;
}

static PyObject *mod_version(PyObject *mod, PyObject *unused) {
    (void)mod;
    (void)unused;
    return PyUnicode_FromString(pgn_version());
}

static PyMethodDef mod_methods[] = {
    {"tag_columns", (PyCFunction)(void (*)(void))pk_mod_tag_columns, METH_VARARGS | METH_KEYWORDS,
     "the tags of a path or bytes as columns, on threads: a TagColumns record"},
    {"take_objects", pk_mod_take_objects, METH_VARARGS,
     "a column's codes into an object array: out[i] = values[codes[i]] or missing (-1)"},
    {"zstd_frames", pk_mod_zstd_frames, METH_O,
     "the frames of a zstd file: a list of Frame records, from the C source layer"},
    {"status_message", mod_status_message, METH_O, "the English sentence of a code"},
    {"diag_json", mod_diag_json, METH_VARARGS, "a diagnostic's JSON form (pgn_diag_json)"},
    {"version", mod_version, METH_NOARGS, "the library version"},
    {NULL, NULL, 0, NULL}};

static int mod_exec(PyObject *m) {
    pk_state *s = PyModule_GetState(m);
    s->pgn_error = PyErr_NewException("pgnkit.PgnError", PyExc_ValueError, NULL);
    s->source_error = PyErr_NewExceptionWithDoc(
        "pgnkit.CompressedError",
        "Compressed data or an archive that pgnkit cannot read: a format without its library, "
        "data compressed twice, a stream that is corrupt or cut short (the games before it were "
        "given), an archive that is damaged, encrypted or holds no *.pgn member.",
        PyExc_ValueError, NULL);
    if (!s->pgn_error || !s->source_error ||
        PyModule_AddObjectRef(m, "CompressedError", s->source_error) < 0 ||
        PyModule_AddObjectRef(m, "PgnError", s->pgn_error) < 0 || pk_records_init(s) < 0 ||
        PyModule_AddFunctions(m, pk_db_methods) < 0) {
        return -1;
    }
    if (!(s->game_type = pk_type_new(m, &pk_game_def)) ||
        !(s->reader_type = pk_type_new(m, &pk_reader_def)) ||
        !(s->board_type = pk_type_new(m, &pk_board_def)) || PyModule_AddType(m, s->game_type) < 0 ||
        PyModule_AddType(m, s->reader_type) < 0 || PyModule_AddType(m, s->board_type) < 0) {
        return -1;
    }
    for (int i = 0; i < PK_REC_COUNT; i++) {
        if (PyModule_AddType(m, s->rec[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

static int mod_traverse(PyObject *m, visitproc visit, void *arg) {
    pk_state *s = PyModule_GetState(m);
    Py_VISIT(s->pgn_error);
    Py_VISIT(s->source_error);
    Py_VISIT(s->game_type);
    Py_VISIT(s->reader_type);
    Py_VISIT(s->board_type);
    for (int i = 0; i < PK_REC_COUNT; i++) {
        Py_VISIT(s->rec[i]);
    }
    return 0;
}

static int mod_clear(PyObject *m) {
    pk_state *s = PyModule_GetState(m);
    Py_CLEAR(s->pgn_error);
    Py_CLEAR(s->source_error);
    Py_CLEAR(s->game_type);
    Py_CLEAR(s->reader_type);
    Py_CLEAR(s->board_type);
    for (int i = 0; i < PK_REC_COUNT; i++) {
        Py_CLEAR(s->rec[i]);
    }
    return 0;
}

static void mod_free(void *m) {
    mod_clear((PyObject *)m);
}

/* Py_mod_exec's value is written at the first PyInit__pgnkit (pk_type_new says why). */
static PyModuleDef_Slot mod_slots[] = {{Py_mod_exec, NULL}, {0, NULL}};

static struct PyModuleDef pk_moddef = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_pgnkit",
    .m_doc = "pgnkit's C extension (see the pgnkit package)",
    .m_size = sizeof(pk_state),
    .m_methods = mod_methods,
    .m_slots = mod_slots,
    .m_traverse = mod_traverse,
    .m_clear = mod_clear,
    .m_free = mod_free,
};

PyMODINIT_FUNC PyInit__pgnkit(void);

PyMODINIT_FUNC PyInit__pgnkit(void) {
    int (*exec)(PyObject *) = mod_exec;
    memcpy(&mod_slots[0].value, &exec, sizeof mod_slots[0].value);
    return PyModuleDef_Init(&pk_moddef);
}
