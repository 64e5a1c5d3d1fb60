/* SPDX-License-Identifier: MIT */
/* pgnkit: the command-line program. Dispatches subcommands from a table (STYLE C9). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "query_help.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"check", cmd_check, "check PGN files: syntax, tags and every move; diagnostics on stderr"},
    {"convert", cmd_convert, "convert games to JSON, UCI, SAN, LAN, FEN, EPD or CSV, and back"},
    {"fmt", cmd_fmt, "write games in the strict PGN export format (broken ones to --rejects)"},
    {"perft", cmd_perft, "count leaf nodes of the move tree (move generator check)"},
    {"moves", cmd_moves, "list the legal moves of a position, one \"SAN UCI\" per line"},
    {"fen", cmd_fen, "play moves (SAN, lax SAN or UCI) and print the resulting FEN"},
    {"analyze", cmd_analyze,
     "annotate games with a UCI engine: [%eval], $6/$2/$4, better lines, accuracy"},
    {"select", cmd_select, "write the games that match an expression (docs/query.md)"},
    {"eco", cmd_eco, "name each game's opening (ECO, Opening, Variation) by position"},
    {"dedupe", cmd_dedupe, "drop duplicate games (same start and main line), with a report"},
    {"stats", cmd_stats, "count what a collection holds: results, openings, players, events"},
    {"split", cmd_split, "write the games into files: N a file, or one file per tag value"},
    {"sort", cmd_sort, "order the games by tags (dates and rounds as the standard orders them)"},
    {"nag", cmd_nag, "the NAG table: a NAG's symbol and meaning, a glyph's NAG, or --list"},
    {"frames", cmd_frames, "list the frames of a zstd file: the boundaries --range takes"},
    {"svg", cmd_svg, "draw a board as SVG: a game at a ply, or a FEN, with arrows and marks"},
    {"graph", cmd_graph, "draw a game's evaluation graph ([%eval]) as SVG"},
    {"html", cmd_html, "the games in one self-contained HTML page: board, moves, graph"},
    {"db", cmd_db, "a game database: import once, then explore positions and find games fast"},
    {"serve", cmd_serve, "a local web page: paste a PGN, get an engine analysis in the viewer"},
};

static void usage(FILE *f) {
    fprintf(f, "usage: pgnkit COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    }
    fprintf(
        f,
        "  help     show this text, or a command's usage (pgnkit help COMMAND), or the selection\n"
        "           language (pgnkit help query)\n"
        "\n'pgnkit COMMAND --help' describes each command.\n"
        "exit status: 0 success, 1 the input had errors, 2 usage error, 3 I/O or memory failure\n");
}

/* Runs the command named by argv[1]; returns its exit status. */
static int dispatch(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("pgnkit %s\n", pgn_version());
        return EXIT_OK;
    }
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        if (argc > 2 && strcmp(argv[2], "query") == 0) { /* the selection language */
            fputs(CLI_QUERY_HELP, stdout);
            return EXIT_OK;
        }
        if (argc > 2) {
            static char help_opt[] = "--help";
            char *args[] = {argv[2], help_opt, NULL};
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
                if (strcmp(commands[i].name, argv[2]) == 0) {
                    cli_set_command(commands[i].name);
                    return commands[i].run(2, args);
                }
            }
            cli_set_command("help");
            cli_error(NULL, "unknown command '%s'", argv[2]);
            fputs("try 'pgnkit --help'\n", stderr);
            return EXIT_USAGE;
        }
        usage(stdout);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(commands[i].name, name) == 0) {
            cli_set_command(commands[i].name);
            cli_set_argv(argv + 1);
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    cli_error(NULL, "unknown command '%s'", name);
    fputs("try 'pgnkit --help'\n", stderr);
    return EXIT_USAGE;
}

/* Output is never lost silently (disk full, a closed pipe): a failed write or flush of standard
 * output is an I/O failure, exit status 3, unless the command already reported it. */
int main(int argc, char **argv) {
    opterr = 0; /* bad options get one line and a hint (cli_usage), not getopt's text */
    /* past a file size limit a write fails (EFBIG) and is reported; the output is not kept */
    signal(SIGXFSZ, SIG_IGN);
    int status = dispatch(argc, argv);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (status != EXIT_RESOURCE) {
            cli_error(NULL, "error writing standard output: %s", strerror(errno));
        }
        return EXIT_RESOURCE;
    }
    return status;
}
