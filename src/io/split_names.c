/* SPDX-License-Identifier: MIT */
/* A split's file names (include/pgnkit/split.h; from cli/split_names.c and cli/split_files.c,
 * issue 29 point 3): the pattern with {n}, {value} and {TAG} replaced by safe forms of the game's
 * values, made unique among the names given out, the directories they name created; and whether
 * a pattern without values could name a given file (the pattern as a glob over resolved paths).
 * POSIX (mkdir, realpath, fnmatch); the buffers are on the stack, bounded by the pattern's limit.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "split_int.h"

#include "../base/alloc.h"
#include "../base/errtext.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct name_buf {
    char p[PGNK_SPLIT_NAME_MAX];
    size_t len;
} name_buf;

static void put(name_buf *b, const char *s, size_t len) {
    len = len < sizeof b->p - 1 - b->len ? len : sizeof b->p - 1 - b->len;
    memcpy(b->p + b->len, s, len);
    b->len += len;
    b->p[b->len] = 0;
}

/* Appends the safe form of value (len bytes; SIZE_MAX: none) to b: see split.h. */
static void put_safe(name_buf *b, const char *value, size_t len) {
    if (len == SIZE_MAX) {
        len = 0;
    }
    if (len > PGN_SPLIT_VALUE_MAX) {
        len = PGN_SPLIT_VALUE_MAX;
        while (len > 0 && ((unsigned char)value[len] & 0xc0) == 0x80) {
            len--; /* never cut a UTF-8 sequence */
        }
    }
    if (len == 0) {
        put(b, "_", 1);
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)value[i];
        int bad = c == '/' || c == '\\' || c < 0x20 || c == 0x7f || (i == 0 && c == '.');
        put(b, bad ? "_" : value + i, 1);
    }
}

/* The pattern with {n}, {value} and {TAG} replaced, for file number n of the current value. */
static void expand(const pgn_split *s, uint64_t n, name_buf *b) {
    b->len = 0;
    b->p[0] = 0;
    for (const char *p = s->pattern; *p;) {
        const char *open = strchr(p, '{'), *close = open ? strchr(open, '}') : NULL;
        if (!close) {
            put(b, p, strlen(p));
            break;
        }
        put(b, p, (size_t)(open - p));
        size_t len = (size_t)(close - open - 1);
        if (len == 1 && open[1] == 'n') {
            char num[24];
            put(b, num, (size_t)snprintf(num, sizeof num, "%llu", (unsigned long long)n));
        } else if (len == 5 && memcmp(open + 1, "value", 5) == 0) {
            put_safe(b, s->by >= 0 ? s->val[s->by] : "", s->by >= 0 ? s->len[s->by] : 0);
        } else {
            for (size_t i = 0; i < s->nfields; i++) {
                if (strlen(s->field[i]) == len && memcmp(s->field[i], open + 1, len) == 0) {
                    put_safe(b, s->val[i], s->len[i]);
                }
            }
        }
        p = close + 1;
    }
}

/* Makes b a name no earlier file has: name~2.ext, name~3.ext, ... (before the last '.'). */
static int make_unique(pgn_split *s, name_buf *b) {
    pgn_tally_item *it = pgn_tally_get(s->names, b->p, b->len);
    if (!it) {
        return 0;
    }
    if (it->n++ == 0) {
        return 1;
    }
    name_buf base = *b;
    char *slash = strrchr(base.p, '/'), *dot = strrchr(base.p, '.');
    size_t stem = dot && (!slash || dot > slash) && dot != (slash ? slash + 1 : base.p)
                      ? (size_t)(dot - base.p)
                      : base.len;
    for (uint64_t k = 2;; k++) {
        char num[24];
        b->len = 0;
        put(b, base.p, stem);
        put(b, num, (size_t)snprintf(num, sizeof num, "~%llu", (unsigned long long)k));
        put(b, base.p + stem, base.len - stem);
        if (!(it = pgn_tally_get(s->names, b->p, b->len))) {
            return 0;
        }
        if (it->n++ == 0) {
            return 1;
        }
    }
}

/* Notes directory dir as made (removed again if nothing is written); 0 when out of memory. */
static int made_dir(pgn_split *s, const char *dir) {
    size_t n = strlen(dir) + 1;
    char *copy = pgnk_malloc(&s->alloc, n);
    if (!copy ||
        !pgnk_grow(&s->alloc, (void **)&s->dirs, &s->capdirs, s->ndirs + 1, sizeof *s->dirs, 8)) {
        pgnk_free(&s->alloc, copy);
        return 0;
    }
    memcpy(copy, dir, n);
    s->dirs[s->ndirs++] = copy;
    return 1;
}

/* Creates the directories of path (those of the pattern: values hold no '/'). */
static pgn_status make_dirs(pgn_split *s, const char *path) {
    char dir[PGNK_SPLIT_NAME_MAX], why[64];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = 0;
        if (mkdir(dir, 0777) == 0) {
            if (!made_dir(s, dir)) {
                return PGN_E_NOMEM;
            }
        } else if (errno != EEXIST) {
            snprintf(s->err_name, sizeof s->err_name, "%s", dir);
            snprintf(s->msg, sizeof s->msg, "cannot create: %s", pgnk_errno_text(errno, why));
            return PGN_E_IO;
        }
        *p = '/';
    }
    return PGN_OK;
}

char *pgnk_split_path(pgn_split *s, uint64_t n, pgn_status *st) {
    name_buf b;
    expand(s, n, &b);
    *st = make_unique(s, &b) ? make_dirs(s, b.p) : PGN_E_NOMEM;
    char *path = *st == PGN_OK ? pgnk_malloc(&s->alloc, b.len + 1) : NULL;
    if (path) {
        memcpy(path, b.p, b.len + 1);
    } else if (*st == PGN_OK) {
        *st = PGN_E_NOMEM;
    }
    return path;
}

enum { RESOLVED_MAX = PATH_MAX + PGN_SPLIT_PATTERN_MAX + 2 };

/* The real path of the directory of path up to byte cut (the last '/' before it; none: ".")
 * joined with the rest of path, into out; 0 when that directory does not exist. */
static int resolve_dir(const char *path, size_t cut, char out[RESOLVED_MAX]) {
    size_t d = cut;
    while (d > 0 && path[d - 1] != '/') {
        d--;
    }
    char dir[PATH_MAX], real[PATH_MAX];
    if (d >= sizeof dir || strlen(path + d) > PGN_SPLIT_PATTERN_MAX) {
        return 0;
    }
    snprintf(dir, sizeof dir, "%.*s", d ? (int)d : 1, d ? path : ".");
    if (!realpath(dir, real)) {
        return 0;
    }
    snprintf(out, RESOLVED_MAX, "%s/%s", strcmp(real, "/") == 0 ? "" : real, path + d);
    return 1;
}

/* Pattern p as a glob into g: each {field} a '*', a glob character escaped; a '*' before the
 * last '.' of the name too when tilde is set (the names numbered apart: name~2.pgn). */
static void pattern_glob(const char *p, int tilde, char g[2 * RESOLVED_MAX]) {
    char *o = g;
    const char *slash = strrchr(p, '/'), *dot = strrchr(p, '.');
    if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : p)) {
        dot = p + strlen(p);
    }
    for (;; p++) {
        if (tilde && p == dot) {
            *o++ = '*';
        }
        if (!*p) {
            break;
        }
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (close) {
            *o++ = '*';
            p = close;
            continue;
        }
        if (strchr("*?[\\", *p)) {
            *o++ = '\\';
        }
        *o++ = *p;
    }
    *o = 0;
}

int pgn_split_may_name(const pgn_split *s, const char *path) {
    if (s->nfields > (s->by >= 0 ? 1u : 0u) || strstr(s->pattern, "{value}")) {
        return 0; /* names from tag values: the caller checks them before they are put in place */
    }
    const char *field = strchr(s->pattern, '{');
    char where[RESOLVED_MAX], name[RESOLVED_MAX], glob[2 * RESOLVED_MAX];
    if (!resolve_dir(s->pattern, field ? (size_t)(field - s->pattern) : strlen(s->pattern),
                     where) ||
        !resolve_dir(path, strlen(path), name)) {
        return 0;
    }
    for (int tilde = 0; tilde < 2; tilde++) {
        pattern_glob(where, tilde, glob);
        if (fnmatch(glob, name, FNM_PATHNAME) == 0) {
            return 1;
        }
    }
    return 0;
}
