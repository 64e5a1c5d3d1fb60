/* SPDX-License-Identifier: MIT */
/* Scan mode: the tags of each game as a dict (pgnkit.scan_tags; issue 29 point 4). Games are
 * scanned a batch at a time without the GIL into one buffer, then each next() makes one dict: tag
 * names and frequent values come from small caches of str objects (a name or a value is decoded
 * once, not once a game), and a game whose names are the last new dict's, in the same order (game
 * after game in most files), starts as a copy of that dict (no table to grow) whose values are then
 * replaced. */
#include "tagdicts.h"

#include <string.h>

#include "strtab.h"

enum {
    BATCH_GAMES = 64,
    BATCH_BYTES = 1 << 17,
    NAME_SLOTS = 64,
    VALUE_SLOTS = 1024,
    KEY_MAX = 40,     /* longer strings are not cached */
    TEMPLATE_MAX = 64 /* a game with more tags is built without the template */
};

/* A cache slot: a str and the bytes it was decoded from. */
typedef struct cached {
    PyObject *str;
    uint32_t hash;
    uint8_t len;
    char key[KEY_MAX];
} cached;

struct pk_tagdicts {
    pgn_membuf buf;  /* (size_t length, bytes) of each name, then of its value, game after game */
    pgn_membuf ends; /* a size_t per game of the batch: where its pairs end in buf */
    size_t next;     /* the next game of the batch to give */
    size_t at;       /* where its pairs start */
    pgn_status end;  /* how the batch's read ended: PGN_OK, more to read */
    int oom;
    PyObject *tmpl; /* a copy of the last dict made new (never given out: its keys stay) */
    PyObject *tmpl_keys[TEMPLATE_MAX]; /* its keys, in order (borrowed from it) */
    size_t ntmpl;
    cached names[NAME_SLOTS], values[VALUE_SLOTS];
    cached at_name[TEMPLATE_MAX], at_value[TEMPLATE_MAX]; /* the strs of the last game's tag k */
};

pk_tagdicts *pk_tagdicts_new(void) {
    pk_tagdicts *t = PyMem_Calloc(1, sizeof *t);
    if (t) {
        t->end = PGN_OK;
    }
    return t;
}

void pk_tagdicts_free(pk_tagdicts *t) {
    if (!t) {
        return;
    }
    pgn_membuf_free(&t->buf);
    pgn_membuf_free(&t->ends);
    Py_XDECREF(t->tmpl);
    for (size_t i = 0; i < NAME_SLOTS; i++) {
        Py_XDECREF(t->names[i].str);
    }
    for (size_t i = 0; i < VALUE_SLOTS; i++) {
        Py_XDECREF(t->values[i].str);
    }
    for (size_t i = 0; i < TEMPLATE_MAX; i++) {
        Py_XDECREF(t->at_name[i].str);
        Py_XDECREF(t->at_value[i].str);
    }
    PyMem_Free(t);
}

/* Appends a pair to t's buffer: its two lengths, then its name's and its value's bytes (a short
 * pair in one write, one growth check). */
static pgn_flow keep_tag(void *user, pgn_str name, pgn_str value) {
    pk_tagdicts *t = user;
    size_t lens[2] = {name.len, value.len};
    char pair[256];
    int bad;
    if (sizeof lens + name.len + value.len <= sizeof pair) {
        memcpy(pair, lens, sizeof lens);
        memcpy(pair + sizeof lens, name.ptr, name.len);
        memcpy(pair + sizeof lens + name.len, value.ptr, value.len);
        bad = pgn_membuf_write(&t->buf, pair, sizeof lens + name.len + value.len) < 0;
    } else {
        bad = pgn_membuf_write(&t->buf, lens, sizeof lens) < 0 ||
              pgn_membuf_write(&t->buf, name.ptr, name.len) < 0 ||
              pgn_membuf_write(&t->buf, value.ptr, value.len) < 0;
    }
    if (bad) {
        t->oom = 1;
        return PGN_FLOW_STOP;
    }
    return PGN_FLOW_CONTINUE;
}

/* Scans the next batch of games into t (without the GIL). */
static void fill(pk_tagdicts *t, pgn_reader *r, pk_diags *diags) {
    static const pgn_visitor v = {NULL, keep_tag, pk_skip_movetext, NULL, NULL, NULL, NULL,
                                  NULL, NULL};
    t->buf.len = t->ends.len = 0;
    t->next = t->at = 0;
    for (size_t games = 0; games < BATCH_GAMES && t->buf.len < BATCH_BYTES; games++) {
        diags->buf.len = 0; /* each game's, as one next() a game keeps them */
        size_t mark = t->buf.len;
        pgn_status st = pgn_reader_visit(r, &v, t);
        st = t->oom ? PGN_E_NOMEM : st;
        if (st != PGN_OK && st != PGN_E_LIMIT) {
            t->buf.len = mark;
            t->end = st;
            return;
        }
        size_t end = t->buf.len;
        if (pgn_membuf_write(&t->ends, &end, sizeof end) < 0) {
            t->end = PGN_E_NOMEM;
            return;
        }
    }
}

/* The next pair of t's buffer at *i (its two lengths, then its name's and its value's bytes). */
static void next_pair(const pk_tagdicts *t, size_t *i, pgn_str *name, pgn_str *value) {
    size_t lens[2];
    memcpy(lens, t->buf.ptr + *i, sizeof lens);
    name->ptr = t->buf.ptr + *i + sizeof lens;
    name->len = lens[0];
    value->ptr = name->ptr + lens[0];
    value->len = lens[1];
    *i += sizeof lens + lens[0] + lens[1];
}

/* 1 if c holds the str of s (short strings compared in line: memcmp would be a call). */
static int holds(const cached *c, pgn_str s) {
    if (!c->str || c->len != s.len) {
        return 0;
    }
    size_t i = 0;
    for (; i + 8 <= s.len; i += 8) {
        uint64_t a, b;
        memcpy(&a, c->key + i, 8);
        memcpy(&b, s.ptr + i, 8);
        if (a != b) {
            return 0;
        }
    }
    for (; i < s.len; i++) {
        if (c->key[i] != s.ptr[i]) {
            return 0;
        }
    }
    return 1;
}

static void keep(cached *c, PyObject *o, pgn_str s) {
    Py_XSETREF(c->str, Py_NewRef(o));
    c->len = (uint8_t)s.len;
    memcpy(c->key, s.ptr, s.len);
}

/* A new str of s: an ASCII one copied into a str made at its size (no decoder), else decoded as
 * UTF-8 with U+FFFD for what is not (pk_str). */
static PyObject *new_str(pgn_str s) {
    uint64_t high = 0;
    size_t i = 0;
    for (; i + 8 <= s.len; i += 8) {
        uint64_t w;
        memcpy(&w, s.ptr + i, 8);
        high |= w;
    }
    for (; i < s.len; i++) {
        high |= (unsigned char)s.ptr[i];
    }
    if (high & 0x8080808080808080u) {
        return pk_str(s);
    }
    PyObject *o = PyUnicode_New((Py_ssize_t)s.len, 127);
    if (o && s.len) {
        memcpy(PyUnicode_DATA(o), s.ptr, s.len);
    }
    return o;
}

/* The str of s (a new reference): the one at (the str of the last game's tag at the same place:
 * Event, Site, Result... come in the same order game after game), else from the cache of n
 * slots, else decoded; at and the cache then keep it (a short one). */
static PyObject *str_of(cached *at, cached *slots, size_t n, pgn_str s) {
    if (holds(at, s)) {
        return Py_NewRef(at->str);
    }
    if (s.len > KEY_MAX) {
        return new_str(s);
    }
    cached *c = &slots[pk_hash_bytes(s.ptr, s.len) & (n - 1)];
    if (holds(c, s)) {
        keep(at, c->str, s);
        return Py_NewRef(c->str);
    }
    PyObject *o = new_str(s);
    if (o) {
        keep(c, o, s);
        keep(at, o, s);
    }
    return o;
}

/* Sets d[name] = value for each pair of [from, to); names, if not NULL, holds the first names
 * made already (n of them). 0, or -1 with an exception set. */
static int set_pairs(pk_tagdicts *t, PyObject *d, size_t from, size_t to, PyObject *const *names,
                     size_t n) {
    int bad = 0;
    for (size_t i = from, k = 0; i < to && !bad; k++) {
        pgn_str name, value;
        next_pair(t, &i, &name, &value);
        cached *at = k < TEMPLATE_MAX ? &t->at_value[k] : &t->at_value[TEMPLATE_MAX - 1];
        PyObject *key = k < n ? Py_NewRef(names[k])
                              : str_of(&t->at_name[TEMPLATE_MAX - 1], t->names, NAME_SLOTS, name);
        PyObject *val = key ? str_of(at, t->values, VALUE_SLOTS, value) : NULL;
        bad = !val || PyDict_SetItem(d, key, val) < 0;
        Py_XDECREF(key);
        Py_XDECREF(val);
    }
    return bad ? -1 : 0;
}

/* Makes d, a new dict of n keys (all its names), the template. 0, or -1 with an exception. */
static int new_template(pk_tagdicts *t, PyObject *d, size_t n) {
    PyObject *copy = PyDict_Copy(d), *key;
    if (!copy) {
        return -1;
    }
    Py_XSETREF(t->tmpl, copy);
    Py_ssize_t pos = 0;
    for (t->ntmpl = 0; t->ntmpl < n && PyDict_Next(copy, &pos, &key, NULL); t->ntmpl++) {
        t->tmpl_keys[t->ntmpl] = key;
    }
    return 0;
}

/* The dict of the pairs [from, to) of t's buffer. */
static PyObject *dict_of(pk_tagdicts *t, size_t from, size_t to) {
    PyObject *names[TEMPLATE_MAX], *d = NULL;
    size_t n = 0, i = from;
    while (i < to && n < TEMPLATE_MAX) {
        pgn_str name, value;
        next_pair(t, &i, &name, &value);
        if (!(names[n] = str_of(&t->at_name[n], t->names, NAME_SLOTS, name))) {
            break;
        }
        n++;
    }
    /* the names are the template's keys, in order */
    int same = t->tmpl && i == to && n == t->ntmpl;
    for (size_t k = 0; same && k < n; k++) {
        same = names[k] == t->tmpl_keys[k];
    }
    if (!PyErr_Occurred()) {
        d = same ? PyDict_Copy(t->tmpl) : PyDict_New();
    }
    if (d && set_pairs(t, d, from, to, names, n) < 0) {
        Py_CLEAR(d);
    }
    /* a dict without a duplicate name (one key a pair) is the next template */
    if (d && !same && i == to && (size_t)PyDict_GET_SIZE(d) == n && new_template(t, d, n) < 0) {
        Py_CLEAR(d);
    }
    for (size_t k = 0; k < n; k++) {
        Py_DECREF(names[k]);
    }
    return d;
}

PyObject *pk_tagdicts_next(pk_tagdicts *t, pgn_reader *r, pk_diags *diags, pgn_status *st) {
    if (t->next * sizeof(size_t) == t->ends.len) {
        if (t->end != PGN_OK) {
            *st = t->end;
            return NULL;
        }
        Py_BEGIN_ALLOW_THREADS
        fill(t, r, diags);
        Py_END_ALLOW_THREADS
        if (t->ends.len == 0) {
            *st = t->end;
            return NULL;
        }
    }
    size_t end;
    memcpy(&end, t->ends.ptr + t->next++ * sizeof end, sizeof end);
    PyObject *d = dict_of(t, t->at, end);
    t->at = end;
    *st = PGN_OK;
    return d;
}

int pk_tagdicts_pending(const pk_tagdicts *t) {
    return t && t->next * sizeof(size_t) < t->ends.len;
}
