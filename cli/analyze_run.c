/* SPDX-License-Identifier: MIT */
/* pgnkit analyze's threads and output: the reading thread queues each game's text in a ring, the
 * engine threads take them, and the finished games are written in input order; the analysis
 * of one game, and the messages and progress line every thread shares, are in analyze_game.c. */
#define _POSIX_C_SOURCE 200809L
#include "analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes every finished output that is next in input order. Under mu. */
static void flush_done(shared *s) {
    for (;;) {
        slot *next = &s->ring[s->next_write % s->ring_cap];
        if (next->state != SLOT_DONE) {
            break;
        }
        if (next->len && fwrite(next->buf, 1, next->len, s->out) != next->len) {
            s->fatal = 1;
        }
        free(next->buf);
        next->buf = NULL;
        next->state = SLOT_FREE;
        s->next_write++;
    }
    pthread_cond_broadcast(&s->cv);
}

/* Takes the next queued game into w (its text into w->raw); its sequence number, or UINT64_MAX
 * at the end of the input. Under mu. */
static uint64_t take(shared *s, worker *w) {
    for (;;) {
        while (!s->eof && !s->fatal && s->next_take == s->next_seq) {
            pthread_cond_wait(&s->cv, &s->mu);
        }
        if (s->fatal || s->next_take == s->next_seq) {
            return UINT64_MAX;
        }
        uint64_t seq = s->next_take++;
        slot *sl = &s->ring[seq % s->ring_cap];
        if (sl->state == SLOT_QUEUED) { /* a broken game is already SLOT_DONE */
            free(w->raw.p);
            w->raw.p = sl->buf;
            w->raw.len = w->raw.cap = sl->len;
            w->src = sl->src;
            w->game_no = sl->game_no;
            sl->buf = NULL;
            sl->state = SLOT_TAKEN;
            return seq;
        }
    }
}

static void *worker_main(void *arg) {
    worker *w = arg;
    shared *s = w->s;
    pthread_mutex_lock(&s->mu);
    for (uint64_t seq; (seq = take(s, w)) != UINT64_MAX;) {
        pthread_mutex_unlock(&s->mu);
        int rc = analyze_taken(w);
        pthread_mutex_lock(&s->mu);
        if (rc < 0) {
            analyze_say(s, "pgnkit analyze: out of memory\n");
            s->fatal = 1;
            pthread_cond_broadcast(&s->cv);
            break;
        }
        *(rc == 0 ? &s->analysed : &s->not_analysed) += 1;
        s->finished_bytes += w->raw.len;
        slot *sl = &s->ring[seq % s->ring_cap];
        sl->buf = w->out.p;
        sl->len = w->out.len;
        sl->state = SLOT_DONE;
        w->out.p = NULL;
        w->out.len = w->out.cap = 0;
        flush_done(s);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* The driver's callback, on the reading thread: the game's text queued for the engines (a broken
 * game straight to the output, unchanged), waiting while the ring is full. */
static pgn_status queue_game(cli_run *r, void *user, const cli_game *g) {
    shared *s = user;
    (void)r;
    /* the input's name after the text: the input (and its name) is closed before the engines
     * are done with its last games */
    size_t name_len = strlen(g->input->name);
    char *text = malloc(g->raw.len + name_len + 1);
    if (!text) {
        return PGN_E_NOMEM;
    }
    memcpy(text, g->raw.ptr, g->raw.len);
    memcpy(text + g->raw.len, g->input->name, name_len + 1);
    pthread_mutex_lock(&s->mu);
    while (!s->fatal && s->next_seq - s->next_write >= s->ring_cap) {
        pthread_cond_wait(&s->cv, &s->mu);
    }
    int fatal = s->fatal;
    if (!fatal) {
        slot *sl = &s->ring[s->next_seq++ % s->ring_cap];
        slot queued = {g->summary->broken ? SLOT_DONE : SLOT_QUEUED, text, g->raw.len,
                       text + g->raw.len, g->summary->game};
        *sl = queued;
        s->games++;
        s->finished_bytes += g->summary->broken ? g->raw.len : 0;
        flush_done(s);
    }
    pthread_mutex_unlock(&s->mu);
    if (fatal) {
        free(text);
    }
    return fatal ? PGN_E_IO : PGN_OK;
}

void analyze_run(cli_run *r, shared *s, worker *ws, unsigned jobs) {
    unsigned started = 0;
    for (; started < jobs; started++) {
        if (pthread_create(&ws[started].th, NULL, worker_main, &ws[started]) != 0) {
            break;
        }
    }
    if (started == 0) {
        cli_error(NULL, "cannot start a thread");
        r->aborted = 1;
        return;
    }
    cli_run_games(r, queue_game, s);
    pthread_mutex_lock(&s->mu);
    s->eof = 1;
    s->fatal |= r->aborted;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    for (unsigned i = 0; i < started; i++) {
        pthread_join(ws[i].th, NULL);
    }
    r->aborted |= s->fatal;
    analyze_progress(s, 1);
}
