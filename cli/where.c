/* SPDX-License-Identifier: MIT */
/* --where EXPR (issue 13), the driver's shared selection: the expression compiled once (its errors
 * with a caret, as pgnkit select prints them), and a visitor that runs the query's matcher while
 * the reader reads the whole game (the matcher may skip or stop; the reader is never told, so that
 * every diagnostic of a game is found), holding the game's diagnostics until it is known to match;
 * and the driver's step under --where: a game read with the matcher, a match read again for the
 * command. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "parallel.h"

#include <stdlib.h>
#include <string.h>

/* Prints the expression, a caret under the offending token and what was expected. */
static void print_query_error(const char *text, size_t len, const pgn_query_error *e) {
    cli_error(NULL, "error in the expression, column %u: %s", e->column, e->message);
    if (cli_diag_json()) {
        return;
    }
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
    for (uint32_t i = 1; i < e->length && col + i < line_end; i++) {
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
        cli_error(NULL, "out of memory");
        return EXIT_RESOURCE;
    }
    if (st != PGN_OK) {
        print_query_error(text, len, &e);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

struct cli_where {
    pgn_query_matcher *m;
    int state;     /* 0: the matcher sees events; 1: it skipped the movetext; 2: it stopped */
    unsigned skip; /* nesting inside a variation the matcher skipped */
    pgn_diag *diags;
    size_t n, cap;
    int nomem; /* a diagnostic could not be held */
};

pgn_status cli_where_new(cli_where **out, const pgn_query *q) {
    cli_where *w = calloc(1, sizeof *w);
    if (!w || pgn_query_matcher_new(&w->m, q, NULL) != PGN_OK) {
        free(w);
        return PGN_E_NOMEM;
    }
    *out = w;
    return PGN_OK;
}

void cli_where_free(cli_where *w) {
    if (w) {
        pgn_query_matcher_free(w->m);
        free(w->diags);
        free(w);
    }
}

void cli_where_diag(void *ctx, const pgn_diag *d) {
    cli_where *w = ctx;
    if (w->n == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        pgn_diag *p = realloc(w->diags, cap * sizeof *p);
        if (!p) {
            w->nomem = 1;
            return;
        }
        w->diags = p;
        w->cap = cap;
    }
    w->diags[w->n++] = *d;
}

int cli_where_flush(cli_where *w, int print, pgn_diag_fn fn, void *ctx, uint64_t budget,
                    uint64_t counts[2]) {
    int stopped = 0;
    for (size_t i = 0; print && i < w->n && !stopped; i++) {
        int error = w->diags[i].severity == PGN_SEV_ERROR;
        fn(ctx, &w->diags[i]);
        counts[!error]++;
        stopped = error && budget && counts[0] >= budget;
    }
    w->n = 0;
    int nomem = w->nomem;
    w->nomem = 0;
    return nomem ? -1 : stopped;
}

/* The matcher's answer to one event: what the reader is told is always CONTINUE. */
static pgn_flow after(cli_where *w, pgn_flow f, int in_movetext) {
    if (f == PGN_FLOW_STOP) {
        w->state = 2;
    } else if (f == PGN_FLOW_SKIP && in_movetext) {
        w->state = 1;
    }
    return PGN_FLOW_CONTINUE;
}

#define MATCHER (pgn_query_visitor())
#define LIVE(w) ((w)->state == 0 && (w)->skip == 0)

static pgn_flow w_begin(void *user, pgn_loc at) {
    cli_where *w = user;
    w->state = 0;
    w->skip = 0;
    return MATCHER->begin_game ? after(w, MATCHER->begin_game(w->m, at), 0) : PGN_FLOW_CONTINUE;
}

static pgn_flow w_tag(void *user, pgn_str name, pgn_str value) {
    cli_where *w = user;
    return LIVE(w) && MATCHER->tag ? after(w, MATCHER->tag(w->m, name, value), 0)
                                   : PGN_FLOW_CONTINUE;
}

static pgn_flow w_end_tags(void *user, const pgn_pos *start) {
    cli_where *w = user;
    return LIVE(w) && MATCHER->end_tags ? after(w, MATCHER->end_tags(w->m, start), 1)
                                        : PGN_FLOW_CONTINUE;
}

static pgn_flow w_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    cli_where *w = user;
    return LIVE(w) && MATCHER->move ? after(w, MATCHER->move(w->m, before, mv, san, at), 1)
                                    : PGN_FLOW_CONTINUE;
}

static pgn_flow w_comment(void *user, pgn_str text) {
    cli_where *w = user;
    return LIVE(w) && MATCHER->comment ? after(w, MATCHER->comment(w->m, text), 1)
                                       : PGN_FLOW_CONTINUE;
}

static pgn_flow w_nag(void *user, unsigned nag) {
    cli_where *w = user;
    return LIVE(w) && MATCHER->nag ? after(w, MATCHER->nag(w->m, nag), 1) : PGN_FLOW_CONTINUE;
}

static pgn_flow w_begin_variation(void *user) {
    cli_where *w = user;
    if (!LIVE(w)) {
        w->skip += w->skip > 0;
        return PGN_FLOW_CONTINUE;
    }
    pgn_flow f = MATCHER->begin_variation ? MATCHER->begin_variation(w->m) : PGN_FLOW_CONTINUE;
    if (f == PGN_FLOW_SKIP) {
        w->skip = 1; /* the matcher never sees this variation, nor its ')' */
        return PGN_FLOW_CONTINUE;
    }
    return after(w, f, 0);
}

static pgn_flow w_end_variation(void *user) {
    cli_where *w = user;
    if (w->skip > 0) {
        w->skip--;
        return PGN_FLOW_CONTINUE;
    }
    return w->state == 0 && MATCHER->end_variation ? after(w, MATCHER->end_variation(w->m), 0)
                                                   : PGN_FLOW_CONTINUE;
}

static pgn_flow w_end_game(void *user, pgn_result result, const pgn_game_summary *summary) {
    cli_where *w = user;
    if (w->state != 2 && MATCHER->end_game) {
        MATCHER->end_game(w->m, result, summary);
    }
    return PGN_FLOW_CONTINUE;
}

const pgn_visitor *cli_where_visitor(void) {
    static const pgn_visitor v = {w_begin,   w_tag, w_end_tags,        w_move,
                                  w_comment, w_nag, w_begin_variation, w_end_variation,
                                  w_end_game};
    return &v;
}

pgn_status cli_where_matched(const cli_where *w, int *matched) {
    pgn_query_result res;
    pgn_status st = pgn_query_matcher_result(w->m, &res);
    *matched = st == PGN_OK && res.matched;
    return st;
}

/* --where, a game that matched: its raw bytes read again, into the tree or through the
 * command's visitor (its diagnostics were printed from the first reading). */
static pgn_status reread(cli_run *r, cli_step *s) {
    if (!s->game && !s->v) {
        return PGN_OK;
    }
    pgn_str raw = pgn_reader_raw(s->rd);
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = r->ropts.flags & ~(uint32_t)PGN_READ_KEEP_RAW;
    ro.encoding = r->ropts.encoding;
    ro.input_lang = r->ropts.input_lang;
    pgn_reader *rd;
    pgn_status st = pgn_reader_new_mem(&rd, &ro, raw.ptr, raw.len);
    if (st == PGN_OK) {
        st = s->game ? pgn_reader_next(rd, s->game) : pgn_reader_visit(rd, s->v, s->vuser);
        pgn_reader_free(rd);
    }
    return st == PGN_END ? PGN_OK : st;
}

pgn_status cli_where_game(cli_run *r, cli_step *s, const cli_input *in) {
    pgn_status st = pgn_reader_visit(s->rd, cli_where_visitor(), s->where);
    int matched = 0;
    if (st == PGN_OK) {
        cli_progress_game();
    }
    if (st == PGN_OK && cli_where_matched(s->where, &matched) != PGN_OK) {
        st = PGN_E_NOMEM;
    }
    uint64_t counts[2] = {0, 0};
    int full = cli_where_flush(s->where, matched || st != PGN_OK, s->diag, s->diag_ctx,
                               r->max_errors ? r->max_errors - r->errors : 0, counts);
    r->errors += counts[0];
    r->warnings += counts[1];
    if (full < 0 && st == PGN_OK) {
        st = PGN_E_NOMEM;
    }
    if (st != PGN_OK || !matched) {
        return st;
    }
    r->matched++;
    if (full > 0) {
        return PGN_E_LIMIT; /* as the reader does: the game that reaches the limit is not given */
    }
    if ((st = reread(r, s)) != PGN_OK) {
        return st;
    }
    return s->fn ? cli_step_give(r, s, in) : PGN_OK;
}
