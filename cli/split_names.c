/* SPDX-License-Identifier: MIT */
/* pgnkit split's file names: the pattern with {n}, {value} and {TAG} replaced by safe forms of
 * the game's values, made unique among the names given out, and the directories they name
 * created. The games and the files are in cmd_split.c. */
#define _POSIX_C_SOURCE 200809L
#include "split.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A file name being built: the pattern is at most PATTERN_MAX bytes and each value at most
 * VALUE_MAX, so it always fits. */
typedef struct name_buf {
    char p[PATTERN_MAX + MAX_FIELDS * (VALUE_MAX + 8) + 64];
    size_t len;
} name_buf;

static void put(name_buf *b, const char *s, size_t len) {
    len = len < sizeof b->p - 1 - b->len ? len : sizeof b->p - 1 - b->len;
    memcpy(b->p + b->len, s, len);
    b->len += len;
    b->p[b->len] = 0;
}

/* Appends the safe form of value (len bytes; SIZE_MAX: none) to b: see usage_text. */
static void put_safe(name_buf *b, const char *value, size_t len) {
    if (len == SIZE_MAX) {
        len = 0;
    }
    if (len > VALUE_MAX) {
        len = VALUE_MAX;
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

/* The pattern with {n}, {value} and {TAG} replaced, for file number n of the value at by. */
static void expand(const split_state *s, uint64_t n, int by, name_buf *b) {
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
            put_safe(b, by >= 0 ? s->val[by] : "", by >= 0 ? s->len[by] : 0);
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
static int make_unique(split_state *s, name_buf *b) {
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

/* Notes directory dir as made by this run (removed again if nothing is written). */
static void made_dir(split_state *s, const char *dir) {
    char **d = realloc(s->dirs, (s->ndirs + 1) * sizeof *d);
    if (d) {
        s->dirs = d;
        if ((d[s->ndirs] = strdup(dir)) != NULL) {
            s->ndirs++;
        }
    }
}

/* Creates the directories of path (those of the pattern: values hold no '/'). */
static int make_dirs(split_state *s, const char *path) {
    char dir[sizeof(((name_buf *)0)->p)];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = 0;
        if (mkdir(dir, 0777) == 0) {
            made_dir(s, dir);
        } else if (errno != EEXIST) {
            cli_error(dir, "cannot create: %s", strerror(errno));
            return 0;
        }
        *p = '/';
    }
    return 1;
}

char *split_path(split_state *s, uint64_t n, int by) {
    name_buf b;
    expand(s, n, by, &b);
    char *path = make_unique(s, &b) && make_dirs(s, b.p) ? malloc(b.len + 1) : NULL;
    if (path) {
        memcpy(path, b.p, b.len + 1);
    }
    return path;
}
