/* SPDX-License-Identifier: MIT */
/* pgnkit split's files (issue 34): each is written to a temporary file beside its target and all
 * of them are put in place at the end, only when every one can be: none is an input, none exists
 * already (unless --force, which replaces the name itself, never the file a symbolic link names:
 * issue 36). So a refused or failed run leaves the directory as it was. Which file a game goes to
 * and the file names are the library's (pgn_split_*), the games read in cmd_split.c. */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, O_NOFOLLOW, lstat */
#include "split.h"
#include "tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Closes file i: 0, or -1 after a message when its last writes failed (disk full, a size
 * limit). */
static int close_file(split_state *s, size_t i) {
    out_file *f = &s->files[i];
    int bad = fclose(f->f) != 0;
    f->f = NULL;
    s->nopen--;
    if (bad) {
        cli_error(pgn_split_name(s->split, i), "error writing: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* Closes the open file used least recently: 0, or -1 after a message. */
static int close_oldest(split_state *s) {
    size_t old = SIZE_MAX;
    for (size_t i = 0; i < pgn_split_count(s->split); i++) {
        if (s->files[i].f && (old == SIZE_MAX || s->files[i].stamp < s->files[old].stamp)) {
            old = i;
        }
    }
    return old != SIZE_MAX ? close_file(s, old) : 0;
}

/* Opens file i for writing: its temporary file made, or opened again to append. 0, or -1 after a
 * message. */
static int open_file(split_state *s, size_t i) {
    out_file *f = &s->files[i];
    const char *path = pgn_split_name(s->split, i);
    if (s->nopen >= s->open_max && close_oldest(s) < 0) {
        return -1;
    }
    int fd = -1, err = 0;
    if (f->tmp) {
        fd = open(f->tmp, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    } else if ((f->tmp = malloc(strlen(path) + 48)) != NULL) {
        if (pgn_temp_make(path, 0666, &cli_temp_hooks, f->tmp, strlen(path) + 48, &fd) != PGN_OK) {
            err = errno;
            free(f->tmp);
            f->tmp = NULL;
        }
    } else {
        err = ENOMEM;
    }
    if (fd < 0 || !(f->f = fdopen(fd, "ab"))) {
        cli_error(path, "cannot write: %s", strerror(err ? err : errno));
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    s->nopen++;
    return 0;
}

FILE *split_file_for(split_state *s, pgn_status *st, const char **name) {
    size_t i, full;
    if ((*st = pgn_split_place(s->split, &i, &full)) != PGN_OK) {
        const char *dir, *why = pgn_split_error(s->split, &dir);
        if (why[0]) {
            cli_error(dir, "%s", why);
        }
        return NULL;
    }
    if (full != SIZE_MAX && s->files[full].f && close_file(s, full) < 0) {
        *st = PGN_E_IO; /* full: never written again */
        return NULL;
    }
    if (i >= s->capfiles) {
        size_t cap = s->capfiles ? s->capfiles * 2 : 64;
        out_file *f = realloc(s->files, cap * sizeof *f);
        if (!f) {
            *st = PGN_E_NOMEM;
            return NULL;
        }
        memset(f + s->capfiles, 0, (cap - s->capfiles) * sizeof *f);
        s->files = f;
        s->capfiles = cap;
    }
    out_file *cur = &s->files[i];
    if (!cur->f && open_file(s, i) < 0) {
        *st = PGN_E_IO;
        return NULL;
    }
    cur->stamp = ++s->clock;
    *name = pgn_split_name(s->split, i);
    return cur->f;
}

int split_precheck(const split_state *s, const cli_run *r) {
    int st = EXIT_OK;
    for (int i = 0; i < r->nfiles; i++) {
        if (strcmp(r->files[i], "-") != 0 && pgn_split_may_name(s->split, r->files[i])) {
            cli_error(NULL, "the input '%s' is a name the pattern '%s' gives: refused", r->files[i],
                      pgn_split_pattern(s->split));
            st = EXIT_USAGE;
        }
    }
    return st;
}

/* May file f be put in place? Not over an input (as the file itself, or a symbolic link to it),
 * nor over an existing name without --force. 1, or 0 after a message. */
static int may_replace(const split_state *s, const cli_run *r, const char *path) {
    struct stat st;
    for (int i = 0; i < r->nfiles; i++) {
        if (strcmp(r->files[i], "-") != 0 && pgn_output_same_file(path, r->files[i])) {
            cli_error(NULL, "'%s' is the same file as the input '%s': refused", path, r->files[i]);
            return 0;
        }
    }
    if (!s->force && lstat(path, &st) == 0) {
        cli_error(path, "exists: not replaced without --force");
        return 0;
    }
    return 1;
}

/* One line per file written (none under --quiet): "wrote NAME (N games)", or as JSON. */
static void say_written(const cli_run *r, const char *path, unsigned long long n) {
    if (r->quiet) {
        return;
    }
    if (cli_diag_json()) {
        fputs("{\"written\":{\"command\":\"split\",\"file\":", stderr);
        cli_json_string(stderr, path, strlen(path));
        fprintf(stderr, ",\"games\":%llu}}\n", n);
    } else {
        fprintf(stderr, "pgnkit split: wrote %s (%llu game%s)\n", path, n, n == 1 ? "" : "s");
    }
}

int split_commit(split_state *s, const cli_run *r) {
    size_t n = pgn_split_count(s->split);
    int ok = 1;
    for (size_t i = 0; i < n; i++) {
        if (s->files[i].f && close_file(s, i) < 0) {
            ok = 0;
        }
    }
    for (size_t i = 0; ok >= 0 && i < n; i++) { /* each one refused is named */
        ok = may_replace(s, r, pgn_split_name(s->split, i)) ? ok : 0;
    }
    if (!ok) {
        cli_error(NULL, "nothing written");
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < n; i++) {
        out_file *f = &s->files[i];
        const char *path = pgn_split_name(s->split, i);
        if (pgn_temp_place(f->tmp, path, s->force, &cli_temp_hooks) != PGN_OK) {
            cli_error(path, "cannot put in place: %s", strerror(errno));
            return EXIT_RESOURCE; /* the files put before it stay (named above) */
        }
        free(f->tmp);
        f->tmp = NULL;
        say_written(r, path, pgn_split_games(s->split, i));
    }
    return EXIT_OK;
}

void split_discard(split_state *s) {
    for (size_t i = 0; s->split && i < pgn_split_count(s->split) && i < s->capfiles; i++) {
        out_file *f = &s->files[i];
        if (f->f) {
            fclose(f->f);
        }
        if (f->tmp) {
            pgn_temp_remove(f->tmp, &cli_temp_hooks);
            free(f->tmp);
        }
    }
    if (s->split && !s->kept_dirs) { /* made by this run: removed when empty */
        pgn_split_remove_dirs(s->split);
    }
    free(s->files);
}
