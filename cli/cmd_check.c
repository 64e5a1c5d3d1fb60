/* SPDX-License-Identifier: MIT */
/* pgnkit check: reads PGN, checks every move, prints every problem GCC-style or as JSON lines. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "parallel.h"

#include <stdio.h>

static const char usage_text[] =
    "usage: pgnkit check [--strict] [--max-errors N] [--diag text|json] [--syntax-only]\n"
    "                    [--input-encoding auto|utf-8|latin-1|cp1252|cp437] [--input-lang LANG]\n"
    "                    [--quiet] [--where EXPR] [--range START:END [--line-base N]] [-j N]\n"
    "                    [--progress] [FILE...]\n"
    "Reads PGN files (or stdin, also '-') and checks every game: syntax, tags, and every move\n"
    "against the rules. Diagnostics go to stderr as FILE:LINE:COL: error|warning: ... [CODE] (game "
    "N),\n"
    "or as JSON lines with --diag json, then a summary 'N games, N errors, N warnings'.\n"
    "  --strict        import-format quirks (0-0, missing result, ...) are errors\n"
    "  --syntax-only   do not check moves against the rules (tags and syntax only; fast)\n"
    "  --max-errors N  stop reading after N errors (over all the files)\n"
    "  --quiet         print no warnings (still counted) and no summary line\n"
    "  --input-lang L  piece letters: auto (English, else per game the language that reads it),\n"
    "                  en (English only), de, fr, es, ..., ru, figurine, descriptive[:es|:pt] "
    "(docs/notation.md); --notation L is the same option\n" CLI_WHERE_USAGE CLI_RANGE_USAGE
        CLI_JOBS_USAGE
    "exit status: 0 no errors, 1 errors found, 2 usage error, 3 I/O or memory failure\n";

enum { OPT_SYNTAX_ONLY = CLI_OPT_COMMAND };
static const char *const options[] = {"syntax-only", NULL};

static int check_option(void *user, int ch, const char *arg) {
    cli_run *r = user;
    (void)arg;
    if (ch == OPT_SYNTAX_ONLY) {
        r->ropts.flags |= PGN_READ_NO_BOARD;
        return EXIT_OK;
    }
    return cli_usage("unknown option");
}

int cmd_check(int argc, char **argv) {
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WHERE);
    int st = cli_run_args(&r, argc, argv, usage_text, options, "", check_option, &r);
    if (st != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    if ((st = cli_run_open(&r)) != EXIT_OK) {
        return st;
    }
    static const pgn_par_hooks reading_only = {NULL, NULL, NULL, NULL};
    r.par = &reading_only; /* reading is all of check's work: -j defaults to the cores */
    cli_run_visit(&r, NULL, NULL, NULL, NULL);
    return cli_run_finish(&r, CLI_SUMMARY_CHECK);
}
