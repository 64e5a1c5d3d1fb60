/* SPDX-License-Identifier: MIT */
/* The UCI engine process of the library (engine.h: pgn_engine_*), driven against the scripted
 * engine of pgnkit analyze's tests (tests/tools/fake_engine, named by FAKE_ENGINE, which make
 * check sets; unset is a failure, never a skip): the handshake and the engine's name, a search's
 * result as the script computes it (material, first legal move), the messages of an engine that
 * is missing, not UCI, crashes, hangs or answers only to "stop", a variant the engine does not
 * list, a restart, a search retried on a restarted engine, and a write to a killed engine, which
 * must not raise SIGPIPE in the caller. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <pgnkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *fake;

static pgn_engine *started(const char *mode, int timeout_ms, char *err, size_t cap, pgn_status *st,
                           pgn_engine_config *c) {
    setenv("FAKE_ENGINE_MODE", mode, 1); /* the child inherits it */
    memset(c, 0, sizeof *c);
    c->path = fake;
    c->limit_kind = PGN_LIMIT_NODES;
    c->limit = 1;
    c->timeout_ms = timeout_ms;
    c->handshake_ms = 2000;
    pgn_engine *e = NULL;
    CHECK_EQ_INT(pgn_engine_new(&e, c, NULL), PGN_OK);
    *st = e ? pgn_engine_start(e, err, cap) : PGN_E_NOMEM;
    return e;
}

/* One search of the standard start: its status, the result in *res. */
static pgn_status search_start(pgn_engine *e, pgn_search *s, pgn_position_analysis *res, char *err,
                               size_t cap, char *warn, size_t wcap) {
    pgn_pos start;
    pgn_pos_init(&start);
    pgn_search_begin(s, &start);
    pgn_status st =
        pgn_engine_search(e, "position startpos", "go nodes 1", s, err, cap, warn, wcap);
    pgn_search_result(s, res, NULL, 0);
    return st;
}

static void test_normal(pgn_search *s) {
    char err[256] = "", warn[320] = "";
    pgn_engine_config c;
    pgn_status st;
    pgn_engine *e = started("normal", 0, err, sizeof err, &st, &c);
    CHECK_EQ_INT(st, PGN_OK);
    CHECK_EQ_STR(pgn_engine_name(e), "FakeEngine 1.0");
    CHECK_EQ_INT(pgn_engine_running(e), 1);
    pgn_pos start;
    pgn_pos_init(&start);
    CHECK_EQ_INT(pgn_engine_new_game(e, &start, err, sizeof err), PGN_OK);
    pgn_position_analysis res;
    CHECK_EQ_INT(search_start(e, s, &res, err, sizeof err, warn, sizeof warn), PGN_OK);
    CHECK_EQ_STR(warn, "");
    /* the script: the material balance (0), its best move the first legal one */
    CHECK_EQ_INT(res.eval.kind, PGN_SCORE_CP);
    CHECK_EQ_INT(res.eval.value, 0);
    CHECK(res.pv_len >= 1);
    pgn_movelist ml;
    pgn_pos_legal_moves(&start, &ml);
    CHECK(res.pv_len >= 1 && ml.count > 0 && res.pv[0] == ml.moves[0]);
    /* a crazyhouse game: the script lists no UCI_Variant */
    pgn_pos zh;
    pgn_pos_init_variant(&zh, PGN_VARIANT_CRAZYHOUSE);
    CHECK_EQ_INT(pgn_engine_check_game(e, &zh, err, sizeof err), PGN_E_UNSUPPORTED_VARIANT);
    CHECK_EQ_STR(err, "a Crazyhouse game, and the engine 'FakeEngine 1.0' does not list "
                      "'crazyhouse' in its UCI_Variant option");
    CHECK_EQ_INT(pgn_engine_new_game(e, &zh, err, sizeof err), PGN_E_UNSUPPORTED_VARIANT);
    CHECK_EQ_INT(pgn_engine_running(e), 1); /* a refusal leaves the engine alone */
    /* killed (as from another thread): the next search writes to a dead pipe, which must be an
     * error return, not a SIGPIPE that ends this process */
    pgn_engine_kill(e);
    const struct timespec gone = {0, 200 * 1000000}; /* its pipes closed by then */
    nanosleep(&gone, NULL);
    CHECK_EQ_INT(search_start(e, s, &res, err, sizeof err, warn, sizeof warn), PGN_E_IO);
    CHECK_EQ_STR(err, "engine closed its input");
    CHECK_EQ_INT(pgn_engine_running(e), 0);
    CHECK_EQ_INT(search_start(e, s, &res, err, sizeof err, warn, sizeof warn), PGN_E_IO);
    CHECK_EQ_STR(err, "engine not running");
    /* pgn_engine_new_game starts a stopped engine anew */
    CHECK_EQ_INT(pgn_engine_new_game(e, &start, err, sizeof err), PGN_OK);
    CHECK_EQ_INT(pgn_engine_running(e), 1);
    CHECK_EQ_INT(search_start(e, s, &res, err, sizeof err, warn, sizeof warn), PGN_OK);
    pgn_engine_stop(e);
    CHECK_EQ_INT(pgn_engine_running(e), 0);
    pgn_engine_stop(e); /* stopped already: nothing */
    pgn_engine_free(e);
}

static void test_failures(pgn_search *s) {
    char err[256] = "", warn[320] = "";
    pgn_engine_config c;
    pgn_status st;
    pgn_position_analysis res;
    pgn_pos start;
    pgn_pos_init(&start);

    pgn_engine *e = started("crash", 0, err, sizeof err, &st, &c);
    CHECK_EQ_INT(st, PGN_OK);
    CHECK_EQ_INT(search_start(e, s, &res, err, sizeof err, warn, sizeof warn), PGN_E_IO);
    CHECK_EQ_STR(err, "engine exited during the search");
    CHECK_EQ_INT(pgn_engine_running(e), 0);
    setenv("FAKE_ENGINE_MODE", "normal", 1);
    CHECK_EQ_INT(pgn_engine_restart(e, &start, err, sizeof err), PGN_OK);
    CHECK_EQ_INT(search_start(e, s, &res, err, sizeof err, warn, sizeof warn), PGN_OK);
    pgn_engine_free(e);

    e = started("slow", 300, err, sizeof err, &st, &c);
    CHECK_EQ_INT(st, PGN_OK);
    CHECK_EQ_INT(search_start(e, s, &res, err, sizeof err, warn, sizeof warn), PGN_OK);
    CHECK_EQ_STR(warn, "engine gave no result within 300 ms, sent 'stop'");
    pgn_engine_free(e);

    e = started("hang", 200, err, sizeof err, &st, &c);
    CHECK_EQ_INT(st, PGN_OK);
    CHECK_EQ_INT(search_start(e, s, &res, err, sizeof err, warn, sizeof warn), PGN_E_IO);
    CHECK_EQ_STR(err, "engine did not answer within 200 ms, nor to 'stop'");
    CHECK_EQ_INT(pgn_engine_running(e), 0);
    pgn_engine_free(e);

    e = started("notuci", 0, err, sizeof err, &st, &c);
    CHECK_EQ_INT(st, PGN_E_IO);
    char want[512];
    snprintf(want, sizeof want, "'%s' is not a UCI engine: no 'uciok' answer to 'uci' (timed out)",
             fake);
    CHECK_EQ_STR(err, want);
    CHECK_EQ_INT(pgn_engine_running(e), 0);
    pgn_engine_free(e);

    c.path = "/nonexistent/engine";
    CHECK_EQ_INT(pgn_engine_new(&e, &c, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_engine_start(e, err, sizeof err), PGN_E_IO);
    CHECK_EQ_STR(err, "cannot start engine '/nonexistent/engine': No such file or directory");
    CHECK_EQ_STR(pgn_engine_name(e), "");
    pgn_engine_free(e);
    pgn_engine_free(NULL);
}

/* pgn_engine_search_retry's reports: the failures it saw, and whether it gave up. */
typedef struct retry_log {
    int calls, retries, give_up;
    char last[256];
} retry_log;

static int on_failed(void *ctx, const pgn_search_request *req, const char *err, int retry) {
    retry_log *l = ctx;
    CHECK_EQ_INT((int)req->ply, 0);
    l->calls++;
    l->retries += retry;
    snprintf(l->last, sizeof l->last, "%s", err);
    return l->give_up;
}

/* pgn_engine_search_retry: a crash retried on a restarted engine (crash-once), every attempt
 * failing (crash), and a caller that gives up at the first failure. */
static void test_retry(pgn_search *s) {
    char err[256] = "", warn[320] = "", state[64];
    pgn_engine_config c;
    pgn_status st;
    pgn_pos start;
    pgn_pos_init(&start);
    const pgn_search_request req = {0, &start, NULL, &start, "position startpos", "go nodes 1"};
    snprintf(state, sizeof state, "/tmp/pgnkit_retry_%ld", (long)getpid());
    remove(state);
    setenv("FAKE_ENGINE_STATE", state, 1);
    retry_log l = {0};
    pgn_search_retry retry = {1, on_failed, &l};
    pgn_engine *e = started("crash-once", 0, err, sizeof err, &st, &c);
    CHECK_EQ_INT(st, PGN_OK);
    pgn_search_begin(s, &start);
    CHECK_EQ_INT(pgn_engine_search_retry(e, &req, s, &retry, err, sizeof err, warn, sizeof warn),
                 PGN_OK);
    CHECK_EQ_INT(l.calls, 1);
    CHECK_EQ_INT(l.retries, 1);
    CHECK_EQ_STR(l.last, "engine exited during the search");
    pgn_position_analysis res;
    pgn_search_result(s, &res, NULL, 0);
    CHECK_EQ_INT(res.eval.kind, PGN_SCORE_CP); /* the second engine's result */
    pgn_engine_free(e);
    remove(state);

    l = (retry_log){0};
    e = started("crash", 0, err, sizeof err, &st, &c);
    pgn_search_begin(s, &start);
    CHECK_EQ_INT(pgn_engine_search_retry(e, &req, s, &retry, err, sizeof err, warn, sizeof warn),
                 PGN_E_IO);
    CHECK_EQ_INT(l.calls, 2); /* the first failure retried, the second not */
    CHECK_EQ_INT(l.retries, 1);
    CHECK_EQ_STR(err, "engine exited during the search");
    l = (retry_log){0, 0, 1, ""};
    pgn_search_begin(s, &start);
    CHECK_EQ_INT(pgn_engine_search_retry(e, &req, s, &retry, err, sizeof err, warn, sizeof warn),
                 PGN_E_IO);
    CHECK_EQ_INT(l.calls, 1); /* given up: no restart */
    CHECK_EQ_INT(pgn_engine_running(e), 0);
    CHECK_EQ_INT(pgn_engine_search_retry(e, &req, s, NULL, err, sizeof err, warn, sizeof warn),
                 PGN_E_IO); /* no retry: the stopped engine is not started */
    CHECK_EQ_STR(err, "engine not running");
    pgn_engine_free(e);
}

int main(void) {
    fake = getenv("FAKE_ENGINE");
    CHECK(fake != NULL && fake[0] != 0); /* make check sets it: a missing engine fails */
    pgn_search *s = NULL;
    CHECK_EQ_INT(pgn_search_new(&s, NULL, 1), PGN_OK);
    if (fake && fake[0] && s) {
        test_normal(s);
        test_failures(s);
        test_retry(s);
    }
    pgn_search_free(s);
    return harness_finish();
}
