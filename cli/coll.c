/* SPDX-License-Identifier: MIT */
/* The input loop of the collection commands (see coll.h). */
#define _POSIX_C_SOURCE 200809L
#include "coll.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void coll_init(coll_run *r) {
    memset(r, 0, sizeof *r);
    r->ropts.on_diag = cli_print_diag;
    r->ropts.diag_ctx = &r->dctx;
}

int coll_option(coll_run *r, const char *cmd, const char *usage, int c, const char *arg) {
    switch (c) {
    case COLL_OPT_STRICT: r->ropts.flags |= PGN_READ_STRICT; return 1;
    case 'q': r->dctx.quiet_warnings = 1; return 1;
    case COLL_OPT_DIAG:
        if (strcmp(arg, "json") != 0 && strcmp(arg, "text") != 0) {
            cli_usage_error(cmd, usage, "--diag takes text or json");
            return -1;
        }
        r->dctx.json = strcmp(arg, "json") == 0;
        return 1;
    case COLL_OPT_ENCODING:
        if (!cli_parse_encoding(arg, &r->ropts.encoding)) {
            cli_usage_error(cmd, usage, "unknown --input-encoding");
            return -1;
        }
        return 1;
    default: return 0;
    }
}

/* f as a seekable stream: itself when it is a regular file, else a temporary copy. */
static FILE *seekable(FILE *f) {
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        return f;
    }
    FILE *t = tmpfile();
    char buf[1 << 16];
    size_t n;
    while (t && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (fwrite(buf, 1, n, t) != n) {
            fclose(t);
            return NULL;
        }
    }
    if (t && (ferror(f) || fflush(t) != 0)) {
        fclose(t);
        t = NULL;
    }
    cli_close_input(f);
    return t;
}

int coll_open(coll_run *r, int nfiles, char **files) {
    static char dash[] = "-";
    static char *stdin_only[] = {dash};
    r->files = nfiles > 0 ? files : stdin_only;
    r->nfiles = nfiles > 0 ? nfiles : 1;
    r->in = calloc((size_t)r->nfiles, sizeof *r->in);
    r->names = calloc((size_t)r->nfiles, sizeof *r->names);
    if (!r->in || !r->names) {
        fprintf(stderr, "pgnkit: out of memory\n");
        return EXIT_RESOURCE;
    }
    for (int i = 0; i < r->nfiles; i++) {
        r->names[i] = strcmp(r->files[i], "-") == 0 ? "<stdin>" : r->files[i];
        FILE *f = cli_open_input(r->files[i]);
        if (!f || !(r->in[i] = r->flags & COLL_SEEKABLE ? seekable(f) : f)) {
            if (f) {
                fprintf(stderr, "pgnkit: %s: cannot copy to a temporary file: %s\n", r->names[i],
                        strerror(errno));
            }
            return EXIT_RESOURCE;
        }
    }
    return EXIT_OK;
}

void coll_close(coll_run *r) {
    for (int i = 0; r->in && i < r->nfiles; i++) {
        if (r->in[i] && r->in[i] != stdin) {
            fclose(r->in[i]);
        }
    }
    free(r->in);
    free(r->names);
    r->in = NULL;
    r->names = NULL;
}

/* Reads input i with fn; PGN_END at its end, else the failure. */
static pgn_status one_input(coll_run *r, int i, pgn_game *g, coll_fn fn, void *user) {
    pgn_reader_opts ro = r->ropts;
    ro.source_name = r->names[i];
    ro.flags |= r->flags & COLL_NO_RAW ? 0u : PGN_READ_KEEP_RAW;
    pgn_reader *rd;
    if (r->flags & COLL_SEEKABLE) {
        rewind(r->in[i]);
    }
    pgn_status st = pgn_reader_new_file(&rd, &ro, r->in[i]);
    if (st != PGN_OK) {
        return st;
    }
    coll_game cg = {g, pgn_reader_summary(rd), {NULL, 0}, i, r->names[i], 0};
    while ((st = r->visitor ? pgn_reader_visit(rd, r->visitor, r->visitor_user)
                            : pgn_reader_next(rd, g)) == PGN_OK) {
        cg.raw = pgn_reader_raw(rd);
        cg.ordinal = ++r->games;
        if ((st = fn(user, &cg)) != PGN_OK) {
            break;
        }
    }
    uint64_t games, errors, warnings;
    pgn_reader_totals(rd, &games, &errors, &warnings);
    r->errors += errors;
    r->warnings += warnings;
    pgn_reader_free(rd);
    return st == PGN_E_LIMIT ? PGN_END : st;
}

int coll_games(coll_run *r, coll_fn fn, void *user) {
    pgn_game *g = NULL;
    r->games = r->errors = r->warnings = 0;
    if (!r->visitor && pgn_game_new(&g, NULL) != PGN_OK) {
        fprintf(stderr, "pgnkit: out of memory\n");
        return EXIT_RESOURCE;
    }
    int status = EXIT_OK;
    for (int i = 0; i < r->nfiles && status == EXIT_OK; i++) {
        pgn_status st = one_input(r, i, g, fn, user);
        if (st != PGN_END) {
            fprintf(stderr, "pgnkit: %s: %s\n", r->names[i], pgn_status_message(st));
            status = EXIT_RESOURCE;
        }
    }
    pgn_game_free(g);
    return status == EXIT_OK && r->errors ? EXIT_INPUT : status;
}

pgn_status coll_write_raw(FILE *f, const char *raw, size_t len) {
    if (!f || len == 0) {
        return PGN_OK;
    }
    int ok = fwrite(raw, 1, len, f) == len && (raw[len - 1] == '\n' || fputc('\n', f) != EOF);
    return ok ? PGN_OK : PGN_E_IO;
}

pgn_status coll_reread(coll_run *r, int input, uint64_t start, uint64_t end, pgn_game *g) {
    size_t len = (size_t)(end - start);
    char *text = malloc(len ? len : 1);
    if (!text) {
        return PGN_E_NOMEM;
    }
    ssize_t got = pread(fileno(r->in[input]), text, len, (off_t)start);
    pgn_status st = got == (ssize_t)len ? PGN_OK : PGN_E_IO;
    pgn_reader *rd = NULL;
    pgn_reader_opts ro = r->ropts;
    ro.on_diag = NULL; /* reported the first time */
    if (st == PGN_OK && (st = pgn_reader_new_mem(&rd, &ro, text, len)) == PGN_OK) {
        st = pgn_reader_next(rd, g);
    }
    pgn_reader_free(rd);
    free(text);
    return st;
}
