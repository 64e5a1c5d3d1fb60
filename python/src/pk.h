/* SPDX-License-Identifier: MIT */
/* What the files of pgnkit._pgnkit share: the module state (PEP 489 and PEP 573, as CPython's
 * own modules keep theirs: heap types and the exception live in it, no static type and no global
 * object), the named records (structseq types) the extension hands to Python, and the helpers
 * the types use. Only the library's public headers are used. */
#ifndef PGNKIT_PY_PK_H
#define PGNKIT_PY_PK_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdatomic.h>

#include "pgnkit.h"

#if PY_VERSION_HEX < 0x030B0000
#error "pgnkit's extension needs CPython 3.11 or later (PyType_GetModuleByDef)"
#endif

/* The named records of the module (structseq types: a tuple whose items have names too). */
typedef enum pk_record {
    PK_REC_GAME,    /* a read game: game, diagnostics, ordinal, offset, end, broken, errors */
    PK_REC_DIAG,    /* a diagnostic: code, severity, line, column, offset, game, token */
    PK_REC_CHECK,   /* check_all: diagnostics, games, errors, warnings */
    PK_REC_LINE,    /* a main line: san, uci, fens, comments, nags, clocks, evals */
    PK_REC_COLUMN,  /* a tag column: name, kind, values, data, mask */
    PK_REC_COLUMNS, /* tag_columns: rows, columns, parts */
    PK_REC_FRAME,   /* a zstd frame: offset, size, text_offset, text_size, line, skippable */
    PK_REC_COUNT
} pk_record;

typedef struct pk_state {
    PyObject *pgn_error;    /* pgnkit.PgnError, a ValueError */
    PyObject *source_error; /* pgnkit.CompressedError, a ValueError: the source layer's refusals */
    PyTypeObject *game_type, *reader_type, *board_type;
    PyTypeObject *rec[PK_REC_COUNT];
} pk_state;

/* The state of the module that defined type or one of its bases (never NULL for the types of
 * this module and their subclasses). */
pk_state *pk_state_of(PyTypeObject *type);

/* Raises PgnError(message, code, "error", what) for status st; returns -1. */
int pk_raise_status(const pk_state *s, pgn_status st, const char *what);

/* A record of kind, its items taken from items (the references are stolen; an item that is NULL
 * makes the call fail: the others are released and NULL returned, with the exception set). */
PyObject *pk_record_new(const pk_state *s, pk_record kind, PyObject *const *items);

/* The number of items of a record kind. */
Py_ssize_t pk_record_size(pk_record kind);

/* Called by the module's initialisation: makes the record types into s (-1 with an exception). */
int pk_records_init(pk_state *s);

/* s as a str (bytes that are not UTF-8 replaced), "" for a NULL pointer. */
PyObject *pk_str(pgn_str s);

/* Appends the str of s to list; 0, or -1 with an exception set. */
int pk_append_str(PyObject *list, const char *s);

/* An O& converter: a Python int in [0, 2^64) into a uint64_t; OverflowError for a negative or
 * too large one, TypeError for what is not an int (never a silent wrap). */
int pk_uint64_arg(PyObject *o, void *out);

/* An O& converter: a Python int in [0, 2^32) into a uint32_t, as pk_uint64_arg. */
int pk_uint32_arg(PyObject *o, void *out);

/* An O& converter: an encoding name (str) or None into a pgn_encoding (None: PGN_ENC_AUTO);
 * ValueError naming an unknown one. */
int pk_encoding_arg(PyObject *o, void *out);

/* The game database's functions (db.c), added to the module by its initialisation. */
extern PyMethodDef pk_db_methods[];

/* A visitor's end_tags that skips the movetext (the tag scans read tags alone). */
pgn_flow pk_skip_movetext(void *user, const pgn_pos *start);

/* ---- diagnostics collected while the GIL is released ---- */

/* The diagnostics of a read, kept as pgn_diag values in a pgn_membuf (their source pointer is
 * dropped: the Python layer names the source). */
typedef struct pk_diags {
    pgn_membuf buf;
    int oom; /* a diagnostic could not be kept */
} pk_diags;

/* A pgn_diag_fn appending to the pk_diags ctx. */
void pk_diags_collect(void *ctx, const pgn_diag *d);

/* The number of diagnostics kept. */
size_t pk_diags_count(const pk_diags *l);

/* The diagnostics of l from index from on, as a list of diagnostic records. */
PyObject *pk_diags_list(const pk_state *s, const pk_diags *l, size_t from);

/* ---- C code that runs without the GIL, and Ctrl-C ---- */

/* The GIL released by the thread that called pk_nogil_begin; pk_nogil_poll takes it back for a
 * moment to run Python's signal handlers (Ctrl-C), as CPython's own long C loops do. */
typedef struct pk_nogil {
    PyThreadState *ts;
    unsigned long owner; /* the thread that holds ts */
    atomic_int stop;     /* a signal handler raised: every thread should stop */
} pk_nogil;

/* Releases the GIL. */
void pk_nogil_begin(pk_nogil *n);

/* Takes the GIL back; returns -1 with the handler's exception set if a poll stopped the work,
 * else 0. */
int pk_nogil_end(pk_nogil *n);

/* From any thread, without the GIL: runs the signal handlers when called on the thread that
 * released the GIL; returns nonzero once a handler raised (the work should stop). */
int pk_nogil_poll(pk_nogil *n);

/* How often long loops poll: after this many bytes of input. */
#define PK_POLL_BYTES ((uint64_t)1 << 20)

/* ---- the types (heap types, PyType_FromModuleAndSpec) ---- */

/* A type's function slot (Py_tp_dealloc...): any function, as void (*)(void), which every
 * function pointer converts to and back. */
typedef void (*pk_fn)(void);
typedef struct pk_fn_slot {
    int slot;
    pk_fn fn;
} pk_fn_slot;

/* What pk_type_new makes a type of. */
typedef struct pk_type_def {
    const char *name; /* "pgnkit._pgnkit.X", a string that lives as long as the program */
    size_t basicsize;
    unsigned flags;
    const pk_fn_slot *fns; /* ended by slot 0 */
    PyMethodDef *methods;
    const char *doc;
} pk_type_def;

/* A new heap type of module m. PyType_Slot holds its function as a void *, to which ISO C
 * converts no function pointer: the slots are written here with memcpy, as POSIX's dlsym makes
 * the two the same size (cli/dynlib.c does the same the other way). */
PyTypeObject *pk_type_new(PyObject *m, const pk_type_def *def);

extern const pk_type_def pk_game_def, pk_reader_def, pk_board_def;

/* zstd_frames(path): the frames of a zstd file (module function, frames.c). */
PyObject *pk_mod_zstd_frames(PyObject *mod, PyObject *path);

/* A new CGame that owns a new empty pgn_game, or NULL with an exception set. */
PyObject *pk_game_new(const pk_state *s);

/* Gives the CGame game the pgn_game g (its own is freed): a game taken from the parallel
 * reader. */
void pk_game_adopt(PyObject *game, pgn_game *g);

/* The pgn_game of a CGame (a borrowed pointer, valid while the object lives). */
pgn_game *pk_game_of(PyObject *game);

#endif
