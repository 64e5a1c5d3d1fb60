/* SPDX-License-Identifier: MIT */
/* Robustness (issue 5): anomaly tests in the manner of SQLite's, and pathological inputs.
 *  1. Fault injection: reader + tree builder + writer over a representative input (tags, FEN,
 *     comments, NAGs, nested variations, Latin-1 text, a broken game, a 70 KB comment) with
 *     allocation k failing, for every k up to what a clean run needs, once and persistently:
 *     each run ends in PGN_END with the clean run's output, or in PGN_E_NOMEM; no block is left
 *     live (ASan's leak checker watches the rest) and realloc/free always get the right size.
 *     The read callback failing at byte k gives PGN_E_IO; the write callback failing at call k
 *     gives PGN_E_IO from pgn_writer_write.
 *  2. Pathological inputs, generated while they are read (nothing big is committed): deep
 *     nesting, huge comments, tags and tokens, a 10^6-ply game, bad bytes, a file ending inside
 *     each construct, 10,000 games each broken in its own way. Each case runs in a child process
 *     under a time limit; the library's peak memory (through a counting allocator) must stay
 *     within the reader's limits, the documented diagnostics must appear, and the game after the
 *     pathological one must read normally. PGNKIT_SLOW=1 runs the full sizes of the issue;
 *     PGNKIT_ROBUST_TABLE=1 prints the table of docs/robustness.md. */
#define _DEFAULT_SOURCE

#include "harness.h"
#include "testutil.h"

#include <pgnkit/game.h>
#include <pgnkit/reader.h>
#include <pgnkit/writer.h>

#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int slow;
static int light; /* PGNKIT_VALGRIND: memcheck is slow, so fewer read-failure points and sizes */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- a counting allocator that can fail ---- */

/* Each block carries a header with its size, so that the sizes the library passes to realloc
 * (old_size) can be checked and the live bytes counted. */
typedef struct test_alloc {
    long fail_at;   /* the allocation (0-based) that fails; < 0: none */
    int persistent; /* every allocation from fail_at on fails */
    long calls;     /* allocations (malloc, and realloc to a nonzero size) so far */
    long failed;    /* how many returned NULL */
    long live;      /* blocks not yet freed */
    size_t bytes, peak;
    long bad_size; /* realloc calls whose old_size was not the block's size */
} test_alloc;

#define HDR 16

static int ta_should_fail(test_alloc *a) {
    long k = a->calls++;
    if (a->fail_at >= 0 && (k == a->fail_at || (a->persistent && k > a->fail_at))) {
        a->failed++;
        return 1;
    }
    return 0;
}

static void ta_count(test_alloc *a, size_t add, size_t sub) {
    a->bytes = a->bytes - sub + add;
    if (a->bytes > a->peak) {
        a->peak = a->bytes;
    }
}

static void *ta_malloc(void *ctx, size_t size) {
    test_alloc *a = ctx;
    if (ta_should_fail(a) || size > SIZE_MAX - HDR) {
        return NULL;
    }
    char *p = malloc(size + HDR);
    if (!p) {
        return NULL;
    }
    memcpy(p, &size, sizeof size);
    a->live++;
    ta_count(a, size, 0);
    return p + HDR;
}

static void ta_free(void *ctx, void *ptr) {
    test_alloc *a = ctx;
    if (!ptr) {
        return;
    }
    char *p = (char *)ptr - HDR;
    size_t size;
    memcpy(&size, p, sizeof size);
    a->live--;
    ta_count(a, 0, size);
    free(p);
}

static void *ta_realloc(void *ctx, void *ptr, size_t old, size_t size) {
    test_alloc *a = ctx;
    if (!ptr) {
        return ta_malloc(ctx, size);
    }
    char *p = (char *)ptr - HDR;
    size_t have;
    memcpy(&have, p, sizeof have);
    if (have != old) {
        a->bad_size++;
    }
    if (size == 0) {
        ta_free(ctx, ptr);
        return NULL;
    }
    if (ta_should_fail(a) || size > SIZE_MAX - HDR) {
        return NULL;
    }
    char *np = realloc(p, size + HDR);
    if (!np) {
        return NULL;
    }
    memcpy(np, &size, sizeof size);
    ta_count(a, size, have);
    return np + HDR;
}

static void ta_init(test_alloc *a, pgn_allocator *al, long fail_at, int persistent) {
    memset(a, 0, sizeof *a);
    a->fail_at = fail_at;
    a->persistent = persistent;
    al->malloc = ta_malloc;
    al->realloc = ta_realloc;
    al->free = ta_free;
    al->ctx = a;
}

/* ---- input and output callbacks ---- */

typedef struct src {
    const char *p;
    size_t len, pos;
    size_t chunk;   /* most bytes per call (0: as many as asked) */
    size_t fail_at; /* the call that would deliver byte fail_at returns -1 (SIZE_MAX: never) */
} src;

static ptrdiff_t src_read(void *ctx, void *out, size_t cap) {
    src *s = ctx;
    if (s->pos >= s->fail_at) {
        return -1;
    }
    size_t n = s->len - s->pos;
    if (s->chunk && n > s->chunk) {
        n = s->chunk;
    }
    if (n > cap) {
        n = cap;
    }
    if (s->fail_at != SIZE_MAX && n > s->fail_at - s->pos) {
        n = s->fail_at - s->pos; /* deliver up to the failing byte, then fail */
    }
    memcpy(out, s->p + s->pos, n);
    s->pos += n;
    return (ptrdiff_t)n;
}

typedef struct sink {
    buf *out;
    long calls, fail_at; /* call fail_at returns -1 (< 0: never) */
} sink;

static ptrdiff_t sink_write(void *ctx, const void *data, size_t len) {
    sink *s = ctx;
    if (s->fail_at >= 0 && s->calls++ >= s->fail_at) {
        return -1;
    }
    if (s->out) {
        buf_put(s->out, data, len);
    }
    return (ptrdiff_t)len;
}

/* ---- 1. fault injection ---- */

/* The representative input: every kind of thing the reader, builder and writer allocate for. */
static void representative(buf *in) {
    buf_str(
        in,
        "[Event \"Rated \\\"blitz\\\" game\"]\n[Site \"?\"]\n[Date \"2024.01.02\"]\n"
        "[Round \"1\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n"
        "[WhiteElo \"2400\"]\n[Annotator \"x\"]\n\n"
        "{Game comment} 1. e4! {best by test} e5 (1... c5 2. Nf3 (2. c3 d5 (2... Nf6 3. e5) "
        "3. exd5) 2... d6 $14) 2. Nf3 $1 Nc6 ; a line comment\n"
        "%an escape line\n"
        "3. Bb5 a6 {[%clk 0:03:00]} 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 1-0\n\n");
    buf_str(in, "[Event \"Set up\"]\n[SetUp \"1\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n"
                "1. a8=Q+ Kd7 2. Qb7+ (2. Qa4+ Ke7) 2... Ke6 *\n\n");
    buf_str(in, "[Event \"Caf\xE9 \xC0 la cr\xE8me\"]\n[White \"M\xFCller\"]\n\n"
                "1. d4 {na\xEFve comment} d5 2. c4 e6 1/2-1/2\n\n");
    buf_str(in, "[Event \"broken\"]\n\n1. e4 e5 2. Ke3 Nf6 *\n\n");
    buf_str(in, "[Event \"long comment\"]\n\n1. e4 {");
    for (int i = 0; i < 7000; i++) {
        buf_str(in, "0123456789");
    }
    buf_str(in, "} e5 2. Nf3 *\n\n");
    buf_str(in, "[Event \"many tags\"]\n");
    for (int i = 0; i < 40; i++) {
        char t[64];
        snprintf(t, sizeof t, "[Tag%d \"value %d\"]\n", i, i);
        buf_str(in, t);
    }
    buf_str(in, "\n1. e4 ");
    for (int i = 0; i < 30; i++) {
        buf_str(in, "(1. d4 ");
    }
    for (int i = 0; i < 30; i++) {
        buf_str(in, ") ");
    }
    buf_str(in, "e5 0-1\n\n1. c4 c5 *\n");
}

typedef struct fi_mode {
    const char *name;
    uint32_t flags;
    size_t chunk; /* 0: pgn_reader_new_mem */
} fi_mode;

static const fi_mode fi_modes[] = {
    {"mem", 0, 0},
    {"stream 64K", 0, 65536},
    {"stream 7 keep-raw", PGN_READ_KEEP_RAW, 7},
    {"stream 1 nested-comments strict", PGN_READ_NESTED_COMMENTS | PGN_READ_STRICT, 1},
};

typedef struct fi_run {
    pgn_status st; /* the status that ended the run */
    buf out;       /* exports, and a line per game with its raw length and error count */
    test_alloc a;
} fi_run;

static pgn_status fi_once(const buf *in, const fi_mode *m, long fail_at, int persistent,
                          fi_run *res) {
    pgn_allocator al;
    pgn_reader_opts o;
    pgn_reader *r = NULL;
    pgn_writer *w = NULL;
    pgn_game *g = NULL;
    pgn_writer_opts wo;
    src s = {in->p, in->len, 0, m->chunk, SIZE_MAX};
    sink k = {&res->out, 0, -1};
    ta_init(&res->a, &al, fail_at, persistent);
    memset(&o, 0, sizeof o);
    memset(&wo, 0, sizeof wo);
    o.alloc = &al;
    o.flags = m->flags;
    wo.alloc = &al;
    pgn_status st = pgn_game_new(&g, &al);
    if (st == PGN_OK) {
        st = pgn_writer_new(&w, &wo, sink_write, &k);
    }
    if (st == PGN_OK) {
        st = m->chunk ? pgn_reader_new(&r, &o, src_read, &s)
                      : pgn_reader_new_mem(&r, &o, in->p, in->len);
    }
    while (st == PGN_OK && (st = pgn_reader_next(r, g)) == PGN_OK) {
        const pgn_game_summary *sum = pgn_reader_summary(r);
        char line[96];
        snprintf(line, sizeof line, "-- game %" PRIu64 ": %u errors, raw %zu\n", sum->game,
                 sum->errors, pgn_reader_raw(r).len);
        buf_str(&res->out, line);
        st = pgn_writer_write(w, g);
    }
    pgn_reader_free(r);
    pgn_writer_free(w);
    pgn_game_free(g);
    res->st = st;
    return st;
}

static void fault_injection(void) {
    buf in = {0};
    representative(&in);
    for (size_t mi = 0; mi < sizeof fi_modes / sizeof fi_modes[0]; mi++) {
        const fi_mode *m = &fi_modes[mi];
        fi_run ref;
        memset(&ref, 0, sizeof ref);
        CHECK_EQ_INT(fi_once(&in, m, -1, 0, &ref), PGN_END);
        CHECK(ref.out.len > 70000);
        CHECK_EQ_INT(ref.a.live, 0);
        CHECK_EQ_INT(ref.a.bad_size, 0);
        long needed = ref.a.calls;
        unsigned long bad = 0, nomem = 0, recovered = 0;
        for (int persistent = 1; persistent >= 0; persistent--) {
            for (long k = 0; k <= needed; k++) {
                fi_run run;
                memset(&run, 0, sizeof run);
                pgn_status st = fi_once(&in, m, k, persistent, &run);
                int ok = run.a.live == 0 && run.a.bad_size == 0;
                if (run.a.failed == 0) {
                    /* nothing failed (k == needed): the run is the clean one */
                    ok = ok && st == PGN_END && run.out.len == ref.out.len &&
                         memcmp(run.out.p, ref.out.p, ref.out.len) == 0;
                } else if (st == PGN_E_NOMEM) {
                    nomem++;
                } else if (st == PGN_END && !persistent && run.out.len == ref.out.len &&
                           memcmp(run.out.p, ref.out.p, ref.out.len) == 0) {
                    recovered++; /* a failed growth the library could do without */
                } else {
                    ok = 0;
                }
                if (!ok && bad++ < 5) {
                    harness_fail(
                        __FILE__, __LINE__,
                        "%s, allocation %ld failing%s: status %s, %ld live blocks, %ld bad "
                        "sizes, output %s",
                        m->name, k, persistent ? " persistently" : " once", pgn_status_name(st),
                        run.a.live, run.a.bad_size,
                        run.out.len == ref.out.len ? "as clean" : "differs");
                }
                free(run.out.p);
            }
        }
        if (bad == 0) {
            harness_counts.passed++;
        }
        CHECK(nomem > 0);
        printf(
            "fault injection, %s: %ld allocations in a clean run; %lu runs E_NOMEM, %lu recovered, "
            "%lu bad\n",
            m->name, needed, nomem, recovered, bad);
        free(ref.out.p);
    }
    free(in.p);
}

/* The read callback fails at byte k: PGN_E_IO (never END), nothing leaks, the games before the
 * failure are the clean run's, and the totals count only them. */
static void io_failure(void) {
    buf in = {0};
    representative(&in);
    static const size_t chunks[] = {1, 13, 4096};
    static const uint32_t flags[] = {0, PGN_READ_KEEP_RAW, PGN_READ_KEEP_RAW};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        unsigned long bad = 0, runs = 0;
        /* every byte in the short games, every 97th in the long comment (same code path) */
        size_t stride = light ? 7 : 1, long_stride = light ? 4999 : 97;
        for (size_t k = 0; k < in.len;
             k += (k > 2000 && k < in.len - 3000) ? long_stride : stride) {
            pgn_allocator al;
            test_alloc a;
            pgn_reader_opts o;
            pgn_reader *r;
            pgn_game *g;
            src s = {in.p, in.len, 0, chunks[c], k};
            ta_init(&a, &al, -1, 0);
            memset(&o, 0, sizeof o);
            o.alloc = &al;
            o.flags = flags[c];
            pgn_status st = pgn_game_new(&g, &al);
            if (st == PGN_OK) {
                uint64_t oks = 0, counted = 0;
                st = pgn_reader_new(&r, &o, src_read, &s);
                while (st == PGN_OK && (st = pgn_reader_next(r, g)) == PGN_OK) {
                    oks++;
                    if (pgn_reader_summary(r)->end_offset > k) {
                        st = PGN_E_LIMIT; /* a game past the failure point was "read" */
                    }
                }
                /* the game being read when the input failed is not counted */
                pgn_reader_totals(r, &counted, NULL, NULL);
                if (st == PGN_E_IO && counted != oks) {
                    st = PGN_E_LIMIT;
                }
                pgn_reader_free(r);
            }
            pgn_game_free(g);
            runs++;
            if ((st != PGN_E_IO || a.live != 0) && bad++ < 5) {
                harness_fail(__FILE__, __LINE__,
                             "read failing at byte %zu (chunk %zu): %s, %ld live", k, chunks[c],
                             pgn_status_name(st), a.live);
            }
        }
        if (bad == 0) {
            harness_counts.passed++;
        }
        printf("read failure, chunk %zu: %lu runs, %lu bad\n", chunks[c], runs, bad);
    }
    free(in.p);
}

/* The write callback fails at call k: pgn_writer_write returns PGN_E_IO and the writer still frees
 * cleanly (also with a long game, which the writer hands over in pieces). */
static void write_failure(void) {
    buf in = {0};
    representative(&in);
    buf_str(&in, "[Event \"long\"]\n\n");
    for (int i = 0; i < 3000; i++) {
        buf_str(&in, "Nf3 Nf6 Ng1 Ng8 ");
    }
    buf_str(&in, "*\n");
    long calls = 0;
    for (long k = 0;; k++) {
        pgn_reader *r;
        pgn_writer *w;
        pgn_game *g;
        sink s = {NULL, 0, k};
        pgn_status st, ws = PGN_OK;
        CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, in.p, in.len), PGN_OK);
        CHECK_EQ_INT(pgn_writer_new(&w, NULL, sink_write, &s), PGN_OK);
        CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
        while ((st = pgn_reader_next(r, g)) == PGN_OK && (ws = pgn_writer_write(w, g)) == PGN_OK) {
        }
        pgn_game_free(g);
        pgn_writer_free(w);
        pgn_reader_free(r);
        if (s.calls <= k) {
            CHECK_EQ_INT(st, PGN_END); /* no call failed: the end of the input */
            calls = k;
            break;
        }
        if (ws != PGN_E_IO) {
            harness_fail(__FILE__, __LINE__, "write failing at call %ld: %s", k,
                         pgn_status_name(ws));
        } else {
            harness_counts.passed++;
        }
    }
    CHECK(calls > 8);
    printf("write failure: %ld write calls in a clean run, each failed in turn\n", calls);
    free(in.p);
}

/* ---- 2. pathological inputs ---- */

/* The input is a list of segments, each repeated; read through a callback without ever being
 * held whole. */
typedef struct seg {
    const char *p;
    size_t len;
    uint64_t times;
} seg;

#define MAX_SEGS 8

typedef struct gen {
    seg s[MAX_SEGS];
    size_t n, i, off;
    uint64_t rep, total;
} gen;

static ptrdiff_t gen_read(void *ctx, void *out, size_t cap) {
    gen *g = ctx;
    char *o = out;
    size_t w = 0;
    while (w < cap && g->i < g->n) {
        const seg *s = &g->s[g->i];
        if (g->rep >= s->times || s->len == 0) {
            g->i++;
            g->rep = 0;
            g->off = 0;
            continue;
        }
        size_t k = s->len - g->off;
        if (k > cap - w) {
            k = cap - w;
        }
        memcpy(o + w, s->p + g->off, k);
        w += k;
        g->off += k;
        if (g->off == s->len) {
            g->off = 0;
            g->rep++;
        }
    }
    g->total += w;
    return (ptrdiff_t)w;
}

static void gen_add(gen *g, const char *p, size_t len, uint64_t times) {
    if (g->n < MAX_SEGS) {
        g->s[g->n].p = p;
        g->s[g->n].len = len;
        g->s[g->n].times = times;
        g->n++;
    }
}

static void gen_str(gen *g, const char *s, uint64_t times) {
    gen_add(g, s, strlen(s), times);
}

static const char next_game[] = "\n\n[Event \"next\"]\n[White \"N\"]\n\n1. e4 e5 2. Nf3 1-0\n";

typedef struct pcase pcase;

typedef struct pstate {
    const pcase *c;
    uint64_t n; /* the size parameter */
    gen g;
    buf mem; /* for cases built in memory */
    unsigned long codes[256];
    uint64_t games, broken, last_plies, max_plies, written;
    int last_is_next; /* the last game read was next_game, read cleanly */
    unsigned long sentinels_ok, sentinels_bad;
    size_t utf8_bad; /* strings handed out that are not valid UTF-8 */
} pstate;

struct pcase {
    const char *name, *what;
    uint32_t flags;
    uint64_t n_fast, n_slow;
    void (*build)(pstate *p);
    pgn_status want[3];    /* diagnostics that must appear (0: none) */
    int next;              /* the input ends with next_game, which must read normally */
    size_t fixed_bytes;    /* the library's peak memory bound: fixed part */
    size_t bytes_per_unit; /* ... plus this much per unit of n (a game as big as the input) */
    uint64_t want_plies;   /* per unit of n; 0: not checked */
    uint64_t want_games;   /* 0: not checked */
};

static char filler[65536];

static void fill_bytes(gen *g, uint64_t n) {
    uint64_t full = n / sizeof filler;
    gen_add(g, filler, sizeof filler, full);
    gen_add(g, filler, (size_t)(n % sizeof filler), 1);
}

static void b_parens(pstate *p) {
    gen_str(&p->g, "[Event \"parens\"]\n\n1. e4 ", 1);
    gen_str(&p->g, "(", p->n);
    gen_str(&p->g, " e5 *", 1);
    gen_str(&p->g, next_game, 1);
}

static void b_ravs(pstate *p) {
    gen_str(&p->g, "[Event \"ravs\"]\n\n1. e4 ", 1);
    gen_str(&p->g, "(1. d4 ", p->n);
    gen_str(&p->g, ")", p->n);
    gen_str(&p->g, " e5 *", 1);
    gen_str(&p->g, next_game, 1);
}

static void b_braces(pstate *p) {
    gen_str(&p->g, "[Event \"braces\"]\n\n1. e4 ", 1);
    gen_str(&p->g, "{", p->n);
    gen_str(&p->g, "x", 1);
    gen_str(&p->g, "}", p->n);
    gen_str(&p->g, " e5 *", 1);
    gen_str(&p->g, next_game, 1);
}

static void b_comment(pstate *p) {
    gen_str(&p->g, "[Event \"comment\"]\n\n1. e4 {", 1);
    fill_bytes(&p->g, p->n);
    gen_str(&p->g, "} e5 *", 1);
    gen_str(&p->g, next_game, 1);
}

static void b_plies(pstate *p) {
    gen_str(&p->g, "[Event \"plies\"]\n\n", 1);
    gen_str(&p->g, "Nf3 Nf6 Ng1 Ng8 ", p->n / 4);
    gen_str(&p->g, "*", 1);
    gen_str(&p->g, next_game, 1);
}

static void b_tags(pstate *p) {
    buf_str(&p->mem, "[Event \"tags\"]\n");
    for (uint64_t i = 0; i < p->n; i++) {
        char t[64];
        snprintf(t, sizeof t, "[T%" PRIu64 " \"v%" PRIu64 "\"]\n", i, i);
        buf_str(&p->mem, t);
    }
    buf_str(&p->mem, "\n1. e4 e5 *");
    gen_add(&p->g, p->mem.p, p->mem.len, 1);
    gen_str(&p->g, next_game, 1);
}

static void b_tag_value(pstate *p) {
    gen_str(&p->g, "[Event \"", 1);
    fill_bytes(&p->g, p->n);
    gen_str(&p->g, "\"]\n[Site \"s\"]\n\n1. e4 e5 *", 1);
    gen_str(&p->g, next_game, 1);
}

static void b_token(pstate *p) {
    gen_str(&p->g, "[Event \"token\"]\n\n1. e4 e", 1);
    gen_str(&p->g, "5", p->n);
    gen_str(&p->g, " e5 *", 1);
    gen_str(&p->g, next_game, 1);
}

static char xblock[65536], ffblock[65536];

static void block_bytes(gen *g, const char *block, uint64_t n) {
    gen_add(g, block, 65536, n / 65536);
    gen_add(g, block, (size_t)(n % 65536), 1);
}

static void b_symbol(pstate *p) {
    gen_str(&p->g, "[Event \"symbol\"]\n\n1. e4 e5 2. Nf3 ", 1);
    block_bytes(&p->g, xblock, p->n);
    gen_str(&p->g, " Nc6 *", 1);
    gen_str(&p->g, next_game, 1);
}

static void b_stray(pstate *p) {
    gen_str(&p->g, "[Event \"stray\"]\n\n1. e4 e5 2. Nf3 ", 1);
    block_bytes(&p->g, ffblock, p->n);
    gen_str(&p->g, " Nc6 *", 1);
    gen_str(&p->g, next_game, 1);
}

static void b_line_comment(pstate *p) {
    gen_str(&p->g, "[Event \"line comment\"]\n\n1. e4 e5 ;", 1);
    block_bytes(&p->g, xblock, p->n);
    gen_str(&p->g, "\n2. Nf3 Nc6 *", 1);
    gen_str(&p->g, next_game, 1);
}

/* An @ ahead of a huge token in a game with no Variant tag: the look for a drop (issue 28 point
 * 7) stops at its byte budget, in the comment and in the symbol alike. */
static void b_comment_at(pstate *p) {
    gen_str(&p->g, "[Event \"comment @\"]\n\n1. e4 {@e4 ", 1);
    fill_bytes(&p->g, p->n);
    gen_str(&p->g, "} e5 *", 1);
    gen_str(&p->g, next_game, 1);
}

static void b_symbol_at(pstate *p) {
    gen_str(&p->g, "[Event \"symbol @\"]\n\n1. e4 e5 2. Nf3 P@e4", 1);
    block_bytes(&p->g, xblock, p->n);
    gen_str(&p->g, " Nc6 *", 1);
    gen_str(&p->g, next_game, 1);
}

static void b_bytes(pstate *p) {
    static const char bad[] =
        "[Event \"nul \0 here\"]\n[White \"bad \xC3\x28 utf8 \xFF\xFE\"]\n"
        "[Black \"overlong \xC0\xAF \xE0\x80\xAF \xF0\x80\x80\xAF surrogate \xED\xA0\x80 big "
        "\xF4\x90\x80\x80\"]\n\n"
        "1. e4 {nul \0 and \xC0\x80 and \xF8\x88\x80\x80\x80 and \xC3} e5 \0\xFF 2. Nf3 \xC0\xAF *";
    for (uint64_t i = 0; i < p->n; i++) {
        buf_put(&p->mem, bad, sizeof bad - 1);
        buf_str(&p->mem, "\n\n");
    }
    gen_add(&p->g, p->mem.p, p->mem.len, 1);
    gen_str(&p->g, next_game, 1);
}

static void b_eof_string(pstate *p) {
    gen_str(&p->g, "[Event \"x\"]\n\n1. e4 e5 *\n\n[Event \"unterminated", 1);
}
static void b_eof_comment(pstate *p) {
    gen_str(&p->g, "[Event \"x\"]\n\n1. e4 {unterminated", 1);
}
static void b_eof_rav(pstate *p) {
    gen_str(&p->g, "[Event \"x\"]\n\n1. e4 (1. d4 (1. c4", 1);
}
static void b_eof_tag(pstate *p) {
    gen_str(&p->g, "[Event \"x\"]\n\n1. e4 e5 *\n\n[Event", 1);
}

/* Game i is a sound game damaged in the way numbered i (a damage kind, a place, a byte), then a
 * sentinel game "ok i" that must read normally. */
static void b_broken(pstate *p) {
    static const char base[] =
        "[Event \"b\"]\n[Site \"s\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n"
        "[SetUp \"1\"]\n\n1. O-O {c} O-O-O (1... Kf8 $2) 2. Rab1 Rh7 *";
    static const char ins[] = "{}()[]\";%$!?.*\\\0\x80\xFF\n\r\t 0-1-";
    size_t blen = sizeof base - 1;
    for (uint64_t i = 0; i < p->n; i++) {
        size_t at = (size_t)(i * 7919 % blen);
        unsigned kind = (unsigned)(i % 4);
        char c = ins[(i / 4) % (sizeof ins - 1)];
        if (kind == 0) { /* insert a byte */
            buf_put(&p->mem, base, at);
            buf_put(&p->mem, &c, 1);
            buf_put(&p->mem, base + at, blen - at);
        } else if (kind == 1) { /* delete a byte */
            buf_put(&p->mem, base, at);
            buf_put(&p->mem, base + at + 1, blen - at - 1);
        } else if (kind == 2) { /* replace a byte */
            buf_put(&p->mem, base, at);
            buf_put(&p->mem, &c, 1);
            buf_put(&p->mem, base + at + 1, blen - at - 1);
        } else { /* truncate */
            buf_put(&p->mem, base, at);
        }
        char t[96];
        snprintf(t, sizeof t, "\n\n[Event \"ok %" PRIu64 "\"]\n\n1. d4 d5 *\n\n", i);
        buf_str(&p->mem, t);
    }
    gen_add(&p->g, p->mem.p, p->mem.len, 1);
}

#define KB (size_t)1024
#define MB ((size_t)1024 * 1024)
/* A token of up to max_token (1 MiB) is held in the window (which doubles: 2 MiB), decoded into
 * the reader's scratch, copied into the game, and composed by the writer: 8 MiB in all. */
#define TOKEN_BOUND (8 * MB)

static const pcase pcases[] = {
    {"nested-parens",
     "10^6 nested ( after a move",
     0,
     100000,
     1000000,
     b_parens,
     {PGN_W_VARIATION_START, PGN_E_UNBALANCED_PAREN, 0},
     1,
     1 * MB,
     0,
     0,
     0},
    {"nested-ravs",
     "10^6 nested (1. d4 ... )",
     0,
     100000,
     1000000,
     b_ravs,
     {PGN_E_LIMIT, 0, 0},
     1,
     4 * MB,
     0,
     0,
     0},
    {"nested-braces",
     "10^6 nested { } with PGN_READ_NESTED_COMMENTS",
     PGN_READ_NESTED_COMMENTS,
     100000,
     1000000,
     b_braces,
     {0, 0, 0},
     1,
     TOKEN_BOUND,
     0,
     0,
     0},
    {"comment-100MB",
     "a 100 MB comment",
     0,
     10 * MB,
     100 * MB,
     b_comment,
     {PGN_E_TOKEN_TOO_LONG, 0, 0},
     1,
     TOKEN_BOUND,
     0,
     0,
     0},
    {"plies-10^6",
     "a game of 10^6 plies (Nf3 Nf6 Ng1 Ng8 ...)",
     0,
     100000,
     1000000,
     b_plies,
     {0, 0, 0},
     1,
     1 * MB,
     160,
     1,
     0},
    {"tags-10^5", "10^5 tags", 0, 10000, 100000, b_tags, {0, 0, 0}, 1, 1 * MB, 200, 0, 0},
    {"tag-value-10MB",
     "a 10 MB tag value",
     0,
     2 * MB,
     10 * MB,
     b_tag_value,
     {PGN_E_TOKEN_TOO_LONG, 0, 0},
     1,
     TOKEN_BOUND,
     0,
     0,
     0},
    {"token-1MB",
     "a 1 MiB + 1 byte symbol",
     0,
     MB + 1,
     MB + 1,
     b_token,
     {PGN_E_TOKEN_TOO_LONG, 0, 0},
     1,
     TOKEN_BOUND,
     0,
     0,
     0},
    {"symbol-100MB",
     "a 100 MB symbol (letters only)",
     0,
     10 * MB,
     100 * MB,
     b_symbol,
     {PGN_E_TOKEN_TOO_LONG, 0, 0},
     1,
     TOKEN_BOUND,
     0,
     0,
     0},
    {"stray-bytes-100MB",
     "100 MB of 0xFF bytes in the movetext",
     0,
     10 * MB,
     100 * MB,
     b_stray,
     {PGN_E_TOKEN_TOO_LONG, 0, 0},
     1,
     TOKEN_BOUND,
     0,
     0,
     0},
    {"line-comment-100MB",
     "a 100 MB ; comment",
     0,
     10 * MB,
     100 * MB,
     b_line_comment,
     {PGN_E_TOKEN_TOO_LONG, 0, 0},
     1,
     TOKEN_BOUND,
     0,
     0,
     0},
    {"comment-drop-100MB",
     "a 100 MB comment after an @, no Variant tag",
     0,
     10 * MB,
     100 * MB,
     b_comment_at,
     {PGN_E_TOKEN_TOO_LONG, 0, 0},
     1,
     TOKEN_BOUND,
     0,
     0,
     0},
    {"symbol-drop-100MB",
     "a 100 MB symbol starting P@e4, no Variant tag",
     0,
     10 * MB,
     100 * MB,
     b_symbol_at,
     {PGN_E_TOKEN_TOO_LONG, 0, 0},
     1,
     TOKEN_BOUND,
     0,
     0,
     0},
    {"bad-bytes",
     "NUL, invalid UTF-8, overlong and surrogate sequences",
     0,
     100,
     10000,
     b_bytes,
     {PGN_W_ENCODING, PGN_W_SKIPPED_TEXT, 0},
     1,
     1 * MB,
     0,
     0,
     0},
    {"eof-in-string",
     "file ends inside a tag value",
     0,
     1,
     1,
     b_eof_string,
     {PGN_E_UNTERMINATED_STRING, 0, 0},
     0,
     1 * MB,
     0,
     0,
     2},
    {"eof-in-comment",
     "file ends inside a comment",
     0,
     1,
     1,
     b_eof_comment,
     {PGN_E_UNTERMINATED_COMMENT, 0, 0},
     0,
     1 * MB,
     0,
     0,
     1},
    {"eof-in-variation",
     "file ends inside a variation",
     0,
     1,
     1,
     b_eof_rav,
     {PGN_E_UNBALANCED_PAREN, 0, 0},
     0,
     1 * MB,
     0,
     0,
     1},
    {"eof-in-tag",
     "file ends inside a tag pair",
     0,
     1,
     1,
     b_eof_tag,
     {PGN_E_BAD_TAG, 0, 0},
     0,
     1 * MB,
     0,
     0,
     2},
    {"broken-10^4",
     "10^4 games each damaged differently, each followed by a sound one",
     0,
     10000,
     10000,
     b_broken,
     {0, 0, 0},
     0,
     1 * MB,
     0,
     0,
     0},
};

/* Is s valid UTF-8 (no overlong forms, no surrogates, at most U+10FFFF)? */
static int valid_utf8(const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = p[i], len = c < 0x80             ? 1
                                 : (c & 0xE0) == 0xC0 ? 2
                                 : (c & 0xF0) == 0xE0 ? 3
                                 : (c & 0xF8) == 0xF0 ? 4
                                                      : 0;
        if (len == 0 || i + len > n) {
            return 0;
        }
        uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
        for (unsigned k = 1; k < len; k++) {
            if ((p[i + k] & 0xC0) != 0x80) {
                return 0;
            }
            cp = cp << 6 | (p[i + k] & 0x3F);
        }
        static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            return 0;
        }
        i += len;
    }
    return 1;
}

static void p_diag(void *ctx, const pgn_diag *d) {
    pstate *p = ctx;
    p->codes[(unsigned)d->code & 255]++;
}

static void check_strings(pstate *p, const pgn_game *g) {
    for (size_t i = 0; i < pgn_game_tag_count(g); i++) {
        pgn_str v = pgn_game_tag_value(g, i);
        p->utf8_bad += !valid_utf8(v.ptr, v.len);
    }
    /* comments along the main line and the first node's variations */
    for (const pgn_node *n = pgn_game_root(g); n; n = pgn_node_child(n)) {
        pgn_str c = pgn_node_comment(n), pc = pgn_node_pre_comment(n);
        p->utf8_bad += !valid_utf8(c.ptr, c.len) + !valid_utf8(pc.ptr, pc.len);
    }
}

/* Reads the case's input through the counting allocator and writes every game; runs in the child.
 */
static void p_read(pstate *p, test_alloc *a) {
    pgn_allocator al;
    pgn_reader_opts o;
    pgn_reader *r = NULL;
    pgn_writer *w = NULL;
    pgn_game *g = NULL;
    pgn_writer_opts wo;
    sink k = {NULL, 0, -1};
    ta_init(a, &al, -1, 0);
    memset(&o, 0, sizeof o);
    memset(&wo, 0, sizeof wo);
    o.alloc = &al;
    o.flags = p->c->flags;
    o.on_diag = p_diag;
    o.diag_ctx = p;
    wo.alloc = &al;
    CHECK_EQ_INT(pgn_game_new(&g, &al), PGN_OK);
    CHECK_EQ_INT(pgn_writer_new(&w, &wo, sink_write, &k), PGN_OK);
    CHECK_EQ_INT(pgn_reader_new(&r, &o, gen_read, &p->g), PGN_OK);
    pgn_status st;
    char want[64];
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        const pgn_game_summary *s = pgn_reader_summary(r);
        pgn_str ev = {"", 0};
        pgn_game_tag_get(g, "Event", &ev);
        p->games++;
        p->broken += s->broken != 0;
        p->last_plies = pgn_game_ply_count(g);
        p->max_plies = p->last_plies > p->max_plies ? p->last_plies : p->max_plies;
        p->last_is_next = ev.len == 4 && memcmp(ev.ptr, "next", 4) == 0 && !s->broken &&
                          s->warnings == 0 && p->last_plies == 3 &&
                          pgn_game_result(g) == PGN_RESULT_WHITE_WINS;
        if (ev.len > 3 && memcmp(ev.ptr, "ok ", 3) == 0) {
            snprintf(want, sizeof want, "ok %lu", p->sentinels_ok + p->sentinels_bad);
            int good = !s->broken && ev.len == strlen(want) && memcmp(ev.ptr, want, ev.len) == 0 &&
                       p->last_plies == 2;
            p->sentinels_ok += good;
            p->sentinels_bad += !good;
            if (!good && p->sentinels_bad <= 3) {
                printf("  sentinel game %" PRIu64 " (%.*s, wanted %s): %s, %" PRIu64 " plies\n",
                       s->game, (int)ev.len, ev.ptr, want, s->broken ? "broken" : "sound",
                       p->last_plies);
            }
        }
        check_strings(p, g);
        if (pgn_writer_write(w, g) == PGN_OK) {
            p->written++;
        }
    }
    CHECK_EQ_INT(st, PGN_END);
    pgn_reader_free(r);
    pgn_writer_free(w);
    pgn_game_free(g);
    CHECK_EQ_INT(a->live, 0);
    CHECK_EQ_INT(a->bad_size, 0);
}

typedef struct presult {
    unsigned long passed, failed;
    size_t peak;
    double secs;
    uint64_t bytes_in, games;
    char diags[160];
} presult;

/* The case's checks: its diagnostics, the next game, memory, plies, games, sentinels, UTF-8. */
static void p_verify(const pstate *ps, const test_alloc *a) {
    const pstate p = *ps;
    const pcase *c = p.c;
    uint64_t n = p.n;
    for (int k = 0; k < 3 && c->want[k]; k++) {
        if (p.codes[c->want[k]] == 0) {
            harness_fail(__FILE__, __LINE__, "%s: no %s", c->name, pgn_status_name(c->want[k]));
        } else {
            harness_counts.passed++;
        }
    }
    if (c->next && !p.last_is_next) {
        harness_fail(__FILE__, __LINE__, "%s: the game after it was not read normally", c->name);
    }
    size_t bound = c->fixed_bytes + (size_t)(c->bytes_per_unit * n);
    if (a->peak > bound) {
        harness_fail(__FILE__, __LINE__, "%s: the library's peak memory %zu > %zu", c->name,
                     a->peak, bound);
    } else {
        harness_counts.passed++;
    }
    if (c->want_plies && p.max_plies != c->want_plies * n) {
        harness_fail(__FILE__, __LINE__, "%s: %" PRIu64 " plies, want %" PRIu64, c->name,
                     p.max_plies, c->want_plies * n);
    }
    if (c->want_games && p.games != c->want_games) {
        harness_fail(__FILE__, __LINE__, "%s: %" PRIu64 " games, want %" PRIu64, c->name, p.games,
                     c->want_games);
    }
    if (c->build == b_broken) {
        CHECK_EQ_U64(p.sentinels_ok, n);
        CHECK_EQ_U64(p.sentinels_bad, 0);
    }
    CHECK_EQ_U64(p.utf8_bad, 0);
    CHECK_EQ_U64(p.written, p.games); /* the writer takes every tree the reader built */
}

static void p_child(const pcase *c, uint64_t n, int timing_only, int fd) {
    pstate p;
    test_alloc a;
    presult res;
    memset(&p, 0, sizeof p);
    memset(&res, 0, sizeof res);
    p.c = c;
    p.n = n;
    c->build(&p);
    double t0 = now();
    p_read(&p, &a);
    res.secs = now() - t0;
    if (!timing_only) {
        p_verify(&p, &a);
    }
    /* the diagnostics seen, most frequent first (at most 4) */
    size_t dl = 0;
    unsigned long done[256] = {0};
    for (int shown = 0; shown < 4; shown++) {
        int best = -1;
        for (int k = 0; k < 256; k++) {
            if (p.codes[k] && !done[k] && (best < 0 || p.codes[k] > p.codes[best])) {
                best = k;
            }
        }
        if (best < 0) {
            break;
        }
        done[best] = 1;
        dl += (size_t)snprintf(res.diags + dl, sizeof res.diags - dl, "%s%s x%lu",
                               shown ? ", " : "", pgn_status_name((pgn_status)best), p.codes[best]);
        if (dl >= sizeof res.diags) {
            break;
        }
    }
    if (dl == 0) {
        snprintf(res.diags, sizeof res.diags, "none");
    }
    res.passed = harness_counts.passed;
    res.failed = harness_counts.failed;
    res.peak = a.peak;
    res.bytes_in = p.g.total;
    res.games = p.games;
    if (write(fd, &res, sizeof res) != (ssize_t)sizeof res) {
        _exit(3);
    }
    free(p.mem.p);
}

/* Runs one case in a child under a time limit; returns its result and peak RSS (KiB). */
static int p_run(const pcase *c, uint64_t n, int timing_only, unsigned limit, presult *res,
                 long *maxrss_kb) {
    int fds[2];
    if (pipe(fds) != 0) {
        return 0;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        harness_counts.passed = harness_counts.failed = 0;
        alarm(limit);
        p_child(c, n, timing_only, fds[1]);
        fflush(stdout);
        _exit(0);
    }
    close(fds[1]);
    memset(res, 0, sizeof *res);
    ssize_t got = pid > 0 ? read(fds[0], res, sizeof *res) : -1;
    close(fds[0]);
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    if (pid > 0) {
        wait4(pid, &status, 0, &ru);
    }
    *maxrss_kb = ru.ru_maxrss;
    if (got != (ssize_t)sizeof *res || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        harness_fail(__FILE__, __LINE__, "%s (n=%" PRIu64 "): the child %s %d", c->name, n,
                     WIFSIGNALED(status) ? "died of signal" : "exited with",
                     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
        return 0;
    }
    return 1;
}

static void pathological(void) {
    int table = getenv("PGNKIT_ROBUST_TABLE") != NULL;
    memset(filler, 'a', sizeof filler);
    memset(xblock, 'x', sizeof xblock);
    memset(ffblock, 0xFF, sizeof ffblock);
    for (size_t i = 0; i < sizeof filler; i += 71) {
        filler[i] = ' ';
    }
    if (table) {
        printf("\n| case | input | size | time | time at n/10 | library peak | process peak RSS | "
               "diagnostics |\n|---|---|---|---|---|---|---|---|\n");
    }
    for (size_t i = 0; i < sizeof pcases / sizeof pcases[0]; i++) {
        const pcase *c = &pcases[i];
        /* light: smaller, except the single-token cases, which must stay above max_token */
        int shrink = light && c->n_fast >= 1000 && c->fixed_bytes != TOKEN_BOUND;
        uint64_t n = slow ? c->n_slow : shrink ? c->n_fast / 10 : c->n_fast;
        presult res, small;
        long rss = 0, rss_small = 0;
        if (!p_run(c, n, 0, slow ? 600 : 120, &res, &rss)) {
            continue;
        }
        harness_counts.passed += res.passed;
        harness_counts.failed += res.failed;
        double t_small = -1;
        if (n >= 1000 && p_run(c, n / 10, 1, 120, &small, &rss_small)) {
            t_small = small.secs;
            /* linear time: ten times the input may take at most about ten times as long (with
             * slack for noise, checked only when the times are long enough to measure) */
            if (res.secs > 0.5 && res.secs > 30 * t_small) {
                harness_fail(__FILE__, __LINE__, "%s: %.2f s at n=%" PRIu64 " but %.3f s at n/10",
                             c->name, res.secs, n, t_small);
            } else {
                harness_counts.passed++;
            }
        }
        printf("%s: n=%" PRIu64 ", %" PRIu64 " bytes, %" PRIu64
               " games, %.3f s (n/10: %.3f s), library peak "
               "%zu bytes, RSS %ld KiB; %s\n",
               c->name, n, res.bytes_in, res.games, res.secs, t_small, res.peak, rss, res.diags);
        if (table) {
            printf("| %s | %s | %.1f MB | %.2f s | %.3f s | %.2f MiB | %.1f MiB | %s |\n", c->name,
                   c->what, (double)res.bytes_in / 1e6, res.secs, t_small,
                   (double)res.peak / (double)MB, (double)rss / 1024.0, res.diags);
        }
    }
}

int main(void) {
    const char *env = getenv("PGNKIT_SLOW");
    slow = env && *env && strcmp(env, "0") != 0;
    light = getenv("PGNKIT_VALGRIND") != NULL;
    if (getenv("PGNKIT_ROBUST_TABLE") == NULL) {
        fault_injection();
        io_failure();
        write_failure();
    }
    pathological();
    return harness_finish();
}
