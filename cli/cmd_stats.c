/* SPDX-License-Identifier: MIT */
/* pgnkit stats: what a collection holds, counted while streaming (no game is kept) by the
 * library (pgn_stats, include/pgnkit/collection.h): games, plies, results, ECO codes, players,
 * events, years, time-control classes, variants and diagnostics by code. The command keeps the
 * options, the reading on threads and the printing (cli/stats_report.c). */
#define _POSIX_C_SOURCE 200809L
#include "parallel.h"
#include "stats.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit stats [--json] [--top N] [--where EXPR] [reading options] [FILE...]\n"
    "Counts games, plies (min, median, max), results, the result by colour, ECO codes, players\n"
    "(games, score, rating range), events, years, time-control classes, variants and the\n"
    "diagnostics by code; prints a table, or one JSON object with --json. Lists are cut to the\n"
    "N most frequent values (--top, default 10; 0 = all).\n"
    "Time controls (TimeControl tag, base + 40 x increment): bullet < 3 min, blitz < 8 min,\n"
    "rapid < 25 min, else classical; '-' is none, a missing or '?' tag unknown.\n" CLI_WHERE_USAGE
        CLI_READ_USAGE CLI_RANGE_USAGE CLI_JOBS_USAGE
    "exit status: 0 success, 1 the input had errors, 2 usage error, 3 I/O or memory failure\n";

/* -j N: a worker reads the tags into a pgn_stats_game of its own and sends it as the product: the
 * bits of the tags seen (2 bytes), the marker (1), then each tag seen as a length byte and its
 * bytes; the counting stays on the main thread, in input order. */
static void *stats_worker_new(void *user) {
    (void)user;
    return calloc(1, sizeof(pgn_stats_game));
}

static void *stats_worker_vuser(void *wuser) {
    return wuser;
}

static pgn_status stats_prepare(void *wuser, const pgn_par_game *g, pgn_membuf *out) {
    const pgn_stats_game *sg = wuser;
    unsigned char head[3] = {(unsigned char)(sg->have & 255u), (unsigned char)(sg->have >> 8),
                             (unsigned char)sg->marker};
    int bad = pgn_membuf_write(out, head, sizeof head) < 0;
    (void)g;
    for (unsigned i = 0; i < PGN_STATS_NTAGS && !bad; i++) {
        unsigned char n = (unsigned char)sg->len[i];
        bad = ((sg->have >> i) & 1u) &&
              (pgn_membuf_write(out, &n, 1) < 0 || pgn_membuf_write(out, sg->val[i], n) < 0);
    }
    return bad ? PGN_E_NOMEM : PGN_OK;
}

static const pgn_par_hooks stats_hooks = {stats_worker_new, free, stats_worker_vuser,
                                          stats_prepare};

/* The product of stats_prepare back into the game being counted. */
static void from_product(pgn_stats_game *sg, pgn_str p) {
    const unsigned char *q = (const unsigned char *)p.ptr, *end = q + p.len;
    sg->have = p.len >= 3 ? q[0] | (unsigned)q[1] << 8 : 0;
    sg->marker = p.len >= 3 ? (pgn_result)q[2] : PGN_RESULT_NONE;
    q += p.len >= 3 ? 3 : p.len;
    for (unsigned i = 0; i < PGN_STATS_NTAGS; i++) {
        sg->len[i] = 0;
        if (((sg->have >> i) & 1u) && q < end && (size_t)(end - q) > *q) {
            sg->len[i] = *q;
            memcpy(sg->val[i], q + 1, *q);
            q += 1 + *q;
        }
    }
}

static pgn_status one_game(cli_run *run, void *user, const cli_game *g) {
    stats *s = user;
    pgn_str made;
    (void)run;
    if (cli_par_product(g, &made)) { /* -j N: stats_prepare */
        from_product(&s->g, made);
    }
    s->g.plies = g->summary->plies;
    return pgn_stats_add(s->counts, &s->g);
}

enum { OPT_JSON = CLI_OPT_COMMAND, OPT_TOP };
static const char *const options[] = {"json", "top:", NULL};

static int stats_option(void *user, int ch, const char *arg) {
    stats *s = user;
    uint64_t v = 0;
    switch (ch) {
    case OPT_JSON: s->json = 1; return EXIT_OK;
    case OPT_TOP:
        if (cli_number("--top", arg, 0, INT_MAX, &v) != EXIT_OK) {
            return EXIT_USAGE;
        }
        s->top = (int)v;
        return EXIT_OK;
    default: return cli_usage("unknown option");
    }
}

static void stats_free(stats *s) {
    pgn_stats_free(s->counts);
    free(s);
}

/* The counts, empty; NULL when out of memory. */
static stats *stats_new(void) {
    stats *s = calloc(1, sizeof *s);
    if (s && pgn_stats_new(&s->counts, NULL) != PGN_OK) {
        free(s);
        return NULL;
    }
    return s;
}

int cmd_stats(int argc, char **argv) {
    stats *s = stats_new();
    if (!s) {
        cli_error(NULL, "out of memory");
        return EXIT_RESOURCE;
    }
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WHERE);
    s->run = &r;
    s->top = 10;
    int st = cli_run_args(&r, argc, argv, usage_text, options, "", stats_option, s);
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        stats_free(s);
        return st == CLI_HELP ? EXIT_OK : st;
    }
    cli_diag_observe(pgn_stats_diag, s->counts);
    r.par = &stats_hooks;
    cli_run_visit(&r, pgn_stats_game_visitor(), &s->g, one_game, s);
    cli_diag_observe(NULL, NULL);
    if (!r.aborted && r.status < EXIT_RESOURCE) {
        stats_report(s, r.where ? r.matched : r.games);
    }
    stats_free(s);
    return cli_run_finish(&r, CLI_SUMMARY_CHECK);
}
