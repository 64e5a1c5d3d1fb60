/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe: drops duplicate games, those with the same start position and main line (and
 * with --by moves+tags the same players, date and result), found through pgn_dedupe's Zobrist
 * line keys and confirmed move by move against the earlier copy read back from a spool file (the
 * distinct games' text; with --keep richest every game's, for the second pass). Memory: per
 * distinct game one set entry (at most 96 bytes) and one record here (48 bytes); per duplicate a
 * 32-byte record only with --report; never the games' text. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: pgnkit dedupe [--by moves|moves+tags] [--keep first|richest] [--dupes FILE]\n"
    "                     [--report FILE] [-o OUT] [--where EXPR] [reading options] [FILE...]\n"
    "Writes each distinct game once, unchanged. Games are duplicates when their start position\n"
    "and main line are equal (confirmed move by move, never by a hash alone).\n"
    "  --by moves+tags  also White, Black, Date and Result equal (names: case, spaces and .,-\n"
    "                   ignored)\n"
    "  --keep richest   keep the copy with the most tags, comments, NAGs and variation moves\n"
    "                   (the first on a tie); the default keeps the first copy\n"
    "  --dupes FILE     the dropped copies, unchanged\n"
    "  --report FILE    JSON: every cluster of two or more copies, with each copy's ordinal,\n"
    "                   input, line and whether it was kept\n"
    "A game with errors is always kept.\n" CLI_WHERE_USAGE CLI_READ_USAGE CLI_RANGE_USAGE
    "exit status: 0 success, 1 the input had errors, 2 usage error, 3 I/O or memory failure\n";

typedef struct rep { /* a distinct game: where its first copy is, and the copy to keep */
    uint64_t start;
    uint64_t first, keep; /* ordinals of the first copy and of the kept one */
    uint32_t len, rich;
    const char *input; /* its input's name */
    uint32_t line;
} rep;

typedef struct member { /* a duplicate, for --report */
    uint64_t cluster, ordinal;
    const char *input;
    uint32_t line;
} member;

/* A game in the spool: this header, then its raw bytes. */
typedef struct spooled {
    uint64_t ordinal, len;
    uint32_t broken;
} spooled;

typedef struct dd_state {
    cli_run *run;
    FILE *spool; /* the distinct games' text (--keep richest: every game's) */
    uint64_t spooled;
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

/* Appends g to the spool; *at: where its raw bytes start there. */
static pgn_status spool(dd_state *s, const cli_game *g, uint64_t *at) {
    spooled h = {g->ordinal, g->raw.len, (uint32_t)g->summary->broken};
    if (fwrite(&h, sizeof h, 1, s->spool) != 1 ||
        fwrite(g->raw.ptr, 1, g->raw.len, s->spool) != g->raw.len) {
        return PGN_E_IO;
    }
    *at = s->spooled + sizeof h;
    s->spooled += sizeof h + g->raw.len;
    return PGN_OK;
}

/* Reads len bytes at offset at of the spool into g. */
static pgn_status reread(dd_state *s, uint64_t at, size_t len, pgn_game *g) {
    char *text = malloc(len ? len : 1);
    if (!text) {
        return PGN_E_NOMEM;
    }
    pgn_status st =
        fflush(s->spool) == 0 && pread(fileno(s->spool), text, len, (off_t)at) == (ssize_t)len
            ? PGN_OK
            : PGN_E_IO;
    pgn_reader *rd = NULL;
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro); /* no diagnostics: reported the first time */
    ro.flags = s->run->ropts.flags & PGN_READ_STRICT;
    ro.encoding = s->run->ropts.encoding;
    if (st == PGN_OK && (st = pgn_reader_new_mem(&rd, &ro, text, len)) == PGN_OK) {
        st = pgn_reader_next(rd, g);
    }
    pgn_reader_free(rd);
    free(text);
    return st;
}

/* The confirmation: reads the first copy of cluster ref back and compares it move by move. */
static int same_as_rep(void *ctx, uint64_t ref, const pgn_game *game) {
    dd_state *s = ctx;
    const rep *r = &s->reps[ref];
    if (reread(s, r->start, r->len, s->scratch) != PGN_OK) {
        return -1;
    }
    return pgn_game_same_line(s->scratch, game, s->flags);
}

static pgn_status write_raw(FILE *f, const cli_game *g) {
    return cli_write_raw(f, g->raw.ptr, g->raw.len);
}

/* A new distinct game (at: its text in the spool). */
static pgn_status add_rep(dd_state *s, const cli_game *g, uint64_t at) {
    if (!reserve((void **)&s->reps, s->nreps, &s->capreps, sizeof(rep))) {
        return PGN_E_NOMEM;
    }
    rep *r = &s->reps[s->nreps++];
    r->start = at;
    r->len = (uint32_t)g->raw.len;
    r->input = g->input->name;
    r->line = g->summary->start.line;
    r->first = r->keep = g->ordinal;
    r->rich = s->richest ? (uint32_t)pgn_game_richness(g->game) : 0;
    return PGN_OK;
}

static pgn_status add_member(dd_state *s, const cli_game *g, uint64_t cluster) {
    if (!reserve((void **)&s->members, s->nmembers, &s->capmembers, sizeof(member))) {
        return PGN_E_NOMEM;
    }
    member m = {cluster, g->ordinal, g->input->name, g->summary->start.line};
    s->members[s->nmembers++] = m;
    return PGN_OK;
}

/* The first pass: clusters; with --keep first also the outputs. */
static pgn_status first_pass(cli_run *run, void *user, const cli_game *g) {
    dd_state *s = user;
    uint64_t at = 0;
    pgn_status st = s->richest ? spool(s, g, &at) : PGN_OK;
    (void)run;
    if (st != PGN_OK || g->summary->broken || g->raw.len > UINT32_MAX) {
        s->broken += st == PGN_OK;
        return s->richest || st != PGN_OK ? st : write_raw(s->out, g);
    }
    uint64_t cluster;
    int is_new;
    st = pgn_dedupe_add(s->set, g->game, pgn_dedupe_count(s->set), same_as_rep, s, &cluster,
                        &is_new);
    if (st == PGN_OK && is_new && !s->richest) {
        st = spool(s, g, &at);
    }
    if (st != PGN_OK || is_new) {
        st = st == PGN_OK ? add_rep(s, g, at) : st;
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

/* The second pass of --keep richest, over the spool: the kept copies (and games with errors) to
 * the output, the others to --dupes. s->kept holds the kept copies' ordinals, sorted. */
static pgn_status second_pass(dd_state *s) {
    spooled h;
    char *text = NULL;
    pgn_status st = fflush(s->spool) == 0 && fseek(s->spool, 0, SEEK_SET) == 0 ? PGN_OK : PGN_E_IO;
    while (st == PGN_OK && fread(&h, sizeof h, 1, s->spool) == 1) {
        char *t = realloc(text, h.len ? (size_t)h.len : 1);
        if (!t) {
            st = PGN_E_NOMEM;
            break;
        }
        text = t;
        if (fread(text, 1, (size_t)h.len, s->spool) != h.len) {
            st = PGN_E_IO;
            break;
        }
        while (s->next_kept < s->nkept && s->kept[s->next_kept] < h.ordinal) {
            s->next_kept++;
        }
        int keep = h.broken || h.len > UINT32_MAX ||
                   (s->next_kept < s->nkept && s->kept[s->next_kept] == h.ordinal);
        st = cli_write_raw(keep ? s->out : s->dupes, text, (size_t)h.len);
    }
    free(text);
    return st == PGN_OK && ferror(s->spool) ? PGN_E_IO : st;
}

static int by_member(const void *a, const void *b) {
    const member *x = a, *y = b;
    if (x->cluster != y->cluster) {
        return x->cluster < y->cluster ? -1 : 1;
    }
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

static void report_game(const dd_state *s, uint64_t cluster, uint64_t ordinal, const char *input,
                        uint32_t line, int first) {
    FILE *f = s->report;
    fprintf(f, "%s{\"ordinal\":%llu,\"source\":", first ? "" : ",", (unsigned long long)ordinal);
    cli_json_string(f, input, strlen(input));
    fprintf(f, ",\"line\":%u,\"kept\":%s}", line,
            s->reps[cluster].keep == ordinal ? "true" : "false");
}

/* --report: {"games":N,"distinct":N,"duplicates":N,"clusters":[{"cluster":C,"games":[...]}]}. */
static void write_report(dd_state *s) {
    FILE *f = s->report;
    qsort(s->members, s->nmembers, sizeof *s->members, by_member);
    fprintf(f, "{\"games\":%llu,\"distinct\":%llu,\"duplicates\":%llu,\"clusters\":[",
            (unsigned long long)(s->run->where ? s->run->matched : s->run->games),
            (unsigned long long)(s->nreps + s->broken), (unsigned long long)s->dropped);
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

enum { OPT_BY = CLI_OPT_COMMAND, OPT_KEEP, OPT_DUPES, OPT_REPORT };

typedef struct dd_opts {
    dd_state *s;
    const char *dupes, *report;
} dd_opts;

static int dedupe_option(void *user, int ch, const char *arg) {
    dd_opts *o = user;
    switch (ch) {
    case OPT_BY:
        if (strcmp(arg, "moves") != 0 && strcmp(arg, "moves+tags") != 0) {
            return cli_usage("--by takes moves or moves+tags, not '%s'", arg);
        }
        o->s->flags = strcmp(arg, "moves+tags") == 0 ? PGN_DEDUPE_TAGS : 0;
        return EXIT_OK;
    case OPT_KEEP:
        if (strcmp(arg, "first") != 0 && strcmp(arg, "richest") != 0) {
            return cli_usage("--keep takes first or richest, not '%s'", arg);
        }
        o->s->richest = strcmp(arg, "richest") == 0;
        return EXIT_OK;
    case OPT_DUPES: o->dupes = arg; return EXIT_OK;
    case OPT_REPORT: o->report = arg; return EXIT_OK;
    default: return cli_usage("unknown option");
    }
}

/* Both passes and the report. */
static void run(cli_run *r, dd_state *s) {
    pgn_dedupe_opts o = {s->flags, NULL};
    if (pgn_dedupe_new(&s->set, &o) != PGN_OK || pgn_game_new(&s->scratch, NULL) != PGN_OK ||
        !(s->spool = tmpfile())) {
        cli_error(NULL, s->set && s->scratch ? "cannot create a temporary file" : "out of memory");
        r->aborted = 1;
        return;
    }
    cli_run_games(r, first_pass, s);
    pgn_status st = PGN_OK;
    if (!r->aborted && s->richest) {
        s->kept = malloc((s->nreps + 1) * sizeof *s->kept);
        for (size_t i = 0; s->kept && i < s->nreps; i++) {
            s->kept[s->nkept++] = s->reps[i].keep;
        }
        if (s->kept) {
            qsort(s->kept, s->nkept, sizeof *s->kept, by_u64);
        }
        st = s->kept ? second_pass(s) : PGN_E_NOMEM;
    }
    if (st != PGN_OK) {
        cli_error(NULL, "%s", pgn_status_message(st));
        r->aborted = 1;
    }
    if (!r->aborted && s->report) {
        write_report(s);
    }
}

/* Opens (o: 1) or closes (o: 0) the --dupes and --report files. */
static int side_outputs(cli_run *r, dd_opts *o, cli_output out[2], int open, int status) {
    const char *paths[2] = {o->dupes, o->report};
    for (int i = 0; i < 2; i++) {
        if (!paths[i]) {
            continue;
        }
        if (!open) {
            status = cli_output_close(&out[i], !r->aborted, status);
        } else if (cli_run_check_output(r, i ? "--report" : "--dupes", paths[i]) != EXIT_OK) {
            return EXIT_USAGE;
        } else if (cli_output_open(&out[i], paths[i]) != EXIT_OK) {
            return EXIT_RESOURCE;
        }
    }
    return status;
}

int cmd_dedupe(int argc, char **argv) {
    static const struct option opts[] = {{"by", required_argument, NULL, OPT_BY},
                                         {"keep", required_argument, NULL, OPT_KEEP},
                                         {"dupes", required_argument, NULL, OPT_DUPES},
                                         {"report", required_argument, NULL, OPT_REPORT},
                                         {NULL, 0, NULL, 0}};
    dd_state s;
    memset(&s, 0, sizeof s);
    dd_opts o = {&s, NULL, NULL};
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_WHERE);
    cli_output side[2];
    memset(side, 0, sizeof side);
    side[0].fd = side[1].fd = -1;
    int st = cli_run_parse(&r, argc, argv, usage_text, opts, "", dedupe_option, &o);
    if (st == EXIT_OK) {
        st = side_outputs(&r, &o, side, 1, EXIT_OK);
    }
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        side_outputs(&r, &o, side, 0, EXIT_RESOURCE);
        return st == CLI_HELP ? EXIT_OK : st;
    }
    s.run = &r;
    r.raw = 1;
    s.out = r.out.file;
    s.dupes = o.dupes ? side[0].file : NULL;
    s.report = o.report ? side[1].file : NULL;
    run(&r, &s);
    if (s.spool) {
        fclose(s.spool);
    }
    pgn_dedupe_free(s.set);
    pgn_game_free(s.scratch);
    free(s.reps);
    free(s.members);
    free(s.kept);
    cli_run_count(&r, "distinct", "distinct", s.nreps + s.broken);
    cli_run_count(&r, "duplicates", "duplicates dropped", s.dropped);
    r.status = side_outputs(&r, &o, side, 0, r.status);
    return cli_run_finish(&r, CLI_SUMMARY_COUNTS);
}
