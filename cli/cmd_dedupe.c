/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe: drops duplicate games, those with the same start position and main line (and
 * with --by moves+tags the same players, date and result). The library decides
 * (pgn_dedupe_keeper: Zobrist line keys confirmed against each distinct game's line record, made
 * by a visitor without a game tree, or with --keep richest from the tree); the command keeps the
 * options, the output files and the messages. --keep richest spools every game's text, read again
 * by the second pass (pgn_dedupe_files, include/pgnkit/dedupe_run.h). Never the games' text in
 * memory. */
#define _POSIX_C_SOURCE 200809L
#include "dedupe.h"

#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit dedupe [--by moves|moves+tags] [--keep first|richest] [--dupes FILE]\n"
    "                     [--report FILE] [-o OUT] [--where EXPR] [reading options] [FILE...]\n"
    "Writes each distinct game once, unchanged. Games are duplicates when their start position\n"
    "and main line are equal (confirmed move by move, never by a hash alone). A game without\n"
    "moves is a duplicate only of the same game: its White, Black, Date and Result count too.\n"
    "  --by moves+tags  also White, Black, Date and Result equal (names: case, spaces and .,-\n"
    "                   ignored)\n"
    "  --keep richest   keep the copy with the most tags, comments, NAGs and variation moves\n"
    "                   (the first on a tie); the default keeps the first copy\n"
    "  --dupes FILE     the dropped copies, unchanged\n"
    "  --report FILE    JSON: every cluster of two or more copies, with each copy's ordinal,\n"
    "                   input, line and whether it was kept\n"
    "A game with errors is always kept.\n" CLI_WHERE_USAGE CLI_READ_USAGE CLI_RANGE_USAGE
        CLI_JOBS_USAGE
    "exit status: 0 success, 1 the input had errors, 2 usage error, 3 I/O or memory failure\n";

static pgn_status write_raw(FILE *f, const cli_game *g) {
    return cli_write_raw(f, g->raw.ptr, g->raw.len);
}

/* --report: g, the first copy of a new cluster or a duplicate, remembered. */
static pgn_status remember(dd_state *s, const cli_game *g, uint64_t cluster, int is_new) {
    if (!s->report) {
        return PGN_OK;
    }
    return pgn_dedupe_report_add(s->rep, cluster, is_new, g->ordinal, g->input->name,
                                 g->summary->start.line);
}

/* --keep first, after the visitor read g: its line looked up; the output or --dupes. */
static pgn_status first_pass(cli_run *run, void *user, const cli_game *g) {
    dd_state *s = user;
    uint64_t key, cluster = 0;
    pgn_str rec;
    int is_new = 1;
    (void)run;
    if (g->summary->broken || g->raw.len > UINT32_MAX) {
        pgn_dedupe_keeper_add_broken(s->keep);
        return write_raw(s->out, g);
    }
    pgn_status st = dd_line_of(s, g, &key, &rec);
    if (st == PGN_OK) {
        st = pgn_dedupe_keeper_add(s->keep, g->ordinal, key, rec, 0, &cluster, &is_new);
    }
    st = st == PGN_OK ? remember(s, g, cluster, is_new) : st;
    return st == PGN_OK ? write_raw(is_new ? s->out : s->dupes, g) : st;
}

/* --keep richest, the first pass: every game spooled, the clusters and the richest copies. */
static pgn_status richest_pass(cli_run *run, void *user, const cli_game *g) {
    dd_state *s = user;
    uint64_t cluster;
    int is_new;
    pgn_status st = pgn_dedupe_files_spool(s->files, g->ordinal, g->summary->broken, g->raw);
    (void)run;
    if (st != PGN_OK || g->summary->broken || g->raw.len > UINT32_MAX) {
        if (st == PGN_OK) {
            pgn_dedupe_keeper_add_broken(s->keep);
        }
        return st;
    }
    st = pgn_dedupe_keeper_add_game(s->keep, g->ordinal, g->game, &cluster, &is_new);
    return st == PGN_OK ? remember(s, g, cluster, is_new) : st;
}

enum { OPT_BY = CLI_OPT_COMMAND, OPT_KEEP, OPT_DUPES, OPT_REPORT };
static const char *const options[] = {"by:", "keep:", "dupes:", "report:", NULL};

typedef struct dd_opts {
    dd_state *s;
    const char *dupes, *report;
} dd_opts;

static int dedupe_option(void *user, int ch, const char *arg) {
    dd_opts *o = user;
    switch (ch) {
    case OPT_BY:
        if (strcmp(arg, "moves") != 0 && strcmp(arg, "moves+tags") != 0) {
            return cli_usage("--by takes moves or moves+tags, not '%s'", arg);
        }
        o->s->flags = strcmp(arg, "moves+tags") == 0 ? PGN_DEDUPE_TAGS : 0;
        return EXIT_OK;
    case OPT_KEEP:
        if (strcmp(arg, "first") != 0 && strcmp(arg, "richest") != 0) {
            return cli_usage("--keep takes first or richest, not '%s'", arg);
        }
        o->s->richest = strcmp(arg, "richest") == 0;
        return EXIT_OK;
    case OPT_DUPES: o->dupes = arg; return EXIT_OK;
    case OPT_REPORT: o->report = arg; return EXIT_OK;
    default: return cli_usage("unknown option");
    }
}

/* Both passes and the report. */
static void run(cli_run *r, dd_state *s) {
    if (dd_open(s)) {
        r->aborted = 1;
        return;
    }
    if (s->richest) {
        cli_run_games(r, richest_pass, s);
    } else {
        r->ropts.flags |= PGN_READ_NO_KEYS; /* the visitor keys the start position itself */
        r->par = dd_line_hooks();
        cli_run_visit(r, pgn_dedupe_line_visitor(), s->line, first_pass, s);
    }
    pgn_status st = PGN_OK;
    if (!r->aborted && s->richest) {
        st = pgn_dedupe_keeper_finish(s->keep);
        st = st == PGN_OK ? dd_second_pass(s) : st;
    }
    if (st != PGN_OK) {
        cli_error(NULL, "%s", pgn_status_message(st));
        r->aborted = 1;
    }
    if (!r->aborted && s->report) { /* a write error is reported when the file is closed */
        uint64_t games = r->where ? r->matched : r->games;
        pgn_dedupe_report_write(s->rep, s->keep, games, s->flags, cli_output_write, s->report);
    }
}

/* Is one of the --dupes and --report files an input, the output (-o, standard output without
 * it), the rejects or the other one? */
static int side_clash(cli_run *r, const dd_opts *o) {
    const char *out = r->out_path ? r->out_path : "-";
    const char *what[2] = {"--dupes", "--report"}, *paths[2] = {o->dupes, o->report};
    for (int i = 0; i < 2; i++) {
        if (cli_run_check_output(r, what[i], paths[i]) != EXIT_OK ||
            cli_outputs_clash(what[i], paths[i], "the output", out) ||
            cli_outputs_clash(what[i], paths[i], "--rejects", r->rejects_path)) {
            return 1;
        }
    }
    return cli_outputs_clash("--dupes", o->dupes, "--report", o->report);
}

/* Opens (o: 1) or closes (o: 0) the --dupes and --report files. */
static int side_outputs(cli_run *r, dd_opts *o, cli_output out[2], int open, int status) {
    const char *paths[2] = {o->dupes, o->report};
    if (open && side_clash(r, o)) {
        return EXIT_USAGE;
    }
    for (int i = 0; i < 2; i++) {
        if (!paths[i]) {
            continue;
        }
        if (!open) {
            status = cli_output_close(&out[i], !r->aborted, status);
        } else if (cli_output_open(&out[i], paths[i]) != EXIT_OK) {
            return EXIT_RESOURCE;
        }
    }
    return status;
}

int cmd_dedupe(int argc, char **argv) {
    dd_state s;
    memset(&s, 0, sizeof s);
    dd_opts o = {&s, NULL, NULL};
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_WHERE);
    cli_output side[2];
    memset(side, 0, sizeof side);
    int st = cli_run_args(&r, argc, argv, usage_text, options, "", dedupe_option, &o);
    if (st == EXIT_OK) {
        st = side_outputs(&r, &o, side, 1, EXIT_OK);
    }
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        side_outputs(&r, &o, side, 0, EXIT_RESOURCE);
        return st == CLI_HELP ? EXIT_OK : st;
    }
    s.run = &r;
    r.raw = 1;
    s.out = r.out.file;
    s.dupes = o.dupes ? side[0].file : NULL;
    s.report = o.report ? &side[1] : NULL;
    run(&r, &s);
    pgn_dedupe_counts n = {0, 0, 0};
    if (s.keep) {
        n = pgn_dedupe_keeper_counts(s.keep);
    }
    pgn_dedupe_files_free(s.files);
    pgn_dedupe_keeper_free(s.keep);
    pgn_dedupe_line_free(s.line);
    pgn_dedupe_report_free(s.rep);
    cli_run_count(&r, "distinct", "distinct", n.distinct);
    cli_run_count(&r, "duplicates", "duplicates dropped", n.duplicates);
    r.status = side_outputs(&r, &o, side, 0, r.status);
    return cli_run_finish(&r, CLI_SUMMARY_COUNTS);
}
