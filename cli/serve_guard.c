/* SPDX-License-Identifier: MIT */
/* pgnkit serve's guard against slow clients (issues 31 and 36): every connection is known from
 * its start (MHD_OPTION_NOTIFY_CONNECTION) with the deadline of its request, headers and body
 * (--request-timeout, besides libmicrohttpd's silence timeout); past it, or when the connections
 * are all taken and a new one comes, the oldest connection still sending its request is shut
 * down, so that slow clients cannot keep the others out. A connection being answered has no
 * deadline but the silence timeout. The bytes held for clients, answers not yet sent and request
 * bodies, are counted here too (--max-answers). */
#define _POSIX_C_SOURCE 200809L
#ifdef PGNKIT_HAVE_MHD
#include "serve_http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

/* One connection. */
typedef struct serve_conn {
    struct serve_conn *next, *prev;
    int fd;
    int64_t since; /* when its request began */
    int answering; /* an answer is queued: no deadline */
    int shut;      /* shut down by the guard, not yet closed by libmicrohttpd */
} serve_conn;

/* Shuts c down (libmicrohttpd sees the end of its input and closes it); under the lock. */
static void shut(serve_guard *g, serve_conn *c) {
    if (!c->shut) {
        shutdown(c->fd, SHUT_RDWR);
        c->shut = 1;
        g->dropped++;
    }
}

/* The oldest connection still sending its request, or NULL; under the lock. */
static serve_conn *oldest_request(serve_guard *g) {
    serve_conn *o = NULL;
    for (serve_conn *c = g->head; c; c = c->next) {
        if (!c->answering && !c->shut && (!o || c->since < o->since)) {
            o = c;
        }
    }
    return o;
}

void serve_guard_notify(void *cls, struct MHD_Connection *mc, void **socket_context,
                        enum MHD_ConnectionNotificationCode code) {
    serve_guard *g = &((server *)cls)->guard;
    serve_conn *c = *socket_context;
    pthread_mutex_lock(&g->mu);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
        c = ci ? calloc(1, sizeof *c) : NULL;
        if (c) { /* else the connection has the silence timeout only */
            c->fd = ci->connect_fd;
            c->since = serve_now_ms();
            c->next = g->head;
            if (g->head) {
                g->head->prev = c;
            }
            g->head = c;
            if (++g->count > g->max) { /* all taken: the oldest slow request makes room */
                serve_conn *o = oldest_request(g);
                shut(g, o ? o : c);
            }
        }
        *socket_context = c;
    } else if (c) {
        *(c->prev ? &c->prev->next : &g->head) = c->next;
        if (c->next) {
            c->next->prev = c->prev;
        }
        g->count--;
        free(c);
        *socket_context = NULL;
    }
    pthread_mutex_unlock(&g->mu);
}

/* The guard's connection record of mc, or NULL. */
static serve_conn *conn_of(struct MHD_Connection *mc) {
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

void serve_guard_answering(server *s, struct MHD_Connection *mc, int answering) {
    serve_conn *c = conn_of(mc);
    if (c) {
        pthread_mutex_lock(&s->guard.mu);
        c->answering = answering;
        c->since = serve_now_ms(); /* the next request on the connection: a deadline of its own */
        pthread_mutex_unlock(&s->guard.mu);
    }
}

/* An answer being sent: its bytes stay counted (serve_hold) until the library frees it. */
typedef struct answer {
    server *s;
    pgn_membuf body;
    size_t held;
} answer;

static ssize_t answer_read(void *cls, uint64_t pos, char *buf, size_t max) {
    const answer *a = cls;
    if (pos >= a->body.len) {
        return MHD_CONTENT_READER_END_OF_STREAM;
    }
    size_t n = a->body.len - (size_t)pos < max ? a->body.len - (size_t)pos : max;
    memcpy(buf, a->body.ptr + pos, n);
    return (ssize_t)n;
}

static void answer_free(void *cls) {
    answer *a = cls;
    serve_unhold(a->s, a->held);
    free(a->body.ptr);
    free(a);
}

void serve_busy_body(server *s, pgn_membuf *body, unsigned *status) {
    char msg[256];
    snprintf(msg, sizeof msg,
             "the server is busy: answers not yet read by their clients hold %zu of %zu bytes "
             "(--max-answers); try again later",
             serve_held(s), s->guard.max_held);
    free(body->ptr);
    *body = (pgn_membuf){0};
    *status = (unsigned)serve_error_json(body, 503, msg);
}

struct MHD_Response *serve_answer(server *s, pgn_membuf *body, unsigned *status) {
    answer *a = calloc(1, sizeof *a);
    if (!a) {
        free(body->ptr);
        *body = (pgn_membuf){0};
        return NULL;
    }
    if (serve_hold(s, body->cap, 0) != 0) {
        serve_busy_body(s, body, status);
        serve_hold(s, body->cap, 1);
    }
    *a = (answer){s, *body, body->cap};
    *body = (pgn_membuf){0};
    struct MHD_Response *resp =
        MHD_create_response_from_callback(a->body.len, 16384, answer_read, a, answer_free);
    if (!resp) {
        answer_free(a);
    }
    return resp;
}

static void *guard_main(void *arg) {
    serve_guard *g = arg;
    pthread_mutex_lock(&g->mu);
    while (!g->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 200 * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g->cv, &g->mu, &ts);
        int64_t t = serve_now_ms();
        for (serve_conn *c = g->head; c; c = c->next) {
            if (!c->answering && t - c->since > g->request_ms) {
                shut(g, c);
            }
        }
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

int serve_hold(server *s, size_t n, int force) {
    serve_guard *g = &s->guard;
    pthread_mutex_lock(&g->mu);
    int ok = force || (g->held <= g->max_held && n <= g->max_held - g->held);
    if (ok) {
        g->held += n;
    }
    pthread_mutex_unlock(&g->mu);
    return ok ? 0 : -1;
}

void serve_unhold(server *s, size_t n) {
    pthread_mutex_lock(&s->guard.mu);
    s->guard.held -= n;
    pthread_mutex_unlock(&s->guard.mu);
}

size_t serve_held(server *s) {
    pthread_mutex_lock(&s->guard.mu);
    size_t n = s->guard.held;
    pthread_mutex_unlock(&s->guard.mu);
    return n;
}

int serve_guard_start(serve_guard *g, unsigned max, int64_t request_ms, size_t max_held) {
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->max = max;
    g->max_held = max_held;
    g->request_ms = request_ms;
    if (pthread_create(&g->th, NULL, guard_main, g) != 0) {
        pthread_mutex_destroy(&g->mu);
        pthread_cond_destroy(&g->cv);
        return -1;
    }
    g->started = 1;
    return 0;
}

void serve_guard_stop(serve_guard *g) {
    if (!g->started) {
        return;
    }
    pthread_mutex_lock(&g->mu);
    g->stop = 1;
    pthread_cond_signal(&g->cv);
    pthread_mutex_unlock(&g->mu);
    pthread_join(g->th, NULL);
    g->started = 0;
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
}
#else
typedef int serve_guard_needs_mhd; /* ISO C: a translation unit declares something */
#endif
