/* SPDX-License-Identifier: MIT */
/* The insides of the parallel reader (source.h: pgn_parallel_read; issue 16's -j N, in the library
 * since issue 29), shared by its three files: parallel.c (the calling thread: reads, cuts the text
 * into batches, queues them), par_batch.c (a worker: reads one batch into its games and
 * diagnostics) and par_commit.c (the calling thread: gives the batches' games out in order). */
#ifndef PGNKIT_IO_PAR_POOL_H
#define PGNKIT_IO_PAR_POOL_H

#include "pgnkit/source.h"
#include "splitter.h"

#include <pthread.h>
#include <stdint.h>

typedef struct pdiag {
    pgn_diag d;
    uint64_t after; /* games of the batch read before it */
} pdiag;

/* A game's pgn_game_summary without its first error (104 bytes less a game: the records are
 * written by a worker into memory that the main thread read last); that error is kept in the
 * batch's firsts, as few games have one. */
typedef struct psum {
    uint64_t game;
    pgn_loc start;
    uint64_t end_offset;
    uint32_t errors, warnings, plies;
    int broken;
    pgn_result marker;
    uint32_t first; /* the first error: the batch's firsts[first] (errors > 0) */
} psum;

typedef struct pgame {
    pgn_game *game; /* tree mode; kept for the next use of the slot */
    psum sum;
    pgn_str raw;
    size_t prod_off, prod_len;
    size_t raw_off;               /* in the batch's rawbuf (a batch read through a callback) */
    size_t between_len, lead_len; /* pgn_reader_raw_between: the end of raw, the text before it */
} pgame;

enum { B_FREE, B_QUEUED, B_WORKING, B_DONE };

enum { IO_FAILED = 1, IO_NOMEM = 2 };

typedef struct batch {
    char *buf;
    size_t len, cap;
    uint64_t start; /* the offset of buf[0] in the text: the reader's range_start */
    uint32_t line;  /* the line of byte start */
    int io_error;   /* the input failed after these bytes: IO_FAILED, or IO_NOMEM (no memory) */
    int final;      /* the input's last batch */
    int dirty;      /* holds bytes that are not UTF-8 (--input-encoding auto) */
    int from437;    /* read from the CP437 state (pgn_reader_set_encoding_state) */
    int told, assumed, end437; /* pgn_reader_encoding_state at the end: last == CP437 */
    pgame *games;
    size_t ngames, cap_games, kept_games; /* kept_games: pgn_game objects allocated */
    pdiag *diags;
    size_t ndiags, cap_diags;
    pgn_diag *firsts; /* the games' first errors (psum.first) */
    size_t nfirsts, cap_firsts;
    pgn_membuf product;
    pgn_membuf rawbuf;                 /* copies of raw bytes (io_error batches) */
    uint64_t n_read, errors, warnings; /* the reader's totals */
    pgn_status st;                     /* how reading ended: PGN_END, PGN_E_IO, or a failure */
    int state;
} batch;

/* The decoder thread of a compressed source (par_ahead.c): it reads the source PGNK_READ_CHUNK
 * bytes at a time (as the calling thread reads plain text: where a damaged stream fails, and so
 * the text given before, depends on how it was read), straight into the next of its batch
 * buffers (AHEAD_BYTES of text ahead, in 1 to AHEAD_TEXTS batches), and cuts them as the calling
 * thread would; the calling thread takes them in order by swapping buffers with its slots (no
 * copy of the text). */
enum { AHEAD_TEXTS = 16, AHEAD_BYTES = 1 << 20, PGNK_READ_CHUNK = 1 << 16 };
typedef struct pgnk_ahead {
    struct pool *p;
    int on;                   /* the thread runs (0: the calling thread reads the source) */
    size_t size;              /* the batch size */
    size_t n;                 /* texts ahead: q[0..n) */
    batch q[AHEAD_TEXTS];     /* the texts cut ahead: buf, len, cap, start, line, io_error, final,
                                 dirty */
    uint64_t at[AHEAD_TEXTS]; /* pgn_source_consumed after the text */
    uint64_t head, tail;      /* the text to take, the text to fill */
    int stop, started;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t filled, freed;
} pgnk_ahead;

typedef struct pool pool;
typedef struct worker {
    pool *p;
    pthread_t th;
    void *wuser, *vuser;
    pgn_game *game; /* with a prepare hook: the tree of the game being read */
    int started;
} worker;

struct pool {
    const pgn_parallel_opts *o;
    pgn_source *src;
    int tree;
    int bare;     /* no callback (check): a batch keeps only the number of its games, no pgame */
    int prepared; /* a prepare hook runs on the workers */
    const pgn_visitor *v;
    pgn_reader_opts ro;
    pgn_parallel_totals tot; /* the games given out, their errors and warnings */
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    batch *slots;
    size_t nslots;
    uint64_t head, tail, next; /* next to commit, to fill, to work on */
    uint64_t wait_for;         /* the main thread waits for batch wait_for - 1 (0: it does not) */
    char *carry;               /* the text after the last cut, for the next batch */
    size_t carry_len, carry_cap;
    uint64_t size;  /* the text's size when known (a plain regular file), else 0 */
    uint64_t zsize; /* the size of a compressed regular file, else 0 */
    int stop;
    worker *w; /* nw workers, and one more for the main thread's reading again */
    unsigned nw;
    int state437;     /* the text before the batch being committed left the reader at CP437 */
    pgnk_ahead ahead; /* a compressed source's decoder thread (ahead.on 0: none) */
};

/* Starts p's decoder thread (p->ahead), which cuts p's source into batches of size bytes ahead
 * of the calling thread (the source, p->carry and the scanner are the thread's until
 * pgnk_ahead_stop; pgn_source_consumed then counts the text taken): 1, or 0 (no thread: the
 * calling thread reads the source itself). */
int pgnk_ahead_start(pool *p, size_t size);
/* Gives slot b the next text cut ahead (swapping their buffers) and sets p's source's
 * pgn_source_consumed: 1 when it is the input's last. */
int pgnk_ahead_take(pgnk_ahead *a, batch *b);
/* Stops and joins the thread (it may have decoded ahead of the takes), frees its buffers. */
void pgnk_ahead_stop(pgnk_ahead *a);
/* Fills b (its carried text already in it) to the next cut, for batch seq of the input, reading
 * the source (on_main: the calling thread, which reports progress): 1 at the input's end (or
 * b->io_error), else 0 with the text after the cut kept in p->carry. */
int pgnk_par_produce(pool *p, pgnk_scanner *sc, batch *b, size_t size, uint64_t seq, int on_main);
/* Sets sc to scan a text from its start. */
void pgnk_par_scanner_init(const pool *p, pgnk_scanner *sc);
/* Starts batch nb with the text kept after the last cut. 0 when out of memory. */
int pgnk_par_take_tail(pool *p, const pgnk_scanner *sc, batch *nb);
/* Gives each of the n batches b a 2 MiB buffer on a huge page when batches of size bytes fit. */
void pgnk_par_huge_buffers(const pool *p, batch *b, size_t n, size_t size);
/* Grows *p (an array of *cap elements of size sz) to hold n; 0 when out of memory. */
int pgnk_par_reserve(void *p, size_t *cap, size_t n, size_t sz);
/* The readers' on_diag: keeps d in the batch ctx, with the number of games read before it. */
void pgnk_par_keep_diag(void *ctx, const pgn_diag *d);
/* The summary of game pg of b, with the game ordinals moved on by base. */
void pgnk_par_summary(const batch *b, const pgame *pg, uint64_t base, pgn_game_summary *out);
/* Reads batch b (on a worker, or again on the main thread from the true encoding state). */
void pgnk_par_work(worker *w, batch *b);
/* A worker thread: reads the queued batches until the pool stops. */
void *pgnk_par_worker_main(void *arg);
/* Waits until the oldest batch in flight is read, then gives its games to opts->each in order:
 * PGN_OK, or the status that ends the input (p->tot.from_each when each's). */
pgn_status pgnk_par_commit_head(pool *p, uint64_t *base);

#endif
