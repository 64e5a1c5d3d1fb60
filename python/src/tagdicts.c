/* SPDX-License-Identifier: MIT */
/* Scan mode: the tags of each game as a dict (pgnkit.scan_tags; issue 29 point 4). Games are
 * scanned a batch at a time without the GIL into one buffer, then each next() makes one dict: tag
 * names and frequent values come from small caches of str objects (a name or a value is decoded
 * once, not once a game), and a game whose names are the last new dict's, in the same order (game
 * after game in most files), starts as a copy of that dict (no table to grow) in which the values
 * that differ from its own are then replaced. */
#include "tagdicts.h"

#include <string.h>

#include "strtab.h"

enum {
    BATCH_GAMES = 64,
    BATCH_BYTES = 1 << 17,
    NAME_SLOTS = 64,
    NAME_PROBES = 4,
    VALUE_SETS = 2048, /* of 2 slots */
    VALUE_SLOTS = 2 * VALUE_SETS,
    KEY_MAX = 40,      /* longer strings are not cached */
    TEMPLATE_MAX = 64, /* a game with more tags is built without a template */
    TEMPLATES = 8,     /* templates kept (the tag sets of a file) */
    USES_MAX = 1024,   /* a template's uses, at which all are halved */
    STALE_MIN = 2      /* values set again that make a template anew (a Result is one) */
};

/* A cache slot: a str and the bytes it was decoded from. */
typedef struct cached {
    PyObject *str;
    uint32_t hash;
    uint8_t len;
    char key[KEY_MAX];
} cached;

/* Where a game's pairs end in the buffer, and the signature of its names (their lengths and
 * first and last bytes, in order), made as they are scanned: the first test of a template. */
typedef struct game_end {
    size_t end;
    uint64_t sig;
} game_end;

/* A dict made new, kept as the start of the later games that have its names in its order (files
 * mix a few tag sets: with and without titles, teams...). */
typedef struct template {
    PyObject *dict;               /* a private copy (never given out: its keys stay) */
    PyObject *keys[TEMPLATE_MAX]; /* its keys, in order (borrowed from it) */
    size_t n;                     /* 0: an empty slot */
    uint64_t sig;                 /* the signature of its names */
    uint32_t uses;                /* games made from it (halved now and then) */
    cached value[TEMPLATE_MAX];   /* the bytes of its values (str: None; none when long) */
}
template;

struct pk_tagdicts {
    pgn_membuf buf;  /* (size_t length, bytes) of each name, then of its value, game after game */
    pgn_membuf ends; /* a game_end per game of the batch */
    uint64_t sig;    /* the names' signature of the game being scanned */
    size_t next;     /* the next game of the batch to give */
    size_t at;       /* where its pairs start */
    pgn_status end;  /* how the batch's read ended: PGN_OK, more to read */
    int oom;
    template tmpl[TEMPLATES];
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
    for (size_t i = 0; i < TEMPLATES; i++) {
        Py_XDECREF(t->tmpl[i].dict);
        for (size_t k = 0; k < TEMPLATE_MAX; k++) {
            Py_XDECREF(t->tmpl[i].value[k].str);
        }
    }
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

/* Appends a pair to t's buffer: its two lengths, then its name's and its value's bytes, copied in
 * line into the buffer's room when it has enough (the path of nearly every pair), else written
 * through pgn_membuf_write, which grows it. */
static pgn_flow keep_tag(void *user, pgn_str name, pgn_str value) {
    pk_tagdicts *t = user;
    size_t lens[2] = {name.len, value.len};
    t->sig = (t->sig ^ name.len ^
              (name.len ? (uint64_t)(unsigned char)name.ptr[0] << 16 |
                              (uint64_t)(unsigned char)name.ptr[name.len - 1] << 24
                        : 0)) *
             0x9E3779B97F4A7C15u;
    pgn_membuf *b = &t->buf;
    if (b->cap - b->len > sizeof lens && b->cap - b->len - sizeof lens >= name.len &&
        b->cap - b->len - sizeof lens - name.len >= value.len) {
        char *p = b->ptr + b->len;
        memcpy(p, lens, sizeof lens);
        pk_copy_short(p + sizeof lens, name.ptr, name.len);
        pk_copy_short(p + sizeof lens + name.len, value.ptr, value.len);
        b->len += sizeof lens + name.len + value.len;
    } else if (pgn_membuf_write(b, lens, sizeof lens) < 0 ||
               pgn_membuf_write(b, name.ptr, name.len) < 0 ||
               pgn_membuf_write(b, value.ptr, value.len) < 0) {
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
        t->sig = 0;
        pgn_status st = pgn_reader_visit(r, &v, t);
        st = t->oom ? PGN_E_NOMEM : st;
        if (st != PGN_OK && st != PGN_E_LIMIT) {
            t->buf.len = mark;
            t->end = st;
            return;
        }
        game_end end = {t->buf.len, t->sig};
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

/* 1 if c holds the str of s. */
static int holds(const cached *c, pgn_str s) {
    return c->str && c->len == s.len && pk_bytes_eq(c->key, s.ptr, s.len);
}

static void keep(cached *c, PyObject *o, pgn_str s) {
    Py_XSETREF(c->str, Py_NewRef(o));
    c->len = (uint8_t)s.len;
    pk_copy_short(c->key, s.ptr, s.len);
}

PyObject *pk_new_str(pgn_str s) {
    if (!pk_is_ascii(s.ptr, s.len)) {
        return pk_str(s);
    }
    PyObject *o = PyUnicode_New((Py_ssize_t)s.len, 127);
    if (o) {
        pk_copy_short(PyUnicode_DATA(o), s.ptr, s.len);
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
        return pk_new_str(s);
    }
    cached *c = &slots[pk_hash_bytes(s.ptr, s.len) & (n - 1)];
    if (holds(c, s)) {
        keep(at, c->str, s);
        return Py_NewRef(c->str);
    }
    PyObject *o = pk_new_str(s);
    if (o) {
        keep(c, o, s);
        keep(at, o, s);
    }
    return o;
}

/* The str of tag name s (a new reference), as str_of but from a table with up to NAME_PROBES
 * places for each hash, so that a name keeps its str (the templates' keys are matched by
 * identity) unless a file has many more names than the table's slots. */
static PyObject *name_of(pk_tagdicts *t, cached *at, pgn_str s) {
    if (holds(at, s) || s.len > KEY_MAX) {
        return str_of(at, t->names, NAME_SLOTS, s);
    }
    uint32_t h = pk_hash_bytes(s.ptr, s.len);
    cached *c = NULL;
    for (uint32_t p = 0; p < NAME_PROBES; p++) {
        c = &t->names[(h + p) & (NAME_SLOTS - 1)];
        if (!c->str || holds(c, s)) {
            break;
        }
    }
    if (!c->str || !holds(c, s)) { /* an empty slot, else the last probed: made anew */
        PyObject *o = pk_new_str(s);
        if (!o) {
            return NULL;
        }
        keep(c, o, s);
        Py_DECREF(o);
    }
    keep(at, c->str, s);
    return Py_NewRef(c->str);
}

/* The str of value s (a new reference) of the tag whose last str is last's: that one when last
 * holds s (same, known already), else from the value cache (sets of two slots, the one found
 * last first: the players' names, ratings, rounds... of a file come back game after game), else
 * made anew and kept there (a short one); last then keeps it. */
static PyObject *value_of(pk_tagdicts *t, cached *last, pgn_str s, int same) {
    if (same) {
        return Py_NewRef(last->str);
    }
    if (s.len > KEY_MAX) {
        return pk_new_str(s);
    }
    cached *set = &t->values[(pk_hash_bytes(s.ptr, s.len) & (VALUE_SETS - 1)) * 2];
    if (!holds(&set[0], s)) {
        PyObject *o = holds(&set[1], s) ? Py_NewRef(set[1].str) : pk_new_str(s);
        if (!o) {
            return NULL;
        }
        Py_XDECREF(set[1].str);
        set[1] = set[0]; /* the slot found first goes second (the second's str is dropped) */
        set[0].str = NULL;
        keep(&set[0], o, s);
        Py_DECREF(o);
    }
    keep(last, set[0].str, s);
    return Py_NewRef(set[0].str);
}

/* Sets d[name] = value for each pair of [from, to); names, if not NULL, holds the first names
 * made already (n of them). from, if not NULL, is the template d is a copy of, so that a value
 * that is its value (the same bytes at the same place) is there already; *stale then counts the
 * values set that are the one set last time at their place (a new Event, Site... that later games
 * keep: the template is behind). 0, or -1 with an exception set. */
static int set_pairs(pk_tagdicts *t, PyObject *d, size_t at, size_t to, PyObject *const *names,
                     size_t n, const template *from, int *stale) {
    int bad = 0;
    for (size_t i = at, k = 0; i < to && !bad; k++) {
        pgn_str name, value;
        next_pair(t, &i, &name, &value);
        cached *last = &t->at_value[k < TEMPLATE_MAX ? k : TEMPLATE_MAX - 1];
        if (from && holds(&from->value[k], value)) { /* then k < n <= TEMPLATE_MAX */
            continue;
        }
        int same = holds(last, value);
        if (from) {
            *stale += same;
        }
        /* names[k] borrowed; a later name's str a new reference */
        PyObject *key = k < n ? names[k] : name_of(t, &t->at_name[TEMPLATE_MAX - 1], name);
        PyObject *val = key ? value_of(t, last, value, same) : NULL;
        bad = !val || PyDict_SetItem(d, key, val) < 0;
        if (k >= n) {
            Py_XDECREF(key);
        }
        Py_XDECREF(val);
    }
    return bad ? -1 : 0;
}

/* Makes a copy of d, the dict of the n pairs [at, to) (all its names, each once), template m;
 * same_keys: d is a copy of m's dict with values changed (its keys are m's already). 0, or -1
 * with an exception. */
static int set_template(pk_tagdicts *t, template *m, PyObject *d, size_t at, size_t to, size_t n,
                        uint64_t sig, int same_keys) {
    PyObject *copy = PyDict_Copy(d), *key;
    if (!copy) {
        return -1;
    }
    Py_XSETREF(m->dict, copy); /* (a dict's copy holds the same key objects) */
    m->sig = sig;
    Py_ssize_t pos = 0;
    for (m->n = same_keys ? n : 0; m->n < n && PyDict_Next(copy, &pos, &key, NULL); m->n++) {
        m->keys[m->n] = key;
    }
    for (size_t i = at, k = 0; i < to && k < n; k++) {
        pgn_str name, value;
        next_pair(t, &i, &name, &value);
        if (value.len <= KEY_MAX) {
            keep(&m->value[k], Py_None, value);
        } else {
            Py_CLEAR(m->value[k].str);
        }
    }
    return 0;
}

/* 1 if str o is the ASCII text s. */
static int ascii_is(PyObject *o, pgn_str s) {
    return PyUnicode_IS_COMPACT_ASCII(o) && (size_t)PyUnicode_GET_LENGTH(o) == s.len &&
           pk_bytes_eq(PyUnicode_DATA(o), s.ptr, s.len);
}

/* The template whose keys are the names of the pairs [at, to), in order (its signature sig), or
 * NULL. */
static template *template_of(pk_tagdicts *t, size_t at, size_t to, uint64_t sig) {
    for (size_t j = 0; j < TEMPLATES; j++) {
        template *m = &t->tmpl[j];
        if (!m->n || m->sig != sig) {
            continue;
        }
        size_t i = at, k = 0;
        for (; i < to && k < m->n; k++) {
            pgn_str name, value;
            next_pair(t, &i, &name, &value);
            if (!ascii_is(m->keys[k], name)) {
                break;
            }
        }
        if (i == to && k == m->n) {
            if (++m->uses >= USES_MAX) {
                for (size_t u = 0; u < TEMPLATES; u++) {
                    t->tmpl[u].uses /= 2;
                }
            }
            return m;
        }
    }
    return NULL;
}

/* The slot of a new template: the one used least (a file's rare tag sets take turns in one slot,
 * its frequent ones stay). */
static template *template_slot(pk_tagdicts *t) {
    template *m = &t->tmpl[0];
    for (size_t i = 1; i < TEMPLATES; i++) {
        m = t->tmpl[i].uses < m->uses ? &t->tmpl[i] : m;
    }
    m->uses = 1;
    return m;
}

/* A new dict for about n items. */
static PyObject *new_dict(size_t n) {
#if PY_VERSION_HEX < 0x030D0000
    return _PyDict_NewPresized((Py_ssize_t)n); /* no growth as the pairs are set */
#else
    (void)n;
    return PyDict_New();
#endif
}

/* The dict of the pairs [at, to) of t's buffer, whose names have the signature sig. */
static PyObject *dict_of(pk_tagdicts *t, size_t at, size_t to, uint64_t sig) {
    template *m = template_of(t, at, to, sig);
    if (m) { /* its keys are the names: a copy, and the values that differ from its own */
        int stale = 0;
        PyObject *d = PyDict_Copy(m->dict);
        if (d && (set_pairs(t, d, at, to, m->keys, m->n, m, &stale) < 0 ||
                  (stale >= STALE_MIN && set_template(t, m, d, at, to, m->n, sig, 1) < 0))) {
            Py_CLEAR(d);
        }
        return d;
    }
    PyObject *names[TEMPLATE_MAX] = {NULL}, *d = NULL;
    size_t n = 0, i = at;
    while (i < to && n < TEMPLATE_MAX) {
        pgn_str name, value;
        next_pair(t, &i, &name, &value);
        if (!(names[n] = name_of(t, &t->at_name[n], name))) {
            break;
        }
        n++;
    }
    if (!PyErr_Occurred()) {
        d = new_dict(n);
    }
    if (d && set_pairs(t, d, at, to, names, n, NULL, NULL) < 0) {
        Py_CLEAR(d);
    }
    /* a dict without a duplicate name (one key a pair) is a new template, in the slot used least */
    if (d && i == to && n && (size_t)PyDict_GET_SIZE(d) == n &&
        set_template(t, template_slot(t), d, at, to, n, sig, 0) < 0) {
        Py_CLEAR(d);
    }
    for (size_t k = 0; k < n; k++) {
        Py_DECREF(names[k]);
    }
    return d;
}

PyObject *pk_tagdicts_next(pk_tagdicts *t, pgn_reader *r, pk_diags *diags, pgn_status *st) {
    if (t->next * sizeof(game_end) == t->ends.len) {
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
    game_end end;
    memcpy(&end, t->ends.ptr + t->next++ * sizeof end, sizeof end);
    PyObject *d = dict_of(t, t->at, end.end, end.sig);
    t->at = end.end;
    *st = PGN_OK;
    return d;
}

int pk_tagdicts_pending(const pk_tagdicts *t) {
    return t && t->next * sizeof(game_end) < t->ends.len;
}
