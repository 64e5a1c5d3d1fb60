/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe's library objects: the temporary files (the keeper's spill store, --keep
 * richest's spool of every game's text: pgn_dedupe_files), the keeper, the line visitor's state
 * and the report; the workers of -j N; the second pass, which writes the kept copies. */
#define _POSIX_C_SOURCE 200809L
#include "dedupe.h"

#include <string.h>

int dd_open(dd_state *s) {
    pgn_dedupe_keeper_opts o;
    memset(&o, 0, sizeof o);
    o.flags = s->flags | (s->richest ? PGN_DEDUPE_RICHEST : 0);
    pgn_status st = pgn_dedupe_files_new(&s->files, NULL, s->richest, NULL, 0);
    if (st == PGN_OK) {
        o.spill = pgn_dedupe_files_spill(s->files);
    }
    if (st == PGN_E_NOMEM || pgn_dedupe_keeper_new(&s->keep, &o) != PGN_OK ||
        pgn_dedupe_line_new(&s->line, s->flags, NULL) != PGN_OK ||
        (s->report && pgn_dedupe_report_new(&s->rep) != PGN_OK)) {
        cli_error(NULL, "out of memory");
        return 1;
    }
    if (st != PGN_OK) {
        cli_error(NULL, "cannot create a temporary file");
        return 1;
    }
    return 0;
}

/* -j N: each worker reads the main lines with a pgn_dedupe_line of its own and sends each game's
 * key and record as its product; the keeper stays on the main thread, in input order. */
static void *worker_new(void *user) {
    pgn_dedupe_line *l = NULL;
    return pgn_dedupe_line_new(&l, ((dd_state *)user)->flags, NULL) == PGN_OK ? l : NULL;
}

static void worker_free(void *wuser) {
    pgn_dedupe_line_free(wuser);
}

static void *worker_vuser(void *wuser) {
    return wuser;
}

static pgn_status prepare(void *wuser, const pgn_par_game *g, pgn_membuf *out) {
    uint64_t key;
    pgn_str rec;
    if (g->summary->broken || g->raw.len > UINT32_MAX) {
        return PGN_OK; /* written as it is: no record */
    }
    pgn_status st = pgn_dedupe_line_finish(wuser, &key, &rec);
    if (st != PGN_OK) {
        return st;
    }
    return pgn_membuf_write(out, &key, sizeof key) < 0 ||
                   pgn_membuf_write(out, rec.ptr, rec.len) < 0
               ? PGN_E_NOMEM
               : PGN_OK;
}

const pgn_par_hooks *dd_line_hooks(void) {
    static const pgn_par_hooks h = {worker_new, worker_free, worker_vuser, prepare};
    return &h;
}

pgn_status dd_line_of(dd_state *s, const cli_game *g, uint64_t *key, pgn_str *record) {
    pgn_str p;
    if (!cli_par_product(g, &p)) {
        return pgn_dedupe_line_finish(s->line, key, record);
    }
    if (p.len < sizeof *key) {
        return PGN_E_NOMEM;
    }
    memcpy(key, p.ptr, sizeof *key);
    record->ptr = p.ptr + sizeof *key;
    record->len = p.len - sizeof *key;
    return PGN_OK;
}

/* The second pass of --keep richest: the kept copies (and games with errors) to the output, the
 * others to --dupes. */
static pgn_status put_back(void *ctx, int kept, pgn_str text) {
    dd_state *s = ctx;
    return cli_write_raw(kept ? s->out : s->dupes, text.ptr, text.len);
}

pgn_status dd_second_pass(dd_state *s) {
    return pgn_dedupe_files_replay(s->files, s->keep, put_back, s);
}
