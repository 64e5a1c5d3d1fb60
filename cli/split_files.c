/* SPDX-License-Identifier: MIT */
/* pgnkit split's files (issue 34): each is written to a temporary file beside its target and all
 * of them are put in place at the end, only when every one can be: none is an input, none exists
 * already (unless --force, which replaces the name itself, never the file a symbolic link names:
 * issue 36). So a refused or failed run leaves the directory as it was. Which file a game goes to
 * the file names and the files written are the library's (pgn_split_*, pgn_split_files_*), the
 * games read in cmd_split.c. */
#define _POSIX_C_SOURCE 200809L /* lstat */
#include "split.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The message of the last failure of the files (or of the split's directories). */
static void say_failure(const split_state *s) {
    const char *name;
    int err;
    const char *why = pgn_split_files_error(s->files, &name, &err);
    if (why[0]) {
        cli_error(name, "%s: %s", why, strerror(err));
    } else if ((why = pgn_split_error(s->split, &name))[0]) {
        cli_error(name, "%s", why);
    }
}

pgn_status split_write(split_state *s, const char *raw, size_t len) {
    pgn_status st = pgn_split_files_add(s->files, raw, len);
    if (st != PGN_OK) {
        say_failure(s);
    }
    return st;
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
        if (pgn_split_files_close(s->files, i) != PGN_OK) {
            say_failure(s);
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
        const char *path = pgn_split_name(s->split, i);
        if (pgn_split_files_place(s->files, i, s->force) != PGN_OK) {
            cli_error(path, "cannot put in place: %s", strerror(errno));
            return EXIT_RESOURCE; /* the files put before it stay (named above) */
        }
        say_written(r, path, pgn_split_games(s->split, i));
    }
    return EXIT_OK;
}

void split_discard(split_state *s) {
    pgn_split_files_free(s->files);
    s->files = NULL;
    if (s->split && !s->kept_dirs) { /* made by this run: removed when empty */
        pgn_split_remove_dirs(s->split);
    }
}
