/* SPDX-License-Identifier: MIT */
/* pgnkit analyze: every main-line position of every game searched by a UCI engine, and the game
 * written back in export format with [%eval] commands, move and position assessment NAGs (PGN §10),
 * the engine's line after mistakes (PGN §8.2.5) and per-player tags. -j runs several engines on
 * different games, one thread each; the output keeps the input order. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "engine.h"

#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: pgnkit analyze [--engine PATH] [--depth N | --nodes N | --movetime MS] [--multipv K]\n"
    "                      [-j JOBS] [--threads T] [--hash MB] [--timeout MS] [--replace]\n"
    "                      [--quiet] [--diag text|json] [-o OUT] [FILE...]\n"
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
    "exit status: 0 all analysed, 1 input errors or games not analysed, 2 usage,\n"
    "3 engine missing or not UCI, I/O or memory failure\n";

typedef struct slot {
    int ready;
    char *buf;
    size_t len;
} slot;

typedef struct shared {
    pthread_mutex_t mu;
    pthread_mutex_t err_mu; /* stderr: messages and the progress line; taken after mu */
    int progress_shown;     /* a progress line without its line break is on the terminal */
    pthread_cond_t cv;
    char **files;
    int nfiles, file_i;
    FILE *in;
    pgn_reader *reader;
    pgn_reader_opts ropts;
    uint64_t next_seq, next_write;
    slot *ring;
    size_t ring_cap;
    int eof, fatal;
    FILE *out;
    uint64_t games, analysed, not_analysed, positions, input_errors;
    int64_t t0, last_progress;
    int progress;
    /* for the ETA: input sizes when every input is a regular file (total_bytes 0: unknown) */
    uint64_t total_bytes, done_bytes, cur_offset, finished_bytes;
    const engine_cfg *cfg;
    int replace;
} shared;

typedef struct worker {
    shared *s;
    engine eng;
    pthread_t th;
    pgn_game *game;
    pgn_writer *writer;
    /* the output of the current game */
    cli_membuf out;
    const char *src; /* the current game's file and ordinal in it, for messages */
    uint64_t game_no;
    char err[256];       /* the engine's last failure */
    int new_game_failed; /* the game was not analysed because no engine would start it */
} worker;

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Clears a progress line left on the terminal, so that the next message starts a line of its
 * own. Under err_mu. */
static void clear_progress(shared *s) {
    if (s->progress_shown) {
        fputs("\r\033[K", stderr);
        s->progress_shown = 0;
    }
}

/* Every message of analyze goes through here (or through diag): one line on stderr, never run
 * into the progress line. Safe from any thread. */
static void say(shared *s, const char *fmt, ...) {
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

typedef struct diag_ctx {
    shared *s;
    cli_diag_ctx cli;
    unsigned long long errors, warnings; /* for the --diag json summary */
} diag_ctx;

/* The reader's diagnostics, printed like the other commands' after the progress line is cleared. */
static void diag(void *ctx, const pgn_diag *d) {
    diag_ctx *dc = ctx;
    pthread_mutex_lock(&dc->s->err_mu);
    clear_progress(dc->s);
    *(d->severity == PGN_SEV_ERROR ? &dc->errors : &dc->warnings) += 1;
    cli_print_diag(&dc->cli, d);
    pthread_mutex_unlock(&dc->s->err_mu);
}

/* Reads the next game into w->game, moving on to the next file at the end of one. Under s->mu.
 * Returns 1 with a game (raw bytes copied to w->out.p if the game is broken: *broken set), 0 at the
 * end of all input, -1 on a fatal error. */
static int read_next(shared *s, worker *w, int *broken) {
    for (;;) {
        if (!s->reader) {
            if (s->file_i >= s->nfiles) {
                return 0;
            }
            const char *path = s->files[s->file_i++];
            pthread_mutex_lock(&s->err_mu); /* cli_open_input may print */
            clear_progress(s);
            s->in = cli_open_input(path);
            pthread_mutex_unlock(&s->err_mu);
            if (!s->in) {
                return -1;
            }
            pgn_reader_opts ro = s->ropts;
            ro.source_name = strcmp(path, "-") == 0 ? "<stdin>" : path;
            if (pgn_reader_new_file(&s->reader, &ro, s->in) != PGN_OK) {
                say(s, "pgnkit analyze: out of memory\n");
                return -1;
            }
        }
        pgn_status st = pgn_reader_next(s->reader, w->game);
        if (st == PGN_OK) {
            const pgn_game_summary *sum = pgn_reader_summary(s->reader);
            *broken = sum->broken;
            s->cur_offset = sum->end_offset;
            w->src = s->files[s->file_i - 1];
            w->src = strcmp(w->src, "-") == 0 ? "<stdin>" : w->src;
            w->game_no = sum->game;
            w->out.len = 0;
            if (sum->broken) {
                pgn_str raw = pgn_reader_raw(s->reader);
                if (cli_membuf_write(&w->out, raw.ptr, raw.len) < 0) {
                    return -1;
                }
            }
            return 1;
        }
        uint64_t g, e;
        pgn_reader_totals(s->reader, &g, &e, NULL);
        s->input_errors += e;
        pgn_reader_free(s->reader);
        cli_close_input(s->in);
        s->reader = NULL;
        s->in = NULL;
        s->done_bytes += s->cur_offset;
        s->cur_offset = 0;
        if (st == PGN_E_LIMIT) {
            continue;
        }
        if (st != PGN_END) {
            say(s, "pgnkit analyze: %s\n", pgn_status_message(st));
            return -1;
        }
    }
}

static void progress(shared *s, int final) {
    int64_t t = now_ms();
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

static int restart(worker *w, int chess960, char *err, size_t cap) {
    engine_stop(&w->eng);
    if (engine_start(&w->eng, w->s->cfg, err, cap) != 0) {
        return -1;
    }
    return engine_new_game(&w->eng, chess960, err, cap);
}

/* pgn_engine_callbacks.new_game: the running engine told, or a new one started. */
static pgn_status on_new_game(void *ctx, int chess960) {
    worker *w = ctx;
    if ((w->eng.pid <= 0 || engine_new_game(&w->eng, chess960, w->err, sizeof w->err) != 0) &&
        restart(w, chess960, w->err, sizeof w->err) != 0) {
        w->new_game_failed = 1;
        return PGN_E_IO;
    }
    return PGN_OK;
}

/* pgn_engine_callbacks.search: one position, retried once on a restarted engine. */
static pgn_status on_search(void *ctx, const pgn_search_request *req, pgn_search *search) {
    worker *w = ctx;
    char warn[320];
    for (int attempt = 0; attempt < 2; attempt++) {
        if (attempt > 0) {
            if (restart(w, req->start->chess960, w->err, sizeof w->err) != 0) {
                return PGN_E_IO;
            }
            pgn_search_begin(search, req->pos);
        }
        if (engine_search(&w->eng, req->position, req->go, search, w->err, sizeof w->err, warn,
                          sizeof warn) == 0) {
            if (warn[0]) {
                say(w->s, "pgnkit analyze: %s: warning: game %llu, ply %zu: %s (dropped)\n", w->src,
                    (unsigned long long)w->game_no, req->ply, warn);
            }
            return PGN_OK;
        }
        say(w->s, "pgnkit analyze: %s: game %llu, ply %zu: %s%s\n", w->src,
            (unsigned long long)w->game_no, req->ply, w->err,
            attempt == 0 ? "; restarting the engine" : "");
    }
    return PGN_E_IO;
}

/* pgn_engine_callbacks.position_done: the progress line. */
static void on_position_done(void *ctx, size_t ply) {
    (void)ply;
    shared *s = ((worker *)ctx)->s;
    pthread_mutex_lock(&s->mu);
    s->positions++;
    progress(s, 0);
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
                             w->eng.name,
                             NULL};
    w->new_game_failed = 0;
    pgn_status st = pgn_game_analyze(w->game, &engine_cbs, w, &opts, NULL);
    const char *src = w->src;
    unsigned long long no = (unsigned long long)w->game_no;
    switch (st) {
    case PGN_OK: return 0;
    case PGN_E_NOMEM: return -1;
    case PGN_E_ILLEGAL_MOVE:
        say(w->s, "pgnkit analyze: %s: game %llu not analysed: a null move\n", src, no);
        return 1;
    default:
        if (w->new_game_failed) {
            say(w->s, "pgnkit analyze: %s: game %llu not analysed: %s\n", src, no, w->err);
        } else {
            say(w->s, "pgnkit analyze: %s: game %llu not analysed\n", src, no);
        }
        return 1;
    }
}

/* Stores game seq's output and writes every finished output that is next in input order. Under mu.
 */
static void deliver(shared *s, worker *w, uint64_t seq) {
    slot *sl = &s->ring[seq % s->ring_cap];
    sl->buf = w->out.p;
    sl->len = w->out.len;
    sl->ready = 1;
    w->out.p = NULL;
    w->out.len = w->out.cap = 0;
    for (;;) {
        slot *next = &s->ring[s->next_write % s->ring_cap];
        if (!next->ready) {
            break;
        }
        if (next->len && fwrite(next->buf, 1, next->len, s->out) != next->len) {
            s->fatal = 1;
        }
        free(next->buf);
        next->buf = NULL;
        next->ready = 0;
        s->next_write++;
    }
    pthread_cond_broadcast(&s->cv);
}

static void *worker_main(void *arg) {
    worker *w = arg;
    shared *s = w->s;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (!s->eof && !s->fatal && s->next_seq - s->next_write >= s->ring_cap) {
            pthread_cond_wait(&s->cv, &s->mu);
        }
        if (s->eof || s->fatal) {
            break;
        }
        int broken = 0;
        int r = read_next(s, w, &broken);
        if (r <= 0) {
            s->eof = 1;
            s->fatal |= r < 0;
            pthread_cond_broadcast(&s->cv);
            break;
        }
        uint64_t seq = s->next_seq++;
        uint64_t upto = s->done_bytes + s->cur_offset; /* input bytes up to the end of this game */
        s->games++;
        pthread_mutex_unlock(&s->mu);
        int rc = broken ? 1 : analyze_game(w);
        int wrote = 1;
        if (!broken && rc >= 0) {
            w->out.len = 0;
            wrote = pgn_writer_write(w->writer, w->game) == PGN_OK;
        }
        pthread_mutex_lock(&s->mu);
        if (rc < 0 || !wrote) {
            say(s, "pgnkit analyze: out of memory\n");
            s->fatal = 1;
            pthread_cond_broadcast(&s->cv);
            break;
        }
        s->finished_bytes = upto > s->finished_bytes ? upto : s->finished_bytes;
        if (rc == 0) {
            s->analysed++;
        } else if (!broken) {
            s->not_analysed++;
        }
        deliver(s, w, seq);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static int parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out) {
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || v < min || v > max) {
        return 0;
    }
    *out = v;
    return 1;
}

static int parse_args(int argc, char **argv, engine_cfg *cfg, unsigned *jobs, const char **out_path,
                      int *quiet, int *replace, int *diag_json) {
    static const struct option opts[] = {{"engine", required_argument, NULL, 'e'},
                                         {"depth", required_argument, NULL, 'd'},
                                         {"nodes", required_argument, NULL, 'n'},
                                         {"movetime", required_argument, NULL, 'm'},
                                         {"multipv", required_argument, NULL, 'M'},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"threads", required_argument, NULL, 't'},
                                         {"hash", required_argument, NULL, 'H'},
                                         {"timeout", required_argument, NULL, 'T'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"replace", no_argument, NULL, 'R'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"diag", required_argument, NULL, 'D'},
                                         {NULL, 0, NULL, 0}};
    int c, limits = 0;
    uint64_t v = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hj:o:q", opts, NULL)) != -1) {
        int ok = 1;
        switch (c) {
        case 'e': cfg->path = optarg; break;
        case 'd':
            ok = parse_u64(optarg, 1, 200, &cfg->limit), cfg->limit_kind = PGN_LIMIT_DEPTH,
            limits++;
            break;
        case 'n':
            ok = parse_u64(optarg, 1, UINT64_MAX / 2, &cfg->limit),
            cfg->limit_kind = PGN_LIMIT_NODES, limits++;
            break;
        case 'm':
            ok = parse_u64(optarg, 1, 86400000, &cfg->limit), cfg->limit_kind = PGN_LIMIT_MOVETIME,
            limits++;
            break;
        case 'M': ok = parse_u64(optarg, 1, 500, &v), cfg->multipv = (unsigned)v; break;
        case 'j': ok = parse_u64(optarg, 1, 256, &v), *jobs = (unsigned)v; break;
        case 't': ok = parse_u64(optarg, 1, 1024, &v), cfg->threads = (unsigned)v; break;
        case 'H': ok = parse_u64(optarg, 1, 1 << 20, &v), cfg->hash_mb = (unsigned)v; break;
        case 'T': ok = parse_u64(optarg, 1, 86400000, &v), cfg->timeout_ms = (int)v; break;
        case 'o': *out_path = optarg; break;
        case 'q': *quiet = 1; break;
        case 'R': *replace = 1; break;
        case 'D':
            if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0) {
                return cli_usage_error("analyze", usage_text, "--diag takes text or json");
            }
            *diag_json = strcmp(optarg, "json") == 0;
            cli_set_diag_json(*diag_json);
            break;
        case 'h': fputs(usage_text, stdout); return -1;
        default: return cli_usage_error("analyze", usage_text, NULL);
        }
        if (!ok) {
            char msg[160];
            snprintf(msg, sizeof msg, "bad value '%s' for --%s", optarg,
                     c == 'j'   ? "jobs"
                     : c == 'M' ? "multipv"
                     : c == 'H' ? "hash"
                     : c == 'T' ? "timeout"
                     : c == 't' ? "threads"
                     : c == 'd' ? "depth"
                     : c == 'n' ? "nodes"
                                : "movetime");
            return cli_usage_error("analyze", usage_text, msg);
        }
    }
    if (limits > 1) {
        return cli_usage_error("analyze", usage_text, "give one of --depth, --nodes, --movetime");
    }
    cfg->handshake_ms = cfg->timeout_ms > 0 && cfg->timeout_ms < 10000 ? cfg->timeout_ms : 10000;
    return EXIT_OK;
}

static int run(shared *s, worker *ws, unsigned jobs) {
    unsigned started = 0;
    for (unsigned i = 1; i < jobs; i++) {
        if (pthread_create(&ws[i].th, NULL, worker_main, &ws[i]) != 0) {
            break;
        }
        started = i;
    }
    worker_main(&ws[0]);
    for (unsigned i = 1; i <= started; i++) {
        pthread_join(ws[i].th, NULL);
    }
    return s->fatal ? EXIT_RESOURCE : (s->input_errors || s->not_analysed) ? EXIT_INPUT : EXIT_OK;
}

int cmd_analyze(int argc, char **argv) {
    engine_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.limit_kind = PGN_LIMIT_NODES;
    cfg.limit = 1000000;
    unsigned jobs = 1;
    const char *out_path = NULL;
    int quiet = 0, replace = 0, diag_json = 0;
    int st = parse_args(argc, argv, &cfg, &jobs, &out_path, &quiet, &replace, &diag_json);
    if (st != EXIT_OK) {
        return st < 0 ? EXIT_OK : st;
    }
    signal(SIGPIPE, SIG_IGN); /* a dead engine is an error return, not our death */
    worker *ws = calloc(jobs, sizeof *ws);
    if (!ws) {
        cli_error(NULL, "out of memory");
        return EXIT_RESOURCE;
    }
    /* every engine must answer the handshake before any game is read */
    char err[256];
    for (unsigned i = 0; i < jobs && st == EXIT_OK; i++) {
        if (engine_start(&ws[i].eng, &cfg, err, sizeof err) != 0) {
            cli_error(NULL, "%s", err);
            st = EXIT_RESOURCE;
        }
    }
    shared s;
    memset(&s, 0, sizeof s);
    diag_ctx dctx = {&s, {diag_json, quiet}, 0, 0};
    s.ropts.on_diag = diag;
    s.ropts.diag_ctx = &dctx;
    s.ropts.flags = PGN_READ_KEEP_RAW;
    static char dash[] = "-";
    static char *stdin_only[] = {dash};
    s.files = optind < argc ? argv + optind : stdin_only;
    s.nfiles = optind < argc ? argc - optind : 1;
    s.ring_cap = 4 * (size_t)jobs;
    s.ring = calloc(s.ring_cap, sizeof *s.ring);
    s.cfg = &cfg;
    s.replace = replace;
    s.progress = !quiet && !diag_json && isatty(2);
    for (int i = 0; s.progress && i < s.nfiles; i++) {
        struct stat sb;
        if (strcmp(s.files[i], "-") == 0 || stat(s.files[i], &sb) != 0 || !S_ISREG(sb.st_mode)) {
            s.total_bytes = 0;
            break;
        }
        s.total_bytes += (uint64_t)sb.st_size;
    }
    s.t0 = now_ms();
    pthread_mutex_init(&s.mu, NULL);
    pthread_mutex_init(&s.err_mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    cli_output out = {0};
    if (st == EXIT_OK && (!s.ring || !cli_open_output(&out, out_path))) {
        st = EXIT_RESOURCE;
    }
    s.out = out.file;
    for (unsigned i = 0; i < jobs && st == EXIT_OK; i++) {
        ws[i].s = &s;
        if (pgn_game_new(&ws[i].game, NULL) != PGN_OK ||
            pgn_writer_new(&ws[i].writer, NULL, cli_membuf_write, &ws[i].out) != PGN_OK) {
            cli_error(NULL, "out of memory");
            st = EXIT_RESOURCE;
        }
    }
    if (st == EXIT_OK) {
        st = run(&s, ws, jobs);
        progress(&s, 1);
        double secs = (double)(now_ms() - s.t0) / 1000.0;
        if (diag_json) { /* docs/diagnostics.schema.json: every game is written */
            fprintf(stderr,
                    "{\"summary\":{\"command\":\"analyze\",\"games\":%llu,\"written\":%llu,"
                    "\"errors\":%llu,\"warnings\":%llu,\"stopped_early\":false}}\n",
                    (unsigned long long)s.games, (unsigned long long)s.games, dctx.errors,
                    dctx.warnings);
        } else {
            fprintf(stderr,
                    "%llu games, %llu analysed, %llu not analysed, %llu positions in %.1f s (%.1f "
                    "positions/s)\n",
                    (unsigned long long)s.games, (unsigned long long)s.analysed,
                    (unsigned long long)s.not_analysed, (unsigned long long)s.positions, secs,
                    secs > 0 ? (double)s.positions / secs : 0.0);
        }
    }
    for (unsigned i = 0; i < jobs; i++) {
        engine_stop(&ws[i].eng);
        pgn_writer_free(ws[i].writer);
        pgn_game_free(ws[i].game);
        free(ws[i].out.p);
    }
    if (s.reader) {
        pgn_reader_free(s.reader);
        cli_close_input(s.in);
    }
    for (size_t i = 0; s.ring && i < s.ring_cap; i++) {
        free(s.ring[i].buf);
    }
    free(s.ring);
    free(ws);
    pthread_mutex_destroy(&s.mu);
    pthread_mutex_destroy(&s.err_mu);
    pthread_cond_destroy(&s.cv);
    return out.file ? cli_close_output(&out, st) : st;
}
