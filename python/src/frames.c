/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit.zstd_frames: the frames of a zstd file as the C source layer walks them
 * (pgn_source_frames), for pgnkit.dask's tasks: each task reads a group of whole frames as a byte
 * range of the file (pgn_source_range), its lines counted from the frame's line. */
#include "pk.h"

#include <pgnkit/source.h>
#include <stdio.h>

typedef struct frames_walk {
    const pk_state *s;
    PyObject *list;
    int failed; /* a record could not be made (an exception is set) */
} frames_walk;

/* pgn_frame_fn, called without the GIL: takes it for the record. */
static int frame_add(void *user, const pgn_frame *fr) {
    frames_walk *w = user;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *items[] = {
        PyLong_FromUnsignedLongLong(fr->offset),      PyLong_FromUnsignedLongLong(fr->size),
        PyLong_FromUnsignedLongLong(fr->text_offset), PyLong_FromUnsignedLongLong(fr->text_size),
        PyLong_FromUnsignedLongLong(fr->line),        PyBool_FromLong(fr->skippable)};
    PyObject *rec = pk_record_new(w->s, PK_REC_FRAME, items);
    if (!rec || PyList_Append(w->list, rec) < 0) {
        w->failed = 1;
    }
    Py_XDECREF(rec);
    PyGILState_Release(g);
    return w->failed;
}

PyObject *pk_mod_zstd_frames(PyObject *mod, PyObject *path) {
    PyObject *bytes = NULL;
    if (!PyUnicode_FSConverter(path, &bytes)) {
        return NULL;
    }
    frames_walk w = {(pk_state *)PyModule_GetState(mod), PyList_New(0), 0};
    char msg[512] = "";
    pgn_source *src = NULL;
    pgn_status st = PGN_E_NOMEM;
    if (w.list) {
        Py_BEGIN_ALLOW_THREADS
        st = pgn_source_open_path(&src, PyBytes_AS_STRING(bytes), NULL, msg, sizeof msg);
        if (st == PGN_OK) {
            st = pgn_source_frames(src, frame_add, &w);
        }
        Py_END_ALLOW_THREADS
    }
    if (st == PGN_E_IO && src) {
        snprintf(msg, sizeof msg, "%s", pgn_source_error(src));
    }
    pgn_source_free(src);
    Py_DECREF(bytes);
    if (w.failed || st != PGN_OK) {
        if (!w.failed) {
            if (st == PGN_E_NOMEM) {
                PyErr_NoMemory();
            } else {
                PyObject *name = PyUnicode_FromFormat("%S: %s", path, msg);
                if (name) {
                    PyErr_SetObject(((pk_state *)PyModule_GetState(mod))->source_error, name);
                    Py_DECREF(name);
                }
            }
        }
        Py_XDECREF(w.list);
        return NULL;
    }
    return w.list;
}
