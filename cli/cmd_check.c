/* SPDX-License-Identifier: MIT */
/* pgnkit check: reads PGN, checks every move, prints every problem GCC-style or as JSON lines. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit check [--strict] [--max-errors N] [--diag text|json] [--syntax-only]\n"
    "                    [--input-encoding auto|utf-8|latin-1|cp1252|cp437] [--quiet]\n"
    "                    [--range START:END [--line-base N]] [FILE...]\n"
    "Reads PGN files (or stdin, also '-') and checks every game: syntax, tags, and every move\n"
    "against the rules. Diagnostics go to stderr as FILE:LINE:COL: error|warning: ... [CODE] (game "
    "N),\n"
    "or as JSON lines with --diag json, then a summary 'N games, N errors, N warnings'.\n"
    "  --strict        import-format quirks (0-0, missing result, ...) are errors\n"
    "  --syntax-only   do not check moves against the rules (tags and syntax only; fast)\n"
    "  --quiet         do not print warnings (still counted)\n" CLI_RANGE_USAGE
    "exit status: 0 no errors, 1 errors found, 2 usage error, 3 I/O or memory failure\n";

typedef struct check_opts {
    pgn_reader_opts ropts;
    cli_diag_ctx dctx;
} check_opts;

int cmd_check(int argc, char **argv) {
    static const struct option opts[] = {{"strict", no_argument, NULL, 's'},
                                         {"max-errors", required_argument, NULL, 'm'},
                                         {"diag", required_argument, NULL, 'd'},
                                         {"syntax-only", no_argument, NULL, 'n'},
                                         {"input-encoding", required_argument, NULL, 'e'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         CLI_RANGE_LONG_OPTIONS,
                                         {NULL, 0, NULL, 0}};
    check_opts o;
    memset(&o, 0, sizeof o);
    o.ropts.on_diag = cli_print_diag;
    o.ropts.diag_ctx = &o.dctx;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hq", opts, NULL)) != -1) {
        switch (c) {
        case 's': o.ropts.flags |= PGN_READ_STRICT; break;
        case 'n': o.ropts.flags |= PGN_READ_NO_BOARD; break;
        case 'q': o.dctx.quiet_warnings = 1; break;
        case 'm': o.ropts.max_errors = strtoull(optarg, NULL, 10); break;
        case 'd':
            if (strcmp(optarg, "json") == 0) {
                o.dctx.json = 1;
            } else if (strcmp(optarg, "text") != 0) {
                return cli_usage_error("check", usage_text, "--diag takes text or json");
            }
            break;
        case 'e':
            if (!cli_parse_encoding(optarg, &o.ropts.encoding)) {
                return cli_usage_error("check", usage_text, "unknown --input-encoding");
            }
            break;
        case 'h': fputs(usage_text, stdout); return EXIT_OK;
        case CLI_OPT_RANGE:
        case CLI_OPT_LINE_BASE:
            if (!cli_range_option(c, optarg, &o.ropts)) {
                return cli_usage_error("check", usage_text,
                                       "bad --range START:END or --line-base N");
            }
            break;
        default: return cli_usage_error("check", usage_text, NULL);
        }
    }
    uint64_t totals[3] = {0, 0, 0};
    int status = cli_for_each_input(argc - optind, argv + optind, &o.ropts, NULL, NULL, totals);
    fprintf(stderr, "%llu games, %llu errors, %llu warnings\n", (unsigned long long)totals[0],
            (unsigned long long)totals[1], (unsigned long long)totals[2]);
    return status;
}
