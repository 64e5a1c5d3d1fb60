/* SPDX-License-Identifier: MIT */
/* pgnkit convert: games to other forms. uci and fen stream the main line through the visitor API
 * (no tree is built); san, lan, epd and csv go through pgn_exporter, json and ndjson through the
 * JSON writer (docs/json-format.md); --from json reads that JSON back (to PGN or JSON). One policy
 * for broken games in every format: not written (counted as rejected, their bytes to --rejects);
 * --keep-broken writes what was read of them (the JSON marks them). */
#define _POSIX_C_SOURCE 200809L
#include "convert.h"
#include "parallel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit convert --to uci|fen|san|lan|epd|csv|json|ndjson|descriptive [--fen-ep "
    "legal|always]\n"
    "                      [--lang LANG] [--tags NAME,NAME...] [--per-ply] [editing options]\n"
    "                      [--keep-broken] [--strict] [--max-errors N] [--diag text|json]\n"
    "                      [--quiet] [--input-encoding ENC] [--input-lang LANG] [--rejects FILE]\n"
    "                      [-o OUT] [--where EXPR] [-j N] [--progress] [FILE...]\n"
    "       pgnkit convert --from json [--to pgn|json|ndjson] [--diag text|json] [-o OUT] "
    "[FILE...]\n"
    "Converts every game. uci: one line per game, the main line's moves in UCI separated by\n"
    "spaces (Chess960 castling as king-takes-rook). fen: the FEN after every main-line ply, one\n"
    "per line, and an empty line after each game. san, lan (Ng1-f3 e7xd8=Q): one line per game;\n"
    "--lang LANG writes them with another language's piece letters, figurines or descriptive\n"
    "notation (de: Sg1-f3; descriptive: N-KB3; descriptive:es: C3AR; not export format);\n"
    "--to descriptive[:es|:pt] is --to san --lang descriptive[:es|:pt].\n"
    "epd: one EPD line per main-line position (the start too) with hmvc, fmvn and id "
    "\"GAME.PLY\".\n"
    "csv (RFC 4180): a header row, then one row per game with the --tags columns (default: the\n"
    "Seven Tag Roster), or with --per-ply one row per ply: game,ply,san,uci,fen,clock,eval,nags.\n"
    "json writes one JSON array of games, ndjson one game object per line: tags, start position,\n"
    "every comment, NAG and variation, the result, and per move SAN, UCI and the FEN after it\n"
    "(docs/json-format.md). --from json reads that JSON (either form) back, replaying every move,\n"
    "and writes the games in PGN export format (--to pgn, the default) or JSON.\n"
    "Broken games (any error): not written, counted as rejected, their original bytes to\n"
    "--rejects FILE; --keep-broken writes what was read of them instead (JSON marks them).\n"
    "A game the JSON reader refuses is rejected. Diagnostics and the summary 'N games, N written,\n"
    "N rejected, N errors' go to stderr.\n" CLI_WHERE_USAGE CLI_EDIT_USAGE
    "(editing applies to san, lan, epd, csv and json; uci and fen stream the main line as "
    "read).\n" CLI_RANGE_USAGE CLI_JOBS_USAGE
    "exit status: 0 success, 1 the input had errors, 2 usage error, 3 I/O or memory failure\n";

static const char *const to_names[] = {"",    "uci", "fen",  "san",    "lan",
                                       "epd", "csv", "json", "ndjson", "pgn"};

enum {
    OPT_TO = CLI_OPT_COMMAND, /* in the order of options */
    OPT_FROM,
    OPT_FEN_EP,
    OPT_TAGS,
    OPT_PER_PLY,
    OPT_KEEP_BROKEN,
    OPT_LANG
};
static const char *const options[] = {
    "to:", "from:", "fen-ep:", "tags:", "per-ply", "keep-broken", "lang:", NULL};

static int convert_option(void *user, int ch, const char *arg) {
    convert *c = user;
    switch (ch) {
    case OPT_TO:
        for (int i = TO_UCI; i <= TO_PGN; i++) {
            if (strcmp(arg, to_names[i]) == 0) {
                c->to = i;
                return EXIT_OK;
            }
        }
        if (strncmp(arg, "descriptive", 11) == 0 && (arg[11] == '\0' || arg[11] == ':')) {
            c->to = TO_SAN; /* --to descriptive[:es|:pt]: --to san --lang descriptive[:..] */
            return pgn_lang_from_name(arg, &c->lang)
                       ? EXIT_OK
                       : cli_usage("--to takes descriptive, descriptive:es or descriptive:pt, "
                                   "not '%s'",
                                   arg);
        }
        return cli_usage("--to takes uci, fen, san, lan, epd, csv, json, ndjson or "
                         "descriptive[:es|:pt] (pgn with --from json), not '%s'",
                         arg);
    case OPT_FROM:
        if (strcmp(arg, "json") != 0) {
            return cli_usage("--from takes json, not '%s'", arg);
        }
        c->from_json = 1;
        return EXIT_OK;
    case OPT_FEN_EP:
        c->fen_flags =
            PGN_FEN_LICHESS_CHECKS | (strcmp(arg, "always") == 0 ? PGN_FEN_EP_ALWAYS : 0);
        return 0;
    case OPT_TAGS: c->tags = arg; return EXIT_OK;
    case OPT_PER_PLY: c->per_ply = 1; return EXIT_OK;
    case OPT_KEEP_BROKEN: c->keep_broken = 1; return EXIT_OK;
    case OPT_LANG:
        if (!pgn_lang_from_name(arg, &c->lang)) {
            return cli_usage(
                "--lang takes en, de, ..., ru, figurine, descriptive[:es|:pt], not '%s'", arg);
        }
        return EXIT_OK;
    default: return cli_edit_option(ch, &c->edit) ? EXIT_OK : cli_usage("unknown option");
    }
}

/* Splits "Event,White,..." into c->tag_names (pointing into list). The count, 0 if one is empty
 * or out of memory. */
static size_t split_tags(convert *c, const char *list) {
    size_t n = 1, k = 0;
    for (const char *p = list; *p; p++) {
        n += *p == ',';
    }
    pgn_str *names = c->tag_names = calloc(n, sizeof *names);
    for (const char *p = list, *start = list; names; p++) {
        if (*p == ',' || *p == 0) {
            names[k].ptr = start;
            names[k].len = (size_t)(p - start);
            if (names[k++].len == 0) {
                free(names);
                c->tag_names = NULL;
                return 0;
            }
            start = p + 1;
        }
        if (*p == 0) {
            break;
        }
    }
    c->tag_count = names ? n : 0;
    return c->tag_count;
}

/* The rules between the options; EXIT_OK or a usage error. */
static int convert_rules(convert *c, cli_run *r) {
    if (c->from_json) {
        if (c->to == TO_NONE) {
            c->to = TO_PGN;
        }
        if (c->to != TO_PGN && c->to != TO_JSON && c->to != TO_NDJSON) {
            return cli_usage("--from json writes pgn, json or ndjson");
        }
        if (r->where) {
            return cli_usage("--where reads PGN, not --from json");
        }
        if (r->rejects_path) {
            return cli_usage("--rejects needs PGN input (a refused JSON game has no PGN bytes)");
        }
        return EXIT_OK;
    }
    if (c->to == TO_NONE) {
        return cli_usage("--to is required");
    }
    if (c->to == TO_PGN) {
        return cli_usage("PGN to PGN is pgnkit fmt");
    }
    if ((c->per_ply || c->tags) && c->to != TO_CSV) {
        return cli_usage("--per-ply and --tags go with --to csv");
    }
    if (c->per_ply && c->tags) {
        return cli_usage("--per-ply and --tags do not go together");
    }
    if (c->tags && split_tags(c, c->tags) == 0) {
        return cli_usage("--tags takes tag names separated by commas");
    }
    return EXIT_OK;
}

/* ---- the formats of a built game ---- */

static pgn_status tree_game(cli_run *r, void *user, const cli_game *g) {
    convert *c = user;
    pgn_status st = PGN_OK;
    if (g->summary->broken && (!c->keep_broken || !g->game)) {
        return cli_run_reject(r, g);
    }
    if (c->edit.flags && (st = cli_game_edit(g->game, &c->edit)) != PGN_OK) {
        return st;
    }
    if (c->ex) {
        st = pgn_exporter_write(c->ex, g->game);
    } else if (c->jw) {
        st = pgn_json_writer_write(c->jw, g->game);
    } else {
        st = pgn_writer_write(c->pw, g->game);
    }
    if (st == PGN_OK) {
        r->written++;
    }
    return st;
}

/* Creates the writer of c->to on r->out. EXIT_OK, or a status after a message. */
static int open_writer(convert *c, cli_run *r) {
    static const pgn_export_format lines[] = {PGN_EXPORT_SAN, PGN_EXPORT_LAN, PGN_EXPORT_EPD,
                                              PGN_EXPORT_CSV};
    pgn_status st = PGN_OK;
    if (c->to >= TO_SAN && c->to <= TO_CSV) {
        pgn_export_opts eo;
        memset(&eo, 0, sizeof eo);
        eo.format = c->per_ply ? PGN_EXPORT_CSV_PLY : lines[c->to - TO_SAN];
        eo.fen_flags = c->fen_flags;
        eo.tag_count = c->tag_count;
        eo.tags = c->tag_names;
        eo.lang = c->lang;
        st = pgn_exporter_new(&c->ex, &eo, cli_output_write, &r->out);
    } else if (c->to == TO_JSON || c->to == TO_NDJSON) {
        pgn_json_writer_opts jo = {c->to == TO_NDJSON ? PGN_JSON_NDJSON : 0, c->fen_flags, NULL};
        st = pgn_json_writer_new(&c->jw, &jo, cli_output_write, &r->out);
    } else if (c->to == TO_PGN) {
        st = pgn_writer_new(&c->pw, NULL, cli_output_write, &r->out);
    }
    if (st != PGN_OK) {
        cli_error(NULL, "out of memory");
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}

/* Ends the output (the JSON array's "]", the exporter's last bytes) and frees the writers. */
static void close_writer(convert *c, cli_run *r) {
    pgn_status st = PGN_OK;
    if (!r->aborted && c->ex) {
        st = pgn_exporter_finish(c->ex);
    } else if (!r->aborted && c->jw) {
        st = pgn_json_writer_finish(c->jw);
    }
    if (st != PGN_OK) {
        r->aborted = 1; /* the output names itself when it is closed */
        r->status = EXIT_RESOURCE;
    }
    pgn_exporter_free(c->ex);
    pgn_json_writer_free(c->jw);
    pgn_writer_free(c->pw);
    free(c->buf.ptr);
    free(c->tag_names);
}

int cmd_convert(int argc, char **argv) {
    convert c;
    cli_run r;
    memset(&c, 0, sizeof c);
    c.fen_flags = PGN_FEN_LICHESS_CHECKS; /* three-check FENs as lichess writes them */
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_REJECTS | CLI_WHERE | CLI_EDITS);
    int st = cli_run_args(&r, argc, argv, usage_text, options, "", convert_option, &c);
    if (st == EXIT_OK) {
        st = convert_rules(&c, &r);
    }
    if (st != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    if ((st = cli_run_open(&r)) != EXIT_OK) {
        return st;
    }
    if ((st = open_writer(&c, &r)) != EXIT_OK) {
        r.aborted = 1;
        r.status = st;
    } else if (c.from_json) {
        cli_run_json(&r, tree_game, &c);
    } else if (c.to == TO_UCI || c.to == TO_FEN) {
        convert_stream(&r, &c);
    } else {
        cli_run_games(&r, tree_game, &c);
    }
    close_writer(&c, &r);
    return cli_run_finish(&r, CLI_SUMMARY_WRITE);
}
