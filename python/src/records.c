/* SPDX-License-Identifier: MIT */
/* The named records pgnkit._pgnkit hands to Python (structseq types, made per module: a record is
 * a tuple whose items are also attributes, as os.stat_result), and the diagnostics of a read,
 * collected in C while the GIL is released and made into records after. */
#include "pk.h"

#include <string.h>

/* Field lists, one per pk_record (in its order). */
static PyStructSequence_Field game_fields[] = {
    {"game", "the CGame (None for a game where= did not select)"},
    {"diagnostics", "the game's diagnostics (Diagnostic records)"},
    {"ordinal", "the game's 1-based number in its text"},
    {"offset", "the byte offset of its first byte"},
    {"end", "the byte offset where the next game starts"},
    {"broken", "an error cut the game short"},
    {"errors", "its number of errors"},
    {NULL, NULL}};
static PyStructSequence_Field diag_fields[] = {{"code", "the status name (E_ILLEGAL_MOVE...)"},
                                               {"severity", "error or warning"},
                                               {"line", "1-based line"},
                                               {"column", "1-based column, in bytes"},
                                               {"offset", "byte offset in the text"},
                                               {"game", "the game's 1-based number"},
                                               {"token", "the offending text"},
                                               {"suggestions", "the moves likely meant (tuple)"},
                                               {"replacement", "the move played (--fix) or None"},
                                               {NULL, NULL}};
static PyStructSequence_Field check_fields[] = {{"diagnostics", "every diagnostic read"},
                                                {"games", "games read"},
                                                {"errors", "errors counted"},
                                                {"warnings", "warnings counted"},
                                                {NULL, NULL}};
static PyStructSequence_Field line_fields[] = {{"san", "moves in SAN"},
                                               {"uci", "moves in UCI"},
                                               {"fens", "the FEN after each move"},
                                               {"comments", "the comment after each move or None"},
                                               {"nags", "a tuple of NAGs per move"},
                                               {"clocks", "[%clk] per move, in seconds, or None"},
                                               {"evals", "[%eval] per move as (kind, n), or None"},
                                               {NULL, NULL}};
static PyStructSequence_Field column_fields[] = {
    {"name", "the tag name"},
    {"kind", "s: str values and int32 codes; i: int64 values; d: int64 days since 1970"},
    {"values", "s: the distinct values (a list of str); else None"},
    {"data", "a bytearray: the int32 codes (-1: no such tag), int64 values or days (NaT)"},
    {"mask", "i: a bytearray of bools, 1 where missing or not an integer; else None"},
    {NULL, NULL}};
static PyStructSequence_Field columns_fields[] = {{"rows", "the number of games"},
                                                  {"columns", "TagColumn records, in order"},
                                                  {"parts", "the number of parts read"},
                                                  {NULL, NULL}};

static PyStructSequence_Field frame_fields[] = {
    {"offset", "where the frame starts in the file"},
    {"size", "its bytes in the file"},
    {"text_offset", "where its text starts in the decoded text"},
    {"text_size", "its bytes of decoded text (0: a skippable frame)"},
    {"line", "the line of its text's first byte"},
    {"skippable", "a skippable frame (no text)"},
    {NULL, NULL}};

static PyStructSequence_Desc descs[PK_REC_COUNT] = {
    {"pgnkit._pgnkit.GameRecord", "a game read", game_fields, 7},
    {"pgnkit._pgnkit.DiagRecord", "a diagnostic", diag_fields, 9},
    {"pgnkit._pgnkit.CheckRecord", "what check_all read", check_fields, 4},
    {"pgnkit._pgnkit.MainLine", "the parts of a main line (None: not asked for)", line_fields, 7},
    {"pgnkit._pgnkit.TagColumn", "a column of tags", column_fields, 5},
    {"pgnkit._pgnkit.TagColumns", "the tags of a source as columns", columns_fields, 3},
    {"pgnkit._pgnkit.Frame", "a frame of a zstd file", frame_fields, 6}};

int pk_records_init(pk_state *s) {
    for (int i = 0; i < PK_REC_COUNT; i++) {
        if (!(s->rec[i] = PyStructSequence_NewType(&descs[i]))) {
            return -1;
        }
    }
    return 0;
}

Py_ssize_t pk_record_size(pk_record kind) {
    return descs[kind].n_in_sequence;
}

PyObject *pk_record_new(const pk_state *s, pk_record kind, PyObject *const *items) {
    Py_ssize_t n = pk_record_size(kind);
    int bad = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        bad |= items[i] == NULL;
    }
    PyObject *r = bad ? NULL : PyStructSequence_New(s->rec[kind]);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (r) {
            PyStructSequence_SetItem(r, i, items[i]);
        } else {
            Py_XDECREF(items[i]);
        }
    }
    return r || PyErr_Occurred() ? r : PyErr_NoMemory();
}

void pk_diags_collect(void *ctx, const pgn_diag *d) {
    pk_diags *l = ctx;
    pgn_diag r = *d;
    r.source = NULL;
    r.token[sizeof r.token - 1] = '\0';
    if (pgn_membuf_write(&l->buf, &r, sizeof r) < 0) {
        l->oom = 1;
    }
}

size_t pk_diags_count(const pk_diags *l) {
    return l->buf.len / sizeof(pgn_diag);
}

/* "Bb5 Bc4" as ("Bb5", "Bc4") (docs/repair.md); NULL on no memory */
static PyObject *suggestions_tuple(const char *text) {
    PyObject *list = PyList_New(0);
    for (const char *p = text; list && *p;) {
        size_t n = strcspn(p, " ");
        PyObject *one = PyUnicode_FromStringAndSize(p, (Py_ssize_t)n);
        if (!one || PyList_Append(list, one) < 0) {
            Py_XDECREF(one);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(one);
        p += n + (p[n] == ' ');
    }
    PyObject *t = list ? PyList_AsTuple(list) : NULL;
    Py_XDECREF(list);
    return t;
}

static PyObject *diag_record(const pk_state *s, const pgn_diag *d) {
    PyObject *items[] = {PyUnicode_FromString(pgn_status_name(d->code)),
                         PyUnicode_FromString(d->severity == PGN_SEV_ERROR ? "error" : "warning"),
                         PyLong_FromUnsignedLong(d->at.line),
                         PyLong_FromUnsignedLong(d->at.column),
                         PyLong_FromUnsignedLongLong(d->at.offset),
                         PyLong_FromUnsignedLongLong(d->game),
                         PyUnicode_DecodeUTF8(d->token, (Py_ssize_t)strlen(d->token), "replace"),
                         suggestions_tuple(d->suggestions),
                         d->replacement[0] ? PyUnicode_FromString(d->replacement)
                                           : Py_NewRef(Py_None)};
    return pk_record_new(s, PK_REC_DIAG, items);
}

PyObject *pk_diags_list(const pk_state *s, const pk_diags *l, size_t from) {
    size_t n = pk_diags_count(l);
    PyObject *out = PyList_New(from < n ? (Py_ssize_t)(n - from) : 0);
    for (size_t i = from; out && i < n; i++) {
        pgn_diag d;
        memcpy(&d, l->buf.ptr + i * sizeof d, sizeof d);
        PyObject *r = diag_record(s, &d);
        if (!r) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)(i - from), r);
    }
    return out;
}
