/* SPDX-License-Identifier: MIT */
/* The one driver of the commands that read games (driver.h): the shared options, parsed once with
 * getopt_long; the outputs; rejects, the summary and the exit status. The reading is in
 * reading.c, its --where step in where.c. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "parallel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_DIAG = CLI_OPT_COMMON,
    OPT_STRICT,
    OPT_MAX_ERRORS,
    OPT_ENCODING,
    OPT_REJECTS,
    OPT_RANGE,
    OPT_LINE_BASE,
    OPT_WHERE,
    OPT_PROGRESS,
    OPT_NO_PROGRESS,
    OPT_INPUT_LANG,
    OPT_FIX,
    MAX_OPTIONS = 96
};

static const struct option read_options[] = {
    {"quiet", no_argument, NULL, 'q'},
    {"diag", required_argument, NULL, OPT_DIAG},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"max-errors", required_argument, NULL, OPT_MAX_ERRORS},
    {"input-encoding", required_argument, NULL, OPT_ENCODING},
    {"range", required_argument, NULL, OPT_RANGE},
    {"line-base", required_argument, NULL, OPT_LINE_BASE},
    {"jobs", required_argument, NULL, 'j'},
    {"progress", no_argument, NULL, OPT_PROGRESS},
    {"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
    {"input-lang", required_argument, NULL, OPT_INPUT_LANG},
    {"notation", required_argument, NULL, OPT_INPUT_LANG}, /* the same: descriptive[:es|:pt] */
    {"fix", no_argument, NULL, OPT_FIX},                   /* docs/repair.md */
    {NULL, 0, NULL, 0}};
static const struct option write_options[] = {{"output", required_argument, NULL, 'o'},
                                              {NULL, 0, NULL, 0}};
static const struct option reject_options[] = {{"rejects", required_argument, NULL, OPT_REJECTS},
                                               {NULL, 0, NULL, 0}};
static const struct option where_options[] = {{"where", required_argument, NULL, OPT_WHERE},
                                              {NULL, 0, NULL, 0}};
static const struct option help_options[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};

void cli_run_init(cli_run *r, unsigned groups) {
    memset(r, 0, sizeof *r);
    r->groups = groups;
    r->out.fd = r->rejects.fd = -1;
}

/* Appends the options of list to all (n used, room for MAX_OPTIONS with the terminator). */
static void add_options(struct option *all, size_t *n, const struct option *list) {
    for (; list && list->name && *n + 1 < MAX_OPTIONS; list++) {
        all[(*n)++] = *list;
    }
    memset(&all[*n], 0, sizeof all[*n]);
}

/* --input-lang LANG: that language's piece letters only; "auto" (the default): English, and per
 * game another language when English cannot read it; "en": English only. */
static int input_lang_option(cli_run *r, const char *arg) {
    pgn_lang lang = PGN_LANG_ENGLISH;
    r->ropts.flags &= ~PGN_READ_NO_LANG_DETECT;
    if (strcmp(arg, "auto") != 0 && !pgn_lang_from_name(arg, &lang)) {
        return cli_usage(
            "--input-lang (--notation) takes auto or a language (en, de, fr, ..., ru, figurine, "
            "descriptive[:es|:pt]; "
            "docs/notation.md), not '%s'",
            arg);
    }
    if (strcmp(arg, "auto") != 0 && lang == PGN_LANG_ENGLISH) {
        r->ropts.flags |= PGN_READ_NO_LANG_DETECT;
    }
    r->ropts.input_lang = lang;
    return EXIT_OK;
}

/* -j VALUE: a count, or 0 or "auto" (the number of cores: *jobs -1). 1 and *jobs set, or 0
 * (a usage error). */
static int jobs_option(const char *arg, int *jobs) {
    if (strcmp(arg, "auto") == 0) {
        *jobs = -1;
        return 1;
    }
    uint64_t n = 0;
    if (!cli_parse_u64(arg, 0, CLI_MAX_JOBS, &n)) {
        return 0;
    }
    *jobs = n == 0 ? -1 : (int)n;
    return 1;
}

/* One shared option; EXIT_OK or a usage error. */
static int common_option(cli_run *r, int ch, const char *arg) {
    switch (ch) {
    case 'q': r->quiet = 1; return EXIT_OK;
    case OPT_STRICT: r->ropts.flags |= PGN_READ_STRICT; return EXIT_OK;
    case OPT_FIX: r->ropts.flags |= PGN_READ_FIX; return EXIT_OK;
    case 'o': r->out_path = arg; return EXIT_OK;
    case OPT_REJECTS: r->rejects_path = arg; return EXIT_OK;
    case OPT_WHERE: r->where = arg; return EXIT_OK;
    case OPT_DIAG:
        if (strcmp(arg, "json") != 0 && strcmp(arg, "text") != 0) {
            return cli_usage("--diag takes text or json, not '%s'", arg);
        }
        cli_set_diag_json(strcmp(arg, "json") == 0);
        return EXIT_OK;
    case OPT_MAX_ERRORS: return cli_number("--max-errors", arg, 1, UINT64_MAX, &r->max_errors);
    case OPT_RANGE:
    case OPT_LINE_BASE:
        if (!cli_range_option(ch == OPT_LINE_BASE, arg, &r->ropts)) {
            return cli_usage(ch == OPT_RANGE ? "--range takes START:END (END > START, or empty), "
                                               "not '%s'"
                                             : "--line-base takes a positive line number, not '%s'",
                             arg);
        }
        return EXIT_OK;
    case 'j':
        return jobs_option(arg, &r->jobs) ? EXIT_OK
                                          : cli_usage("-j takes a number of threads or auto, "
                                                      "not '%s'",
                                                      arg);
    case OPT_PROGRESS:
    case OPT_NO_PROGRESS: cli_progress_mode(ch == OPT_PROGRESS); return EXIT_OK;
    case OPT_ENCODING:
        if (!pgn_encoding_from_name(arg, &r->ropts.encoding)) {
            return cli_usage("--input-encoding takes auto, utf-8, latin-1, cp1252 or cp437, not "
                             "'%s'",
                             arg);
        }
        return EXIT_OK;
    case OPT_INPUT_LANG: return input_lang_option(r, arg);
    default: return -1;
    }
}

/* The usage error of what getopt_long refused (ch '?' or ':') in argv[optind - 1]. */
static int bad_option(int ch, char **argv) {
    const char *arg = argv[optind - 1];
    if (ch == ':') {
        return cli_usage("option '%s' needs a value", arg);
    }
    if (optopt && optopt < 256 && arg[0] == '-' && arg[1] != '-') {
        return cli_usage("unknown option '-%c'", optopt);
    }
    return cli_usage("unknown option '%s'", arg);
}

int cli_run_parse(cli_run *r, int argc, char **argv, const char *usage, const struct option *opts,
                  const char *shortopts, cli_opt_fn fn, void *user) {
    struct option all[MAX_OPTIONS];
    size_t n = 0;
    char shorts[64];
    add_options(all, &n, opts);
    add_options(all, &n, r->groups & CLI_READS ? read_options : NULL);
    add_options(all, &n, r->groups & CLI_WRITES ? write_options : NULL);
    add_options(all, &n, r->groups & CLI_REJECTS ? reject_options : NULL);
    add_options(all, &n, r->groups & CLI_WHERE ? where_options : NULL);
    add_options(all, &n, help_options);
    snprintf(shorts, sizeof shorts, ":h%s%s%s", r->groups & CLI_READS ? "qj:" : "",
             r->groups & CLI_WRITES ? "o:" : "", shortopts ? shortopts : "");
    int ch, status = EXIT_OK;
    opterr = 0;
    optind = 1;
    cli_defer_usage(1);
    while ((ch = getopt_long(argc, argv, shorts, all, NULL)) != -1) {
        int st;
        if (ch == 'h') {
            cli_defer_usage(0);
            fputs(usage, stdout);
            return CLI_HELP;
        } else if (ch == '?' || ch == ':') {
            st = bad_option(ch, argv);
        } else if ((ch == 'j' && strchr(shortopts ? shortopts : "", 'j')) ||
                   (st = common_option(r, ch, optarg)) < 0) { /* a command's own -j comes first */
            st = fn ? fn(user, ch, optarg) : bad_option('?', argv);
        }
        if (st != EXIT_OK && status == EXIT_OK) {
            status = st;
        }
    }
    cli_defer_usage(0);
    static char dash[] = "-";
    static char *stdin_only[] = {dash};
    r->files = optind < argc ? argv + optind : stdin_only;
    r->nfiles = optind < argc ? argc - optind : 1;
    return status;
}

static int open_outputs(cli_run *r);

int cli_run_check_output(cli_run *r, const char *what, const char *path) {
    for (int i = 0; path && strcmp(path, "-") != 0 && i < r->nfiles; i++) {
        if (cli_same_file(path, r->files[i])) {
            cli_error(NULL, "%s '%s' is the same file as the input '%s': refused", what, path,
                      r->files[i]);
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

int cli_outputs_clash(const char *what_a, const char *a, const char *what_b, const char *b) {
    if (!a || !b) {
        return 0;
    }
    int sa = strcmp(a, "-") == 0, sb = strcmp(b, "-") == 0; /* "-": standard output */
    if (sa || sb ? sa && sb : cli_same_file(a, b)) {
        cli_error(NULL, "%s '%s' is the same file as %s '%s': refused", what_a, a, what_b, b);
        return 1;
    }
    return 0;
}

int cli_run_open(cli_run *r) {
    if (r->where) {
        int st = cli_query_compile(r->where, strlen(r->where), &r->query);
        if (st != EXIT_OK) {
            return st;
        }
    }
    int st = open_outputs(r);
    if (st != EXIT_OK) {
        pgn_query_free(r->query);
        r->query = NULL;
    }
    return st;
}

/* The same-file tests, then the outputs. */
static int open_outputs(cli_run *r) {
    const char *out = r->out_path && strcmp(r->out_path, "-") != 0 ? r->out_path : NULL;
    const char *rej = r->rejects_path;
    if (cli_run_check_output(r, "-o", out) != EXIT_OK ||
        cli_run_check_output(r, "--rejects", rej) != EXIT_OK) {
        return EXIT_USAGE;
    }
    if (rej && (strcmp(rej, "-") == 0 ? !out : out && cli_same_file(out, rej))) {
        cli_error(NULL, "--rejects '%s' is the same file as the output '%s': refused", rej,
                  out ? out : "-");
        return EXIT_USAGE;
    }
    if (cli_output_open(&r->out, out) != EXIT_OK) {
        return EXIT_RESOURCE;
    }
    if (rej && cli_output_open(&r->rejects, rej) != EXIT_OK) {
        cli_output_close(&r->out, 0, EXIT_RESOURCE);
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}

void cli_run_diag(void *ctx, const pgn_diag *d) {
    const cli_run *r = ctx;
    cli_print_diag_detail(d, r->quiet, NULL);
}

void cli_run_worst(cli_run *r, int status) {
    if (status > r->status) {
        r->status = status;
    }
}

pgn_status cli_run_reject(cli_run *r, const cli_game *g) {
    r->rejected++;
    if (r->rejects.file && cli_output_write(&r->rejects, g->raw.ptr, g->raw.len) < 0) {
        return PGN_E_IO;
    }
    return PGN_OK;
}

int cli_run_finish(cli_run *r, cli_summary kind) {
    int commit = !r->aborted;
    if (r->errors) {
        cli_run_worst(r, EXIT_INPUT);
    }
    int status = cli_output_close(&r->rejects, commit, r->status);
    status = cli_output_close(&r->out, commit, status);
    cli_print_summary(r, kind);
    pgn_query_free(r->query);
    r->query = NULL;
    return status;
}

void cli_run_count(cli_run *r, const char *key, const char *text, uint64_t n) {
    if (r->ncounts < sizeof r->counts / sizeof r->counts[0]) {
        cli_count c = {key, text, n};
        r->counts[r->ncounts++] = c;
    }
}

int cli_has_text(pgn_str t) {
    for (size_t i = 0; i < t.len; i++) {
        if (t.ptr[i] != ' ' && t.ptr[i] != '\t' && t.ptr[i] != '\n' && t.ptr[i] != '\r') {
            return 1;
        }
    }
    return 0;
}

pgn_status cli_write_raw(FILE *f, const char *raw, size_t len) {
    if (!f || len == 0) {
        return PGN_OK;
    }
    int ok = fwrite(raw, 1, len, f) == len && (raw[len - 1] == '\n' || fputc('\n', f) != EOF);
    return ok ? PGN_OK : PGN_E_IO;
}
