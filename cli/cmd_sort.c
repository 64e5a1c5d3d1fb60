/* SPDX-License-Identifier: MIT */
/* pgnkit sort: writes the games, unchanged, ordered by a list of tags (pgn_tag_compare: dates and
 * rounds as the standard orders them), stably. Games are held up to --memory bytes; beyond that
 * each full batch is sorted into a temporary run file and the runs are merged (an external merge
 * sort, pgn_sort_* of include/pgnkit/sort.h), so memory stays near the limit whatever the
 * input's size. The options and the messages are here. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

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

/* The options, then the sort (include/pgnkit/sort.h) the games go to. */
typedef struct sort_cmd {
    char *names[PGN_SORT_MAX_TAGS];
    size_t nkeys;
    uint64_t memory;
    pgn_sort *sort;
    FILE *out;
} sort_cmd;

static pgn_flow on_begin(void *user, pgn_loc at) {
    sort_cmd *s = user;
    (void)at;
    pgn_sort_begin_game(s->sort);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    sort_cmd *s = user;
    return pgn_sort_tag(s->sort, name, value) == PGN_OK ? PGN_FLOW_CONTINUE : PGN_FLOW_STOP;
}

/* The sort's sentence for a failure, if it has one (else the status says it). */
static int said(const sort_cmd *s) {
    const char *why = pgn_sort_error(s->sort);
    if (why[0]) {
        cli_error(NULL, "%s", why);
    }
    return why[0] != 0;
}

static pgn_status one_game(cli_run *run, void *user, const cli_game *g) {
    sort_cmd *s = user;
    (void)run;
    pgn_status st = pgn_sort_add(s->sort, g->raw);
    if (st != PGN_OK) {
        said(s);
    }
    return st;
}

static ptrdiff_t to_file(void *ctx, const void *buf, size_t len) {
    return fwrite(buf, 1, len, ctx) == len ? (ptrdiff_t)len : -1;
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
static int parse_keys(sort_cmd *s, const char *list) {
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0 || s->nkeys == PGN_SORT_MAX_TAGS || !(s->names[s->nkeys] = malloc(len + 1))) {
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
    sort_cmd *s = user;
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
static void sort_out(cli_run *r, sort_cmd *s) {
    pgn_status ps = pgn_sort_finish(s->sort, to_file, s->out);
    if (ps != PGN_OK) {
        if (!said(s)) {
            cli_error(NULL, "%s", pgn_status_message(ps));
        }
        r->aborted = 1;
        r->status = EXIT_RESOURCE;
    }
}

/* The sort for the options: PGN_OK or PGN_E_NOMEM. Run files go to $TMPDIR, else /tmp. */
static pgn_status sort_open(sort_cmd *s) {
    const char *dir = getenv("TMPDIR");
    pgn_sort_opts o = {(const char *const *)s->names, s->nkeys, s->memory,
                       dir && dir[0] ? dir : NULL, NULL};
    return pgn_sort_new(&s->sort, &o);
}

static void sort_free(sort_cmd *s) {
    pgn_sort_free(s->sort);
    for (size_t i = 0; i < s->nkeys; i++) {
        free(s->names[i]);
    }
}

int cmd_sort(int argc, char **argv) {
    sort_cmd s;
    memset(&s, 0, sizeof s);
    s.memory = (uint64_t)256 << 20;
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_WHERE);
    int st = cli_run_args(&r, argc, argv, usage_text, options, "", sort_option, &s);
    if (st == EXIT_OK && !s.nkeys) {
        st = cli_usage("--by is required");
    }
    if (st == EXIT_OK && sort_open(&s) != PGN_OK) {
        cli_error(NULL, "out of memory");
        st = EXIT_RESOURCE;
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
    cli_run_count(&r, "runs", "runs", s.sort ? pgn_sort_runs(s.sort) : 0);
    sort_free(&s);
    /* on a failure the error line alone: no summary that looks like success (issue 34) */
    return cli_run_finish(&r, r.aborted ? CLI_SUMMARY_NONE : CLI_SUMMARY_COUNTS);
}
