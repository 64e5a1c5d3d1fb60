/* SPDX-License-Identifier: MIT */
/* pgnkit stats's report: the counts of cli/cmd_stats.c printed as a table (the most frequent
 * values, --top of them) or as one JSON object (--json). User text goes through cli_term_put
 * (table) or the JSON escaper (which writes every control character as \u00XX). */
#define _POSIX_C_SOURCE 200809L
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static size_t shown(const stats *s, pgn_tally *t) {
    return s->top > 0 && (size_t)s->top < pgn_tally_count(t) ? (size_t)s->top : pgn_tally_count(t);
}

static void table_list(const stats *s, const char *title, pgn_tally *t, uint64_t games) {
    pgn_tally_item *const *v = pgn_tally_sorted(t);
    printf("\n%s (%zu distinct%s)\n", title, pgn_tally_count(t),
           shown(s, t) < pgn_tally_count(t) ? ", top" : "");
    for (size_t i = 0; v && i < shown(s, t); i++) {
        fputs("  ", stdout);
        cli_term_put(stdout, v[i]->key, v[i]->len, 40); /* no escape sequence reaches a terminal */
        printf(" %8llu  %5.1f%%\n", (unsigned long long)v[i]->n, pct(v[i]->n, games));
    }
}

static void table_players(const stats *s) {
    pgn_tally_item *const *v = pgn_tally_sorted(s->players);
    printf("\nplayers (%zu distinct%s)                 games     score   rating\n",
           pgn_tally_count(s->players),
           shown(s, s->players) < pgn_tally_count(s->players) ? ", top" : "");
    for (size_t i = 0; v && i < shown(s, s->players); i++) {
        const pgn_tally_item *p = v[i];
        fputs("  ", stdout);
        cli_term_put(stdout, p->key, p->len, 40);
        printf(" %5llu %7.1f/%-5llu", (unsigned long long)p->n,
               (double)p->wins + (double)p->draws / 2,
               (unsigned long long)(p->wins + p->draws + p->losses));
        if (p->max_elo) {
            printf(" %d-%d", p->min_elo, p->max_elo);
        }
        printf("\n");
    }
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
    table_list(s, "ECO", s->eco, games);
    table_players(s);
    table_list(s, "events", s->events, games);
    table_list(s, "years", s->years, games);
    table_list(s, "time controls", s->tcs, games);
    table_list(s, "variants", s->variants, games);
    printf("\ndiagnostics\n");
    for (unsigned c = 0; c < 256; c++) {
        if (s->diags[c]) {
            printf("  %-40s %8llu\n", pgn_status_name((pgn_status)c),
                   (unsigned long long)s->diags[c]);
        }
    }
}

static void json_list(const stats *s, const char *name, pgn_tally *t, int players) {
    pgn_tally_item *const *v = pgn_tally_sorted(t);
    printf(",\"%s\":{\"distinct\":%zu,\"top\":[", name, pgn_tally_count(t));
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
}

static void print_json(const stats *s, uint64_t games) {
    ply_summary p = plies_of(s, games);
    printf("{\"games\":%llu,\"plies\":{\"min\":%zu,\"median\":%zu,\"max\":%zu,\"mean\":%.2f}",
           (unsigned long long)games, p.min, p.median, p.max, p.mean);
    printf(",\"results\":{\"1-0\":%llu,\"0-1\":%llu,\"1/2-1/2\":%llu,\"*\":%llu}",
           (unsigned long long)s->results[1], (unsigned long long)s->results[2],
           (unsigned long long)s->results[3], (unsigned long long)(s->results[4] + s->results[0]));
    printf(",\"white_score_percent\":%.2f", white_score(s));
    json_list(s, "eco", s->eco, 0);
    json_list(s, "players", s->players, 1);
    json_list(s, "events", s->events, 0);
    json_list(s, "years", s->years, 0);
    json_list(s, "time_controls", s->tcs, 0);
    json_list(s, "variants", s->variants, 0);
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

void stats_report(const stats *s, uint64_t games) {
    (s->json ? print_json : print_table)(s, games);
}
