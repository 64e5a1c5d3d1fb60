/* SPDX-License-Identifier: MIT */
/* pgnkit._pgnkit.CBoard, the base of pgnkit.Board: a position over the rules core and the moves
 * played on it. The position is set when the object is made (tp_new: the standard start), so a
 * subclass whose __init__ never calls the base's, or Board.__new__(Board), holds a legal position
 * too (issue 36: it held an all-zero board, and attackers_to read out of bounds); __init__ changes
 * it only once its FEN has been read whole. */
#include "pk.h"

#include <string.h>

typedef struct BoardObject {
    PyObject_HEAD pgn_pos pos;
    pgn_membuf stack; /* the positions before each pushed move (pgn_pos values) */
} BoardObject;

static PyObject *board_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    (void)args;
    (void)kw;
    BoardObject *self = (BoardObject *)type->tp_alloc(type, 0);
    if (self) {
        pgn_pos_init(&self->pos);
    }
    return (PyObject *)self;
}

static int board_init(BoardObject *self, PyObject *args, PyObject *kw) {
    static char kw_fen[] = "fen", kw_960[] = "chess960";
    static char *kws[] = {kw_fen, kw_960, NULL};
    const char *fen = NULL;
    Py_ssize_t len = 0;
    int c960 = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|z#p", kws, &fen, &len, &c960)) {
        return -1;
    }
    pgn_pos pos;
    if (!fen) {
        pgn_pos_init(&pos);
        pos.chess960 = (uint8_t)(c960 != 0);
    } else {
        pgn_fen_diag d;
        if (pgn_fen_parse(&pos, fen, (size_t)len, c960 ? PGN_FEN_CHESS960 : 0, &d) != PGN_OK) {
            return pk_raise_status(pk_state_of(Py_TYPE(self)), d.code, d.reason);
        }
    }
    self->pos = pos;
    self->stack.len = 0;
    return 0;
}

static void board_dealloc(BoardObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    pgn_membuf_free(&self->stack);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
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
        if (pk_append_str(out, u) < 0) {
            Py_CLEAR(out);
        }
    }
    return out;
}

/* Reads the one str argument of a method that takes a move; NULL with an exception set. */
static const char *move_arg(PyObject *arg, Py_ssize_t *len) {
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "a move (str) is required, not %.100s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    return PyUnicode_AsUTF8AndSize(arg, len);
}

/* Reads the move arg as SAN (lax) or UCI; returns 0 and *mv, or -1 with PgnError raised. */
static int board_parse(BoardObject *self, PyObject *arg, int uci, pgn_move *mv) {
    Py_ssize_t len;
    const char *text = move_arg(arg, &len);
    if (!text) {
        return -1;
    }
    pgn_status st;
    if (uci) {
        st = pgn_uci_parse(&self->pos, text, (size_t)len, mv);
    } else {
        pgn_san_result r;
        st = pgn_san_parse(&self->pos, text, (size_t)len, 0, &r);
        if (st == PGN_OK) {
            *mv = r.move;
        }
    }
    return st == PGN_OK ? 0 : pk_raise_status(pk_state_of(Py_TYPE(self)), st, text);
}

/* The move arg (UCI if uci, else SAN) written the other way, played too if play. */
static PyObject *board_move(BoardObject *self, PyObject *arg, int uci, int play) {
    pgn_move mv = PGN_MOVE_NONE;
    if (board_parse(self, arg, uci, &mv) < 0) {
        return NULL;
    }
    char out[PGN_SAN_MAX > PGN_UCI_MAX ? PGN_SAN_MAX : PGN_UCI_MAX];
    if (uci) {
        pgn_san_write(&self->pos, mv, out);
    } else {
        pgn_uci_write(&self->pos, mv, out);
    }
    if (play) {
        if (pgn_membuf_write(&self->stack, &self->pos, sizeof self->pos) < 0) {
            return PyErr_NoMemory();
        }
        pgn_pos_play(&self->pos, mv);
    }
    return PyUnicode_FromString(out);
}

static PyObject *board_push_san(BoardObject *self, PyObject *arg) {
    return board_move(self, arg, 0, 1);
}

static PyObject *board_push_uci(BoardObject *self, PyObject *arg) {
    return board_move(self, arg, 1, 1);
}

static PyObject *board_san(BoardObject *self, PyObject *arg) {
    return board_move(self, arg, 1, 0);
}

static PyObject *board_uci(BoardObject *self, PyObject *arg) {
    return board_move(self, arg, 0, 0);
}

static PyObject *board_pop(BoardObject *self, PyObject *unused) {
    (void)unused;
    if (self->stack.len < sizeof self->pos) {
        PyErr_SetString(PyExc_IndexError, "pop from a board with no moves");
        return NULL;
    }
    self->stack.len -= sizeof self->pos;
    memcpy(&self->pos, self->stack.ptr + self->stack.len, sizeof self->pos);
    Py_RETURN_NONE;
}

static PyObject *board_state(BoardObject *self, PyObject *unused) {
    (void)unused;
    const pgn_pos *p = &self->pos;
    return Py_BuildValue("{s:s,s:O,s:O,s:O,s:O,s:I,s:I}", "turn",
                         p->side == PGN_WHITE ? "white" : "black", "check",
                         pgn_pos_in_check(p) ? Py_True : Py_False, "checkmate",
                         pgn_pos_is_checkmate(p) ? Py_True : Py_False, "stalemate",
                         pgn_pos_is_stalemate(p) ? Py_True : Py_False, "insufficient_material",
                         pgn_pos_is_insufficient_material(p) ? Py_True : Py_False, "halfmove_clock",
                         (unsigned)p->halfmove, "fullmove_number", (unsigned)p->fullmove);
}

static PyObject *board_key(BoardObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromUnsignedLongLong(pgn_pos_compute_key(&self->pos));
}

static PyMethodDef board_methods[] = {
    {"fen", (PyCFunction)board_fen, METH_NOARGS, "the position as FEN"},
    {"legal_moves", (PyCFunction)board_legal, METH_NOARGS, "every legal move, in UCI"},
    {"push_san", (PyCFunction)board_push_san, METH_O, "plays a SAN move; returns its UCI"},
    {"push_uci", (PyCFunction)board_push_uci, METH_O, "plays a UCI move; returns its SAN"},
    {"san", (PyCFunction)board_san, METH_O, "the SAN of a UCI move"},
    {"uci", (PyCFunction)board_uci, METH_O, "the UCI of a SAN move"},
    {"pop", (PyCFunction)board_pop, METH_NOARGS, "takes the last move back"},
    {"state", (PyCFunction)board_state, METH_NOARGS, "turn, check, mate, stalemate, clocks"},
    {"polyglot_key", (PyCFunction)board_key, METH_NOARGS, "the Polyglot Zobrist key"},
    {NULL, NULL, 0, NULL}};

static const pk_fn_slot board_fns[] = {{Py_tp_new, (pk_fn)board_new},
                                       {Py_tp_init, (pk_fn)board_init},
                                       {Py_tp_dealloc, (pk_fn)board_dealloc},
                                       {0, NULL}};

const pk_type_def pk_board_def = {
    "pgnkit._pgnkit.CBoard",
    sizeof(BoardObject),
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
    board_fns,
    board_methods,
    "A chess position over pgnkit's rules core.",
};
