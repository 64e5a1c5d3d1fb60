/* SPDX-License-Identifier: MIT */
/* pgnkit serve: a local web page (libmicrohttpd) where a person pastes or uploads a PGN, sees its
 * diagnostics or its games in the viewer of pgnkit html, and has them analysed by a UCI engine
 * (serve_jobs.c). Safety (docs/design.md "pgnkit serve"): 127.0.0.1 by default, Host checked on
 * every request and Origin on every POST, capped bodies, games, plies, jobs and engine time, no
 * file served but the page built into the program. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "engine.h"
#include "serve.h"
#include "web_assets.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

extern char **environ;

static const char serve_usage[] =
    "usage: pgnkit serve [--port N] [--bind ADDR] [--engine PATH] [--jobs N] [--queue N]\n"
    "                    [--max-body BYTES] [--max-games N] [--max-plies N] [--max-nodes N]\n"
    "                    [--max-depth N] [--max-movetime MS] [--move-timeout MS]\n"
    "                    [--job-timeout S] [--idle-timeout S] [--keep S] [--connections N]\n"
    "                    [--threads T] [--hash MB] [--open]\n"
    "Serves a local web page (http://127.0.0.1:8765/ by default) where you paste or upload a PGN:\n"
    "its diagnostics (line, column, code) or its games are shown in the viewer of pgnkit html,\n"
    "and \"Analyse\" runs a UCI engine on them (default: stockfish on PATH, else\n"
    "/usr/games/stockfish) with the depth, nodes or time per move chosen on the page: the eval\n"
    "graph fills game by game, each side's inaccuracies, mistakes, blunders, ACPL and accuracy "
    "are\n"
    "listed, and \"Download\" gives the annotated PGN that pgnkit analyze writes with the same\n"
    "limit. The URL is printed on stdout; Ctrl-C (SIGINT) or SIGTERM stops the server.\n"
    "--port N        port (default 8765; 0: any free port)\n"
    "--bind ADDR     numeric address to listen on (default 127.0.0.1; ::1 for IPv6)\n"
    "--open          open the page in the browser ($BROWSER, else xdg-open) once it is served\n"
    "Requests must name the server in Host (localhost, 127.0.0.1 or [::1] with the port, or the\n"
    "--bind address): others get 421. A POST with an Origin or Sec-Fetch-Site of another site\n"
    "gets 403. Caps (defaults in brackets; past them 413, 422 or 503 with a message):\n"
    "--max-body BYTES  request body [1048576]      --max-games N    games in a paste [100]\n"
    "--max-plies N     main-line plies a game [1000]\n"
    "--max-nodes N [10000000], --max-depth N [30], --max-movetime MS [10000]: the page's limit\n"
    "--jobs N          engines, so jobs analysed at once [1]\n"
    "--queue N         jobs waiting for an engine [8]\n"
    "--move-timeout MS one search; past it the engine is told to stop [30000]\n"
    "--job-timeout S   one job [600]       --idle-timeout S a job whose page stopped asking\n"
    "                  for it is cancelled [30]      --keep S  results kept after a job [600]\n"
    "--connections N   open connections [64]; each times out after 15 s of silence\n"
    "--threads T, --hash MB: the engine's options (default: the engine's own)\n"
    "exit status: 0 stopped by a signal, 2 usage error, 3 no engine, the address is taken, or\n"
    "pgnkit was built without libmicrohttpd\n";

#ifndef PGNKIT_HAVE_MHD

int cmd_serve(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(serve_usage, stdout);
            return EXIT_OK;
        }
    }
    cli_error(NULL, "this pgnkit was built without libmicrohttpd, which serve needs: install it "
                    "(Debian: apt-get install libmicrohttpd-dev) and rebuild");
    return EXIT_RESOURCE;
}

#else

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct server {
    serve_jobs *jobs;
    serve_limits lim;
    char hosts[4][80]; /* the Host values taken */
    int nhosts;
    cli_membuf page;
    char csp[256];
} server;

typedef struct request {
    cli_membuf body;
    int too_big;
} request;

static void free_request(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe) {
    (void)cls, (void)c, (void)toe;
    request *r = *con_cls;
    if (r) {
        free(r->body.p);
        free(r);
        *con_cls = NULL;
    }
}

/* Queues body (taken) with status and the headers every answer has. */
static enum MHD_Result reply(struct MHD_Connection *c, const server *s, unsigned status,
                             const char *type, cli_membuf *body, int page, const char *filename) {
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(body->len, body->p, MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        free(body->p);
        body->p = NULL;
        return MHD_NO;
    }
    body->p = NULL;
    body->len = body->cap = 0;
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
    enum MHD_Result ret = MHD_queue_response(c, status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result reply_json(struct MHD_Connection *c, const server *s, unsigned status,
                                  cli_membuf *body) {
    return reply(c, s, status, "application/json; charset=utf-8", body, 0, NULL);
}

static enum MHD_Result refuse(struct MHD_Connection *c, const server *s, unsigned status,
                              const char *msg) {
    cli_membuf b = {0};
    if (serve_printf(&b, "{\"error\":") < 0 || serve_json_string(&b, msg, (size_t)-1) < 0 ||
        serve_printf(&b, "}") < 0) {
        free(b.p);
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
    if (strncasecmp(origin, "http://", 7) != 0) {
        return 0;
    }
    return host_ok(s, origin + 7);
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

static int parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out) {
    char *end;
    if (!text || *text < '0' || *text > '9') {
        return 0;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || v < min || v > max) {
        return 0;
    }
    *out = v;
    return 1;
}

static enum MHD_Result post(server *s, struct MHD_Connection *c, const char *url, request *r) {
    cli_membuf b = {0};
    int status;
    char id[33];
    const char *rest;
    if (strcmp(url, "/api/check") == 0) {
        status = serve_check(s->jobs, r->body.p ? r->body.p : "", r->body.len, &b);
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
        if (value && !parse_u64(value, 0, UINT64_MAX, &v)) {
            return refuse(c, s, 400, "value must be a number");
        }
        status = serve_submit(s->jobs, r->body.p ? r->body.p : "", r->body.len, k, v, &b);
    } else if (strncmp(url, "/api/jobs/", 10) == 0 && job_path(url, id, &rest) &&
               strcmp(rest, "/cancel") == 0) {
        status = serve_cancel(s->jobs, id, &b);
    } else {
        return refuse(c, s, 404, "no such resource");
    }
    return reply_json(c, s, (unsigned)status, &b);
}

static enum MHD_Result get(server *s, struct MHD_Connection *c, const char *url) {
    char id[33];
    const char *rest;
    if (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0) {
        cli_membuf b = {0};
        if (serve_put(&b, s->page.p, s->page.len) < 0) {
            return MHD_NO;
        }
        return reply(c, s, 200, "text/html; charset=utf-8", &b, 1, NULL);
    }
    if (strncmp(url, "/api/jobs/", 10) == 0 && job_path(url, id, &rest)) {
        cli_membuf b = {0};
        if (strcmp(rest, "") == 0) {
            uint64_t from = 0;
            const char *f = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "from");
            if (f && !parse_u64(f, 0, 1u << 30, &from)) {
                return refuse(c, s, 400, "from must be a number");
            }
            int st = serve_status(s->jobs, id, (unsigned)from, &b);
            return reply_json(c, s, (unsigned)st, &b);
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

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
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
        if (cl && parse_u64(cl, 0, UINT64_MAX, &len) && len > s->lim.max_body) {
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
        size_t n = *upload_size;
        if (!r->too_big && r->body.len + n > s->lim.max_body) {
            r->too_big = 1;
            free(r->body.p);
            r->body = (cli_membuf){0};
        }
        if (r->too_big) {
            /* chunked, without a length: the rest is read and dropped, but only up to 4 caps */
            r->body.len += n;
            *upload_size = 0;
            return r->body.len > 4 * s->lim.max_body ? MHD_NO : MHD_YES;
        }
        if (serve_put(&r->body, upload, n) < 0) {
            return MHD_NO;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    if (r->too_big) {
        char msg[128];
        snprintf(msg, sizeof msg, "the text is larger than %zu bytes (--max-body)",
                 s->lim.max_body);
        return refuse(c, s, 413, msg);
    }
    return post(s, c, url, r);
}

/* The page: the viewer of pgnkit html (web/viewer.*) with the paste form (web/serve.*). */
static int build_page(server *s) {
    cli_membuf *b = &s->page, svg = {0};
    snprintf(s->csp, sizeof s->csp,
             "default-src 'none'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; "
             "script-src 'sha256-%s' 'sha256-%s'; form-action 'none'; frame-ancestors 'none'; "
             "base-uri 'none'",
             web_viewer_js_sha256, web_serve_js_sha256);
    int bad =
        serve_printf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                        "<meta name=\"viewport\" content=\"width=device-width, "
                        "initial-scale=1\">\n<title>pgnkit: paste and analyse</title>\n"
                        "<style>\n") < 0 ||
        serve_put(b, web_viewer_css, web_viewer_css_len) < 0 ||
        serve_put(b, web_serve_css, web_serve_css_len) < 0 ||
        serve_printf(b, "</style>\n</head>\n<body>\n") < 0 ||
        serve_put(b, web_serve_html, web_serve_html_len) < 0 ||
        serve_put(b, web_viewer_html, web_viewer_html_len) < 0;
    if (bad || pgn_pieces_svg(cli_membuf_write, &svg) != PGN_OK) {
        free(svg.p);
        return -1;
    }
    const char *p = svg.p;
    for (size_t i = 0; i + 4 <= svg.len; i++) {
        if (memcmp(svg.p + i, "<svg", 4) == 0) {
            p = svg.p + i;
            break;
        }
    }
    bad = serve_printf(b, "<div style=\"position:absolute;width:0;height:0;overflow:hidden\" "
                          "aria-hidden=\"true\">") < 0 ||
          serve_put(b, p, svg.len - (size_t)(p - svg.p)) < 0 ||
          serve_printf(b, "</div>\n<script type=\"application/json\" id=\"pgnkit-data\">\n"
                          "{\"nags\":[") < 0;
    free(svg.p);
    for (unsigned i = 0; i < 256 && !bad; i++) {
        const pgn_nag_info *info = pgn_nag_get((uint8_t)i);
        bad = serve_printf(b, i ? ",[" : "[") < 0 ||
              serve_json_string(b, info->symbol, (size_t)-1) < 0 || serve_printf(b, ",") < 0 ||
              serve_json_string(b, info->meaning, (size_t)-1) < 0 || serve_printf(b, "]") < 0;
    }
    return bad || serve_printf(b, "],\n\"games\":[]}\n</script>\n<script>") < 0 ||
                   serve_put(b, web_viewer_js, web_viewer_js_len) < 0 ||
                   serve_printf(b, "</script>\n<script>") < 0 ||
                   serve_put(b, web_serve_js, web_serve_js_len) < 0 ||
                   serve_printf(b, "</script>\n</body>\n</html>\n") < 0
               ? -1
               : 0;
}

enum {
    O_PORT = 1000,
    O_BIND,
    O_ENGINE,
    O_JOBS,
    O_QUEUE,
    O_BODY,
    O_GAMES,
    O_PLIES,
    O_NODES,
    O_DEPTH,
    O_MOVETIME,
    O_MOVE_TO,
    O_JOB_TO,
    O_IDLE,
    O_KEEP,
    O_CONN,
    O_THREADS,
    O_HASH,
    O_OPEN
};

/* What the command line asked for. */
typedef struct serve_opts {
    serve_limits lim;
    uint64_t port, conns;
    const char *bind_addr;
    engine_cfg cfg;
    int open; /* --open */
} serve_opts;

/* Takes the value of option ch; returns 0 for a bad value. */
static int set_option(serve_opts *o, int ch, const char *arg) {
    uint64_t v = 0;
    serve_limits *lim = &o->lim;
    int ok = 1;
    switch (ch) {
    case O_PORT: ok = parse_u64(arg, 0, 65535, &o->port); break;
    case O_BIND: o->bind_addr = arg; break;
    case O_ENGINE: o->cfg.path = arg; break;
    case O_JOBS: ok = parse_u64(arg, 1, 64, &v), lim->workers = (unsigned)v; break;
    case O_QUEUE: ok = parse_u64(arg, 0, 10000, &v), lim->queue = (unsigned)v; break;
    case O_BODY: ok = parse_u64(arg, 1, 1u << 30, &v), lim->max_body = (size_t)v; break;
    case O_GAMES: ok = parse_u64(arg, 1, 100000, &v), lim->max_games = (unsigned)v; break;
    case O_PLIES: ok = parse_u64(arg, 1, 100000, &v), lim->max_plies = (unsigned)v; break;
    case O_NODES: ok = parse_u64(arg, 1, UINT64_MAX / 2, &lim->max_nodes); break;
    case O_DEPTH: ok = parse_u64(arg, 1, 200, &v), lim->max_depth = (unsigned)v; break;
    case O_MOVETIME: ok = parse_u64(arg, 1, 3600000, &lim->max_movetime); break;
    case O_MOVE_TO: ok = parse_u64(arg, 1, 86400000, &v), lim->move_ms = (int)v; break;
    case O_JOB_TO: ok = parse_u64(arg, 1, 86400, &v), lim->job_s = (unsigned)v; break;
    case O_IDLE: ok = parse_u64(arg, 1, 86400, &v), lim->idle_s = (unsigned)v; break;
    case O_KEEP: ok = parse_u64(arg, 0, 86400, &v), lim->keep_s = (unsigned)v; break;
    case O_CONN: ok = parse_u64(arg, 1, 10000, &o->conns); break;
    case O_THREADS: ok = parse_u64(arg, 1, 1024, &v), o->cfg.threads = (unsigned)v; break;
    case O_HASH: ok = parse_u64(arg, 1, 1 << 20, &v), o->cfg.hash_mb = (unsigned)v; break;
    case O_OPEN: o->open = 1; break;
    default: ok = 0;
    }
    return ok;
}

/* Parses the command line into *o: -1 to go on, else the exit status (--help, a usage error). */
static int parse_args(serve_opts *o, int argc, char **argv) {
    static const struct option opts[] = {{"port", required_argument, NULL, O_PORT},
                                         {"bind", required_argument, NULL, O_BIND},
                                         {"engine", required_argument, NULL, O_ENGINE},
                                         {"jobs", required_argument, NULL, O_JOBS},
                                         {"queue", required_argument, NULL, O_QUEUE},
                                         {"max-body", required_argument, NULL, O_BODY},
                                         {"max-games", required_argument, NULL, O_GAMES},
                                         {"max-plies", required_argument, NULL, O_PLIES},
                                         {"max-nodes", required_argument, NULL, O_NODES},
                                         {"max-depth", required_argument, NULL, O_DEPTH},
                                         {"max-movetime", required_argument, NULL, O_MOVETIME},
                                         {"move-timeout", required_argument, NULL, O_MOVE_TO},
                                         {"job-timeout", required_argument, NULL, O_JOB_TO},
                                         {"idle-timeout", required_argument, NULL, O_IDLE},
                                         {"keep", required_argument, NULL, O_KEEP},
                                         {"connections", required_argument, NULL, O_CONN},
                                         {"threads", required_argument, NULL, O_THREADS},
                                         {"hash", required_argument, NULL, O_HASH},
                                         {"open", no_argument, NULL, O_OPEN},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (ch == 'h') {
            fputs(serve_usage, stdout);
            return EXIT_OK;
        }
        if (ch < O_PORT) { /* '?' or ':' */
            return cli_usage_error("serve", serve_usage, NULL);
        }
        if (!set_option(o, ch, optarg)) {
            char msg[160];
            snprintf(msg, sizeof msg, "bad value '%s' for %s", optarg, argv[optind - 1]);
            return cli_usage_error("serve", serve_usage, msg);
        }
    }
    if (optind < argc) {
        return cli_usage_error("serve", serve_usage, "serve takes no file");
    }
    return -1;
}

/* The address to listen on: 0, or -1 when --bind is not a numeric IP address. */
static int make_addr(const serve_opts *o, struct sockaddr_storage *ss, int *ipv6) {
    memset(ss, 0, sizeof *ss);
    *ipv6 = strchr(o->bind_addr, ':') != NULL;
    if (*ipv6) {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)o->port);
        return inet_pton(AF_INET6, o->bind_addr, &a->sin6_addr) == 1 ? 0 : -1;
    }
    struct sockaddr_in *a = (struct sockaddr_in *)ss;
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)o->port);
    return inet_pton(AF_INET, o->bind_addr, &a->sin_addr) == 1 ? 0 : -1;
}

/* Binds and listens: the socket (its port in *port, for --port 0), or -1 after a message. The
 * socket is bound here, so that the port and so the accepted Host values are known before any
 * request can arrive. */
static int open_listener(const serve_opts *o, struct sockaddr_storage *ss, int ipv6,
                         unsigned *port) {
    int fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    socklen_t sl = ipv6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    if (fd >= 0) {
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    }
    if (fd < 0 || bind(fd, (struct sockaddr *)ss, sl) != 0 || listen(fd, 128) != 0 ||
        getsockname(fd, (struct sockaddr *)ss, &sl) != 0) {
        cli_error(NULL, "cannot listen on %s port %u: %s", o->bind_addr, (unsigned)o->port,
                  strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    *port =
        ntohs(ipv6 ? ((struct sockaddr_in6 *)ss)->sin6_port : ((struct sockaddr_in *)ss)->sin_port);
    return fd;
}

/* The Host header values a request may carry: the loopback names and the --bind address. */
static void set_hosts(server *s, const char *bind_addr, int ipv6, unsigned port) {
    snprintf(s->hosts[0], sizeof s->hosts[0], "127.0.0.1:%u", port);
    snprintf(s->hosts[1], sizeof s->hosts[1], "localhost:%u", port);
    snprintf(s->hosts[2], sizeof s->hosts[2], "[::1]:%u", port);
    s->nhosts = 3;
    if (strcmp(bind_addr, "127.0.0.1") != 0 && strcmp(bind_addr, "::1") != 0 &&
        strcmp(bind_addr, "0.0.0.0") != 0 && strcmp(bind_addr, "::") != 0) {
        snprintf(s->hosts[3], sizeof s->hosts[3], ipv6 ? "[%s]:%u" : "%s:%u", bind_addr, port);
        s->nhosts = 4;
    }
}

/* --open: the page in the user's browser, $BROWSER or else xdg-open, started in the background by
 * a shell that exits at once (so no child of ours is left to reap; the engines are our children).
 * A browser that cannot be started says so on the terminal itself; the URL is printed anyway. */
static void open_browser(const char *url) {
    const char *b = getenv("BROWSER");
    char sh[] = "sh", c[] = "-c", script[] = "\"$0\" \"$1\" </dev/null >/dev/null 2>&1 &";
    char browser[512], u[128];
    snprintf(browser, sizeof browser, "%s", b && *b ? b : "xdg-open");
    snprintf(u, sizeof u, "%s", url);
    char *argv[] = {sh, c, script, browser, u, NULL};
    pid_t pid;
    posix_spawnattr_t at;
    sigset_t none;
    sigemptyset(&none);
    int bad = posix_spawnattr_init(&at) != 0;
    if (!bad) { /* not the server's blocked stop signals */
        bad = posix_spawnattr_setsigmask(&at, &none) != 0 ||
              posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK) != 0 ||
              posix_spawn(&pid, "/bin/sh", NULL, &at, argv, environ) != 0;
        posix_spawnattr_destroy(&at);
    }
    if (bad) {
        cli_error(NULL, "cannot start a browser for --open: open %s yourself", url);
        return;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
}

/* Serves on the listening socket fd until a signal of stop: the exit status. */
static int run_daemon(server *s, const serve_opts *o, int fd, int ipv6, unsigned port,
                      const sigset_t *stop) {
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG | (ipv6 ? MHD_USE_IPv6 : 0),
        (uint16_t)port, NULL, NULL, handle, s, MHD_OPTION_LISTEN_SOCKET, fd,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)o->conns, MHD_OPTION_CONNECTION_TIMEOUT, 15u,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536, MHD_OPTION_THREAD_POOL_SIZE, 2u,
        MHD_OPTION_NOTIFY_COMPLETED, free_request, NULL, MHD_OPTION_END);
    if (!d) {
        cli_error(NULL, "cannot start the HTTP server");
        close(fd);
        return EXIT_RESOURCE;
    }
    const char *shown = strcmp(o->bind_addr, "0.0.0.0") == 0 ? "127.0.0.1"
                        : strcmp(o->bind_addr, "::") == 0    ? "::1"
                                                             : o->bind_addr;
    char url[128];
    snprintf(url, sizeof url, ipv6 ? "http://[%s]:%u/" : "http://%s:%u/", shown, port);
    printf("pgnkit serve: %s (Ctrl-C stops)\n", url);
    fflush(stdout);
    if (o->open) {
        open_browser(url);
    }
    int sig = 0;
    sigwait(stop, &sig);
    MHD_stop_daemon(d);
    fprintf(stderr, "pgnkit serve: stopped (signal %d)\n", sig);
    return EXIT_OK;
}

/* Blocks the signals that stop the server (taken by sigwait, in no other thread) into *stop. */
static void block_stop_signals(sigset_t *stop) {
    sigemptyset(stop);
    sigaddset(stop, SIGINT);
    sigaddset(stop, SIGTERM);
    sigaddset(stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, stop, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int cmd_serve(int argc, char **argv) {
    serve_opts o;
    memset(&o, 0, sizeof o);
    serve_limits lim = {1 << 20, 100, 1000, 1, 8, 30, 10000000, 10000, 30000, 600, 30, 600};
    o.lim = lim;
    o.port = 8765;
    o.conns = 64;
    o.bind_addr = "127.0.0.1";
    o.cfg.limit_kind = PGN_LIMIT_NODES;
    o.cfg.limit = 1000000;
    int st = parse_args(&o, argc, argv), ipv6;
    struct sockaddr_storage ss;
    if (st >= 0) {
        return st;
    }
    if (make_addr(&o, &ss, &ipv6) != 0) {
        return cli_usage_error("serve", serve_usage, "--bind takes a numeric IP address");
    }
    o.cfg.timeout_ms = o.lim.move_ms;
    o.cfg.handshake_ms = 10000;
    sigset_t stop;
    block_stop_signals(&stop);
    server s;
    memset(&s, 0, sizeof s);
    s.lim = o.lim;
    char err[256];
    if (build_page(&s) != 0) {
        cli_error(NULL, "out of memory");
        free(s.page.p);
        return EXIT_RESOURCE;
    }
    if (serve_jobs_start(&s.jobs, &o.lim, &o.cfg, err, sizeof err) != 0) {
        cli_error(NULL, "%s", err);
        free(s.page.p);
        return EXIT_RESOURCE;
    }
    unsigned port = 0;
    int fd = open_listener(&o, &ss, ipv6, &port);
    st = EXIT_RESOURCE;
    if (fd >= 0) {
        set_hosts(&s, o.bind_addr, ipv6, port);
        st = run_daemon(&s, &o, fd, ipv6, port, &stop);
    }
    serve_jobs_stop(s.jobs);
    free(s.page.p);
    return st;
}

#endif
