/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe's files: the spill file of the keeper's line records, the workers of -j N,
 * --keep richest's spool of every game's text and its second pass, which writes the kept copies. */
#define _POSIX_C_SOURCE 200809L
#include "dedupe.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* pgn_dedupe_spill over s->spill. */
static int spill_write(void *ctx, const void *buf, size_t len) {
    dd_state *s = ctx;
    return fwrite(buf, 1, len, s->spill) == len ? 0 : -1;
}

static int spill_read(void *ctx, uint64_t offset, void *buf, size_t len) {
    dd_state *s = ctx;
    return fflush(s->spill) == 0 && pread(fileno(s->spill), buf, len, (off_t)offset) == (ssize_t)len
               ? 0
               : -1;
}

int dd_open(dd_state *s) {
    pgn_dedupe_keeper_opts o;
    memset(&o, 0, sizeof o);
    o.flags = s->flags | (s->richest ? PGN_DEDUPE_RICHEST : 0);
    o.spill.write = spill_write;
    o.spill.read = spill_read;
    o.spill.ctx = s;
    if (pgn_dedupe_keeper_new(&s->keep, &o) != PGN_OK ||
        pgn_dedupe_line_new(&s->line, s->flags, NULL) != PGN_OK ||
        (s->report && pgn_dedupe_report_new(&s->rep) != PGN_OK)) {
        cli_error(NULL, "out of memory");
        return 1;
    }
    if (!(s->spill = tmpfile()) || (s->richest && !(s->spool = tmpfile()))) {
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

/* A game in the spool: this header, then its raw bytes. */
typedef struct spooled {
    uint64_t ordinal, len;
    uint32_t broken;
} spooled;

pgn_status dd_spool(dd_state *s, const cli_game *g) {
    spooled h = {g->ordinal, g->raw.len, (uint32_t)g->summary->broken};
    if (fwrite(&h, sizeof h, 1, s->spool) != 1 ||
        fwrite(g->raw.ptr, 1, g->raw.len, s->spool) != g->raw.len) {
        return PGN_E_IO;
    }
    return PGN_OK;
}

/* The second pass of --keep richest, over the spool: the kept copies (and games with errors) to
 * the output, the others to --dupes. */
pgn_status dd_second_pass(dd_state *s) {
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
        int keep = h.broken || h.len > UINT32_MAX || pgn_dedupe_keeper_is_kept(s->keep, h.ordinal);
        st = cli_write_raw(keep ? s->out : s->dupes, text, (size_t)h.len);
    }
    free(text);
    return st == PGN_OK && ferror(s->spool) ? PGN_E_IO : st;
}
