/* SPDX-License-Identifier: MIT */
/* pgnkit convert --to json|ndjson (PGN in, docs/json-format.md out) and --from json (that JSON
 * in, PGN export format or JSON out). Reached from cmd_convert.c; the library does the work. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "compress.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit convert --to json|ndjson [--fen-ep legal|always] [--strict] [--diag text|json]\n"
    "                      [--input-encoding ENC] [--range START:END [--line-base N]] [-o OUT]\n"
    "                      [FILE...]\n"
    "       pgnkit convert --from json [--to pgn|json|ndjson] [--diag text|json] [-o OUT] "
    "[FILE...]\n"
    "--to json writes one JSON array of games, --to ndjson one game object per line: tags, start\n"
    "position, every comment, NAG and variation, the result, and per move SAN, UCI and the FEN\n"
    "after it (docs/json-format.md). A game with errors is written as far as it was read.\n"
    "--from json reads that JSON (either form) back, replaying every move, and writes the games\n"
    "in PGN export format (--to pgn, the default). Exit status 1 if the input had "
    "errors.\n" CLI_RANGE_USAGE "(PGN input only).\n";

enum { FMT_PGN, FMT_JSON, FMT_NDJSON };

typedef struct json_cli {
    FILE *out;
    int from, to;
    uint32_t fen_flags;
    cli_diag_ctx diag;
    const pgn_json_reader *reader; /* while reading JSON: for the detail of a diagnostic */
} json_cli;

/* Nonzero if the convert arguments ask for JSON in or out (then cmd_convert_json handles them). */
int cli_convert_is_json(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if ((strcmp(a, "--to") == 0 || strcmp(a, "--from") == 0) && i + 1 < argc) {
            v = argv[++i];
        } else if (strncmp(a, "--to=", 5) == 0) {
            v = a + 5;
        } else if (strncmp(a, "--from=", 7) == 0) {
            v = a + 7;
        }
        if (v != NULL && (strcmp(v, "json") == 0 || strcmp(v, "ndjson") == 0)) {
            return 1;
        }
    }
    return 0;
}

/* GCC-style diagnostics for JSON input, with the reader's detail ("expected : ..."). */
static void json_diag(void *ctx, const pgn_diag *d) {
    json_cli *c = ctx;
    if (c->diag.json || c->reader == NULL) {
        cli_print_diag(&c->diag, d);
        return;
    }
    fprintf(stderr, "%s:%u:%u: error: %s: %s", d->source ? d->source : "<stdin>", d->at.line,
            d->at.column, pgn_status_message(d->code), pgn_json_reader_detail(c->reader));
    if (d->token[0]) {
        fputs(" '", stderr);
        for (const char *p = d->token; *p; p++) {
            fputc((unsigned char)*p < 0x20 ? ' ' : *p, stderr);
        }
        fputc('\'', stderr);
    }
    fprintf(stderr, " [%s] (game %llu)\n", pgn_status_name(d->code), (unsigned long long)d->game);
}

/* Writes one game in the output format. */
static pgn_status emit(pgn_writer *pw, pgn_json_writer *jw, const pgn_game *g) {
    return pw != NULL ? pgn_writer_write(pw, g) : pgn_json_writer_write(jw, g);
}

/* PGN in: every game, as far as it was read. Returns the exit status of this file. */
static int from_pgn(cli_source *in, const pgn_reader_opts *ro, pgn_json_writer *jw, pgn_game *g,
                    uint64_t *errors) {
    pgn_reader *r;
    pgn_status st;
    if (cli_source_reader(in, ro, &r) != PGN_OK) {
        return EXIT_RESOURCE;
    }
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        if ((st = pgn_json_writer_write(jw, g)) != PGN_OK) {
            break;
        }
    }
    uint64_t e;
    pgn_reader_totals(r, NULL, &e, NULL);
    *errors += e;
    pgn_reader_free(r);
    if (st == PGN_END || st == PGN_E_LIMIT) {
        return st == PGN_E_LIMIT ? EXIT_INPUT : EXIT_OK;
    }
    return cli_source_failed(in, st);
}

/* JSON in: every valid game; a game with an error is left out after its diagnostic. */
static int from_json(json_cli *c, cli_source *in, pgn_writer *pw, pgn_json_writer *jw, pgn_game *g,
                     uint64_t *errors) {
    pgn_json_reader_opts o;
    pgn_json_reader *r;
    pgn_status st;
    memset(&o, 0, sizeof o);
    o.source_name = in->name;
    o.on_diag = json_diag;
    o.diag_ctx = c;
    if (pgn_json_reader_new(&r, &o, cli_zin_read, in->z) != PGN_OK) {
        return EXIT_RESOURCE;
    }
    c->reader = r;
    while ((st = pgn_json_reader_next(r, g)) != PGN_END) {
        if (st == PGN_OK) {
            st = emit(pw, jw, g);
        }
        if (st == PGN_E_NOMEM || st == PGN_E_IO) {
            break;
        }
    }
    uint64_t e;
    pgn_json_reader_totals(r, NULL, &e);
    *errors += e;
    c->reader = NULL;
    pgn_json_reader_free(r);
    if (st == PGN_E_NOMEM || st == PGN_E_IO) {
        return cli_source_failed(in, st);
    }
    return EXIT_OK;
}

static int parse_args(int argc, char **argv, json_cli *c, pgn_reader_opts *ro,
                      const char **out_path) {
    static const struct option opts[] = {{"to", required_argument, NULL, 't'},
                                         {"from", required_argument, NULL, 'f'},
                                         {"strict", no_argument, NULL, 's'},
                                         {"fen-ep", required_argument, NULL, 'p'},
                                         {"diag", required_argument, NULL, 'd'},
                                         {"input-encoding", required_argument, NULL, 'e'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         CLI_RANGE_LONG_OPTIONS,
                                         {NULL, 0, NULL, 0}};
    static const char *const names[] = {"pgn", "json", "ndjson"};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
        int *which = ch == 't' ? &c->to : ch == 'f' ? &c->from : NULL;
        if (which != NULL) {
            *which = -1;
            for (int i = 0; i < 3; i++) {
                if (strcmp(optarg, names[i]) == 0) {
                    *which = i;
                }
            }
            if (*which < 0 || (ch == 'f' && *which == FMT_NDJSON)) {
                return cli_usage_error("convert", usage_text, "unknown --to or --from format");
            }
            continue;
        }
        switch (ch) {
        case 's': ro->flags |= PGN_READ_STRICT; break;
        case 'p': c->fen_flags = strcmp(optarg, "always") == 0 ? PGN_FEN_EP_ALWAYS : 0; break;
        case 'd': c->diag.json = strcmp(optarg, "json") == 0; break;
        case 'e':
            if (!cli_parse_encoding(optarg, &ro->encoding)) {
                return cli_usage_error("convert", usage_text, "unknown --input-encoding");
            }
            break;
        case 'o': *out_path = optarg; break;
        case 'h': fputs(usage_text, stdout); return -1;
        case CLI_OPT_RANGE:
        case CLI_OPT_LINE_BASE:
            if (!cli_range_option(ch, optarg, ro)) {
                return cli_usage_error("convert", usage_text,
                                       "bad --range START:END or --line-base N");
            }
            break;
        default: return cli_usage_error("convert", usage_text, NULL);
        }
    }
    if (c->from == FMT_PGN && c->to == FMT_PGN) {
        return cli_usage_error("convert", usage_text, "PGN to PGN is pgnkit fmt");
    }
    return EXIT_OK;
}

int cmd_convert_json(int argc, char **argv) {
    json_cli c;
    pgn_reader_opts ro;
    const char *out_path = NULL;
    memset(&c, 0, sizeof c);
    memset(&ro, 0, sizeof ro);
    c.from = FMT_PGN;
    c.to = FMT_PGN;
    ro.on_diag = cli_print_diag;
    ro.diag_ctx = &c.diag;
    int st = parse_args(argc, argv, &c, &ro, &out_path);
    if (st != EXIT_OK) {
        return st < 0 ? EXIT_OK : st;
    }
    if (c.from == FMT_JSON && (ro.range_start || ro.range_end)) {
        return cli_usage_error("convert", usage_text, "--range reads PGN, not --from json");
    }
    cli_output out;
    if (!cli_open_output(&out, out_path)) {
        return EXIT_RESOURCE;
    }
    c.out = out.file;
    pgn_writer *pw = NULL;
    pgn_json_writer *jw = NULL;
    pgn_game *g = NULL;
    pgn_json_writer_opts jo = {c.to == FMT_NDJSON ? PGN_JSON_NDJSON : 0, c.fen_flags, NULL};
    if (pgn_game_new(&g, NULL) != PGN_OK ||
        (c.to == FMT_PGN ? pgn_writer_new(&pw, NULL, cli_write_file, c.out)
                         : pgn_json_writer_new(&jw, &jo, cli_write_file, c.out)) != PGN_OK) {
        fprintf(stderr, "pgnkit: out of memory\n");
        st = EXIT_RESOURCE;
    }
    static char dash[] = "-";
    char *stdin_only[] = {dash};
    char **files = optind < argc ? argv + optind : stdin_only;
    int nfiles = optind < argc ? argc - optind : 1;
    uint64_t errors = 0;
    for (int i = 0; i < nfiles && st != EXIT_RESOURCE; i++) {
        cli_source in;
        int fst = EXIT_RESOURCE;
        if (cli_source_open(&in, files[i], &ro)) {
            fst = c.from == FMT_JSON ? from_json(&c, &in, pw, jw, g, &errors)
                                     : from_pgn(&in, &ro, jw, g, &errors);
        }
        cli_source_close(&in);
        st = fst > st ? fst : st;
    }
    if (jw != NULL && st != EXIT_RESOURCE && pgn_json_writer_finish(jw) != PGN_OK) {
        st = EXIT_RESOURCE;
    }
    pgn_writer_free(pw);
    pgn_json_writer_free(jw);
    pgn_game_free(g);
    if (st == EXIT_OK && errors) {
        st = EXIT_INPUT;
    }
    return cli_close_output(&out, st);
}
