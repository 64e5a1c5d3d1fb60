/* SPDX-License-Identifier: MIT */
/* The UCI dialogue with an engine (engine.h: pgn_engine_*): the uci/uciok handshake and its
 * options, a new game, and one search under its deadline (stop, then a grace period); a dead or
 * silent engine is killed and reported, never waited for forever. The process and its pipes are in
 * uci_process.c. */
#define _GNU_SOURCE /* strncasecmp */
#include "../base/alloc.h"
#include "../base/errtext.h"
#include "uci_engine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The rest of UCI_Variant's line ("type combo default chess var 3check var ..."): the line is
 * NUL-terminated in place (pgnk_engine_read_line) and m->text points into it. */
static void note_variants(pgn_engine *e, const pgn_uci_msg *m) {
    const char *rest = m->text.ptr + m->text.len;
    snprintf(e->variants, sizeof e->variants, "%s ", rest);
    for (char *c = e->variants; *c; c++) {
        *c = *c == '\t' || *c == '\r' ? ' ' : *c;
    }
}

pgn_status pgn_engine_check_game(const pgn_engine *e, const pgn_pos *start, char *err,
                                 size_t errcap) {
    pgn_variant v = (pgn_variant)start->variant;
    if (start->kingless) {
        snprintf(err, errcap, "a position without a king, which a UCI engine cannot search");
        return PGN_E_UNSUPPORTED_VARIANT;
    }
    const char *name = pgn_variant_uci_name(v);
    char want[40];
    snprintf(want, sizeof want, " var %s ", name);
    if (v == PGN_VARIANT_STANDARD || strstr(e->variants, want) != NULL) {
        return PGN_OK;
    }
    snprintf(err, errcap,
             "a %s game, and the engine '%s' does not list '%s' in its UCI_Variant option",
             pgn_variant_name(v), e->name, name);
    return PGN_E_UNSUPPORTED_VARIANT;
}

/* UCI_Variant set to name if it changes. Returns 0 or -1 (dead). */
static int set_variant(pgn_engine *e, const char *name) {
    if (strcmp(e->variant, name) == 0 || (!e->variant[0] && strcmp(name, "chess") == 0)) {
        return 0;
    }
    snprintf(e->variant, sizeof e->variant, "%s", name);
    return pgnk_engine_send_line(e, "setoption name UCI_Variant value %s", name);
}

static void note_option(pgn_engine *e, const pgn_uci_msg *m) {
    static const char *const names[] = {"UCI_Chess960", "Threads", "Hash", "MultiPV"};
    if (m->text.len == 11 && strncasecmp(m->text.ptr, "UCI_Variant", 11) == 0) {
        note_variants(e, m);
    }
    int *flags[] = {&e->has_chess960, &e->has_threads, &e->has_hash, &e->has_multipv};
    for (int i = 0; i < 4; i++) {
        if (m->text.len == strlen(names[i]) &&
            strncasecmp(m->text.ptr, names[i], m->text.len) == 0) {
            *flags[i] = 1;
        }
    }
}

/* The engine's name and options, from its answers to 'uci' (a wait_for callback). */
static void note_id(pgn_engine *e, const pgn_uci_msg *m) {
    if (m->kind == PGN_UCI_ID_NAME) {
        size_t n = m->text.len < sizeof e->name - 1 ? m->text.len : sizeof e->name - 1;
        memcpy(e->name, m->text.ptr, n);
        e->name[n] = 0;
    } else if (m->kind == PGN_UCI_OPTION) {
        note_option(e, m);
    }
}

/* Reads lines until one of kind want (1), the deadline (0) or the engine's end (-1); each other
 * line goes to seen (may be NULL). */
static int wait_for(pgn_engine *e, pgn_uci_kind want, int timeout_ms,
                    void (*seen)(pgn_engine *, const pgn_uci_msg *)) {
    int64_t deadline = pgnk_engine_now_ms() + timeout_ms;
    char *line;
    size_t len;
    int r;
    while ((r = pgnk_engine_read_line(e, deadline, &line, &len)) == 1) {
        pgn_uci_msg m;
        pgn_uci_parse_line(NULL, line, len, &m);
        if (m.kind == want) {
            return 1;
        }
        if (seen) {
            seen(e, &m);
        }
    }
    return r;
}

static int handshake(pgn_engine *e, char *err, size_t errcap) {
    const char *shown = e->cfg.path ? e->cfg.path : "stockfish";
    if (pgnk_engine_send_line(e, "uci") != 0) {
        pgnk_engine_fail(e, err, errcap, "'%s' is not a UCI engine: it closed its input at 'uci'",
                         shown);
        return -1;
    }
    int r = wait_for(e, PGN_UCI_UCIOK, e->cfg.handshake_ms, note_id);
    if (r != 1) {
        pgnk_engine_fail(e, err, errcap,
                         "'%s' is not a UCI engine: no 'uciok' answer to 'uci' (%s)", shown,
                         r == 0 ? "timed out" : "it exited");
        return -1;
    }
    if (!e->name[0]) {
        snprintf(e->name, sizeof e->name, "%s", shown);
    }
    int ok = 0;
    if (e->has_threads && e->cfg.threads) {
        ok |= pgnk_engine_send_line(e, "setoption name Threads value %u", e->cfg.threads);
    }
    if (e->has_hash && e->cfg.hash_mb) {
        ok |= pgnk_engine_send_line(e, "setoption name Hash value %u", e->cfg.hash_mb);
    }
    if (e->has_multipv && e->cfg.multipv > 1) {
        ok |= pgnk_engine_send_line(e, "setoption name MultiPV value %u", e->cfg.multipv);
    }
    ok |= pgnk_engine_send_line(e, "isready");
    if (ok != 0 || wait_for(e, PGN_UCI_READYOK, e->cfg.handshake_ms, NULL) != 1) {
        pgnk_engine_fail(e, err, errcap, "engine '%s' did not answer 'isready'", shown);
        return -1;
    }
    return 0;
}

pgn_status pgn_engine_new(pgn_engine **out, const pgn_engine_config *cfg,
                          const pgn_allocator *alloc) {
    pgn_status st;
    *out = NULL;
    pgn_engine *e = pgnk_alloc_object(alloc, sizeof *e, &st);
    if (e == NULL) {
        return st;
    }
    memset(e, 0, sizeof *e);
    pgnk_alloc_copy(&e->alloc, alloc);
    e->cfg = *cfg;
    *out = e;
    return PGN_OK;
}

void pgn_engine_free(pgn_engine *e) {
    if (e != NULL) {
        pgn_engine_stop(e);
        pgn_allocator a = e->alloc;
        pgnk_free(&a, e);
    }
}

const char *pgn_engine_name(const pgn_engine *e) {
    return e->name;
}

pgn_status pgn_engine_start(pgn_engine *e, char *err, size_t errcap) {
    pgn_engine_stop(e);
    pgn_allocator alloc = e->alloc;
    pgn_engine_config cfg = e->cfg;
    memset(e, 0, sizeof *e);
    e->alloc = alloc;
    e->cfg = cfg;
    int en = 0;
    int rc = pgnk_engine_spawn(e, cfg.path ? cfg.path : "stockfish", &en);
    if (rc != 0 && !cfg.path && en == ENOENT) {
        rc = pgnk_engine_spawn(e, "/usr/games/stockfish", &en);
    }
    if (rc != 0) {
        char e_text[64];
        snprintf(err, errcap, "cannot start engine '%s': %s%s", cfg.path ? cfg.path : "stockfish",
                 pgnk_errno_text(en, e_text),
                 cfg.path ? "" : " (install Debian's stockfish or give --engine PATH)");
        return PGN_E_IO;
    }
    return handshake(e, err, errcap) == 0 ? PGN_OK : PGN_E_IO;
}

/* Tells the running engine a game from start begins: UCI_Variant, UCI_Chess960 if it changes,
 * ucinewgame, isready. Returns 0 or -1 (the engine failed and is stopped). */
static int tell_new_game(pgn_engine *e, const pgn_pos *start, char *err, size_t errcap) {
    if (set_variant(e, pgn_variant_uci_name((pgn_variant)start->variant)) != 0) {
        snprintf(err, errcap, "engine closed its input at setoption UCI_Variant");
        return -1;
    }
    int bad = 0;
    int chess960 = start->chess960 != 0;
    if (e->has_chess960 && chess960 != e->chess960) {
        bad |= pgnk_engine_send_line(e, "setoption name UCI_Chess960 value %s",
                                     chess960 ? "true" : "false");
        e->chess960 = chess960;
    }
    bad |= pgnk_engine_send_line(e, "ucinewgame");
    bad |= pgnk_engine_send_line(e, "isready");
    if (bad || wait_for(e, PGN_UCI_READYOK, e->cfg.handshake_ms, NULL) != 1) {
        pgnk_engine_fail(e, err, errcap, "engine did not answer 'isready' before a new game");
        return -1;
    }
    return 0;
}

pgn_status pgn_engine_restart(pgn_engine *e, const pgn_pos *start, char *err, size_t errcap) {
    if (pgn_engine_start(e, err, errcap) != PGN_OK) {
        return PGN_E_IO;
    }
    pgn_status st = pgn_engine_check_game(e, start, err, errcap);
    if (st != PGN_OK) {
        return st;
    }
    return tell_new_game(e, start, err, errcap) == 0 ? PGN_OK : PGN_E_IO;
}

pgn_status pgn_engine_new_game(pgn_engine *e, const pgn_pos *start, char *err, size_t errcap) {
    if (e->pid > 0 || e->name[0]) { /* else the engine's variants are not known yet */
        pgn_status st = pgn_engine_check_game(e, start, err, errcap);
        if (st != PGN_OK) {
            return st;
        }
    }
    if (e->pid > 0 && tell_new_game(e, start, err, errcap) == 0) {
        return PGN_OK;
    }
    return pgn_engine_restart(e, start, err, errcap);
}

static int search_timeout(const pgn_engine_config *c) {
    if (c->timeout_ms > 0) {
        return c->timeout_ms;
    }
    switch (c->limit_kind) {
    case PGN_LIMIT_NODES: return 10000 + (int)(c->limit / 50 > 3600000 ? 3600000 : c->limit / 50);
    case PGN_LIMIT_MOVETIME: return 10000 + (int)(c->limit > 3600000 ? 7200000 : 2 * c->limit);
    default: return 600000;
    }
}

#define STOP_GRACE_MS 1000

/* Adds one warning of each kind (what) per search to warn; st PGN_OK: no move involved. */
static void note(char *warn, size_t cap, const char *what, const char *bad, pgn_status st) {
    size_t have = strlen(warn);
    if (strstr(warn, what) != NULL || have + 1 >= cap) {
        return;
    }
    if (st == PGN_OK) {
        snprintf(warn + have, cap - have, "%sengine gave %s", have ? "; " : "", what);
    } else {
        snprintf(warn + have, cap - have, "%sengine gave %s '%s' [%s]", have ? "; " : "", what, bad,
                 pgn_status_name(st));
    }
}

/* Gives the engine's output to search until bestmove, under the deadline of the limit; past it,
 * "stop" and STOP_GRACE_MS more. Returns 1 at bestmove, 0 past both deadlines, -1 when the engine
 * died. */
static int read_search(pgn_engine *e, pgn_search *search, char *warn, size_t warncap) {
    int64_t deadline = pgnk_engine_now_ms() + search_timeout(&e->cfg);
    int stopped = 0;
    char *line;
    size_t len;
    int r;
    for (;;) {
        r = pgnk_engine_read_line(e, deadline, &line, &len);
        if (r == 0 && !stopped) {
            /* past the deadline: ask for the result so far, and give it a short grace period */
            stopped = 1;
            char what[64];
            snprintf(what, sizeof what, "no result within %d ms, sent 'stop'",
                     search_timeout(&e->cfg));
            if (!e->aborted) { /* aborted: the program stops, nothing is kept */
                note(warn, warncap, what, "", PGN_OK);
            }
            if (pgnk_engine_send_line(e, "stop") != 0) {
                return -1;
            }
            deadline = pgnk_engine_now_ms() + STOP_GRACE_MS;
            continue;
        }
        if (r != 1) {
            return r;
        }
        pgn_status fed = pgn_search_feed(search, line, len);
        for (size_t i = 0; i < pgn_search_warning_count(search); i++) {
            const pgn_search_warning *w = pgn_search_warning_at(search, i);
            note(warn, warncap, w->best_move ? "an illegal best move" : "an illegal pv move",
                 w->move, w->status);
        }
        if (fed == PGN_END) {
            return 1;
        }
    }
}

pgn_status pgn_engine_search(pgn_engine *e, const char *position, const char *go,
                             pgn_search *search, char *err, size_t errcap, char *warn,
                             size_t warncap) {
    warn[0] = 0;
    if (e->pid <= 0) {
        snprintf(err, errcap, "engine not running");
        return PGN_E_IO;
    }
    if (pgnk_engine_send_text(e, position, strlen(position)) != 0 ||
        pgnk_engine_send_text(e, "\n", 1) != 0 || pgnk_engine_send_line(e, "%s", go) != 0) {
        pgnk_engine_fail(e, err, errcap, "engine closed its input");
        return PGN_E_IO;
    }
    int r = read_search(e, search, warn, warncap);
    if (r != 1) {
        pgnk_engine_fail(e, err, errcap,
                         r == 0 ? "engine did not answer within %d ms, nor to 'stop'"
                                : "engine exited during the search",
                         search_timeout(&e->cfg));
        return PGN_E_IO;
    }
    pgn_position_analysis result;
    pgn_search_result(search, &result, NULL, 0);
    if (result.eval.kind == PGN_SCORE_NONE) {
        snprintf(err, errcap, "engine gave no score");
        return PGN_E_IO;
    }
    return PGN_OK;
}

pgn_status pgn_engine_search_retry(pgn_engine *e, const pgn_search_request *req, pgn_search *search,
                                   const pgn_search_retry *retry, char *err, size_t errcap,
                                   char *warn, size_t warncap) {
    unsigned retries = retry ? retry->retries : 0;
    for (unsigned attempt = 0;; attempt++) {
        if (attempt > 0) {
            pgn_status st = pgn_engine_restart(e, req->start, err, errcap);
            if (st != PGN_OK) {
                return st;
            }
            pgn_search_begin(search, req->pos);
        }
        if (pgn_engine_search(e, req->position, req->go, search, err, errcap, warn, warncap) ==
            PGN_OK) {
            return PGN_OK;
        }
        int again = attempt < retries;
        if ((retry && retry->failed && retry->failed(retry->ctx, req, err, again) != 0) || !again) {
            return PGN_E_IO;
        }
    }
}
