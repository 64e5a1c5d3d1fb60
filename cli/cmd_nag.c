/* SPDX-License-Identifier: MIT */
/* pgnkit nag: the NAG table (PGN §10) from the command line: a number's symbol and meaning, the
 * NAGs a glyph such as ± or +/= stands for, or all 256 rows. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit nag N | SYMBOL | --list\n"
    "Prints NAG N ($N or N, 0-255), or the NAGs that SYMBOL stands for (!, ?!, ±, +/=, =, N, "
    "...),\n"
    "or with --list all 256, one per line: $N<TAB>SYMBOL<TAB>MEANING (SYMBOL empty where none).\n"
    "A glyph that stands for a White/Black pair (→, ↑, ⟳, ⇆, ⨀) prints both.\n"
    "exit status: 0 found, 1 no such NAG or glyph, 2 usage error\n";

static void print_row(unsigned nag) {
    const pgn_nag_info *info = pgn_nag_get((uint8_t)nag);
    printf("$%u\t%s\t%s\n", info->nag, info->symbol, info->meaning);
}

/* "14" or "$14": 1 and *out set if arg is a NAG number (any size; the caller checks the range). */
static int parse_number(const char *arg, unsigned long *out) {
    const char *p = arg[0] == '$' ? arg + 1 : arg;
    if (*p == '\0' || strspn(p, "0123456789") != strlen(p)) {
        return 0;
    }
    *out = strlen(p) > 6 ? 1000000 : strtoul(p, NULL, 10);
    return 1;
}

/* Prints the NAGs glyph stands for; 0 if it is no glyph. */
static int print_glyph(const char *glyph) {
    unsigned white, black;
    if (!pgn_nag_from_symbol(glyph, strlen(glyph), PGN_WHITE, &white) ||
        !pgn_nag_from_symbol(glyph, strlen(glyph), PGN_BLACK, &black)) {
        return 0;
    }
    /* a pair glyph gives White's number for one mover and Black's for the other */
    print_row(white < black ? white : black);
    if (white != black) {
        print_row(white < black ? black : white);
    }
    return 1;
}

int cmd_nag(int argc, char **argv) {
    /* glyphs such as -+ and -/+ look like options to getopt */
    if (argc == 2 && argv[1][0] == '-' && print_glyph(argv[1])) {
        return EXIT_OK;
    }
    static const struct option opts[] = {
        {"list", no_argument, NULL, 'l'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c, list = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        switch (c) {
        case 'l': list = 1; break;
        case 'h': fputs(usage_text, stdout); return EXIT_OK;
        default: return cli_usage_error("nag", usage_text, NULL);
        }
    }
    if (list) {
        if (optind != argc) {
            return cli_usage_error("nag", usage_text, "--list takes no argument");
        }
        for (unsigned n = 0; n < 256; n++) {
            print_row(n);
        }
        return EXIT_OK;
    }
    if (argc - optind != 1) {
        return cli_usage_error("nag", usage_text, "expected one N or SYMBOL, or --list");
    }
    const char *arg = argv[optind];
    unsigned long number;
    if (parse_number(arg, &number)) {
        if (number > 255) {
            cli_error(NULL, "'%s': NAGs range from 0 to 255", arg);
            return EXIT_INPUT;
        }
        print_row((unsigned)number);
        return EXIT_OK;
    }
    if (!print_glyph(arg)) {
        cli_error(NULL, "'%s' is no NAG glyph", arg);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}
