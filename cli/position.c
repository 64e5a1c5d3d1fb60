/* SPDX-License-Identifier: MIT */
/* The position a command starts from (cli.h: cli_position, cli_position_variant): --fen and
 * --variant as fen, moves, perft and svg take them, with the messages of a bad one, and the
 * options of fen, moves and perft (cli_position_parse). Apart from
 * main.c, which calls the commands, so that no command calls back into it. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <string.h>

int cli_position(pgn_pos *pos, const char *fen, int chess960) {
    return cli_position_variant(pos, fen, chess960, NULL);
}

int cli_position_variant(pgn_pos *pos, const char *fen, int chess960, const char *variant) {
    pgn_variant v = PGN_VARIANT_STANDARD;
    int is960 = 0;
    if (variant && !pgn_variant_from_name(variant, strlen(variant), &v, &is960)) {
        cli_error(NULL,
                  "error: unknown variant '%s' (crazyhouse, atomic, antichess, 3check, "
                  "kingofthehill, horde, racingkings, chess960; docs/variants.md)",
                  variant);
        return EXIT_USAGE;
    }
    chess960 |= is960;
    if (!fen) {
        pgn_pos_init_variant(pos, v);
        pos->chess960 = chess960 != 0;
        return EXIT_OK;
    }
    pgn_fen_diag d;
    if (pgn_fen_parse_variant(pos, v, fen, strlen(fen), chess960 ? PGN_FEN_CHESS960 : 0, &d) !=
        PGN_OK) {
        cli_error(NULL, "error: invalid FEN '%s' at column %u (field %u): %s [%s]", fen, d.column,
                  d.field, d.reason, pgn_status_name(d.code));
        return EXIT_INPUT;
    }
    cli_print_warnings(fen, d.warnings);
    return EXIT_OK;
}

typedef struct position_parse {
    cli_position_args *a;
    cli_opt_fn fn;
    void *user;
} position_parse;

static int position_option(void *user, int ch, const char *arg) {
    position_parse *p = user;
    switch (ch) {
    case CLI_OPT_FEN: p->a->fen = arg; return EXIT_OK;
    case CLI_OPT_CHESS960: p->a->chess960 = 1; return EXIT_OK;
    case CLI_OPT_VARIANT: p->a->variant = arg; return EXIT_OK;
    default: return p->fn ? p->fn(p->user, ch, arg) : cli_usage("unknown option");
    }
}

int cli_position_parse(cli_position_args *a, int argc, char **argv, const char *usage,
                       const char *const *spec, cli_opt_fn fn, void *user) {
    cli_run r;
    position_parse p = {a, fn, user};
    memset(a, 0, sizeof *a);
    cli_run_init(&r, 0);
    return cli_run_args(&r, argc, argv, usage, spec, "", position_option, &p);
}
