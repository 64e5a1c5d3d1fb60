/* SPDX-License-Identifier: MIT */
/* pgnkit moves [--variant NAME] [--fen FEN] [--chess960]: every legal move as "SAN UCI", sorted
 * by UCI. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit moves [--variant NAME] [--fen FEN] [--chess960]\n"
    "Prints every legal move of the position as 'SAN UCI', one per line,\n"
    "sorted by UCI (drops as N@f3). Without --fen, the starting position.\n"
    "--variant NAME: the rules of a variant (crazyhouse, atomic, antichess, 3check,\n"
    "kingofthehill, horde, racingkings; docs/variants.md), --fen read in its dialect.\n";

typedef struct move_line {
    char uci[PGN_UCI_MAX];
    char san[PGN_SAN_MAX];
} move_line;

static int by_uci(const void *a, const void *b) {
    return strcmp(((const move_line *)a)->uci, ((const move_line *)b)->uci);
}

int cmd_moves(int argc, char **argv) {
    static const char *const options[] = {CLI_POSITION_OPTIONS, NULL};
    cli_position_args a;
    int st = cli_position_parse(&a, argc, argv, usage_text, options, NULL, NULL);
    if (st != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    if (optind != argc) {
        return cli_usage_error("moves", usage_text, "unexpected argument");
    }
    pgn_pos pos;
    st = cli_position_variant(&pos, a.fen, a.chess960, a.variant);
    if (st != EXIT_OK) {
        return st;
    }
    pgn_movelist l;
    move_line lines[sizeof l.moves / sizeof l.moves[0]];
    pgn_pos_legal_moves(&pos, &l);
    for (unsigned i = 0; i < l.count; i++) {
        pgn_uci_write(&pos, l.moves[i], lines[i].uci);
        pgn_san_write(&pos, l.moves[i], lines[i].san);
    }
    if (l.count == 0) {
        pgn_outcome o = pgn_pos_outcome(&pos, 1);
        cli_error(NULL, "%s: no legal moves",
                  o == PGN_OUTCOME_NONE ? "stalemate" : pgn_outcome_name(o));
    }
    qsort(lines, l.count, sizeof lines[0], by_uci);
    for (unsigned i = 0; i < l.count; i++) {
        printf("%s %s\n", lines[i].san, lines[i].uci);
    }
    return EXIT_OK;
}
