/* SPDX-License-Identifier: MIT */
/* pgnkit db select (issue 30): the selection language of pgnkit select (docs/query.md) answered
 * from the database (pgn_db_select): the matching games' bytes, their number, or a JSON line
 * each. */
#define _POSIX_C_SOURCE 200809L
#include "db.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char select_usage[] =
    "usage: pgnkit db select EXPR [--db FILE] [--count | --json] [--limit N]\n"
    "       pgnkit db select -f EXPRFILE [--db FILE] [--count | --json] [--limit N]\n"
    "The stored games that match EXPR (the language of pgnkit select, docs/query.md), in\n"
    "import order, as imported: the same games pgnkit select finds in the imported files.\n"
    "  -f, --file FILE   read the expression from FILE\n"
    "  --count           print only the number of matching games\n"
    "  --json            one JSON line a game: id, length, ply (the first point that held)\n"
    "  --limit N         stop after N matching games\n"
    "  --stats           say on stderr how many games were replayed and whether the position\n"
    "                    index chose them\n";

typedef struct dbsel {
    int count_only, json, stats;
    uint64_t limit, n;
    int failed;
} dbsel;

static int on_hit(void *user, const pgn_db_hit *h) {
    dbsel *s = user;
    s->n++;
    if (s->json) {
        printf("{\"id\":%" PRId64 ",\"length\":%zu,\"ply\":", h->id, h->raw.len);
        if (h->first_ply == UINT32_MAX) {
            printf("null}\n");
        } else {
            printf("%u}\n", h->first_ply);
        }
    } else if (!s->count_only && fwrite(h->raw.ptr, 1, h->raw.len, stdout) != h->raw.len) {
        s->failed = 1;
        return 1;
    }
    return s->limit && s->n >= s->limit;
}

typedef struct sel_args {
    const char *path, *exprfile;
    dbsel s;
} sel_args;

static int parse(int argc, char **argv, sel_args *a) {
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'},   {"count", no_argument, NULL, 'c'},
        {"json", no_argument, NULL, 'J'},       {"limit", required_argument, NULL, 'l'},
        {"file", required_argument, NULL, 'f'}, {"stats", no_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': a->path = optarg; break;
        case 'c': a->s.count_only = 1; break;
        case 'J': a->s.json = 1; break;
        case 's': a->s.stats = 1; break;
        case 'f': a->exprfile = optarg; break;
        case 'l':
            if (!cli_parse_u64(optarg, 1, UINT64_MAX, &a->s.limit)) {
                return cli_usage_error("db select", select_usage, "--limit takes a count");
            }
            break;
        case 'h': fputs(select_usage, stdout); return CLI_HELP;
        default: return cli_usage_error("db select", select_usage, NULL);
        }
    }
    if (a->s.count_only && a->s.json) {
        return cli_usage_error("db select", select_usage, "--count or --json, not both");
    }
    if (optind != argc - (a->exprfile == NULL)) {
        return cli_usage_error("db select", select_usage,
                               a->exprfile ? "no expression beside -f" : "one expression");
    }
    return EXIT_OK;
}

/* The compiled expression of -f FILE or the operand; EXIT_OK or the status to exit with. */
static int expression(const sel_args *a, char **argv, pgn_query **q) {
    size_t len = 0;
    char *text = a->exprfile ? cli_read_text(a->exprfile, &len) : strdup(argv[optind]);
    if (text == NULL) {
        cli_error(NULL, "error: db select: %s", a->exprfile ? a->exprfile : "out of memory");
        return EXIT_RESOURCE;
    }
    if (!a->exprfile) {
        len = strlen(text);
    }
    int st = cli_query_compile(text, len, q);
    free(text);
    return st;
}

int cli_db_select(int argc, char **argv) {
    sel_args a;
    memset(&a, 0, sizeof a);
    a.path = "games.db";
    int st = parse(argc, argv, &a);
    pgn_query *q = NULL;
    if (st == EXIT_OK) {
        st = expression(&a, argv, &q);
    }
    pgn_db *db = NULL;
    if (st == EXIT_OK) {
        st = cli_db_open(&db, a.path, PGN_DB_READONLY, "select");
    }
    if (st != EXIT_OK) {
        pgn_query_free(q);
        return st == CLI_HELP ? EXIT_OK : st;
    }
    char msg[512];
    pgn_db_select_totals t;
    pgn_status s = a.s.count_only && a.s.limit == 0
                       ? pgn_db_select_count(db, q, &a.s.n, &t, msg, sizeof msg)
                       : pgn_db_select(db, q, on_hit, &a.s, &t, msg, sizeof msg);
    pgn_db_close(db);
    pgn_query_free(q);
    if (s != PGN_OK) {
        cli_error(NULL, "error: db select: %s", msg);
        return EXIT_RESOURCE;
    }
    if (a.s.count_only) {
        printf("%" PRIu64 "\n", a.s.n);
    }
    if (a.s.stats) {
        fprintf(stderr, "pgnkit db select: %" PRIu64 " games replayed (%s), %" PRIu64 " matched\n",
                t.candidates, t.indexed ? "from the position index" : "all", t.matched);
    }
    if (fflush(stdout) != 0 || a.s.failed) {
        cli_error(NULL, "error: db select: cannot write the output");
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}
