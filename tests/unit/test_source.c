/* SPDX-License-Identifier: MIT */
/* The source layer (include/pgnkit/source.h, issue 29): the magic table against each of its rows;
 * every format this build has, compressed by pgn_encoder and read back from memory, a callback and
 * a file descriptor, equal to the text; several streams (gzip members, zstd frames) one after
 * another; a cut and a damaged stream give PGN_E_IO with the sentence that says where; ranges of a
 * plain text with true line numbers (the reader's diagnostics equal one reader's over the whole);
 * the frames of a two-frame zstd text and ranges at their boundaries; the parallel reader's hooks
 * with a user of their own, its number of workers and when reading on threads can pay; a
 * compressed text read on threads (its decoder on a thread of its own) gives the games in order,
 * the progress of the file's bytes from the calling thread, the games before a cut, and stops
 * early when each says so. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "pgnkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char text[] = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"
                           "[Event \"b\"]\n\n1. d4 Kxe8 *\n\n"
                           "[Event \"c\"]\r\n\r\n1. c4 e5 0-1\r\n";

/* The compressed form of t[0..n) in format f, streams times over (gzip members, zstd frames). */
static pgn_membuf packed(pgn_format f, const char *t, size_t n, int streams) {
    pgn_membuf m = {0};
    for (int i = 0; i < streams; i++) {
        pgn_encoder *e;
        char msg[200];
        CHECK_EQ_INT(pgn_encoder_new(&e, f, pgn_membuf_write, &m, msg, sizeof msg), PGN_OK);
        size_t from = n * (size_t)i / (size_t)streams, to = n * (size_t)(i + 1) / (size_t)streams;
        CHECK_EQ_INT(pgn_encoder_write(e, t + from, to - from), (long long)(to - from));
        CHECK_EQ_INT(pgn_encoder_finish(e), PGN_OK);
        pgn_encoder_free(e);
    }
    return m;
}

/* Everything s reads, into out (cap bytes): the count, or -1. */
static long long read_all(pgn_source *s, char *out, size_t cap) {
    size_t len = 0;
    for (;;) {
        ptrdiff_t n = pgn_source_read(s, out + len, cap - len < 7 ? cap - len : 7);
        if (n <= 0) {
            return n < 0 ? -1 : (long long)len;
        }
        len += (size_t)n;
    }
}

typedef struct mem_cb {
    const char *p;
    size_t len, at;
} mem_cb;

static ptrdiff_t cb_read(void *ctx, void *buf, size_t cap) {
    mem_cb *m = ctx;
    size_t n = m->len - m->at < cap ? m->len - m->at : cap;
    n = n > 5 ? 5 : n;
    memcpy(buf, m->p + m->at, n);
    m->at += n;
    return (ptrdiff_t)n;
}

static void test_magic(void) {
    size_t n;
    const pgn_magic *t = pgn_magic_table(&n);
    CHECK(n >= 10);
    for (size_t i = 0; i < n; i++) {
        unsigned char buf[300] = {0};
        memcpy(buf + t[i].at, t[i].bytes, t[i].len);
        buf[3] = t[i].format == PGN_FORMAT_BZIP2 ? '9' : buf[3];
        const pgn_magic *m = pgn_magic_find(buf, t[i].at + t[i].len + 1);
        CHECK(m != NULL && strcmp(m->what, t[i].what) == 0);
    }
    CHECK(pgn_magic_find("[Event", 6) == NULL);
    CHECK(pgn_magic_find("BZhx", 4) == NULL); /* bzip2 needs its block size digit */
    const pgn_magic *skip = pgn_magic_find("\x53\x2a\x4d\x18", 4);
    CHECK(skip != NULL && skip->format == PGN_FORMAT_ZSTD);
    CHECK_EQ_INT(pgn_format_of_name("x.pgn.zst"), PGN_FORMAT_ZSTD);
    CHECK_EQ_INT(pgn_format_of_name("x.pgn"), PGN_FORMAT_PLAIN);
    CHECK(strcmp(pgn_format_name(PGN_FORMAT_XZ), "xz") == 0);
}

/* Format f: memory, callback and fd give the text; two streams too; cut and damaged copies fail
 * with the sentence. */
static void test_format(pgn_format f) {
    char out[4096], msg[300];
    size_t n = sizeof text - 1;
    pgn_membuf m = packed(f, text, n, f == PGN_FORMAT_PLAIN ? 1 : 2);
    pgn_source *s;
    CHECK_EQ_INT(pgn_source_open_mem(&s, m.ptr, m.len, NULL, msg, sizeof msg), PGN_OK);
    CHECK_EQ_INT(pgn_source_format(s), f);
    CHECK_EQ_INT(read_all(s, out, sizeof out), (long long)n);
    CHECK(memcmp(out, text, n) == 0);
    CHECK_EQ_INT(pgn_source_next(s), PGN_END);
    pgn_source_free(s);
    mem_cb cb = {m.ptr, m.len, 0};
    CHECK_EQ_INT(pgn_source_open_read(&s, cb_read, &cb, NULL, msg, sizeof msg), PGN_OK);
    CHECK_EQ_INT(read_all(s, out, sizeof out), (long long)n);
    CHECK(!pgn_source_seekable(s));
    pgn_source_free(s);
    FILE *tf = tmpfile();
    CHECK(tf && fwrite(m.ptr, 1, m.len, tf) == m.len && fflush(tf) == 0);
    rewind(tf);
    CHECK_EQ_INT(pgn_source_open_fd(&s, fileno(tf), NULL, msg, sizeof msg), PGN_OK);
    CHECK(pgn_source_seekable(s) && pgn_source_size(s) == m.len);
    CHECK_EQ_INT(read_all(s, out, sizeof out), (long long)n);
    CHECK_EQ_INT(pgn_source_consumed(s), m.len);
    pgn_source_free(s);
    fclose(tf);
    if (f != PGN_FORMAT_PLAIN) {
        CHECK_EQ_INT(pgn_source_open_mem(&s, m.ptr, m.len - 9, NULL, msg, sizeof msg), PGN_OK);
        CHECK_EQ_INT(read_all(s, out, sizeof out), -1);
        CHECK(pgn_source_error(s) != NULL && strstr(pgn_source_error(s), pgn_format_name(f)));
        pgn_source_free(s);
    }
    pgn_membuf_free(&m);
}

typedef struct seen {
    char log[4096];
    size_t len;
} seen;

static void on_diag(void *ctx, const pgn_diag *d) {
    seen *s = ctx;
    int k = snprintf(s->log + s->len, sizeof s->log - s->len, "%u:%u@%llu %s\n", d->at.line,
                     d->at.column, (unsigned long long)d->at.offset, pgn_status_name(d->code));
    s->len += k > 0 ? (size_t)k : 0;
}

/* Reads s (after its range, given in ro) into log; the number of games. */
static int read_games(pgn_source *s, pgn_reader_opts *ro, seen *log) {
    pgn_reader *rd;
    pgn_game *g;
    int games = 0;
    ro->on_diag = on_diag;
    ro->diag_ctx = log;
    CHECK_EQ_INT(pgn_reader_new(&rd, ro, pgn_source_read, s), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    while (pgn_reader_next(rd, g) == PGN_OK) {
        games++;
    }
    pgn_game_free(g);
    pgn_reader_free(rd);
    return games;
}

/* A plain text cut at every byte: the two ranges read its games once, with true lines. */
static void test_ranges(void) {
    char msg[300];
    size_t n = sizeof text - 1;
    seen whole = {{0}, 0};
    pgn_source *s;
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    CHECK_EQ_INT(pgn_source_open_mem(&s, text, n, NULL, msg, sizeof msg), PGN_OK);
    CHECK_EQ_INT(read_games(s, &ro, &whole), 3);
    pgn_source_free(s);
    for (size_t cut = 1; cut < n; cut++) {
        seen parts = {{0}, 0};
        int games = 0;
        for (int half = 0; half < 2; half++) {
            memset(&ro, 0, sizeof ro);
            CHECK_EQ_INT(pgn_source_open_mem(&s, text, n, NULL, msg, sizeof msg), PGN_OK);
            CHECK_EQ_INT(pgn_source_range(s, half ? cut : 0, half ? 0 : cut, 0, &ro), PGN_OK);
            games += read_games(s, &ro, &parts);
            pgn_source_free(s);
        }
        CHECK_EQ_INT(games, 3);
        CHECK(parts.len == whole.len && memcmp(parts.log, whole.log, whole.len) == 0);
    }
}

static int keep_frame(void *user, const pgn_frame *fr) {
    pgn_frame *all = user;
    for (int i = 0; i < 4; i++) {
        if (all[i].size == 0) {
            all[i] = *fr;
            return 0;
        }
    }
    return 1;
}

/* Two zstd frames: listed with their text offsets and lines; a range of the second frame. */
static void test_frames(void) {
    char msg[300];
    size_t n = sizeof text - 1;
    pgn_membuf m = packed(PGN_FORMAT_ZSTD, text, n, 2);
    pgn_frame fr[4];
    memset(fr, 0, sizeof fr);
    pgn_source *s;
    CHECK_EQ_INT(pgn_source_open_mem(&s, m.ptr, m.len, NULL, msg, sizeof msg), PGN_OK);
    CHECK_EQ_INT(pgn_source_frames(s, keep_frame, fr), PGN_OK);
    pgn_source_free(s);
    CHECK_EQ_INT(fr[0].offset, 0);
    CHECK_EQ_INT(fr[1].offset, fr[0].size);
    CHECK_EQ_INT(fr[0].size + fr[1].size, m.len);
    CHECK_EQ_INT(fr[1].text_offset, n / 2);
    CHECK_EQ_INT(fr[0].text_size + fr[1].text_size, n);
    CHECK(fr[1].line > 1);
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    CHECK_EQ_INT(pgn_source_open_mem(&s, m.ptr, m.len, NULL, msg, sizeof msg), PGN_OK);
    CHECK_EQ_INT(pgn_source_range(s, fr[1].offset, 0, 0, &ro), PGN_OK);
    CHECK_EQ_INT(ro.range_start, n / 2);
    CHECK_EQ_INT(ro.line_base, fr[1].line);
    pgn_source_free(s);
    CHECK_EQ_INT(pgn_source_open_mem(&s, m.ptr, m.len, NULL, msg, sizeof msg), PGN_OK);
    CHECK_EQ_INT(pgn_source_range(s, 3, 0, 0, &ro), PGN_E_IO);
    CHECK(strstr(pgn_source_error(s), "not frame boundaries") != NULL);
    pgn_source_free(s);
    pgn_membuf_free(&m);
}

static void test_refused(void) {
    char msg[300] = "";
    pgn_source *s = (pgn_source *)&msg;
    CHECK_EQ_INT(pgn_source_open_mem(&s, "\x04\x22\x4d\x18xxxx", 8, NULL, msg, sizeof msg),
                 PGN_E_IO);
    CHECK(s == NULL && strstr(msg, "lz4 data") != NULL);
    CHECK_EQ_INT(pgn_source_open_path(&s, "/nonexistent/x.pgn", NULL, msg, sizeof msg), PGN_E_IO);
    CHECK(strcmp(msg, "No such file or directory") == 0);
    CHECK_EQ_INT(pgn_source_open_path(&s, "/", NULL, msg, sizeof msg), PGN_E_IO);
    CHECK(strcmp(msg, "Is a directory") == 0);
}

/* The parallel reader's hooks with opts.hooks_user: worker_new gets it (each and progress get
 * opts.user), and each game's product, made on a worker, comes back with that game. */
typedef struct each_seen {
    const char *text; /* the games, each GAME_BYTES long */
    uint64_t games, bad;
} each_seen;

enum { GAME_BYTES = 36 };

static void *hk_new(void *user) {
    int *made = user;
    (*made)++; /* on the calling thread (pgn_parallel_read starts the workers) */
    return malloc(1);
}

static void hk_free(void *wuser) {
    free(wuser);
}

static pgn_status hk_prepare(void *wuser, const pgn_par_game *g, pgn_membuf *out) {
    (void)wuser;
    return pgn_membuf_write(out, g->raw.ptr, g->raw.len) < 0 ? PGN_E_NOMEM : PGN_OK;
}

/* Each game's product is its own text, in input order. */
static pgn_status hk_each(void *user, const pgn_par_game *g) {
    each_seen *e = user;
    const char *want = e->text + e->games * GAME_BYTES;
    e->games++;
    e->bad += !g->has_product || g->product.len != GAME_BYTES ||
              memcmp(g->product.ptr, want, GAME_BYTES) != 0 || g->summary->game != e->games;
    return PGN_OK;
}

static void test_parallel_hooks(void) {
    enum { GAMES = 2000 };
    char *big = malloc((size_t)GAME_BYTES * GAMES + 1);
    CHECK(big != NULL);
    for (int i = 0; big && i < GAMES; i++) {
        snprintf(big + (size_t)i * GAME_BYTES, GAME_BYTES + 1,
                 "[Event \"%05hu\"]\n\n1. e4 e5 2. Nf3 *\n\n", (unsigned short)i);
    }
    pgn_source *s;
    CHECK_EQ_INT(pgn_source_open_mem(&s, big, (size_t)GAME_BYTES * GAMES, NULL, NULL, 0), PGN_OK);
    int made = 0;
    each_seen e = {big, 0, 0};
    pgn_parallel_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 3;
    o.batch = 4096; /* many batches over the three workers */
    o.reader.flags = PGN_READ_KEEP_RAW;
    o.hooks.worker_new = hk_new;
    o.hooks.worker_free = hk_free;
    o.hooks.prepare = hk_prepare;
    o.user = &e;
    o.hooks_user = &made;
    o.each = hk_each;
    pgn_parallel_totals t;
    CHECK_EQ_INT(pgn_parallel_read(s, &o, &t), PGN_END);
    CHECK_EQ_INT(t.games, GAMES);
    CHECK_EQ_INT(e.games, GAMES);
    CHECK_EQ_INT(e.bad, 0);
    CHECK_EQ_INT(made, 4); /* three workers and the calling thread's */
    pgn_source_free(s);
    /* 1 MiB of plain text in memory (seekable) pays; less does not; nor does a pipe. */
    CHECK_EQ_INT(pgn_source_open_mem(&s, big, (size_t)GAME_BYTES * GAMES, NULL, NULL, 0), PGN_OK);
    CHECK_EQ_INT(pgn_parallel_worthwhile(s), 0);
    pgn_source_free(s);
    char *huge = calloc(1, 1u << 20);
    CHECK(huge != NULL);
    CHECK_EQ_INT(pgn_source_open_mem(&s, huge, 1u << 20, NULL, NULL, 0), PGN_OK);
    CHECK_EQ_INT(pgn_parallel_worthwhile(s), 1);
    pgn_source_free(s);
    mem_cb m = {huge, 1u << 20, 0};
    CHECK_EQ_INT(pgn_source_open_read(&s, cb_read, &m, NULL, NULL, 0), PGN_OK);
    CHECK_EQ_INT(pgn_parallel_worthwhile(s), 0);
    pgn_source_free(s);
    if (pgn_format_missing_lib(PGN_FORMAT_GZIP) == NULL) { /* compressed: any size pays */
        pgn_membuf z = packed(PGN_FORMAT_GZIP, text, sizeof text - 1, 1);
        CHECK_EQ_INT(pgn_source_open_mem(&s, z.ptr, z.len, NULL, NULL, 0), PGN_OK);
        CHECK_EQ_INT(pgn_parallel_worthwhile(s), 1);
        pgn_source_free(s);
        pgn_membuf_free(&z);
    }
    free(huge);
    free(big);
    CHECK_EQ_INT(pgn_parallel_workers(3), 3);
    CHECK_EQ_INT(pgn_parallel_workers(1000), 256);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK_EQ_INT(pgn_parallel_workers(0), cores < 1 ? 1 : cores > 256 ? 256 : cores);
}

/* each after a parallel read of a compressed text: the games so far in order (hk_each), and
 * progress's bytes never going back, at most the file's, and pgn_source_consumed's. */
typedef struct z_seen {
    each_seen e;
    pgn_source *s;
    uint64_t last, stop_at, bad;
} z_seen;

static pgn_status z_each(void *user, const pgn_par_game *g) {
    z_seen *z = user;
    pgn_status st = hk_each(&z->e, g);
    return z->stop_at && z->e.games == z->stop_at ? PGN_E_NOMEM : st;
}

static void z_progress(void *user, uint64_t consumed, uint64_t games) {
    z_seen *z = user;
    (void)games;
    z->bad += consumed < z->last || consumed > pgn_source_size(z->s) ||
              consumed != pgn_source_consumed(z->s);
    z->last = consumed;
}

/* Reads z[0..len) on 3 workers: the status; *zs what each and progress saw. */
static pgn_status z_read(const pgn_membuf *m, size_t len, const char *big, uint64_t stop_at,
                         z_seen *zs) {
    pgn_source *s;
    CHECK_EQ_INT(pgn_source_open_mem(&s, m->ptr, len, NULL, NULL, 0), PGN_OK);
    memset(zs, 0, sizeof *zs);
    zs->e.text = big;
    zs->s = s;
    zs->stop_at = stop_at;
    pgn_parallel_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 3;
    o.batch = 1 << 16;
    o.reader.flags = PGN_READ_KEEP_RAW;
    o.hooks.prepare = hk_prepare;
    o.user = zs;
    o.each = z_each;
    o.progress = z_progress;
    pgn_parallel_totals t;
    pgn_status st = pgn_parallel_read(s, &o, &t);
    CHECK_EQ_INT(t.games, zs->e.games);
    CHECK(st != PGN_E_IO || strstr(pgn_source_error(s), "truncated") != NULL);
    CHECK_EQ_INT(st == PGN_END ? pgn_source_consumed(s) : len, len);
    pgn_source_free(s);
    return st;
}

/* A compressed text of some 5.8 MB (more than the decoder thread's 4 MiB of blocks ahead), in
 * two streams, read on threads: whole, cut in the middle of its second stream, and stopped by
 * each. */
static void test_parallel_compressed(pgn_format f) {
    enum { GAMES = 160000 };
    size_t n = (size_t)GAME_BYTES * GAMES;
    char *big = malloc(n + 1);
    CHECK(big != NULL);
    for (int i = 0; big && i < GAMES; i++) {
        snprintf(big + (size_t)i * GAME_BYTES, GAME_BYTES + 1,
                 "[Event \"%05hu\"]\n\n1. e4 e5 2. Nf3 *\n\n", (unsigned short)i);
    }
    pgn_membuf m = packed(f, big, n, 2);
    z_seen z;
    CHECK_EQ_INT(z_read(&m, m.len, big, 0, &z), PGN_END);
    CHECK(z.e.games == GAMES && z.e.bad == 0 && z.bad == 0 && z.last == m.len);
    CHECK_EQ_INT(z_read(&m, m.len - m.len / 4, big, 0, &z), PGN_E_IO);
    CHECK(z.e.games > GAMES / 2 && z.e.games < GAMES && z.e.bad == 0 && z.bad == 0);
    CHECK_EQ_INT(z_read(&m, m.len, big, 1000, &z), PGN_E_NOMEM);
    CHECK(z.e.games == 1000 && z.e.bad == 0 && z.bad == 0);
    pgn_membuf_free(&m);
    free(big);
}

int main(void) {
    test_magic();
    for (int f = PGN_FORMAT_PLAIN; f <= PGN_FORMAT_XZ; f++) {
        if (pgn_format_missing_lib((pgn_format)f) == NULL) {
            test_format((pgn_format)f);
        } else {
            harness_counts.skipped++;
        }
    }
    test_ranges();
    test_frames();
    test_refused();
    test_parallel_hooks();
    for (int f = PGN_FORMAT_GZIP; f <= PGN_FORMAT_XZ; f++) {
        if (pgn_format_missing_lib((pgn_format)f) == NULL) {
            test_parallel_compressed((pgn_format)f);
        }
    }
    return harness_finish();
}
