/* SPDX-License-Identifier: MIT */
/* Opening inputs and printing diagnostics for the commands that read PGN (check, fmt, convert). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

FILE *cli_open_input(const char *path) {
    if (strcmp(path, "-") == 0) {
        return stdin;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "pgnkit: cannot open '%s': %s\n", path, strerror(errno));
    }
    return f;
}

void cli_close_input(FILE *f) {
    if (f && f != stdin) {
        fclose(f);
    }
}

void cli_json_text(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(out, "\\%c", c);
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
        } else {
            fputc(c, out);
        }
    }
    fputc('"', out);
}

/* Prints one diagnostic GCC-style, or as a JSON line when ctx->json. */
void cli_print_diag(void *ctx, const pgn_diag *d) {
    cli_diag_ctx *c = ctx;
    const char *sev = d->severity == PGN_SEV_ERROR ? "error" : "warning";
    const char *file = d->source ? d->source : "<stdin>";
    if (c->quiet_warnings && d->severity != PGN_SEV_ERROR) {
        return;
    }
    if (c->json) {
        fprintf(stderr, "{\"file\":");
        cli_json_text(stderr, file);
        fprintf(stderr,
                ",\"line\":%u,\"column\":%u,\"offset\":%llu,\"game\":%llu,\"severity\":\"%s\","
                "\"code\":\"%s\","
                "\"message\":",
                d->at.line, d->at.column, (unsigned long long)d->at.offset,
                (unsigned long long)d->game, sev, pgn_status_name(d->code));
        cli_json_text(stderr, pgn_status_message(d->code));
        fprintf(stderr, ",\"token\":");
        cli_json_text(stderr, d->token);
        fprintf(stderr, "}\n");
        return;
    }
    fprintf(stderr, "%s:%u:%u: %s: %s", file, d->at.line, d->at.column, sev,
            pgn_status_message(d->code));
    if (d->token[0]) {
        fprintf(stderr, " '");
        for (const char *p = d->token; *p; p++) {
            fputc((unsigned char)*p < 0x20 ? ' ' : *p, stderr);
        }
        fprintf(stderr, "'");
    }
    fprintf(stderr, " [%s] (game %llu)\n", pgn_status_name(d->code), (unsigned long long)d->game);
}

int cli_parse_encoding(const char *name, pgn_encoding *out) {
    static const struct {
        const char *name;
        pgn_encoding enc;
    } names[] = {{"auto", PGN_ENC_AUTO},     {"utf-8", PGN_ENC_UTF8},
                 {"utf8", PGN_ENC_UTF8},     {"latin-1", PGN_ENC_LATIN1},
                 {"latin1", PGN_ENC_LATIN1}, {"iso-8859-1", PGN_ENC_LATIN1},
                 {"cp1252", PGN_ENC_CP1252}, {"windows-1252", PGN_ENC_CP1252},
                 {"cp437", PGN_ENC_CP437}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].enc;
            return 1;
        }
    }
    return 0;
}

int cli_open_output(cli_output *o, const char *path) {
    o->path = path && strcmp(path, "-") != 0 ? path : NULL;
    o->file = o->path ? fopen(o->path, "wb") : stdout;
    if (!o->file) {
        fprintf(stderr, "pgnkit: cannot write '%s': %s\n", path, strerror(errno));
        return 0;
    }
    setvbuf(o->file, NULL, _IOFBF, 1 << 20);
    return 1;
}

int cli_close_output(cli_output *o, int status) {
    int bad = fflush(o->file) != 0 || ferror(o->file);
    if (o->path && fclose(o->file) != 0) {
        bad = 1;
    }
    if (bad) {
        fprintf(stderr, "pgnkit: error writing %s: %s\n", o->path ? o->path : "standard output",
                strerror(errno));
        return EXIT_RESOURCE;
    }
    return status;
}

ptrdiff_t cli_write_file(void *ctx, const void *data, size_t len) {
    return fwrite(data, 1, len, ctx) == len ? (ptrdiff_t)len : -1;
}

ptrdiff_t cli_membuf_write(void *ctx, const void *data, size_t len) {
    cli_membuf *b = ctx;
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap < b->len + len) {
            cap *= 2;
        }
        char *p = realloc(b->p, cap);
        if (!p) {
            return -1;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    return (ptrdiff_t)len;
}

/* One step of reading: the next game of r through ctx; PGN_OK to go on. */
typedef pgn_status (*read_step)(pgn_reader *r, void *ctx);

/* Reads every file (none: stdin) with step until it stops; adds the games, errors and warnings
 * to totals; returns the exit status (1 if any error). */
static int read_inputs(int nfiles, char **files, const pgn_reader_opts *ropts, read_step step,
                       void *ctx, uint64_t totals[3]) {
    static char dash[] = "-";
    char *stdin_only[] = {dash};
    int status = EXIT_OK;
    if (nfiles <= 0) {
        files = stdin_only;
        nfiles = 1;
    }
    for (int i = 0; i < nfiles && status != EXIT_RESOURCE; i++) {
        FILE *f = cli_open_input(files[i]);
        if (!f) {
            status = EXIT_RESOURCE;
            break;
        }
        pgn_reader_opts ro = *ropts;
        ro.source_name = strcmp(files[i], "-") == 0 ? "<stdin>" : files[i];
        pgn_reader *r;
        if (pgn_reader_new_file(&r, &ro, f) != PGN_OK) {
            cli_close_input(f);
            fprintf(stderr, "pgnkit: out of memory\n");
            return EXIT_RESOURCE;
        }
        pgn_status st;
        while ((st = step(r, ctx)) == PGN_OK) {
        }
        uint64_t g, e, w;
        pgn_reader_totals(r, &g, &e, &w);
        totals[0] += g;
        totals[1] += e;
        totals[2] += w;
        pgn_reader_free(r);
        cli_close_input(f);
        if (st != PGN_END && st != PGN_E_LIMIT) {
            fprintf(stderr, "pgnkit: %s: %s\n", ro.source_name, pgn_status_message(st));
            status = EXIT_RESOURCE;
        } else if (st == PGN_E_LIMIT) {
            status = EXIT_INPUT;
        }
    }
    if (status == EXIT_OK && totals[1]) {
        status = EXIT_INPUT;
    }
    return status;
}

typedef struct visit_ctx {
    const pgn_visitor *v;
    void *user;
} visit_ctx;

static pgn_status visit_step(pgn_reader *r, void *ctx) {
    visit_ctx *c = ctx;
    return pgn_reader_visit(r, c->v, c->user);
}

int cli_for_each_input(int nfiles, char **files, const pgn_reader_opts *ropts, const pgn_visitor *v,
                       void *user, uint64_t totals[3]) {
    visit_ctx c = {v, user};
    return read_inputs(nfiles, files, ropts, visit_step, &c, totals);
}

typedef struct game_ctx {
    pgn_game *g;
    cli_game_fn fn;
    void *user;
} game_ctx;

static pgn_status game_step(pgn_reader *r, void *ctx) {
    game_ctx *c = ctx;
    pgn_status st = pgn_reader_next(r, c->g);
    return st == PGN_OK ? c->fn(c->user, c->g) : st;
}

int cli_for_each_game(int nfiles, char **files, const pgn_reader_opts *ropts, cli_game_fn fn,
                      void *user, uint64_t totals[3]) {
    game_ctx c = {NULL, fn, user};
    if (pgn_game_new(&c.g, NULL) != PGN_OK) {
        fprintf(stderr, "pgnkit: out of memory\n");
        return EXIT_RESOURCE;
    }
    int status = read_inputs(nfiles, files, ropts, game_step, &c, totals);
    pgn_game_free(c.g);
    return status;
}
