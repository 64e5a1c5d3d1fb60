/* SPDX-License-Identifier: MIT */
/* pgnkit serve's HTTP routing: every request's Host is checked, every POST's Origin and
 * Sec-Fetch-Site, bodies are capped; GET / is the page built into the program, /api/... are the
 * job queue's JSON answers (serve_jobs.c) and the explorer's (serve_explore.c). No file of the
 * machine is served. */
#define _POSIX_C_SOURCE 200809L
#ifdef PGNKIT_HAVE_MHD
#include "serve_http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct request {
    pgn_membuf body;
    int too_big;
    int busy;    /* the body would be over --max-answers: dropped, answered 503 */
    size_t held; /* bytes of the body counted in serve_hold */
} request;

void serve_request_done(void *cls, struct MHD_Connection *c, void **con_cls,
                        enum MHD_RequestTerminationCode toe) {
    (void)toe;
    serve_guard_answering(cls, c, 0); /* the next request's deadline starts */
    request *r = *con_cls;
    if (r) {
        serve_unhold(cls, r->held);
        free(r->body.ptr);
        free(r);
        *con_cls = NULL;
    }
}

/* The headers every answer has. */
static void add_headers(struct MHD_Response *resp, const server *s, const char *type, int page,
                        const char *filename) {
    MHD_add_response_header(resp, "Content-Type", type);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Cache-Control", "no-store");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    MHD_add_response_header(resp, "Cross-Origin-Resource-Policy", "same-origin");
    MHD_add_response_header(resp, "Content-Security-Policy",
                            page ? s->csp : "default-src 'none'; frame-ancestors 'none'");
    if (filename) {
        char disp[128];
        snprintf(disp, sizeof disp, "attachment; filename=\"%s\"", filename);
        MHD_add_response_header(resp, "Content-Disposition", disp);
    }
}

/* Queues body (taken) with status and the headers every answer has; its bytes are counted in
 * --max-answers until it is sent (over it: a 503 instead). The page is not copied. */
static enum MHD_Result reply(struct MHD_Connection *c, server *s, unsigned status, const char *type,
                             pgn_membuf *body, int page, const char *filename) {
    struct MHD_Response *resp;
    if (page) {
        free(body->ptr);
        *body = (pgn_membuf){0};
        resp = MHD_create_response_from_buffer(s->page.len, s->page.ptr, MHD_RESPMEM_PERSISTENT);
    } else if ((resp = serve_answer(s, body, &status)) && status == 503) {
        type = "application/json; charset=utf-8"; /* over --max-answers */
        filename = NULL;
    }
    if (!resp) {
        return MHD_NO;
    }
    add_headers(resp, s, type, page, filename);
    serve_guard_answering(s, c, 1);
    enum MHD_Result ret = MHD_queue_response(c, status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result reply_json(struct MHD_Connection *c, server *s, unsigned status,
                                  pgn_membuf *body) {
    return reply(c, s, status, "application/json; charset=utf-8", body, 0, NULL);
}

static enum MHD_Result refuse(struct MHD_Connection *c, server *s, unsigned status,
                              const char *msg) {
    pgn_membuf b = {0};
    if (serve_printf(&b, "{\"error\":") < 0 || serve_json_string(&b, msg, (size_t)-1) < 0 ||
        serve_printf(&b, "}") < 0) {
        free(b.ptr);
        return MHD_NO;
    }
    return reply_json(c, s, status, &b);
}

static int host_ok(const server *s, const char *host) {
    for (int i = 0; host && i < s->nhosts; i++) {
        if (strcasecmp(host, s->hosts[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

/* A request that may change state: from this page (Origin, Sec-Fetch-Site) or from no browser
 * at all (curl sends neither; a browser always sends Origin with a cross-site POST). */
static int origin_ok(const server *s, struct MHD_Connection *c) {
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    const char *site = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-Fetch-Site");
    if (site && strcmp(site, "same-origin") != 0 && strcmp(site, "none") != 0) {
        return 0;
    }
    if (!origin) {
        return 1;
    }
    return strncasecmp(origin, "http://", 7) == 0 && host_ok(s, origin + 7);
}

/* The job id and what follows it in /api/jobs/ID[/pgn|/cancel]; 0 when the path is not one. */
static int job_path(const char *url, char id[33], const char **rest) {
    const char *p = url + strlen("/api/jobs/");
    size_t n = strspn(p, "0123456789abcdef");
    if (n != 32 || (p[n] != 0 && p[n] != '/')) {
        return 0;
    }
    memcpy(id, p, 32);
    id[32] = 0;
    *rest = p + n;
    return 1;
}

/* ?fix=1: the paste is read repairing the moves whose meaning is clear (pgnkit fmt --fix) */
static int want_fix(struct MHD_Connection *c) {
    const char *f = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "fix");
    return f && strcmp(f, "1") == 0;
}

static enum MHD_Result post(server *s, struct MHD_Connection *c, const char *url, request *r) {
    pgn_membuf b = {0};
    int status;
    char id[33];
    const char *rest;
    if (strcmp(url, "/api/check") == 0) {
        status = serve_check(s->jobs, r->body.ptr ? r->body.ptr : "", r->body.len, want_fix(c), &b);
    } else if (strcmp(url, "/api/jobs") == 0) {
        const char *kind = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "limit");
        const char *value = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "value");
        pgn_search_limit k = PGN_LIMIT_NODES;
        uint64_t v = s->lim.max_nodes < 1000000 ? s->lim.max_nodes : 1000000;
        if (kind && strcmp(kind, "depth") == 0) {
            k = PGN_LIMIT_DEPTH;
        } else if (kind && strcmp(kind, "movetime") == 0) {
            k = PGN_LIMIT_MOVETIME;
        } else if (kind && strcmp(kind, "nodes") != 0) {
            return refuse(c, s, 400, "limit must be nodes, depth or movetime");
        }
        if (value && !cli_parse_u64(value, 0, UINT64_MAX, &v)) {
            return refuse(c, s, 400, "value must be a number");
        }
        status = serve_submit(s->jobs, r->body.ptr ? r->body.ptr : "", r->body.len, want_fix(c), k,
                              v, &b);
    } else if (strncmp(url, "/api/jobs/", 10) == 0 && job_path(url, id, &rest) &&
               strcmp(rest, "/cancel") == 0) {
        status = serve_cancel(s->jobs, id, &b);
    } else {
        return refuse(c, s, 404, "no such resource");
    }
    return reply_json(c, s, (unsigned)status, &b);
}

/* ---- GET /api/jobs/ID/events: the job's events as a stream (serve_stream.c) ---- */

typedef struct sse {
    serve_jobs *jobs;
    serve_stream *st;
} sse;

static void suspend_conn(void *conn) {
    MHD_suspend_connection(conn);
}

static void resume_conn(void *conn) {
    MHD_resume_connection(conn);
}

static ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max) {
    (void)pos;
    sse *e = cls;
    long n = serve_stream_read(e->jobs, e->st, buf, max, suspend_conn);
    return n < 0 ? MHD_CONTENT_READER_END_OF_STREAM : (ssize_t)n;
}

static void sse_free(void *cls) {
    sse *e = cls;
    serve_stream_close(e->jobs, e->st);
    free(e);
}

static enum MHD_Result stream(struct MHD_Connection *c, server *s, const char *id) {
    pgn_membuf b = {0};
    sse *e = calloc(1, sizeof *e);
    if (!e) {
        return MHD_NO;
    }
    e->jobs = s->jobs;
    int st = serve_stream_open(s->jobs, id, c, &e->st, &b);
    if (st != 200) {
        free(e);
        return reply_json(c, s, (unsigned)st, &b);
    }
    struct MHD_Response *resp =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, sse_read, e, sse_free);
    if (!resp) {
        sse_free(e);
        return MHD_NO;
    }
    add_headers(resp, s, "text/event-stream; charset=utf-8", 0, NULL);
    MHD_add_response_header(resp, "X-Accel-Buffering", "no");
    serve_guard_answering(s, c, 1);
    enum MHD_Result ret = MHD_queue_response(c, 200, resp);
    MHD_destroy_response(resp);
    return ret;
}

void serve_http_streams(serve_jobs *j) {
    serve_jobs_set_resume(j, resume_conn);
}

static enum MHD_Result get(server *s, struct MHD_Connection *c, const char *url) {
    char id[33];
    const char *rest;
    pgn_membuf b = {0};
    if (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0) { /* sent from s->page */
        return reply(c, s, 200, "text/html; charset=utf-8", &b, 1, NULL);
    }
    if (strcmp(url, "/api/explore") == 0) { /* the explorer panel (serve_explore.c) */
        const char *fen = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "fen");
        return reply_json(c, s, (unsigned)serve_explore(s, fen, &b), &b);
    }
    if (strncmp(url, "/api/jobs/", 10) == 0 && job_path(url, id, &rest)) {
        if (strcmp(rest, "") == 0) {
            uint64_t from = 0;
            const char *f = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "from");
            if (f && !cli_parse_u64(f, 0, 1u << 30, &from)) {
                return refuse(c, s, 400, "from must be a number");
            }
            int st = serve_status(s->jobs, id, (unsigned)from, &b);
            return reply_json(c, s, (unsigned)st, &b);
        }
        if (strcmp(rest, "/events") == 0) {
            return stream(c, s, id);
        }
        if (strcmp(rest, "/pgn") == 0) {
            int st = serve_pgn(s->jobs, id, &b);
            if (st != 200) {
                return reply_json(c, s, (unsigned)st, &b);
            }
            return reply(c, s, 200, "application/vnd.chess-pgn; charset=utf-8", &b, 0,
                         "analysis.pgn");
        }
    }
    return refuse(c, s, 404, "no such resource");
}

/* A piece of a request body: kept up to --max-body, past it counted and dropped. */
static enum MHD_Result take_upload(server *s, request *r, const char *upload, size_t *upload_size) {
    size_t n = *upload_size;
    *upload_size = 0;
    if (!r->too_big && r->body.len + n > s->lim.max_body) {
        r->too_big = 1;
        free(r->body.ptr);
        r->body = (pgn_membuf){0};
    }
    if (!r->too_big && !r->busy && r->body.len + n > r->body.cap) { /* counted as it grows */
        size_t grow = r->body.len + n > 2 * r->body.cap ? r->body.len + n : 2 * r->body.cap;
        char *p = realloc(r->body.ptr, grow);
        if (!p) {
            return MHD_NO;
        }
        r->body.ptr = p;
        r->body.cap = grow;
        if (serve_hold(s, r->body.cap - r->held, 0) != 0) {
            r->busy = 1;
            free(r->body.ptr);
            r->body = (pgn_membuf){0};
        } else {
            r->held = r->body.cap;
        }
    }
    if (r->too_big || r->busy) {
        /* chunked, without a length: the rest is read and dropped, but only up to 4 caps */
        r->body.len += n;
        return r->body.len > 4 * s->lim.max_body ? MHD_NO : MHD_YES;
    }
    return serve_put(&r->body, upload, n) < 0 ? MHD_NO : MHD_YES;
}

enum MHD_Result serve_handle(void *cls, struct MHD_Connection *c, const char *url,
                             const char *method, const char *version, const char *upload,
                             size_t *upload_size, void **con_cls) {
    (void)version;
    server *s = cls;
    request *r = *con_cls;
    if (!r) { /* the headers are in: every check that needs no body */
        if (!host_ok(s, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host"))) {
            return refuse(c, s, 421, "this server answers only to its own name (Host)");
        }
        int is_post = strcmp(method, "POST") == 0;
        if (!is_post && strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
            return refuse(c, s, 405, "method not allowed");
        }
        if (!is_post) {
            return get(s, c, url);
        }
        if (!origin_ok(s, c)) {
            return refuse(c, s, 403, "cross-site request refused (Origin)");
        }
        uint64_t len;
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        if (cl && cli_parse_u64(cl, 0, UINT64_MAX, &len) && len > s->lim.max_body) {
            char msg[128];
            snprintf(msg, sizeof msg, "the text is larger than %zu bytes (--max-body)",
                     s->lim.max_body);
            return refuse(c, s, 413, msg);
        }
        if (!(r = calloc(1, sizeof *r))) {
            return MHD_NO;
        }
        *con_cls = r;
        return MHD_YES;
    }
    if (*upload_size) {
        return take_upload(s, r, upload, upload_size);
    }
    if (r->too_big) {
        char msg[128];
        snprintf(msg, sizeof msg, "the text is larger than %zu bytes (--max-body)",
                 s->lim.max_body);
        return refuse(c, s, 413, msg);
    }
    if (r->busy || serve_held(s) + 8 * r->body.len > s->guard.max_held) {
        /* new work only with room for an answer of a few times the paste: else every paste
         * would be read, and its answer built, only to be refused */
        pgn_membuf b = {0};
        unsigned st;
        serve_busy_body(s, &b, &st);
        return reply_json(c, s, st, &b);
    }
    return post(s, c, url, r);
}
#else
typedef int serve_http_needs_mhd; /* ISO C: a translation unit declares something */
#endif
