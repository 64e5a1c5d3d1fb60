/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe: drops duplicate games, those with the same start position and main line (and
 * with --by moves+tags the same players, date and result), found through pgn_dedupe's Zobrist
 * line keys and confirmed move by move against the earlier copy read back from its input. Memory:
 * per distinct game one set entry (at most 96 bytes) and one record here (40 bytes); per
 * duplicate a 32-byte record only with --report; never the games' text. */
#define _POSIX_C_SOURCE 200809L
#include "coll.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit dedupe [--by moves|moves+tags] [--keep first|richest] [--dupes FILE]\n"
    "                     [--report FILE] [-o OUT] [reading options] [FILE...]\n"
    "Writes each distinct game once, unchanged. Games are duplicates when their start position\n"
    "and main line are equal (confirmed move by move, never by a hash alone).\n"
    "  --by moves+tags  also White, Black, Date and Result equal (names: case, spaces and .,-\n"
    "                   ignored)\n"
    "  --keep richest   keep the copy with the most tags, comments, NAGs and variation moves\n"
    "                   (the first on a tie); the default keeps the first copy\n"
    "  --dupes FILE     the dropped copies, unchanged\n"
    "  --report FILE    JSON: every cluster of two or more copies, with each copy's ordinal,\n"
    "                   input, line and whether it was kept\n"
    "A game with errors is always kept.\n" COLL_USAGE;

typedef struct rep { /* a distinct game: where its first copy is, and the copy to keep */
    uint64_t start;
    uint64_t first, keep; /* ordinals of the first copy and of the kept one */
    uint32_t len, rich;
    int32_t input;
    uint32_t line;
} rep;

typedef struct member { /* a duplicate, for --report */
    uint64_t cluster, ordinal;
    int32_t input;
    uint32_t line;
} member;

typedef struct dd_state {
    coll_run *run;
    pgn_dedupe *set;
    pgn_game *scratch;
    uint32_t flags;
    int richest;
    FILE *out, *dupes, *report;
    rep *reps;
    size_t nreps, capreps;
    member *members;
    size_t nmembers, capmembers;
    uint64_t *kept; /* --keep richest: the ordinals of the kept copies, sorted */
    size_t nkept, next_kept;
    uint64_t broken, dropped;
} dd_state;

/* Grows *p (n used of *cap elements of size sz) to hold one more; 0 when out of memory. */
static int reserve(void **p, size_t n, size_t *cap, size_t sz) {
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

/* The confirmation: reads the first copy of cluster ref back and compares it move by move. */
static int same_as_rep(void *ctx, uint64_t ref, const pgn_game *game) {
    dd_state *s = ctx;
    const rep *r = &s->reps[ref];
    if (coll_reread(s->run, r->input, r->start, r->start + r->len, s->scratch) != PGN_OK) {
        return -1;
    }
    return pgn_game_same_line(s->scratch, game, s->flags);
}

static pgn_status write_raw(FILE *f, const coll_game *g) {
    return coll_write_raw(f, g->raw.ptr, g->raw.len);
}

static pgn_status add_rep(dd_state *s, const coll_game *g) {
    if (!reserve((void **)&s->reps, s->nreps, &s->capreps, sizeof(rep))) {
        return PGN_E_NOMEM;
    }
    rep *r = &s->reps[s->nreps++];
    r->start = g->summary->start.offset;
    r->len = (uint32_t)g->raw.len;
    r->input = g->input;
    r->line = g->summary->start.line;
    r->first = r->keep = g->ordinal;
    r->rich = s->richest ? (uint32_t)pgn_game_richness(g->game) : 0;
    return PGN_OK;
}

static pgn_status add_member(dd_state *s, const coll_game *g, uint64_t cluster) {
    if (!reserve((void **)&s->members, s->nmembers, &s->capmembers, sizeof(member))) {
        return PGN_E_NOMEM;
    }
    member m = {cluster, g->ordinal, g->input, g->summary->start.line};
    s->members[s->nmembers++] = m;
    return PGN_OK;
}

/* The first pass: clusters; with --keep first also the outputs. */
static pgn_status first_pass(void *user, const coll_game *g) {
    dd_state *s = user;
    if (g->summary->broken || g->raw.len > UINT32_MAX) {
        s->broken++;
        return s->richest ? PGN_OK : write_raw(s->out, g);
    }
    uint64_t cluster;
    int is_new;
    pgn_status st = pgn_dedupe_add(s->set, g->game, pgn_dedupe_count(s->set), same_as_rep, s,
                                   &cluster, &is_new);
    if (st != PGN_OK || is_new) {
        st = st == PGN_OK ? add_rep(s, g) : st;
        return st == PGN_OK && !s->richest ? write_raw(s->out, g) : st;
    }
    s->dropped++;
    if (s->report && (st = add_member(s, g, cluster)) != PGN_OK) {
        return st;
    }
    if (!s->richest) {
        return write_raw(s->dupes, g);
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

/* The second pass of --keep richest: the kept copies (and games with errors) to the output, the
 * others to --dupes. s->kept holds the kept copies' ordinals, sorted. */
static pgn_status second_pass(void *user, const coll_game *g) {
    dd_state *s = user;
    if (g->summary->broken || g->raw.len > UINT32_MAX) {
        return write_raw(s->out, g);
    }
    while (s->next_kept < s->nkept && s->kept[s->next_kept] < g->ordinal) {
        s->next_kept++;
    }
    int keep = s->next_kept < s->nkept && s->kept[s->next_kept] == g->ordinal;
    return write_raw(keep ? s->out : s->dupes, g);
}

static int by_member(const void *a, const void *b) {
    const member *x = a, *y = b;
    if (x->cluster != y->cluster) {
        return x->cluster < y->cluster ? -1 : 1;
    }
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

static void report_game(const dd_state *s, uint64_t cluster, uint64_t ordinal, int32_t input,
                        uint32_t line, int first) {
    FILE *f = s->report;
    fprintf(f, "%s{\"ordinal\":%llu,\"source\":", first ? "" : ",", (unsigned long long)ordinal);
    cli_json_string(f, s->run->names[input], strlen(s->run->names[input]));
    fprintf(f, ",\"line\":%u,\"kept\":%s}", line,
            s->reps[cluster].keep == ordinal ? "true" : "false");
}

/* --report: {"games":N,"distinct":N,"duplicates":N,"clusters":[{"cluster":C,"games":[...]}]}. */
static void write_report(dd_state *s) {
    FILE *f = s->report;
    qsort(s->members, s->nmembers, sizeof *s->members, by_member);
    fprintf(f, "{\"games\":%llu,\"distinct\":%llu,\"duplicates\":%llu,\"clusters\":[",
            (unsigned long long)s->run->games, (unsigned long long)(s->nreps + s->broken),
            (unsigned long long)s->dropped);
    for (size_t i = 0; i < s->nmembers;) {
        uint64_t c = s->members[i].cluster;
        const rep *r = &s->reps[c];
        fprintf(f, "%s\n{\"cluster\":%llu,\"games\":[", i ? "," : "", (unsigned long long)c);
        report_game(s, c, r->first, r->input, r->line, 1);
        for (; i < s->nmembers && s->members[i].cluster == c; i++) {
            const member *m = &s->members[i];
            report_game(s, c, m->ordinal, m->input, m->line, 0);
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n]}\n");
}

static int parse_args(int argc, char **argv, coll_run *r, dd_state *s, const char *paths[3]) {
    static const struct option opts[] = {{"by", required_argument, NULL, 'b'},
                                         {"keep", required_argument, NULL, 'k'},
                                         {"dupes", required_argument, NULL, 'D'},
                                         {"report", required_argument, NULL, 'R'},
                                         {"output", required_argument, NULL, 'o'},
                                         COLL_LONG_OPTIONS,
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "ho:q", opts, NULL)) != -1) {
        int k = coll_option(r, "dedupe", usage_text, c, optarg);
        if (k < 0) {
            return EXIT_USAGE;
        }
        switch (k ? 0 : c) {
        case 0: break;
        case 'b':
            if (strcmp(optarg, "moves") != 0 && strcmp(optarg, "moves+tags") != 0) {
                return cli_usage_error("dedupe", usage_text, "--by takes moves or moves+tags");
            }
            s->flags = strcmp(optarg, "moves+tags") == 0 ? PGN_DEDUPE_TAGS : 0;
            break;
        case 'k':
            if (strcmp(optarg, "first") != 0 && strcmp(optarg, "richest") != 0) {
                return cli_usage_error("dedupe", usage_text, "--keep takes first or richest");
            }
            s->richest = strcmp(optarg, "richest") == 0;
            break;
        case 'o': paths[0] = optarg; break;
        case 'D': paths[1] = optarg; break;
        case 'R': paths[2] = optarg; break;
        case 'h': fputs(usage_text, stdout); return -1;
        default: return cli_usage_error("dedupe", usage_text, NULL);
        }
    }
    return EXIT_OK;
}

/* Both passes and the report; returns the exit status. */
static int run(coll_run *r, dd_state *s) {
    pgn_dedupe_opts o = {s->flags, NULL};
    if (pgn_dedupe_new(&s->set, &o) != PGN_OK || pgn_game_new(&s->scratch, NULL) != PGN_OK) {
        fprintf(stderr, "pgnkit: out of memory\n");
        return EXIT_RESOURCE;
    }
    int st = coll_games(r, first_pass, s);
    if (st <= EXIT_INPUT && s->richest) {
        s->kept = malloc((s->nreps + 1) * sizeof *s->kept);
        if (!s->kept) {
            fprintf(stderr, "pgnkit: out of memory\n");
            return EXIT_RESOURCE;
        }
        for (size_t i = 0; i < s->nreps; i++) {
            s->kept[s->nkept++] = s->reps[i].keep;
        }
        qsort(s->kept, s->nkept, sizeof *s->kept, by_u64);
        r->ropts.on_diag = NULL; /* reported in the first pass */
        st = coll_games(r, second_pass, s);
    }
    if (st <= EXIT_INPUT && s->report) {
        write_report(s);
    }
    return st;
}

int cmd_dedupe(int argc, char **argv) {
    coll_run r;
    coll_init(&r);
    r.flags = COLL_SEEKABLE;
    dd_state s;
    memset(&s, 0, sizeof s);
    s.run = &r;
    const char *paths[3] = {NULL, NULL, NULL}; /* -o, --dupes, --report */
    int st = parse_args(argc, argv, &r, &s, paths);
    if (st != EXIT_OK) {
        return st < 0 ? EXIT_OK : st;
    }
    cli_output out[3];
    int opened = 0;
    for (; opened < 3 && st == EXIT_OK; opened++) {
        if ((opened == 0 || paths[opened]) && !cli_open_output(&out[opened], paths[opened])) {
            st = EXIT_RESOURCE;
            break;
        }
    }
    s.out = out[0].file;
    s.dupes = paths[1] && st == EXIT_OK ? out[1].file : NULL;
    s.report = paths[2] && st == EXIT_OK ? out[2].file : NULL;
    if (st == EXIT_OK && (st = coll_open(&r, argc - optind, argv + optind)) == EXIT_OK) {
        st = run(&r, &s);
    }
    fprintf(stderr, "%llu games, %llu distinct, %llu duplicates dropped, %llu errors\n",
            (unsigned long long)r.games, (unsigned long long)(s.nreps + s.broken),
            (unsigned long long)s.dropped, (unsigned long long)r.errors);
    coll_close(&r);
    pgn_dedupe_free(s.set);
    pgn_game_free(s.scratch);
    free(s.reps);
    free(s.members);
    free(s.kept);
    for (int i = opened - 1; i >= 0; i--) {
        if (i == 0 || paths[i]) {
            st = cli_close_output(&out[i], st);
        }
    }
    return st;
}
