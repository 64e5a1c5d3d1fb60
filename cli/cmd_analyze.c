/* SPDX-License-Identifier: MIT */
/* pgnkit analyze: every main-line position of every game searched by a UCI engine, and the game
 * written back in export format with [%eval] commands, move and position assessment NAGs (PGN §10),
 * the engine's line after mistakes (PGN §8.2.5) and per-player tags. -j runs several engines on
 * different games, one thread each; the output keeps the input order. */
#define _POSIX_C_SOURCE 200809L
#include "analyze.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: pgnkit analyze [--engine PATH] [--depth N | --nodes N | --movetime MS] [--multipv K]\n"
    "                      [-j JOBS] [--threads T] [--hash MB] [--timeout MS] [--replace]\n"
    "                      [-o OUT] [--where EXPR] [reading options] [FILE...]\n"
    "Searches every main-line position of every game with a UCI engine (default: stockfish on "
    "PATH,\n"
    "else /usr/games/stockfish; default limit --nodes 1000000) and writes each game in export "
    "format\n"
    "with [%eval] comments, $6/$2/$4 on inaccuracies, mistakes and blunders with the better move, "
    "the\n"
    "engine's line after mistakes and blunders, a position NAG after the last move, and the tags\n"
    "Annotator, WhiteAccuracy, BlackAccuracy, WhiteACPL, BlackACPL (see docs/analysis.md).\n"
    "--multipv K: every move also gets the engine's K best lines from the position before it\n"
    "(those not starting with the move played) as variations.\n"
    "--replace: the annotations of an earlier analyze run are replaced instead of added to.\n"
    "-j JOBS runs that many engines on different games; the output stays in input order.\n"
    "--timeout MS bounds one search (default: derived from the limit) and the handshake.\n"
    "An engine that crashes or times out is restarted and the position retried once; if that "
    "fails\n"
    "the game is written unchanged and reported. Games with errors are written unchanged.\n"
    "The games are read (and diagnosed) in order by one reader; each game goes to a free "
    "engine.\n" CLI_WHERE_USAGE CLI_READ_USAGE CLI_RANGE_USAGE
    "exit status: 0 all analysed, 1 input errors or games not analysed, 2 usage,\n"
    "3 engine missing or not UCI, I/O or memory failure\n";

enum {
    OPT_ENGINE = CLI_OPT_COMMAND,
    OPT_DEPTH,
    OPT_NODES,
    OPT_MOVETIME,
    OPT_MULTIPV,
    OPT_THREADS,
    OPT_HASH,
    OPT_TIMEOUT,
    OPT_REPLACE
};

/* analyze's own options and what they set. */
typedef struct an_opts {
    pgn_engine_config cfg;
    unsigned jobs;
    int replace, limits;
} an_opts;

/* The numeric options, from OPT_DEPTH to OPT_TIMEOUT and then -j: a limit (one of --depth,
 * --nodes, --movetime) or a count. */
static int number_option(an_opts *o, int i, const char *arg) {
    static const char *const names[] = {"depth",   "nodes", "movetime", "multipv",
                                        "threads", "hash",  "timeout",  "jobs"};
    static const uint64_t max[] = {200,  UINT64_MAX / 2, 86400000, 500,
                                   1024, 1 << 20,        86400000, 256};
    static const pgn_search_limit kinds[] = {PGN_LIMIT_DEPTH, PGN_LIMIT_NODES, PGN_LIMIT_MOVETIME};
    uint64_t v = 0;
    if (!cli_parse_u64(arg, 1, max[i], &v)) {
        return cli_usage("bad value '%s' for --%s", arg, names[i]);
    }
    if (i < 3) {
        o->cfg.limit = v;
        o->cfg.limit_kind = kinds[i];
        return ++o->limits > 1 ? cli_usage("give one of --depth, --nodes, --movetime") : EXIT_OK;
    }
    unsigned *field[] = {&o->cfg.multipv, &o->cfg.threads, &o->cfg.hash_mb, NULL, &o->jobs};
    if (field[i - 3]) {
        *field[i - 3] = (unsigned)v;
    } else {
        o->cfg.timeout_ms = (int)v;
    }
    return EXIT_OK;
}

static int analyze_option(void *user, int ch, const char *arg) {
    an_opts *o = user;
    switch (ch) {
    case OPT_ENGINE: o->cfg.path = arg; return EXIT_OK;
    case OPT_REPLACE: o->replace = 1; return EXIT_OK;
    case 'j': return number_option(o, OPT_TIMEOUT + 1 - OPT_DEPTH, arg);
    default:
        return ch >= OPT_DEPTH && ch <= OPT_TIMEOUT ? number_option(o, ch - OPT_DEPTH, arg)
                                                    : cli_usage("unknown option");
    }
}

/* The options; EXIT_OK, CLI_HELP or EXIT_USAGE. */
static int parse_args(cli_run *r, int argc, char **argv, an_opts *o) {
    static const struct option opts[] = {{"engine", required_argument, NULL, OPT_ENGINE},
                                         {"depth", required_argument, NULL, OPT_DEPTH},
                                         {"nodes", required_argument, NULL, OPT_NODES},
                                         {"movetime", required_argument, NULL, OPT_MOVETIME},
                                         {"multipv", required_argument, NULL, OPT_MULTIPV},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"threads", required_argument, NULL, OPT_THREADS},
                                         {"hash", required_argument, NULL, OPT_HASH},
                                         {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                         {"replace", no_argument, NULL, OPT_REPLACE},
                                         {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->cfg.limit_kind = PGN_LIMIT_NODES;
    o->cfg.limit = 1000000;
    o->jobs = 1;
    int st = cli_run_parse(r, argc, argv, usage_text, opts, "j:", analyze_option, o);
    int t = o->cfg.timeout_ms;
    o->cfg.handshake_ms = t > 0 && t < 10000 ? t : 10000;
    return st;
}

/* Starts the engines (every one must answer the handshake before any game is read) and the
 * workers' games and writers; EXIT_OK or EXIT_RESOURCE after a message. */
static int start_workers(shared *s, worker *ws, unsigned jobs) {
    char err[256];
    for (unsigned i = 0; i < jobs; i++) {
        ws[i].s = s;
        if (pgn_engine_new(&ws[i].eng, s->cfg, NULL) != PGN_OK) {
            cli_error(NULL, "out of memory");
            return EXIT_RESOURCE;
        }
        if (pgn_engine_start(ws[i].eng, err, sizeof err) != PGN_OK) {
            cli_error(NULL, "%s", err);
            return EXIT_RESOURCE;
        }
        if (pgn_game_new(&ws[i].game, NULL) != PGN_OK ||
            pgn_writer_new(&ws[i].writer, NULL, pgn_membuf_write, &ws[i].out) != PGN_OK) {
            cli_error(NULL, "out of memory");
            return EXIT_RESOURCE;
        }
    }
    return EXIT_OK;
}

/* The sizes of the inputs, for the ETA: 0 (unknown) unless every one is a regular file. */
static uint64_t input_bytes(const cli_run *r) {
    uint64_t total = 0;
    for (int i = 0; i < r->nfiles; i++) {
        struct stat sb;
        if (strcmp(r->files[i], "-") == 0 || stat(r->files[i], &sb) != 0 || !S_ISREG(sb.st_mode)) {
            return 0;
        }
        total += (uint64_t)sb.st_size;
    }
    return total;
}

static void free_all(shared *s, worker *ws, unsigned jobs) {
    for (unsigned i = 0; ws && i < jobs; i++) {
        pgn_engine_free(ws[i].eng);
        pgn_writer_free(ws[i].writer);
        pgn_game_free(ws[i].game);
        free(ws[i].out.ptr);
    }
    free(ws);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->err_mu);
}

int cmd_analyze(int argc, char **argv) {
    an_opts o;
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_WHERE);
    int st = parse_args(&r, argc, argv, &o);
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    signal(SIGPIPE, SIG_IGN); /* a dead engine is an error return, not our death */
    shared s;
    memset(&s, 0, sizeof s);
    pthread_mutex_init(&s.mu, NULL);
    pthread_mutex_init(&s.err_mu, NULL);
    s.run = &r;
    s.cfg = &o.cfg;
    s.replace = o.replace;
    s.out = r.out.file;
    s.progress = !r.quiet && !cli_diag_json() && isatty(2);
    s.total_bytes = s.progress ? input_bytes(&r) : 0;
    s.t0 = analyze_now_ms();
    r.raw = 1;
    r.ropts.on_diag = analyze_diag;
    r.ropts.diag_ctx = &s;
    worker *ws = calloc(o.jobs, sizeof *ws);
    cli_summary kind = CLI_SUMMARY_NONE; /* none when nothing was read */
    if (!ws) {
        cli_error(NULL, "out of memory");
        r.aborted = 1;
    } else if (start_workers(&s, ws, o.jobs) != EXIT_OK) {
        r.aborted = 1;
    } else {
        analyze_run(&r, &s, ws, o.jobs);
        kind = CLI_SUMMARY_COUNTS;
    }
    free_all(&s, ws, o.jobs);
    r.status = r.aborted ? EXIT_RESOURCE : s.not_analysed && !r.status ? EXIT_INPUT : r.status;
    cli_run_count(&r, "analysed", "analysed", s.analysed);
    cli_run_count(&r, "not_analysed", "not analysed", s.not_analysed);
    cli_run_count(&r, "positions", "positions", s.positions);
    return cli_run_finish(&r, kind);
}
