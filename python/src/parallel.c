/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit.Reader.parallel: the reader's text read on N threads by the library's parallel
 * reader (pgn_parallel_read), which hands the games back in input order on the calling thread:
 * each becomes a GameRecord (the CGame takes the game's tree, pgn_par_game.take) given to a
 * Python callable, with the GIL taken for the call only. pgnkit.read(..., threads=N) runs it on a
 * thread of its own and yields what put receives. */
#include "reader.h"

#include <string.h>

typedef struct par_run {
    ReaderObject *self;
    PyObject *put;
    int failed; /* put raised, or a record could not be made: the exception is set */
} par_run;

/* pgn_parallel_opts.each, on the calling thread without the GIL. */
static pgn_status par_each(void *user, const pgn_par_game *g) {
    par_run *run = user;
    ReaderObject *self = run->self;
    PyGILState_STATE gs = PyGILState_Ensure();
    const pk_state *s = pk_state_of(Py_TYPE(self));
    pgn_status st = PGN_E_LIMIT;
    PyObject *game = pk_game_new(s);
    if (game && g->take && *g->take) {
        pk_game_adopt(game, *g->take);
        *g->take = NULL;
    }
    const pgn_game_summary *sum = g->summary;
    PyObject *items[] = {game,
                         game ? pk_diags_list(s, &self->diags, 0) : NULL,
                         PyLong_FromUnsignedLongLong(sum->game),
                         PyLong_FromUnsignedLongLong(sum->start.offset),
                         PyLong_FromUnsignedLongLong(sum->end_offset),
                         PyBool_FromLong(sum->broken != 0),
                         PyLong_FromUnsignedLong(sum->errors)};
    self->diags.buf.len = 0;
    PyObject *rec = pk_record_new(s, PK_REC_GAME, items); /* (NULL if an item is) */
    PyObject *res = rec ? PyObject_CallOneArg(run->put, rec) : NULL;
    if (!res) {
        run->failed = 1;
    } else if (PyObject_IsTrue(res) == 1) {
        st = PGN_OK;
    } /* else put said stop (or its answer had no truth: its exception is kept) */
    run->failed |= PyErr_Occurred() != NULL;
    Py_XDECREF(res);
    Py_XDECREF(rec);
    PyGILState_Release(gs);
    return st;
}

PyObject *pk_reader_parallel(ReaderObject *self, PyObject *args) {
    unsigned threads;
    PyObject *put;
    if (!PyArg_ParseTuple(args, "IO:parallel", &threads, &put) || pk_reader_enter(self) < 0) {
        return NULL;
    }
    if (self->q || self->tags_only || pgn_parallel_serial(&self->o)) {
        pk_reader_leave(self);
        PyErr_SetString(PyExc_ValueError, "parallel: this reader reads on one thread (where=, "
                                          "range=, tags only)");
        return NULL;
    }
    par_run run = {self, put, 0};
    pgn_parallel_opts po;
    memset(&po, 0, sizeof po);
    po.threads = threads;
    po.reader = self->o;
    po.tree = 1;
    po.user = &run;
    po.each = par_each;
    pgn_parallel_totals tot;
    pgn_status st;
    PyObject *out = NULL;
    self->diags.buf.len = 0;
    Py_BEGIN_ALLOW_THREADS
    st = pgn_parallel_read(self->src, &po, &tot);
    Py_END_ALLOW_THREADS
    if (run.failed) {
        out = NULL; /* put's exception */
    } else if (st != PGN_END && !(tot.from_each && st == PGN_E_LIMIT)) {
        pk_reader_failed(self, st);
    } else {
        PyObject *items[] = {PyList_New(0), PyLong_FromUnsignedLongLong(tot.games),
                             PyLong_FromUnsignedLongLong(tot.errors),
                             PyLong_FromUnsignedLongLong(tot.warnings)};
        out = pk_record_new(pk_state_of(Py_TYPE(self)), PK_REC_CHECK, items);
    }
    pk_reader_leave(self);
    return out;
}
