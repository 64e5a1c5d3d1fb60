/* SPDX-License-Identifier: MIT */
/* pgnkit convert --to uci and --to fen: the main line streamed through the visitor API (no tree
 * is built), a game's text held until the game turns out whole; under -j each worker streams
 * with a convert state of its own. The other formats are in cmd_convert.c. */
#define _POSIX_C_SOURCE 200809L
#include "convert.h"
#include "parallel.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static pgn_flow on_begin(void *user, pgn_loc at) {
    convert *c = user;
    (void)at;
    c->depth = 0;
    c->moves = 0;
    c->buf.len = 0;
    return PGN_FLOW_CONTINUE;
}

static void put_text(convert *c, const char *s) {
    if (pgn_membuf_write(&c->buf, s, strlen(s)) < 0) {
        c->buf.len = SIZE_MAX; /* out of memory: noticed at the end of the game */
    }
}

static pgn_flow on_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    convert *c = user;
    (void)san;
    (void)at;
    if (c->depth || !before || c->buf.len == SIZE_MAX) {
        return PGN_FLOW_CONTINUE;
    }
    if (c->to == TO_UCI) {
        char uci[PGN_UCI_MAX + 1];
        uci[0] = ' ';
        pgn_uci_write(before, mv, uci + 1);
        put_text(c, c->moves ? uci : uci + 1);
    } else {
        pgn_pos after = *before;
        char fen[PGN_FEN_MAX + 1];
        pgn_pos_play(&after, mv);
        pgn_fen_write(&after, c->fen_flags, fen, sizeof fen - 1);
        put_text(c, fen);
        put_text(c, "\n");
    }
    c->moves++;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_begin_variation(void *user) {
    ((convert *)user)->depth++;
    return PGN_FLOW_SKIP;
}

static pgn_flow on_end_variation(void *user) {
    ((convert *)user)->depth--;
    return PGN_FLOW_CONTINUE;
}

/* -j N: each worker streams with a convert state of its own; its text comes back as the product. */
static void *stream_worker_new(void *user) {
    convert *w = malloc(sizeof *w);
    if (w) {
        *w = *(convert *)user;
        memset(&w->buf, 0, sizeof w->buf);
    }
    return w;
}

static void stream_worker_free(void *wuser) {
    free(((convert *)wuser)->buf.ptr);
    free(wuser);
}

static void *stream_worker_vuser(void *wuser) {
    return wuser;
}

static pgn_status stream_prepare(void *wuser, const pgn_par_game *g, pgn_membuf *out) {
    convert *w = wuser;
    if (w->buf.len == SIZE_MAX) {
        return PGN_E_NOMEM;
    }
    if (g->summary->broken && !w->keep_broken) {
        return PGN_OK;
    }
    put_text(w, "\n");
    return w->buf.len == SIZE_MAX || pgn_membuf_write(out, w->buf.ptr, w->buf.len) < 0 ? PGN_E_NOMEM
                                                                                       : PGN_OK;
}

static const pgn_par_hooks stream_hooks = {stream_worker_new, stream_worker_free,
                                           stream_worker_vuser, stream_prepare};

/* After each game: its text out, or the game rejected. */
static pgn_status stream_game(cli_run *r, void *user, const cli_game *g) {
    convert *c = user;
    pgn_str text;
    int made = cli_par_product(g, &text);
    if (!made && c->buf.len == SIZE_MAX) {
        return PGN_E_NOMEM;
    }
    if (g->summary->broken && !c->keep_broken) {
        return cli_run_reject(r, g);
    }
    if (made) {
        if (cli_output_write(&r->out, text.ptr, text.len) < 0) {
            return PGN_E_IO;
        }
        r->written++;
        return PGN_OK;
    }
    put_text(c, "\n");
    if (c->buf.len == SIZE_MAX) {
        return PGN_E_NOMEM;
    }
    if (cli_output_write(&r->out, c->buf.ptr, c->buf.len) < 0) {
        return PGN_E_IO;
    }
    r->written++;
    return PGN_OK;
}

void convert_stream(cli_run *r, convert *c) {
    pgn_visitor v = {on_begin,         NULL, NULL, on_move, NULL, NULL, on_begin_variation,
                     on_end_variation, NULL};
    r->par = &stream_hooks;
    cli_run_visit(r, &v, c, stream_game, c);
}
