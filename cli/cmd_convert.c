/* SPDX-License-Identifier: MIT */
/* pgnkit convert --to uci|fen: streams the main line of every game through the visitor API
 * (no game tree is built). uci: one line per game, the moves in UCI; fen: the FEN after every
 * main-line ply, one per line, and an empty line after each game. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit convert --to uci|fen|san|lan|epd|csv [--fen-ep legal|always] [--strict]\n"
    "                      [--tags NAME,NAME...] [--per-ply] [editing options] [--diag text|json]\n"
    "                      [--input-encoding ENC] [--range START:END [--line-base N]] [-o OUT]\n"
    "                      [FILE...]\n"
    "       pgnkit convert --to json|ndjson | --from json ...  (pgnkit convert --to json --help)\n"
    "Converts the main line of every game. uci: one line per game, moves in UCI separated by\n"
    "spaces (Chess960 castling as king-takes-rook). fen: the FEN after every main-line ply, one\n"
    "per line, and an empty line after each game. san, lan (Ng1-f3 e7xd8=Q): one line per game.\n"
    "epd: one EPD line per main-line position (the start too) with hmvc, fmvn and id "
    "\"GAME.PLY\".\n"
    "csv (RFC 4180): a header row, then one row per game with the --tags columns (default: the\n"
    "Seven Tag Roster), or with --per-ply one row per ply: "
    "game,ply,san,uci,fen,clock,eval,nags.\n" CLI_EDIT_USAGE
    "(editing applies to san, lan, epd and csv; uci and fen stream the main line as read).\n"
    "Diagnostics go to stderr; exit status 1 if a game had errors (what was read of it is still\n"
    "converted).\n" CLI_RANGE_USAGE;

enum { TO_UCI, TO_FEN, TO_LINES };

/* --to NAME for the formats of cli_convert_lines: the pgn_export_format, or -1. */
static int lines_format(const char *name) {
    static const struct {
        const char *name;
        int format;
    } all[] = {{"san", PGN_EXPORT_SAN},
               {"lan", PGN_EXPORT_LAN},
               {"epd", PGN_EXPORT_EPD},
               {"csv", PGN_EXPORT_CSV}};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (strcmp(name, all[i].name) == 0) {
            return all[i].format;
        }
    }
    return -1;
}

typedef struct conv {
    FILE *out;
    int to;
    unsigned depth; /* variation nesting: only depth 0 is converted */
    unsigned moves;
    uint32_t fen_flags;
} conv;

static pgn_flow on_begin(void *user, pgn_loc at) {
    conv *c = user;
    (void)at;
    c->depth = 0;
    c->moves = 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    conv *c = user;
    (void)san;
    (void)at;
    if (c->depth || !before) {
        return PGN_FLOW_CONTINUE;
    }
    if (c->to == TO_UCI) {
        char uci[PGN_UCI_MAX];
        pgn_uci_write(before, mv, uci);
        fprintf(c->out, c->moves ? " %s" : "%s", uci);
    } else {
        pgn_pos after = *before;
        char fen[PGN_FEN_MAX];
        pgn_pos_play(&after, mv);
        pgn_fen_write(&after, c->fen_flags, fen, sizeof fen);
        fputs(fen, c->out);
        fputc('\n', c->out);
    }
    c->moves++;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_begin_variation(void *user) {
    ((conv *)user)->depth++;
    return PGN_FLOW_SKIP;
}

static pgn_flow on_end_variation(void *user) {
    ((conv *)user)->depth--;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end_game(void *user, pgn_result result, const pgn_game_summary *summary) {
    conv *c = user;
    (void)result;
    (void)summary;
    fputc('\n', c->out);
    return PGN_FLOW_CONTINUE;
}

int cmd_convert(int argc, char **argv) {
    static const struct option opts[] = {{"to", required_argument, NULL, 't'},
                                         {"fen-ep", required_argument, NULL, 'p'},
                                         {"strict", no_argument, NULL, 's'},
                                         {"diag", required_argument, NULL, 'd'},
                                         {"input-encoding", required_argument, NULL, 'e'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"tags", required_argument, NULL, 'T'},
                                         {"per-ply", no_argument, NULL, 'P'},
                                         CLI_EDIT_LONG_OPTIONS,
                                         CLI_RANGE_LONG_OPTIONS,
                                         {NULL, 0, NULL, 0}};
    if (cli_convert_is_json(argc, argv)) {
        return cmd_convert_json(argc, argv); /* --to json|ndjson, --from json: cmd_json.c */
    }
    cli_lines_args la;
    memset(&la, 0, sizeof la);
    int per_ply = 0;
    conv c;
    memset(&c, 0, sizeof c);
    c.to = -1;
    cli_diag_ctx dctx = {0, 0};
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.on_diag = cli_print_diag;
    ro.diag_ctx = &dctx;
    const char *out_path = NULL;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        switch (ch) {
        case 't':
            c.to = strcmp(optarg, "uci") == 0 ? TO_UCI : strcmp(optarg, "fen") == 0 ? TO_FEN : -2;
            if (c.to == -2 && (la.format = lines_format(optarg)) >= 0) {
                c.to = TO_LINES;
            }
            if (c.to == -2) {
                return cli_usage_error("convert", usage_text,
                                       "--to takes uci, fen, san, lan, epd or csv");
            }
            break;
        case 'T': la.tags = optarg; break;
        case 'P': per_ply = 1; break;
        case 'p': c.fen_flags = strcmp(optarg, "always") == 0 ? PGN_FEN_EP_ALWAYS : 0; break;
        case 's': ro.flags |= PGN_READ_STRICT; break;
        case 'd': dctx.json = strcmp(optarg, "json") == 0; break;
        case 'e':
            if (!cli_parse_encoding(optarg, &ro.encoding)) {
                return cli_usage_error("convert", usage_text, "unknown --input-encoding");
            }
            break;
        case 'o': out_path = optarg; break;
        case 'h': fputs(usage_text, stdout); return EXIT_OK;
        case CLI_OPT_RANGE:
        case CLI_OPT_LINE_BASE:
            if (!cli_range_option(ch, optarg, &ro)) {
                return cli_usage_error("convert", usage_text,
                                       "bad --range START:END or --line-base N");
            }
            break;
        default:
            if (!cli_edit_option(ch, &la.edit)) {
                return cli_usage_error("convert", usage_text, NULL);
            }
        }
    }
    if (c.to < 0) {
        return cli_usage_error("convert", usage_text, "--to is required");
    }
    if ((per_ply || la.tags) && (c.to != TO_LINES || la.format != PGN_EXPORT_CSV)) {
        return cli_usage_error("convert", usage_text, "--per-ply and --tags go with --to csv");
    }
    if (per_ply && la.tags) {
        return cli_usage_error("convert", usage_text, "--per-ply and --tags do not go together");
    }
    if (per_ply) {
        la.format = PGN_EXPORT_CSV_PLY;
    }
    cli_output out;
    if (!cli_open_output(&out, out_path)) {
        return EXIT_RESOURCE;
    }
    c.out = out.file;
    if (c.to == TO_LINES) {
        uint64_t lt[3] = {0, 0, 0};
        la.fen_flags = c.fen_flags;
        la.ropts = &ro;
        la.nfiles = argc - optind;
        la.files = argv + optind;
        return cli_close_output(&out, cli_convert_lines(&la, out.file, lt));
    }
    pgn_visitor v = {on_begin,         NULL,       NULL, on_move, NULL, NULL, on_begin_variation,
                     on_end_variation, on_end_game};
    uint64_t totals[3] = {0, 0, 0};
    int status = cli_for_each_input(argc - optind, argv + optind, &ro, &v, &c, totals);
    return cli_close_output(&out, status);
}
