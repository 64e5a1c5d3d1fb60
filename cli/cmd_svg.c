/* SPDX-License-Identifier: MIT */
/* pgnkit svg and pgnkit graph: a board (a game at a ply, or a FEN) and a game's evaluation graph
 * as SVG 1.1 (include/pgnkit/render.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char svg_usage[] =
    "usage: pgnkit svg [--game N] [--ply N] [--fen FEN] [--flip] [--size PX] [--coords]\n"
    "                  [--arrow [RGYB]e2e4]... [--square [RGYB]d5]... [-o OUT]\n"
    "                  [reading options] [FILE]\n"
    "Draws a board as SVG: game N of FILE (default 1; stdin without FILE) after ply N of its main\n"
    "line (default: the last; 0 is the start), or the position --fen FEN. The last move is\n"
    "highlighted, a king in check glows red, and the [%csl] squares and [%cal] arrows of the\n"
    "move's comment are drawn, with those of --square and --arrow (colour letter optional: G).\n"
    "  --flip      Black at the bottom      --coords   file letters and rank numbers\n"
    "  --size PX   width and height in pixels (default 400)\n"
    "Pieces: \"Celtic\" by Maurizio Monge (MIT).\n"
    "exit status: 0 success, 1 the input had errors or no such game/ply, 2 usage error, 3 "
    "I/O\n" CLI_READ_USAGE CLI_RANGE_USAGE;

static const char graph_usage[] =
    "usage: pgnkit graph [--game N] [--width PX] [--height PX] [-o OUT] [reading options] [FILE]\n"
    "Draws the evaluation graph of game N of FILE (default 1; stdin without FILE) as SVG from\n"
    "the [%eval] of its main-line moves, on lichess's winning-chance scale: White's advantage\n"
    "white above the middle, Black's black below; inaccuracies, mistakes and blunders as blue,\n"
    "orange and red dots; move numbers along the bottom. Default size 600 x 200.\n"
    "exit status: 0 success, 1 the input had errors or no such game, 2 usage error, 3 "
    "I/O\n" CLI_READ_USAGE CLI_RANGE_USAGE;

/* What to draw, and of which game. */
typedef struct picture {
    int graph;
    unsigned long game, seen;
    long ply; /* -1: the last */
    const char *fen;
    pgn_board_opts board;
    pgn_mark marks[64];
    pgn_graph_opts gopts;
    cli_output *out;
    pgn_status st; /* of the drawing, PGN_END until the game was found */
} picture;

static pgn_status draw_game(cli_run *r, void *user, const cli_game *g) {
    picture *p = user;
    (void)r;
    if (++p->seen != p->game) {
        return PGN_OK;
    }
    if (p->graph) {
        p->st = pgn_graph_svg(g->game, &p->gopts, cli_output_write, p->out);
    } else {
        size_t ply = p->ply < 0 ? pgn_game_ply_count(g->game) : (size_t)p->ply;
        p->st = pgn_game_board_svg(g->game, ply, &p->board, cli_output_write, p->out);
    }
    return p->st == PGN_E_IO ? PGN_E_IO : PGN_OK;
}

/* "e2e4", "Ge2e4", "d5", "Rd5" into a mark; 0 if malformed or the wrong kind. */
static int parse_mark(const char *s, int arrow, pgn_mark *m) {
    char buf[8];
    size_t n = strlen(s);
    if (n == 0 || n > 5) {
        return 0;
    }
    int colored = strchr("RGYB", s[0]) != NULL;
    snprintf(buf, sizeof buf, "%s%s", colored ? "" : "G", s);
    pgn_str args = {buf, strlen(buf)};
    return pgn_mark_next(&args, m) && args.len == 0 && (m->from != m->to) == arrow;
}

static int number(const char *opt, const char *s, uint64_t lo, uint64_t hi, unsigned long *out) {
    uint64_t v = 0;
    int st = cli_number(opt, s, lo, hi, &v);
    *out = st == EXIT_OK ? (unsigned long)v : *out;
    return st;
}

enum {
    OPT_GAME = CLI_OPT_COMMAND,
    OPT_PLY,
    OPT_FEN,
    OPT_FLIP,
    OPT_SIZE,
    OPT_COORDS,
    OPT_ARROW,
    OPT_SQUARE,
    OPT_WIDTH,
    OPT_HEIGHT
};

static int picture_option(void *user, int ch, const char *arg) {
    picture *p = user;
    unsigned long v = 0;
    int st = EXIT_OK;
    switch (ch) {
    case OPT_GAME: st = number("--game", arg, 1, ~0ul >> 1, &p->game); break;
    case OPT_PLY: st = number("--ply", arg, 0, 1ul << 30, &v), p->ply = (long)v; break;
    case OPT_FEN: p->fen = arg; break;
    case OPT_FLIP: p->board.flags |= PGN_BOARD_FLIP; break;
    case OPT_COORDS: p->board.flags |= PGN_BOARD_COORDS; break;
    case OPT_SIZE: st = number("--size", arg, 16, 8192, &v), p->board.size = (uint32_t)v; break;
    case OPT_WIDTH: st = number("--width", arg, 50, 16384, &v), p->gopts.width = (uint32_t)v; break;
    case OPT_HEIGHT:
        st = number("--height", arg, 50, 4096, &v), p->gopts.height = (uint32_t)v;
        break;
    case OPT_ARROW:
    case OPT_SQUARE:
        if (p->board.mark_count == sizeof p->marks / sizeof p->marks[0]) {
            return cli_usage("at most 64 --arrow and --square");
        }
        if (!parse_mark(arg, ch == OPT_ARROW, &p->marks[p->board.mark_count++])) {
            return cli_usage(ch == OPT_ARROW ? "--arrow takes [RGYB]e2e4, not '%s'"
                                             : "--square takes [RGYB]d5, not '%s'",
                             arg);
        }
        break;
    default: return cli_usage("unknown option");
    }
    return st;
}

/* Parses the options, draws, and returns the exit status. */
static int run(picture *p, int argc, char **argv, const char *usage, const struct option *opts) {
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES);
    p->game = 1;
    p->ply = -1;
    p->st = PGN_END;
    p->board.marks = p->marks;
    int st = cli_run_parse(&r, argc, argv, usage, opts, "", picture_option, p);
    if (st != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    int no_file = r.nfiles == 1 && strcmp(r.files[0], "-") == 0;
    if (r.nfiles > 1) {
        return cli_usage("one FILE at most");
    }
    if (p->fen && (!no_file || p->ply >= 0 || p->game != 1)) {
        return cli_usage("--fen takes no FILE, --game or --ply");
    }
    pgn_pos pos;
    if (p->fen && cli_position(&pos, p->fen, 0) != EXIT_OK) {
        return EXIT_INPUT;
    }
    if ((st = cli_run_open(&r)) != EXIT_OK) {
        return st;
    }
    p->out = &r.out;
    if (p->fen) {
        p->st = pgn_board_svg(&pos, &p->board, cli_output_write, p->out);
    } else {
        cli_run_games(&r, draw_game, p);
    }
    if (p->st == PGN_END && r.status != EXIT_RESOURCE) {
        cli_error(NULL, "the input has no game %lu", p->game);
        r.status = r.status > EXIT_INPUT ? r.status : EXIT_INPUT;
    } else if (p->st == PGN_E_LIMIT) {
        cli_error(NULL, "game %lu has no ply %ld", p->game, p->ply);
        r.status = r.status > EXIT_INPUT ? r.status : EXIT_INPUT;
    } else if (p->st != PGN_OK && p->st != PGN_END) {
        r.aborted = 1;
        r.status = EXIT_RESOURCE;
    }
    return cli_run_finish(&r, CLI_SUMMARY_NONE);
}

int cmd_svg(int argc, char **argv) {
    static const struct option opts[] = {{"game", required_argument, NULL, OPT_GAME},
                                         {"ply", required_argument, NULL, OPT_PLY},
                                         {"fen", required_argument, NULL, OPT_FEN},
                                         {"flip", no_argument, NULL, OPT_FLIP},
                                         {"size", required_argument, NULL, OPT_SIZE},
                                         {"coords", no_argument, NULL, OPT_COORDS},
                                         {"arrow", required_argument, NULL, OPT_ARROW},
                                         {"square", required_argument, NULL, OPT_SQUARE},
                                         {NULL, 0, NULL, 0}};
    picture p = {0};
    return run(&p, argc, argv, svg_usage, opts);
}

int cmd_graph(int argc, char **argv) {
    static const struct option opts[] = {{"game", required_argument, NULL, OPT_GAME},
                                         {"width", required_argument, NULL, OPT_WIDTH},
                                         {"height", required_argument, NULL, OPT_HEIGHT},
                                         {NULL, 0, NULL, 0}};
    picture p = {0};
    p.graph = 1;
    return run(&p, argc, argv, graph_usage, opts);
}
