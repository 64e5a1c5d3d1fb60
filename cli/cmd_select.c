/* SPDX-License-Identifier: MIT */
/* pgnkit select: writes the games that match an expression of the selection language
 * (docs/query.md): their original bytes, or the export format, or their ordinals and offsets. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "parallel.h"
#include "query_help.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit select EXPR [options] [FILE...]\n"
    "       pgnkit select -f EXPRFILE [options] [FILE...]\n"
    "Writes the games that match EXPR (docs/query.md), as their original bytes.\n"
    "  -f, --file FILE   read the expression from FILE\n"
    "  --fmt             write the matching games in the export format instead (one with\n"
    "                    errors is reported and goes to --rejects, not written)\n"
    "  --count           print only the number of matching games\n"
    "  --invert          select the games that do not match\n"
    "  --limit N         stop after N matching games\n"
    "  --games LIST      consider only these input ordinals (3,10-20)\n"
    "  --offsets         one JSON line per match: game, file, offset, length, ply\n"
    "  --mark            add the comment {select: matched} after the first matching move\n"
    "  --mark-nag N      ... or the NAG $N (both imply --fmt)\n"
    "  --rejects FILE    write the games that do not match to FILE\n"
    "  -o OUT            write to OUT instead of standard output\n"
    "  --strict, --input-encoding E, --diag text|json, --max-errors N, --quiet (no "
    "warnings)\n" CLI_JOBS_USAGE
    "exit status: 0 ok, 1 the input had errors, 2 usage error (a bad expression: its column,\n"
    "a caret and what was expected), 3 I/O or memory failure\n" CLI_QUERY_HELP;

typedef struct range {
    uint64_t lo, hi;
} range;

typedef struct sel {
    pgn_query *q;
    pgn_query_matcher *m;
    int count_only, invert, offsets, fmt, mark, mark_nag;
    uint64_t limit, matched, ordinal;
    range *games;
    size_t ngames;
    const char *exprfile;
    pgn_writer *w;
    pgn_game *g;
} sel;

static int parse_games(const char *s, sel *o) {
    size_t n = 1;
    if (!*s) {
        return 0;
    }
    for (const char *p = s; *p; p++) {
        n += *p == ',';
    }
    free(o->games);
    o->ngames = 0;
    o->games = calloc(n, sizeof *o->games);
    if (!o->games) {
        return 0;
    }
    for (const char *p = s; *p;) {
        range r;
        const char *end = cli_parse_digits(p, &r.lo);
        if (!end) {
            return 0;
        }
        r.hi = r.lo;
        if (*end == '-' && !(end = cli_parse_digits(end + 1, &r.hi))) {
            return 0;
        }
        if (r.lo == 0 || r.hi < r.lo || (*end && *end != ',')) {
            return 0;
        }
        o->games[o->ngames++] = r;
        p = *end ? end + 1 : end;
    }
    return 1;
}

static int wanted(const sel *s, uint64_t k) {
    if (!s->ngames) {
        return 1;
    }
    for (size_t i = 0; i < s->ngames; i++) {
        if (k >= s->games[i].lo && k <= s->games[i].hi) {
            return 1;
        }
    }
    return 0;
}

/* The second reading's errors (not its warnings: the first reading gave them), where they are. */
typedef struct reread {
    cli_run *r;
    const cli_game *g;
} reread;

static void reread_diag(void *ctx, const pgn_diag *d) {
    const reread *rr = ctx;
    if (d->severity == PGN_SEV_ERROR) {
        pgn_diag at = *d;
        at.game = rr->g->summary->game;
        rr->r->errors++;
        cli_print_diag_detail(&at, rr->r->quiet, NULL);
    }
}

/* The game's raw bytes read again into a tree, marked at ply, then written in export format. A
 * broken game is never written (issue 34): this reading reports the errors the first one skipped
 * with the movetext (tags alone, or decided by them); the game goes to --rejects, counted. */
static pgn_status write_formatted(cli_run *r, sel *s, const cli_game *g, uint32_t ply) {
    if (g->summary->broken) { /* its errors were reported */
        return cli_run_reject(r, g);
    }
    reread rr = {r, g};
    pgn_reader_opts ro = r->ropts;
    ro.on_diag = reread_diag;
    ro.diag_ctx = &rr;
    ro.source_name = g->input->name;
    ro.range_start = g->summary->start.offset; /* its lines and offsets in its input */
    ro.range_end = 0;
    ro.line_base = g->summary->start.line;
    ro.max_errors = 0;
    ro.flags |= PGN_READ_RANGE_AT_GAME;
    ro.flags &= ~(uint32_t)(PGN_READ_NO_BOARD | PGN_READ_KEEP_RAW | PGN_READ_NO_KEYS);
    pgn_reader *rd;
    pgn_status st = pgn_reader_new_mem(&rd, &ro, g->raw.ptr, g->raw.len);
    if (st != PGN_OK) {
        return st;
    }
    st = pgn_reader_next(rd, s->g);
    int broken = st == PGN_OK && pgn_reader_summary(rd)->broken;
    pgn_reader_free(rd);
    if (st != PGN_OK) {
        return st == PGN_END ? PGN_OK : st;
    }
    if (broken) {
        return cli_run_reject(r, g);
    }
    r->written++;
    if (s->mark && ply != UINT32_MAX && ply > 0) {
        pgn_node *n = pgn_game_root(s->g);
        for (uint32_t k = 0; k < ply && n; k++) {
            n = pgn_node_child(n);
        }
        if (n && s->mark_nag) {
            st = pgn_node_add_nag(s->g, n, (unsigned)s->mark_nag);
        } else if (n) {
            pgn_str text = {"select: matched", 15};
            st = pgn_node_append_comment(s->g, n, text);
        }
        if (st != PGN_OK) {
            return st;
        }
    }
    return pgn_writer_write(s->w, s->g);
}

static pgn_status on_match(cli_run *r, sel *s, const cli_game *g, const pgn_query_result *res) {
    const pgn_game_summary *sum = g->summary;
    if (s->fmt && !s->count_only && !s->offsets) {
        return write_formatted(r, s, g, res->first_ply);
    }
    r->written++;
    if (s->count_only) {
        return PGN_OK;
    }
    if (s->offsets) { /* the file: the offsets are its (an archive's member's: its own) */
        fprintf(r->out.file, "{\"game\":%llu,\"file\":", (unsigned long long)s->ordinal);
        cli_json_string(r->out.file, g->input->name, strlen(g->input->name));
        fprintf(r->out.file,
                ",\"offset\":%llu,\"length\":%llu,\"ply\":", (unsigned long long)sum->start.offset,
                (unsigned long long)(sum->end_offset - sum->start.offset));
        if (res->first_ply == UINT32_MAX) {
            fputs("null}\n", r->out.file);
        } else {
            fprintf(r->out.file, "%u}\n", res->first_ply);
        }
        return PGN_OK;
    }
    return cli_output_write(&r->out, g->raw.ptr, g->raw.len) < 0 ? PGN_E_IO : PGN_OK;
}

static pgn_status select_one(cli_run *r, void *user, const cli_game *g) {
    sel *s = user;
    if (s->limit && s->matched >= s->limit) {
        return PGN_END; /* this input ends here; the next ones stop at their first game */
    }
    s->ordinal++;
    pgn_query_result res;
    pgn_str made;
    pgn_status st = PGN_OK;
    if (cli_par_product(g, &made) && made.len == sizeof res) { /* -j N: select_prepare */
        memcpy(&res, made.ptr, sizeof res);
    } else {
        st = pgn_query_matcher_result(s->m, &res);
    }
    if (st != PGN_OK || !wanted(s, s->ordinal)) {
        return st;
    }
    if (res.matched != s->invert) {
        s->matched++;
        return on_match(r, s, g, &res);
    }
    if (r->rejects.file) { /* not a rejected game for the summary: just not selected */
        return cli_output_write(&r->rejects, g->raw.ptr, g->raw.len) < 0 ? PGN_E_IO : PGN_OK;
    }
    return PGN_OK;
}

/* -j N: each worker matches with a matcher of its own; the result comes back as the product. */
static void *select_worker_new(void *user) {
    pgn_query_matcher *m;
    return pgn_query_matcher_new(&m, ((sel *)user)->q, NULL) == PGN_OK ? m : NULL;
}

static void select_worker_free(void *wuser) {
    pgn_query_matcher_free(wuser);
}

static void *select_worker_vuser(void *wuser) {
    return wuser;
}

static pgn_status select_prepare(void *wuser, const pgn_par_game *g, pgn_membuf *out) {
    pgn_query_result res;
    (void)g;
    pgn_status st = pgn_query_matcher_result(wuser, &res);
    if (st != PGN_OK) {
        return st;
    }
    return pgn_membuf_write(out, &res, sizeof res) < 0 ? PGN_E_NOMEM : PGN_OK;
}

static const pgn_par_hooks select_hooks = {select_worker_new, select_worker_free,
                                           select_worker_vuser, select_prepare};

enum {
    O_COUNT = CLI_OPT_COMMAND, /* in the order of options */
    O_INVERT,
    O_LIMIT,
    O_GAMES,
    O_OFFSETS,
    O_MARK,
    O_MARK_NAG,
    O_FMT,
    O_FILE
};
static const char *const options[] = {"count", "invert",    "limit:", "games:", "offsets",
                                      "mark",  "mark-nag:", "fmt",    "file:",  NULL};

static int select_option(void *user, int ch, const char *arg) {
    sel *s = user;
    uint64_t v = 0;
    switch (ch) {
    case O_COUNT: s->count_only = 1; break;
    case O_INVERT: s->invert = 1; break;
    case O_LIMIT: return cli_number("--limit", arg, 1, UINT64_MAX, &s->limit);
    case O_GAMES:
        if (!parse_games(arg, s)) {
            return cli_usage("--games takes N,N-M,... (ordinals from 1)");
        }
        break;
    case O_OFFSETS: s->offsets = 1; break;
    case O_MARK: s->mark = s->fmt = 1; break;
    case O_MARK_NAG:
        if (cli_number("--mark-nag", arg, 1, 255, &v) != EXIT_OK) {
            return EXIT_USAGE;
        }
        s->mark_nag = (int)v;
        s->mark = s->fmt = 1;
        break;
    case O_FMT: s->fmt = 1; break;
    case 'f':
    case O_FILE: s->exprfile = arg; break;
    default: return cli_usage("unknown option");
    }
    return EXIT_OK;
}

/* The expression: -f FILE, else the first operand (taken off the inputs). */
static char *take_expression(cli_run *r, sel *s, int operands, size_t *len) {
    if (s->exprfile) {
        return cli_read_text(s->exprfile, len);
    }
    if (!operands) {
        cli_usage("no expression (pgnkit select EXPR [FILE...])");
        return NULL;
    }
    static char dash[] = "-";
    static char *stdin_only[] = {dash};
    char *text = strdup(r->files[0]);
    *len = text ? strlen(text) : 0;
    r->files = r->nfiles > 1 ? r->files + 1 : stdin_only;
    r->nfiles = r->nfiles > 1 ? r->nfiles - 1 : 1;
    return text;
}

int cmd_select(int argc, char **argv) {
    sel s;
    memset(&s, 0, sizeof s);
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_REJECTS);
    int st = cli_run_args(&r, argc, argv, usage_text, options, "f:", select_option, &s);
    int operands = optind < argc;
    size_t len = 0;
    char *text = st == EXIT_OK ? take_expression(&r, &s, operands, &len) : NULL;
    if (st == EXIT_OK) {
        st = text ? cli_query_compile(text, len, &s.q) : s.exprfile ? EXIT_RESOURCE : EXIT_USAGE;
    }
    free(text);
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        free(s.games);
        pgn_query_free(s.q);
        return st == CLI_HELP ? EXIT_OK : st;
    }
    r.raw = 1;
    const pgn_visitor *v = pgn_query_visitor_fast(s.q, &r.ropts.flags);
    if (pgn_query_matcher_new(&s.m, s.q, NULL) == PGN_OK && pgn_game_new(&s.g, NULL) == PGN_OK &&
        pgn_writer_new(&s.w, NULL, cli_output_write, &r.out) == PGN_OK) {
        r.par = &select_hooks;
        cli_run_visit(&r, v, s.m, select_one, &s);
        if (s.count_only) {
            fprintf(r.out.file, "%llu\n", (unsigned long long)s.matched);
        }
    } else {
        cli_error(NULL, "out of memory");
        r.aborted = 1;
    }
    pgn_writer_free(s.w);
    pgn_game_free(s.g);
    pgn_query_matcher_free(s.m);
    pgn_query_free(s.q);
    free(s.games);
    return cli_run_finish(&r, CLI_SUMMARY_NONE);
}
