/* SPDX-License-Identifier: MIT */
/* What pgnkit._pgnkit.Reader reads: the next game (a GameRecord over a CGame), or in scan mode
 * the next game's tags as a dict (tagdicts.c); every game at once for check(); the tags as columns.
 * The C reader runs without the GIL; long runs take it back now and then for Ctrl-C
 * (pk_nogil_poll). */
#include "reader.h"

#include <string.h>

#include "tagcols.h"

/* where= mode: reads the next game through the matcher; a match is read again from its raw bytes
 * into g (the first pass gave the diagnostics, with their true places), other games leave
 * *matched 0. Runs without the GIL. */
static pgn_status read_where(ReaderObject *self, pgn_game *g, int *matched) {
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
        pgn_status s2 = pgn_reader_next(sub, g);
        pgn_reader_free(sub);
        if (s2 == PGN_E_NOMEM) {
            return s2;
        }
        *matched = 1;
    }
    return st;
}

/* The next game as a GameRecord; with where=, game None for a game that does not match (its
 * diagnostics still come, for strict mode). */
static PyObject *next_game(ReaderObject *self) {
    const pk_state *s = pk_state_of(Py_TYPE(self));
    PyObject *game = pk_game_new(s);
    if (!game) {
        return NULL;
    }
    pgn_game *g = pk_game_of(game);
    pgn_status st;
    int matched = 1;
    Py_BEGIN_ALLOW_THREADS
    st = self->q ? read_where(self, g, &matched) : pgn_reader_next(self->r, g);
    Py_END_ALLOW_THREADS
    if (st != PGN_OK && st != PGN_E_LIMIT) {
        Py_DECREF(game);
        return st == PGN_END ? NULL : pk_reader_failed(self, st);
    }
    if (!matched) {
        Py_SETREF(game, Py_NewRef(Py_None));
    }
    const pgn_game_summary *sum = pgn_reader_summary(self->r);
    PyObject *items[] = {game,
                         pk_diags_list(s, &self->diags, 0),
                         PyLong_FromUnsignedLongLong(sum->game),
                         PyLong_FromUnsignedLongLong(sum->start.offset),
                         PyLong_FromUnsignedLongLong(sum->end_offset),
                         PyBool_FromLong(sum->broken != 0),
                         PyLong_FromUnsignedLong(sum->errors)};
    return pk_record_new(s, PK_REC_GAME, items);
}

PyObject *pk_reader_next(ReaderObject *self) {
    if (pk_reader_enter(self) < 0) {
        return NULL;
    }
    PyObject *out;
    self->diags.oom = 0;
    if (self->tags_only) {
        pgn_status st;
        out = pk_tagdicts_next(self->tags, self->r, &self->diags, &st);
        if (!out && !PyErr_Occurred() && st != PGN_END) {
            pk_reader_failed(self, st);
        }
    } else {
        self->diags.buf.len = 0;
        out = next_game(self);
    }
    if (out && self->diags.oom) {
        Py_SETREF(out, PyErr_NoMemory());
    }
    pk_reader_leave(self);
    return out;
}

/* Reads every game left without building trees (a tags-only reader skips the movetext), polling
 * for Ctrl-C after each PK_POLL_BYTES of input (without the GIL). */
static pgn_status visit_all(pgn_reader *r, int tags_only, pk_nogil *n) {
    static const pgn_visitor skip = {NULL, NULL, pk_skip_movetext, NULL, NULL, NULL, NULL,
                                     NULL, NULL};
    pgn_status st;
    uint64_t polled = 0;
    while ((st = pgn_reader_visit(r, tags_only ? &skip : NULL, NULL)) == PGN_OK) {
        uint64_t at = pgn_reader_summary(r)->end_offset;
        if (at - polled >= PK_POLL_BYTES) {
            polled = at;
            if (pk_nogil_poll(n)) {
                break;
            }
        }
    }
    return st;
}

/* check_all(): reads every game left without building trees (tags only: the movetext skipped,
 * the C floor of the tag scans): a CheckRecord (the diagnostics,
 * and the counts since the reader began). */
static PyObject *reader_check_all(ReaderObject *self, PyObject *unused) {
    (void)unused;
    if (pk_reader_no_pending(self, "check_all") < 0 || pk_reader_enter(self) < 0) {
        return NULL;
    }
    self->diags.buf.len = 0;
    self->diags.oom = 0;
    pk_nogil n;
    pk_nogil_begin(&n);
    pgn_status st = visit_all(self->r, self->tags_only, &n);
    PyObject *out = NULL;
    if (pk_nogil_end(&n) == 0) {
        if (st != PGN_END && st != PGN_E_LIMIT) {
            pk_reader_failed(self, st);
        } else if (self->diags.oom) {
            PyErr_NoMemory();
        } else {
            const pk_state *s = pk_state_of(Py_TYPE(self));
            uint64_t g, e, w;
            pgn_reader_totals(self->r, &g, &e, &w);
            PyObject *items[] = {pk_diags_list(s, &self->diags, 0), PyLong_FromUnsignedLongLong(g),
                                 PyLong_FromUnsignedLongLong(e), PyLong_FromUnsignedLongLong(w)};
            out = pk_record_new(s, PK_REC_CHECK, items);
        }
    }
    pk_reader_leave(self);
    return out;
}

/* tag_columns(int_tags, date_tags): the rest of a tags-only reader's games as columns, in one
 * call (tagcols.c): a TagColumns record. */
static PyObject *reader_tag_columns(ReaderObject *self, PyObject *args) {
    PyObject *ints, *dates;
    if (!PyArg_ParseTuple(args, "OO", &ints, &dates)) {
        return NULL;
    }
    if (pk_reader_no_pending(self, "tag_columns") < 0 || pk_reader_enter(self) < 0) {
        return NULL;
    }
    if (!self->tags_only) {
        PyErr_SetString(PyExc_ValueError, "tag_columns: the reader must be opened tags_only");
        pk_reader_leave(self);
        return NULL;
    }
    self->diags.buf.len = 0;
    self->diags.oom = 0;
    pgn_status st = PGN_OK;
    PyObject *out = pk_tag_columns(pk_state_of(Py_TYPE(self)), self->r, ints, dates, &st);
    if (!out && !PyErr_Occurred()) {
        pk_reader_failed(self, st);
    } else if (out && self->diags.oom) {
        Py_SETREF(out, PyErr_NoMemory());
    }
    pk_reader_leave(self);
    return out;
}

/* After the last game (the iterator ended): the diagnostics of the text after it, which belong to
 * no game (junk after the last game, or in a byte range that holds no game). */
static PyObject *reader_trailing(ReaderObject *self, PyObject *unused) {
    (void)unused;
    if (pk_reader_enter(self) < 0) {
        return NULL;
    }
    PyObject *out = pk_diags_list(pk_state_of(Py_TYPE(self)), &self->diags, 0);
    pk_reader_leave(self);
    return out;
}

/* source_format(): the source's compression ("plain", "gzip"...), or its kind of archive ("a zip
 * archive"): pgnkit/__init__.py reads a plain path or bytes on threads by byte ranges. */
static PyObject *reader_source_format(ReaderObject *self, PyObject *unused) {
    (void)unused;
    const char *archive = pgn_source_archive(self->src);
    return PyUnicode_FromString(archive ? archive : pgn_format_name(pgn_source_format(self->src)));
}

/* name(): the name of what is read (str, decoded as the file system's names are). */
static PyObject *reader_name(ReaderObject *self, PyObject *unused) {
    (void)unused;
    return PyUnicode_DecodeFSDefault(PyBytes_AS_STRING(self->name));
}

PyMethodDef pk_reader_methods[] = {
    {"trailing", (PyCFunction)reader_trailing, METH_NOARGS,
     "after the end: the diagnostics that belong to no game"},
    {"tag_columns", (PyCFunction)reader_tag_columns, METH_VARARGS,
     "the rest of a tags-only reader as columns: a TagColumns record"},
    {"check_all", (PyCFunction)reader_check_all, METH_NOARGS,
     "reads the rest: a CheckRecord (diagnostics, games, errors, warnings)"},
    {"next_member", (PyCFunction)pk_reader_next_member, METH_NOARGS,
     "an archive's next member: its name ARCHIVE(MEMBER), or None when none is left"},
    {"parallel", (PyCFunction)pk_reader_parallel, METH_VARARGS,
     "parallel(threads, put): every game left, read on threads, given to put(GameRecord) in "
     "input order (put returns False to stop); the counts as a CheckRecord"},
    {"name", (PyCFunction)reader_name, METH_NOARGS,
     "the name of what is read: the source's, or an archive member's ARCHIVE(MEMBER)"},
    {"source_format", (PyCFunction)reader_source_format, METH_NOARGS,
     "what the source's first bytes say: plain, gzip, zstd, bzip2, xz, or an archive's kind"},
    {NULL, NULL, 0, NULL}};
