/* SPDX-License-Identifier: MIT */
/* pgnkit fmt: reads games and writes them in the strict export format (PGN §3.2, §8); broken games
 * go verbatim to --rejects, so that games in = games written + games rejected. -i rewrites each
 * file in place, its broken games kept verbatim where they were. --check only tells whether the
 * input is already canonical (like gofmt -l). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "parallel.h"

#include "tempfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit fmt [--check] [-i|--in-place [--backup SUFFIX]] [--width N] [--reduced]\n"
    "                  [--no-comments]\n"
    "                  [--no-variations] [--no-nags] [--nag-compat] [--strict] [--rejects FILE]\n"
    "                  [--diag text|json] [--max-errors N] [--quiet] [--input-encoding ENC]\n"
    "                  [--input-lang LANG] [--lang LANG]\n"
    "                  [--nag-style number|symbol|text] [editing options]\n"
    "                  [--fen-ep legal|always] [--range START:END [--line-base N]] [-o OUT]\n"
    "                  [--where EXPR] [--games-only] [-j N] [--progress] [FILE...]\n"
    "Writes every game in the PGN export format, and the % lines and the text before, between\n"
    "and after games verbatim in their places. A game with errors is not written: with "
    "--rejects\n"
    "FILE its original bytes go there unchanged. --check writes nothing and exits 1 naming the "
    "first\n"
    "game that is not already in export format. -i (--in-place) rewrites each FILE: a broken game\n"
    "stays in it verbatim and in its place, and so do % lines and the text before, between and\n"
    "after games; the file is replaced only when all of it was written. --backup SUFFIX keeps\n"
    "the file as it was as FILE.SUFFIX (like sed -i.bak). --games-only writes the games alone.\n"
    "-o and --rejects are written to a temporary file renamed into place at the end, and may not\n"
    "be an input.\n"
    "--lang LANG: the moves with another language's piece letters (de, fr, ..., ru), figurines\n"
    "or in descriptive notation (descriptive, descriptive:es, :pt; not export format).\n"
    "--nag-style: how NAGs are written: number ($14, the export format; the default), symbol\n"
    "(e4! \u2A72 for people; reads back to the same NAGs) or text (e4 { White has a slight\n"
    "advantage }: the meaning as a comment).\n" CLI_WHERE_USAGE CLI_EDIT_USAGE
    "--fen-ep always writes the en passant square after every double step (FEN comments and "
    "tag).\n" CLI_RANGE_USAGE CLI_JOBS_USAGE
    "exit status: 0 success, 1 the input had errors (or, with --check, is not canonical),\n"
    "2 usage error, 3 I/O or memory failure\n";

typedef struct fmt_state {
    cli_output *out;
    int check, in_place, games_only;
    const char *backup; /* -i --backup SUFFIX: the file as it was, as FILE.SUFFIX */
    uint64_t not_canonical;
    pgn_membuf text; /* the export of the current game */
    pgn_writer *writer;
    pgn_writer_opts wo;
    pgn_edit_opts edit; /* --strip-... and friends */
} fmt_state;

static pgn_status put(fmt_state *s, const char *p, size_t len) {
    return cli_output_write(s->out, p, len) < 0 ? PGN_E_IO : PGN_OK;
}

/* fmt --check: the first game that is not in export format. */
static void not_canonical(const cli_game *g) {
    unsigned long long n = g->summary->game;
    if (cli_diag_json()) {
        cli_error(g->input->name, "line %u: game %llu is not in export format",
                  g->summary->start.line, n);
    } else {
        fprintf(stderr, "%s:%u: game %llu is not in export format\n", g->input->name,
                g->summary->start.line, n);
    }
}

/* The export of game (edited) into s->text. */
static pgn_status fmt_export(fmt_state *s, pgn_game *game) {
    pgn_status st;
    s->text.len = 0;
    if (s->edit.flags && (st = cli_game_edit(game, &s->edit)) != PGN_OK) {
        return st;
    }
    st = pgn_writer_write(s->writer, game);
    return st == PGN_E_IO ? PGN_E_NOMEM : st; /* the writer's sink is memory (s->text) */
}

/* -j N: each worker exports the games it reads with a writer of its own. */
static void *fmt_worker_new(void *user) {
    fmt_state *w = malloc(sizeof *w);
    if (w) {
        *w = *(fmt_state *)user;
        memset(&w->text, 0, sizeof w->text);
        if (pgn_writer_new(&w->writer, &w->wo, pgn_membuf_write, &w->text) != PGN_OK) {
            free(w);
            w = NULL;
        }
    }
    return w;
}

static void fmt_worker_free(void *wuser) {
    fmt_state *w = wuser;
    pgn_writer_free(w->writer);
    free(w->text.ptr);
    free(w);
}

static pgn_status fmt_prepare(void *wuser, const pgn_par_game *g, pgn_membuf *out) {
    fmt_state *w = wuser;
    pgn_status st;
    if (g->summary->broken || (st = fmt_export(w, g->game)) == PGN_OK) {
        return !g->summary->broken && pgn_membuf_write(out, w->text.ptr, w->text.len) < 0
                   ? PGN_E_NOMEM
                   : PGN_OK;
    }
    return st;
}

static const pgn_par_hooks fmt_hooks = {fmt_worker_new, fmt_worker_free, NULL, fmt_prepare};

/* The game's export, and the text between it and the next game (% lines, comments, notes)
 * verbatim after it, in its place (issue 34 point 5), at -j 1 and -j N alike: the export's closing
 * line breaks give way to the original ones. */
static pgn_status put_in_place(fmt_state *s, const cli_game *g, pgn_str text) {
    if (s->games_only || !cli_has_text(g->between)) {
        return put(s, text.ptr, text.len);
    }
    while (text.len > 0 && text.ptr[text.len - 1] == '\n') {
        text.len--;
    }
    pgn_status st = put(s, text.ptr, text.len);
    return st != PGN_OK ? st : put(s, g->between.ptr, g->between.len);
}

static pgn_status fmt_game(cli_run *r, void *user, const cli_game *g) {
    fmt_state *s = user;
    pgn_status st;
    if (!s->check && !s->games_only && cli_has_text(g->lead) &&
        (st = put(s, g->lead.ptr, g->lead.len)) != PGN_OK) {
        return st; /* the text before the first game (white space alone is not kept) */
    }
    if (g->summary->broken) {
        if (s->in_place && (st = put(s, g->raw.ptr, g->raw.len)) != PGN_OK) {
            return st;
        }
        return cli_run_reject(r, g);
    }
    pgn_str text;
    if (!cli_par_product(g, &text)) { /* -j N: a worker wrote it (fmt_prepare) */
        if ((st = fmt_export(s, g->game)) != PGN_OK) {
            return st;
        }
        text.ptr = s->text.ptr;
        text.len = s->text.len;
    }
    if (s->check) {
        if ((g->raw.len != text.len || memcmp(g->raw.ptr, text.ptr, text.len) != 0) &&
            s->not_canonical++ == 0) {
            not_canonical(g);
        }
    } else if ((st = put_in_place(s, g, text)) != PGN_OK) {
        return st;
    }
    r->written++;
    return PGN_OK;
}

enum {
    OPT_CHECK = CLI_OPT_COMMAND, /* in the order of options */
    OPT_IN_PLACE,
    OPT_WIDTH,
    OPT_REDUCED,
    OPT_NO_COMMENTS,
    OPT_NO_VARIATIONS,
    OPT_NO_NAGS,
    OPT_NAG_COMPAT,
    OPT_FEN_EP,
    OPT_NAG_STYLE,
    OPT_LANG,
    OPT_BACKUP,
    OPT_GAMES_ONLY
};
static const char *const options[] = {
    "check",      "in-place", "width:",     "reduced", "no-comments", "no-variations", "no-nags",
    "nag-compat", "fen-ep:",  "nag-style:", "lang:",   "backup:",     "games-only",    NULL};

static int fmt_option(void *user, int ch, const char *arg) {
    fmt_state *s = user;
    uint64_t v = 0;
    static const char *const styles[] = {"number", "symbol", "text"};
    static const pgn_nag_style style_values[] = {PGN_NAG_STYLE_NUMBER, PGN_NAG_STYLE_SYMBOL,
                                                 PGN_NAG_STYLE_TEXT};
    switch (ch) {
    case OPT_CHECK: s->check = 1; return EXIT_OK;
    case 'i':
    case OPT_IN_PLACE: s->in_place = 1; return EXIT_OK;
    case OPT_GAMES_ONLY: s->games_only = 1; return EXIT_OK;
    case OPT_BACKUP:
        if (!*arg || strchr(arg, '/')) {
            return cli_usage("--backup takes a suffix such as .bak (no '/')");
        }
        s->backup = arg;
        return EXIT_OK;
    case OPT_WIDTH:
        if (cli_number("--width", arg, 20, 100000, &v) != EXIT_OK) {
            return EXIT_USAGE;
        }
        s->wo.width = (uint32_t)v;
        return EXIT_OK;
    case OPT_REDUCED: s->wo.flags |= PGN_WRITE_REDUCED; return EXIT_OK;
    case OPT_NO_COMMENTS: s->wo.flags |= PGN_WRITE_NO_COMMENTS; return EXIT_OK;
    case OPT_NO_VARIATIONS: s->wo.flags |= PGN_WRITE_NO_VARIATIONS; return EXIT_OK;
    case OPT_NO_NAGS: s->wo.flags |= PGN_WRITE_NO_NAGS; return EXIT_OK;
    case OPT_NAG_COMPAT: s->wo.flags |= PGN_WRITE_NAG_COMPAT; return EXIT_OK;
    case OPT_NAG_STYLE:
        for (size_t i = 0; i < 3; i++) {
            if (strcmp(arg, styles[i]) == 0) {
                s->wo.nag_style = style_values[i];
                return EXIT_OK;
            }
        }
        return cli_usage("--nag-style must be number, symbol or text");
    case OPT_LANG:
        if (!pgn_lang_from_name(arg, &s->wo.lang)) {
            return cli_usage(
                "--lang takes en, de, ..., ru, figurine, descriptive[:es|:pt], not '%s'", arg);
        }
        return EXIT_OK;
    case OPT_FEN_EP:
        s->edit.fen_flags =
            PGN_FEN_LICHESS_CHECKS | (strcmp(arg, "always") == 0 ? PGN_FEN_EP_ALWAYS : 0);
        s->wo.fen_flags = s->edit.fen_flags;
        return EXIT_OK;
    default: return cli_edit_option(ch, &s->edit) ? EXIT_OK : cli_usage("unknown option");
    }
}

/* -i: each file through its own output, replaced only when all of it was read and written; the
 * text before, between and after its games kept as in every output of fmt. */
static void fmt_in_place(cli_run *r, fmt_state *s) {
    char **files = r->files;
    int nfiles = r->nfiles;
    r->no_archives = "-i rewrites a file of games, and this one";
    for (int i = 0; i < nfiles && !r->aborted && !r->stopped; i++) {
        cli_output o;
        if (cli_output_open(&o, files[i]) != EXIT_OK) {
            r->status = EXIT_RESOURCE;
            continue;
        }
        int before = r->status;
        r->status = EXIT_OK;
        r->files = &files[i];
        r->nfiles = 1;
        s->out = &o;
        cli_run_games(r, fmt_game, s);
        int commit = r->status < EXIT_RESOURCE && !r->aborted && !r->stopped;
        if (commit && s->backup && cli_backup(files[i], s->backup) != EXIT_OK) {
            commit = 0;
            r->status = EXIT_RESOURCE;
        }
        r->status = cli_output_close(&o, commit, r->status > before ? r->status : before);
    }
    r->files = files;
    r->nfiles = nfiles;
}

/* Usage errors of -i and --check with the other options. */
static int fmt_usage_rules(const cli_run *r, const fmt_state *s) {
    if (s->backup && !s->in_place) {
        return cli_usage("--backup goes with -i");
    }
    if (s->in_place && (s->check || r->out_path || r->where || s->games_only)) {
        return cli_usage("-i does not go with --check, -o, --where or --games-only (it would drop "
                         "games or text)");
    }
    for (int i = 0; s->in_place && i < r->nfiles; i++) {
        if (strcmp(r->files[i], "-") == 0) {
            return cli_usage("-i needs FILE operands (not standard input)");
        }
    }
    return EXIT_OK;
}

int cmd_fmt(int argc, char **argv) {
    fmt_state s;
    cli_run r;
    memset(&s, 0, sizeof s);
    s.edit.fen_flags = s.wo.fen_flags = PGN_FEN_LICHESS_CHECKS; /* three-check FENs as lichess */
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_REJECTS | CLI_WHERE | CLI_EDITS);
    int st = cli_run_args(&r, argc, argv, usage_text, options, "i", fmt_option, &s);
    if (st == EXIT_OK) {
        st = fmt_usage_rules(&r, &s);
    }
    if (st != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    r.raw = 1; /* --check compares; the others keep the text between games (issue 34 point 5) */
    r.ropts.flags |= s.check ? 0u : PGN_READ_KEEP_LEAD;
    if (s.edit.flags == 0) { /* the games go to the writer alone: plain ones need no tree */
        r.ropts.flags |= PGN_READ_PACK_LINE;
    }
    if (s.check || s.in_place) {
        r.out_path = NULL;
    }
    if ((st = cli_run_open(&r)) != EXIT_OK) {
        return st;
    }
    s.out = &r.out;
    r.par = &fmt_hooks;
    if (pgn_writer_new(&s.writer, &s.wo, pgn_membuf_write, &s.text) != PGN_OK) {
        cli_error(NULL, "out of memory");
        r.aborted = 1;
        r.status = EXIT_RESOURCE;
    } else if (s.in_place) {
        fmt_in_place(&r, &s);
    } else {
        cli_run_games(&r, fmt_game, &s);
    }
    pgn_writer_free(s.writer);
    free(s.text.ptr);
    if (s.not_canonical && r.status < EXIT_INPUT) {
        r.status = EXIT_INPUT;
    }
    return cli_run_finish(&r, CLI_SUMMARY_WRITE);
}
