/* SPDX-License-Identifier: MIT */
/* The one allocator rule (include/pgnkit/base.h, issue 12): a pgn_allocator gives all three
 * functions or none. Every pgn_*_new refuses a half-filled one with PGN_E_BAD_ALLOCATOR; and for
 * every module that allocates (game and arena, PGN reader with its lexer window, builder and
 * variation stacks, PGN writer, JSON writer and reader, line exporter, editor, annotator), a
 * counting allocator sees every block the module allocated freed through it (a block freed or
 * resized that it did not hand out is a failure), with nothing left at the end; under
 * AddressSanitizer, libc's malloc is not called while the library runs (the sanitizer's hooks
 * count its calls). The counting allocator's blocks start 16 bytes into libc blocks, so a block
 * of it that reached libc's free or realloc would be an invalid free for the sanitizer. */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <stdlib.h>

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_HOOKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_HOOKS 1
#endif
#endif

typedef struct counting {
    void **live; /* the blocks handed out and not freed */
    size_t n, cap;
    unsigned long mallocs, reallocs, frees, strays;
} counting;

/* libc calls while the library runs (the allocator below switches it off around its own) */
static volatile int
    watching; /* volatile: malloc is a builtin the compiler may move stores across */
static volatile unsigned long libc_calls;

#ifdef HAVE_HOOKS
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));
static void on_malloc(const volatile void *p, size_t size) {
    (void)p;
    (void)size;
    libc_calls += watching != 0;
}
static void on_free(const volatile void *p) {
    libc_calls += watching != 0 && p != NULL;
}
#endif

static void track(counting *c, void *p) {
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->live = realloc(c->live, c->cap * sizeof *c->live);
        if (c->live == NULL) {
            abort();
        }
    }
    c->live[c->n++] = p;
}

static int untrack(counting *c, void *p) {
    for (size_t i = c->n; i-- > 0;) {
        if (c->live[i] == p) {
            c->live[i] = c->live[--c->n];
            return 1;
        }
    }
    c->strays++;
    return 0;
}

static void *c_malloc(void *ctx, size_t size) {
    counting *c = ctx;
    int w = watching;
    watching = 0;
    char *p = malloc(size + 16);
    if (p != NULL) {
        track(c, p + 16);
        c->mallocs++;
    }
    watching = w;
    return p != NULL ? p + 16 : NULL;
}

static void *c_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    counting *c = ctx;
    int w = watching;
    (void)old_size;
    if (ptr == NULL || !untrack(c, ptr)) {
        c->strays += ptr == NULL; /* the rule: malloc for a new block */
        return NULL;
    }
    watching = 0;
    char *p = realloc((char *)ptr - 16, new_size + 16);
    track(c, p != NULL ? p + 16 : ptr);
    c->reallocs++;
    watching = w;
    return p != NULL ? p + 16 : NULL;
}

static void c_free(void *ctx, void *ptr) {
    counting *c = ctx;
    int w = watching;
    if (ptr == NULL || !untrack(c, ptr)) {
        return;
    }
    watching = 0;
    free((char *)ptr - 16);
    c->frees++;
    watching = w;
}

static pgn_allocator counting_allocator(counting *c) {
    pgn_allocator a = {c_malloc, c_realloc, c_free, c};
    memset(c, 0, sizeof *c);
    return a;
}

/* Ends a module's case: every block freed through the allocator, none foreign, no libc call. */
static void finish(counting *c, const char *what, unsigned long min_mallocs) {
    watching = 0;
    if (c->n != 0 || c->strays != 0 || c->mallocs < min_mallocs || libc_calls != 0) {
        harness_fail(__FILE__, __LINE__,
                     "%s: %zu blocks left, %lu foreign, %lu mallocs (want >= %lu), %lu libc calls",
                     what, c->n, c->strays, c->mallocs, min_mallocs, libc_calls);
    } else {
        harness_counts.passed++;
    }
    free(c->live);
    libc_calls = 0;
}

static ptrdiff_t sink(void *ctx, const void *data, size_t len) {
    (void)ctx;
    (void)data;
    return (ptrdiff_t)len;
}

/* Games with what makes each module grow its blocks: nested variations, comments before the
 * first move of a variation, braces and commands in comments, a long comment (the lexer window
 * and the reader's scratch grow), many tags. */
static char *sample(size_t *len) {
    buf b = {0};
    buf_str(&b, "[Event \"alloc\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n");
    buf_str(&b, "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[Zeta \"z\"]\n[Alpha \"a\"]\n\n");
    buf_str(&b,
            "{game comment} 1. e4 {[%clk 0:01:00] [%eval 0.3]} e5 (1... c5 $1 ({pre} 1... e6 "
            "(1... d5 (1... Nf6 (1... g6))) 2. d4) 2. Nf3) 2. Nf3 Nc6 {a {brace} comment} *\n\n");
    buf_str(&b, "[Event \"long\"]\n\n1. d4 {");
    for (int i = 0; i < 20000; i++) {
        buf_str(&b, "word ");
    }
    buf_str(&b, "} d5 2. c4 1-0\n");
    *len = b.len;
    return b.p;
}

/* A read callback over a buffer, a few bytes at a time (the reader's window is used). */
typedef struct mem_src {
    const char *p;
    size_t len;
} mem_src;

static ptrdiff_t mem_read(void *ctx, void *dst, size_t cap) {
    mem_src *m = ctx;
    size_t n = m->len < cap ? m->len : cap;
    n = n < 4000 ? n : 4000;
    memcpy(dst, m->p, n);
    m->p += n;
    m->len -= n;
    return (ptrdiff_t)n;
}

static void read_all(const pgn_allocator *a, const char *text, size_t len, pgn_game *g,
                     size_t *games) {
    pgn_reader *r = NULL;
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    o.alloc = a;
    mem_src src = {text, len};
    watching = 1;
    CHECK_EQ_INT(pgn_reader_new(&r, &o, mem_read, &src), PGN_OK);
    while (r != NULL && pgn_reader_next(r, g) == PGN_OK) {
        ++*games;
    }
    pgn_reader_free(r);
    watching = 0;
}

static void test_reader_and_game(const char *text, size_t len) {
    counting c;
    pgn_allocator a = counting_allocator(&c);
    pgn_game *g = NULL;
    size_t games = 0;
    watching = 1;
    CHECK_EQ_INT(pgn_game_new(&g, &a), PGN_OK);
    watching = 0;
    read_all(&a, text, len, g, &games);
    CHECK_EQ_INT(games, 2);
    watching = 1;
    pgn_game_free(g);
    finish(&c, "reader, lexer, builder, game", 5);
}

/* Reads the first game of text with libc memory (not counted), for the writers. */
static pgn_game *first_game(const char *text, size_t len) {
    pgn_game *g = NULL;
    pgn_reader *r = NULL;
    if (pgn_game_new(&g, NULL) != PGN_OK || pgn_reader_new_mem(&r, NULL, text, len) != PGN_OK ||
        pgn_reader_next(r, g) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "the sample does not read");
    }
    pgn_reader_free(r);
    return g;
}

static void test_writers(const char *text, size_t len) {
    pgn_game *g = first_game(text, len);
    counting c;
    pgn_allocator a = counting_allocator(&c);
    pgn_writer_opts wo;
    pgn_writer *w = NULL;
    memset(&wo, 0, sizeof wo);
    wo.alloc = &a;
    watching = 1;
    CHECK_EQ_INT(pgn_writer_new(&w, &wo, sink, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_writer_write(w, g), PGN_OK);
    pgn_writer_free(w);
    finish(&c, "PGN writer", 2);

    pgn_json_writer_opts jo;
    pgn_json_writer *jw = NULL;
    a = counting_allocator(&c);
    memset(&jo, 0, sizeof jo);
    jo.alloc = &a;
    watching = 1;
    CHECK_EQ_INT(pgn_json_writer_new(&jw, &jo, sink, NULL), PGN_OK);
    CHECK_EQ_INT(pgn_json_writer_write(jw, g), PGN_OK);
    CHECK_EQ_INT(pgn_json_writer_finish(jw), PGN_OK);
    pgn_json_writer_free(jw);
    finish(&c, "JSON writer", 2);

    static const pgn_export_format formats[] = {PGN_EXPORT_SAN, PGN_EXPORT_LAN, PGN_EXPORT_CSV,
                                                PGN_EXPORT_CSV_PLY, PGN_EXPORT_EPD};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        pgn_export_opts eo;
        pgn_exporter *ex = NULL;
        a = counting_allocator(&c);
        memset(&eo, 0, sizeof eo);
        eo.format = formats[i];
        eo.alloc = &a;
        watching = 1;
        CHECK_EQ_INT(pgn_exporter_new(&ex, &eo, sink, NULL), PGN_OK);
        CHECK_EQ_INT(pgn_exporter_write(ex, g), PGN_OK);
        CHECK_EQ_INT(pgn_exporter_finish(ex), PGN_OK);
        pgn_exporter_free(ex);
        finish(&c, "line exporter", 1);
    }
    pgn_game_free(g);
}

static void test_json_reader(const char *text, size_t len) {
    pgn_game *g = first_game(text, len);
    buf out = {0};
    pgn_json_writer *jw = NULL;
    if (pgn_json_writer_new(&jw, NULL, buf_write, &out) != PGN_OK ||
        pgn_json_writer_write(jw, g) != PGN_OK || pgn_json_writer_finish(jw) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "JSON of the sample");
    }
    pgn_json_writer_free(jw);
    counting c;
    pgn_allocator a = counting_allocator(&c);
    pgn_json_reader_opts o;
    pgn_json_reader *r = NULL;
    pgn_game *back = NULL;
    memset(&o, 0, sizeof o);
    o.alloc = &a;
    mem_src src = {out.p, out.len};
    watching = 1;
    CHECK_EQ_INT(pgn_game_new(&back, &a), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_new(&r, &o, mem_read, &src), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_next(r, back), PGN_OK);
    CHECK_EQ_INT(pgn_json_reader_next(r, back), PGN_END);
    pgn_json_reader_free(r);
    pgn_game_free(back);
    finish(&c, "JSON reader", 3);
    buf_free(&out);
    pgn_game_free(g);
}

/* The editor and the annotator work in a game's arena (and the editor's stack beside it). */
static void test_edit_and_annotate(const char *text, size_t len) {
    counting c;
    pgn_allocator a = counting_allocator(&c);
    pgn_game *g = NULL;
    pgn_reader *r = NULL;
    pgn_edit_opts eo = {PGN_EDIT_FEN_COMMENTS | PGN_EDIT_ADD_PLYCOUNT | PGN_EDIT_STRIP_CLOCK, 0};
    CHECK_EQ_INT(pgn_game_new(&g, &a), PGN_OK);
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, text, len), PGN_OK);
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    pgn_reader_free(r);
    watching = 1;
    CHECK_EQ_INT(pgn_game_edit(g, &eo), PGN_OK);
    eo.flags = PGN_EDIT_STRIP_VARIATIONS;
    CHECK_EQ_INT(pgn_game_edit(g, &eo), PGN_OK);
    watching = 0;
    pgn_position_analysis pa[5];
    memset(pa, 0, sizeof pa);
    for (size_t i = 0; i < 5; i++) {
        pa[i].eval.kind = PGN_SCORE_CP;
        pa[i].eval.value = i % 2 ? -300 : 20;
    }
    pgn_annotate_opts ao = {"counting", 0, PGN_ANNOTATE_ALL_LINES};
    watching = 1;
    CHECK_EQ_INT(pgn_game_annotate(g, pa, 5, &ao, NULL), PGN_OK);
    pgn_game_free(g);
    finish(&c, "editor and annotator", 2);
}

/* All three or none: every constructor refuses one or two of them, and creates nothing. */
static void test_half_filled(void) {
    counting c;
    pgn_allocator full = counting_allocator(&c);
    for (int mask = 1; mask < 7; mask++) {
        pgn_allocator a = full;
        a.malloc = mask & 1 ? full.malloc : NULL;
        a.realloc = mask & 2 ? full.realloc : NULL;
        a.free = mask & 4 ? full.free : NULL;
        pgn_game *g = (pgn_game *)&a;
        pgn_reader *r = (pgn_reader *)&a;
        pgn_writer *w = (pgn_writer *)&a;
        pgn_json_writer *jw = (pgn_json_writer *)&a;
        pgn_json_reader *jr = (pgn_json_reader *)&a;
        pgn_exporter *ex = (pgn_exporter *)&a;
        pgn_reader_opts ro = {0};
        pgn_writer_opts wo = {0};
        pgn_json_writer_opts jwo = {0};
        pgn_json_reader_opts jro = {0};
        pgn_export_opts eo = {0};
        ro.alloc = wo.alloc = jwo.alloc = jro.alloc = eo.alloc = &a;
        CHECK_EQ_INT(pgn_game_new(&g, &a), PGN_E_BAD_ALLOCATOR);
        CHECK(g == NULL);
        CHECK_EQ_INT(pgn_reader_new_mem(&r, &ro, "*", 1), PGN_E_BAD_ALLOCATOR);
        CHECK(r == NULL);
        CHECK_EQ_INT(pgn_writer_new(&w, &wo, sink, NULL), PGN_E_BAD_ALLOCATOR);
        CHECK(w == NULL);
        CHECK_EQ_INT(pgn_json_writer_new(&jw, &jwo, sink, NULL), PGN_E_BAD_ALLOCATOR);
        CHECK(jw == NULL);
        CHECK_EQ_INT(pgn_json_reader_new_mem(&jr, &jro, "[]", 2), PGN_E_BAD_ALLOCATOR);
        CHECK(jr == NULL);
        CHECK_EQ_INT(pgn_exporter_new(&ex, &eo, sink, NULL), PGN_E_BAD_ALLOCATOR);
        CHECK(ex == NULL);
    }
    CHECK_EQ_INT(c.mallocs, 0);
    CHECK_EQ_STR(pgn_status_name(PGN_E_BAD_ALLOCATOR), "E_BAD_ALLOCATOR");
    /* none of the three: libc */
    pgn_allocator none = {NULL, NULL, NULL, NULL};
    pgn_game *g = NULL;
    CHECK_EQ_INT(pgn_game_new(&g, &none), PGN_OK);
    CHECK(g != NULL);
    pgn_game_free(g);
    free(c.live);
}

/* The test's own check: a library that called libc, or freed a block the allocator did not
 * hand out, is caught (a test that cannot fail is a defect). */
static void test_the_test(void) {
    counting c;
    pgn_allocator a = counting_allocator(&c);
    int x;
    a.free(a.ctx, &x);
    CHECK_EQ_INT(c.strays, 1);
#ifdef HAVE_HOOKS
    watching = 1;
    void *volatile p = malloc(8);
    free(p);
    watching = 0;
    CHECK_EQ_INT(libc_calls, 2);
#endif
    libc_calls = 0;
    free(c.live);
}

int main(void) {
    size_t len;
    char *text = sample(&len);
#ifdef HAVE_HOOKS
    CHECK_EQ_INT(__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free), 1);
#endif
    test_the_test();
    test_half_filled();
    test_reader_and_game(text, len);
    test_writers(text, len);
    test_json_reader(text, len);
    test_edit_and_annotate(text, len);
    free(text);
    return harness_finish();
}
