/* SPDX-License-Identifier: MIT */
/* Every message of the program on stderr: one prefix "pgnkit COMMAND: ", GCC-style diagnostics,
 * or under --diag json one JSON object per line (docs/diagnostics.schema.json), every string
 * escaped by the library's one JSON escaper so that it is valid UTF-8 whatever the input. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "parallel.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The message settings of the run: set once by main (the command) and by the option parser
 * (--diag json, and the deferral of a usage error until every option was seen). */
static struct {
    const char *command;
    int json;
    char **argv;        /* the command's arguments, for the option getopt refused */
    int defer;          /* cli_run_parse is running: keep the first usage error */
    char deferred[512]; /* that error, "" if none */
    pgn_diag_fn seen;   /* cli_diag_observe: told of every diagnostic of the reading */
    void *seen_ctx;
    unsigned long long repaired; /* W_REPAIRED_MOVE diagnostics given (--fix), for the summary */
} settings = {NULL, 0, NULL, 0, {0}, NULL, NULL, 0};

void cli_diag_observe(pgn_diag_fn fn, void *ctx) {
    settings.seen = fn;
    settings.seen_ctx = ctx;
}

void cli_set_argv(char **argv) {
    settings.argv = argv;
}

void cli_set_command(const char *name) {
    settings.command = name;
}

const char *cli_command(void) {
    return settings.command ? settings.command : "";
}

void cli_set_diag_json(int on) {
    settings.json = on;
}

int cli_diag_json(void) {
    return settings.json;
}

/* "pgnkit CMD: " or "pgnkit: " before a command is chosen. */
static void prefix(FILE *f) {
    if (settings.command) {
        fprintf(f, "pgnkit %s: ", settings.command);
    } else {
        fputs("pgnkit: ", f);
    }
}

static ptrdiff_t write_file(void *ctx, const void *buf, size_t len) {
    return fwrite(buf, 1, len, ctx) == len ? (ptrdiff_t)len : -1;
}

void cli_json_string(FILE *f, const char *s, size_t len) {
    if (pgn_json_write_string(write_file, f, s, len) != PGN_OK) {
        return; /* a failed write shows at the exit (ferror) */
    }
}

static void json_cstring(FILE *f, const char *s) {
    cli_json_string(f, s, strlen(s));
}

/* {"error":{"command":CMD[,"file":FILE][,"usage":true],"message":TEXT}} */
static void json_error(const char *file, int usage, const char *text) {
    cli_progress_clear();
    fputs("{\"error\":{\"command\":", stderr);
    json_cstring(stderr, settings.command ? settings.command : "pgnkit");
    if (file) {
        fputs(",\"file\":", stderr);
        json_cstring(stderr, file);
    }
    if (usage) {
        fputs(",\"usage\":true", stderr);
    }
    fputs(",\"message\":", stderr);
    json_cstring(stderr, text);
    fputs("}}\n", stderr);
}

void cli_error(const char *file, const char *fmt, ...) {
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (settings.json) {
        json_error(file, 0, text);
        return;
    }
    cli_progress_clear();
    prefix(stderr);
    if (file) {
        fprintf(stderr, "%s: ", file);
    }
    fprintf(stderr, "%s\n", text);
}

static void print_usage_error(const char *text) {
    if (settings.json) {
        json_error(NULL, 1, text);
        return;
    }
    prefix(stderr);
    fprintf(stderr, "%s\n", text);
    if (settings.command) {
        fprintf(stderr, "try 'pgnkit %s --help'\n", settings.command);
    } else {
        fputs("try 'pgnkit --help'\n", stderr);
    }
}

int cli_usage(const char *fmt, ...) {
    char text[sizeof settings.deferred];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (settings.defer) {
        if (!settings.deferred[0]) {
            memcpy(settings.deferred, text, sizeof text);
        }
    } else {
        print_usage_error(text);
    }
    return EXIT_USAGE;
}

void cli_defer_usage(int on) {
    settings.defer = on;
    if (on) {
        settings.deferred[0] = 0;
    } else if (settings.deferred[0]) {
        print_usage_error(settings.deferred);
        settings.deferred[0] = 0;
    }
}

int cli_usage_error(const char *cmd, const char *text, const char *msg) {
    (void)cmd;
    (void)text;
    if (!msg && settings.argv && optind > 0) { /* after getopt_long returned '?' */
        return cli_usage("unknown option, or an option without its value: '%s'",
                         settings.argv[optind - 1]);
    }
    return cli_usage("%s", msg ? msg : "bad arguments");
}

void cli_print_diag_detail(const pgn_diag *d, int quiet, const char *detail) {
    if (settings.seen) {
        settings.seen(settings.seen_ctx, d);
    }
    settings.repaired += d->code == PGN_W_REPAIRED_MOVE;
    if (quiet && d->severity != PGN_SEV_ERROR) {
        return;
    }
    cli_progress_clear();
    if (settings.json) {
        if (pgn_diag_json(d, detail, write_file, stderr) == PGN_OK) {
            fputc('\n', stderr);
        }
        return;
    }
    if (pgn_diag_text(d, detail, write_file, stderr) != PGN_OK) {
        return; /* a failed write shows at the exit (ferror); one write to the unbuffered stderr */
    }
}

void cli_print_warnings(const char *token, uint32_t warnings) {
    for (unsigned b = 0; b < 32; b++) {
        if (warnings & (1u << b)) {
            pgn_status w = (pgn_status)(PGN_W_CASTLE_ZERO + b);
            cli_error(NULL, "warning: '%s': %s [%s]", token, pgn_status_message(w),
                      pgn_status_name(w));
        }
    }
}

/* One number of the summary: its JSON name and its words in the text line. */
typedef struct field {
    const char *key, *text;
    unsigned long long n;
} field;

/* The numbers of r's summary of this kind, in their order; returns how many. */
static size_t summary_fields(const cli_run *r, cli_summary kind, field *f) {
    size_t n = 0;
    field games = {"games", "games", r->games}, matched = {"matched", "matched", r->matched};
    f[n++] = games;
    if (r->where) {
        f[n++] = matched;
    }
    if (kind == CLI_SUMMARY_WRITE) {
        field w = {"written", "written", r->written}, rej = {"rejected", "rejected", r->rejected};
        f[n++] = w;
        f[n++] = rej;
    }
    for (size_t i = 0; kind == CLI_SUMMARY_COUNTS && i < r->ncounts; i++) {
        field c = {r->counts[i].key, r->counts[i].text, r->counts[i].n};
        f[n++] = c;
    }
    if (r->ropts.flags & PGN_READ_FIX) { /* the repairs are among the warnings */
        field rep = {"repaired", "repaired", settings.repaired};
        f[n++] = rep;
    }
    field errors = {"errors", "errors", r->errors},
          warnings = {"warnings", "warnings", r->warnings};
    f[n++] = errors;
    if (kind == CLI_SUMMARY_CHECK || settings.json) { /* JSON always has warnings */
        f[n++] = warnings;
    }
    return n;
}

void cli_print_summary(const cli_run *r, cli_summary kind) {
    cli_progress_clear();
    unsigned long long max = r->max_errors;
    if (kind == CLI_SUMMARY_NONE || r->quiet) {
        if (r->stopped) {
            cli_error(NULL, "reading stopped after %llu errors (--max-errors)", max);
        }
        return;
    }
    field f[12];
    size_t n = summary_fields(r, kind, f);
    if (settings.json) {
        fputs("{\"summary\":{\"command\":", stderr);
        json_cstring(stderr, cli_command());
        for (size_t i = 0; i < n; i++) {
            fprintf(stderr, ",\"%s\":%llu", f[i].key, f[i].n);
        }
        fprintf(stderr, ",\"stopped_early\":%s}}\n", r->stopped ? "true" : "false");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        fprintf(stderr, "%s%llu %s", i ? ", " : "", f[i].n, f[i].text);
    }
    if (r->stopped) {
        fprintf(stderr, "; reading stopped after %llu errors (--max-errors)", max);
    }
    fputc('\n', stderr);
}
