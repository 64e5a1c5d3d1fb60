/* SPDX-License-Identifier: MIT */
/* pgnkit analyze's threads and output: the reading thread pushes each game's text into the
 * library's ordered work queue (include/pgnkit/workq.h), the engine threads are its workers, and
 * the finished games are written in input order as the queue hands them back; the analysis of
 * one game, and the messages and progress line every thread shares, are in analyze_game.c. */
#define _POSIX_C_SOURCE 200809L
#include "analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A game in the queue, in one allocation: its text, then its input's name (the input, and its
 * name, is closed before the engines are done with its last games); a broken game is its own
 * output. */
typedef struct an_item {
    pgn_membuf out;
    size_t len;
    const char *src; /* the input's name, in text */
    uint64_t game_no;
    int broken;
    char text[];
} an_item;

/* The queue's work, on worker i's engine: the game analysed into its output. */
static pgn_status work(void *user, unsigned i, void *item) {
    shared *s = user;
    an_item *g = item;
    worker *w = &s->ws[i];
    int rc = 0;
    if (!g->broken) {
        w->raw.ptr = g->text;
        w->raw.len = g->len;
        w->src = g->src;
        w->game_no = g->game_no;
        rc = analyze_taken(w);
        g->out = w->out;
        memset(&w->out, 0, sizeof w->out);
    }
    pthread_mutex_lock(&s->mu);
    if (rc < 0) {
        analyze_say(s, "pgnkit analyze: out of memory\n");
    } else if (!g->broken) {
        *(rc == 0 ? &s->analysed : &s->not_analysed) += 1;
    }
    s->finished_bytes += g->len;
    pthread_mutex_unlock(&s->mu);
    return rc < 0 ? PGN_E_NOMEM : PGN_OK;
}

static void drop(void *user, void *item) {
    an_item *g = item;
    (void)user;
    free(g->out.ptr);
    free(g);
}

/* The queue's hand-back, in input order: the game's output written. */
static pgn_status done(void *user, void *item) {
    shared *s = user;
    an_item *g = item;
    const char *p = g->broken ? g->text : g->out.ptr;
    size_t n = g->broken ? g->len : g->out.len;
    int failed = n && fwrite(p, 1, n, s->out) != n;
    drop(s, g);
    return failed ? PGN_E_IO : PGN_OK;
}

/* The driver's callback, on the reading thread: the game's text queued for the engines (a broken
 * game too, to keep its place: it is written unchanged), waiting while the queue is full. */
static pgn_status queue_game(cli_run *r, void *user, const cli_game *g) {
    shared *s = user;
    (void)r;
    size_t name_len = strlen(g->input->name);
    an_item *it = malloc(sizeof *it + g->raw.len + name_len + 1);
    if (!it) {
        return PGN_E_NOMEM;
    }
    memset(&it->out, 0, sizeof it->out);
    it->len = g->raw.len;
    it->src = it->text + g->raw.len;
    it->game_no = g->summary->game;
    it->broken = g->summary->broken;
    memcpy(it->text, g->raw.ptr, g->raw.len);
    memcpy(it->text + g->raw.len, g->input->name, name_len + 1);
    if (pgn_workq_push(s->queue, it) != PGN_OK) { /* a failure the queue's threads reported */
        drop(s, it);
        return PGN_E_IO;
    }
    return PGN_OK;
}

void analyze_run(cli_run *r, shared *s, worker *ws, unsigned jobs) {
    const pgn_workq_opts o = {jobs, 4 * (size_t)jobs, work, done, drop, s};
    s->ws = ws;
    pgn_status st = pgn_workq_new(&s->queue, &o);
    if (st != PGN_OK) {
        cli_error(NULL, st == PGN_E_NOMEM ? "out of memory" : "cannot start a thread");
        r->aborted = 1;
        return;
    }
    cli_run_games(r, queue_game, s);
    if (r->aborted || pgn_workq_finish(s->queue) != PGN_OK) { /* aborted: the rest dropped */
        r->aborted = 1;
    }
    pgn_workq_free(s->queue);
    s->queue = NULL;
    analyze_progress(s, 1);
}
