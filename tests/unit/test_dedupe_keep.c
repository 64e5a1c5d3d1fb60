/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe's decision in the library (pgn_dedupe_line, pgn_dedupe_keeper in
 * include/pgnkit/collection.h): on 3,000 games of the pgnmentor player collections (the first
 * 1,000 of Anand, Kramnik and Kasparov), the clusters found from visitor records, from trees, and
 * with records spilled past a small memory equal those of a brute-force comparison of each game's
 * start (EPD), UCI main line and, where they count, normalised tags, written by the test; a
 * visitor's record equals the tree's for every game of TWIC 1427; --keep richest's choice;
 * PGN_E_LIMIT without a spill store; running out of memory; the report of the clusters
 * (pgn_dedupe_report, include/pgnkit/dedupe_run.h) in its documented JSON; the temporary files
 * (pgn_dedupe_files): records spilled past a small memory and confirmed from the file, and the
 * spool's second pass giving each text back in order with the keeper's decision. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#define SLICE 3000

static const char *const TAGS[4] = {"White", "Black", "Date", "Result"};

/* The game's start (EPD), main line in UCI and, with the tags counting, the normalised tags;
 * malloc'd. */
static char *truth(const pgn_game *g, uint32_t flags) {
    buf b = {0};
    size_t plies = buf_main_line(&b, g);
    for (unsigned i = 0; i < 4 && ((flags & PGN_DEDUPE_TAGS) || plies == 0); i++) {
        pgn_str v = {"", 0};
        char norm[PGN_DEDUPE_TAG_MAX + 1];
        pgn_game_tag_get(g, TAGS[i], &v);
        norm[pgn_dedupe_norm_tag(i, v, norm, PGN_DEDUPE_TAG_MAX)] = '\0';
        buf_printf(&b, "|%s", norm);
    }
    buf_str(&b, "");
    return b.p ? b.p : calloc(1, 1);
}

/* want[i]: the first game whose truth equals game i's. */
static size_t *brute_force(char **t, size_t n) {
    size_t *first = calloc(n, sizeof *first), *len = calloc(n, sizeof *len);
    for (size_t i = 0; i < n; i++) {
        len[i] = strlen(t[i]);
        first[i] = i;
        for (size_t j = 0; j < i; j++) {
            if (first[j] == j && len[j] == len[i] && memcmp(t[j], t[i], len[i]) == 0) {
                first[i] = j;
                break;
            }
        }
    }
    free(len);
    return first;
}

static buf load_slice(void) {
    static const char *files[] = {"corpus/big/pgnmentor-players/Anand.pgn.gz",
                                  "corpus/big/pgnmentor-players/Kramnik.pgn.gz",
                                  "corpus/big/pgnmentor-players/Kasparov.pgn.gz"};
    buf text = {0};
    for (size_t i = 0; i < 3; i++) {
        buf one = {0};
        if (buf_load_shared(files[i], &one)) { /* the first SLICE / 3 games of each */
            buf_put(&text, one.p, slice_games(one.p, one.len, SLICE / 3));
            buf_str(&text, "\n");
        }
        buf_free(&one);
    }
    return text;
}

/* The spill store of the test: a memory buffer. */
typedef struct store {
    buf b;
    long writes, reads;
} store;

static int store_write(void *ctx, const void *p, size_t len) {
    store *s = ctx;
    buf_put(&s->b, p, len);
    s->writes++;
    return 0;
}

static int store_read(void *ctx, uint64_t off, void *p, size_t len) {
    store *s = ctx;
    s->reads++;
    if (off + len > s->b.len) {
        return -1;
    }
    memcpy(p, s->b.p + off, len);
    return 0;
}

/* One way of feeding the keeper: 0 visitor records, 1 trees; memory 0 (default) or small. */
static size_t run_keeper(const buf *text, uint32_t flags, int trees, size_t memory,
                         const size_t *want, size_t n, store *st) {
    pgn_dedupe_keeper_opts o = {flags, memory, {store_write, store_read, st}, NULL};
    pgn_dedupe_keeper *k = NULL;
    pgn_dedupe_line *l = NULL;
    pgn_reader *r = NULL;
    pgn_game *g = NULL;
    CHECK(pgn_dedupe_keeper_new(&k, &o) == PGN_OK &&
          pgn_dedupe_line_new(&l, flags, NULL) == PGN_OK);
    CHECK(pgn_reader_new_mem(&r, NULL, text->p, text->len) == PGN_OK);
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    size_t agree = 0, i = 0;
    for (; i < n; i++) {
        uint64_t cl, key;
        pgn_str rec;
        int is_new;
        if (trees) {
            CHECK(pgn_reader_next(r, g) == PGN_OK);
            CHECK(pgn_dedupe_keeper_add_game(k, i, g, &cl, &is_new) == PGN_OK);
        } else {
            CHECK(pgn_reader_visit(r, pgn_dedupe_line_visitor(), l) == PGN_OK);
            CHECK(pgn_dedupe_line_finish(l, &key, &rec) == PGN_OK);
            CHECK(pgn_dedupe_keeper_add(k, i, key, rec, 0, &cl, &is_new) == PGN_OK);
        }
        agree += pgn_dedupe_keeper_cluster(k, cl)->first == want[i] && (is_new == (want[i] == i));
    }
    pgn_dedupe_counts c = pgn_dedupe_keeper_counts(k);
    size_t distinct = 0;
    for (size_t j = 0; j < n; j++) {
        distinct += want[j] == j;
    }
    CHECK_EQ_U64(c.distinct, distinct);
    CHECK_EQ_U64(c.duplicates, n - distinct);
    CHECK(pgn_dedupe_keeper_finish(k) == PGN_OK);
    for (size_t j = 0; j < n; j++) { /* keep first: the kept copies are the firsts */
        agree -= !pgn_dedupe_keeper_is_kept(k, j) != (want[j] != j);
    }
    pgn_game_free(g);
    pgn_reader_free(r);
    pgn_dedupe_line_free(l);
    pgn_dedupe_keeper_free(k);
    return agree;
}

static void test_slice(void) {
    buf text = load_slice();
    for (uint32_t flags = 0; flags <= PGN_DEDUPE_TAGS; flags += PGN_DEDUPE_TAGS) {
        char **t = calloc(SLICE, sizeof *t);
        pgn_reader *r = NULL;
        pgn_game *g = NULL;
        size_t n = 0;
        CHECK(pgn_reader_new_mem(&r, NULL, text.p, text.len) == PGN_OK);
        CHECK(pgn_game_new(&g, NULL) == PGN_OK);
        while (n < SLICE && pgn_reader_next(r, g) == PGN_OK) {
            t[n++] = truth(g, flags);
        }
        pgn_game_free(g);
        pgn_reader_free(r);
        CHECK_EQ_U64(n, SLICE);
        size_t *want = brute_force(t, n), dups = 0;
        for (size_t i = 0; i < n; i++) {
            dups += want[i] != i;
        }
        store a = {{0}, 0, 0}, b = {{0}, 0, 0}, c = {{0}, 0, 0};
        CHECK_EQ_U64(run_keeper(&text, flags, 0, 0, want, n, &a), n);
        CHECK_EQ_U64(run_keeper(&text, flags, 1, 0, want, n, &b), n);
        CHECK_EQ_U64(run_keeper(&text, flags, 0, 4096, want, n, &c), n);
        printf("dedupe keeper (flags %u): %zu games, %zu duplicates; spilled %zu bytes in %ld "
               "writes, %ld reads back\n",
               (unsigned)flags, n, dups, c.b.len, c.writes, c.reads);
        CHECK(dups > 20); /* 41 without the tags */
        CHECK(a.writes == 0 && b.writes == 0 && c.writes > 1000 && c.reads > 0);
        buf_free(&a.b);
        buf_free(&b.b);
        buf_free(&c.b);
        for (size_t i = 0; i < n; i++) {
            free(t[i]);
        }
        free(t);
        free(want);
    }
    buf_free(&text);
}

/* A visitor's record and key equal the tree's, game by game (variations, comments, long tags),
 * with the tags; without them the tree's key equals pgn_game_line_key too. */
static void test_records(void) {
    buf text = {0};
    CHECK(buf_load_shared("corpus/big/twic/twic1427.pgn.gz", &text));
    size_t games = 0, equal = 0;
    pgn_reader *rv, *rg;
    pgn_game *g;
    pgn_dedupe_line *lv, *lg, *l0;
    CHECK(pgn_reader_new_mem(&rv, NULL, text.p, text.len) == PGN_OK);
    CHECK(pgn_reader_new_mem(&rg, NULL, text.p, text.len) == PGN_OK);
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    CHECK(pgn_dedupe_line_new(&lv, PGN_DEDUPE_TAGS, NULL) == PGN_OK);
    CHECK(pgn_dedupe_line_new(&lg, PGN_DEDUPE_TAGS, NULL) == PGN_OK);
    CHECK(pgn_dedupe_line_new(&l0, 0, NULL) == PGN_OK);
    while (pgn_reader_visit(rv, pgn_dedupe_line_visitor(), lv) == PGN_OK &&
           pgn_reader_next(rg, g) == PGN_OK) {
        uint64_t kv, kg, k0;
        pgn_str a, b, c;
        int ok = pgn_dedupe_line_finish(lv, &kv, &a) == PGN_OK &&
                 pgn_dedupe_line_from_game(lg, g, &kg, &b) == PGN_OK &&
                 pgn_dedupe_line_from_game(l0, g, &k0, &c) == PGN_OK;
        games++;
        equal += ok && kv == kg && kg == pgn_game_line_key(g, PGN_DEDUPE_TAGS) &&
                 k0 == pgn_game_line_key(g, 0) && a.len == b.len &&
                 memcmp(a.ptr, b.ptr, a.len) == 0 && (c.len < b.len) == (pgn_game_ply_count(g) > 0);
    }
    pgn_game_free(g);
    pgn_reader_free(rv);
    pgn_reader_free(rg);
    pgn_dedupe_line_free(lv);
    pgn_dedupe_line_free(lg);
    pgn_dedupe_line_free(l0);
    printf("dedupe keeper: visitor and tree records equal for %zu of %zu games\n", equal, games);
    CHECK(games > 4000);
    CHECK_EQ_U64(equal, games);
    buf_free(&text);
}

/* --keep richest: the copy with the most tags, comments, NAGs and variation moves, the first on
 * a tie; broken games counted as distinct. */
static ptrdiff_t fail_sink(void *ctx, const void *p, size_t len) {
    (void)ctx, (void)p, (void)len;
    return -1;
}

static void test_richest(void) {
    static const char *games[] = {
        "1. e4 e5 2. Nf3 *\n",                            /* 0: cluster 0, richness 0 */
        "[Event \"x\"]\n\n1. e4 e5 2. Nf3 {a} *\n",       /* 1: richness 2 */
        "1. d4 d5 *\n",                                   /* 2: cluster 1 */
        "[Event \"y\"]\n\n1. e4 e5 (1... c5) 2. Nf3 *\n", /* 3: richness 2, a tie: not kept */
        "[A \"1\"]\n[B \"2\"]\n\n1. d4 d5 $1 *\n",        /* 4: richness 3 */
    };
    pgn_dedupe_keeper_opts o = {PGN_DEDUPE_RICHEST, 0, {NULL, NULL, NULL}, NULL};
    pgn_dedupe_keeper *k = NULL;
    pgn_dedupe_report *rp = NULL;
    pgn_game *g = NULL;
    CHECK(pgn_dedupe_keeper_new(&k, &o) == PGN_OK && pgn_game_new(&g, NULL) == PGN_OK &&
          pgn_dedupe_report_new(&rp) == PGN_OK);
    for (uint64_t i = 0; i < 5; i++) {
        uint64_t cl;
        int is_new;
        read_game_text(g, games[i]);
        CHECK(pgn_dedupe_keeper_add_game(k, i, g, &cl, &is_new) == PGN_OK);
        CHECK_EQ_U64(cl, i == 2 || i == 4);
        CHECK_EQ_INT(is_new, i == 0 || i == 2);
        const char *source = i < 3 ? "a.pgn" : "b\"c.pgn"; /* a name JSON escapes */
        CHECK(pgn_dedupe_report_add(rp, cl, is_new, i, source, (uint32_t)(10 * i + 1)) == PGN_OK);
    }
    pgn_dedupe_keeper_add_broken(k);
    pgn_dedupe_counts c = pgn_dedupe_keeper_counts(k);
    CHECK(c.distinct == 3 && c.duplicates == 3 && c.broken == 1);
    CHECK(pgn_dedupe_keeper_cluster(k, 0)->first == 0 &&
          pgn_dedupe_keeper_cluster(k, 0)->keep == 1);
    CHECK(pgn_dedupe_keeper_cluster(k, 1)->keep == 4 &&
          pgn_dedupe_keeper_cluster(k, 1)->richness == 3);
    CHECK(pgn_dedupe_keeper_finish(k) == PGN_OK);
    for (uint64_t i = 0; i < 6; i++) {
        CHECK_EQ_INT(pgn_dedupe_keeper_is_kept(k, i), i == 1 || i == 4);
    }
    /* The report: each cluster of two or more copies, its copies in ordinal order, the kept one
     * the richest (1 and 4); the broken game counts among the games, never in a cluster. */
    pgn_membuf m = {0};
    CHECK(pgn_dedupe_report_write(rp, k, 6, 0, pgn_membuf_write, &m) == PGN_OK);
    static const char want[] =
        "{\"games\":6,\"distinct\":3,\"duplicates\":3,\"by\":\"moves\","
        "\"without_moves_by\":\"moves+tags\",\"clusters\":[\n"
        "{\"cluster\":0,\"games\":[{\"ordinal\":0,\"source\":\"a.pgn\",\"line\":1,\"kept\":false},"
        "{\"ordinal\":1,\"source\":\"a.pgn\",\"line\":11,\"kept\":true},"
        "{\"ordinal\":3,\"source\":\"b\\\"c.pgn\",\"line\":31,\"kept\":false}]},\n"
        "{\"cluster\":1,\"games\":[{\"ordinal\":2,\"source\":\"a.pgn\",\"line\":21,\"kept\":false},"
        "{\"ordinal\":4,\"source\":\"b\\\"c.pgn\",\"line\":41,\"kept\":true}]}\n]}\n";
    CHECK(m.len == sizeof want - 1 && memcmp(m.ptr, want, m.len) == 0);
    m.len = 0;
    CHECK(pgn_dedupe_report_write(rp, k, 6, PGN_DEDUPE_TAGS, pgn_membuf_write, &m) == PGN_OK);
    CHECK(m.len > 56 && memcmp(m.ptr + 39, "\"by\":\"moves+tags\",", 18) == 0);
    CHECK(pgn_dedupe_report_write(rp, k, 6, 0, fail_sink, NULL) == PGN_E_IO);
    pgn_membuf_free(&m);
    pgn_dedupe_report_free(rp);
    pgn_dedupe_keeper_free(k);
    pgn_game_free(g);
}

/* Past the memory without a spill store: PGN_E_LIMIT; a failing store: PGN_E_IO. */
static int fail_write(void *ctx, const void *p, size_t len) {
    (void)ctx, (void)p, (void)len;
    return -1;
}

static void test_limits(void) {
    pgn_game *g = NULL;
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    for (int failing = 0; failing < 2; failing++) {
        pgn_dedupe_keeper_opts o = {0, 200, {failing ? fail_write : NULL, NULL, NULL}, NULL};
        pgn_dedupe_keeper *k = NULL;
        CHECK(pgn_dedupe_keeper_new(&k, &o) == PGN_OK);
        uint64_t cl;
        int is_new;
        read_game_text(g, "1. e4 e5 *\n"); /* a record of 89 bytes */
        CHECK(pgn_dedupe_keeper_add_game(k, 0, g, &cl, &is_new) == PGN_OK);
        read_game_text(g, "1. d4 d5 *\n");
        CHECK(pgn_dedupe_keeper_add_game(k, 1, g, &cl, &is_new) == PGN_OK);
        read_game_text(g, "1. c4 c5 *\n");
        CHECK_EQ_INT(pgn_dedupe_keeper_add_game(k, 2, g, &cl, &is_new),
                     failing ? PGN_E_IO : PGN_E_LIMIT);
        pgn_dedupe_keeper_free(k);
    }
    pgn_game_free(g);
}

/* Allocation k fails: PGN_E_NOMEM, nothing leaked. */
static void test_nomem(void) {
    pgn_game *g = NULL;
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    int failed = 0;
    for (long n = 0; n < 40; n++) {
        limit_alloc la = {n, 0};
        pgn_allocator a = limit_allocator(&la);
        pgn_dedupe_keeper_opts o = {
            PGN_DEDUPE_TAGS | PGN_DEDUPE_RICHEST, 0, {NULL, NULL, NULL}, &a};
        pgn_dedupe_keeper *k = NULL;
        pgn_status st = pgn_dedupe_keeper_new(&k, &o);
        char text[64];
        for (int i = 0; st == PGN_OK && i < 2000; i++) {
            uint64_t cl;
            int is_new;
            snprintf(text, sizeof text, "[White \"%d\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n", i % 1500);
            read_game_text(g, text);
            st = pgn_dedupe_keeper_add_game(k, (uint64_t)i, g, &cl, &is_new);
        }
        st = st == PGN_OK ? pgn_dedupe_keeper_finish(k) : st;
        CHECK(st == PGN_OK || st == PGN_E_NOMEM);
        failed += st == PGN_E_NOMEM;
        pgn_dedupe_keeper_free(k);
        CHECK_EQ_INT(la.live, 0);
    }
    CHECK(failed >= 5);
    pgn_game_free(g);
}

/* pgn_dedupe_files: the keeper's records past 200 bytes go to the spill file and come back to
 * confirm the copies; the spool gives every text back, in order, kept as the keeper decided. */
typedef struct replayed {
    const char *const *texts;
    int n, bad;
    const int *kept;
} replayed;

static pgn_status on_replay(void *ctx, int kept, pgn_str text) {
    replayed *r = ctx;
    const char *want = r->texts[r->n];
    r->bad += kept != r->kept[r->n] || text.len != strlen(want) || memcmp(text.ptr, want, text.len);
    r->n++;
    return PGN_OK;
}

static void test_files(void) {
    static const char *const texts[] = {"1. e4 e5 *\n", "1. d4 d5 *\n", "1. c4 c5 *\n",
                                        "1. e4 e5 *\n", "1. c4 c5 *\n", "1. Nf3 ("};
    static const int kept[] = {1, 1, 1, 0, 0, 1}; /* the last one broken: always kept */
    pgn_dedupe_files *f = NULL;
    char msg[256];
    CHECK_EQ_INT(pgn_dedupe_files_new(&f, NULL, 1, msg, sizeof msg), PGN_OK);
    pgn_dedupe_keeper_opts o = {0, 200, pgn_dedupe_files_spill(f), NULL};
    pgn_dedupe_keeper *k = NULL;
    pgn_game *g = NULL;
    CHECK(pgn_dedupe_keeper_new(&k, &o) == PGN_OK && pgn_game_new(&g, NULL) == PGN_OK);
    for (uint64_t i = 0; i < 6; i++) {
        pgn_str t = {texts[i], strlen(texts[i])};
        CHECK(pgn_dedupe_files_spool(f, i, i == 5, t) == PGN_OK);
        if (i == 5) {
            pgn_dedupe_keeper_add_broken(k);
            continue;
        }
        uint64_t cl;
        int is_new;
        read_game_text(g, texts[i]); /* records of 89 bytes: the third is spilled */
        CHECK(pgn_dedupe_keeper_add_game(k, i, g, &cl, &is_new) == PGN_OK);
        CHECK_EQ_INT(is_new, kept[i]);
    }
    CHECK(pgn_dedupe_keeper_finish(k) == PGN_OK);
    replayed r = {texts, 0, 0, kept};
    CHECK(pgn_dedupe_files_replay(f, k, on_replay, &r) == PGN_OK);
    CHECK_EQ_INT(r.n, 6);
    CHECK_EQ_INT(r.bad, 0);
    pgn_dedupe_keeper_free(k);
    pgn_dedupe_files_free(f);
    pgn_game_free(g);
    CHECK_EQ_INT(pgn_dedupe_files_new(&f, "/nonexistent-dir", 0, msg, sizeof msg), PGN_E_IO);
    CHECK(f == NULL && msg[0] != '\0');
}

int main(void) {
    test_richest();
    test_limits();
    test_files();
    test_nomem();
    test_records();
    test_slice();
    return harness_finish();
}
