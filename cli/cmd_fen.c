/* SPDX-License-Identifier: MIT */
/* pgnkit fen [--variant NAME] [--fen FEN] [--chess960] [--shredder] [--ep MODE] [--pocket-rank]
 * [--checks-left] MOVE...: plays the moves and prints the resulting FEN. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit fen [--variant NAME] [--fen FEN] [--chess960] [--shredder]\n"
    "                  [--ep legal|always|pseudo] [--pocket-rank] [--checks-left] MOVE...\n"
    "Plays the moves (SAN, lax SAN, long algebraic or UCI; -- or Z0 for a null move; move numbers\n"
    "such as 1. or 1.e4 are skipped) from the\n"
    "position and prints the resulting FEN. Tolerated quirks are warned about on stderr; a move\n"
    "that cannot be played is reported and the exit status is 1.\n"
    "  --shredder   write castling rights as rook files (HAha) instead of X-FEN (KQkq)\n"
    "  --ep MODE    en passant square: legal (default: only if a legal capture exists),\n"
    "               always (after every double step, PGN 1994), pseudo (an enemy pawn beside)\n"
    "  --variant NAME  the rules of a variant (crazyhouse, atomic, antichess, 3check,\n"
    "               kingofthehill, horde, racingkings; docs/variants.md): its start, or --fen\n"
    "               in any of its dialects; drops as N@f3 or @e4. FEN written as lichess does:\n"
    "  --pocket-rank   crazyhouse pockets as a ninth rank (.../RNBQKBNR/Qn), not [Qn]\n"
    "  --checks-left   three-check counters as checks left before the clocks (3+3), not\n"
    "               lichess's checks given after them (+0+0)\n";

/* --ep MODE into the write flags; 0 for an unknown mode. */
static int ep_flag(const char *mode, uint32_t *wflags) {
    if (strcmp(mode, "always") == 0) {
        *wflags |= PGN_FEN_EP_ALWAYS;
    } else if (strcmp(mode, "pseudo") == 0) {
        *wflags |= PGN_FEN_EP_PSEUDO;
    }
    return strcmp(mode, "always") == 0 || strcmp(mode, "pseudo") == 0 || strcmp(mode, "legal") == 0;
}

enum { OPT_SHREDDER = CLI_OPT_POSITION_END, OPT_EP, OPT_POCKET_RANK, OPT_CHECKS_LEFT };
static const char *const options[] = {
    CLI_POSITION_OPTIONS, "shredder", "ep:", "pocket-rank", "checks-left", NULL};

static int fen_option(void *user, int ch, const char *arg) {
    uint32_t *wflags = user;
    switch (ch) {
    case OPT_SHREDDER: *wflags |= PGN_FEN_SHREDDER; return EXIT_OK;
    case OPT_POCKET_RANK: *wflags |= PGN_FEN_POCKET_RANK; return EXIT_OK;
    case OPT_CHECKS_LEFT: *wflags &= ~PGN_FEN_LICHESS_CHECKS; return EXIT_OK;
    case OPT_EP:
        return ep_flag(arg, wflags) ? EXIT_OK : cli_usage("--ep takes legal, always or pseudo");
    default: return cli_usage("unknown option");
    }
}

int cmd_fen(int argc, char **argv) {
    cli_position_args a;
    uint32_t wflags = PGN_FEN_LICHESS_CHECKS;
    int st = cli_position_parse(&a, argc, argv, usage_text, options, fen_option, &wflags);
    if (st != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    pgn_pos pos;
    st = cli_position_variant(&pos, a.fen, a.chess960, a.variant);
    if (st != EXIT_OK) {
        return st;
    }
    int played = 0;
    for (int i = optind; i < argc; i++) {
        const char *mv = cli_skip_move_number(argv[i]);
        if (!*mv) {
            continue;
        }
        pgn_san_result r;
        pgn_status s = pgn_san_parse(&pos, mv, strlen(mv), PGN_SAN_NULL_MOVES, &r);
        played++;
        if (s != PGN_OK) {
            cli_error(NULL, "error: %s '%s' (move %d) [%s]", pgn_status_message(s), mv, played,
                      pgn_status_name(s));
            return EXIT_INPUT;
        }
        cli_print_warnings(mv, r.warnings);
        pgn_pos_play(&pos, r.move);
    }
    char buf[PGN_FEN_MAX];
    pgn_fen_write(&pos, wflags, buf, sizeof buf);
    puts(buf);
    return EXIT_OK;
}
