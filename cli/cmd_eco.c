/* SPDX-License-Identifier: MIT */
/* pgnkit eco: names each game's opening from the lichess table by position (ECO, Opening,
 * Variation tags; include/pgnkit/opening.h) and writes it in export format: a game's tags are
 * filled where it has no ECO tag, replaced with --replace (issue 34 point 7), and the summary
 * counts the games whose tags changed; --check only reports the games whose ECO tag disagrees with
 * the table. A broken game is passed through unchanged. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "parallel.h"

#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit eco [--replace] [--check] [-o OUT] [--where EXPR] [reading options]\n"
    "                  [FILE...]\n"
    "Classifies each game by the deepest position of its main line found in the lichess opening\n"
    "table (by position, so transpositions classify), sets the ECO, Opening and Variation tags\n"
    "of the games that have no ECO tag and writes the game in export format; a game with errors\n"
    "is written unchanged. The summary counts the games whose tags changed.\n"
    "  --replace       set the tags of every game the table classifies, replacing its own\n"
    "  --only-missing  the default: keep the tags of games that already have an ECO tag\n"
    "  --check         write no games: list those whose ECO tag differs from the table's\n"
    "                  (exit status 1 if any)\n" CLI_WHERE_USAGE CLI_READ_USAGE CLI_RANGE_USAGE
        CLI_JOBS_USAGE
    "exit status: 0 success, 1 the input had errors (or --check found a difference), 2 usage\n"
    "error, 3 I/O or memory failure\n";

typedef struct eco_state {
    FILE *out;
    pgn_writer *w;
    pgn_membuf *to; /* where w writes: the product of the game being made */
    pgn_membuf buf; /* -j 1: the game's product */
    uint32_t flags;
    int check;
    uint64_t classified, disagree, changed;
} eco_state;

/* A game's product (made on a worker under -j N, else here): one byte (ECO_CLASSIFIED,
 * ECO_DIFFERS), then the game in export format, or with --check and a difference the end of its
 * message. Both runs use it, so -j N writes what -j 1 writes. */
enum { ECO_CLASSIFIED = 1, ECO_DIFFERS = 2, ECO_CHANGED = 4 };

/* The game's ECO, Opening and Variation tags, one after another (to tell whether they changed). */
static pgn_status eco_tags(const pgn_game *game, pgn_membuf *out) {
    static const char *const names[] = {"ECO", "Opening", "Variation"};
    out->len = 0;
    for (size_t i = 0; i < 3; i++) {
        pgn_str v = {"", 0};
        int has = pgn_game_tag_get(game, names[i], &v);
        if (pgn_membuf_write(out, has ? "+" : "-", 1) < 0 ||
            pgn_membuf_write(out, &v.len, sizeof v.len) < 0 ||
            pgn_membuf_write(out, v.ptr, v.len) < 0) {
            return PGN_E_NOMEM;
        }
    }
    return PGN_OK;
}

static ptrdiff_t to_product(void *ctx, const void *data, size_t len) {
    return pgn_membuf_write(((eco_state *)ctx)->to, data, len);
}

/* --check: the product of g, whose ECO tag may differ from the table's code. */
static pgn_status check_make(const pgn_game *game, pgn_membuf *out) {
    pgn_str tag;
    const pgn_opening *o = pgn_opening_classify(game, NULL);
    unsigned char f = o ? ECO_CLASSIFIED : 0;
    int differs = o && pgn_game_tag_get(game, "ECO", &tag) &&
                  !(tag.len == 3 && memcmp(tag.ptr, o->eco, 3) == 0);
    f |= differs ? ECO_DIFFERS : 0;
    if (pgn_membuf_write(out, &f, 1) < 0) {
        return PGN_E_NOMEM;
    }
    if (!differs) {
        return PGN_OK;
    }
    const char *parts[] = {"ECO \"", "\", by position ", o->eco, " (", o->name, ")\n"};
    const size_t lens[] = {5, 15, 3, 2, strlen(o->name), 2};
    int bad =
        pgn_membuf_write(out, parts[0], lens[0]) < 0 || pgn_membuf_write(out, tag.ptr, tag.len) < 0;
    for (size_t i = 1; i < 6 && !bad; i++) {
        bad = pgn_membuf_write(out, parts[i], lens[i]) < 0;
    }
    return bad ? PGN_E_NOMEM : PGN_OK;
}

static pgn_status eco_make(eco_state *s, pgn_game *game, pgn_membuf *out) {
    if (s->check) {
        return check_make(game, out);
    }
    const pgn_opening *o;
    pgn_membuf before = {0}, after = {0};
    pgn_status st = eco_tags(game, &before);
    if (st == PGN_OK && (st = pgn_opening_tag(game, s->flags, &o)) == PGN_OK) {
        st = eco_tags(game, &after);
    }
    unsigned char f = st == PGN_OK && o ? ECO_CLASSIFIED : 0;
    if (st == PGN_OK &&
        (before.len != after.len || memcmp(before.ptr, after.ptr, after.len) != 0)) {
        f |= ECO_CHANGED;
    }
    free(before.ptr);
    free(after.ptr);
    if (st != PGN_OK || pgn_membuf_write(out, &f, 1) < 0) {
        return st != PGN_OK ? st : PGN_E_NOMEM;
    }
    s->to = out;
    return pgn_writer_write(s->w, game);
}

/* -j N: each worker classifies and writes the games it reads with a writer of its own. */
static void *eco_worker_new(void *user) {
    eco_state *w = malloc(sizeof *w);
    if (w) {
        *w = *(eco_state *)user;
        memset(&w->buf, 0, sizeof w->buf);
        if (pgn_writer_new(&w->w, NULL, to_product, w) != PGN_OK) {
            free(w);
            w = NULL;
        }
    }
    return w;
}

static void eco_worker_free(void *wuser) {
    eco_state *w = wuser;
    pgn_writer_free(w->w);
    free(w);
}

static pgn_status eco_prepare(void *wuser, const pgn_par_game *g, pgn_membuf *out) {
    return g->summary->broken ? PGN_OK : eco_make(wuser, g->game, out);
}

static const pgn_par_hooks eco_hooks = {eco_worker_new, eco_worker_free, NULL, eco_prepare};

/* The export p (without its flag byte) in place of the game: the text before the first game and
 * the text after the game kept verbatim in their places, as fmt does (issue 34 point 5). */
static pgn_status put_game(cli_run *r, const cli_game *g, pgn_str p) {
    int after = cli_has_text(g->between);
    while (after && p.len > 0 && p.ptr[p.len - 1] == '\n') {
        p.len--;
    }
    return cli_output_write(&r->out, p.ptr, p.len) < 0 ||
                   (after && cli_output_write(&r->out, g->between.ptr, g->between.len) < 0)
               ? PGN_E_IO
               : PGN_OK;
}

static pgn_status one_game(cli_run *r, void *user, const cli_game *g) {
    eco_state *s = user;
    if (!s->check && cli_has_text(g->lead) &&
        cli_output_write(&r->out, g->lead.ptr, g->lead.len) < 0) {
        return PGN_E_IO;
    }
    if (g->summary->broken) {
        return cli_write_raw(s->check ? NULL : s->out, g->raw.ptr, g->raw.len);
    }
    pgn_str p;
    if (!cli_par_product(g, &p)) { /* -j 1 (else a worker made it: eco_prepare) */
        s->buf.len = 0;
        pgn_status st = eco_make(s, g->game, &s->buf);
        if (st != PGN_OK) {
            return st;
        }
        p.ptr = s->buf.ptr;
        p.len = s->buf.len;
    }
    if (p.len == 0) {
        return PGN_E_NOMEM; /* not made: cannot happen */
    }
    unsigned char f = (unsigned char)p.ptr[0];
    s->classified += (f & ECO_CLASSIFIED) != 0;
    s->changed += (f & ECO_CHANGED) != 0;
    if (s->check && (f & ECO_DIFFERS)) {
        s->disagree++;
        fprintf(s->out, "%s:%u: game %llu: %.*s", g->input->name, g->summary->start.line,
                (unsigned long long)g->summary->game, (int)p.len - 1, p.ptr + 1);
        return PGN_OK;
    }
    r->written += !s->check;
    if (!s->check) {
        pgn_str text = {p.ptr + 1, p.len - 1};
        return put_game(r, g, text);
    }
    return PGN_OK;
}

enum { OPT_ONLY_MISSING = CLI_OPT_COMMAND, OPT_CHECK, OPT_REPLACE };
static const char *const options[] = {"only-missing", "check", "replace", NULL};

static int eco_option(void *user, int ch, const char *arg) {
    eco_state *s = user;
    (void)arg;
    switch (ch) {
    case OPT_ONLY_MISSING: s->flags |= PGN_OPENING_ONLY_MISSING; return EXIT_OK;
    case OPT_REPLACE: s->flags &= ~PGN_OPENING_ONLY_MISSING; return EXIT_OK;
    case OPT_CHECK: s->check = 1; return EXIT_OK;
    default: return cli_usage("unknown option");
    }
}

int cmd_eco(int argc, char **argv) {
    eco_state s;
    memset(&s, 0, sizeof s);
    s.flags = PGN_OPENING_ONLY_MISSING; /* fill what is missing; --replace overwrites */
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_WHERE);
    int st = cli_run_args(&r, argc, argv, usage_text, options, "", eco_option, &s);
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    r.raw = 1;
    r.ropts.flags |= PGN_READ_KEEP_LEAD; /* the text before the first game, written in its place */
    s.out = r.out.file;
    r.par = &eco_hooks;
    if (pgn_writer_new(&s.w, NULL, to_product, &s) != PGN_OK) {
        cli_error(NULL, "out of memory");
        r.aborted = 1;
        r.status = EXIT_RESOURCE;
    } else {
        cli_run_games(&r, one_game, &s);
    }
    pgn_writer_free(s.w);
    free(s.buf.ptr);
    cli_run_count(&r, "classified", "classified", s.classified);
    if (!s.check) {
        cli_run_count(&r, "changed", "with tags changed", s.changed);
    }
    if (s.check) {
        cli_run_count(&r, "differing", "with an ECO tag that differs", s.disagree);
        r.status = s.disagree && r.status < EXIT_INPUT ? EXIT_INPUT : r.status;
    }
    return cli_run_finish(&r, CLI_SUMMARY_COUNTS);
}
