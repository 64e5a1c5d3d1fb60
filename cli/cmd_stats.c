/* SPDX-License-Identifier: MIT */
/* pgnkit stats: what a collection holds, counted while streaming (no game is kept): games, plies,
 * results, ECO codes, players, events, years, time-control classes, variants and diagnostics by
 * code. Memory: the per-value counters (one per distinct ECO, player, event, ...) and one counter
 * per ply count up to the longest game. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "tally.h"

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
        CLI_READ_USAGE CLI_RANGE_USAGE
    "exit status: 0 success, 1 the input had errors, 2 usage error, 3 I/O or memory failure\n";

enum { T_WHITE, T_BLACK, T_WELO, T_BELO, T_RESULT, T_ECO, T_EVENT, T_DATE, T_TC, T_VARIANT, NT };
static const char *const TAG_NAMES[NT] = {"White", "Black", "WhiteElo", "BlackElo",    "Result",
                                          "ECO",   "Event", "Date",     "TimeControl", "Variant"};
#define VAL_MAX 200 /* longer tag values are counted by their first VAL_MAX bytes */

typedef struct stats {
    cli_run *run;
    char val[NT][VAL_MAX];
    size_t len[NT];
    unsigned have;
    pgn_result marker;
    uint64_t *plies; /* plies[k]: games of k plies */
    size_t nplies;
    uint64_t results[5]; /* by pgn_result */
    tally eco, players, events, years, tcs, variants;
    uint64_t diags[256];
    int top, json, oom;
} stats;

static pgn_flow on_begin(void *user, pgn_loc at) {
    stats *s = user;
    (void)at;
    s->have = 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    stats *s = user;
    for (unsigned i = 0; i < NT; i++) {
        if (name.len == strlen(TAG_NAMES[i]) && memcmp(name.ptr, TAG_NAMES[i], name.len) == 0) {
            s->len[i] = value.len < VAL_MAX ? value.len : VAL_MAX;
            memcpy(s->val[i], value.ptr, s->len[i]);
            s->have |= 1u << i;
        }
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end(void *user, pgn_result result, const pgn_game_summary *summary) {
    stats *s = user;
    (void)summary;
    s->marker = result;
    return PGN_FLOW_CONTINUE;
}

static void on_diag(void *ctx, const pgn_diag *d) {
    stats *s = ctx;
    s->diags[(unsigned)d->code & 255u]++;
    cli_print_diag_detail(d, s->run->quiet, NULL);
}

/* Counts the value of tag i (or `dflt` when the game has none) in t; NULL when out of memory. */
static tally_item *count(stats *s, tally *t, unsigned i, const char *dflt) {
    int has = (s->have >> i) & 1u && s->len[i] > 0;
    tally_item *it = tally_get(t, has ? s->val[i] : dflt, has ? s->len[i] : strlen(dflt));
    s->oom |= it == NULL;
    if (it) {
        it->n++;
    }
    return it;
}

static const char *tc_class(const stats *s) {
    if (!((s->have >> T_TC) & 1u) || s->len[T_TC] == 0 || s->val[T_TC][0] == '?') {
        return "unknown";
    }
    char buf[VAL_MAX + 1];
    memcpy(buf, s->val[T_TC], s->len[T_TC]);
    buf[s->len[T_TC]] = 0;
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
    pgn_result r = (s->have >> T_RESULT) & 1u ? pgn_result_parse(s->val[T_RESULT], s->len[T_RESULT])
                                              : PGN_RESULT_NONE;
    return r != PGN_RESULT_NONE ? r : s->marker;
}

static void count_player(stats *s, unsigned name, unsigned elo, pgn_result r, int white) {
    tally_item *p = count(s, &s->players, name, "?");
    if (!p) {
        return;
    }
    if (r == PGN_RESULT_DRAW) {
        p->draws++;
    } else if (r == PGN_RESULT_WHITE_WINS || r == PGN_RESULT_BLACK_WINS) {
        *((r == PGN_RESULT_WHITE_WINS) == white ? &p->wins : &p->losses) += 1;
    }
    if ((s->have >> elo) & 1u) {
        int e = atoi(s->val[elo]);
        if (e > 0) {
            p->min_elo = p->min_elo == 0 || e < p->min_elo ? e : p->min_elo;
            p->max_elo = e > p->max_elo ? e : p->max_elo;
        }
    }
}

static pgn_status one_game(cli_run *run, void *user, const cli_game *g) {
    stats *s = user;
    (void)run;
    for (unsigned i = 0; i < NT; i++) {
        s->val[i][s->len[i] < VAL_MAX ? s->len[i] : VAL_MAX - 1] = 0;
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
    count(s, &s->eco, T_ECO, "?");
    count(s, &s->events, T_EVENT, "?");
    count(s, &s->variants, T_VARIANT, "standard");
    s->len[T_DATE] = s->len[T_DATE] > 4 ? 4 : s->len[T_DATE];
    count(s, &s->years, T_DATE, "????");
    tally_item *tc = tally_get(&s->tcs, tc_class(s), strlen(tc_class(s)));
    s->oom |= tc == NULL;
    if (tc) {
        tc->n++;
    }
    count_player(s, T_WHITE, T_WELO, r, 1);
    count_player(s, T_BLACK, T_BELO, r, 0);
    return s->oom ? PGN_E_NOMEM : PGN_OK;
}

/* The ply count at rank k (0-based) of the sorted counts. */
static size_t ply_at(const stats *s, uint64_t k) {
    uint64_t seen = 0;
    for (size_t i = 0; i < s->nplies; i++) {
        seen += s->plies[i];
        if (seen > k) {
            return i;
        }
    }
    return 0;
}

typedef struct ply_summary {
    size_t min, median, max;
    double mean;
} ply_summary;

static ply_summary plies_of(const stats *s, uint64_t games) {
    ply_summary p = {0, 0, 0, 0};
    double total = 0;
    for (size_t i = 0; i < s->nplies; i++) {
        total += (double)s->plies[i] * (double)i;
    }
    if (games) {
        p.min = ply_at(s, 0);
        p.median = ply_at(s, (games - 1) / 2);
        p.max = ply_at(s, games - 1);
        p.mean = total / (double)games;
    }
    return p;
}

static double pct(uint64_t n, uint64_t of) {
    return of ? 100.0 * (double)n / (double)of : 0.0;
}

/* White's score over the decided and drawn games, in percent. */
static double white_score(const stats *s) {
    uint64_t w = s->results[PGN_RESULT_WHITE_WINS], b = s->results[PGN_RESULT_BLACK_WINS],
             d = s->results[PGN_RESULT_DRAW];
    return w + b + d ? 100.0 * ((double)w + (double)d / 2) / (double)(w + b + d) : 0.0;
}

static size_t shown(const stats *s, const tally *t) {
    return s->top > 0 && (size_t)s->top < t->count ? (size_t)s->top : t->count;
}

static void table_list(const stats *s, const char *title, const tally *t, uint64_t games) {
    tally_item **v = tally_sorted(t);
    printf("\n%s (%zu distinct%s)\n", title, t->count, shown(s, t) < t->count ? ", top" : "");
    for (size_t i = 0; v && i < shown(s, t); i++) {
        printf("  %-40s %8llu  %5.1f%%\n", v[i]->key, (unsigned long long)v[i]->n,
               pct(v[i]->n, games));
    }
    free(v);
}

static void table_players(const stats *s) {
    tally_item **v = tally_sorted(&s->players);
    printf("\nplayers (%zu distinct%s)                 games     score   rating\n",
           s->players.count, shown(s, &s->players) < s->players.count ? ", top" : "");
    for (size_t i = 0; v && i < shown(s, &s->players); i++) {
        const tally_item *p = v[i];
        printf("  %-40s %5llu %7.1f/%-5llu", p->key, (unsigned long long)p->n,
               (double)p->wins + (double)p->draws / 2,
               (unsigned long long)(p->wins + p->draws + p->losses));
        if (p->max_elo) {
            printf(" %d-%d", p->min_elo, p->max_elo);
        }
        printf("\n");
    }
    free(v);
}

static void print_table(const stats *s, uint64_t games) {
    ply_summary p = plies_of(s, games);
    static const char *const names[5] = {"none", "1-0", "0-1", "1/2-1/2", "*"};
    printf("games %llu\nplies min %zu, median %zu, max %zu, mean %.1f\nresults",
           (unsigned long long)games, p.min, p.median, p.max, p.mean);
    for (int r = 1; r <= 4; r++) {
        printf("  %s %llu (%.1f%%)", names[r], (unsigned long long)s->results[r],
               pct(s->results[r], games));
    }
    printf("\nby colour: White scored %.1f%% of the decided and drawn games\n", white_score(s));
    table_list(s, "ECO", &s->eco, games);
    table_players(s);
    table_list(s, "events", &s->events, games);
    table_list(s, "years", &s->years, games);
    table_list(s, "time controls", &s->tcs, games);
    table_list(s, "variants", &s->variants, games);
    printf("\ndiagnostics\n");
    for (unsigned c = 0; c < 256; c++) {
        if (s->diags[c]) {
            printf("  %-40s %8llu\n", pgn_status_name((pgn_status)c),
                   (unsigned long long)s->diags[c]);
        }
    }
}

static void json_list(const stats *s, const char *name, const tally *t, int players) {
    tally_item **v = tally_sorted(t);
    printf(",\"%s\":{\"distinct\":%zu,\"top\":[", name, t->count);
    for (size_t i = 0; v && i < shown(s, t); i++) {
        printf("%s{\"value\":", i ? "," : "");
        cli_json_string(stdout, v[i]->key, v[i]->len);
        printf(",\"games\":%llu", (unsigned long long)v[i]->n);
        if (players) {
            printf(",\"wins\":%llu,\"draws\":%llu,\"losses\":%llu", (unsigned long long)v[i]->wins,
                   (unsigned long long)v[i]->draws, (unsigned long long)v[i]->losses);
            if (v[i]->max_elo) {
                printf(",\"rating_min\":%d,\"rating_max\":%d", v[i]->min_elo, v[i]->max_elo);
            }
        }
        printf("}");
    }
    printf("]}");
    free(v);
}

static void print_json(const stats *s, uint64_t games) {
    ply_summary p = plies_of(s, games);
    printf("{\"games\":%llu,\"plies\":{\"min\":%zu,\"median\":%zu,\"max\":%zu,\"mean\":%.2f}",
           (unsigned long long)games, p.min, p.median, p.max, p.mean);
    printf(",\"results\":{\"1-0\":%llu,\"0-1\":%llu,\"1/2-1/2\":%llu,\"*\":%llu}",
           (unsigned long long)s->results[1], (unsigned long long)s->results[2],
           (unsigned long long)s->results[3], (unsigned long long)(s->results[4] + s->results[0]));
    printf(",\"white_score_percent\":%.2f", white_score(s));
    json_list(s, "eco", &s->eco, 0);
    json_list(s, "players", &s->players, 1);
    json_list(s, "events", &s->events, 0);
    json_list(s, "years", &s->years, 0);
    json_list(s, "time_controls", &s->tcs, 0);
    json_list(s, "variants", &s->variants, 0);
    printf(",\"diagnostics\":{");
    for (unsigned c = 0, first = 1; c < 256; c++) {
        if (s->diags[c]) {
            printf("%s\"%s\":%llu", first ? "" : ",", pgn_status_name((pgn_status)c),
                   (unsigned long long)s->diags[c]);
            first = 0;
        }
    }
    printf("}}\n");
}

enum { OPT_JSON = CLI_OPT_COMMAND, OPT_TOP };

static int stats_option(void *user, int ch, const char *arg) {
    stats *s = user;
    switch (ch) {
    case OPT_JSON: s->json = 1; return EXIT_OK;
    case OPT_TOP: s->top = atoi(arg); return EXIT_OK;
    default: return cli_usage("unknown option");
    }
}

int cmd_stats(int argc, char **argv) {
    static const struct option opts[] = {{"json", no_argument, NULL, OPT_JSON},
                                         {"top", required_argument, NULL, OPT_TOP},
                                         {NULL, 0, NULL, 0}};
    stats *s = calloc(1, sizeof *s);
    if (!s) {
        cli_error(NULL, "out of memory");
        return EXIT_RESOURCE;
    }
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WHERE);
    s->run = &r;
    s->top = 10;
    int st = cli_run_parse(&r, argc, argv, usage_text, opts, "", stats_option, s);
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        free(s);
        return st == CLI_HELP ? EXIT_OK : st;
    }
    pgn_visitor v = {on_begin, on_tag, NULL, NULL, NULL, NULL, NULL, NULL, on_end};
    r.ropts.on_diag = on_diag;
    r.ropts.diag_ctx = s;
    cli_run_visit(&r, &v, s, one_game, s);
    if (!r.aborted && r.status < EXIT_RESOURCE) {
        (s->json ? print_json : print_table)(s, r.where ? r.matched : r.games);
    }
    tally *ts[] = {&s->eco, &s->players, &s->events, &s->years, &s->tcs, &s->variants};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
        tally_free(ts[i]);
    }
    free(s->plies);
    free(s);
    return cli_run_finish(&r, CLI_SUMMARY_CHECK);
}
