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
    "                  [--arrow [RGYB]e2e4]... [--square [RGYB]d5]... [-o OUT] [FILE]\n"
    "Draws a board as SVG: game N of FILE (default 1; stdin without FILE) after ply N of its main\n"
    "line (default: the last; 0 is the start), or the position --fen FEN. The last move is\n"
    "highlighted, a king in check glows red, and the [%csl] squares and [%cal] arrows of the\n"
    "move's comment are drawn, with those of --square and --arrow (colour letter optional: G).\n"
    "  --flip      Black at the bottom      --coords   file letters and rank numbers\n"
    "  --size PX   width and height in pixels (default 400)\n"
    "Pieces: \"Celtic\" by Maurizio Monge (MIT).\n"
    "exit status: 0 success, 1 the input had errors or no such game/ply, 2 usage error, 3 I/O\n";

static const char graph_usage[] =
    "usage: pgnkit graph [--game N] [--width PX] [--height PX] [-o OUT] [FILE]\n"
    "Draws the evaluation graph of game N of FILE (default 1; stdin without FILE) as SVG from\n"
    "the [%eval] of its main-line moves, on lichess's winning-chance scale: White's advantage\n"
    "white above the middle, Black's black below; inaccuracies, mistakes and blunders as blue,\n"
    "orange and red dots; move numbers along the bottom. Default size 600 x 200.\n"
    "exit status: 0 success, 1 the input had errors or no such game, 2 usage error, 3 I/O\n";

/* What to draw, and of which game. */
typedef struct picture {
    int graph;
    unsigned long game, seen;
    long ply; /* -1: the last */
    pgn_board_opts board;
    pgn_graph_opts gopts;
    FILE *out;
    pgn_status st; /* of the drawing, PGN_END until the game was found */
} picture;

static pgn_status draw_game(void *user, pgn_game *game) {
    picture *p = user;
    if (++p->seen != p->game) {
        return PGN_OK;
    }
    if (p->graph) {
        p->st = pgn_graph_svg(game, &p->gopts, cli_write_file, p->out);
    } else {
        size_t ply = p->ply < 0 ? pgn_game_ply_count(game) : (size_t)p->ply;
        p->st = pgn_game_board_svg(game, ply, &p->board, cli_write_file, p->out);
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

static unsigned long number(const char *s, unsigned long lo, unsigned long hi, int *ok) {
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || v < lo || v > hi) {
        *ok = 0;
    }
    return v;
}

static int run(picture *p, const char *fen, const char *outpath, int nfiles, char **files) {
    const char *cmd = p->graph ? "graph" : "svg";
    const char *usage = p->graph ? graph_usage : svg_usage;
    if (nfiles > 1) {
        return cli_usage_error(cmd, usage, "one FILE at most");
    }
    if (fen && (nfiles || p->ply >= 0 || p->game != 1)) {
        return cli_usage_error(cmd, usage, "--fen takes no FILE, --game or --ply");
    }
    pgn_pos pos;
    if (fen && cli_position(&pos, fen, 0) != EXIT_OK) {
        return EXIT_INPUT;
    }
    cli_output out;
    if (!cli_open_output(&out, outpath)) {
        return EXIT_RESOURCE;
    }
    p->out = out.file;
    int status = EXIT_OK;
    if (fen) {
        p->st = pgn_board_svg(&pos, &p->board, cli_write_file, p->out);
    } else {
        uint64_t totals[3] = {0, 0, 0};
        pgn_reader_opts ro = {0};
        cli_diag_ctx dctx = {0, 1};
        ro.on_diag = cli_print_diag;
        ro.diag_ctx = &dctx;
        status = cli_for_each_game(nfiles, files, &ro, draw_game, p, totals);
    }
    if (p->st == PGN_END) {
        fprintf(stderr, "pgnkit %s: the input has no game %lu\n", cmd, p->game);
        status = status == EXIT_OK ? EXIT_INPUT : status;
    } else if (p->st == PGN_E_LIMIT) {
        fprintf(stderr, "pgnkit %s: game %lu has no ply %ld\n", cmd, p->game, p->ply);
        status = status == EXIT_OK ? EXIT_INPUT : status;
    } else if (p->st != PGN_OK && status != EXIT_RESOURCE) {
        status = EXIT_RESOURCE;
    }
    return cli_close_output(&out, status);
}

int cmd_svg(int argc, char **argv) {
    static const struct option opts[] = {{"game", required_argument, NULL, 'g'},
                                         {"ply", required_argument, NULL, 'p'},
                                         {"fen", required_argument, NULL, 'f'},
                                         {"flip", no_argument, NULL, 'F'},
                                         {"size", required_argument, NULL, 's'},
                                         {"coords", no_argument, NULL, 'c'},
                                         {"arrow", required_argument, NULL, 'a'},
                                         {"square", required_argument, NULL, 'q'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    picture p = {0};
    pgn_mark marks[64];
    size_t nmarks = 0;
    const char *fen = NULL, *outpath = NULL;
    p.game = 1;
    p.ply = -1;
    p.st = PGN_END;
    p.board.marks = marks;
    int c, ok = 1;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'g': p.game = number(optarg, 1, ~0ul >> 1, &ok); break;
        case 'p': p.ply = (long)number(optarg, 0, 1ul << 30, &ok); break;
        case 'f': fen = optarg; break;
        case 'F': p.board.flags |= PGN_BOARD_FLIP; break;
        case 'c': p.board.flags |= PGN_BOARD_COORDS; break;
        case 's': p.board.size = (uint32_t)number(optarg, 16, 8192, &ok); break;
        case 'a':
        case 'q':
            if (nmarks == sizeof marks / sizeof marks[0]) {
                return cli_usage_error("svg", svg_usage, "at most 64 --arrow and --square");
            }
            if (!parse_mark(optarg, c == 'a', &marks[nmarks++])) {
                return cli_usage_error("svg", svg_usage,
                                       c == 'a' ? "--arrow takes [RGYB]e2e4"
                                                : "--square takes [RGYB]d5");
            }
            break;
        case 'o': outpath = optarg; break;
        case 'h': fputs(svg_usage, stdout); return EXIT_OK;
        default: return cli_usage_error("svg", svg_usage, NULL);
        }
        if (!ok) {
            return cli_usage_error("svg", svg_usage, "bad number");
        }
    }
    p.board.mark_count = nmarks;
    return run(&p, fen, outpath, argc - optind, argv + optind);
}

int cmd_graph(int argc, char **argv) {
    static const struct option opts[] = {
        {"game", required_argument, NULL, 'g'},   {"width", required_argument, NULL, 'w'},
        {"height", required_argument, NULL, 'H'}, {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
    picture p = {0};
    const char *outpath = NULL;
    p.graph = 1;
    p.game = 1;
    p.ply = -1;
    p.st = PGN_END;
    int c, ok = 1;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'g': p.game = number(optarg, 1, ~0ul >> 1, &ok); break;
        case 'w': p.gopts.width = (uint32_t)number(optarg, 50, 16384, &ok); break;
        case 'H': p.gopts.height = (uint32_t)number(optarg, 50, 4096, &ok); break;
        case 'o': outpath = optarg; break;
        case 'h': fputs(graph_usage, stdout); return EXIT_OK;
        default: return cli_usage_error("graph", graph_usage, NULL);
        }
        if (!ok) {
            return cli_usage_error("graph", graph_usage, "bad number");
        }
    }
    return run(&p, NULL, outpath, argc - optind, argv + optind);
}
