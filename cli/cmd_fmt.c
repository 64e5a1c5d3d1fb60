/* SPDX-License-Identifier: MIT */
/* pgnkit fmt: reads games and writes them in the strict export format (PGN §3.2, §8); broken games
 * go verbatim to --rejects, so that games in = games written + games rejected. --check only tells
 * whether the input is already canonical (like gofmt -l). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit fmt [--check] [--width N] [--reduced] [--no-comments] [--no-variations]\n"
    "                  [--no-nags] [--nag-compat] [--strict] [--rejects FILE] [--diag text|json]\n"
    "                  [--input-encoding ENC] [--nag-style number|symbol|text] [editing options]\n"
    "                  [--fen-ep legal|always] [-o OUT] [FILE...]\n"
    "Writes every game in the PGN export format. A game with errors is not written: with "
    "--rejects\n"
    "FILE its original bytes go there unchanged. --check writes nothing and exits 1 naming the "
    "first\n"
    "game that is not already in export format.\n"
    "--nag-style: how NAGs are written: number ($14, the export format; the default), symbol\n"
    "(e4! \u2A72 for people; reads back to the same NAGs) or text (e4 { White has a slight\n"
    "advantage }: the meaning as a comment).\n" CLI_EDIT_USAGE
    "--fen-ep always writes the en passant square after every double step (FEN comments and "
    "tag).\n";

typedef struct fmt_state {
    FILE *out, *rejects;
    int check;
    uint64_t written, rejected, not_canonical;
    /* the export of the current game */
    cli_membuf text;
    pgn_edit_opts edit; /* --strip-... and friends */
} fmt_state;

static int fmt_file(FILE *f, const char *name, const pgn_reader_opts *base, pgn_writer *w,
                    pgn_game *g, fmt_state *s, uint64_t totals[2]) {
    pgn_reader_opts ro = *base;
    ro.source_name = name;
    ro.flags |= PGN_READ_KEEP_RAW;
    pgn_reader *r;
    if (pgn_reader_new_file(&r, &ro, f) != PGN_OK) {
        return EXIT_RESOURCE;
    }
    pgn_status st;
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        const pgn_game_summary *sum = pgn_reader_summary(r);
        pgn_str raw = pgn_reader_raw(r);
        if (sum->broken) {
            s->rejected++;
            if (s->rejects && fwrite(raw.ptr, 1, raw.len, s->rejects) != raw.len) {
                st = PGN_E_IO;
                break;
            }
            continue;
        }
        s->text.len = 0;
        if (s->edit.flags && (st = cli_game_edit(g, &s->edit)) != PGN_OK) {
            break;
        }
        if ((st = pgn_writer_write(w, g)) != PGN_OK) {
            break;
        }
        if (s->check) {
            if ((raw.len != s->text.len || memcmp(raw.ptr, s->text.p, s->text.len) != 0) &&
                s->not_canonical++ == 0) {
                fprintf(stderr, "%s:%u: game %llu is not in export format\n", name, sum->start.line,
                        (unsigned long long)sum->game);
            }
        } else if (fwrite(s->text.p, 1, s->text.len, s->out) != s->text.len) {
            st = PGN_E_IO;
            break;
        }
        s->written++;
    }
    uint64_t games, errors;
    pgn_reader_totals(r, &games, &errors, NULL);
    totals[0] += games;
    totals[1] += errors;
    pgn_reader_free(r);
    if (st == PGN_END || st == PGN_E_LIMIT) {
        return st == PGN_E_LIMIT ? EXIT_INPUT : EXIT_OK;
    }
    fprintf(stderr, "pgnkit: %s: %s\n", name, pgn_status_message(st));
    return EXIT_RESOURCE;
}

static int parse_args(int argc, char **argv, pgn_reader_opts *ro, pgn_writer_opts *wo,
                      cli_diag_ctx *d, fmt_state *s, const char **out_path,
                      const char **rejects_path) {
    static const struct option opts[] = {{"check", no_argument, NULL, 'c'},
                                         {"width", required_argument, NULL, 'w'},
                                         {"reduced", no_argument, NULL, 'r'},
                                         {"no-comments", no_argument, NULL, 'C'},
                                         {"no-variations", no_argument, NULL, 'V'},
                                         {"no-nags", no_argument, NULL, 'N'},
                                         {"nag-compat", no_argument, NULL, 'n'},
                                         {"strict", no_argument, NULL, 's'},
                                         {"rejects", required_argument, NULL, 'R'},
                                         {"diag", required_argument, NULL, 'd'},
                                         {"input-encoding", required_argument, NULL, 'e'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"fen-ep", required_argument, NULL, 'p'},
                                         CLI_EDIT_LONG_OPTIONS,
                                         {"nag-style", required_argument, NULL, 'G'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:q", opts, NULL)) != -1) {
        switch (c) {
        case 'c': s->check = 1; break;
        case 'w':
            wo->width = (uint32_t)strtoul(optarg, NULL, 10);
            if (wo->width < 20 || wo->width > 100000) {
                return cli_usage_error("fmt", usage_text, "--width must be from 20 to 100000");
            }
            break;
        case 'r': wo->flags |= PGN_WRITE_REDUCED; break;
        case 'C': wo->flags |= PGN_WRITE_NO_COMMENTS; break;
        case 'V': wo->flags |= PGN_WRITE_NO_VARIATIONS; break;
        case 'N': wo->flags |= PGN_WRITE_NO_NAGS; break;
        case 'n': wo->flags |= PGN_WRITE_NAG_COMPAT; break;
        case 's': ro->flags |= PGN_READ_STRICT; break;
        case 'R': *rejects_path = optarg; break;
        case 'd': d->json = strcmp(optarg, "json") == 0; break;
        case 'q': d->quiet_warnings = 1; break;
        case 'e':
            if (!cli_parse_encoding(optarg, &ro->encoding)) {
                return cli_usage_error("fmt", usage_text, "unknown --input-encoding");
            }
            break;
        case 'G':
            if (strcmp(optarg, "number") == 0) {
                wo->nag_style = PGN_NAG_STYLE_NUMBER;
            } else if (strcmp(optarg, "symbol") == 0) {
                wo->nag_style = PGN_NAG_STYLE_SYMBOL;
            } else if (strcmp(optarg, "text") == 0) {
                wo->nag_style = PGN_NAG_STYLE_TEXT;
            } else {
                return cli_usage_error("fmt", usage_text,
                                       "--nag-style must be number, symbol or text");
            }
            break;
        case 'o': *out_path = optarg; break;
        case 'h': fputs(usage_text, stdout); return -1;
        case 'p':
            s->edit.fen_flags = strcmp(optarg, "always") == 0 ? PGN_FEN_EP_ALWAYS : 0;
            wo->fen_flags = s->edit.fen_flags;
            break;
        default:
            if (!cli_edit_option(c, &s->edit)) {
                return cli_usage_error("fmt", usage_text, NULL);
            }
        }
    }
    return EXIT_OK;
}

int cmd_fmt(int argc, char **argv) {
    pgn_reader_opts ro;
    pgn_writer_opts wo;
    cli_diag_ctx dctx = {0, 0};
    fmt_state s;
    const char *out_path = NULL, *rejects_path = NULL;
    memset(&ro, 0, sizeof ro);
    memset(&wo, 0, sizeof wo);
    memset(&s, 0, sizeof s);
    ro.on_diag = cli_print_diag;
    ro.diag_ctx = &dctx;
    int st = parse_args(argc, argv, &ro, &wo, &dctx, &s, &out_path, &rejects_path);
    if (st != EXIT_OK) {
        return st < 0 ? EXIT_OK : st;
    }
    cli_output out, rej;
    if (!cli_open_output(&out, s.check ? NULL : out_path)) {
        return EXIT_RESOURCE;
    }
    if (rejects_path && !cli_open_output(&rej, rejects_path)) {
        return cli_close_output(&out, EXIT_RESOURCE);
    }
    s.out = out.file;
    s.rejects = rejects_path ? rej.file : NULL;
    pgn_writer *w = NULL;
    pgn_game *g = NULL;
    if (pgn_writer_new(&w, &wo, cli_membuf_write, &s.text) != PGN_OK ||
        pgn_game_new(&g, NULL) != PGN_OK) {
        fprintf(stderr, "pgnkit: out of memory\n");
        st = EXIT_RESOURCE;
    }
    static char dash[] = "-";
    char *stdin_only[] = {dash};
    char **files = optind < argc ? argv + optind : stdin_only;
    int nfiles = optind < argc ? argc - optind : 1;
    uint64_t totals[2] = {0, 0};
    for (int i = 0; i < nfiles && st != EXIT_RESOURCE; i++) {
        FILE *f = cli_open_input(files[i]);
        int fst = f ? fmt_file(f, strcmp(files[i], "-") == 0 ? "<stdin>" : files[i], &ro, w, g, &s,
                               totals)
                    : EXIT_RESOURCE;
        cli_close_input(f);
        st = fst > st ? fst : st;
    }
    pgn_writer_free(w);
    pgn_game_free(g);
    free(s.text.p);
    if (st == EXIT_OK && (totals[1] || s.not_canonical)) {
        st = EXIT_INPUT;
    }
    if (rejects_path) {
        st = cli_close_output(&rej, st);
    }
    fprintf(stderr, "%llu games, %llu written, %llu rejected, %llu errors\n",
            (unsigned long long)totals[0], (unsigned long long)s.written,
            (unsigned long long)s.rejected, (unsigned long long)totals[1]);
    return cli_close_output(&out, st);
}
