/* SPDX-License-Identifier: MIT */
/* pgnkit analyze: one game analysed on a worker's engine: the engine callbacks of
 * pgn_game_analyze (a new game, one search retried once on a restarted engine, the progress), the
 * game's text read again and the annotated game written to the worker's buffer; the messages and
 * the progress line, which every thread shares (under err_mu). */
#define _POSIX_C_SOURCE 200809L
#include "analyze.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Clears a progress line left on the terminal, so that the next message starts a line of its
 * own. Under err_mu. */
static void clear_progress(shared *s) {
    if (s->progress_shown) {
        fputs("\r\033[K", stderr);
        s->progress_shown = 0;
    }
}

void analyze_say(shared *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&s->err_mu);
    clear_progress(s);
    if (cli_diag_json()) { /* --diag json: one JSON object per line, the prefix left to it */
        char msg[1024];
        vsnprintf(msg, sizeof msg, fmt, ap);
        const char *m = strncmp(msg, "pgnkit analyze: ", 16) == 0 ? msg + 16 : msg;
        size_t n = strlen(m);
        cli_error(NULL, "%.*s", (int)(n > 0 && m[n - 1] == '\n' ? n - 1 : n), m);
    } else {
        vfprintf(stderr, fmt, ap);
    }
    pthread_mutex_unlock(&s->err_mu);
    va_end(ap);
}

void analyze_diag(void *ctx, const pgn_diag *d) {
    shared *s = ctx;
    pthread_mutex_lock(&s->err_mu);
    clear_progress(s);
    cli_print_diag_detail(d, s->run->quiet, NULL);
    pthread_mutex_unlock(&s->err_mu);
}

int64_t analyze_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void analyze_progress(shared *s, int final) {
    int64_t t = analyze_now_ms();
    if (!s->progress || (!final && t - s->last_progress < 250)) {
        return;
    }
    s->last_progress = t;
    double secs = (double)(t - s->t0) / 1000.0;
    char eta[48] = "";
    double done = (double)s->finished_bytes;
    if (!final && s->total_bytes > 0 && done > 0 && secs > 1) {
        double left = secs * ((double)s->total_bytes - done) / done;
        left = left < 0 ? 0 : left;
        snprintf(eta, sizeof eta, ", ETA %dm%02ds", (int)(left / 60), (int)left % 60);
    }
    pthread_mutex_lock(&s->err_mu);
    fprintf(stderr, "\rpgnkit analyze: %llu games, %llu positions, %.1f positions/s%s   %s",
            (unsigned long long)s->analysed, (unsigned long long)s->positions,
            secs > 0 ? (double)s->positions / secs : 0.0, eta, final ? "\n" : "");
    s->progress_shown = !final;
    pthread_mutex_unlock(&s->err_mu);
}

/* pgn_engine_callbacks.new_game: the running engine told, or a new one started
 * (pgn_engine_new_game). */
static pgn_status on_new_game(void *ctx, int chess960) {
    worker *w = ctx;
    (void)chess960; /* the game's start says it */
    if (pgn_engine_new_game(w->eng, pgn_game_start(w->game), w->err, sizeof w->err) != PGN_OK) {
        w->new_game_failed = 1;
        return PGN_E_IO;
    }
    return PGN_OK;
}

/* pgn_engine_search_retry's report of a failed search. */
static int on_failed(void *ctx, const pgn_search_request *req, const char *err, int retry) {
    worker *w = ctx;
    analyze_say(w->s, "pgnkit analyze: %s: game %llu, ply %zu: %s%s\n", w->src,
                (unsigned long long)w->game_no, req->ply, err,
                retry ? "; restarting the engine" : "");
    return 0;
}

/* pgn_engine_callbacks.search: one position, retried once on a restarted engine. */
static pgn_status on_search(void *ctx, const pgn_search_request *req, pgn_search *search) {
    worker *w = ctx;
    char warn[320];
    const pgn_search_retry retry = {1, on_failed, w};
    pgn_status st = pgn_engine_search_retry(w->eng, req, search, &retry, w->err, sizeof w->err,
                                            warn, sizeof warn);
    if (st == PGN_OK && warn[0]) {
        analyze_say(w->s, "pgnkit analyze: %s: warning: game %llu, ply %zu: %s (dropped)\n", w->src,
                    (unsigned long long)w->game_no, req->ply, warn);
    }
    return st == PGN_OK ? PGN_OK : PGN_E_IO;
}

/* pgn_engine_callbacks.position_done: the progress line. */
static void on_position_done(void *ctx, size_t ply) {
    (void)ply;
    shared *s = ((worker *)ctx)->s;
    pthread_mutex_lock(&s->mu);
    s->positions++;
    analyze_progress(s, 0);
    pthread_mutex_unlock(&s->mu);
}

/* Returns 0 analysed, 1 not analysed (reported), -1 out of memory. */
static int analyze_game(worker *w) {
    const shared *s = w->s;
    static const pgn_engine_callbacks engine_cbs = {on_new_game, on_search, on_position_done};
    pgn_analyze_opts opts = {s->cfg->limit_kind,
                             s->cfg->limit,
                             s->cfg->multipv,
                             s->replace ? PGN_ANNOTATE_REPLACE : 0u,
                             0,
                             pgn_engine_name(w->eng),
                             NULL};
    w->new_game_failed = 0;
    const char *src = w->src;
    unsigned long long no = (unsigned long long)w->game_no;
    if (pgn_engine_check_game(w->eng, pgn_game_start(w->game), w->err, sizeof w->err) != PGN_OK) {
        analyze_say(w->s, "pgnkit analyze: %s: game %llu not analysed: %s\n", src, no, w->err);
        return 1;
    }
    pgn_status st = pgn_game_analyze(w->game, &engine_cbs, w, &opts, NULL);
    switch (st) {
    case PGN_OK: return 0;
    case PGN_E_NOMEM: return -1;
    case PGN_E_ILLEGAL_MOVE:
        analyze_say(w->s, "pgnkit analyze: %s: game %llu not analysed: a null move\n", src, no);
        return 1;
    default:
        if (w->new_game_failed) {
            analyze_say(w->s, "pgnkit analyze: %s: game %llu not analysed: %s\n", src, no, w->err);
        } else {
            analyze_say(w->s, "pgnkit analyze: %s: game %llu not analysed\n", src, no);
        }
        return 1;
    }
}

/* The game's text read again into w->game (its diagnostics were printed by the reader). */
static pgn_status parse_taken(worker *w) {
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = w->s->run->ropts.flags & PGN_READ_STRICT;
    ro.encoding = w->s->run->ropts.encoding;
    pgn_reader *rd;
    pgn_status st = pgn_reader_new_mem(&rd, &ro, w->raw.ptr, w->raw.len);
    if (st == PGN_OK) {
        st = pgn_reader_next(rd, w->game);
        pgn_reader_free(rd);
    }
    return st;
}

int analyze_taken(worker *w) {
    pgn_status st = parse_taken(w);
    w->out.len = 0;
    if (st != PGN_OK) { /* cannot happen: the reader read it; kept as it was */
        return st == PGN_E_NOMEM || pgn_membuf_write(&w->out, w->raw.ptr, w->raw.len) < 0 ? -1 : 1;
    }
    int rc = analyze_game(w);
    w->out.len = 0;
    return rc >= 0 && pgn_writer_write(w->writer, w->game) != PGN_OK ? -1 : rc;
}
