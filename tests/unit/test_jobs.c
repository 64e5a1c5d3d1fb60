/* SPDX-License-Identifier: MIT */
/* The analysis queue (jobs.h: pgn_jobs_*, pgn_job_reader_*) on the scripted engine of pgnkit
 * analyze's tests (tests/tools/fake_engine, named by FAKE_ENGINE, which make check sets; unset is
 * a failure, never a skip): a job's events in order (state, a move per position searched, a game
 * per game, end) and its annotated PGN and viewer entries equal to those of pgn_game_analyze run
 * directly on a pgn_engine, as pgnkit analyze runs it; the caps (queue, table count, keep age,
 * bytes held), cancelling a queued and a running job, the job timeout and the idle cancel. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <pgnkit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *fake;

/* three games: the last ends in a mate, a position the rules decide (no search, no move event) */
static const char three[] = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
                            "[Event \"b\"]\n\n1. d4 d5 *\n\n"
                            "[Event \"c\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
static const char longer[] = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n";

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

static pgn_jobs_opts base_opts(const char *mode, int timeout_ms) {
    setenv("FAKE_ENGINE_MODE", mode, 1); /* the engines inherit it */
    pgn_jobs_opts o;
    memset(&o, 0, sizeof o);
    o.workers = 1;
    o.queue = 4;
    o.keep_s = 600;
    o.engine.path = fake;
    o.engine.limit_kind = PGN_LIMIT_NODES;
    o.engine.limit = 1;
    o.engine.timeout_ms = timeout_ms;
    o.engine.handshake_ms = 2000;
    o.names.queue = "--queue";
    o.names.results = "--max-results";
    o.names.job_time = "--job-timeout";
    return o;
}

static pgn_jobs *start(const pgn_jobs_opts *o) {
    char err[256] = "";
    pgn_jobs *j = NULL;
    CHECK_EQ_INT(pgn_jobs_new(&j, o, err, sizeof err), PGN_OK);
    CHECK_EQ_STR(err, "");
    return j;
}

/* Reads text as serve does (pgn_paste_read) and queues it: the status, the id in id. */
static pgn_status submit(pgn_jobs *j, const char *text, char id[33], char *err, size_t cap) {
    pgn_paste pa;
    pgn_paste_opts po;
    memset(&po, 0, sizeof po);
    CHECK_EQ_INT(pgn_paste_read(&pa, text, strlen(text), &po), PGN_OK);
    pgn_job_opts jo = {0, pa.games, pa.positions, PGN_LIMIT_NODES, 1};
    pgn_paste_free(&pa);
    err[0] = 0;
    return pgn_jobs_submit(j, text, strlen(text), &jo, id, err, cap);
}

/* The events a reader received, as "name json" lines. */
typedef struct seen {
    char lines[256][160];
    size_t n;
} seen;

static int collect(void *ctx, pgn_job_event ev, const char *json, size_t len) {
    seen *s = ctx;
    if (s->n < 256) {
        snprintf(s->lines[s->n++], sizeof s->lines[0], "%s %.*s", pgn_job_event_name(ev), (int)len,
                 json);
    }
    return 0;
}

/* Reads job id's events to its end (pgn_job_reader_wait between them). */
static void read_to_end(pgn_jobs *j, const char *id, seen *s) {
    pgn_job_reader *r = NULL;
    s->n = 0;
    CHECK_EQ_INT(pgn_job_reader_new(&r, j, id, NULL), PGN_OK);
    for (int rounds = 0; r && rounds < 10000; rounds++) {
        int n = pgn_job_reader_next(r, collect, s, 0);
        if (n < 0) {
            break;
        }
        if (n == 0 && !pgn_job_reader_wait(r, 20000)) {
            CHECK(!"no event within 20 s");
            break;
        }
    }
    pgn_job_reader_free(r);
}

/* The job's status document ("" when there is none), and its state through pgn_jobs_pgn. */
static pgn_status status_of(pgn_jobs *j, const char *id, unsigned from, pgn_membuf *b) {
    b->len = 0;
    pgn_status st = pgn_jobs_status_json(j, id, from, pgn_membuf_write, b);
    pgn_membuf_write(b, "", 1);
    return st;
}

/* Waits (without asking about the job, so idle_s runs) until it has finished: its state. */
static pgn_job_state wait_finished(pgn_jobs *j, const char *id) {
    pgn_membuf b = {0};
    pgn_job_state state = PGN_JOB_QUEUED;
    for (int i = 0; i < 2000; i++) {
        CHECK_EQ_INT(pgn_jobs_pgn(j, id, pgn_membuf_write, &b, &state), PGN_OK);
        if (state >= PGN_JOB_DONE) {
            break;
        }
        sleep_ms(10);
    }
    pgn_membuf_free(&b);
    return state;
}

/* What pgnkit analyze does with the same engine, game by game: the annotated PGN into pgn, the
 * viewer entries (comma-separated) into entries, and the searches of each game into searched. */
typedef struct direct {
    pgn_engine *eng;
    pgn_game *game;
    unsigned searches;
    char err[256];
} direct;

static pgn_status d_new_game(void *ctx, int chess960) {
    direct *d = ctx;
    (void)chess960;
    return pgn_engine_new_game(d->eng, pgn_game_start(d->game), d->err, sizeof d->err);
}

static pgn_status d_search(void *ctx, const pgn_search_request *req, pgn_search *search) {
    direct *d = ctx;
    char warn[320];
    const pgn_search_retry retry = {1, NULL, NULL};
    d->searches++;
    return pgn_engine_search_retry(d->eng, req, search, &retry, d->err, sizeof d->err, warn,
                                   sizeof warn);
}

static void analyse_directly(const char *text, const pgn_jobs_opts *o, pgn_membuf *pgn,
                             pgn_membuf *entries, size_t starts[8], unsigned searched[8]) {
    direct d = {NULL, NULL, 0, ""};
    pgn_reader *r = NULL;
    pgn_writer *w = NULL;
    CHECK_EQ_INT(pgn_engine_new(&d.eng, &o->engine, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_engine_start(d.eng, d.err, sizeof d.err), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&d.game, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_writer_new(&w, NULL, pgn_membuf_write, pgn), PGN_OK);
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, text, strlen(text)), PGN_OK);
    static const pgn_engine_callbacks cbs = {d_new_game, d_search, NULL};
    for (unsigned n = 0; n < 8 && pgn_reader_next(r, d.game) == PGN_OK; n++) {
        pgn_analyze_opts ao = {PGN_LIMIT_NODES, 1, 0, 0, 0, pgn_engine_name(d.eng), NULL};
        pgn_game_stats stats;
        memset(&stats, 0, sizeof stats);
        d.searches = 0;
        pgn_status st = pgn_game_analyze(d.game, &cbs, &d, &ao, &stats);
        CHECK_EQ_INT(st, PGN_OK);
        searched[n] = d.searches;
        CHECK_EQ_INT(pgn_writer_write(w, d.game), PGN_OK);
        if (n && pgn_membuf_write(entries, ",", 1) < 0) {
            CHECK(!"out of memory");
        }
        starts[n] = entries->len;
        CHECK_EQ_INT(pgn_viewer_entry_json(d.game, 0, &stats, 1, pgn_membuf_write, entries),
                     PGN_OK);
    }
    pgn_reader_free(r);
    pgn_writer_free(w);
    pgn_game_free(d.game);
    pgn_engine_free(d.eng);
}

/* The field name's number in a JSON object (-1 when absent). */
static long field(const char *json, const char *name) {
    char key[40];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *p = strstr(json, key);
    return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static void test_order_and_results(void) {
    pgn_jobs_opts o = base_opts("normal", 0);
    pgn_jobs *j = start(&o);
    char id[33], err[256];
    CHECK_EQ_INT(submit(j, three, id, err, sizeof err), PGN_OK);
    CHECK_EQ_INT(strlen(id), 32);
    seen s;
    read_to_end(j, id, &s);
    pgn_membuf pgn = {0}, entries = {0}, got = {0};
    unsigned searched[8] = {0};
    size_t starts[8] = {0};
    analyse_directly(three, &o, &pgn, &entries, starts, searched);
    /* state, then each game's moves (plies rising, done rising) and its game event, then end */
    CHECK(s.n > 2);
    CHECK_EQ_STR(s.lines[0], "state {\"state\":\"running\"}");
    CHECK_EQ_STR(s.lines[s.n - 1], "end {\"state\":\"done\",\"games_done\":3}");
    unsigned game = 1, moves = 0;
    long ply = -1, done = 0;
    for (size_t i = 1; i + 1 < s.n; i++) {
        const char *l = s.lines[i];
        if (strncmp(l, "move ", 5) == 0) {
            CHECK_EQ_INT(field(l, "game"), game);
            CHECK(field(l, "ply") > ply && field(l, "done") > done);
            CHECK_EQ_INT(field(l, "positions"), 5 + 3 + 5);
            ply = field(l, "ply");
            done = field(l, "done");
            moves++;
        } else {
            char want[32];
            snprintf(want, sizeof want, "game {\"game\":%u}", game);
            CHECK_EQ_STR(l, want);
            CHECK_EQ_INT(moves, searched[game - 1]); /* the mate is not searched */
            game++, moves = 0, ply = -1;
        }
    }
    CHECK_EQ_INT(game, 4);
    CHECK_EQ_INT(searched[2], 4);
    /* the annotated PGN and the viewer's entries: those of the direct analysis */
    pgn_job_state state;
    CHECK_EQ_INT(pgn_jobs_pgn(j, id, pgn_membuf_write, &got, &state), PGN_OK);
    CHECK_EQ_INT(state, PGN_JOB_DONE);
    CHECK(got.len == pgn.len && got.len && memcmp(got.ptr, pgn.ptr, pgn.len) == 0);
    CHECK_EQ_INT(status_of(j, id, 0, &got), PGN_OK);
    CHECK(strstr(got.ptr, "\"state\":\"done\",\"queued_ahead\":0,\"games\":3,\"games_done\":3,"
                          "\"positions\":13,\"positions_done\":13,") != NULL);
    CHECK(strstr(got.ptr, "\"error\":null,\"live\":{\"game\":3,\"ply\":3,") != NULL);
    const char *res = strstr(got.ptr, "\"results\":[");
    CHECK(res && strlen(res) == 11 + entries.len + 2 &&
          memcmp(res + 11, entries.ptr, entries.len) == 0);
    /* from the third game on: its entry alone; past the last: none */
    CHECK_EQ_INT(status_of(j, id, 2, &got), PGN_OK);
    res = strstr(got.ptr, "\"results\":[");
    size_t last = entries.len - starts[2];
    CHECK(res && strlen(res) == 11 + last + 2 &&
          memcmp(res + 11, entries.ptr + starts[2], last) == 0);
    CHECK_EQ_INT(status_of(j, id, 3, &got), PGN_OK);
    CHECK(strstr(got.ptr, "\"results\":[]}") != NULL);
    CHECK_EQ_INT(status_of(j, "0123456789abcdef0123456789abcdef", 0, &got), PGN_END);
    CHECK_EQ_INT(status_of(j, "short", 0, &got), PGN_END);
    pgn_membuf_free(&pgn);
    pgn_membuf_free(&entries);
    pgn_membuf_free(&got);
    pgn_jobs_free(j);
}

/* A waker's calls: wait when a reader finds nothing, then one wake. */
typedef struct calls {
    int waits, wakes;
} calls;
static void on_wait(void *ctx) {
    ((calls *)ctx)->waits++;
}
static void on_wake(void *ctx) {
    ((calls *)ctx)->wakes++;
}

/* queue full; a queued job cancelled (its end at once, no state event); a running one */
static void test_queue_and_cancel(void) {
    pgn_jobs_opts o = base_opts("slow", 150); /* each search held until "stop" */
    o.queue = 1;
    pgn_jobs *j = start(&o);
    char a[33], b[33], c[33], err[256];
    CHECK_EQ_INT(submit(j, longer, a, err, sizeof err), PGN_OK);
    pgn_job_reader *r = NULL;
    CHECK_EQ_INT(pgn_job_reader_new(&r, j, a, NULL), PGN_OK);
    seen s = {.n = 0};
    CHECK_EQ_INT(pgn_job_reader_wait(r, 10000), 1); /* a runs: its state event */
    CHECK_EQ_INT(pgn_job_reader_next(r, collect, &s, 0), 1);
    CHECK_EQ_STR(s.lines[0], "state {\"state\":\"running\"}");
    calls k = {0, 0}; /* a reader with a waker: told to wait, woken once by the next move */
    pgn_job_waker wk = {on_wait, on_wake, &k};
    pgn_job_reader *r2 = NULL;
    CHECK_EQ_INT(pgn_job_reader_new(&r2, j, a, &wk), PGN_OK);
    seen s2 = {.n = 0};
    while (r2 && pgn_job_reader_next(r2, collect, &s2, 1) == 1) {
    }
    CHECK_EQ_INT(k.waits, 1);
    CHECK_EQ_INT(pgn_job_reader_wait(r2, 10000), 1);
    CHECK_EQ_INT(pgn_job_reader_next(r2, collect, &s2, 0), 1);
    CHECK_EQ_INT(k.wakes, 1);
    CHECK(strncmp(s2.lines[s2.n - 1], "move {\"game\":1,", 15) == 0);
    pgn_job_reader_free(r2);
    CHECK_EQ_INT(submit(j, longer, b, err, sizeof err), PGN_OK);
    CHECK_EQ_INT(submit(j, longer, c, err, sizeof err), PGN_E_LIMIT);
    CHECK_EQ_STR(err, "1 jobs are waiting already (--queue)");
    pgn_membuf m = {0};
    CHECK_EQ_INT(status_of(j, b, 0, &m), PGN_OK);
    CHECK(strstr(m.ptr, "\"state\":\"queued\",\"queued_ahead\":0,") != NULL);
    CHECK_EQ_INT(pgn_jobs_cancel(j, b), PGN_OK);
    read_to_end(j, b, &s);
    CHECK_EQ_INT(s.n, 1);
    CHECK_EQ_STR(s.lines[0], "end {\"state\":\"cancelled\",\"games_done\":0}");
    CHECK_EQ_INT(pgn_jobs_cancel(j, a), PGN_OK);
    CHECK_EQ_INT(pgn_jobs_cancel(j, "0123456789abcdef0123456789abcdef"), PGN_END);
    s.n = 0;
    while (pgn_job_reader_next(r, collect, &s, 0) >= 0) {
        CHECK_EQ_INT(pgn_job_reader_wait(r, 10000), 1);
    }
    pgn_job_reader_free(r);
    CHECK(s.n >= 1);
    CHECK_EQ_STR(s.lines[s.n - 1], "end {\"state\":\"cancelled\",\"games_done\":0}");
    CHECK_EQ_INT(status_of(j, a, 0, &m), PGN_OK);
    CHECK(strstr(m.ptr, "\"state\":\"cancelled\"") && strstr(m.ptr, "\"error\":\"cancelled\""));
    /* the engine's warnings are notes */
    CHECK(strstr(m.ptr, "\"notes\":[\"game 1, ply 0: engine gave no result within 150 ms") != NULL);
    pgn_membuf_free(&m);
    pgn_jobs_free(j);
}

/* job_s: a job past it ends as "timeout" at its next search; idle_s: nobody asked, cancelled */
static void test_timeout_and_idle(void) {
    pgn_jobs_opts o = base_opts("slow", 200);
    o.job_s = 1;
    pgn_jobs *j = start(&o);
    char id[33], err[256];
    CHECK_EQ_INT(submit(j, longer, id, err, sizeof err), PGN_OK);
    CHECK_EQ_INT(wait_finished(j, id), PGN_JOB_TIMEOUT);
    pgn_membuf m = {0};
    CHECK_EQ_INT(status_of(j, id, 0, &m), PGN_OK);
    CHECK(strstr(m.ptr, "\"error\":\"the job took longer than 1 s (--job-timeout)\"") != NULL);
    long elapsed = field(m.ptr, "elapsed_ms");
    CHECK(elapsed >= 1000 && elapsed < 5000);
    pgn_jobs_free(j);

    o = base_opts("slow", 200);
    o.idle_s = 1;
    o.names.idle_why = "the page stopped asking for it";
    j = start(&o);
    CHECK_EQ_INT(submit(j, longer, id, err, sizeof err), PGN_OK);
    CHECK_EQ_INT(wait_finished(j, id), PGN_JOB_CANCELLED);
    CHECK_EQ_INT(status_of(j, id, 0, &m), PGN_OK);
    CHECK(strstr(m.ptr, "\"error\":\"cancelled: the page stopped asking for it\"") != NULL);
    pgn_membuf_free(&m);
    pgn_jobs_free(j);
}

/* The bytes a finished job of text holds, as its status says. */
static long bytes_of(pgn_jobs *j, const char *id) {
    pgn_membuf m = {0};
    CHECK_EQ_INT(status_of(j, id, 0, &m), PGN_OK);
    long n = m.ptr ? field(m.ptr, "bytes") : -1;
    pgn_membuf_free(&m);
    return n;
}

/* the table's count (kept), keep_s, and max_results */
static void test_caps(void) {
    pgn_jobs_opts o = base_opts("normal", 0);
    o.kept = 1; /* a table of 1 + 4 + 1 jobs */
    pgn_jobs *j = start(&o);
    char ids[7][33], err[256];
    seen s;
    for (int i = 0; i < 6; i++) {
        CHECK_EQ_INT(submit(j, three, ids[i], err, sizeof err), PGN_OK);
        read_to_end(j, ids[i], &s);
    }
    long one = bytes_of(j, ids[0]);
    CHECK(one > 0);
    CHECK_EQ_INT(submit(j, three, ids[6], err, sizeof err), PGN_OK); /* the oldest goes */
    pgn_membuf m = {0};
    CHECK_EQ_INT(status_of(j, ids[0], 0, &m), PGN_END);
    CHECK_EQ_INT(status_of(j, ids[1], 0, &m), PGN_OK);
    read_to_end(j, ids[6], &s);
    pgn_jobs_free(j);

    o = base_opts("normal", 0); /* keep_s 0: gone once finished, but while a reader reads it */
    o.keep_s = 0;
    j = start(&o);
    CHECK_EQ_INT(submit(j, three, ids[0], err, sizeof err), PGN_OK);
    pgn_job_reader *r = NULL;
    CHECK_EQ_INT(pgn_job_reader_new(&r, j, ids[0], NULL), PGN_OK);
    CHECK_EQ_INT(wait_finished(j, ids[0]), PGN_JOB_DONE);
    sleep_ms(5);
    CHECK_EQ_INT(status_of(j, ids[0], 0, &m), PGN_OK);
    pgn_job_reader_free(r);
    sleep_ms(5);
    CHECK_EQ_INT(status_of(j, ids[0], 0, &m), PGN_END);
    pgn_jobs_free(j);

    o = base_opts("normal", 0); /* room for one and a half jobs: the older finished one goes */
    o.max_results = (size_t)one * 3 / 2;
    j = start(&o);
    CHECK_EQ_INT(submit(j, three, ids[0], err, sizeof err), PGN_OK);
    CHECK_EQ_INT(wait_finished(j, ids[0]), PGN_JOB_DONE);
    CHECK_EQ_INT(submit(j, three, ids[1], err, sizeof err), PGN_OK);
    CHECK_EQ_INT(wait_finished(j, ids[1]), PGN_JOB_DONE);
    CHECK_EQ_INT(status_of(j, ids[0], 0, &m), PGN_END);
    pgn_jobs_free(j);

    o = base_opts("normal", 0); /* half a job: stopped */
    o.max_results = (size_t)one / 2;
    j = start(&o);
    CHECK_EQ_INT(submit(j, three, ids[0], err, sizeof err), PGN_OK);
    CHECK_EQ_INT(wait_finished(j, ids[0]), PGN_JOB_FAILED);
    CHECK_EQ_INT(status_of(j, ids[0], 0, &m), PGN_OK);
    char want[160];
    snprintf(want, sizeof want,
             "\"error\":\"stopped: the jobs under way hold more than %zu bytes of results "
             "(--max-results)\"",
             o.max_results);
    CHECK(strstr(m.ptr, want) != NULL);
    pgn_jobs_free(j);

    o = base_opts("normal", 0); /* not even the text: refused */
    o.max_results = 100;
    j = start(&o);
    CHECK_EQ_INT(submit(j, three, ids[0], err, sizeof err), PGN_E_LIMIT);
    CHECK_EQ_STR(err, "the jobs under way hold 0 of 100 bytes (--max-results)");
    pgn_membuf_free(&m);
    pgn_jobs_free(j);
}

static void test_missing_engine(void) {
    pgn_jobs_opts o = base_opts("normal", 0);
    o.engine.path = "/nonexistent/engine";
    char err[256] = "";
    pgn_jobs *j = NULL;
    CHECK(pgn_jobs_new(&j, &o, err, sizeof err) == PGN_E_IO);
    CHECK(j == NULL && strstr(err, "/nonexistent/engine") != NULL);
    CHECK_EQ_STR(pgn_job_state_name(PGN_JOB_TIMEOUT), "timeout");
    CHECK_EQ_STR(pgn_job_event_name(PGN_JOB_EVENT_END), "end");
}

int main(void) {
    fake = getenv("FAKE_ENGINE");
    CHECK(fake != NULL && fake[0] != 0); /* make check sets it: a missing engine fails */
    if (fake && fake[0]) {
        test_order_and_results();
        test_queue_and_cancel();
        test_timeout_and_idle();
        test_caps();
        test_missing_engine();
    }
    return harness_finish();
}
