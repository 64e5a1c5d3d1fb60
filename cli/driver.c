/* SPDX-License-Identifier: MIT */
/* The one driver of the commands that read games (driver.h): the shared options, parsed once with
 * getopt_long; one reader per input; the per-game callback or visitor; totals, --max-errors over
 * the whole run, the summary and the exit status. */
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

/* A positive integer (decimal digits only, no sign), or 0. */
static uint64_t positive(const char *s) {
    uint64_t v = 0;
    if (!*s) {
        return 0;
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10) {
            return 0;
        }
        v = v * 10 + (uint64_t)(*s - '0');
    }
    return v;
}

/* --input-lang LANG: that language's piece letters only; "auto" (the default): English, and per
 * game another language when English cannot read it; "en": English only. */
static int input_lang_option(cli_run *r, const char *arg) {
    pgn_lang lang = PGN_LANG_ENGLISH;
    r->ropts.flags &= ~PGN_READ_NO_LANG_DETECT;
    if (strcmp(arg, "auto") != 0 && !pgn_lang_from_name(arg, &lang)) {
        return cli_usage("--input-lang takes auto or a language (en, de, fr, ..., ru, figurine; "
                         "docs/notation.md), not '%s'",
                         arg);
    }
    if (strcmp(arg, "auto") != 0 && lang == PGN_LANG_ENGLISH) {
        r->ropts.flags |= PGN_READ_NO_LANG_DETECT;
    }
    r->ropts.input_lang = lang;
    return EXIT_OK;
}

/* One shared option; EXIT_OK or a usage error. */
static int common_option(cli_run *r, int ch, const char *arg) {
    switch (ch) {
    case 'q': r->quiet = 1; return EXIT_OK;
    case OPT_STRICT: r->ropts.flags |= PGN_READ_STRICT; return EXIT_OK;
    case 'o': r->out_path = arg; return EXIT_OK;
    case OPT_REJECTS: r->rejects_path = arg; return EXIT_OK;
    case OPT_WHERE: r->where = arg; return EXIT_OK;
    case OPT_DIAG:
        if (strcmp(arg, "json") != 0 && strcmp(arg, "text") != 0) {
            return cli_usage("--diag takes text or json, not '%s'", arg);
        }
        cli_set_diag_json(strcmp(arg, "json") == 0);
        return EXIT_OK;
    case OPT_MAX_ERRORS:
        if ((r->max_errors = positive(arg)) == 0) {
            return cli_usage("--max-errors takes a positive integer, not '%s'", arg);
        }
        return EXIT_OK;
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
        return cli_jobs_option(arg, &r->jobs) ? EXIT_OK
                                              : cli_usage("-j takes a number of threads or auto, "
                                                          "not '%s'",
                                                          arg);
    case OPT_PROGRESS:
    case OPT_NO_PROGRESS: cli_progress_mode(ch == OPT_PROGRESS); return EXIT_OK;
    case OPT_ENCODING:
        if (!cli_parse_encoding(arg, &r->ropts.encoding)) {
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

static void worst(cli_run *r, int status) {
    if (status > r->status) {
        r->status = status;
    }
}

/* Counts the diagnostics and prints them (warnings not under --quiet). */
static void run_diag(void *ctx, const pgn_diag *d) {
    const cli_run *r = ctx;
    cli_print_diag_detail(d, r->quiet, NULL);
}

/* One step: the next game of rd; the driver's loop below does the rest. */
typedef struct step {
    pgn_reader *rd;
    pgn_game *game; /* NULL: visitor mode */
    const pgn_visitor *v;
    void *vuser;
    cli_each_fn fn;
    void *user;
    int from_fn;      /* the status came from fn, not the reader */
    cli_where *where; /* --where: the matcher and the held diagnostics */
    pgn_diag_fn diag; /* where the diagnostics go (held first under --where) */
    void *diag_ctx;
} step;

/* Calls fn with the game rd just read. */
static pgn_status give(cli_run *r, step *s, const cli_input *in) {
    const pgn_game_summary *sum = pgn_reader_summary(s->rd);
    cli_game g = {s->game, sum, pgn_reader_raw(s->rd), in, r->games + sum->game};
    pgn_status st = s->fn(r, s->user, &g);
    s->from_fn = st != PGN_OK;
    return st;
}

static pgn_status one_game(cli_run *r, step *s, const cli_input *in) {
    pgn_status st =
        s->game ? pgn_reader_next(s->rd, s->game) : pgn_reader_visit(s->rd, s->v, s->vuser);
    if (st == PGN_OK) {
        cli_progress_game();
    }
    return st != PGN_OK || !s->fn ? st : give(r, s, in);
}

/* --where, a game that matched: its raw bytes read again, into the tree or through the
 * command's visitor (its diagnostics were printed from the first reading). */
static pgn_status reread(cli_run *r, step *s) {
    if (!s->game && !s->v) {
        return PGN_OK;
    }
    pgn_str raw = pgn_reader_raw(s->rd);
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = r->ropts.flags & ~(uint32_t)PGN_READ_KEEP_RAW;
    ro.encoding = r->ropts.encoding;
    ro.input_lang = r->ropts.input_lang;
    pgn_reader *rd;
    pgn_status st = pgn_reader_new_mem(&rd, &ro, raw.ptr, raw.len);
    if (st == PGN_OK) {
        st = s->game ? pgn_reader_next(rd, s->game) : pgn_reader_visit(rd, s->v, s->vuser);
        pgn_reader_free(rd);
    }
    return st == PGN_END ? PGN_OK : st;
}

/* --where: reads the next game with the matcher; a game that matches gets its diagnostics
 * printed and goes to the command, one that does not is skipped without a word. */
static pgn_status where_game(cli_run *r, step *s, const cli_input *in) {
    pgn_status st = pgn_reader_visit(s->rd, cli_where_visitor(), s->where);
    int matched = 0;
    if (st == PGN_OK) {
        cli_progress_game();
    }
    if (st == PGN_OK && cli_where_matched(s->where, &matched) != PGN_OK) {
        st = PGN_E_NOMEM;
    }
    uint64_t counts[2] = {0, 0};
    int full = cli_where_flush(s->where, matched || st != PGN_OK, s->diag, s->diag_ctx,
                               r->max_errors ? r->max_errors - r->errors : 0, counts);
    r->errors += counts[0];
    r->warnings += counts[1];
    if (full < 0 && st == PGN_OK) {
        st = PGN_E_NOMEM;
    }
    if (st != PGN_OK || !matched) {
        return st;
    }
    r->matched++;
    if (full > 0) {
        return PGN_E_LIMIT; /* as the reader does: the game that reaches the limit is not given */
    }
    if ((st = reread(r, s)) != PGN_OK) {
        return st;
    }
    return s->fn ? give(r, s, in) : PGN_OK;
}

/* The input of an empty --range (zstd frames without text). */
static ptrdiff_t read_nothing(void *ctx, void *buf, size_t cap) {
    (void)ctx;
    (void)buf;
    (void)cap;
    return 0;
}

/* The reader options of one input. */
static pgn_reader_opts input_opts(cli_run *r, step *s, const cli_input *in) {
    pgn_reader_opts ro = r->ropts;
    ro.source_name = in->name;
    ro.range_start = in->range_start;
    ro.range_end = in->range_end;
    ro.line_base = in->line_base;
    s->diag = ro.on_diag ? ro.on_diag : run_diag;
    s->diag_ctx = ro.on_diag ? ro.diag_ctx : r;
    ro.on_diag = s->diag;
    ro.diag_ctx = s->diag_ctx;
    if (r->raw || r->rejects.file) {
        ro.flags |= PGN_READ_KEEP_RAW;
    }
    ro.max_errors = r->max_errors ? r->max_errors - r->errors : 0;
    if (s->where) { /* the driver holds the diagnostics, counts them and stops */
        ro.on_diag = cli_where_diag;
        ro.diag_ctx = s->where;
        ro.max_errors = 0;
        ro.flags |= PGN_READ_KEEP_RAW;
        ro.flags &= ~(uint32_t)PGN_READ_NO_KEYS | pgn_query_reader_flags(r->query);
        ro.flags &= ~(uint32_t)PGN_READ_NO_BOARD | pgn_query_reader_flags(r->query);
    }
    return ro;
}

/* Reads one input on this thread: the status that ended it (the totals added to r); PGN_E_NOMEM
 * with *made 0 when the reader could not be made. */
static pgn_status serial_input(cli_run *r, step *s, cli_input *in, const pgn_reader_opts *ro,
                               int *made) {
    *made = pgn_reader_new(&s->rd, ro, in->empty ? read_nothing : in->read, in->ctx) == PGN_OK;
    if (!*made) {
        return PGN_E_NOMEM;
    }
    pgn_status st;
    s->from_fn = 0;
    while ((st = s->where ? where_game(r, s, in) : one_game(r, s, in)) == PGN_OK) {
    }
    uint64_t games, errors, warnings;
    pgn_reader_totals(s->rd, &games, &errors, &warnings);
    r->games += games;
    if (!s->where) { /* where_game counted those it printed */
        r->errors += errors;
        r->warnings += warnings;
    }
    pgn_reader_free(s->rd);
    s->rd = NULL;
    return st;
}

/* Reads one input to its end (or to the end of the run). */
static void run_input(cli_run *r, step *s, cli_input *in) {
    pgn_reader_opts ro = input_opts(r, s, in);
    pgn_status st;
    int made = 1;
    cli_progress_input(in);
    if (!s->where && cli_par_wanted(r, in, s->v != NULL)) { /* -j N: cli/parallel.c */
        st = cli_par_input(r, in, s->game != NULL, s->v, s->fn, s->user, &s->from_fn);
    } else { /* --where reads on this thread */
        st = serial_input(r, s, in, &ro, &made);
    }
    cli_progress_clear();
    if (!made) {
        cli_error(NULL, "out of memory");
        r->aborted = 1;
    } else if (st == PGN_E_LIMIT && !s->from_fn) {
        r->stopped = 1;
    } else if (st == PGN_E_IO && !s->from_fn) {
        const char *why = cli_input_error(in);
        cli_error(in->name, "%s", why ? why : in->err ? strerror(in->err) : pgn_status_message(st));
        worst(r, EXIT_RESOURCE);
    } else if (st != PGN_END) { /* a write error is reported when its output is closed */
        if (st != PGN_E_IO) {
            cli_error(in->name, "%s", pgn_status_message(st));
        }
        r->aborted = 1;
    }
}

static int run_all(cli_run *r, step *s) {
    if (r->query && cli_where_new(&s->where, r->query) != PGN_OK) {
        cli_error(NULL, "out of memory");
        r->aborted = 1;
    }
    for (int i = 0; i < r->nfiles && !r->aborted && !r->stopped; i++) {
        cli_input in;
        if (cli_input_open(&in, r->files[i]) != EXIT_OK ||
            ((r->ropts.range_start || r->ropts.range_end) &&
             cli_input_range(&in, &r->ropts) != EXIT_OK)) {
            cli_input_close(&in);
            worst(r, EXIT_RESOURCE);
            continue;
        }
        run_input(r, s, &in);
        cli_input_close(&in);
    }
    cli_where_free(s->where);
    s->where = NULL;
    if (r->aborted) {
        worst(r, EXIT_RESOURCE);
    }
    return r->status;
}

int cli_run_games(cli_run *r, cli_each_fn fn, void *user) {
    step s = {NULL, NULL, NULL, NULL, fn, user, 0, NULL, NULL, NULL};
    if (pgn_game_new(&s.game, NULL) != PGN_OK) {
        cli_error(NULL, "out of memory");
        r->aborted = 1;
        worst(r, EXIT_RESOURCE);
        return r->status;
    }
    run_all(r, &s);
    pgn_game_free(s.game);
    return r->status;
}

int cli_run_visit(cli_run *r, const pgn_visitor *v, void *vuser, cli_each_fn fn, void *user) {
    step s = {NULL, NULL, v, vuser, fn, user, 0, NULL, NULL, NULL};
    return run_all(r, &s);
}
/* JSON input: the reader's detail goes with each diagnostic. */
typedef struct json_diag_ctx {
    cli_run *r;
    const pgn_json_reader *jr;
} json_diag_ctx;

static void json_diag(void *ctx, const pgn_diag *d) {
    json_diag_ctx *j = ctx;
    cli_print_diag_detail(d, j->r->quiet, j->jr ? pgn_json_reader_detail(j->jr) : NULL);
}

/* Reads the games of one JSON input; the status that ended it. */
static pgn_status json_input(cli_run *r, cli_input *in, pgn_game *game, cli_each_fn fn,
                             void *user) {
    json_diag_ctx dc = {r, NULL};
    pgn_json_reader_opts o;
    pgn_json_reader *jr;
    memset(&o, 0, sizeof o);
    o.source_name = in->name;
    o.on_diag = json_diag;
    o.diag_ctx = &dc;
    if (pgn_json_reader_new(&jr, &o, in->read, in->ctx) != PGN_OK) {
        return PGN_E_NOMEM;
    }
    dc.jr = jr;
    pgn_game_summary sum;
    pgn_status st;
    uint64_t n = 0, games, errors;
    while ((st = pgn_json_reader_next(jr, game)) != PGN_END) {
        if (st == PGN_E_NOMEM || st == PGN_E_IO) {
            break;
        }
        memset(&sum, 0, sizeof sum);
        sum.game = ++n;
        sum.broken = st != PGN_OK;
        sum.errors = st != PGN_OK;
        cli_game g = {st == PGN_OK ? game : NULL, &sum, {NULL, 0}, in, r->games + n};
        if ((st = fn(r, user, &g)) != PGN_OK) {
            r->aborted = 1;
            break;
        }
    }
    pgn_json_reader_totals(jr, &games, &errors);
    r->games += games > n ? games : n; /* a syntax error ends the input: a refused game too */
    r->errors += errors;
    pgn_json_reader_free(jr);
    return st == PGN_E_NOMEM || st == PGN_E_IO || r->aborted ? st : PGN_END;
}

int cli_run_json(cli_run *r, cli_each_fn fn, void *user) {
    pgn_game *game;
    if (pgn_game_new(&game, NULL) != PGN_OK) {
        cli_error(NULL, "out of memory");
        r->aborted = 1;
        worst(r, EXIT_RESOURCE);
        return r->status;
    }
    for (int i = 0; i < r->nfiles && !r->aborted; i++) {
        cli_input in;
        if (cli_input_open(&in, r->files[i]) != EXIT_OK) {
            worst(r, EXIT_RESOURCE);
            continue;
        }
        pgn_status st = json_input(r, &in, game, fn, user);
        if (st == PGN_E_IO && !r->aborted) {
            cli_error(in.name, "%s", in.err ? strerror(in.err) : pgn_status_message(st));
            worst(r, EXIT_RESOURCE);
        } else if (st != PGN_END) {
            if (st != PGN_E_IO) {
                cli_error(in.name, "%s", pgn_status_message(st));
            }
            r->aborted = 1;
            worst(r, EXIT_RESOURCE);
        }
        cli_input_close(&in);
    }
    pgn_game_free(game);
    return r->status;
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
        worst(r, EXIT_INPUT);
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

pgn_status cli_write_raw(FILE *f, const char *raw, size_t len) {
    if (!f || len == 0) {
        return PGN_OK;
    }
    int ok = fwrite(raw, 1, len, f) == len && (raw[len - 1] == '\n' || fputc('\n', f) != EOF);
    return ok ? PGN_OK : PGN_E_IO;
}
