/* SPDX-License-Identifier: MIT */
/* pgnkit perft [--variant NAME] [--fen FEN] [--chess960] [--divide] [--no-bulk] DEPTH */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit perft [--variant NAME] [--fen FEN] [--chess960] [--divide] [--no-bulk] DEPTH\n"
    "Counts the leaf nodes of the legal move tree to DEPTH plies and prints the count alone on "
    "the\n"
    "last line. --divide first prints one line 'UCI: COUNT' per legal move, sorted by UCI.\n"
    "--no-bulk plays every leaf move instead of counting the last ply's moves.\n"
    "--variant NAME: the rules of a variant (crazyhouse, atomic, antichess, 3check,\n"
    "kingofthehill, horde, racingkings; docs/variants.md), its start or --fen in its dialect.\n";

typedef struct divide_line {
    char uci[PGN_UCI_MAX];
    uint64_t count;
} divide_line;

static int by_uci(const void *a, const void *b) {
    return strcmp(((const divide_line *)a)->uci, ((const divide_line *)b)->uci);
}

int cmd_perft(int argc, char **argv) {
    static const struct option opts[] = {{"fen", required_argument, NULL, 'f'},
                                         {"chess960", no_argument, NULL, '9'},
                                         {"divide", no_argument, NULL, 'd'},
                                         {"no-bulk", no_argument, NULL, 'n'},
                                         {"variant", required_argument, NULL, 'v'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *fen = NULL, *variant = NULL;
    int chess960 = 0, divide = 0, bulk = 1, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': fen = optarg; break;
        case '9': chess960 = 1; break;
        case 'd': divide = 1; break;
        case 'n': bulk = 0; break;
        case 'v': variant = optarg; break;
        case 'h': fputs(usage_text, stdout); return EXIT_OK;
        default: return cli_usage_error("perft", usage_text, NULL);
        }
    }
    if (optind + 1 != argc) {
        return cli_usage_error("perft", usage_text, "expected one DEPTH");
    }
    uint64_t depth = 0;
    if (!cli_parse_u64(argv[optind], 0, 30, &depth)) {
        return cli_usage_error("perft", usage_text, "DEPTH must be an integer from 0 to 30");
    }
    pgn_pos pos;
    int st = cli_position_variant(&pos, fen, chess960, variant);
    if (st != EXIT_OK) {
        return st;
    }
    if (!divide || depth == 0) {
        printf("%llu\n", (unsigned long long)pgn_perft(&pos, (unsigned)depth, bulk));
        return EXIT_OK;
    }
    pgn_movelist l;
    divide_line lines[sizeof l.moves / sizeof l.moves[0]];
    uint64_t total = 0;
    pgn_pos_legal_moves(&pos, &l);
    for (unsigned i = 0; i < l.count; i++) {
        pgn_pos q = pos;
        pgn_uci_write(&pos, l.moves[i], lines[i].uci);
        pgn_pos_play(&q, l.moves[i]);
        lines[i].count = pgn_perft(&q, (unsigned)depth - 1, bulk);
        total += lines[i].count;
    }
    qsort(lines, l.count, sizeof lines[0], by_uci);
    for (unsigned i = 0; i < l.count; i++) {
        printf("%s: %llu\n", lines[i].uci, (unsigned long long)lines[i].count);
    }
    printf("%llu\n", (unsigned long long)total);
    return EXIT_OK;
}
