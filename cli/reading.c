/* SPDX-License-Identifier: MIT */
/* The driver's reading (driver.h): each input opened, one reader per input (on this thread, or
 * on the workers of parallel.c under -j), each game given to the command's callback or visitor,
 * the totals and --max-errors over the whole run; --where through the library's
 * pgn_query_filter, a match read again for the command; JSON input. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "parallel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One step of the reading: the next game of rd; the loops below do the rest. */
typedef struct cli_step {
    pgn_reader *rd;
    pgn_game *game; /* NULL: visitor mode */
    const pgn_visitor *v;
    void *vuser;
    cli_each_fn fn;
    void *user;
    int from_fn;             /* the status came from fn, not the reader */
    pgn_query_filter *where; /* --where: the matcher and the held diagnostics */
    pgn_diag_fn diag;        /* where the diagnostics go (held first under --where) */
    void *diag_ctx;
} cli_step;

/* Calls s->fn with the game s->rd just read (s->from_fn: its status came from fn). */
static pgn_status step_give(cli_run *r, cli_step *s, const cli_input *in) {
    const pgn_game_summary *sum = pgn_reader_summary(s->rd);
    cli_game g = {
        s->game,   sum,      pgn_reader_raw(s->rd), in, r->games + sum->game, {NULL, 0}, 0,
        {NULL, 0}, {NULL, 0}};
    g.between = pgn_reader_raw_between(s->rd, &g.lead);
    pgn_status st = s->fn(r, s->user, &g);
    s->from_fn = st != PGN_OK;
    return st;
}

static pgn_status one_game(cli_run *r, cli_step *s, const cli_input *in) {
    pgn_status st =
        s->game ? pgn_reader_next(s->rd, s->game) : pgn_reader_visit(s->rd, s->v, s->vuser);
    if (st == PGN_OK) {
        cli_progress_game();
    }
    return st != PGN_OK || !s->fn ? st : step_give(r, s, in);
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

/* The step under --where: the next game read with the filter; a game that matches gets its
 * diagnostics printed and goes to the command, one that does not is skipped without a word. */
static pgn_status where_game(cli_run *r, cli_step *s, const cli_input *in) {
    pgn_status st = pgn_reader_visit(s->rd, pgn_query_filter_visitor(), s->where);
    int matched = 0;
    if (st == PGN_OK) {
        cli_progress_game();
    }
    if (st == PGN_OK && pgn_query_filter_matched(s->where, &matched) != PGN_OK) {
        st = PGN_E_NOMEM;
    }
    uint64_t counts[2] = {0, 0};
    int full = pgn_query_filter_flush(s->where, matched || st != PGN_OK, s->diag, s->diag_ctx,
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
    return s->fn ? step_give(r, s, in) : PGN_OK;
}

/* The reader options of one input. */
static pgn_reader_opts input_opts(cli_run *r, cli_step *s, const cli_input *in) {
    pgn_reader_opts ro = r->ropts;
    ro.source_name = in->name;
    ro.range_start = in->range_start;
    ro.range_end = in->range_end;
    ro.line_base = in->line_base;
    s->diag = ro.on_diag ? ro.on_diag : cli_run_diag;
    s->diag_ctx = ro.on_diag ? ro.diag_ctx : r;
    ro.on_diag = s->diag;
    ro.diag_ctx = s->diag_ctx;
    if (r->raw || r->rejects.file) {
        ro.flags |= PGN_READ_KEEP_RAW;
    }
    ro.max_errors = r->max_errors ? r->max_errors - r->errors : 0;
    if (s->where) { /* the driver holds the diagnostics, counts them and stops */
        ro.on_diag = pgn_query_filter_diag;
        ro.diag_ctx = s->where;
        ro.max_errors = 0;
        ro.flags |= PGN_READ_KEEP_RAW;
        ro.flags &= ~(uint32_t)PGN_READ_NO_KEYS | pgn_query_reader_flags(r->query);
        ro.flags &= ~(uint32_t)PGN_READ_NO_BOARD | pgn_query_reader_flags(r->query);
    }
    return ro;
}

/* Reads one input on this thread: the status that ended it (the totals added to r); PGN_E_NOMEM
 * with *made 0 when the reader could not be made. */
static pgn_status serial_input(cli_run *r, cli_step *s, cli_input *in, const pgn_reader_opts *ro,
                               int *made) {
    *made = pgn_reader_new(&s->rd, ro, in->read, in->ctx) == PGN_OK;
    if (!*made) {
        return PGN_E_NOMEM;
    }
    pgn_status st;
    s->from_fn = 0;
    while ((st = s->where ? where_game(r, s, in) : one_game(r, s, in)) == PGN_OK) {
    }
    uint64_t games, errors, warnings;
    pgn_reader_totals(s->rd, &games, &errors, &warnings);
    r->games += games;
    if (!s->where) { /* where_game counted those it printed */
        r->errors += errors;
        r->warnings += warnings;
    }
    pgn_reader_free(s->rd);
    s->rd = NULL;
    return st;
}

/* Reads one input to its end (or to the end of the run). */
static void run_input(cli_run *r, cli_step *s, cli_input *in) {
    pgn_reader_opts ro = input_opts(r, s, in);
    pgn_status st;
    int made = 1;
    cli_progress_input(in);
    if (!s->where && cli_par_wanted(r, in, s->v != NULL)) { /* -j N: cli/parallel.c */
        st = cli_par_input(r, in, s->game != NULL, s->v, s->fn, s->user, &s->from_fn);
    } else { /* --where reads on this thread */
        st = serial_input(r, s, in, &ro, &made);
    }
    cli_progress_clear();
    if (!made) {
        cli_error(NULL, "out of memory");
        r->aborted = 1;
    } else if (st == PGN_E_LIMIT && !s->from_fn) {
        r->stopped = 1;
    } else if (st == PGN_E_IO && !s->from_fn) {
        const char *why = cli_input_error(in);
        cli_error(in->name, "%s", why ? why : pgn_status_message(st));
        cli_run_worst(r, EXIT_RESOURCE);
    } else if (st != PGN_END) { /* a write error is reported when its output is closed */
        if (st != PGN_E_IO) {
            cli_error(in->name, "%s", pgn_status_message(st));
        }
        r->aborted = 1;
    }
}

static int run_all(cli_run *r, cli_step *s) {
    if (r->query && pgn_query_filter_new(&s->where, r->query, NULL) != PGN_OK) {
        cli_error(NULL, "out of memory");
        r->aborted = 1;
    }
    for (int i = 0; i < r->nfiles && !r->aborted && !r->stopped; i++) {
        cli_input in;
        if (cli_input_open(&in, r->files[i], 0) != EXIT_OK ||
            ((r->ropts.range_start || r->ropts.range_end) &&
             cli_input_range(&in, &r->ropts) != EXIT_OK)) {
            cli_input_close(&in);
            cli_run_worst(r, EXIT_RESOURCE);
            continue;
        }
        const char *arc = pgn_source_archive(in.src);
        if (arc != NULL && r->no_archives != NULL) {
            cli_error(pgn_source_outer_name(in.src), "%s is %s", r->no_archives, arc);
            cli_input_close(&in);
            cli_run_worst(r, EXIT_RESOURCE);
            continue;
        }
        int more = 1; /* an archive's members, one after another */
        while (more > 0 && !r->aborted && !r->stopped) {
            run_input(r, s, &in);
            more = r->aborted || r->stopped ? 0 : cli_input_next(&in);
        }
        if (more < 0) {
            cli_run_worst(r, EXIT_RESOURCE);
        }
        cli_input_close(&in);
    }
    pgn_query_filter_free(s->where);
    s->where = NULL;
    if (r->aborted) {
        cli_run_worst(r, EXIT_RESOURCE);
    }
    return r->status;
}

int cli_run_games(cli_run *r, cli_each_fn fn, void *user) {
    cli_step s = {NULL, NULL, NULL, NULL, fn, user, 0, NULL, NULL, NULL};
    if (pgn_game_new(&s.game, NULL) != PGN_OK) {
        cli_error(NULL, "out of memory");
        r->aborted = 1;
        cli_run_worst(r, EXIT_RESOURCE);
        return r->status;
    }
    run_all(r, &s);
    pgn_game_free(s.game);
    return r->status;
}

int cli_run_visit(cli_run *r, const pgn_visitor *v, void *vuser, cli_each_fn fn, void *user) {
    cli_step s = {NULL, NULL, v, vuser, fn, user, 0, NULL, NULL, NULL};
    return run_all(r, &s);
}
/* JSON input: the reader's detail goes with each diagnostic. */
typedef struct json_diag_ctx {
    cli_run *r;
    const pgn_json_reader *jr;
} json_diag_ctx;

static void json_diag(void *ctx, const pgn_diag *d) {
    json_diag_ctx *j = ctx;
    cli_print_diag_detail(d, j->r->quiet, j->jr ? pgn_json_reader_detail(j->jr) : NULL);
}

/* Reads the games of one JSON input; the status that ended it. */
static pgn_status json_input(cli_run *r, cli_input *in, pgn_game *game, cli_each_fn fn,
                             void *user) {
    json_diag_ctx dc = {r, NULL};
    pgn_json_reader_opts o;
    pgn_json_reader *jr;
    memset(&o, 0, sizeof o);
    o.source_name = in->name;
    o.on_diag = json_diag;
    o.diag_ctx = &dc;
    if (pgn_json_reader_new(&jr, &o, in->read, in->ctx) != PGN_OK) {
        return PGN_E_NOMEM;
    }
    dc.jr = jr;
    pgn_game_summary sum;
    pgn_status st;
    uint64_t n = 0, games, errors;
    while ((st = pgn_json_reader_next(jr, game)) != PGN_END) {
        if (st == PGN_E_NOMEM || st == PGN_E_IO) {
            break;
        }
        memset(&sum, 0, sizeof sum);
        sum.game = ++n;
        sum.broken = st != PGN_OK;
        sum.errors = st != PGN_OK;
        cli_game g = {st == PGN_OK ? game : NULL,
                      &sum,
                      {NULL, 0},
                      in,
                      r->games + n,
                      {NULL, 0},
                      0,
                      {NULL, 0},
                      {NULL, 0}};
        if ((st = fn(r, user, &g)) != PGN_OK) {
            r->aborted = 1;
            break;
        }
    }
    pgn_json_reader_totals(jr, &games, &errors);
    r->games += games > n ? games : n; /* a syntax error ends the input: a refused game too */
    r->errors += errors;
    pgn_json_reader_free(jr);
    return st == PGN_E_NOMEM || st == PGN_E_IO || r->aborted ? st : PGN_END;
}

int cli_run_json(cli_run *r, cli_each_fn fn, void *user) {
    pgn_game *game;
    if (pgn_game_new(&game, NULL) != PGN_OK) {
        cli_error(NULL, "out of memory");
        r->aborted = 1;
        cli_run_worst(r, EXIT_RESOURCE);
        return r->status;
    }
    for (int i = 0; i < r->nfiles && !r->aborted; i++) {
        cli_input in;
        if (cli_input_open(&in, r->files[i], 1) != EXIT_OK) {
            cli_run_worst(r, EXIT_RESOURCE);
            continue;
        }
        int more = 1; /* an archive's members, one after another */
        while (more > 0 && !r->aborted) {
            pgn_status st = json_input(r, &in, game, fn, user);
            const char *why = cli_input_error(&in);
            if (st == PGN_E_IO && !r->aborted) {
                cli_error(in.name, "%s", why ? why : pgn_status_message(st));
                cli_run_worst(r, EXIT_RESOURCE);
            } else if (st != PGN_END) {
                if (st != PGN_E_IO) {
                    cli_error(in.name, "%s", pgn_status_message(st));
                }
                r->aborted = 1;
                cli_run_worst(r, EXIT_RESOURCE);
            }
            more = r->aborted ? 0 : cli_input_next(&in);
        }
        if (more < 0) {
            cli_run_worst(r, EXIT_RESOURCE);
        }
        cli_input_close(&in);
    }
    pgn_game_free(game);
    return r->status;
}
