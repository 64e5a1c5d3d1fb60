/* SPDX-License-Identifier: MIT */
/* A split's files (include/pgnkit/split.h; issue 29 point 3, from cli/split_files.c and
 * cli/cmd_split.c): the tags the pattern and --by use, the values noted per game, which file a
 * game goes to (a file per value, numbered on when one is full), and the directories made for
 * the names (split_names.c), removed again when nothing was written. POSIX (rmdir). */
#define _POSIX_C_SOURCE 200809L
#include "split_int.h"

#include "../base/alloc.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The index of field name (len bytes) among the fields, added when new; -1 when full or out of
 * memory. */
static int field_of(pgn_split *s, const char *name, size_t len) {
    for (size_t i = 0; i < s->nfields; i++) {
        if (strlen(s->field[i]) == len && memcmp(s->field[i], name, len) == 0) {
            return (int)i;
        }
    }
    char *copy = s->nfields < PGN_SPLIT_MAX_TAGS ? pgnk_malloc(&s->alloc, len + 1) : NULL;
    if (!copy) {
        return -1;
    }
    memcpy(copy, name, len);
    copy[len] = 0;
    s->field[s->nfields] = copy;
    return (int)s->nfields++;
}

/* Notes the tags the pattern names: NULL, or why it cannot be used. */
static const char *parse_pattern(pgn_split *s) {
    for (const char *p = s->pattern; (p = strchr(p, '{')) != NULL;) {
        const char *end = strchr(p, '}');
        if (!end || end == p + 1) {
            return "a { in the pattern has no name or no }";
        }
        size_t len = (size_t)(end - p - 1);
        int special = (len == 1 && p[1] == 'n') || (len == 5 && memcmp(p + 1, "value", 5) == 0);
        if (!special && field_of(s, p + 1, len) < 0) {
            return "at most 7 tags in the pattern";
        }
        p = end + 1;
    }
    return NULL;
}

/* The split's settings from opts: PGN_OK, or PGN_E_LIMIT with *why, or PGN_E_NOMEM. */
static pgn_status setup(pgn_split *s, const pgn_split_opts *opts, const char **why) {
    const char *pattern = opts->pattern ? opts->pattern
                          : opts->by    ? "{value}.pgn"
                                        : "split-{n}.pgn";
    size_t n = strlen(pattern);
    if (n > PGN_SPLIT_PATTERN_MAX) {
        *why = "the pattern is longer than 1024 bytes";
        return PGN_E_LIMIT;
    }
    if (opts->by && !opts->by[0]) {
        *why = "the tag to split by has no name";
        return PGN_E_LIMIT;
    }
    if (!(s->pattern = pgnk_malloc(&s->alloc, n + 1)) ||
        (opts->by && (s->by = field_of(s, opts->by, strlen(opts->by))) < 0)) {
        return PGN_E_NOMEM;
    }
    memcpy(s->pattern, pattern, n + 1);
    *why = parse_pattern(s);
    return *why ? PGN_E_LIMIT : PGN_OK;
}

pgn_status pgn_split_new(pgn_split **out, const pgn_split_opts *opts, char *msg, size_t cap) {
    pgn_status st = PGN_OK;
    *out = NULL;
    pgn_split *s = pgnk_alloc_object(opts->alloc, sizeof *s, &st);
    if (!s) {
        return st;
    }
    pgnk_alloc_copy(&s->alloc, opts->alloc);
    s->by = -1;
    s->per_file = opts->per_file;
    const char *why = NULL;
    st = pgn_tally_new(&s->keys, opts->alloc);
    st = st == PGN_OK ? pgn_tally_new(&s->names, opts->alloc) : st;
    st = st == PGN_OK ? setup(s, opts, &why) : st;
    if (st != PGN_OK) {
        if (why && msg && cap) {
            snprintf(msg, cap, "%s", why);
        }
        pgn_split_free(s);
        return st;
    }
    pgn_split_begin_game(s);
    *out = s;
    return PGN_OK;
}

void pgn_split_free(pgn_split *s) {
    if (!s) {
        return;
    }
    for (size_t i = 0; i < PGN_SPLIT_MAX_TAGS; i++) {
        pgnk_free(&s->alloc, s->field[i]);
        pgnk_free(&s->alloc, s->val[i]);
    }
    for (size_t i = 0; i < s->nfiles; i++) {
        pgnk_free(&s->alloc, s->files[i].path);
    }
    for (size_t i = 0; i < s->ndirs; i++) {
        pgnk_free(&s->alloc, s->dirs[i]);
    }
    pgnk_free(&s->alloc, s->files);
    pgnk_free(&s->alloc, s->dirs);
    pgnk_free(&s->alloc, s->pattern);
    pgn_tally_free(s->keys);
    pgn_tally_free(s->names);
    pgn_allocator alloc = s->alloc;
    pgnk_free(&alloc, s);
}

const char *pgn_split_pattern(const pgn_split *s) {
    return s->pattern;
}

void pgn_split_begin_game(pgn_split *s) {
    for (size_t i = 0; i < s->nfields; i++) {
        s->len[i] = SIZE_MAX; /* not seen */
    }
}

pgn_status pgn_split_tag(pgn_split *s, pgn_str name, pgn_str value) {
    for (size_t i = 0; i < s->nfields; i++) {
        int year = strcmp(s->field[i], "Year") == 0;
        const char *want = year ? "Date" : s->field[i];
        if (name.len != strlen(want) || memcmp(name.ptr, want, name.len) != 0) {
            continue;
        }
        size_t len = year && value.len > 4 ? 4 : value.len;
        if (len + 1 > s->cap[i]) {
            char *v = pgnk_realloc(&s->alloc, s->val[i], s->cap[i], len + 1);
            if (!v) {
                return PGN_E_NOMEM;
            }
            s->val[i] = v;
            s->cap[i] = len + 1;
        }
        memcpy(s->val[i], value.ptr, len);
        s->val[i][len] = 0;
        s->len[i] = len;
    }
    return PGN_OK;
}

/* A new file (number n) for the current game's value: its index, or -1 with *st. */
static long new_file(pgn_split *s, uint64_t n, pgn_status *st) {
    if (!pgnk_grow(&s->alloc, (void **)&s->files, &s->capfiles, s->nfiles + 1, sizeof *s->files,
                   64)) {
        *st = PGN_E_NOMEM;
        return -1;
    }
    char *path = pgnk_split_path(s, n, st);
    if (!path) {
        return -1;
    }
    pgnk_split_file f = {path, 0, n};
    s->files[s->nfiles] = f;
    return (long)s->nfiles++;
}

pgn_status pgn_split_place(pgn_split *s, size_t *file, size_t *full) {
    *full = SIZE_MAX;
    size_t klen = s->by >= 0 && s->len[s->by] != SIZE_MAX ? s->len[s->by] : 0;
    pgn_tally_item *key = pgn_tally_get(s->keys, klen ? s->val[s->by] : "", klen);
    if (!key) {
        return PGN_E_NOMEM;
    }
    size_t cur = key->aux ? (size_t)key->aux - 1 : SIZE_MAX;
    if (cur == SIZE_MAX || (s->per_file && s->files[cur].games == s->per_file)) {
        pgn_status st = PGN_OK;
        uint64_t n = cur == SIZE_MAX ? 1 : s->files[cur].n + 1;
        long i = new_file(s, n, &st); /* key stays valid: the keys' tally is not touched */
        if (i < 0) {
            return st;
        }
        *full = cur;
        key->aux = (uint64_t)i + 1;
        cur = (size_t)i;
    }
    s->files[cur].games++;
    *file = cur;
    return PGN_OK;
}

size_t pgn_split_count(const pgn_split *s) {
    return s->nfiles;
}

const char *pgn_split_name(const pgn_split *s, size_t file) {
    return s->files[file].path;
}

uint64_t pgn_split_games(const pgn_split *s, size_t file) {
    return s->files[file].games;
}

void pgn_split_remove_dirs(pgn_split *s) {
    for (size_t i = s->ndirs; i-- > 0;) {
        rmdir(s->dirs[i]);
    }
}

const char *pgn_split_error(const pgn_split *s, const char **name) {
    if (name) {
        *name = s->err_name;
    }
    return s->msg;
}
