/* SPDX-License-Identifier: MIT */
/* pgnkit select: writes the games that match an expression of the selection language
 * (docs/query.md): their original bytes, or the export format, or their ordinals and offsets. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit select EXPR [options] [FILE...]\n"
    "       pgnkit select -f EXPRFILE [options] [FILE...]\n"
    "Writes the games that match EXPR (docs/query.md), as their original bytes.\n"
    "  -f, --file FILE   read the expression from FILE\n"
    "  --fmt             write the matching games in the export format instead\n"
    "  --count           print only the number of matching games\n"
    "  --invert          select the games that do not match\n"
    "  --limit N         stop after N matching games\n"
    "  --games LIST      consider only these input ordinals (3,10-20)\n"
    "  --offsets         one JSON line per match: game, file, offset, length, ply\n"
    "  --mark            add the comment {select: matched} after the first matching move\n"
    "  --mark-nag N      ... or the NAG $N (both imply --fmt)\n"
    "  --rejects FILE    write the games that do not match to FILE\n"
    "  -o OUT            write to OUT instead of standard output\n"
    "  --strict, --input-encoding E, --diag text|json, --quiet (no warnings)\n"
    "exit status: 0 ok, 1 the input had errors, 2 usage error (a bad expression: its column,\n"
    "a caret and what was expected), 3 I/O or memory failure\n";

typedef struct range {
    uint64_t lo, hi;
} range;

typedef struct sel {
    pgn_query *q;
    pgn_query_matcher *m;
    pgn_reader_opts ropts;
    cli_diag_ctx dctx;
    int count_only, invert, offsets, fmt, mark, mark_nag;
    uint64_t limit, matched, ordinal;
    range *games;
    size_t ngames;
    FILE *out, *rejects;
    pgn_writer *w;
    pgn_game *g;
} sel;

static int parse_games(const char *s, sel *o) {
    size_t n = 1;
    for (const char *p = s; *p; p++) {
        n += *p == ',';
    }
    o->games = calloc(n, sizeof *o->games);
    if (!o->games) {
        return 0;
    }
    for (const char *p = s; *p;) {
        char *end;
        errno = 0;
        range r;
        r.lo = r.hi = strtoull(p, &end, 10);
        if (end == p || errno) {
            return 0;
        }
        if (*end == '-') {
            p = end + 1;
            r.hi = strtoull(p, &end, 10);
            if (end == p) {
                return 0;
            }
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

/* The game's raw bytes read again into a tree, marked at ply, then written in export format. */
static pgn_status write_formatted(sel *s, pgn_str raw, uint32_t ply) {
    pgn_reader_opts ro = s->ropts;
    ro.on_diag = NULL;
    ro.flags &= ~(uint32_t)(PGN_READ_NO_BOARD | PGN_READ_KEEP_RAW);
    pgn_reader *r;
    pgn_status st = pgn_reader_new_mem(&r, &ro, raw.ptr, raw.len);
    if (st != PGN_OK) {
        return st;
    }
    st = pgn_reader_next(r, s->g);
    pgn_reader_free(r);
    if (st != PGN_OK) {
        return st == PGN_END ? PGN_OK : st;
    }
    if (s->mark && ply != UINT32_MAX) {
        pgn_node *n = pgn_game_root(s->g);
        for (uint32_t k = 0; k < ply && n; k++) {
            n = pgn_node_child(n);
        }
        if (n && s->mark_nag) {
            st = pgn_node_add_nag(s->g, n, (unsigned)s->mark_nag);
        } else if (n) {
            pgn_str text = {"select: matched", 15};
            st = ply == 0 ? PGN_OK : pgn_node_append_comment(s->g, n, text);
        }
        if (st != PGN_OK) {
            return st;
        }
    }
    return pgn_writer_write(s->w, s->g);
}

static pgn_status on_match(sel *s, pgn_reader *r, const pgn_query_result *res) {
    pgn_str raw = pgn_reader_raw(r);
    const pgn_game_summary *sum = pgn_reader_summary(r);
    if (s->count_only) {
        return PGN_OK;
    }
    if (s->offsets) {
        fprintf(s->out, "{\"game\":%llu,\"offset\":%llu,\"length\":%llu,\"ply\":",
                (unsigned long long)s->ordinal, (unsigned long long)sum->start.offset,
                (unsigned long long)(sum->end_offset - sum->start.offset));
        if (res->first_ply == UINT32_MAX) {
            fputs("null}\n", s->out);
        } else {
            fprintf(s->out, "%u}\n", res->first_ply);
        }
        return PGN_OK;
    }
    if (s->fmt) {
        return write_formatted(s, raw, res->first_ply);
    }
    return fwrite(raw.ptr, 1, raw.len, s->out) == raw.len ? PGN_OK : PGN_E_IO;
}

static pgn_status select_step(pgn_reader *r, void *ctx) {
    sel *s = ctx;
    if (s->limit && s->matched >= s->limit) {
        return PGN_END;
    }
    pgn_status st = pgn_reader_visit(r, pgn_query_visitor(), s->m);
    if (st != PGN_OK) {
        return st;
    }
    s->ordinal++;
    pgn_query_result res;
    if ((st = pgn_query_matcher_result(s->m, &res)) != PGN_OK) {
        return st;
    }
    if (!wanted(s, s->ordinal)) {
        return PGN_OK;
    }
    if (res.matched != s->invert) {
        s->matched++;
        return on_match(s, r, &res);
    }
    if (s->rejects) {
        pgn_str raw = pgn_reader_raw(r);
        return fwrite(raw.ptr, 1, raw.len, s->rejects) == raw.len ? PGN_OK : PGN_E_IO;
    }
    return PGN_OK;
}

/* Reads the whole expression file into a malloc'd NUL-terminated string. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "pgnkit select: cannot open '%s': %s\n", path, strerror(errno));
        return NULL;
    }
    cli_membuf b = {NULL, 0, 0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (cli_membuf_write(&b, chunk, n) < 0) {
            break;
        }
    }
    fclose(f);
    if (cli_membuf_write(&b, "", 1) < 0) {
        free(b.p);
        return NULL;
    }
    *len = b.len - 1;
    return b.p;
}

/* Prints the expression, a caret under the offending token and what was expected. */
static void print_query_error(const char *text, size_t len, const pgn_query_error *e) {
    fprintf(stderr, "pgnkit select: error in the expression, column %u: %s\n", e->column,
            e->message);
    size_t line_start = 0, col = e->column ? e->column - 1 : 0;
    for (size_t i = 0; i < col && i < len; i++) {
        if (text[i] == '\n') {
            line_start = i + 1;
        }
    }
    size_t line_end = line_start;
    while (line_end < len && text[line_end] != '\n') {
        line_end++;
    }
    fprintf(stderr, "  %.*s\n  ", (int)(line_end - line_start), text + line_start);
    for (size_t i = line_start; i < col; i++) {
        fputc(text[i] == '\t' ? '\t' : ' ', stderr);
    }
    fputs("^", stderr);
    for (uint32_t i = 1; i < e->length && line_start + (col - line_start) + i < line_end; i++) {
        fputc('~', stderr);
    }
    fputc('\n', stderr);
    if (e->expected[0]) {
        fprintf(stderr, "  expected: %s\n", e->expected);
    }
}

int cli_query_compile(const char *text, size_t len, pgn_query **out) {
    pgn_query_error e;
    pgn_status st = pgn_query_compile(out, text, len, NULL, &e);
    if (st == PGN_E_NOMEM) {
        fprintf(stderr, "pgnkit: out of memory\n");
        return EXIT_RESOURCE;
    }
    if (st != PGN_OK) {
        print_query_error(text, len, &e);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

enum {
    O_COUNT = 1100,
    O_INVERT,
    O_LIMIT,
    O_GAMES,
    O_OFFSETS,
    O_MARK,
    O_MARK_NAG,
    O_REJECTS,
    O_FMT,
    O_STRICT,
    O_ENC,
    O_DIAG
};

static int parse_args(int argc, char **argv, sel *s, const char **exprfile, const char **outp,
                      const char **rejp) {
    static const struct option opts[] = {{"count", no_argument, NULL, O_COUNT},
                                         {"invert", no_argument, NULL, O_INVERT},
                                         {"limit", required_argument, NULL, O_LIMIT},
                                         {"games", required_argument, NULL, O_GAMES},
                                         {"offsets", no_argument, NULL, O_OFFSETS},
                                         {"mark", no_argument, NULL, O_MARK},
                                         {"mark-nag", required_argument, NULL, O_MARK_NAG},
                                         {"rejects", required_argument, NULL, O_REJECTS},
                                         {"fmt", no_argument, NULL, O_FMT},
                                         {"file", required_argument, NULL, 'f'},
                                         {"strict", no_argument, NULL, O_STRICT},
                                         {"input-encoding", required_argument, NULL, O_ENC},
                                         {"diag", required_argument, NULL, O_DIAG},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:o:qh", opts, NULL)) != -1) {
        switch (c) {
        case O_COUNT: s->count_only = 1; break;
        case O_INVERT: s->invert = 1; break;
        case O_LIMIT: s->limit = strtoull(optarg, NULL, 10); break;
        case O_GAMES:
            if (!parse_games(optarg, s)) {
                return cli_usage_error("select", usage_text, "--games takes N,N-M,...");
            }
            break;
        case O_OFFSETS: s->offsets = 1; break;
        case O_MARK: s->mark = s->fmt = 1; break;
        case O_MARK_NAG:
            s->mark_nag = atoi(optarg);
            s->mark = s->fmt = 1;
            if (s->mark_nag < 1 || s->mark_nag > 255) {
                return cli_usage_error("select", usage_text, "--mark-nag takes 1 to 255");
            }
            break;
        case O_REJECTS: *rejp = optarg; break;
        case O_FMT: s->fmt = 1; break;
        case 'f': *exprfile = optarg; break;
        case 'o': *outp = optarg; break;
        case O_STRICT: s->ropts.flags |= PGN_READ_STRICT; break;
        case O_ENC:
            if (!cli_parse_encoding(optarg, &s->ropts.encoding)) {
                return cli_usage_error("select", usage_text, "unknown --input-encoding");
            }
            break;
        case O_DIAG: s->dctx.json = strcmp(optarg, "json") == 0; break;
        case 'q': s->dctx.quiet_warnings = 1; break;
        case 'h': fputs(usage_text, stdout); return -1;
        default: return cli_usage_error("select", usage_text, NULL);
        }
    }
    return EXIT_OK;
}

static int run(sel *s, int nfiles, char **files, const char *outp, const char *rejp) {
    cli_output out, rej = {NULL, NULL};
    if (!cli_open_output(&out, outp)) {
        return EXIT_RESOURCE;
    }
    s->out = out.file;
    if (rejp && !cli_open_output(&rej, rejp)) {
        return cli_close_output(&out, EXIT_RESOURCE);
    }
    s->rejects = rej.file;
    int status = EXIT_RESOURCE;
    if (pgn_query_matcher_new(&s->m, s->q, NULL) == PGN_OK && pgn_game_new(&s->g, NULL) == PGN_OK &&
        pgn_writer_new(&s->w, NULL, cli_write_file, s->out) == PGN_OK) {
        uint64_t totals[3] = {0, 0, 0};
        status = cli_read_inputs(nfiles, files, &s->ropts, select_step, s, totals);
        if (s->count_only) {
            fprintf(s->out, "%llu\n", (unsigned long long)s->matched);
        }
    } else {
        fprintf(stderr, "pgnkit: out of memory\n");
    }
    pgn_writer_free(s->w);
    pgn_game_free(s->g);
    pgn_query_matcher_free(s->m);
    if (rej.file) {
        status = cli_close_output(&rej, status);
    }
    return cli_close_output(&out, status);
}

int cmd_select(int argc, char **argv) {
    sel s;
    memset(&s, 0, sizeof s);
    s.ropts.on_diag = cli_print_diag;
    s.ropts.diag_ctx = &s.dctx;
    const char *exprfile = NULL, *outp = NULL, *rejp = NULL;
    int status = parse_args(argc, argv, &s, &exprfile, &outp, &rejp);
    if (status != EXIT_OK) {
        free(s.games);
        return status < 0 ? EXIT_OK : status;
    }
    char *text = NULL;
    size_t len;
    if (exprfile) {
        if (!(text = read_file(exprfile, &len))) {
            free(s.games);
            return EXIT_RESOURCE;
        }
    } else if (optind < argc) {
        text = strdup(argv[optind++]);
        len = text ? strlen(text) : 0;
    } else {
        free(s.games);
        return cli_usage_error("select", usage_text, "no expression");
    }
    status = text ? cli_query_compile(text, len, &s.q) : EXIT_RESOURCE;
    free(text);
    if (status == EXIT_OK) {
        s.ropts.flags |= pgn_query_reader_flags(s.q) | PGN_READ_KEEP_RAW;
        status = run(&s, argc - optind, argv + optind, outp, rejp);
        pgn_query_free(s.q);
    }
    free(s.games);
    return status;
}
