/* SPDX-License-Identifier: MIT */
/* pgnkit stats's report: the library's counts (pgn_stats) printed as a table (the most frequent
 * values, --top of them) or as one JSON object (--json). User text goes through cli_term_put
 * (table) or the JSON escaper (which writes every control character as \u00XX). */
#define _POSIX_C_SOURCE 200809L
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double pct(uint64_t n, uint64_t of) {
    return of ? 100.0 * (double)n / (double)of : 0.0;
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

static void table_players(const stats *s, pgn_tally *t) {
    pgn_tally_item *const *v = pgn_tally_sorted(t);
    printf("\nplayers (%zu distinct%s)                 games     score   rating\n",
           pgn_tally_count(t), shown(s, t) < pgn_tally_count(t) ? ", top" : "");
    for (size_t i = 0; v && i < shown(s, t); i++) {
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

static void print_table(stats *s, uint64_t games) {
    pgn_stats_summary p = pgn_stats_summarize(s->counts, games);
    static const char *const names[5] = {"none", "1-0", "0-1", "1/2-1/2", "*"};
    printf("games %llu\nplies min %zu, median %zu, max %zu, mean %.1f\nresults",
           (unsigned long long)games, p.plies_min, p.plies_median, p.plies_max, p.plies_mean);
    for (int r = 1; r <= 4; r++) {
        printf("  %s %llu (%.1f%%)", names[r], (unsigned long long)p.results[r],
               pct(p.results[r], games));
    }
    printf("\nby colour: White scored %.1f%% of the decided and drawn games\n", p.white_score);
    static const char *const titles[] = {"ECO",           NULL,      "events", "years",
                                         "time controls", "variants"};
    for (unsigned l = 0; l < PGN_STATS_NLISTS; l++) {
        pgn_tally *t = pgn_stats_tally(s->counts, l);
        if (l == PGN_STATS_LIST_PLAYERS) {
            table_players(s, t);
        } else {
            table_list(s, titles[l], t, games);
        }
    }
    printf("\ndiagnostics\n");
    for (unsigned c = 0; c < 256; c++) {
        uint64_t n = pgn_stats_diag_count(s->counts, (pgn_status)c);
        if (n) {
            printf("  %-40s %8llu\n", pgn_status_name((pgn_status)c), (unsigned long long)n);
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

static void print_json(stats *s, uint64_t games) {
    pgn_stats_summary p = pgn_stats_summarize(s->counts, games);
    printf("{\"games\":%llu,\"plies\":{\"min\":%zu,\"median\":%zu,\"max\":%zu,\"mean\":%.2f}",
           (unsigned long long)games, p.plies_min, p.plies_median, p.plies_max, p.plies_mean);
    printf(",\"results\":{\"1-0\":%llu,\"0-1\":%llu,\"1/2-1/2\":%llu,\"*\":%llu}",
           (unsigned long long)p.results[1], (unsigned long long)p.results[2],
           (unsigned long long)p.results[3], (unsigned long long)(p.results[4] + p.results[0]));
    printf(",\"white_score_percent\":%.2f", p.white_score);
    static const char *const names[] = {"eco",   "players",       "events",
                                        "years", "time_controls", "variants"};
    for (unsigned l = 0; l < PGN_STATS_NLISTS; l++) {
        json_list(s, names[l], pgn_stats_tally(s->counts, l), l == PGN_STATS_LIST_PLAYERS);
    }
    printf(",\"diagnostics\":{");
    for (unsigned c = 0, first = 1; c < 256; c++) {
        uint64_t n = pgn_stats_diag_count(s->counts, (pgn_status)c);
        if (n) {
            printf("%s\"%s\":%llu", first ? "" : ",", pgn_status_name((pgn_status)c),
                   (unsigned long long)n);
            first = 0;
        }
    }
    printf("}}\n");
}

void stats_report(stats *s, uint64_t games) {
    (s->json ? print_json : print_table)(s, games);
}
