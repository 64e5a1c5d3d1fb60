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

/* A game between the reader and the output: its raw bytes while queued, its output when done. */
typedef struct slot {
    int state; /* SLOT_FREE, SLOT_QUEUED, SLOT_TAKEN, SLOT_DONE */
    char *buf;
    size_t len;
    const char *src; /* its input's name and its ordinal there, for messages */
    uint64_t game_no;
} slot;
enum { SLOT_FREE, SLOT_QUEUED, SLOT_TAKEN, SLOT_DONE };

typedef struct shared {
    pthread_mutex_t mu;
    pthread_mutex_t err_mu; /* stderr: messages and the progress line; taken after mu */
    int progress_shown;     /* a progress line without its line break is on the terminal */
    pthread_cond_t cv;
    cli_run *run;
    /* the ring of games in input order: queued by the reader (next_seq), taken by the workers
     * (next_take), written in order (next_write) */
    uint64_t next_seq, next_take, next_write;
    slot *ring;
    size_t ring_cap;
    int eof, fatal;
    FILE *out;
    uint64_t games, analysed, not_analysed, positions;
    int64_t t0, last_progress;
    int progress;
    /* for the ETA: input sizes when every input is a regular file (total_bytes 0: unknown) */
    uint64_t total_bytes, finished_bytes;
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
    cli_membuf raw;      /* the current game's text */
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

/* The reader's diagnostics, printed like the other commands' after the progress line is cleared. */
static void diag(void *ctx, const pgn_diag *d) {
    shared *s = ctx;
    pthread_mutex_lock(&s->err_mu);
    clear_progress(s);
    cli_print_diag_detail(d, s->run->quiet, NULL);
    pthread_mutex_unlock(&s->err_mu);
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

/* Writes every finished output that is next in input order. Under mu. */
static void flush_done(shared *s) {
    for (;;) {
        slot *next = &s->ring[s->next_write % s->ring_cap];
        if (next->state != SLOT_DONE) {
            break;
        }
        if (next->len && fwrite(next->buf, 1, next->len, s->out) != next->len) {
            s->fatal = 1;
        }
        free(next->buf);
        next->buf = NULL;
        next->state = SLOT_FREE;
        s->next_write++;
    }
    pthread_cond_broadcast(&s->cv);
}

/* Takes the next queued game into w (its text into w->raw); its sequence number, or UINT64_MAX
 * at the end of the input. Under mu. */
static uint64_t take(shared *s, worker *w) {
    for (;;) {
        while (!s->eof && !s->fatal && s->next_take == s->next_seq) {
            pthread_cond_wait(&s->cv, &s->mu);
        }
        if (s->fatal || s->next_take == s->next_seq) {
            return UINT64_MAX;
        }
        uint64_t seq = s->next_take++;
        slot *sl = &s->ring[seq % s->ring_cap];
        if (sl->state == SLOT_QUEUED) { /* a broken game is already SLOT_DONE */
            free(w->raw.p);
            w->raw.p = sl->buf;
            w->raw.len = w->raw.cap = sl->len;
            w->src = sl->src;
            w->game_no = sl->game_no;
            sl->buf = NULL;
            sl->state = SLOT_TAKEN;
            return seq;
        }
    }
}

/* The game's text read again into w->game (its diagnostics were printed by the reader). */
static pgn_status parse_taken(worker *w) {
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = w->s->run->ropts.flags & PGN_READ_STRICT;
    ro.encoding = w->s->run->ropts.encoding;
    pgn_reader *rd;
    pgn_status st = pgn_reader_new_mem(&rd, &ro, w->raw.p, w->raw.len);
    if (st == PGN_OK) {
        st = pgn_reader_next(rd, w->game);
        pgn_reader_free(rd);
    }
    return st;
}

/* Analyses one taken game into w->out; 0 analysed, 1 not analysed (reported), -1 out of memory.
 */
static int analyze_taken(worker *w) {
    pgn_status st = parse_taken(w);
    w->out.len = 0;
    if (st != PGN_OK) { /* cannot happen: the reader read it; kept as it was */
        return st == PGN_E_NOMEM || cli_membuf_write(&w->out, w->raw.p, w->raw.len) < 0 ? -1 : 1;
    }
    int rc = analyze_game(w);
    w->out.len = 0;
    return rc >= 0 && pgn_writer_write(w->writer, w->game) != PGN_OK ? -1 : rc;
}

static void *worker_main(void *arg) {
    worker *w = arg;
    shared *s = w->s;
    pthread_mutex_lock(&s->mu);
    for (uint64_t seq; (seq = take(s, w)) != UINT64_MAX;) {
        pthread_mutex_unlock(&s->mu);
        int rc = analyze_taken(w);
        pthread_mutex_lock(&s->mu);
        if (rc < 0) {
            say(s, "pgnkit analyze: out of memory\n");
            s->fatal = 1;
            pthread_cond_broadcast(&s->cv);
            break;
        }
        *(rc == 0 ? &s->analysed : &s->not_analysed) += 1;
        s->finished_bytes += w->raw.len;
        slot *sl = &s->ring[seq % s->ring_cap];
        sl->buf = w->out.p;
        sl->len = w->out.len;
        sl->state = SLOT_DONE;
        w->out.p = NULL;
        w->out.len = w->out.cap = 0;
        flush_done(s);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

/* The driver's callback, on the reading thread: the game's text queued for the engines (a broken
 * game straight to the output, unchanged), waiting while the ring is full. */
static pgn_status queue_game(cli_run *r, void *user, const cli_game *g) {
    shared *s = user;
    (void)r;
    char *text = malloc(g->raw.len ? g->raw.len : 1);
    if (!text) {
        return PGN_E_NOMEM;
    }
    memcpy(text, g->raw.ptr, g->raw.len);
    pthread_mutex_lock(&s->mu);
    while (!s->fatal && s->next_seq - s->next_write >= s->ring_cap) {
        pthread_cond_wait(&s->cv, &s->mu);
    }
    int fatal = s->fatal;
    if (!fatal) {
        slot *sl = &s->ring[s->next_seq++ % s->ring_cap];
        slot queued = {g->summary->broken ? SLOT_DONE : SLOT_QUEUED, text, g->raw.len,
                       g->input->name, g->summary->game};
        *sl = queued;
        s->games++;
        s->finished_bytes += g->summary->broken ? g->raw.len : 0;
        flush_done(s);
    }
    pthread_mutex_unlock(&s->mu);
    if (fatal) {
        free(text);
    }
    return fatal ? PGN_E_IO : PGN_OK;
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
    engine_cfg cfg;
    unsigned jobs;
    int replace, limits;
} an_opts;

/* A limit option: one of --depth, --nodes, --movetime. */
static int limit_option(an_opts *o, int ch, const char *arg) {
    static const uint64_t max[] = {200, UINT64_MAX / 2, 86400000};
    static const pgn_search_limit kinds[] = {PGN_LIMIT_DEPTH, PGN_LIMIT_NODES, PGN_LIMIT_MOVETIME};
    static const char *const names[] = {"depth", "nodes", "movetime"};
    int i = ch - OPT_DEPTH;
    if (!parse_u64(arg, 1, max[i], &o->cfg.limit)) {
        return cli_usage("bad value '%s' for --%s", arg, names[i]);
    }
    o->cfg.limit_kind = kinds[i];
    return ++o->limits > 1 ? cli_usage("give one of --depth, --nodes, --movetime") : EXIT_OK;
}

static int analyze_option(void *user, int ch, const char *arg) {
    an_opts *o = user;
    uint64_t v = 0;
    static const struct {
        int ch;
        const char *name;
        uint64_t max;
    } numbers[] = {{OPT_MULTIPV, "multipv", 500},
                   {'j', "jobs", 256},
                   {OPT_THREADS, "threads", 1024},
                   {OPT_HASH, "hash", 1 << 20},
                   {OPT_TIMEOUT, "timeout", 86400000}};
    switch (ch) {
    case OPT_ENGINE: o->cfg.path = arg; return EXIT_OK;
    case OPT_REPLACE: o->replace = 1; return EXIT_OK;
    case OPT_DEPTH:
    case OPT_NODES:
    case OPT_MOVETIME: return limit_option(o, ch, arg);
    default: break;
    }
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        if (numbers[i].ch == ch) {
            if (!parse_u64(arg, 1, numbers[i].max, &v)) {
                return cli_usage("bad value '%s' for --%s", arg, numbers[i].name);
            }
            unsigned *field[] = {&o->cfg.multipv, &o->jobs, &o->cfg.threads, &o->cfg.hash_mb, NULL};
            if (field[i]) {
                *field[i] = (unsigned)v;
            } else {
                o->cfg.timeout_ms = (int)v;
            }
            return EXIT_OK;
        }
    }
    return cli_usage("unknown option");
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
        if (engine_start(&ws[i].eng, s->cfg, err, sizeof err) != 0) {
            cli_error(NULL, "%s", err);
            return EXIT_RESOURCE;
        }
        if (pgn_game_new(&ws[i].game, NULL) != PGN_OK ||
            pgn_writer_new(&ws[i].writer, NULL, cli_membuf_write, &ws[i].out) != PGN_OK) {
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

/* The reading thread (the driver) and jobs worker threads; returns when all is written. */
static void run(cli_run *r, shared *s, worker *ws, unsigned jobs) {
    unsigned started = 0;
    for (; started < jobs; started++) {
        if (pthread_create(&ws[started].th, NULL, worker_main, &ws[started]) != 0) {
            break;
        }
    }
    if (started == 0) {
        cli_error(NULL, "cannot start a thread");
        r->aborted = 1;
        return;
    }
    cli_run_games(r, queue_game, s);
    pthread_mutex_lock(&s->mu);
    s->eof = 1;
    s->fatal |= r->aborted;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    for (unsigned i = 0; i < started; i++) {
        pthread_join(ws[i].th, NULL);
    }
    r->aborted |= s->fatal;
    progress(s, 1);
}

static void free_all(shared *s, worker *ws, unsigned jobs) {
    for (unsigned i = 0; ws && i < jobs; i++) {
        engine_stop(&ws[i].eng);
        pgn_writer_free(ws[i].writer);
        pgn_game_free(ws[i].game);
        free(ws[i].out.p);
        free(ws[i].raw.p);
    }
    for (size_t i = 0; s->ring && i < s->ring_cap; i++) {
        free(s->ring[i].buf);
    }
    free(s->ring);
    free(ws);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->err_mu);
    pthread_cond_destroy(&s->cv);
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
    pthread_cond_init(&s.cv, NULL);
    s.run = &r;
    s.cfg = &o.cfg;
    s.replace = o.replace;
    s.out = r.out.file;
    s.ring_cap = 4 * (size_t)o.jobs;
    s.ring = calloc(s.ring_cap, sizeof *s.ring);
    s.progress = !r.quiet && !cli_diag_json() && isatty(2);
    s.total_bytes = s.progress ? input_bytes(&r) : 0;
    s.t0 = now_ms();
    r.raw = 1;
    r.ropts.on_diag = diag;
    r.ropts.diag_ctx = &s;
    worker *ws = calloc(o.jobs, sizeof *ws);
    cli_summary kind = CLI_SUMMARY_NONE; /* none when nothing was read */
    if (!ws || !s.ring) {
        cli_error(NULL, "out of memory");
        r.aborted = 1;
    } else if (start_workers(&s, ws, o.jobs) != EXIT_OK) {
        r.aborted = 1;
    } else {
        run(&r, &s, ws, o.jobs);
        kind = CLI_SUMMARY_COUNTS;
    }
    free_all(&s, ws, o.jobs);
    r.status = r.aborted ? EXIT_RESOURCE : s.not_analysed && !r.status ? EXIT_INPUT : r.status;
    cli_run_count(&r, "analysed", "analysed", s.analysed);
    cli_run_count(&r, "not_analysed", "not analysed", s.not_analysed);
    cli_run_count(&r, "positions", "positions", s.positions);
    return cli_run_finish(&r, kind);
}
