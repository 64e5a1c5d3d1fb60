/* SPDX-License-Identifier: MIT */
/* pgnkit eco: names each game's opening from the lichess table by position (ECO, Opening,
 * Variation tags; include/pgnkit/opening.h) and writes it in export format; --check only reports
 * the games whose ECO tag disagrees with the table. A broken game is passed through unchanged. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit eco [--only-missing] [--check] [-o OUT] [--where EXPR] [reading options]\n"
    "                  [FILE...]\n"
    "Classifies each game by the deepest position of its main line found in the lichess opening\n"
    "table (by position, so transpositions classify), sets the ECO, Opening and Variation tags\n"
    "and writes the game in export format; a game with errors is written unchanged.\n"
    "  --only-missing  keep the tags of games that already have an ECO tag\n"
    "  --check         write no games: list those whose ECO tag differs from the table's\n"
    "                  (exit status 1 if any)\n" CLI_WHERE_USAGE CLI_READ_USAGE CLI_RANGE_USAGE
    "exit status: 0 success, 1 the input had errors (or --check found a difference), 2 usage\n"
    "error, 3 I/O or memory failure\n";

typedef struct eco_state {
    FILE *out;
    pgn_writer *w;
    uint32_t flags;
    int check;
    uint64_t classified, disagree;
} eco_state;

/* --check: reports g when its ECO tag differs from the table's code. */
static void check_game(eco_state *s, const cli_game *g) {
    pgn_str tag;
    const pgn_opening *o = pgn_opening_classify(g->game, NULL);
    s->classified += o != NULL;
    if (!pgn_game_tag_get(g->game, "ECO", &tag) || !o ||
        (tag.len == 3 && memcmp(tag.ptr, o->eco, 3) == 0)) {
        return;
    }
    s->disagree++;
    fprintf(s->out, "%s:%u: game %llu: ECO \"%.*s\", by position %s (%s)\n", g->input->name,
            g->summary->start.line, (unsigned long long)g->summary->game, (int)tag.len, tag.ptr,
            o->eco, o->name);
}

static pgn_status one_game(cli_run *r, void *user, const cli_game *g) {
    eco_state *s = user;
    if (g->summary->broken) {
        return cli_write_raw(s->check ? NULL : s->out, g->raw.ptr, g->raw.len);
    }
    if (s->check) {
        check_game(s, g);
        return PGN_OK;
    }
    const pgn_opening *o;
    pgn_status st = pgn_opening_tag(g->game, s->flags, &o);
    s->classified += o != NULL;
    r->written += st == PGN_OK;
    return st == PGN_OK ? pgn_writer_write(s->w, g->game) : st;
}

enum { OPT_ONLY_MISSING = CLI_OPT_COMMAND, OPT_CHECK };

static int eco_option(void *user, int ch, const char *arg) {
    eco_state *s = user;
    (void)arg;
    switch (ch) {
    case OPT_ONLY_MISSING: s->flags |= PGN_OPENING_ONLY_MISSING; return EXIT_OK;
    case OPT_CHECK: s->check = 1; return EXIT_OK;
    default: return cli_usage("unknown option");
    }
}

int cmd_eco(int argc, char **argv) {
    static const struct option opts[] = {{"only-missing", no_argument, NULL, OPT_ONLY_MISSING},
                                         {"check", no_argument, NULL, OPT_CHECK},
                                         {NULL, 0, NULL, 0}};
    eco_state s = {NULL, NULL, 0, 0, 0, 0};
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_WHERE);
    int st = cli_run_parse(&r, argc, argv, usage_text, opts, "", eco_option, &s);
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    r.raw = 1;
    s.out = r.out.file;
    if (pgn_writer_new(&s.w, NULL, cli_output_write, &r.out) != PGN_OK) {
        cli_error(NULL, "out of memory");
        r.aborted = 1;
        r.status = EXIT_RESOURCE;
    } else {
        cli_run_games(&r, one_game, &s);
    }
    pgn_writer_free(s.w);
    cli_run_count(&r, "classified", "classified", s.classified);
    if (s.check) {
        cli_run_count(&r, "differing", "with an ECO tag that differs", s.disagree);
        r.status = s.disagree && r.status < EXIT_INPUT ? EXIT_INPUT : r.status;
    }
    return cli_run_finish(&r, CLI_SUMMARY_COUNTS);
}
