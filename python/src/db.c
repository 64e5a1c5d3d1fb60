/* SPDX-License-Identifier: MIT */
/* The game database for Python (issue 30; pgnkit/db.py shapes it): a handle in a capsule and the
 * functions over include/pgnkit/db.h: open, close, explore, select, import. The handle is used
 * with the GIL held, except during an import, which marks it busy: a call on a busy handle from
 * another thread raises RuntimeError rather than share SQLite's connection. */
#include "pk.h"

#include <stdio.h>
#include <string.h>

#define PK_DB_CAPSULE "pgnkit._pgnkit.db"

typedef struct pk_db {
    pgn_db *db;
    int busy;
} pk_db;

static void db_capsule_free(PyObject *cap) {
    pk_db *h = PyCapsule_GetPointer(cap, PK_DB_CAPSULE);
    if (h != NULL) {
        pgn_db_close(h->db);
        PyMem_Free(h);
    }
}

/* The open, idle handle of a capsule; NULL with an exception set. */
static pk_db *handle(PyObject *cap) {
    pk_db *h = PyCapsule_GetPointer(cap, PK_DB_CAPSULE);
    if (h == NULL) {
        return NULL;
    }
    if (h->db == NULL) {
        PyErr_SetString(PyExc_ValueError, "the database is closed");
        return NULL;
    }
    if (h->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the database is busy (an import runs on it)");
        return NULL;
    }
    return h;
}

/* Raises the error of a db function: MemoryError, else OSError(msg). */
static PyObject *db_error(pgn_status st, const char *msg) {
    if (st == PGN_E_NOMEM) {
        return PyErr_NoMemory();
    }
    PyErr_SetString(PyExc_OSError, msg);
    return NULL;
}

static PyObject *mod_db_open(PyObject *self, PyObject *args) {
    const char *path;
    int create, readonly;
    (void)self;
    if (!PyArg_ParseTuple(args, "spp", &path, &create, &readonly)) {
        return NULL;
    }
    pk_db *h = PyMem_Calloc(1, sizeof *h);
    if (h == NULL) {
        return PyErr_NoMemory();
    }
    char msg[512] = "";
    uint32_t flags = (create ? PGN_DB_CREATE : 0u) | (readonly ? PGN_DB_READONLY : 0u);
    pgn_status st;
    Py_BEGIN_ALLOW_THREADS
    st = pgn_db_open(&h->db, path, flags, msg, sizeof msg);
    Py_END_ALLOW_THREADS
    if (st != PGN_OK) {
        PyMem_Free(h);
        char full[700];
        snprintf(full, sizeof full, "%s: %s", path, msg);
        return db_error(st, full);
    }
    PyObject *cap = PyCapsule_New(h, PK_DB_CAPSULE, db_capsule_free);
    if (cap == NULL) {
        pgn_db_close(h->db);
        PyMem_Free(h);
    }
    return cap;
}

static PyObject *mod_db_close(PyObject *self, PyObject *cap) {
    (void)self;
    pk_db *h = PyCapsule_GetPointer(cap, PK_DB_CAPSULE);
    if (h == NULL) {
        return NULL;
    }
    if (h->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the database is busy (an import runs on it)");
        return NULL;
    }
    pgn_db_close(h->db);
    h->db = NULL;
    Py_RETURN_NONE;
}

/* A position from text: a FEN (it has a '/'), else SAN moves from the start (move numbers and
 * results skipped). 0, or -1 with ValueError set. */
static int position(pgn_pos *pos, const char *text) {
    if (strchr(text, '/') != NULL) {
        if (pgn_fen_parse(pos, text, strlen(text), 0, NULL) != PGN_OK) {
            PyErr_Format(PyExc_ValueError, "not a FEN: %s", text);
            return -1;
        }
        return 0;
    }
    pgn_pos_init(pos);
    for (const char *p = text; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\n') {
            p++;
        }
        const char *b = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
            p++;
        }
        const char *m = b;
        while (m < p && ((*m >= '0' && *m <= '9') || *m == '.')) {
            m++; /* a move number */
        }
        if (m == p) {
            continue;
        }
        pgn_san_result r;
        if (pgn_san_parse(pos, m, (size_t)(p - m), 0, &r) != PGN_OK) {
            PyErr_Format(PyExc_ValueError, "'%.*s' is no legal move in: %s", (int)(p - m), m, text);
            return -1;
        }
        pgn_pos_play(pos, r.move);
    }
    return 0;
}

typedef struct ex_ctx {
    const pgn_pos *pos;
    PyObject *list;
} ex_ctx;

static int explore_move(void *user, const pgn_db_move *m) {
    ex_ctx *c = user;
    char san[PGN_SAN_MAX] = "?", uci[PGN_UCI_MAX] = "?";
    pgn_san_write(c->pos, m->move, san);
    pgn_uci_write(c->pos, m->move, uci);
    PyObject *t = Py_BuildValue("(ssKKKKKKL)", san, uci, (unsigned long long)m->games,
                                (unsigned long long)m->white, (unsigned long long)m->draws,
                                (unsigned long long)m->black, (unsigned long long)m->elo_sum,
                                (unsigned long long)m->elo_games, (long long)m->last_date);
    int r = t != NULL ? PyList_Append(c->list, t) : -1;
    Py_XDECREF(t);
    return r != 0;
}

/* db_explore(handle, position) -> (fen, games, [(san, uci, games, white, draws, black, elo_sum,
 * elo_games, last_date), ...]) */
static PyObject *mod_db_explore(PyObject *self, PyObject *args) {
    PyObject *cap;
    const char *text;
    (void)self;
    if (!PyArg_ParseTuple(args, "Os", &cap, &text)) {
        return NULL;
    }
    pk_db *h = handle(cap);
    pgn_pos pos;
    if (h == NULL || position(&pos, text) != 0) {
        return NULL;
    }
    ex_ctx c = {&pos, PyList_New(0)};
    if (c.list == NULL) {
        return NULL;
    }
    char msg[512] = "";
    uint64_t games = 0;
    pgn_status st = pgn_db_explore(h->db, &pos, explore_move, &c, &games, msg, sizeof msg);
    if (PyErr_Occurred() || st != PGN_OK) {
        Py_DECREF(c.list);
        return PyErr_Occurred() ? NULL : db_error(st, msg);
    }
    char fen[PGN_FEN_MAX];
    pgn_fen_write(&pos, 0, fen, sizeof fen);
    return Py_BuildValue("(sKN)", fen, (unsigned long long)games, c.list);
}

typedef struct sel_ctx {
    PyObject *list;
    uint64_t limit;
} sel_ctx;

static int select_hit(void *user, const pgn_db_hit *hit) {
    sel_ctx *c = user;
    PyObject *ply =
        hit->first_ply == UINT32_MAX ? Py_NewRef(Py_None) : PyLong_FromUnsignedLong(hit->first_ply);
    PyObject *t = ply ? Py_BuildValue("(Ly#N)", (long long)hit->id, hit->raw.ptr,
                                      (Py_ssize_t)hit->raw.len, ply)
                      : NULL;
    int r = t != NULL ? PyList_Append(c->list, t) : -1;
    Py_XDECREF(t);
    return r != 0 || (c->limit && (uint64_t)PyList_GET_SIZE(c->list) >= c->limit);
}

/* db_select(handle, expression, limit) -> [(id, bytes, first_ply or None), ...] in id order */
static PyObject *mod_db_select(PyObject *self, PyObject *args) {
    PyObject *cap;
    const char *text;
    Py_ssize_t len;
    uint64_t limit = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "Os#O&", &cap, &text, &len, pk_uint64_arg, &limit)) {
        return NULL;
    }
    pk_db *h = handle(cap);
    if (h == NULL) {
        return NULL;
    }
    pgn_query *q;
    pgn_query_error qe;
    pgn_status st = pgn_query_compile(&q, text, (size_t)len, NULL, &qe);
    if (st == PGN_E_NOMEM) {
        return PyErr_NoMemory();
    }
    if (st != PGN_OK) {
        PyErr_Format(PyExc_ValueError, "error in the expression, column %u: %s (expected: %s)",
                     (unsigned)qe.column, qe.message, qe.expected);
        return NULL;
    }
    sel_ctx c = {PyList_New(0), limit};
    char msg[512] = "";
    if (c.list != NULL) {
        st = pgn_db_select(h->db, q, select_hit, &c, NULL, msg, sizeof msg);
    }
    pgn_query_free(q);
    if (c.list != NULL && (PyErr_Occurred() || st != PGN_OK)) {
        Py_CLEAR(c.list);
        if (!PyErr_Occurred()) {
            db_error(st, msg);
        }
    }
    return c.list;
}

/* Imports every member of the source at path; PGN_OK or the status, msg filled. */
static pgn_status import_path(pgn_db *db, const char *path, const pgn_db_import_opts *o,
                              pgn_db_import_totals *all, char *msg, size_t cap) {
    pgn_source *src = NULL;
    pgn_status st = pgn_source_open_path(&src, path, NULL, msg, cap);
    while (st == PGN_OK) {
        pgn_db_import_totals t;
        st = pgn_db_import(db, src, o, &t, msg, cap);
        all->games += t.games;
        all->stored += t.stored;
        all->duplicates += t.duplicates;
        all->broken += t.broken;
        all->positions += t.positions;
        if (st == PGN_OK && pgn_source_next(src) != PGN_OK) {
            break;
        }
    }
    if (st != PGN_E_NOMEM && st != PGN_OK) {
        st = PGN_E_IO;
    }
    pgn_source_free(src);
    return st;
}

/* db_import(handle, path, threads, keep_duplicates) -> (games, stored, duplicates, broken,
 * positions); the GIL is released while it runs. */
static PyObject *mod_db_import(PyObject *self, PyObject *args) {
    PyObject *cap;
    const char *path;
    unsigned threads;
    int keep;
    (void)self;
    if (!PyArg_ParseTuple(args, "OsIp", &cap, &path, &threads, &keep)) {
        return NULL;
    }
    pk_db *h = handle(cap);
    if (h == NULL) {
        return NULL;
    }
    pgn_db_import_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.keep_duplicates = keep;
    pgn_db_import_totals all;
    memset(&all, 0, sizeof all);
    char msg[512] = "";
    pgn_status st;
    h->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    st = import_path(h->db, path, &o, &all, msg, sizeof msg);
    Py_END_ALLOW_THREADS
    h->busy = 0;
    if (st != PGN_OK) {
        char full[700];
        snprintf(full, sizeof full, "%s: %s", path, msg);
        return db_error(st, full);
    }
    return Py_BuildValue("(KKKKK)", (unsigned long long)all.games, (unsigned long long)all.stored,
                         (unsigned long long)all.duplicates, (unsigned long long)all.broken,
                         (unsigned long long)all.positions);
}

PyMethodDef pk_db_methods[] = {
    {"db_open", mod_db_open, METH_VARARGS, "db_open(path, create, readonly) -> handle"},
    {"db_close", mod_db_close, METH_O, "db_close(handle)"},
    {"db_explore", mod_db_explore, METH_VARARGS, "db_explore(handle, fen_or_moves)"},
    {"db_select", mod_db_select, METH_VARARGS, "db_select(handle, expression, limit)"},
    {"db_import", mod_db_import, METH_VARARGS, "db_import(handle, path, threads, keep)"},
    {NULL, NULL, 0, NULL}};
