/* SPDX-License-Identifier: MIT */
/* pgnkit sort: writes the games, unchanged, ordered by a list of tags (pgn_tag_compare: dates and
 * rounds as the standard orders them), stably. Games are held up to --memory bytes; beyond that
 * each full batch is sorted into a temporary run file and the runs are merged (an external merge
 * sort), so memory stays near the limit whatever the input's size. */
#define _POSIX_C_SOURCE 200809L
#include "sort.h"

#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit sort --by TAG[,TAG...] [--memory SIZE] [-o OUT] [--where EXPR]\n"
    "                   [reading options] [FILE...]\n"
    "Writes the games, unchanged, ordered by the tags: Date, EventDate, UTCDate and Round field\n"
    "by field (numbers by value, '?' first), all-digit values as numbers, others by bytes; a game\n"
    "without a tag comes first; equal games keep their input order. Beyond --memory (default\n"
    "256M; suffixes K, M, G) sorted runs go to temporary files and are merged.\n" CLI_WHERE_USAGE
        CLI_READ_USAGE CLI_RANGE_USAGE
    "exit status: 0 success, 1 the input had errors, 2 usage error, 3 I/O or memory failure\n";

static pgn_flow on_begin(void *user, pgn_loc at) {
    sort_state *s = user;
    (void)at;
    for (size_t i = 0; i < s->nkeys; i++) {
        s->len[i] = NONE;
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    sort_state *s = user;
    for (size_t i = 0; i < s->nkeys; i++) {
        if (name.len == strlen(s->names[i]) && memcmp(name.ptr, s->names[i], name.len) == 0 &&
            value.len < NONE) {
            char *v = realloc(s->val[i], value.len + 1);
            if (!v) {
                return PGN_FLOW_STOP;
            }
            memcpy(v, value.ptr, value.len);
            s->val[i] = v;
            s->len[i] = (uint32_t)value.len;
        }
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_status one_game(cli_run *run, void *user, const cli_game *g) {
    sort_state *s = user;
    (void)run;
    uint64_t keys = 0;
    for (size_t i = 0; i < s->nkeys; i++) {
        keys += s->len[i] == NONE ? 0 : s->len[i];
    }
    if (g->raw.len >= UINT32_MAX) {
        return PGN_E_LIMIT;
    }
    if (s->nrecs == s->caprecs) {
        size_t cap = s->caprecs ? s->caprecs * 2 : 1024;
        rec **v = realloc(s->recs, cap * sizeof *v);
        if (!v) {
            return PGN_E_NOMEM;
        }
        s->recs = v;
        s->caprecs = cap;
    }
    uint64_t size = sizeof(rec) + keys + g->raw.len;
    rec *r = malloc((size_t)size);
    if (!r) {
        return PGN_E_NOMEM;
    }
    r->ordinal = g->ordinal;
    r->size = size;
    r->raw_len = (uint32_t)g->raw.len;
    char *p = (char *)(r + 1);
    for (size_t i = 0; i < s->nkeys; i++) {
        r->key_len[i] = s->len[i];
        if (s->len[i] != NONE) {
            memcpy(p, s->val[i], s->len[i]);
            p += s->len[i];
        }
    }
    memcpy(p, g->raw.ptr, g->raw.len);
    s->recs[s->nrecs++] = r;
    s->held += size;
    return s->held + s->caprecs * sizeof *s->recs > s->memory ? sort_flush(s, 1) : PGN_OK;
}

/* --memory: a number of bytes with an optional K, M or G; 0 when not one. */
static uint64_t parse_size(const char *text) {
    uint64_t v = 0;
    const char *end = cli_parse_digits(text, &v);
    if (!end) {
        return 0;
    }
    int shift = *end == 'K' || *end == 'k'   ? 10
                : *end == 'M' || *end == 'm' ? 20
                : *end == 'G' || *end == 'g' ? 30
                                             : 0;
    if ((shift && end[1]) || (!shift && *end) || v > (UINT64_MAX >> 30)) {
        return 0;
    }
    return (uint64_t)v << shift;
}

/* Splits "Date,Round" into s->names; 0 when a name is empty or there are too many. */
static int parse_keys(sort_state *s, const char *list) {
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || s->nkeys == MAX_KEYS || !(s->names[s->nkeys] = malloc(len + 1))) {
            return 0;
        }
        memcpy(s->names[s->nkeys], p, len);
        s->names[s->nkeys++][len] = 0;
        if (!comma) {
            return 1;
        }
        p = comma + 1;
    }
}

enum { OPT_BY = CLI_OPT_COMMAND, OPT_MEMORY };
static const char *const options[] = {"by:", "memory:", NULL};

static int sort_option(void *user, int ch, const char *arg) {
    sort_state *s = user;
    switch (ch) {
    case OPT_BY:
        return s->nkeys || !parse_keys(s, arg) ? cli_usage("--by takes 1 to 16 tag names, once")
                                               : EXIT_OK;
    case OPT_MEMORY:
        return (s->memory = parse_size(arg)) == 0 ? cli_usage("--memory takes a size (64M, 2G)")
                                                  : EXIT_OK;
    default: return cli_usage("unknown option");
    }
}

/* Sorts what is held (into a last run when there are runs) and merges the runs. */
static void sort_out(cli_run *r, sort_state *s) {
    pgn_status ps = s->nruns == 0 ? sort_flush(s, 0) : sort_flush(s, 1);
    ps = ps == PGN_OK && s->nruns ? sort_merge(s) : ps;
    if (ps != PGN_OK) {
        if (!s->said) {
            cli_error(NULL, "%s", pgn_status_message(ps));
        }
        r->aborted = 1;
        r->status = EXIT_RESOURCE;
    }
}

static void sort_free(sort_state *s) {
    for (size_t i = 0; i < s->nrecs; i++) {
        free(s->recs[i]);
    }
    for (size_t i = 0; i < s->nruns; i++) {
        fclose(s->runs[i]);
    }
    for (size_t i = 0; i < MAX_KEYS; i++) {
        free(s->names[i]);
        free(s->val[i]);
    }
    free(s->recs);
    free(s->runs);
    free(s->levels);
}

int cmd_sort(int argc, char **argv) {
    sort_state s;
    memset(&s, 0, sizeof s);
    s.memory = (uint64_t)256 << 20;
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_WHERE);
    int st = cli_run_args(&r, argc, argv, usage_text, options, "", sort_option, &s);
    if (st == EXIT_OK && !s.nkeys) {
        st = cli_usage("--by is required");
    }
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        sort_free(&s);
        return st == CLI_HELP ? EXIT_OK : st;
    }
    pgn_visitor v = {on_begin, on_tag, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    r.raw = 1;
    r.ropts.flags |= PGN_READ_NO_BOARD; /* only tags and the raw text are needed */
    s.out = r.out.file;
    cli_run_visit(&r, &v, &s, one_game, &s);
    if (!r.aborted) {
        sort_out(&r, &s);
    }
    cli_run_count(&r, "runs", "runs", s.runs_made);
    sort_free(&s);
    /* on a failure the error line alone: no summary that looks like success (issue 34) */
    return cli_run_finish(&r, r.aborted ? CLI_SUMMARY_NONE : CLI_SUMMARY_COUNTS);
}
