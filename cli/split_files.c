/* SPDX-License-Identifier: MIT */
/* pgnkit split's files (issue 34): each is written to a temporary file beside its target and all
 * of them are put in place at the end, only when every one can be: none is an input, none exists
 * already (unless --force, which replaces the name itself, never the file a symbolic link names:
 * issue 36). So a refused or failed run leaves the directory as it was. The file names are made
 * in split_names.c, the games read in cmd_split.c. */
#define _GNU_SOURCE /* renameat2 (RENAME_NOREPLACE) */
#include "split.h"
#include "tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The index of field name (len bytes) among the fields, added when new; -1 when full. */
int split_field(split_state *s, const char *name, size_t len) {
    for (size_t i = 0; i < s->nfields; i++) {
        if (strlen(s->field[i]) == len && memcmp(s->field[i], name, len) == 0) {
            return (int)i;
        }
    }
    if (s->nfields == MAX_FIELDS) {
        return -1;
    }
    char *copy = malloc(len + 1);
    if (!copy) {
        return -1;
    }
    memcpy(copy, name, len);
    copy[len] = 0;
    s->field[s->nfields] = copy;
    return (int)s->nfields++;
}

/* Closes f: 0, or -1 after a message when its last writes failed (disk full, a size limit). */
static int close_file(split_state *s, out_file *f) {
    int bad = fclose(f->f) != 0;
    f->f = NULL;
    s->nopen--;
    if (bad) {
        cli_error(f->path, "error writing: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Closes the open file used least recently: 0, or -1 after a message. */
static int close_oldest(split_state *s) {
    out_file *old = NULL;
    for (size_t i = 0; i < s->nfiles; i++) {
        if (s->files[i].f && (!old || s->files[i].stamp < old->stamp)) {
            old = &s->files[i];
        }
    }
    return old ? close_file(s, old) : 0;
}

/* A new file (number n) for the value at by; its index, or -1 after a message. */
static long new_file(split_state *s, uint64_t n, int by) {
    if (s->nfiles == s->capfiles) {
        size_t cap = s->capfiles ? s->capfiles * 2 : 64;
        out_file *f = realloc(s->files, cap * sizeof *f);
        if (!f) {
            return -1;
        }
        s->files = f;
        s->capfiles = cap;
    }
    char *path = split_path(s, n, by);
    if (!path) {
        return -1;
    }
    out_file o = {path, NULL, NULL, 0, n, 0};
    s->files[s->nfiles] = o;
    return (long)s->nfiles++;
}

/* Opens f for writing: its temporary file made, or opened again to append. 0, or -1 after a
 * message. */
static int open_file(split_state *s, out_file *f) {
    if (s->nopen >= s->open_max && close_oldest(s) < 0) {
        return -1;
    }
    int fd;
    if (f->tmp) {
        fd = open(f->tmp, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    } else {
        mode_t mask = umask(0);
        umask(mask);
        fd = cli_temp_create(f->path, 0666 & ~mask, &f->tmp);
    }
    if (fd < 0 || !(f->f = fdopen(fd, "ab"))) {
        cli_error(f->path, "cannot write: %s", strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    s->nopen++;
    return 0;
}

out_file *split_file_for(split_state *s) {
    int by = s->by ? split_field(s, s->by, strlen(s->by)) : -1;
    size_t klen = by >= 0 && s->len[by] != SIZE_MAX ? s->len[by] : 0;
    pgn_tally_item *key = pgn_tally_get(s->keys, klen ? s->val[by] : "", klen);
    if (!key) {
        return NULL;
    }
    out_file *cur = key->aux ? &s->files[key->aux - 1] : NULL;
    if (!cur || (s->per_file && cur->games == s->per_file)) {
        if (cur && cur->f && close_file(s, cur) < 0) { /* full: never written again */
            return NULL;
        }
        long i = new_file(s, cur ? cur->n + 1 : 1, by);
        if (i < 0) {
            return NULL;
        }
        key->aux = (uint64_t)i + 1;
        cur = &s->files[i];
    }
    if (!cur->f && open_file(s, cur) < 0) {
        return NULL;
    }
    cur->stamp = ++s->clock;
    return cur;
}

/* realpath of the directory of path up to byte cut (the last '/' before it; none: ".") joined
 * with the rest of path; malloc'd, NULL when that directory does not exist. */
static char *resolve_dir(const char *path, size_t cut) {
    size_t d = cut;
    while (d > 0 && path[d - 1] != '/') {
        d--;
    }
    char *dir = malloc(d + 2), *real = NULL, *out = NULL;
    if (dir) {
        snprintf(dir, d + 2, "%.*s", d ? (int)d : 1, d ? path : ".");
        real = realpath(dir, NULL);
    }
    size_t n = real ? strlen(real) + strlen(path + d) + 2 : 0;
    if (real && (out = malloc(n)) != NULL) {
        snprintf(out, n, "%s/%s", strcmp(real, "/") == 0 ? "" : real, path + d);
    }
    free(dir);
    free(real);
    return out;
}

/* Appends pattern p to glob g: each {field} a '*', a glob character escaped; a '*' before the
 * last '.' of the name too when tilde is set (the names numbered apart: name~2.pgn). */
static char *pattern_glob(const char *p, int tilde) {
    char *g = malloc(2 * strlen(p) + 2), *o = g;
    const char *slash = strrchr(p, '/'), *dot = strrchr(p, '.');
    if (!dot || (slash && dot < slash) || dot == (slash ? slash + 1 : p)) {
        dot = p + strlen(p);
    }
    for (; g; p++) {
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
    if (g) {
        *o = 0;
    }
    return g;
}

/* Could the pattern name the input in? Both as absolute names, the input's directory and the
 * pattern's up to its first field resolved (symbolic links, "..": the same file). */
static int pattern_names(const char *pattern, const char *in) {
    const char *field = strchr(pattern, '{');
    char *where = resolve_dir(pattern, field ? (size_t)(field - pattern) : strlen(pattern));
    char *name = resolve_dir(in, strlen(in));
    int hit = 0;
    for (int tilde = 0; where && name && !hit && tilde < 2; tilde++) {
        char *glob = pattern_glob(where, tilde);
        hit = glob && fnmatch(glob, name, FNM_PATHNAME) == 0;
        free(glob);
    }
    free(where);
    free(name);
    return hit;
}

int split_precheck(const split_state *s, const cli_run *r) {
    if (s->nfields > (s->by ? 1u : 0u) || strstr(s->pattern, "{value}")) {
        return EXIT_OK; /* names from tag values: checked before they are put in place */
    }
    int st = EXIT_OK;
    for (int i = 0; i < r->nfiles; i++) {
        if (strcmp(r->files[i], "-") != 0 && pattern_names(s->pattern, r->files[i])) {
            cli_error(NULL, "the input '%s' is a name the pattern '%s' gives: refused", r->files[i],
                      s->pattern);
            st = EXIT_USAGE;
        }
    }
    return st;
}

/* May file f be put in place? Not over an input (as the file itself, or a symbolic link to it),
 * nor over an existing name without --force. 1, or 0 after a message. */
static int may_replace(const split_state *s, const cli_run *r, const out_file *f) {
    struct stat st;
    for (int i = 0; i < r->nfiles; i++) {
        if (strcmp(r->files[i], "-") != 0 && cli_same_file(f->path, r->files[i])) {
            cli_error(NULL, "'%s' is the same file as the input '%s': refused", f->path,
                      r->files[i]);
            return 0;
        }
    }
    if (!s->force && lstat(f->path, &st) == 0) {
        cli_error(f->path, "exists: not replaced without --force");
        return 0;
    }
    return 1;
}

/* Puts temporary file f in place: over an existing name only with --force (the name itself is
 * replaced, a symbolic link is not followed). 0, or an errno. */
static int put_in_place(const split_state *s, const out_file *f) {
    if (s->force) {
        return rename(f->tmp, f->path) == 0 ? 0 : errno;
    }
#ifdef RENAME_NOREPLACE
    if (renameat2(AT_FDCWD, f->tmp, AT_FDCWD, f->path, RENAME_NOREPLACE) == 0) {
        return 0;
    }
    if (errno != EINVAL && errno != ENOSYS) {
        return errno;
    }
#endif
    if (link(f->tmp, f->path) != 0) { /* never over a name made since the check */
        return errno;
    }
    unlink(f->tmp);
    return 0;
}

/* One line per file written (none under --quiet): "wrote NAME (N games)", or as JSON. */
static void say_written(const cli_run *r, const out_file *f) {
    if (r->quiet) {
        return;
    }
    unsigned long long n = f->games;
    if (cli_diag_json()) {
        fputs("{\"written\":{\"command\":\"split\",\"file\":", stderr);
        cli_json_string(stderr, f->path, strlen(f->path));
        fprintf(stderr, ",\"games\":%llu}}\n", n);
    } else {
        fprintf(stderr, "pgnkit split: wrote %s (%llu game%s)\n", f->path, n, n == 1 ? "" : "s");
    }
}

int split_commit(split_state *s, const cli_run *r) {
    int ok = 1;
    for (size_t i = 0; i < s->nfiles; i++) {
        if (s->files[i].f && close_file(s, &s->files[i]) < 0) {
            ok = 0;
        }
    }
    for (size_t i = 0; ok >= 0 && i < s->nfiles; i++) { /* each one refused is named */
        ok = may_replace(s, r, &s->files[i]) ? ok : 0;
    }
    if (!ok) {
        cli_error(NULL, "nothing written");
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < s->nfiles; i++) {
        out_file *f = &s->files[i];
        int err = put_in_place(s, f);
        if (err) {
            cli_error(f->path, "cannot put in place: %s", strerror(err));
            return EXIT_RESOURCE; /* the files put before it stay (named above) */
        }
        cli_temp_forget(f->tmp);
        free(f->tmp);
        f->tmp = NULL;
        say_written(r, f);
    }
    return EXIT_OK;
}

void split_discard(split_state *s) {
    for (size_t i = 0; i < s->nfiles; i++) {
        out_file *f = &s->files[i];
        if (f->f) {
            fclose(f->f);
        }
        if (f->tmp) {
            unlink(f->tmp);
            cli_temp_forget(f->tmp);
            free(f->tmp);
        }
        free(f->path);
    }
    for (size_t i = s->ndirs; i-- > 0;) { /* made by this run: removed when empty */
        if (!s->kept_dirs) {
            rmdir(s->dirs[i]);
        }
        free(s->dirs[i]);
    }
    free(s->dirs);
    free(s->files);
}
