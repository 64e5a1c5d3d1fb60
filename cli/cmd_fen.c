/* SPDX-License-Identifier: MIT */
/* pgnkit fen [--fen FEN] [--chess960] [--shredder] [--ep MODE] MOVE...: plays the moves and
 * prints the resulting FEN. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit fen [--fen FEN] [--chess960] [--shredder] [--ep legal|always|pseudo] MOVE...\n"
    "Plays the moves (SAN, lax SAN, long algebraic or UCI; -- or Z0 for a null move; move numbers\n"
    "such as 1. or 1.e4 are skipped) from the\n"
    "position and prints the resulting FEN. Tolerated quirks are warned about on stderr; a move\n"
    "that cannot be played is reported and the exit status is 1.\n"
    "  --shredder   write castling rights as rook files (HAha) instead of X-FEN (KQkq)\n"
    "  --ep MODE    en passant square: legal (default: only if a legal capture exists),\n"
    "               always (after every double step, PGN 1994), pseudo (an enemy pawn beside)\n";

/* The move after a move number ("1.e4", "12...Nf6"; "1." alone gives ""), else m itself. */
static const char *skip_move_number(const char *m) {
    const char *p = m;
    while (*p >= '0' && *p <= '9') {
        p++;
    }
    if (p == m || *p != '.') {
        return m;
    }
    while (*p == '.') {
        p++;
    }
    return p;
}

int cmd_fen(int argc, char **argv) {
    static const struct option opts[] = {
        {"fen", required_argument, NULL, 'f'}, {"chess960", no_argument, NULL, '9'},
        {"shredder", no_argument, NULL, 's'},  {"ep", required_argument, NULL, 'e'},
        {"help", no_argument, NULL, 'h'},      {NULL, 0, NULL, 0}};
    const char *fen = NULL;
    int chess960 = 0, c;
    uint32_t wflags = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': fen = optarg; break;
        case '9': chess960 = 1; break;
        case 's': wflags |= PGN_FEN_SHREDDER; break;
        case 'e':
            if (strcmp(optarg, "always") == 0) {
                wflags |= PGN_FEN_EP_ALWAYS;
            } else if (strcmp(optarg, "pseudo") == 0) {
                wflags |= PGN_FEN_EP_PSEUDO;
            } else if (strcmp(optarg, "legal") != 0) {
                return cli_usage_error("fen", usage_text, "--ep takes legal, always or pseudo");
            }
            break;
        case 'h': fputs(usage_text, stdout); return EXIT_OK;
        default: return cli_usage_error("fen", usage_text, NULL);
        }
    }
    pgn_pos pos;
    int st = cli_position(&pos, fen, chess960);
    if (st != EXIT_OK) {
        return st;
    }
    int played = 0;
    for (int i = optind; i < argc; i++) {
        const char *mv = skip_move_number(argv[i]);
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
