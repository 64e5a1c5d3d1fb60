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

/* The shared options by group, "name" or "name:" (a value) as in cli_run_args; the i-th option of
 * all_options is OPT_QUIET + i. -q, -j, -o and -h are the same as --quiet, --jobs, --output and
 * --help. */
enum {
    OPT_QUIET = CLI_OPT_COMMON,
    OPT_DIAG,
    OPT_STRICT,
    OPT_MAX_ERRORS,
    OPT_ENCODING,
    OPT_RANGE,
    OPT_LINE_BASE,
    OPT_JOBS,
    OPT_PROGRESS,
    OPT_NO_PROGRESS,
    OPT_INPUT_LANG,
    OPT_NOTATION, /* the same: descriptive[:es|:pt] */
    OPT_FIX,      /* docs/repair.md */
    OPT_OUTPUT,
    OPT_REJECTS,
    OPT_WHERE,
    OPT_HELP,
    MAX_OPTIONS = 96
};
static const char *const all_options[] = {
    "quiet",    "diag:",    "strict",      "max-errors:", "input-encoding:", "range:", "line-base:",
    "jobs:",    "progress", "no-progress", "input-lang:", "notation:",       "fix",    "output:",
    "rejects:", "where:",   "help"};
/* Each group's options in all_options: first and count. */
static const struct {
    unsigned group, first, count;
} option_groups[] = {{CLI_READS, 0, OPT_OUTPUT - OPT_QUIET},
                     {CLI_WRITES, OPT_OUTPUT - OPT_QUIET, 1},
                     {CLI_REJECTS, OPT_REJECTS - OPT_QUIET, 1},
                     {CLI_WHERE, OPT_WHERE - OPT_QUIET, 1}};
/* The editing options, from CLI_OPT_STRIP_COMMENTS up in cli.h's order. */
static const char *const edit_options[] = {
    "strip-comments", "strip-nags",      "strip-variations", "strip-clock", "strip-eval",
    "seven-tags",     "add-plycount",    "fen-comments",     "fix-results", "add-eco",
    "add-hashcode",   "add-termination", "add-fen",          "add-material"};

/* The option table being built for getopt_long: the options and their names without ':'. */
typedef struct option_table {
    struct option all[MAX_OPTIONS];
    char names[MAX_OPTIONS][32]; /* the program's own names, all short */
    size_t n;
} option_table;

void cli_run_init(cli_run *r, unsigned groups) {
    memset(r, 0, sizeof *r);
    r->groups = groups;
}

/* Appends count options of spec (all when count is SIZE_MAX: up to its NULL) from value val up,
 * or those of list (a struct option array) as they are; the table stays terminated. */
static void add_options(option_table *t, const char *const *spec, size_t count, int val,
                        const struct option *list) {
    for (size_t i = 0; spec && i < count && spec[i] && t->n + 1 < MAX_OPTIONS; i++) {
        size_t len = strcspn(spec[i], ":");
        snprintf(t->names[t->n], sizeof t->names[t->n], "%.*s", (int)len, spec[i]);
        struct option o = {t->names[t->n], spec[i][len] == ':' ? required_argument : no_argument,
                           NULL, val + (int)i};
        t->all[t->n++] = o;
    }
    for (; list && list->name && t->n + 1 < MAX_OPTIONS; list++) {
        t->all[t->n++] = *list;
    }
    memset(&t->all[t->n], 0, sizeof t->all[t->n]);
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
    case 'q':
    case OPT_QUIET: r->quiet = 1; return EXIT_OK;
    case OPT_STRICT: r->ropts.flags |= PGN_READ_STRICT; return EXIT_OK;
    case OPT_FIX: r->ropts.flags |= PGN_READ_FIX; return EXIT_OK;
    case 'o':
    case OPT_OUTPUT: r->out_path = arg; return EXIT_OK;
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
    case OPT_JOBS:
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
    case OPT_INPUT_LANG:
    case OPT_NOTATION: return input_lang_option(r, arg);
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

/* cli_run_parse and cli_run_args: the command's options are opts or spec. */
static int parse(cli_run *r, int argc, char **argv, const char *usage, const struct option *opts,
                 const char *const *spec, const char *shortopts, cli_opt_fn fn, void *user) {
    option_table t;
    char shorts[64];
    t.n = 0;
    add_options(&t, spec, SIZE_MAX, CLI_OPT_COMMAND, opts);
    for (size_t i = 0; i < sizeof option_groups / sizeof option_groups[0]; i++) {
        if (r->groups & option_groups[i].group) {
            add_options(&t, all_options + option_groups[i].first, option_groups[i].count,
                        OPT_QUIET + (int)option_groups[i].first, NULL);
        }
    }
    add_options(&t, r->groups & CLI_EDITS ? edit_options : NULL,
                sizeof edit_options / sizeof edit_options[0], CLI_OPT_STRIP_COMMENTS, NULL);
    add_options(&t, all_options + (OPT_HELP - OPT_QUIET), 1, OPT_HELP, NULL);
    snprintf(shorts, sizeof shorts, ":h%s%s%s", r->groups & CLI_READS ? "qj:" : "",
             r->groups & CLI_WRITES ? "o:" : "", shortopts ? shortopts : "");
    int ch, status = EXIT_OK;
    opterr = 0;
    optind = 1;
    cli_defer_usage(1);
    while ((ch = getopt_long(argc, argv, shorts, t.all, NULL)) != -1) {
        int st;
        if (ch == 'h' || ch == OPT_HELP) {
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

int cli_run_parse(cli_run *r, int argc, char **argv, const char *usage, const struct option *opts,
                  const char *shortopts, cli_opt_fn fn, void *user) {
    return parse(r, argc, argv, usage, opts, NULL, shortopts, fn, user);
}

int cli_run_args(cli_run *r, int argc, char **argv, const char *usage, const char *const *spec,
                 const char *shortopts, cli_opt_fn fn, void *user) {
    return parse(r, argc, argv, usage, NULL, spec, shortopts, fn, user);
}

static int open_outputs(cli_run *r);

int cli_run_check_output(cli_run *r, const char *what, const char *path) {
    for (int i = 0; path && strcmp(path, "-") != 0 && i < r->nfiles; i++) {
        if (pgn_output_same_file(path, r->files[i])) {
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
    if (sa || sb ? sa && sb : pgn_output_same_file(a, b)) {
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
    if (rej && (strcmp(rej, "-") == 0 ? !out : out && pgn_output_same_file(out, rej))) {
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
