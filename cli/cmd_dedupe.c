/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe: drops duplicate games, those with the same start position and main line (and
 * with --by moves+tags the same players, date and result), found through pgn_dedupe's Zobrist
 * line keys and confirmed move by move against the earlier copy read back from a spool file: by
 * default each distinct game's line record, made by a visitor without a game tree
 * (cli/dedupe_line.c); with --keep richest every game's text, read again into a tree and also
 * read by the second pass (cli/dedupe_out.c). Memory: per distinct game one set entry (at most 96
 * bytes) and one record here (48 bytes); per duplicate a 32-byte record only with --report; never
 * the games' text. */
#define _POSIX_C_SOURCE 200809L
#include "dedupe.h"

#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit dedupe [--by moves|moves+tags] [--keep first|richest] [--dupes FILE]\n"
    "                     [--report FILE] [-o OUT] [--where EXPR] [reading options] [FILE...]\n"
    "Writes each distinct game once, unchanged. Games are duplicates when their start position\n"
    "and main line are equal (confirmed move by move, never by a hash alone). A game without\n"
    "moves is a duplicate only of the same game: its White, Black, Date and Result count too.\n"
    "  --by moves+tags  also White, Black, Date and Result equal (names: case, spaces and .,-\n"
    "                   ignored)\n"
    "  --keep richest   keep the copy with the most tags, comments, NAGs and variation moves\n"
    "                   (the first on a tie); the default keeps the first copy\n"
    "  --dupes FILE     the dropped copies, unchanged\n"
    "  --report FILE    JSON: every cluster of two or more copies, with each copy's ordinal,\n"
    "                   input, line and whether it was kept\n"
    "A game with errors is always kept.\n" CLI_WHERE_USAGE CLI_READ_USAGE CLI_RANGE_USAGE
        CLI_JOBS_USAGE
    "exit status: 0 success, 1 the input had errors, 2 usage error, 3 I/O or memory failure\n";

int dd_reserve(void **p, size_t n, size_t *cap, size_t sz) {
    if (n < *cap) {
        return 1;
    }
    size_t c = *cap ? *cap * 2 : 1024;
    void *q = c <= SIZE_MAX / sz ? realloc(*p, c * sz) : NULL;
    if (!q) {
        return 0;
    }
    *p = q;
    *cap = c;
    return 1;
}

static pgn_status write_raw(FILE *f, const cli_game *g) {
    return cli_write_raw(f, g->raw.ptr, g->raw.len);
}

/* g's input name, kept for --report after its input is closed (one copy per input); NULL when
 * out of memory. */
static const char *input_name(dd_state *s, const cli_game *g) {
    const char *name = g->input->name;
    if (s->nnames > 0 && strcmp(s->names[s->nnames - 1], name) == 0) {
        return s->names[s->nnames - 1];
    }
    char *copy = strdup(name);
    if (!copy || !dd_reserve((void **)&s->names, s->nnames, &s->capnames, sizeof(char *))) {
        free(copy);
        return NULL;
    }
    return s->names[s->nnames++] = copy;
}

/* A new distinct game (at, len: its record or text in the spool). */
static pgn_status add_rep(dd_state *s, const cli_game *g, uint64_t at, uint32_t len) {
    const char *name = input_name(s, g);
    if (!name || !dd_reserve((void **)&s->reps, s->nreps, &s->capreps, sizeof(rep))) {
        return PGN_E_NOMEM;
    }
    rep *r = &s->reps[s->nreps++];
    r->start = at;
    r->len = len;
    r->input = name;
    r->line = g->summary->start.line;
    r->first = r->keep = g->ordinal;
    r->rich = s->richest ? (uint32_t)pgn_game_richness(g->game) : 0;
    return PGN_OK;
}

/* A duplicate of cluster: counted, and kept for --report. */
static pgn_status add_member(dd_state *s, const cli_game *g, uint64_t cluster) {
    s->dropped++;
    if (!s->report) {
        return PGN_OK;
    }
    const char *name = input_name(s, g);
    if (!name || !dd_reserve((void **)&s->members, s->nmembers, &s->capmembers, sizeof(member))) {
        return PGN_E_NOMEM;
    }
    member m = {cluster, g->ordinal, name, g->summary->start.line};
    s->members[s->nmembers++] = m;
    return PGN_OK;
}

/* --keep first, after the visitor read g: its line looked up; the output or --dupes. */
static pgn_status first_pass(cli_run *run, void *user, const cli_game *g) {
    dd_state *s = user;
    (void)run;
    if (g->summary->broken || g->raw.len > UINT32_MAX) {
        s->broken++;
        return write_raw(s->out, g);
    }
    uint64_t cluster, at = 0;
    uint32_t len = 0;
    int is_new;
    pgn_status st = dd_line_add(s, g, &cluster, &is_new, &at, &len);
    if (st != PGN_OK || is_new) {
        st = st == PGN_OK ? add_rep(s, g, at, len) : st;
        return st == PGN_OK ? write_raw(s->out, g) : st;
    }
    st = add_member(s, g, cluster);
    return st == PGN_OK ? write_raw(s->dupes, g) : st;
}

/* --keep richest, the first pass: every game spooled, the clusters and the richest copies. */
static pgn_status richest_pass(cli_run *run, void *user, const cli_game *g) {
    dd_state *s = user;
    uint64_t at = 0, cluster;
    int is_new;
    pgn_status st = dd_spool(s, g, &at);
    (void)run;
    if (st != PGN_OK || g->summary->broken || g->raw.len > UINT32_MAX) {
        s->broken += st == PGN_OK;
        return st;
    }
    st = pgn_dedupe_add(s->set, g->game, pgn_dedupe_count(s->set), dd_same_as_rep, s, &cluster,
                        &is_new);
    if (st != PGN_OK || is_new) {
        return st == PGN_OK ? add_rep(s, g, at, (uint32_t)g->raw.len) : st;
    }
    if ((st = add_member(s, g, cluster)) != PGN_OK) {
        return st;
    }
    uint32_t rich = (uint32_t)pgn_game_richness(g->game);
    if (rich > s->reps[cluster].rich) {
        s->reps[cluster].rich = rich;
        s->reps[cluster].keep = g->ordinal;
    }
    return PGN_OK;
}

static int by_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

enum { OPT_BY = CLI_OPT_COMMAND, OPT_KEEP, OPT_DUPES, OPT_REPORT };
static const char *const options[] = {"by:", "keep:", "dupes:", "report:", NULL};

typedef struct dd_opts {
    dd_state *s;
    const char *dupes, *report;
} dd_opts;

static int dedupe_option(void *user, int ch, const char *arg) {
    dd_opts *o = user;
    switch (ch) {
    case OPT_BY:
        if (strcmp(arg, "moves") != 0 && strcmp(arg, "moves+tags") != 0) {
            return cli_usage("--by takes moves or moves+tags, not '%s'", arg);
        }
        o->s->flags = strcmp(arg, "moves+tags") == 0 ? PGN_DEDUPE_TAGS : 0;
        return EXIT_OK;
    case OPT_KEEP:
        if (strcmp(arg, "first") != 0 && strcmp(arg, "richest") != 0) {
            return cli_usage("--keep takes first or richest, not '%s'", arg);
        }
        o->s->richest = strcmp(arg, "richest") == 0;
        return EXIT_OK;
    case OPT_DUPES: o->dupes = arg; return EXIT_OK;
    case OPT_REPORT: o->report = arg; return EXIT_OK;
    default: return cli_usage("unknown option");
    }
}

/* Both passes and the report. */
static void run(cli_run *r, dd_state *s) {
    pgn_dedupe_opts o = {s->flags, NULL};
    if (pgn_dedupe_new(&s->set, &o) != PGN_OK || pgn_game_new(&s->scratch, NULL) != PGN_OK ||
        !(s->spool = tmpfile())) {
        cli_error(NULL, s->set && s->scratch ? "cannot create a temporary file" : "out of memory");
        r->aborted = 1;
        return;
    }
    if (s->richest) {
        cli_run_games(r, richest_pass, s);
    } else {
        s->line.flags = s->flags;
        r->ropts.flags |= PGN_READ_NO_KEYS; /* the visitor keys the start position itself */
        r->par = dd_line_hooks();
        cli_run_visit(r, dd_line_visitor(), &s->line, first_pass, s);
    }
    pgn_status st = PGN_OK;
    if (!r->aborted && s->richest) {
        s->kept = malloc((s->nreps + 1) * sizeof *s->kept);
        for (size_t i = 0; s->kept && i < s->nreps; i++) {
            s->kept[s->nkept++] = s->reps[i].keep;
        }
        if (s->kept) {
            qsort(s->kept, s->nkept, sizeof *s->kept, by_u64);
        }
        st = s->kept ? dd_second_pass(s) : PGN_E_NOMEM;
    }
    if (st != PGN_OK) {
        cli_error(NULL, "%s", pgn_status_message(st));
        r->aborted = 1;
    }
    if (!r->aborted && s->report) {
        dd_write_report(s);
    }
}

/* Is one of the --dupes and --report files an input, the output (-o, standard output without
 * it), the rejects or the other one? */
static int side_clash(cli_run *r, const dd_opts *o) {
    const char *out = r->out_path ? r->out_path : "-";
    const char *what[2] = {"--dupes", "--report"}, *paths[2] = {o->dupes, o->report};
    for (int i = 0; i < 2; i++) {
        if (cli_run_check_output(r, what[i], paths[i]) != EXIT_OK ||
            cli_outputs_clash(what[i], paths[i], "the output", out) ||
            cli_outputs_clash(what[i], paths[i], "--rejects", r->rejects_path)) {
            return 1;
        }
    }
    return cli_outputs_clash("--dupes", o->dupes, "--report", o->report);
}

/* Opens (o: 1) or closes (o: 0) the --dupes and --report files. */
static int side_outputs(cli_run *r, dd_opts *o, cli_output out[2], int open, int status) {
    const char *paths[2] = {o->dupes, o->report};
    if (open && side_clash(r, o)) {
        return EXIT_USAGE;
    }
    for (int i = 0; i < 2; i++) {
        if (!paths[i]) {
            continue;
        }
        if (!open) {
            status = cli_output_close(&out[i], !r->aborted, status);
        } else if (cli_output_open(&out[i], paths[i]) != EXIT_OK) {
            return EXIT_RESOURCE;
        }
    }
    return status;
}

int cmd_dedupe(int argc, char **argv) {
    dd_state s;
    memset(&s, 0, sizeof s);
    dd_opts o = {&s, NULL, NULL};
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_WHERE);
    cli_output side[2];
    memset(side, 0, sizeof side);
    side[0].fd = side[1].fd = -1;
    int st = cli_run_args(&r, argc, argv, usage_text, options, "", dedupe_option, &o);
    if (st == EXIT_OK) {
        st = side_outputs(&r, &o, side, 1, EXIT_OK);
    }
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        side_outputs(&r, &o, side, 0, EXIT_RESOURCE);
        return st == CLI_HELP ? EXIT_OK : st;
    }
    s.run = &r;
    r.raw = 1;
    s.out = r.out.file;
    s.dupes = o.dupes ? side[0].file : NULL;
    s.report = o.report ? side[1].file : NULL;
    run(&r, &s);
    if (s.spool) {
        fclose(s.spool);
    }
    pgn_dedupe_free(s.set);
    pgn_game_free(s.scratch);
    free(s.reps);
    free(s.members);
    for (size_t i = 0; i < s.nnames; i++) {
        free(s.names[i]);
    }
    free(s.names);
    free(s.kept);
    dd_line_free(&s.line);
    cli_run_count(&r, "distinct", "distinct", s.nreps + s.broken);
    cli_run_count(&r, "duplicates", "duplicates dropped", s.dropped);
    r.status = side_outputs(&r, &o, side, 0, r.status);
    return cli_run_finish(&r, CLI_SUMMARY_COUNTS);
}
