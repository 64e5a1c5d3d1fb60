/* SPDX-License-Identifier: MIT */
/* The one allocator rule (include/pgnkit/base.h, issue 12): a pgn_allocator gives all three
 * functions or none. Every pgn_*_new refuses a half-filled one with PGN_E_BAD_ALLOCATOR; and for
 * every module that allocates (game and arena, PGN reader with its lexer window, builder and
 * variation stacks, PGN writer, JSON writer and reader, line exporter, editor, annotator), a
 * counting allocator sees every block the module allocated freed through it (a block freed or
 * resized that it did not hand out is a failure), with nothing left at the end; under
 * AddressSanitizer, libc's malloc is not called while the library runs (the sanitizer's hooks
 * count its calls). The counting allocator's blocks start 16 bytes into libc blocks, so a block
 * of it that reached libc's free or realloc would be an invalid free for the sanitizer. The list of
 * entry points that take an allocator is read from include/pgnkit/ (issue 33). */
#define _POSIX_C_SOURCE 200809L /* opendir, fileno, mkdtemp */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A game read into again keeps its arena's largest chunk (pgn_game_reset): once its arena has
 * grown to a game's size (three games here), a further game of that length allocates nothing and
 * frees nothing, where keeping only the first 4 KiB chunk would allocate and free the larger ones
 * again for every game (issue 32). */
static void test_reset_keeps_room(void) {
    static const char moves[] = "Nf3 Nf6 Ng1 Ng8 ";
    char text[8192];
    size_t len = 0;
    for (int k = 0; k < 4; k++) {
        len += (size_t)snprintf(text + len, sizeof text - len, "[Event \"%d\"]\n\n", k);
        for (int i = 0; i < 40; i++) { /* 160 plies: more than one chunk of nodes */
            memcpy(text + len, moves, sizeof moves - 1);
            len += sizeof moves - 1;
        }
        memcpy(text + len, "*\n\n", 4);
        len += 4;
    }
    counting c;
    pgn_allocator a = counting_allocator(&c);
    pgn_game *g = NULL;
    pgn_reader *r = NULL;
    CHECK_EQ_INT(pgn_game_new(&g, &a), PGN_OK);
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, text, len), PGN_OK);
    for (int k = 0; k < 3; k++) {
        CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    }
    CHECK_EQ_INT(pgn_game_ply_count(g), 160);
    unsigned long mallocs = c.mallocs, frees = c.frees;
    CHECK(mallocs >= 3); /* the game, and chunks beyond the first */
    CHECK_EQ_INT(pgn_reader_next(r, g), PGN_OK);
    CHECK_EQ_INT(pgn_game_ply_count(g), 160);
    CHECK_EQ_INT(c.mallocs - mallocs, 0);
    CHECK_EQ_INT(c.frees - frees, 0);
    pgn_reader_free(r);
    pgn_game_free(g);
    finish(&c, "game read into again", 3);
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

/* An output (a new plain file): its object and buffer from the allocator, nothing from libc. */
static void test_output(const char *text, size_t len) {
    counting c;
    pgn_allocator a = counting_allocator(&c);
    pgn_output_opts oo = {.alloc = &a, .buffer = 4096};
    pgn_output *o = NULL;
    char dir[] = "/tmp/pgnkit-alloc-XXXXXX", path[64], msg[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/out.pgn", dir);
    watching = 1;
    CHECK_EQ_INT(pgn_output_new(&o, &oo), PGN_OK);
    CHECK_EQ_INT(pgn_output_open(o, path, msg, sizeof msg), PGN_OK);
    CHECK(pgn_output_write(o, text, len) == (ptrdiff_t)len);
    CHECK_EQ_INT(pgn_output_close(o, 1, msg, sizeof msg), PGN_OK);
    pgn_output_free(o);
    watching = 0;
    finish(&c, "output", 2);
    size_t got = 0;
    free(buf_read_file(path, &got));
    CHECK(got == len);
    unlink(path);
    rmdir(dir);
}

/* ---- every entry point that takes an allocator, as include/ declares them (issue 33) ---- */

#define MAX_NAMES 256
#define MAX_TYPES 64

typedef struct names {
    char v[MAX_NAMES][64];
    size_t n;
} names;

/* The header's text without its comments (a comment becomes one space). */
static char *strip_comments(const char *s) {
    size_t n = strlen(s), j = 0;
    char *out = malloc(n + 1);
    if (out == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '/' && s[i + 1] == '*') {
            const char *e = strstr(s + i + 2, "*/");
            i = e ? (size_t)(e - s) + 1 : n;
            out[j++] = ' ';
        } else if (s[i] == '/' && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') {
                i++;
            }
            out[j++] = '\n';
        } else {
            out[j++] = s[i];
        }
    }
    out[j] = '\0';
    return out;
}

static int ident_char(char c) {
    return isalnum((unsigned char)c) || c == '_';
}

/* Whether text[0..len) holds word as a whole identifier. */
static int has_word(const char *text, size_t len, const char *word) {
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= len; i++) {
        if (memcmp(text + i, word, w) == 0 && (i == 0 || !ident_char(text[i - 1])) &&
            (i + w == len || !ident_char(text[i + w]))) {
            return 1;
        }
    }
    return 0;
}

static int mentions(const char *text, size_t len, const names *types) {
    for (size_t k = 0; k < types->n; k++) {
        if (has_word(text, len, types->v[k])) {
            return 1;
        }
    }
    return 0;
}

static void add_name(names *set, const char *p, size_t len) {
    for (size_t k = 0; k < set->n; k++) {
        if (strlen(set->v[k]) == len && memcmp(set->v[k], p, len) == 0) {
            return;
        }
    }
    if (set->n < MAX_NAMES && len < sizeof set->v[0]) {
        memcpy(set->v[set->n], p, len);
        set->v[set->n++][len] = '\0';
    }
}

/* Adds to types every "typedef struct X { ... } NAME;" of text whose members mention one of
 * types (pgn_allocator to start with); returns how many it added. */
static size_t find_types(const char *text, names *types) {
    size_t before = types->n;
    for (const char *p = strstr(text, "typedef struct"); p; p = strstr(p + 1, "typedef struct")) {
        const char *open = strchr(p, '{'), *semi = strchr(p, ';');
        if (open == NULL || (semi && semi < open)) {
            continue; /* a declaration of an opaque type */
        }
        int depth = 0;
        const char *q = open;
        for (; *q; q++) {
            depth += *q == '{';
            depth -= *q == '}';
            if (depth == 0) {
                break;
            }
        }
        const char *name = q + 1;
        while (*name == ' ' || *name == '\n') {
            name++;
        }
        size_t len = 0;
        while (ident_char(name[len])) {
            len++;
        }
        if (*q == '}' && len && mentions(open, (size_t)(q - open), types)) {
            add_name(types, name, len);
        }
    }
    return types->n - before;
}

/* Adds to out every PGN_API function of text whose parameters mention one of types. */
static void find_functions(const char *text, const names *types, names *out) {
    for (const char *p = strstr(text, "PGN_API"); p; p = strstr(p + 1, "PGN_API")) {
        const char *paren = strchr(p, '('), *semi = strchr(p, ';');
        if (paren == NULL || semi == NULL || semi < paren) {
            continue;
        }
        const char *e = paren;
        while (e > p && e[-1] == ' ') {
            e--;
        }
        const char *b = e;
        while (b > p && ident_char(b[-1])) {
            b--;
        }
        if (b < e && mentions(paren, (size_t)(semi - paren), types)) {
            add_name(out, b, (size_t)(e - b));
        }
    }
}

/* The exported functions that take a pgn_allocator, directly or inside an options struct (at any
 * depth), read from include/pgnkit/ (the tests run from the source tree's root). */
static void entry_points(names *out) {
    static char *texts[64];
    size_t nt = 0;
    DIR *dir = opendir("include/pgnkit");
    CHECK(dir != NULL);
    if (dir == NULL) {
        return;
    }
    for (struct dirent *d; (d = readdir(dir)) != NULL && nt < 64;) {
        size_t len = strlen(d->d_name);
        if (len > 2 && strcmp(d->d_name + len - 2, ".h") == 0) {
            char path[512], *raw;
            snprintf(path, sizeof path, "include/pgnkit/%s", d->d_name);
            raw = buf_read_file(path, &len);
            CHECK(raw != NULL);
            texts[nt] = raw ? strip_comments(raw) : NULL;
            nt += texts[nt] != NULL;
            free(raw);
        }
    }
    closedir(dir);
    names types = {.n = 1};
    strcpy(types.v[0], "pgn_allocator");
    for (size_t added = 1; added;) {
        added = 0;
        for (size_t k = 0; k < nt; k++) {
            added += find_types(texts[k], &types);
        }
    }
    for (size_t k = 0; k < nt; k++) {
        find_functions(texts[k], &types, out);
        free(texts[k]);
    }
}
/* One call of each entry point with the allocator a: a constructor returns its status after
 * checking it created nothing; the functions that take one but allocate nothing through it
 * (inert below) must simply not use it. */
typedef pgn_status (*entry_call)(const pgn_allocator *a);

#define REFUSES(type, call, freer)                                                                 \
    do {                                                                                           \
        type *obj_ = NULL;                                                                         \
        pgn_status st_ = call;                                                                     \
        CHECK(obj_ == NULL);                                                                       \
        freer(obj_);                                                                               \
        return st_;                                                                                \
    } while (0)

static pgn_status e_game_new(const pgn_allocator *a) {
    REFUSES(pgn_game, pgn_game_new(&obj_, a), pgn_game_free);
}
static pgn_status e_iter_new(const pgn_allocator *a) {
    REFUSES(pgn_iter, pgn_iter_new(&obj_, a), pgn_iter_free);
}
static pgn_status e_reader_new_mem(const pgn_allocator *a) {
    pgn_reader_opts o = {.alloc = a};
    REFUSES(pgn_reader, pgn_reader_new_mem(&obj_, &o, "*", 1), pgn_reader_free);
}
static ptrdiff_t read_nothing(void *ctx, void *dst, size_t cap) {
    (void)ctx, (void)dst, (void)cap;
    return 0;
}
static pgn_status e_reader_new(const pgn_allocator *a) {
    pgn_reader_opts o = {.alloc = a};
    REFUSES(pgn_reader, pgn_reader_new(&obj_, &o, read_nothing, NULL), pgn_reader_free);
}
static pgn_status e_reader_new_file(const pgn_allocator *a) {
    pgn_reader_opts o = {.alloc = a};
    FILE *f = tmpfile();
    CHECK(f != NULL);
    pgn_reader *r = NULL;
    pgn_status st = f ? pgn_reader_new_file(&r, &o, f) : PGN_E_IO;
    CHECK(r == NULL);
    pgn_reader_free(r);
    if (f) {
        fclose(f);
    }
    return st;
}
static pgn_status e_writer_new(const pgn_allocator *a) {
    pgn_writer_opts o = {.alloc = a};
    REFUSES(pgn_writer, pgn_writer_new(&obj_, &o, sink, NULL), pgn_writer_free);
}
static pgn_status e_json_writer_new(const pgn_allocator *a) {
    pgn_json_writer_opts o = {.alloc = a};
    REFUSES(pgn_json_writer, pgn_json_writer_new(&obj_, &o, sink, NULL), pgn_json_writer_free);
}
static pgn_status e_json_reader_new_mem(const pgn_allocator *a) {
    pgn_json_reader_opts o = {.alloc = a};
    REFUSES(pgn_json_reader, pgn_json_reader_new_mem(&obj_, &o, "[]", 2), pgn_json_reader_free);
}
static pgn_status e_json_reader_new(const pgn_allocator *a) {
    pgn_json_reader_opts o = {.alloc = a};
    REFUSES(pgn_json_reader, pgn_json_reader_new(&obj_, &o, read_nothing, NULL),
            pgn_json_reader_free);
}
static pgn_status e_exporter_new(const pgn_allocator *a) {
    pgn_export_opts o = {.alloc = a};
    REFUSES(pgn_exporter, pgn_exporter_new(&obj_, &o, sink, NULL), pgn_exporter_free);
}
static pgn_status e_query_compile(const pgn_allocator *a) {
    REFUSES(pgn_query, pgn_query_compile(&obj_, "white = \"A\"", 11, a, NULL), pgn_query_free);
}
static pgn_status e_query_matcher_new(const pgn_allocator *a) {
    pgn_query *q = NULL;
    CHECK_EQ_INT(pgn_query_compile(&q, "white = \"A\"", 11, NULL, NULL), PGN_OK);
    pgn_query_matcher *m = NULL;
    pgn_status st = q ? pgn_query_matcher_new(&m, q, a) : PGN_E_NOMEM;
    CHECK(m == NULL);
    pgn_query_matcher_free(m);
    pgn_query_free(q);
    return st;
}
static pgn_status e_query_filter_new(const pgn_allocator *a) {
    pgn_query *q = NULL;
    CHECK_EQ_INT(pgn_query_compile(&q, "white = \"A\"", 11, NULL, NULL), PGN_OK);
    pgn_query_filter *f = NULL;
    pgn_status st = q ? pgn_query_filter_new(&f, q, a) : PGN_E_NOMEM;
    CHECK(f == NULL);
    pgn_query_filter_free(f);
    pgn_query_free(q);
    return st;
}
static pgn_status e_search_new(const pgn_allocator *a) {
    REFUSES(pgn_search, pgn_search_new(&obj_, a, 3), pgn_search_free);
}
static pgn_status e_dedupe_new(const pgn_allocator *a) {
    pgn_dedupe_opts o = {.alloc = a};
    REFUSES(pgn_dedupe, pgn_dedupe_new(&obj_, &o), pgn_dedupe_free);
}
static pgn_status e_dedupe_line_new(const pgn_allocator *a) {
    REFUSES(pgn_dedupe_line, pgn_dedupe_line_new(&obj_, 0, a), pgn_dedupe_line_free);
}
static pgn_status e_dedupe_keeper_new(const pgn_allocator *a) {
    pgn_dedupe_keeper_opts o = {.alloc = a};
    REFUSES(pgn_dedupe_keeper, pgn_dedupe_keeper_new(&obj_, &o), pgn_dedupe_keeper_free);
}
static pgn_status e_stats_new(const pgn_allocator *a) {
    REFUSES(pgn_stats, pgn_stats_new(&obj_, a), pgn_stats_free);
}
static pgn_status e_tally_new(const pgn_allocator *a) {
    REFUSES(pgn_tally, pgn_tally_new(&obj_, a), pgn_tally_free);
}
static pgn_status e_sort_new(const pgn_allocator *a) {
    const char *tags[] = {"Date"};
    pgn_sort_opts o = {tags, 1, 0, NULL, a};
    REFUSES(pgn_sort, pgn_sort_new(&obj_, &o), pgn_sort_free);
}
static pgn_status e_split_new(const pgn_allocator *a) {
    pgn_split_opts o = {"split-{n}.pgn", "White", 0, a};
    REFUSES(pgn_split, pgn_split_new(&obj_, &o, NULL, 0), pgn_split_free);
}
static pgn_status e_engine_new(const pgn_allocator *a) {
    pgn_engine_config c = {.path = "/nonexistent/engine"};
    REFUSES(pgn_engine, pgn_engine_new(&obj_, &c, a), pgn_engine_free);
}
static pgn_status e_jobs_new(const pgn_allocator *a) {
    pgn_jobs_opts o = {.alloc = a};
    o.engine.path = "/nonexistent/engine";
    char err[128];
    REFUSES(pgn_jobs, pgn_jobs_new(&obj_, &o, err, sizeof err), pgn_jobs_free);
}
static pgn_status never_search(void *ctx, const pgn_search_request *req, pgn_search *search) {
    (void)ctx, (void)req, (void)search;
    CHECK(!"the engine was asked although the allocator was refused");
    return PGN_E_IO;
}
static pgn_status e_game_analyze(const pgn_allocator *a) {
    pgn_game *g = NULL;
    pgn_reader *r = NULL;
    CHECK_EQ_INT(pgn_reader_new_mem(&r, NULL, "1. e4 e5 *", 10), PGN_OK);
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    pgn_status st = r && g ? pgn_reader_next(r, g) : PGN_E_NOMEM;
    CHECK_EQ_INT(st, PGN_OK);
    pgn_engine_callbacks e = {.search = never_search};
    pgn_analyze_opts o = {.alloc = a};
    st = g ? pgn_game_analyze(g, &e, NULL, &o, NULL) : PGN_E_NOMEM;
    CHECK_EQ_INT(pgn_game_ply_count(g), 2);
    pgn_game_free(g);
    pgn_reader_free(r);
    return st;
}
static pgn_status e_source_open_mem(const pgn_allocator *a) {
    pgn_source_opts o = {.alloc = a};
    REFUSES(pgn_source, pgn_source_open_mem(&obj_, "*", 1, &o, NULL, 0), pgn_source_free);
}
static pgn_status e_source_open_path(const pgn_allocator *a) {
    pgn_source_opts o = {.alloc = a};
    REFUSES(pgn_source, pgn_source_open_path(&obj_, "include/pgnkit.h", &o, NULL, 0),
            pgn_source_free);
}
static pgn_status e_source_open_fd(const pgn_allocator *a) {
    pgn_source_opts o = {.alloc = a};
    FILE *f = tmpfile();
    CHECK(f != NULL);
    pgn_source *src = NULL;
    pgn_status st = f ? pgn_source_open_fd(&src, fileno(f), &o, NULL, 0) : PGN_E_IO;
    CHECK(src == NULL);
    pgn_source_free(src);
    if (f) {
        fclose(f);
    }
    return st;
}
static pgn_status e_source_open_read(const pgn_allocator *a) {
    pgn_source_opts o = {.alloc = a};
    REFUSES(pgn_source, pgn_source_open_read(&obj_, read_nothing, NULL, &o, NULL, 0),
            pgn_source_free);
}
static pgn_status e_parallel_read(const pgn_allocator *a) {
    pgn_source *src = NULL;
    CHECK_EQ_INT(pgn_source_open_mem(&src, "1. e4 *", 7, NULL, NULL, 0), PGN_OK);
    pgn_parallel_opts o = {.threads = 2};
    o.reader.alloc = a;
    pgn_parallel_totals t;
    pgn_status st = src ? pgn_parallel_read(src, &o, &t) : PGN_E_NOMEM;
    CHECK_EQ_INT(t.games, 0);
    pgn_source_free(src);
    return st;
}
/* inert: a range only sets the reader options' numbers; the serial test only reads them */
static pgn_status e_source_range(const pgn_allocator *a) {
    pgn_source *src = NULL;
    CHECK_EQ_INT(pgn_source_open_mem(&src, "1. e4 *", 7, NULL, NULL, 0), PGN_OK);
    pgn_reader_opts ro = {.alloc = a};
    if (src) {
        (void)pgn_source_range(src, 0, 0, 1, &ro);
    }
    CHECK(ro.alloc == a);
    pgn_source_free(src);
    return PGN_OK;
}
static pgn_status e_parallel_serial(const pgn_allocator *a) {
    pgn_reader_opts ro = {.alloc = a};
    CHECK_EQ_INT(pgn_parallel_serial(&ro), 0);
    return PGN_OK;
}
static pgn_status e_paste_read(const pgn_allocator *a) {
    pgn_paste p;
    pgn_paste_opts o = {.alloc = a};
    pgn_status st = pgn_paste_read(&p, "1. e4 e5 *\n", 11, &o);
    CHECK(p.diags.ptr == NULL && p.entries.ptr == NULL && p.games == 0);
    pgn_paste_free(&p);
    return st;
}
static ptrdiff_t w_null(void *ctx, const void *data, size_t len) {
    (void)ctx;
    (void)data;
    return (ptrdiff_t)len;
}
/* pgn_paste_json and pgn_paste_free allocate nothing: a pgn_paste that holds no text */
static pgn_status e_paste_json(const pgn_allocator *a) {
    pgn_paste p = {.diags = {.alloc = a}, .entries = {.alloc = a}};
    return pgn_paste_json(&p, w_null, NULL);
}
static pgn_status e_paste_free(const pgn_allocator *a) {
    pgn_paste p = {.diags = {.alloc = a}, .entries = {.alloc = a}};
    pgn_paste_free(&p);
    return PGN_OK;
}
/* refused before the database is looked at (db NULL is never touched) */
static pgn_status e_db_explore_json(const pgn_allocator *a) {
    pgn_membuf out = {.alloc = a};
    pgn_pos pos;
    char msg[64];
    pgn_pos_init(&pos);
    pgn_status st = pgn_db_explore_json(NULL, &pos, &out, NULL, msg, sizeof msg);
    CHECK(out.ptr == NULL && out.len == 0);
    return st;
}
/* a buffer that never grew frees nothing; pgn_membuf_write refuses the half-filled allocator */
static pgn_status e_membuf_free(const pgn_allocator *a) {
    pgn_membuf b = {.alloc = a};
    CHECK(pgn_membuf_write(&b, "x", 1) == -1);
    CHECK(b.ptr == NULL && b.len == 0);
    pgn_membuf_free(&b);
    return PGN_OK;
}

static pgn_status e_output_new(const pgn_allocator *a) {
    pgn_output_opts o = {.alloc = a};
    REFUSES(pgn_output, pgn_output_new(&obj_, &o), pgn_output_free);
}

static const struct {
    const char *name;
    entry_call call;
    int inert; /* takes an allocator but allocates nothing through it */
} entries[] = {
    {"pgn_game_new", e_game_new, 0},
    {"pgn_iter_new", e_iter_new, 0},
    {"pgn_reader_new", e_reader_new, 0},
    {"pgn_reader_new_mem", e_reader_new_mem, 0},
    {"pgn_reader_new_file", e_reader_new_file, 0},
    {"pgn_writer_new", e_writer_new, 0},
    {"pgn_json_writer_new", e_json_writer_new, 0},
    {"pgn_json_reader_new", e_json_reader_new, 0},
    {"pgn_json_reader_new_mem", e_json_reader_new_mem, 0},
    {"pgn_exporter_new", e_exporter_new, 0},
    {"pgn_query_compile", e_query_compile, 0},
    {"pgn_query_matcher_new", e_query_matcher_new, 0},
    {"pgn_query_filter_new", e_query_filter_new, 0},
    {"pgn_search_new", e_search_new, 0},
    {"pgn_dedupe_new", e_dedupe_new, 0},
    {"pgn_dedupe_line_new", e_dedupe_line_new, 0},
    {"pgn_dedupe_keeper_new", e_dedupe_keeper_new, 0},
    {"pgn_tally_new", e_tally_new, 0},
    {"pgn_sort_new", e_sort_new, 0},
    {"pgn_split_new", e_split_new, 0},
    {"pgn_stats_new", e_stats_new, 0},
    {"pgn_game_analyze", e_game_analyze, 0},
    {"pgn_engine_new", e_engine_new, 0},
    {"pgn_jobs_new", e_jobs_new, 0},
    {"pgn_source_open_path", e_source_open_path, 0},
    {"pgn_source_open_fd", e_source_open_fd, 0},
    {"pgn_source_open_read", e_source_open_read, 0},
    {"pgn_source_open_mem", e_source_open_mem, 0},
    {"pgn_parallel_read", e_parallel_read, 0},
    {"pgn_source_range", e_source_range, 1},
    {"pgn_parallel_serial", e_parallel_serial, 1},
    {"pgn_membuf_free", e_membuf_free, 1},
    {"pgn_paste_read", e_paste_read, 0},
    {"pgn_paste_json", e_paste_json, 1},
    {"pgn_paste_free", e_paste_free, 1},
    {"pgn_db_explore_json", e_db_explore_json, 0},
    {"pgn_output_new", e_output_new, 0},
};

/* All three or none: every entry point include/ declares with an allocator (directly or in its
 * options) refuses one or two of the three functions with PGN_E_BAD_ALLOCATOR, creates nothing
 * and never calls them; the list of entry points is read from the headers, so a new constructor
 * without a row here fails this test. */
static void test_half_filled(void) {
    names found = {.n = 0};
    entry_points(&found);
    CHECK(found.n >= 20); /* the reading of the headers works */
    for (size_t k = 0; k < found.n; k++) {
        size_t e = 0;
        while (e < sizeof entries / sizeof entries[0] && strcmp(entries[e].name, found.v[k])) {
            e++;
        }
        if (e == sizeof entries / sizeof entries[0]) {
            fprintf(stderr, "%s takes an allocator but has no row in test_alloc.c\n", found.v[k]);
            CHECK(!"an entry point without its row");
        }
    }
    for (size_t e = 0; e < sizeof entries / sizeof entries[0]; e++) {
        size_t k = 0;
        while (k < found.n && strcmp(entries[e].name, found.v[k])) {
            k++;
        }
        if (k == found.n) {
            fprintf(stderr, "%s: a row for no entry point of include/\n", entries[e].name);
            CHECK(!"a row without its entry point");
        }
    }
    counting c;
    pgn_allocator full = counting_allocator(&c);
    for (int mask = 1; mask < 7; mask++) {
        pgn_allocator a = full;
        a.malloc = mask & 1 ? full.malloc : NULL;
        a.realloc = mask & 2 ? full.realloc : NULL;
        a.free = mask & 4 ? full.free : NULL;
        for (size_t e = 0; e < sizeof entries / sizeof entries[0]; e++) {
            pgn_status st = entries[e].call(&a);
            if (st != (entries[e].inert ? PGN_OK : PGN_E_BAD_ALLOCATOR)) {
                fprintf(stderr, "%s with allocator mask %d: %s\n", entries[e].name, mask,
                        pgn_status_name(st));
                CHECK(!"a half-filled allocator accepted");
            }
        }
    }
    CHECK_EQ_INT(c.mallocs + c.reallocs + c.frees, 0);
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
    test_reset_keeps_room();
    test_writers(text, len);
    test_json_reader(text, len);
    test_edit_and_annotate(text, len);
    test_output(text, len);
    free(text);
    return harness_finish();
}
