/* SPDX-License-Identifier: MIT */
/* pgnkit stats: what a collection holds, counted while streaming (no game is kept): games, plies,
 * results, ECO codes, players, events, years, time-control classes, variants and diagnostics by
 * code. Memory: the per-value counters (one per distinct ECO, player, event, ...) and one counter
 * per ply count up to the longest game. */
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

static const char *const TAG_NAMES[NT] = {"White", "Black", "WhiteElo", "BlackElo",    "Result",
                                          "ECO",   "Event", "Date",     "TimeControl", "Variant"};

static pgn_flow on_begin(void *user, pgn_loc at) {
    stats_game *g = user;
    (void)at;
    g->have = 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    stats_game *g = user;
    for (unsigned i = 0; i < NT; i++) {
        if (name.len == strlen(TAG_NAMES[i]) && memcmp(name.ptr, TAG_NAMES[i], name.len) == 0) {
            g->len[i] = value.len < VAL_MAX ? value.len : VAL_MAX;
            memcpy(g->val[i], value.ptr, g->len[i]);
            g->have |= 1u << i;
        }
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end(void *user, pgn_result result, const pgn_game_summary *summary) {
    stats_game *g = user;
    (void)summary;
    g->marker = result;
    return PGN_FLOW_CONTINUE;
}

static const pgn_visitor stats_visitor = {on_begin, on_tag, NULL, NULL,  NULL,
                                          NULL,     NULL,   NULL, on_end};

/* Every diagnostic of the reading (cli_diag_observe), counted by code. */
static void on_diag(void *ctx, const pgn_diag *d) {
    stats *s = ctx;
    s->diags[(unsigned)d->code & 255u]++;
}

/* -j N: a worker reads the tags into a stats_game of its own and sends it as the product: the
 * bits of the tags seen (2 bytes), the marker (1), then each tag seen as a length byte and its
 * bytes; the counting stays on the main thread, in input order. */
static void *stats_worker_new(void *user) {
    (void)user;
    return calloc(1, sizeof(stats_game));
}

static void *stats_worker_vuser(void *wuser) {
    return wuser;
}

static pgn_status stats_prepare(void *wuser, const cli_game *g, cli_membuf *out) {
    const stats_game *sg = wuser;
    unsigned char head[3] = {(unsigned char)(sg->have & 255u), (unsigned char)(sg->have >> 8),
                             (unsigned char)sg->marker};
    int bad = cli_membuf_write(out, head, sizeof head) < 0;
    (void)g;
    for (unsigned i = 0; i < NT && !bad; i++) {
        unsigned char n = (unsigned char)sg->len[i];
        bad = ((sg->have >> i) & 1u) &&
              (cli_membuf_write(out, &n, 1) < 0 || cli_membuf_write(out, sg->val[i], n) < 0);
    }
    return bad ? PGN_E_NOMEM : PGN_OK;
}

static const cli_par_hooks stats_hooks = {stats_worker_new, free, stats_worker_vuser,
                                          stats_prepare};

/* The product of stats_prepare back into the game being counted. */
static void from_product(stats_game *sg, pgn_str p) {
    const unsigned char *q = (const unsigned char *)p.ptr, *end = q + p.len;
    sg->have = p.len >= 3 ? q[0] | (unsigned)q[1] << 8 : 0;
    sg->marker = p.len >= 3 ? (pgn_result)q[2] : PGN_RESULT_NONE;
    q += p.len >= 3 ? 3 : p.len;
    for (unsigned i = 0; i < NT; i++) {
        sg->len[i] = 0;
        if (((sg->have >> i) & 1u) && q < end && (size_t)(end - q) > *q) {
            sg->len[i] = *q;
            memcpy(sg->val[i], q + 1, *q);
            q += 1 + *q;
        }
    }
}

/* Counts the value of tag i (or `dflt` when the game has none) in t; NULL when out of memory. */
static pgn_tally_item *count(stats *s, pgn_tally *t, unsigned i, const char *dflt) {
    int has = (s->g.have >> i) & 1u && s->g.len[i] > 0;
    pgn_tally_item *it =
        pgn_tally_get(t, has ? s->g.val[i] : dflt, has ? s->g.len[i] : strlen(dflt));
    s->oom |= it == NULL;
    if (it) {
        it->n++;
    }
    return it;
}

static const char *tc_class(const stats *s) {
    if (!((s->g.have >> T_TC) & 1u) || s->g.len[T_TC] == 0 || s->g.val[T_TC][0] == '?') {
        return "unknown";
    }
    char buf[VAL_MAX + 1];
    memcpy(buf, s->g.val[T_TC], s->g.len[T_TC]);
    buf[s->g.len[T_TC]] = 0;
    if (buf[0] == '-') {
        return "none";
    }
    char *p = strchr(buf, '/') ? strchr(buf, '/') + 1 : buf; /* "40/7200:3600": the first period */
    char *end;
    double base = strtod(p, &end), inc = *end == '+' ? strtod(end + 1, NULL) : 0;
    if (end == p) {
        return "unknown";
    }
    double t = base + 40 * inc;
    return t < 180 ? "bullet" : t < 480 ? "blitz" : t < 1500 ? "rapid" : "classical";
}

/* The game's result: the Result tag when it is one of the four markers, else the movetext's. */
static pgn_result game_result(const stats *s) {
    pgn_result r = (s->g.have >> T_RESULT) & 1u
                       ? pgn_result_parse(s->g.val[T_RESULT], s->g.len[T_RESULT])
                       : PGN_RESULT_NONE;
    return r != PGN_RESULT_NONE ? r : s->g.marker;
}

static void count_player(stats *s, unsigned name, unsigned elo, pgn_result r, int white) {
    pgn_tally_item *p = count(s, s->players, name, "?");
    if (!p) {
        return;
    }
    if (r == PGN_RESULT_DRAW) {
        p->draws++;
    } else if (r == PGN_RESULT_WHITE_WINS || r == PGN_RESULT_BLACK_WINS) {
        *((r == PGN_RESULT_WHITE_WINS) == white ? &p->wins : &p->losses) += 1;
    }
    if ((s->g.have >> elo) & 1u) {
        int e = atoi(s->g.val[elo]);
        if (e > 0) {
            p->min_elo = p->min_elo == 0 || e < p->min_elo ? e : p->min_elo;
            p->max_elo = e > p->max_elo ? e : p->max_elo;
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
    for (unsigned i = 0; i < NT; i++) {
        s->g.val[i][s->g.len[i] < VAL_MAX ? s->g.len[i] : VAL_MAX - 1] = 0;
    }
    uint32_t n = g->summary->plies;
    if (n >= s->nplies) {
        size_t cap = (size_t)n * 2 + 64;
        uint64_t *p = realloc(s->plies, cap * sizeof *p);
        if (!p) {
            return PGN_E_NOMEM;
        }
        memset(p + s->nplies, 0, (cap - s->nplies) * sizeof *p);
        s->plies = p;
        s->nplies = cap;
    }
    s->plies[n]++;
    pgn_result r = game_result(s);
    s->results[r]++;
    count(s, s->eco, T_ECO, "?");
    count(s, s->events, T_EVENT, "?");
    count(s, s->variants, T_VARIANT, "standard");
    s->g.len[T_DATE] = s->g.len[T_DATE] > 4 ? 4 : s->g.len[T_DATE];
    count(s, s->years, T_DATE, "????");
    pgn_tally_item *tc = pgn_tally_get(s->tcs, tc_class(s), strlen(tc_class(s)));
    s->oom |= tc == NULL;
    if (tc) {
        tc->n++;
    }
    count_player(s, T_WHITE, T_WELO, r, 1);
    count_player(s, T_BLACK, T_BELO, r, 0);
    return s->oom ? PGN_E_NOMEM : PGN_OK;
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
    pgn_tally *ts[] = {s->eco, s->players, s->events, s->years, s->tcs, s->variants};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        pgn_tally_free(ts[i]);
    }
    free(s->plies);
    free(s);
}

/* The counts, empty; NULL when out of memory. */
static stats *stats_new(void) {
    stats *s = calloc(1, sizeof *s);
    if (!s) {
        return NULL;
    }
    pgn_tally **ts[] = {&s->eco, &s->players, &s->events, &s->years, &s->tcs, &s->variants};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        if (pgn_tally_new(ts[i], NULL) != PGN_OK) {
            stats_free(s);
            return NULL;
        }
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
    cli_diag_observe(on_diag, s);
    r.par = &stats_hooks;
    cli_run_visit(&r, &stats_visitor, &s->g, one_game, s);
    cli_diag_observe(NULL, NULL);
    if (!r.aborted && r.status < EXIT_RESOURCE) {
        stats_report(s, r.where ? r.matched : r.games);
    }
    stats_free(s);
    return cli_run_finish(&r, CLI_SUMMARY_CHECK);
}
