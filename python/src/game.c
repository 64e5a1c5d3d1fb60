/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit.CGame: a game read by pgnkit, owning its pgn_game. Made only by the reader
 * (Python cannot make one, so every CGame holds a game); the lists of its main line are made on
 * demand, each part apart (docs/design.md, "Python binding"). */
#include "pk.h"

typedef struct GameObject {
    PyObject_HEAD pgn_game *g;
} GameObject;

PyObject *pk_game_new(const pk_state *s) {
    GameObject *self = (GameObject *)s->game_type->tp_alloc(s->game_type, 0);
    if (self && pgn_game_new(&self->g, NULL) != PGN_OK) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    return (PyObject *)self;
}

void pk_game_adopt(PyObject *game, pgn_game *g) {
    pgn_game_free(((GameObject *)game)->g);
    ((GameObject *)game)->g = g;
}

pgn_game *pk_game_of(PyObject *game) {
    return ((GameObject *)game)->g;
}

static void game_dealloc(GameObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    pgn_game_free(self->g);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

/* tags(): a dict of the tags, in file order (a name given twice keeps its first place and its
 * last value, as the reader reports it: W_DUPLICATE_TAG). */
static PyObject *game_tags(GameObject *self, PyObject *unused) {
    (void)unused;
    size_t n = pgn_game_tag_count(self->g);
    PyObject *out = PyDict_New();
    for (size_t i = 0; out && i < n; i++) {
        PyObject *k = pk_str(pgn_game_tag_name(self->g, i));
        PyObject *v = k ? pk_str(pgn_game_tag_value(self->g, i)) : NULL;
        if (!v || PyDict_SetItem(out, k, v) < 0) {
            Py_CLEAR(out);
        }
        Py_XDECREF(k);
        Py_XDECREF(v);
    }
    return out;
}

static PyObject *game_result(GameObject *self, PyObject *unused) {
    (void)unused;
    return PyUnicode_FromString(pgn_result_str(pgn_game_result(self->g)));
}

/* The parts of a main line that mainline() can make (a bit each). */
enum { LINE_SAN = 1, LINE_UCI = 2, LINE_FEN = 4, LINE_ANNOT = 8, LINE_ALL = 15 };
enum { PART_SAN, PART_UCI, PART_FEN, PART_COMMENT, PART_NAG, PART_CLOCK, PART_EVAL, PARTS };

static int append_new(PyObject *list, PyObject *o) {
    int r = o ? PyList_Append(list, o) : -1;
    Py_XDECREF(o);
    return r;
}

/* Appends to the annotation parts of l the comment, NAG tuple, clock (seconds or None) and eval
 * (None, or ("cp", n) / ("mate", n)) of node c; returns 0, or -1 with an exception set. */
static int annot_of(const pgn_node *c, PyObject *const *l) {
    pgn_str cm = pgn_node_comment(c);
    int bad = append_new(l[PART_COMMENT], cm.len ? pk_str(cm) : Py_NewRef(Py_None)) < 0;
    size_t nn = pgn_node_nag_count(c);
    PyObject *t = PyTuple_New((Py_ssize_t)nn);
    for (size_t i = 0; t && i < nn; i++) {
        PyObject *v = PyLong_FromUnsignedLong(pgn_node_nag(c, i));
        if (!v) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)i, v);
    }
    bad |= append_new(l[PART_NAG], t) < 0;
    int64_t ms;
    PyObject *o =
        pgn_node_clock(c, &ms) ? PyFloat_FromDouble((double)ms / 1000.0) : Py_NewRef(Py_None);
    bad |= append_new(l[PART_CLOCK], o) < 0;
    pgn_eval e;
    o = pgn_node_eval(c, &e)
            ? Py_BuildValue("(si)", e.kind == PGN_EVAL_MATE ? "mate" : "cp", (int)e.value)
            : Py_NewRef(Py_None);
    bad |= append_new(l[PART_EVAL], o) < 0;
    return bad ? -1 : 0;
}

/* Appends the parts of move mv, played from *pos (which it then plays), to l. */
static int move_of(pgn_pos *pos, pgn_move mv, int what, PyObject *const *l) {
    char sbuf[PGN_SAN_MAX], ubuf[PGN_UCI_MAX], fbuf[PGN_FEN_MAX];
    int bad = 0;
    if (what & LINE_SAN) {
        pgn_san_write(pos, mv, sbuf);
        bad |= pk_append_str(l[PART_SAN], sbuf) < 0;
    }
    if (what & LINE_UCI) {
        pgn_uci_write(pos, mv, ubuf);
        bad |= pk_append_str(l[PART_UCI], ubuf) < 0;
    }
    pgn_pos_play(pos, mv);
    if (what & LINE_FEN) {
        pgn_fen_write(pos, 0, fbuf, sizeof fbuf);
        bad |= pk_append_str(l[PART_FEN], fbuf) < 0;
    }
    return bad ? -1 : 0;
}

/* mainline(what=LINE_SAN | LINE_UCI | LINE_ANNOT): the main line as a MainLine record, each part
 * a list, or None unless its bit is in what. */
static PyObject *game_mainline(GameObject *self, PyObject *args) {
    static const int bit[PARTS] = {LINE_SAN,   LINE_UCI,   LINE_FEN,  LINE_ANNOT,
                                   LINE_ANNOT, LINE_ANNOT, LINE_ANNOT};
    int what = LINE_ALL & ~LINE_FEN;
    if (!PyArg_ParseTuple(args, "|i", &what)) {
        return NULL;
    }
    PyObject *l[PARTS];
    int bad = 0;
    for (int i = 0; i < PARTS; i++) {
        l[i] = what & bit[i] ? PyList_New(0) : Py_NewRef(Py_None);
        bad |= !l[i];
    }
    pgn_pos pos = *pgn_game_start(self->g);
    for (const pgn_node *c = pgn_node_child(pgn_game_root(self->g)); c && !bad;
         c = pgn_node_child(c)) {
        bad = move_of(&pos, pgn_node_move(c), what, l) < 0 ||
              ((what & LINE_ANNOT) && annot_of(c, l) < 0);
    }
    if (bad) {
        for (int i = 0; i < PARTS; i++) {
            Py_CLEAR(l[i]);
        }
    }
    return pk_record_new(pk_state_of(Py_TYPE(self)), PK_REC_LINE, l);
}

static PyObject *fen_str(const pgn_pos *pos) {
    char buf[PGN_FEN_MAX];
    pgn_fen_write(pos, 0, buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

static PyObject *game_start_fen(GameObject *self, PyObject *unused) {
    (void)unused;
    return fen_str(pgn_game_start(self->g));
}

/* The FEN after the last main-line move (the start position's for a game without moves). */
static PyObject *game_final_fen(GameObject *self, PyObject *unused) {
    (void)unused;
    pgn_pos pos = *pgn_game_start(self->g);
    for (const pgn_node *c = pgn_node_child(pgn_game_root(self->g)); c; c = pgn_node_child(c)) {
        pgn_pos_play_unkeyed(&pos, pgn_node_move(c));
    }
    return fen_str(&pos);
}

static PyObject *game_comment(GameObject *self, PyObject *unused) {
    (void)unused;
    return pk_str(pgn_node_comment(pgn_game_root(self->g)));
}

/* (ply, [SAN...]) of the variation that starts at alt, played from pos. */
static PyObject *variation_of(size_t ply, const pgn_node *alt, pgn_pos pos) {
    PyObject *moves = PyList_New(0);
    for (const pgn_node *m = alt; m && moves; m = pgn_node_child(m)) {
        char sbuf[PGN_SAN_MAX];
        pgn_san_write(&pos, pgn_node_move(m), sbuf);
        pgn_pos_play(&pos, pgn_node_move(m));
        if (pk_append_str(moves, sbuf) < 0) {
            Py_CLEAR(moves);
        }
    }
    return moves ? Py_BuildValue("(nN)", (Py_ssize_t)ply, moves) : NULL;
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
            if (append_new(out, variation_of(ply, alt, pos)) < 0) {
                Py_CLEAR(out);
            }
        }
        pgn_pos_play(&pos, pgn_node_move(c));
    }
    return out;
}

/* The game as PGN text or (json) one NDJSON line without its line break, written without the
 * GIL; out of memory unless the writer says PGN_OK. */
static PyObject *game_text(GameObject *self, int json) {
    pgn_membuf b = {0};
    pgn_writer *pw = NULL;
    pgn_json_writer *jw = NULL;
    pgn_json_writer_opts o = {PGN_JSON_NDJSON, 0, NULL};
    pgn_status st = json ? pgn_json_writer_new(&jw, &o, pgn_membuf_write, &b)
                         : pgn_writer_new(&pw, NULL, pgn_membuf_write, &b);
    if (st != PGN_OK) {
        return PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    st = json ? pgn_json_writer_write(jw, self->g) : pgn_writer_write(pw, self->g);
    Py_END_ALLOW_THREADS
    pgn_writer_free(pw);
    pgn_json_writer_free(jw);
    while (json && b.len > 0 && b.ptr[b.len - 1] == '\n') {
        b.len--;
    }
    PyObject *out =
        st == PGN_OK ? PyUnicode_DecodeUTF8(b.ptr, (Py_ssize_t)b.len, "replace") : PyErr_NoMemory();
    pgn_membuf_free(&b);
    return out;
}

static PyObject *game_to_pgn(GameObject *self, PyObject *unused) {
    (void)unused;
    return game_text(self, 0);
}

static PyObject *game_to_json(GameObject *self, PyObject *unused) {
    (void)unused;
    return game_text(self, 1);
}

static PyMethodDef game_methods[] = {
    {"tags", (PyCFunction)game_tags, METH_NOARGS, "a dict of the tags, in file order"},
    {"result", (PyCFunction)game_result, METH_NOARGS, "the termination marker"},
    {"mainline", (PyCFunction)game_mainline, METH_VARARGS,
     "the main line as a MainLine record; what: bits 1 SAN, 2 UCI, 4 FENs, 8 the rest (a part "
     "not asked for is None)"},
    {"start_fen", (PyCFunction)game_start_fen, METH_NOARGS, "FEN of the start position"},
    {"final_fen", (PyCFunction)game_final_fen, METH_NOARGS, "FEN after the main line"},
    {"game_comment", (PyCFunction)game_comment, METH_NOARGS, "the comment before the first move"},
    {"variations", (PyCFunction)game_variations, METH_NOARGS, "[(ply, [san])]"},
    {"to_pgn", (PyCFunction)game_to_pgn, METH_NOARGS, "the game in PGN export format"},
    {"to_json", (PyCFunction)game_to_json, METH_NOARGS, "the game as pgnkit JSON"},
    {NULL, NULL, 0, NULL}};

static const pk_fn_slot game_fns[] = {{Py_tp_dealloc, (pk_fn)game_dealloc}, {0, NULL}};

const pk_type_def pk_game_def = {
    "pgnkit._pgnkit.CGame",
    sizeof(GameObject),
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    game_fns,
    game_methods,
    "A game read by pgnkit (owns its C game tree).",
};
