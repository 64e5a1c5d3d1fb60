/* SPDX-License-Identifier: MIT */
/* The ordered work queue (include/pgnkit/workq.h): items handed back in push order whatever
 * order the workers finish them in, the workers really at work together, at most depth items in
 * flight, worker numbers in range, and after a stop (from work or from done) every item back to
 * the caller exactly once, through done or drop. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include "pgnkit/workq.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

enum { ITEMS = 2000, THREADS = 4 };

typedef struct item {
    unsigned seq;
    unsigned value; /* set by work */
    int back;       /* times handed back (done or drop) */
} item;

typedef struct state {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned threads;
    unsigned next;     /* the seq done expects */
    unsigned disorder; /* items done out of order or unworked */
    unsigned bad_worker;
    unsigned working, max_working; /* work calls at once */
    unsigned pushed, handed, max_flight;
    unsigned fail_work, fail_done; /* seq whose work or done fails (ITEMS: none) */
    unsigned dropped;
    int wait_for_all; /* the first work calls wait until all the workers are in work */
} state;

static void pause_us(unsigned us) {
    struct timespec ts = {0, (long)us * 1000};
    nanosleep(&ts, NULL);
}

static pgn_status work(void *user, unsigned worker, void *it) {
    state *s = user;
    item *x = it;
    pthread_mutex_lock(&s->mu);
    s->bad_worker += worker >= s->threads;
    s->working++;
    s->max_working = s->working > s->max_working ? s->working : s->max_working;
    pthread_cond_broadcast(&s->cv);
    if (s->wait_for_all) { /* five seconds at most: the check below says if they met */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 5;
        while (s->max_working < s->threads && pthread_cond_timedwait(&s->cv, &s->mu, &until) == 0) {
        }
    }
    pthread_mutex_unlock(&s->mu);
    pause_us((x->seq * 7919u) % 97u); /* later items often finish first */
    x->value = x->seq * 3u + 1u;
    pthread_mutex_lock(&s->mu);
    s->working--;
    pthread_mutex_unlock(&s->mu);
    return x->seq == s->fail_work ? PGN_E_NOMEM : PGN_OK;
}

static pgn_status done(void *user, void *it) {
    state *s = user;
    item *x = it;
    pthread_mutex_lock(&s->mu);
    s->disorder += x->seq != s->next || x->value != x->seq * 3u + 1u;
    s->next++;
    s->handed++;
    x->back++;
    pthread_mutex_unlock(&s->mu);
    return x->seq == s->fail_done ? PGN_E_IO : PGN_OK;
}

static void drop(void *user, void *it) {
    state *s = user;
    ((item *)it)->back++;
    s->dropped++;
}

/* Pushes up to ITEMS items into a queue of threads workers and depth; the status of the first
 * refused push (PGN_OK: all taken) and of finish (unless no_finish: freed without). */
static void run(state *s, item *items, unsigned threads, size_t depth, pgn_status *push_st,
                pgn_status *finish_st, int no_finish) {
    pgn_workq_opts o = {threads, depth, work, done, drop, s};
    pgn_workq *q;
    s->threads = threads ? threads : 1;
    CHECK_EQ_INT(pgn_workq_new(&q, &o), PGN_OK);
    *push_st = PGN_OK;
    for (unsigned i = 0; i < ITEMS && *push_st == PGN_OK; i++) {
        items[i].seq = i;
        if ((*push_st = pgn_workq_push(q, &items[i])) == PGN_OK) {
            pthread_mutex_lock(&s->mu);
            s->pushed++;
            unsigned flight = s->pushed - s->handed;
            s->max_flight = flight > s->max_flight ? flight : s->max_flight;
            pthread_mutex_unlock(&s->mu);
        }
    }
    *finish_st = no_finish ? PGN_OK : pgn_workq_finish(q);
    pgn_workq_free(q);
}

static state *new_state(void) {
    state *s = calloc(1, sizeof *s);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->fail_work = s->fail_done = ITEMS;
    return s;
}

static void free_state(state *s) {
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

/* Every item taken came back once; none that was refused did. */
static void check_back(const state *s, const item *items) {
    unsigned once = 0, never = 0;
    for (unsigned i = 0; i < ITEMS; i++) {
        once += i < s->pushed && items[i].back == 1;
        never += i >= s->pushed && items[i].back == 0;
    }
    CHECK_EQ_INT(once, s->pushed);
    CHECK_EQ_INT(never, ITEMS - s->pushed);
    CHECK_EQ_INT(s->handed + s->dropped, s->pushed);
}

static void test_order(unsigned threads, size_t depth) {
    state *s = new_state();
    item *items = calloc(ITEMS, sizeof *items);
    s->wait_for_all = 1;
    pgn_status push_st, finish_st;
    run(s, items, threads, depth, &push_st, &finish_st, 0);
    CHECK_EQ_INT(push_st, PGN_OK);
    CHECK_EQ_INT(finish_st, PGN_OK);
    CHECK_EQ_INT(s->handed, ITEMS);
    CHECK_EQ_INT(s->disorder, 0);
    CHECK_EQ_INT(s->bad_worker, 0);
    CHECK_EQ_INT(s->dropped, 0);
    CHECK_EQ_INT(s->max_working, s->threads); /* all at work together, never more */
    size_t want_depth = depth ? depth : 4u * s->threads;
    CHECK(s->max_flight <= want_depth);
    CHECK(s->max_flight >= s->threads);
    check_back(s, items);
    free(items);
    free_state(s);
}

/* work (or done) fails at item 100: the pushes then fail with its status, finish returns it,
 * nothing after it is handed back, and the rest is dropped. */
static void test_stop(int in_done) {
    state *s = new_state();
    item *items = calloc(ITEMS, sizeof *items);
    *(in_done ? &s->fail_done : &s->fail_work) = 100;
    pgn_status want = in_done ? PGN_E_IO : PGN_E_NOMEM, push_st, finish_st;
    run(s, items, THREADS, 0, &push_st, &finish_st, 0);
    CHECK_EQ_INT(push_st, want);
    CHECK_EQ_INT(finish_st, want);
    CHECK(s->pushed < ITEMS);
    CHECK_EQ_INT(s->disorder, 0);
    CHECK(in_done ? s->handed == 101 : s->handed <= 100);
    check_back(s, items);
    free(items);
    free_state(s);
}

/* Freed without finish: the items not handed back are dropped, each once. */
static void test_free_early(void) {
    state *s = new_state();
    item *items = calloc(ITEMS, sizeof *items);
    pgn_status push_st, finish_st;
    run(s, items, THREADS, 0, &push_st, &finish_st, 1);
    CHECK_EQ_INT(push_st, PGN_OK);
    CHECK_EQ_INT(s->disorder, 0);
    check_back(s, items);
    free(items);
    free_state(s);
}

int main(void) {
    test_order(THREADS, 0);
    test_order(THREADS, 5);
    test_order(1, 1);
    test_order(0, 0); /* 0 threads: one */
    test_stop(0);
    test_stop(1);
    test_free_early();
    return harness_finish();
}
