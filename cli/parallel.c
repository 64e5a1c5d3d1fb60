/* SPDX-License-Identifier: MIT */
/* -j N (parallel.h): the splitter, the workers and the ordered commit.
 *
 * The main thread reads the decoded text and scans it for cut points where the serial reader
 * surely starts a game: a line starting with '[' outside any comment, string or ';' line, whose
 * last non-blank line before it neither starts with '[' (a ChessBase blank line inside a tag
 * section) nor ends with ']'. A batch runs from the last non-blank byte R before its first game
 * to the next cut; its reader starts with range_start = R (pgn_reader_opts: it skips to the tag
 * section after R), so offsets, lines and raw bytes are the whole file's. Diagnostics are kept
 * as values with the number of games read before them, and given out in order with the game
 * ordinals of the whole input. */
#define _POSIX_C_SOURCE 200809L
#include "parallel.h"
#include "compress.h"
#include "splitter.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A batch is cut after BATCH_DEFAULT bytes (splitter.h: where), or BATCH_TREES when the callback
 * gets every game's tree (a tree takes some 20 times its text). */
enum { BATCH_DEFAULT = 1 << 19, BATCH_TREES = 1 << 16, READ_CHUNK = 1 << 16, MAX_JOBS = 256 };

int cli_jobs_option(const char *arg, int *jobs) {
    char *end;
    if (strcmp(arg, "auto") == 0) {
        *jobs = -1;
        return 1;
    }
    unsigned long n = strtoul(arg, &end, 10);
    if (end == arg || *end || arg[0] == '-' || n > MAX_JOBS) {
        return 0;
    }
    *jobs = n == 0 ? -1 : (int)n;
    return 1;
}

/* The number of workers of -j (0: the cores). */
static unsigned jobs_of(const cli_run *r) {
    if (r->jobs >= 0) {
        return r->jobs ? (unsigned)r->jobs : 1;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (unsigned)n;
}

int cli_par_wanted(const cli_run *r, int visitor) {
    if (jobs_of(r) < 2 || r->max_errors || r->ropts.range_start || r->ropts.range_end ||
        r->ropts.line_base || r->ropts.on_diag || (r->ropts.flags & PGN_READ_NESTED_COMMENTS)) {
        return 0;
    }
    return !visitor || (r->par && r->par->worker_vuser && r->par->prepare);
}

/* ---- batches ---- */

typedef struct pdiag {
    pgn_diag d;
    uint64_t after; /* games of the batch read before it */
} pdiag;

typedef struct pgame {
    pgn_game *game; /* tree mode; kept for the next use of the slot */
    pgn_game_summary sum;
    pgn_str raw;
    size_t prod_off, prod_len;
    size_t raw_off; /* in the batch's rawbuf (a batch read through a callback) */
} pgame;

enum { B_FREE, B_QUEUED, B_WORKING, B_DONE };

typedef struct batch {
    char *buf;
    size_t len, cap;
    uint64_t start;   /* the offset of buf[0] in the text: the reader's range_start */
    uint32_t line;    /* the line of byte start */
    int io_error;     /* the input failed after these bytes */
    int final;        /* the input's last batch */
    int dirty;        /* holds bytes that are not UTF-8 (--input-encoding auto) */
    int seed, end437; /* read after a CP437 seed; the probe found CP437 at the end */
    uint64_t first;   /* the offset of the first game's '[' (after start) */
    uint32_t first_line;
    char *seed_buf;
    pgame *games;
    size_t ngames, cap_games, kept_games; /* kept_games: pgn_game objects allocated */
    pdiag *diags;
    size_t ndiags, cap_diags;
    cli_membuf product;
    cli_membuf rawbuf;                 /* copies of raw bytes (io_error batches) */
    uint64_t n_read, errors, warnings; /* the reader's totals */
    pgn_status st;                     /* how reading ended: PGN_END, PGN_E_IO, or a failure */
    int state;
} batch;

typedef struct pool pool;
typedef struct worker {
    pool *p;
    pthread_t th;
    void *wuser, *vuser;
    pgn_game *game; /* with a prepare hook: the tree of the game being read */
    int started;
} worker;

struct pool {
    cli_run *r;
    const cli_input *in;
    int tree;
    const pgn_visitor *v;
    pgn_reader_opts ro;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    batch *slots;
    size_t nslots;
    uint64_t head, tail, next; /* next to commit, to fill, to work on */
    int stop;
    worker *w; /* nw workers, and one more for the main thread's reading again */
    unsigned nw;
    int state437; /* the text before the batch being committed left the reader at CP437 */
};

/* Grows *p (an array of *cap elements of size sz) to hold n; 0 when out of memory. */
static int reserve(void *p, size_t *cap, size_t n, size_t sz) {
    if (n <= *cap) {
        return 1;
    }
    size_t c = *cap ? *cap : 16;
    while (c < n) {
        c *= 2;
    }
    void *q = realloc(*(void **)p, c * sz);
    if (!q) {
        return 0;
    }
    *(void **)p = q;
    *cap = c;
    return 1;
}

static void keep_diag(void *ctx, const pgn_diag *d) {
    batch *b = ctx;
    if (reserve(&b->diags, &b->cap_diags, b->ndiags + 1, sizeof *b->diags)) {
        b->diags[b->ndiags].d = *d;
        b->diags[b->ndiags++].after = b->ngames;
    } else {
        b->st = PGN_E_NOMEM;
    }
}

typedef struct mem_in {
    const batch *b;
    size_t at;
} mem_in;

/* The batch's bytes, then a read error (a batch that ends where the input failed). */
static ptrdiff_t read_then_fail(void *ctx, void *buf, size_t cap) {
    mem_in *m = ctx;
    size_t n = m->b->len - m->at;
    if (n == 0) {
        return -1;
    }
    n = n < cap ? n : cap;
    memcpy(buf, m->b->buf + m->at, n);
    m->at += n;
    return (ptrdiff_t)n;
}

/* The game slot i of b (tree mode), made when first needed. */
static pgn_game *slot_game(batch *b, size_t i) {
    if (i < b->kept_games) {
        return b->games[i].game;
    }
    pgn_game *g;
    if (pgn_game_new(&g, NULL) != PGN_OK) {
        return NULL;
    }
    b->games[i].game = g;
    b->kept_games = i + 1;
    return g;
}

/* The encoding of text that is not UTF-8 (--input-encoding auto) depends on the text before it:
 * a string that cannot tell CP437 from Windows-1252 is read as the last one that could. A batch
 * that holds such bytes ends with a probe game whose tag tells (in its W_ENCODING excerpt) what
 * the reader was left with; a batch read from a fresh reader when the text before it left CP437
 * is read again, on the main thread, after a seed game that sets CP437. Both extra games are
 * taken out of the batch's games, diagnostics and totals. */
static const char probe_text[] = "[Event \"\xE1\"]\n*\n";
static const char seed_text[] = "x\n[Event \"\x81\"] *\n"; /* 2 line breaks */
enum { SEED_LINES = 2 };

/* Takes game k (the seed or the probe) and its diagnostics out of b. */
static void drop_game(batch *b, size_t k) {
    size_t out = 0;
    for (size_t i = 0; i < b->ndiags; i++) {
        pdiag *d = &b->diags[i];
        if (d->after == k) {
            b->errors -= d->d.severity == PGN_SEV_ERROR;
            b->warnings -= d->d.severity != PGN_SEV_ERROR;
            if (d->d.code == PGN_W_ENCODING) {
                b->end437 = strcmp(d->d.token, "\xC3\x9F") == 0; /* U+00DF: CP437's 0xE1 */
            }
            continue;
        }
        if (d->after > k) {
            d->after--;
            d->d.game -= k == 0;
        }
        b->diags[out++] = *d;
    }
    b->ndiags = out;
    pgn_game *g = b->games[k].game;
    memmove(&b->games[k], &b->games[k + 1], (b->ngames - k - 1) * sizeof *b->games);
    b->games[b->ngames - 1].game = g; /* the tree is kept for the slot's next use */
    b->ngames--;
    b->n_read--;
    for (size_t i = 0; k == 0 && i < b->ngames; i++) {
        b->games[i].sum.game--;
        b->games[i].sum.first_error.game -= b->games[i].sum.errors > 0;
    }
}

/* The worker's one game (with a prepare hook the tree is not kept for the callback). */
static pgn_game *worker_game(worker *w) {
    if (!w->game && pgn_game_new(&w->game, NULL) != PGN_OK) {
        w->game = NULL;
    }
    return w->game;
}

/* Reads the batch's text (made ready by work) into its games and diagnostics. */
static void read_batch(worker *w, batch *b, pgn_reader *rd) {
    pool *p = w->p;
    const cli_par_hooks *h = p->r->par;
    int keep = !(h && h->prepare); /* the callback gets the tree: one per game of the batch */
    while (b->st == PGN_OK) {
        pgn_game *g = NULL;
        if (!reserve(&b->games, &b->cap_games, b->ngames + 1, sizeof *b->games) ||
            (p->tree && !(g = keep ? slot_game(b, b->ngames) : worker_game(w)))) {
            b->st = PGN_E_NOMEM;
            break;
        }
        pgn_status st = g ? pgn_reader_next(rd, g) : pgn_reader_visit(rd, p->v, w->vuser);
        if (st != PGN_OK) {
            b->st = b->st == PGN_OK ? st : b->st;
            break;
        }
        pgame *pg = &b->games[b->ngames];
        pg->sum = *pgn_reader_summary(rd);
        pg->raw = pgn_reader_raw(rd);
        if (b->io_error) { /* a reader over a callback: its window moves on; keep a copy */
            pg->raw_off = b->rawbuf.len;
            if (cli_membuf_write(&b->rawbuf, pg->raw.ptr, pg->raw.len) < 0) {
                b->st = PGN_E_NOMEM;
                break;
            }
        }
        pg->prod_off = b->product.len;
        if (h && h->prepare) {
            cli_game cg = {g, &pg->sum, pg->raw, p->in, 0}; /* no ordinal yet: not in order */
            if ((st = h->prepare(w->wuser, &cg, &b->product)) != PGN_OK) {
                b->st = st;
                break;
            }
        }
        pg->prod_len = b->product.len - pg->prod_off;
        b->ngames++;
    }
    for (size_t i = 0; b->io_error && i < b->ngames; i++) {
        b->games[i].raw.ptr = b->rawbuf.p + b->games[i].raw_off;
    }
}

/* Reads one batch on a worker (or again on the main thread, with b->seed). */
static void work(worker *w, batch *b) {
    pgn_reader_opts ro = w->p->ro;
    pgn_reader *rd = NULL;
    mem_in m = {b, 0};
    const char *text = b->buf;
    size_t len = b->len, plen = strlen(probe_text), slen = strlen(seed_text);
    int probe = b->dirty && !b->final && reserve(&b->buf, &b->cap, b->len + plen, 1);
    ro.diag_ctx = b;
    ro.range_start = b->start;
    ro.line_base = b->line;
    b->ngames = b->ndiags = b->product.len = b->rawbuf.len = 0;
    b->end437 = 0;
    b->st = PGN_OK;
    if (probe) {
        memcpy(b->buf + b->len, probe_text, plen);
        text = b->buf;
        len = b->len + plen;
    }
    if (b->seed) { /* seed + the text from the first game on (+ probe) */
        size_t from = (size_t)(b->first - b->start), n = len - from;
        char *t = realloc(b->seed_buf, slen + n);
        if (!t) {
            b->st = PGN_E_NOMEM;
            return;
        }
        b->seed_buf = t;
        memcpy(t, seed_text, slen);
        memcpy(t + slen, b->buf + from, n);
        text = t;
        len = slen + n;
        ro.range_start = b->first - slen;
        ro.line_base = b->first_line - SEED_LINES;
    }
    b->st = b->io_error ? pgn_reader_new(&rd, &ro, read_then_fail, &m)
                        : pgn_reader_new_mem(&rd, &ro, text, len);
    read_batch(w, b, rd);
    if (rd) {
        pgn_reader_totals(rd, &b->n_read, &b->errors, &b->warnings);
        pgn_reader_free(rd);
    }
    if (b->st == PGN_END && b->seed && b->ngames > 0) {
        drop_game(b, 0);
    }
    if (b->st == PGN_END && probe && b->ngames > 0) {
        drop_game(b, b->ngames - 1);
    }
}

static void *worker_main(void *arg) {
    worker *w = arg;
    pool *p = w->p;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->stop && p->next == p->tail) {
            pthread_cond_wait(&p->work, &p->mu);
        }
        if (p->next == p->tail) { /* stopped, nothing queued */
            break;
        }
        batch *b = &p->slots[p->next++ % p->nslots];
        b->state = B_WORKING;
        b->seed = b->dirty && p->state437; /* a guess: the encoding of the text before stays */
        int skip = p->stop;
        pthread_mutex_unlock(&p->mu);
        if (!skip) {
            work(w, b);
        }
        pthread_mutex_lock(&p->mu);
        b->state = B_DONE;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* ---- the main thread: fill, commit ---- */

static void emit_diags(cli_run *r, const batch *b, size_t *k, uint64_t upto, uint64_t base,
                       uint64_t counts[2]) {
    for (; *k < b->ndiags && b->diags[*k].after <= upto; (*k)++) {
        pgn_diag d = b->diags[*k].d;
        d.game += base;
        counts[d.severity == PGN_SEV_ERROR ? 0 : 1]++;
        cli_print_diag_detail(&d, r->quiet, NULL);
    }
}

static const cli_game *current;
static pgn_str current_product;

int cli_par_product(const cli_game *g, pgn_str *out) {
    if (g != current || !current) {
        return 0;
    }
    *out = current_product;
    return 1;
}

/* Gives out batch b's games in order; *base counts the input's games. PGN_OK, or the status
 * that ends the input (*from_fn when the command's). */
static pgn_status commit(pool *p, batch *b, uint64_t *base, cli_each_fn fn, void *user,
                         int *from_fn) {
    cli_run *r = p->r;
    if (b->dirty && b->seed != p->state437 && b->st == PGN_END) { /* the guess was wrong */
        b->seed = p->state437;
        work(&p->w[p->nw], b);
    }
    if (b->dirty) {
        pthread_mutex_lock(&p->mu);
        p->state437 = b->end437;
        pthread_mutex_unlock(&p->mu);
    }
    size_t k = 0;
    uint64_t counts[2] = {0, 0};
    int prepared = r->par && r->par->prepare;
    pgn_status st = PGN_OK;
    size_t i;
    for (i = 0; i < b->ngames && st == PGN_OK; i++) {
        emit_diags(r, b, &k, i, *base, counts);
        cli_progress_game();
        if (!fn) {
            continue;
        }
        pgame *pg = &b->games[i];
        pg->sum.game += *base;
        pg->sum.first_error.game += pg->sum.errors ? *base : 0;
        cli_game g = {p->tree && !prepared ? pg->game : NULL, &pg->sum, pg->raw, p->in,
                      r->games + i + 1};
        current = &g;
        current_product.ptr = b->product.p + pg->prod_off;
        current_product.len = pg->prod_len;
        st = fn(r, user, &g);
        current = NULL;
    }
    if (st != PGN_OK) { /* the command stopped: the totals of what was given out */
        *from_fn = 1;
        r->games += i;
        r->errors += counts[0];
        r->warnings += counts[1];
        return st;
    }
    emit_diags(r, b, &k, UINT64_MAX, *base, counts);
    *base += b->ngames;
    r->games += b->n_read;
    r->errors += b->errors;
    r->warnings += b->warnings;
    return b->st == PGN_END ? PGN_OK : b->st;
}

/* Reads into b until a cut past the batch size (the rest carried to the next batch through
 * sc): 0; or to the end or a read error (b->io_error): 1. */
static int fill(cli_scanner *sc, batch *b, const cli_input *in, size_t size) {
    for (;;) {
        cli_text t = {b->buf, b->len, b->start};
        if (cli_scan(sc, &t, size, 0) == CLI_SCAN_CUT) {
            return 0;
        }
        if (!reserve(&b->buf, &b->cap, b->len + READ_CHUNK, 1)) {
            b->io_error = 1; /* out of memory, reported as a failed read */
            return 1;
        }
        ptrdiff_t n = in->read(in->ctx, b->buf + b->len, READ_CHUNK);
        if (n < 0) {
            b->io_error = 1;
            return 1;
        }
        if (n == 0) {
            cli_text all = {b->buf, b->len, b->start};
            cli_scan(sc, &all, SIZE_MAX, 1);
            return 1;
        }
        b->len += (size_t)n;
        cli_progress_tick();
    }
}

static void stop_workers(pool *p) {
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; p->w && i <= p->nw; i++) {
        if (p->w[i].started) {
            pthread_join(p->w[i].th, NULL);
        }
        pgn_game_free(p->w[i].game);
        if (p->r->par && p->r->par->worker_free && p->w[i].wuser) {
            p->r->par->worker_free(p->w[i].wuser);
        }
    }
}

static void free_slots(pool *p) {
    for (size_t i = 0; i < p->nslots; i++) {
        batch *b = &p->slots[i];
        for (size_t g = 0; g < b->kept_games; g++) {
            pgn_game_free(b->games[g].game);
        }
        free(b->games);
        free(b->diags);
        free(b->buf);
        free(b->seed_buf);
        free(b->product.p);
        free(b->rawbuf.p);
    }
    free(p->slots);
    free(p->w);
}

/* Starts the workers, each with its state from the command's hooks. 0 when out of memory. */
static int start_workers(pool *p, void *user) {
    const cli_par_hooks *h = p->r->par;
    for (unsigned i = 0; i <= p->nw; i++) {
        worker *w = &p->w[i];
        w->p = p;
        if (h && h->worker_new && !(w->wuser = h->worker_new(user))) {
            return 0;
        }
        w->vuser = h && h->worker_vuser ? h->worker_vuser(w->wuser) : NULL;
        if (i == p->nw) {
            break; /* the main thread's, for reading again: no thread */
        }
        if (pthread_create(&w->th, NULL, worker_main, w) != 0) {
            return 0;
        }
        w->started = 1;
    }
    return 1;
}

/* Waits until the oldest batch in flight is read, then commits it. */
static pgn_status commit_head(pool *p, uint64_t *base, cli_each_fn fn, void *user, int *from_fn) {
    batch *b = &p->slots[p->head % p->nslots];
    pthread_mutex_lock(&p->mu);
    while (b->state != B_DONE) {
        pthread_cond_wait(&p->done, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    pgn_status st = commit(p, b, base, fn, user, from_fn);
    b->state = B_FREE;
    p->head++;
    return st;
}

/* Moves the bytes from the cut's R on from b to the next batch nb. 0 when out of memory. */
static int carry(const cli_scanner *sc, batch *b, batch *nb) {
    size_t from = (size_t)(sc->cut_from - b->start), n = b->len - from;
    if (!reserve(&nb->buf, &nb->cap, n + READ_CHUNK, 1)) {
        return 0;
    }
    memcpy(nb->buf, b->buf + from, n);
    nb->len = n;
    nb->start = sc->cut_from;
    nb->line = sc->cut_line;
    nb->first = sc->cut;
    nb->first_line = sc->cut_first_line;
    b->len = (size_t)(sc->cut - b->start);
    return 1;
}

/* The batch size: PGNKIT_BATCH (bytes; for the tests, which cut small files into many batches),
 * else BATCH_DEFAULT or BATCH_TREES. */
static size_t batch_size(const pool *p) {
    const char *e = getenv("PGNKIT_BATCH");
    long v = e ? atol(e) : 0;
    return v > 0                                           ? (size_t)v
           : p->tree && !(p->r->par && p->r->par->prepare) ? BATCH_TREES
                                                           : BATCH_DEFAULT;
}

/* Is the oldest batch in flight read? */
static int head_done(pool *p) {
    pthread_mutex_lock(&p->mu);
    int done = p->head < p->tail && p->slots[p->head % p->nslots].state == B_DONE;
    pthread_mutex_unlock(&p->mu);
    return done;
}

/* The main loop: fill a free slot, queue it, commit what is done; the ring bounds the memory. */
static pgn_status run(pool *p, cli_each_fn fn, void *user, int *from_fn) {
    cli_scanner sc;
    memset(&sc, 0, sizeof sc);
    sc.bol = 1;
    sc.check_utf8 = p->ro.encoding == PGN_ENC_AUTO;
    size_t size = batch_size(p);
    uint64_t base = 0;
    pgn_status st = PGN_OK;
    batch *b = &p->slots[0];
    b->line = p->ro.line_base;
    int end = 0;
    while (!end && st == PGN_OK) {
        b->io_error = b->seed = 0;
        end = fill(&sc, b, p->in, size);
        b->final = end;
        b->dirty = sc.dirty;
        sc.dirty = 0;
        batch *nb = &p->slots[(p->tail + 1) % p->nslots];
        if (!end && p->tail + 1 - p->head == p->nslots) {
            st = commit_head(p, &base, fn, user, from_fn); /* frees nb */
        }
        if (!end && st == PGN_OK && !carry(&sc, b, nb)) {
            b->io_error = 1;
            end = 1;
        }
        pthread_mutex_lock(&p->mu);
        b->state = B_QUEUED;
        p->tail++;
        pthread_cond_signal(&p->work);
        pthread_mutex_unlock(&p->mu);
        b = nb;
        while (st == PGN_OK && head_done(p)) {
            st = commit_head(p, &base, fn, user, from_fn);
        }
    }
    while (st == PGN_OK && p->head < p->tail) {
        st = commit_head(p, &base, fn, user, from_fn);
    }
    return st;
}

pgn_status cli_par_input(cli_run *r, const cli_input *in, int tree, const pgn_visitor *v,
                         cli_each_fn fn, void *user, int *from_fn) {
    pool p;
    memset(&p, 0, sizeof p);
    p.r = r;
    p.in = in;
    p.tree = tree;
    p.v = v;
    p.ro = r->ropts;
    p.ro.source_name = in->name;
    p.ro.on_diag = keep_diag;
    if (r->raw || r->rejects.file) {
        p.ro.flags |= PGN_READ_KEEP_RAW;
    }
    p.ro.max_errors = 0;
    p.ro.range_end = 0;
    p.nw = jobs_of(r);
    p.nslots = 2 * (size_t)p.nw;
    p.slots = calloc(p.nslots, sizeof *p.slots);
    p.w = calloc(p.nw + 1, sizeof *p.w);
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.done, NULL);
    *from_fn = 0;
    pgn_status st = PGN_E_NOMEM;
    if (p.slots && p.w && start_workers(&p, user)) {
        st = run(&p, fn, user, from_fn);
    }
    stop_workers(&p);
    free_slots(&p);
    pthread_cond_destroy(&p.done);
    pthread_cond_destroy(&p.work);
    pthread_mutex_destroy(&p.mu);
    return st == PGN_OK ? PGN_END : st;
}
