/* SPDX-License-Identifier: MIT */
/* pgnkit eco: names each game's opening from the lichess table by position (ECO, Opening,
 * Variation tags; include/pgnkit/opening.h) and writes it in export format; --check only reports
 * the games whose ECO tag disagrees with the table. A broken game is passed through unchanged. */
#define _POSIX_C_SOURCE 200809L
#include "coll.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit eco [--only-missing] [--check] [-o OUT] [reading options] [FILE...]\n"
    "Classifies each game by the deepest position of its main line found in the lichess opening\n"
    "table (by position, so transpositions classify), sets the ECO, Opening and Variation tags\n"
    "and writes the game in export format; a game with errors is written unchanged.\n"
    "  --only-missing  keep the tags of games that already have an ECO tag\n"
    "  --check         write no games: list those whose ECO tag differs from the table's\n"
    "                  (exit status 1 if any)\n" COLL_USAGE;

typedef struct eco_state {
    FILE *out;
    pgn_writer *w;
    uint32_t flags;
    int check;
    uint64_t classified, disagree;
} eco_state;

/* --check: reports g when its ECO tag differs from the table's code. */
static void check_game(eco_state *s, const coll_game *g) {
    pgn_str tag;
    const pgn_opening *o = pgn_opening_classify(g->game, NULL);
    s->classified += o != NULL;
    if (!pgn_game_tag_get(g->game, "ECO", &tag) || !o ||
        (tag.len == 3 && memcmp(tag.ptr, o->eco, 3) == 0)) {
        return;
    }
    s->disagree++;
    printf("%s:%u: game %llu: ECO \"%.*s\", by position %s (%s)\n", g->name, g->summary->start.line,
           (unsigned long long)g->summary->game, (int)tag.len, tag.ptr, o->eco, o->name);
}

static pgn_status one_game(void *user, const coll_game *g) {
    eco_state *s = user;
    if (g->summary->broken) {
        return coll_write_raw(s->check ? NULL : s->out, g->raw.ptr, g->raw.len);
    }
    if (s->check) {
        check_game(s, g);
        return PGN_OK;
    }
    const pgn_opening *o;
    pgn_status st = pgn_opening_tag(g->game, s->flags, &o);
    s->classified += o != NULL;
    return st == PGN_OK ? pgn_writer_write(s->w, g->game) : st;
}

int cmd_eco(int argc, char **argv) {
    static const struct option opts[] = {{"only-missing", no_argument, NULL, 'm'},
                                         {"check", no_argument, NULL, 'c'},
                                         {"output", required_argument, NULL, 'o'},
                                         COLL_LONG_OPTIONS,
                                         {NULL, 0, NULL, 0}};
    coll_run r;
    coll_init(&r);
    eco_state s = {NULL, NULL, 0, 0, 0, 0};
    const char *out_path = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:q", opts, NULL)) != -1) {
        int k = coll_option(&r, "eco", usage_text, c, optarg);
        if (k < 0) {
            return EXIT_USAGE;
        }
        switch (k ? 0 : c) {
        case 0: break;
        case 'm': s.flags |= PGN_OPENING_ONLY_MISSING; break;
        case 'c': s.check = 1; break;
        case 'o': out_path = optarg; break;
        case 'h': fputs(usage_text, stdout); return EXIT_OK;
        default: return cli_usage_error("eco", usage_text, NULL);
        }
    }
    cli_output out;
    if (!cli_open_output(&out, s.check ? NULL : out_path)) {
        return EXIT_RESOURCE;
    }
    s.out = out.file;
    int st = coll_open(&r, argc - optind, argv + optind);
    if (st == EXIT_OK && pgn_writer_new(&s.w, NULL, cli_write_file, out.file) != PGN_OK) {
        fprintf(stderr, "pgnkit: out of memory\n");
        st = EXIT_RESOURCE;
    }
    if (st == EXIT_OK) {
        st = coll_games(&r, one_game, &s);
    }
    coll_close(&r);
    pgn_writer_free(s.w);
    fprintf(stderr, "%llu games, %llu classified%s%llu errors\n", (unsigned long long)r.games,
            (unsigned long long)s.classified, ", ", (unsigned long long)r.errors);
    if (s.check) {
        fprintf(stderr, "%llu with an ECO tag that differs\n", (unsigned long long)s.disagree);
    }
    return cli_close_output(&out, st == EXIT_OK && s.disagree ? EXIT_INPUT : st);
}
