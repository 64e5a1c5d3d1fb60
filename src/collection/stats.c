/* SPDX-License-Identifier: MIT */
/* A collection's statistics (include/pgnkit/collection.h, pgn_stats): the tags of interest read
 * by a visitor, then counted on pgn_tally lists, a histogram of ply counts, the results and the
 * diagnostics by code. Moved from the program (pgnkit stats) for issue 29 point 3; the program
 * keeps the printing. */
#include "../base/alloc.h"
#include "pgnkit/collection.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static const char *const TAG_NAMES[PGN_STATS_NTAGS] = {
    "White", "Black", "WhiteElo", "BlackElo",    "Result",
    "ECO",   "Event", "Date",     "TimeControl", "Variant"};

struct pgn_stats {
    pgn_allocator alloc;
    uint64_t *plies; /* plies[k]: games of k plies */
    size_t nplies;
    uint64_t results[5]; /* by pgn_result */
    pgn_tally *lists[PGN_STATS_NLISTS];
    uint64_t diags[256];
    int oom;
};

static pgn_flow on_begin(void *user, pgn_loc at) {
    pgn_stats_game *g = user;
    (void)at;
    g->have = 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    pgn_stats_game *g = user;
    for (unsigned i = 0; i < PGN_STATS_NTAGS; i++) {
        if (name.len == strlen(TAG_NAMES[i]) && memcmp(name.ptr, TAG_NAMES[i], name.len) == 0) {
            g->len[i] = value.len < PGN_STATS_VAL_MAX ? value.len : PGN_STATS_VAL_MAX;
            memcpy(g->val[i], value.ptr, g->len[i]);
            g->have |= 1u << i;
        }
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end(void *user, pgn_result result, const pgn_game_summary *summary) {
    pgn_stats_game *g = user;
    g->marker = result;
    g->plies = summary ? summary->plies : 0;
    return PGN_FLOW_CONTINUE;
}

const pgn_visitor *pgn_stats_game_visitor(void) {
    static const pgn_visitor v = {on_begin, on_tag, NULL, NULL, NULL, NULL, NULL, NULL, on_end};
    return &v;
}

pgn_status pgn_stats_new(pgn_stats **out, const pgn_allocator *alloc) {
    pgn_status st;
    pgn_stats *s = pgnk_alloc_object(alloc, sizeof *s, &st);
    assert(out);
    if (!s) {
        return st;
    }
    pgnk_alloc_copy(&s->alloc, alloc);
    for (unsigned i = 0; i < PGN_STATS_NLISTS; i++) {
        if ((st = pgn_tally_new(&s->lists[i], &s->alloc)) != PGN_OK) {
            pgn_stats_free(s);
            return st;
        }
    }
    *out = s;
    return PGN_OK;
}

void pgn_stats_free(pgn_stats *s) {
    if (s) {
        pgn_allocator alloc = s->alloc;
        for (unsigned i = 0; i < PGN_STATS_NLISTS; i++) {
            pgn_tally_free(s->lists[i]);
        }
        pgnk_free(&alloc, s->plies);
        pgnk_free(&alloc, s);
    }
}

static int has(const pgn_stats_game *g, unsigned i) {
    return (g->have >> i) & 1u;
}

/* Counts key (n bytes) in list l; NULL when out of memory. */
static pgn_tally_item *count_key(pgn_stats *s, unsigned l, const char *key, size_t n) {
    pgn_tally_item *it = pgn_tally_get(s->lists[l], key, n);
    s->oom |= it == NULL;
    if (it) {
        it->n++;
    }
    return it;
}

/* Counts the value of tag i (or dflt when the game has none) in list l. */
static pgn_tally_item *count(pgn_stats *s, const pgn_stats_game *g, unsigned l, unsigned i,
                             const char *dflt) {
    int with = has(g, i) && g->len[i] > 0;
    return count_key(s, l, with ? g->val[i] : dflt, with ? g->len[i] : strlen(dflt));
}

static const char *tc_class(const pgn_stats_game *g) {
    const char *v = g->val[PGN_STATS_TIME_CONTROL]; /* NUL-terminated by pgn_stats_add */
    if (!has(g, PGN_STATS_TIME_CONTROL) || g->len[PGN_STATS_TIME_CONTROL] == 0 || v[0] == '?') {
        return "unknown";
    }
    if (v[0] == '-') {
        return "none";
    }
    const char *p = strchr(v, '/') ? strchr(v, '/') + 1 : v; /* "40/7200:3600": the first period */
    char *end;
    double base = strtod(p, &end), inc = *end == '+' ? strtod(end + 1, NULL) : 0;
    if (end == p) {
        return "unknown";
    }
    double t = base + 40 * inc;
    return t < 180 ? "bullet" : t < 480 ? "blitz" : t < 1500 ? "rapid" : "classical";
}

/* The game's result: the Result tag when it is one of the four markers, else the movetext's. */
static pgn_result game_result(const pgn_stats_game *g) {
    pgn_result r = has(g, PGN_STATS_RESULT)
                       ? pgn_result_parse(g->val[PGN_STATS_RESULT], g->len[PGN_STATS_RESULT])
                       : PGN_RESULT_NONE;
    return r != PGN_RESULT_NONE ? r : g->marker;
}

static void count_player(pgn_stats *s, const pgn_stats_game *g, unsigned name, unsigned elo,
                         pgn_result r, int white) {
    pgn_tally_item *p = count(s, g, PGN_STATS_LIST_PLAYERS, name, "?");
    if (!p) {
        return;
    }
    if (r == PGN_RESULT_DRAW) {
        p->draws++;
    } else if (r == PGN_RESULT_WHITE_WINS || r == PGN_RESULT_BLACK_WINS) {
        *((r == PGN_RESULT_WHITE_WINS) == white ? &p->wins : &p->losses) += 1;
    }
    if (has(g, elo)) {
        int e = atoi(g->val[elo]);
        if (e > 0) {
            p->min_elo = p->min_elo == 0 || e < p->min_elo ? e : p->min_elo;
            p->max_elo = e > p->max_elo ? e : p->max_elo;
        }
    }
}

pgn_status pgn_stats_add(pgn_stats *s, pgn_stats_game *g) {
    assert(s && g);
    for (unsigned i = 0; i < PGN_STATS_NTAGS; i++) {
        g->val[i][g->len[i] < PGN_STATS_VAL_MAX ? g->len[i] : PGN_STATS_VAL_MAX - 1] = 0;
    }
    uint32_t n = g->plies;
    if (n >= s->nplies) {
        size_t cap = (size_t)n * 2 + 64;
        uint64_t *p = pgnk_realloc(&s->alloc, s->plies, s->nplies * sizeof *p, cap * sizeof *p);
        if (!p) {
            return PGN_E_NOMEM;
        }
        memset(p + s->nplies, 0, (cap - s->nplies) * sizeof *p);
        s->plies = p;
        s->nplies = cap;
    }
    s->plies[n]++;
    pgn_result r = game_result(g);
    s->results[r]++;
    count(s, g, PGN_STATS_LIST_ECO, PGN_STATS_ECO, "?");
    count(s, g, PGN_STATS_LIST_EVENTS, PGN_STATS_EVENT, "?");
    count(s, g, PGN_STATS_LIST_VARIANTS, PGN_STATS_VARIANT, "standard");
    g->len[PGN_STATS_DATE] = g->len[PGN_STATS_DATE] > 4 ? 4 : g->len[PGN_STATS_DATE];
    count(s, g, PGN_STATS_LIST_YEARS, PGN_STATS_DATE, "????");
    const char *tc = tc_class(g);
    count_key(s, PGN_STATS_LIST_TIME_CONTROLS, tc, strlen(tc));
    count_player(s, g, PGN_STATS_WHITE, PGN_STATS_WHITE_ELO, r, 1);
    count_player(s, g, PGN_STATS_BLACK, PGN_STATS_BLACK_ELO, r, 0);
    return s->oom ? PGN_E_NOMEM : PGN_OK;
}

void pgn_stats_diag(void *ctx, const pgn_diag *d) {
    pgn_stats *s = ctx;
    s->diags[(unsigned)d->code & 255u]++;
}

uint64_t pgn_stats_diag_count(const pgn_stats *s, pgn_status code) {
    return s->diags[(unsigned)code & 255u];
}

pgn_tally *pgn_stats_tally(pgn_stats *s, unsigned which) {
    assert(s && which < PGN_STATS_NLISTS);
    return s->lists[which];
}

/* The ply count at rank k (0-based) of the sorted counts. */
static size_t ply_at(const pgn_stats *s, uint64_t k) {
    uint64_t seen = 0;
    for (size_t i = 0; i < s->nplies; i++) {
        seen += s->plies[i];
        if (seen > k) {
            return i;
        }
    }
    return 0;
}

pgn_stats_summary pgn_stats_summarize(const pgn_stats *s, uint64_t games) {
    pgn_stats_summary p;
    double total = 0;
    memset(&p, 0, sizeof p);
    memcpy(p.results, s->results, sizeof p.results);
    for (size_t i = 0; i < s->nplies; i++) {
        total += (double)s->plies[i] * (double)i;
    }
    if (games) {
        p.plies_min = ply_at(s, 0);
        p.plies_median = ply_at(s, (games - 1) / 2);
        p.plies_max = ply_at(s, games - 1);
        p.plies_mean = total / (double)games;
    }
    uint64_t w = s->results[PGN_RESULT_WHITE_WINS], b = s->results[PGN_RESULT_BLACK_WINS],
             d = s->results[PGN_RESULT_DRAW];
    p.white_score = w + b + d ? 100.0 * ((double)w + (double)d / 2) / (double)(w + b + d) : 0.0;
    return p;
}
