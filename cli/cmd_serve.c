/* SPDX-License-Identifier: MIT */
/* pgnkit serve: a local web page (libmicrohttpd) where a person pastes or uploads a PGN, sees its
 * diagnostics or its games in the viewer of pgnkit html, and has them analysed by a UCI engine
 * (serve_jobs.c). Safety (docs/design.md "pgnkit serve"): 127.0.0.1 by default, Host checked on
 * every request and Origin on every POST, capped bodies, games, plies, jobs and engine time, no
 * file served but the page built into the program. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "serve.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char serve_usage[] =
    "usage: pgnkit serve [--port N] [--bind ADDR] [--engine PATH] [--jobs N] [--queue N]\n"
    "                    [--max-body BYTES] [--max-games N] [--max-plies N] [--max-nodes N]\n"
    "                    [--max-depth N] [--max-movetime MS] [--move-timeout MS]\n"
    "                    [--job-timeout S] [--idle-timeout S] [--keep S] [--max-results BYTES]\n"
    "                    [--max-answers BYTES] [--connections N] [--per-client N]\n"
    "                    [--timeout S] [--request-timeout S] [--threads T] [--hash MB]\n"
    "                    [--open] [--db FILE]\n"
    "Serves a local web page (http://127.0.0.1:8765/ by default) where you paste or upload a PGN:\n"
    "its diagnostics (line, column, code) or its games are shown in the viewer of pgnkit html,\n"
    "and \"Analyse\" runs a UCI engine on them (default: stockfish on PATH, else\n"
    "/usr/games/stockfish) with the depth, nodes or time per move chosen on the page: results\n"
    "stream to the page (Server-Sent Events; a poll if the stream fails), the board and the eval\n"
    "graph follow the engine move by move, each side's inaccuracies, mistakes, blunders, ACPL and\n"
    "accuracy are listed, and \"Download\" gives the annotated PGN that pgnkit analyze writes\n"
    "with the same limit. The URL is printed on stdout; Ctrl-C (SIGINT) or SIGTERM stops the "
    "server.\n"
    "--port N        port (default 8765; 0: any free port)\n"
    "--bind ADDR     numeric address to listen on (default 127.0.0.1; ::1 for IPv6)\n"
    "--open          open the page in the browser ($BROWSER, else xdg-open) once it is served\n"
    "--db FILE       a game database (pgnkit db import): beside the board, an explorer panel\n"
    "                lists the moves played from the position shown (GET /api/explore?fen=FEN)\n"
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
    "--max-results BYTES  what the jobs held may take, pastes and results [67108864]: the\n"
    "                  oldest finished jobs are dropped first; past it a job is refused (503)\n"
    "                  or stopped\n"
    "--max-answers BYTES  what answers not yet read by their clients and request bodies\n"
    "                  may take [67108864]; past it new requests get 503\n"
    "--connections N   open connections [64]; past it the oldest connection still sending\n"
    "                  its request is closed for the new one\n"
    "--per-client N    open connections one address may hold [16]; more are closed\n"
    "--timeout S       a connection silent this long is closed [10]\n"
    "--request-timeout S  a request (headers and body) not received within it is closed [30]\n"
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

#include "serve_http.h"

#include <pthread.h>
#include <unistd.h>
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
    O_RESULTS,
    O_CONN,
    O_THREADS,
    O_HASH,
    O_OPEN,
    O_PER_CLIENT,
    O_TIMEOUT,
    O_REQ_TIMEOUT,
    O_ANSWERS,
    O_DB
};

/* What the command line asked for. */
typedef struct serve_opts {
    serve_limits lim;
    uint64_t port, conns, per_client;
    uint64_t timeout_s, request_s; /* --timeout (silence), --request-timeout */
    uint64_t max_answers;          /* bytes held for clients: answers unsent, bodies */
    const char *bind_addr;
    pgn_engine_config cfg;
    int open;       /* --open */
    const char *db; /* --db: the explorer panel's database */
} serve_opts;

/* Takes the value of option ch; returns 0 for a bad value. */
static int set_option(serve_opts *o, int ch, const char *arg) {
    uint64_t v = 0;
    serve_limits *lim = &o->lim;
    int ok = 1;
    switch (ch) {
    case O_PORT: ok = cli_parse_u64(arg, 0, 65535, &o->port); break;
    case O_BIND: o->bind_addr = arg; break;
    case O_ENGINE: o->cfg.path = arg; break;
    case O_JOBS: ok = cli_parse_u64(arg, 1, 64, &v), lim->workers = (unsigned)v; break;
    case O_QUEUE: ok = cli_parse_u64(arg, 0, 10000, &v), lim->queue = (unsigned)v; break;
    case O_BODY: ok = cli_parse_u64(arg, 1, 1u << 30, &v), lim->max_body = (size_t)v; break;
    case O_GAMES: ok = cli_parse_u64(arg, 1, 100000, &v), lim->max_games = (unsigned)v; break;
    case O_PLIES: ok = cli_parse_u64(arg, 1, 100000, &v), lim->max_plies = (unsigned)v; break;
    case O_NODES: ok = cli_parse_u64(arg, 1, UINT64_MAX / 2, &lim->max_nodes); break;
    case O_DEPTH: ok = cli_parse_u64(arg, 1, 200, &v), lim->max_depth = (unsigned)v; break;
    case O_MOVETIME: ok = cli_parse_u64(arg, 1, 3600000, &lim->max_movetime); break;
    case O_MOVE_TO: ok = cli_parse_u64(arg, 1, 86400000, &v), lim->move_ms = (int)v; break;
    case O_JOB_TO: ok = cli_parse_u64(arg, 1, 86400, &v), lim->job_s = (unsigned)v; break;
    case O_IDLE: ok = cli_parse_u64(arg, 1, 86400, &v), lim->idle_s = (unsigned)v; break;
    case O_KEEP: ok = cli_parse_u64(arg, 0, 86400, &v), lim->keep_s = (unsigned)v; break;
    case O_RESULTS: ok = cli_parse_u64(arg, 4096, SIZE_MAX / 2, &v), lim->max_results = v; break;
    case O_CONN: ok = cli_parse_u64(arg, 1, 10000, &o->conns); break;
    case O_THREADS: ok = cli_parse_u64(arg, 1, 1024, &v), o->cfg.threads = (unsigned)v; break;
    case O_HASH: ok = cli_parse_u64(arg, 1, 1 << 20, &v), o->cfg.hash_mb = (unsigned)v; break;
    case O_PER_CLIENT: ok = cli_parse_u64(arg, 1, 10000, &o->per_client); break;
    case O_TIMEOUT: ok = cli_parse_u64(arg, 1, 3600, &o->timeout_s); break;
    case O_REQ_TIMEOUT: ok = cli_parse_u64(arg, 1, 3600, &o->request_s); break;
    case O_ANSWERS: ok = cli_parse_u64(arg, 4096, SIZE_MAX / 2, &o->max_answers); break;
    case O_OPEN: o->open = 1; break;
    case O_DB: o->db = arg; break;
    default: ok = 0;
    }
    return ok;
}

/* Parses the command line into *o: -1 to go on, else the exit status (--help, a usage error). */
static int parse_args(serve_opts *o, int argc, char **argv) {
    static const struct option opts[] = {
        {"port", required_argument, NULL, O_PORT},
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
        {"max-results", required_argument, NULL, O_RESULTS},
        {"connections", required_argument, NULL, O_CONN},
        {"per-client", required_argument, NULL, O_PER_CLIENT},
        {"timeout", required_argument, NULL, O_TIMEOUT},
        {"request-timeout", required_argument, NULL, O_REQ_TIMEOUT},
        {"max-answers", required_argument, NULL, O_ANSWERS},
        {"threads", required_argument, NULL, O_THREADS},
        {"hash", required_argument, NULL, O_HASH},
        {"open", no_argument, NULL, O_OPEN},
        {"db", required_argument, NULL, O_DB},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int ch, idx = 0;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", opts, &idx)) != -1) {
        if (ch == 'h') {
            fputs(serve_usage, stdout);
            return EXIT_OK;
        }
        if (ch < O_PORT) { /* '?' or ':' */
            return cli_usage_error("serve", serve_usage, NULL);
        }
        if (!set_option(o, ch, optarg)) {
            char msg[160];
            snprintf(msg, sizeof msg, "bad value '%s' for --%s", optarg, opts[idx].name);
            return cli_usage_error("serve", serve_usage, msg);
        }
    }
    if (optind < argc) {
        return cli_usage_error("serve", serve_usage, "serve takes no file");
    }
    return -1;
}

/* Serves on the listening socket fd until a signal of stop: the exit status. */
static int serve_daemon(server *s, const serve_opts *o, int fd, int ipv6, unsigned port,
                        const sigset_t *stop) {
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME |
            (ipv6 ? MHD_USE_IPv6 : 0),
        (uint16_t)port, NULL, NULL, serve_handle, s, MHD_OPTION_LISTEN_SOCKET, fd,
        /* past --connections the guard shuts the oldest slow request: a few more are taken */
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)o->conns + 8, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)o->timeout_s, MHD_OPTION_NOTIFY_CONNECTION, serve_guard_notify, s,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)o->per_client,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536, MHD_OPTION_THREAD_POOL_SIZE, 2u,
        MHD_OPTION_NOTIFY_COMPLETED, serve_request_done, s, MHD_OPTION_END);
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
        serve_open_browser(url);
    }
    int sig = 0;
    sigwait(stop, &sig);
    fprintf(stderr, "pgnkit serve: stopping (signal %d; once more exits at once)\n", sig);
    serve_jobs_abort(s->jobs); /* every search told to stop now */
    serve_second sec = {s->jobs, *stop};
    pthread_t th;
    int watching = pthread_create(&th, NULL, serve_second_signal, &sec) == 0;
    serve_streams_end(s->jobs, 2000); /* no connection is left suspended */
    MHD_stop_daemon(d);
    serve_jobs_halt(s->jobs); /* the workers end, the engines stop or are killed */
    if (watching) {
        pthread_cancel(th); /* in sigwait, a cancellation point */
        pthread_join(th, NULL);
    }
    fprintf(stderr, "pgnkit serve: stopped (signal %d)\n", sig);
    return EXIT_OK;
}

/* The guard of slow requests around serve_daemon: the exit status. */
static int run_daemon(server *s, const serve_opts *o, int fd, int ipv6, unsigned port,
                      const sigset_t *stop) {
    if (serve_guard_start(&s->guard, (unsigned)o->conns, (int64_t)o->request_s * 1000,
                          (size_t)o->max_answers) != 0) {
        cli_error(NULL, "cannot start a thread");
        close(fd);
        return EXIT_RESOURCE;
    }
    int st = serve_daemon(s, o, fd, ipv6, port, stop);
    serve_guard_stop(&s->guard);
    return st;
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
    serve_limits lim = {1 << 20, 100,   1000, 1,  8,   30,      10000000,
                        10000,   30000, 600,  30, 600, 64 << 20};
    o.lim = lim;
    o.port = 8765;
    o.conns = 64;
    o.per_client = 16;
    o.timeout_s = 10;
    o.request_s = 30;
    o.max_answers = 64 << 20;
    o.bind_addr = "127.0.0.1";
    o.cfg.limit_kind = PGN_LIMIT_NODES;
    o.cfg.limit = 1000000;
    int st = parse_args(&o, argc, argv), ipv6;
    struct sockaddr_storage ss;
    if (st >= 0) {
        return st;
    }
    if (serve_make_addr(o.bind_addr, (unsigned)o.port, &ss, &ipv6) != 0) {
        return cli_usage_error("serve", serve_usage, "--bind takes a numeric IP address");
    }
    char err[256];
    if (serve_mhd_load(err, sizeof err) != 0) {
        cli_error(NULL, "%s", err);
        return EXIT_RESOURCE;
    }
    o.cfg.timeout_ms = o.lim.move_ms;
    o.cfg.handshake_ms = 10000;
    sigset_t stop;
    block_stop_signals(&stop);
    server s;
    memset(&s, 0, sizeof s);
    s.lim = o.lim;
    if (serve_open_page(&s, o.db) != 0) {
        return EXIT_RESOURCE;
    }
    if (serve_jobs_start(&s.jobs, &o.lim, &o.cfg, err, sizeof err) != 0) {
        cli_error(NULL, "%s", err);
        serve_explore_close(&s);
        free(s.page.ptr);
        return EXIT_RESOURCE;
    }
    serve_warn_wide(&ss, o.bind_addr);
    unsigned port = (unsigned)o.port;
    int fd = serve_listen(o.bind_addr, &ss, ipv6, &port);
    st = EXIT_RESOURCE;
    if (fd >= 0) {
        serve_http_streams(s.jobs);
        serve_set_hosts(&s, o.bind_addr, ipv6, port);
        st = run_daemon(&s, &o, fd, ipv6, port, &stop);
    }
    serve_jobs_stop(s.jobs);
    serve_explore_close(&s);
    free(s.page.ptr);
    return st;
}

#endif
