/* SPDX-License-Identifier: MIT */
/* pgnkit perft [--variant NAME] [--fen FEN] [--chess960] [--divide] [--no-bulk] DEPTH */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

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

enum { OPT_DIVIDE = CLI_OPT_POSITION_END, OPT_NO_BULK };
static const char *const options[] = {CLI_POSITION_OPTIONS, "divide", "no-bulk", NULL};

/* --divide (bulk[0] set) and --no-bulk (bulk[1] cleared). */
static int perft_option(void *user, int ch, const char *arg) {
    int *flags = user;
    (void)arg;
    if (ch != OPT_DIVIDE && ch != OPT_NO_BULK) {
        return cli_usage("unknown option");
    }
    flags[ch == OPT_NO_BULK] = ch == OPT_DIVIDE;
    return EXIT_OK;
}

int cmd_perft(int argc, char **argv) {
    cli_position_args a;
    int flags[2] = {0, 1}; /* divide, bulk */
    int st = cli_position_parse(&a, argc, argv, usage_text, options, perft_option, flags);
    if (st != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    int divide = flags[0], bulk = flags[1];
    if (optind + 1 != argc) {
        return cli_usage_error("perft", usage_text, "expected one DEPTH");
    }
    uint64_t depth = 0;
    if (!cli_parse_u64(argv[optind], 0, 30, &depth)) {
        return cli_usage_error("perft", usage_text, "DEPTH must be an integer from 0 to 30");
    }
    pgn_pos pos;
    st = cli_position_variant(&pos, a.fen, a.chess960, a.variant);
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
