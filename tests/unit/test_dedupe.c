/* SPDX-License-Identifier: MIT */
/* Duplicate games (include/pgnkit/collection.h): on a 20,000-game slice of the pgnmentor player
 * collections (Anand, Carlsen, Kramnik, Kasparov, Kosteniuk: they share many games), the clusters
 * of pgn_dedupe equal those of a brute-force pairwise comparison of each game's start FEN and
 * UCI main line written by the test; the confirmation callback decides (a key alone never
 * merges); the tags mode; the memory bound; running out of memory. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#define SLICE 20000

typedef struct corpus {
    buf text;
    uint64_t *offset; /* each game's first byte in text */
    char **line;      /* "FEN|uci uci ..." of each game, written by the test */
    size_t n;
} corpus;

/* The game's start (EPD) and main line in UCI, malloc'd. */
static char *line_text(const pgn_game *g) {
    buf b = {0};
    buf_main_line(&b, g);
    return b.p;
}

static void load(corpus *c) {
    static const char *files[] = {"corpus/big/pgnmentor-players/Anand.pgn.gz",
                                  "corpus/big/pgnmentor-players/Carlsen.pgn.gz",
                                  "corpus/big/pgnmentor-players/Kramnik.pgn.gz",
                                  "corpus/big/pgnmentor-players/Kasparov.pgn.gz",
                                  "corpus/big/pgnmentor-players/Kosteniuk.pgn.gz"};
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < 5; i++) {
        buf one = {0};
        if (buf_load_shared(files[i], &one)) {
            buf_put(&c->text, one.p, one.len);
            buf_str(&c->text, "\n");
        }
        buf_free(&one);
    }
    c->text.len = slice_games(c->text.p, c->text.len, SLICE);
    c->offset = calloc(SLICE, sizeof *c->offset);
    c->line = calloc(SLICE, sizeof *c->line);
    pgn_reader *r;
    pgn_game *g;
    if (!c->offset || !c->line || pgn_reader_new_mem(&r, NULL, c->text.p, c->text.len) != PGN_OK ||
        pgn_game_new(&g, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        exit(1);
    }
    while (c->n < SLICE && pgn_reader_next(r, g) == PGN_OK) {
        c->offset[c->n] = pgn_reader_summary(r)->start.offset;
        c->line[c->n++] = line_text(g);
    }
    pgn_game_free(g);
    pgn_reader_free(r);
}

typedef struct reread {
    const corpus *c;
    pgn_game *g;
    uint32_t flags;
    long calls;
} reread;

/* The confirmation: reads game ref back from the text and compares it move by move. */
static int same_from_text(void *ctx, uint64_t ref, const pgn_game *game) {
    reread *rr = ctx;
    pgn_reader *r;
    const corpus *c = rr->c;
    rr->calls++;
    if (pgn_reader_new_mem(&r, NULL, c->text.p + c->offset[ref], c->text.len - c->offset[ref]) !=
        PGN_OK) {
        return -1;
    }
    pgn_status st = pgn_reader_next(r, rr->g);
    pgn_reader_free(r);
    return st == PGN_OK ? pgn_game_same_line(rr->g, game, rr->flags) : -1;
}

/* first[i]: the first game of i's cluster, by comparing every pair of equal-length lines. */
static size_t *brute_force(const corpus *c) {
    size_t *first = calloc(c->n, sizeof *first), *len = calloc(c->n, sizeof *len);
    for (size_t i = 0; i < c->n; i++) {
        len[i] = strlen(c->line[i]);
        first[i] = i;
        for (size_t j = 0; j < i; j++) {
            if (first[j] == j && len[j] == len[i] && memcmp(c->line[j], c->line[i], len[i]) == 0) {
                first[i] = j;
                break;
            }
        }
    }
    free(len);
    return first;
}

static void test_slice(void) {
    corpus c;
    load(&c);
    CHECK_EQ_U64(c.n, SLICE);
    size_t *want = brute_force(&c);
    pgn_dedupe *d;
    reread rr = {&c, NULL, 0, 0};
    CHECK(pgn_dedupe_new(&d, NULL) == PGN_OK && pgn_game_new(&rr.g, NULL) == PGN_OK);
    uint64_t *rep = calloc(c.n, sizeof *rep); /* cluster -> its first game */
    pgn_reader *r;
    pgn_game *g;
    CHECK(pgn_reader_new_mem(&r, NULL, c.text.p, c.text.len) == PGN_OK);
    CHECK(pgn_game_new(&g, NULL) == PGN_OK);
    size_t i = 0, agree = 0, dups = 0;
    for (; i < c.n && pgn_reader_next(r, g) == PGN_OK; i++) {
        uint64_t cl;
        int is_new;
        CHECK(pgn_dedupe_add(d, g, i, same_from_text, &rr, &cl, &is_new) == PGN_OK);
        if (is_new) {
            rep[cl] = i;
        }
        dups += !is_new;
        agree += rep[cl] == want[i];
    }
    printf("dedupe: %zu games, %zu duplicates, %llu distinct; %ld confirmations; %zu bytes\n", i,
           dups, (unsigned long long)pgn_dedupe_count(d), rr.calls, pgn_dedupe_memory(d));
    CHECK_EQ_U64(agree, c.n);
    CHECK(dups > 100); /* the slice does hold true duplicates (634) */
    CHECK(pgn_dedupe_memory(d) <= 128 + 96 * pgn_dedupe_count(d));
    pgn_reader_free(r);
    pgn_game_free(g);
    pgn_game_free(rr.g);
    pgn_dedupe_free(d);
    free(rep);
    free(want);
    for (size_t k = 0; k < c.n; k++) {
        free(c.line[k]);
    }
    free(c.line);
    free(c.offset);
    buf_free(&c.text);
}

static int answer;
static int fixed_answer(void *ctx, uint64_t ref, const pgn_game *game) {
    (void)ctx;
    (void)ref;
    (void)game;
    return answer;
}

/* Equal keys merge only when the callback confirms; -1 is PGN_E_IO; out of memory. */
static void test_confirmation(void) {
    pgn_game *g = NULL;
    pgn_dedupe *d = NULL;
    uint64_t cl;
    int is_new;
    CHECK(pgn_game_new(&g, NULL) == PGN_OK && pgn_dedupe_new(&d, NULL) == PGN_OK);
    read_game_text(g, "1. e4 e5 2. Nf3 *\n");
    answer = 0;
    CHECK(pgn_dedupe_add(d, g, 1, fixed_answer, NULL, &cl, &is_new) == PGN_OK && is_new);
    CHECK(pgn_dedupe_add(d, g, 2, fixed_answer, NULL, &cl, &is_new) == PGN_OK && is_new);
    CHECK_EQ_U64(cl, 1);
    answer = 1;
    CHECK(pgn_dedupe_add(d, g, 3, fixed_answer, NULL, &cl, &is_new) == PGN_OK && !is_new);
    CHECK_EQ_U64(cl, 0);
    answer = -1;
    CHECK(pgn_dedupe_add(d, g, 4, fixed_answer, NULL, &cl, &is_new) == PGN_E_IO);
    CHECK_EQ_U64(pgn_dedupe_count(d), 2);
    pgn_dedupe_free(d);
    for (long k = 0; k < 4; k++) {
        limit_alloc la = {k, 0};
        pgn_allocator a = limit_allocator(&la);
        pgn_dedupe_opts o = {0, &a};
        pgn_status st = pgn_dedupe_new(&d, &o);
        for (int n = 0; st == PGN_OK && n < 40; n++) {
            answer = 0;
            st = pgn_dedupe_add(d, g, (uint64_t)n, fixed_answer, NULL, &cl, &is_new);
        }
        CHECK(st == PGN_E_NOMEM);
        pgn_dedupe_free(st == PGN_E_NOMEM && k == 0 ? NULL : d);
        CHECK_EQ_INT(la.live, 0);
    }
    pgn_game_free(g);
}

/* Lines and tags: transposed move orders differ; names are normalised under PGN_DEDUPE_TAGS. */
static void test_same_line(void) {
    pgn_game *a = NULL, *b = NULL;
    CHECK(pgn_game_new(&a, NULL) == PGN_OK && pgn_game_new(&b, NULL) == PGN_OK);
    read_game_text(a,
                   "[White \"Carlsen, Magnus\"]\n[Result \"1-0\"]\n\n1. d4 Nf6 2. c4 e6 {x} 1-0\n");
    read_game_text(
        b, "[White \"carlsen magnus\"]\n[Result \"1-0\"]\n\n1. d4 Nf6 2. c4 (2. Nf3) e6 1-0\n");
    CHECK(pgn_game_same_line(a, b, 0));
    CHECK(pgn_game_same_line(a, b, PGN_DEDUPE_TAGS));
    CHECK_EQ_U64(pgn_game_line_key(a, PGN_DEDUPE_TAGS), pgn_game_line_key(b, PGN_DEDUPE_TAGS));
    CHECK_EQ_U64(pgn_game_richness(a), 3); /* 2 tags, 1 comment */
    CHECK_EQ_U64(pgn_game_richness(b), 3); /* 2 tags, 1 move in a variation */
    read_game_text(b, "[White \"Carlsen, M.\"]\n[Result \"1-0\"]\n\n1. d4 Nf6 2. c4 e6 1-0\n");
    CHECK(pgn_game_same_line(a, b, 0));
    CHECK(!pgn_game_same_line(a, b, PGN_DEDUPE_TAGS));
    read_game_text(b, "1. c4 e6 2. d4 Nf6 *\n"); /* the same position, another line */
    CHECK(!pgn_game_same_line(a, b, 0));
    CHECK(pgn_game_line_key(a, 0) != pgn_game_line_key(b, 0));
    read_game_text(b, "1. d4 Nf6 2. c4 e6 3. Nc3 *\n");
    CHECK(!pgn_game_same_line(a, b, 0));
    read_game_text(
        b, "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]"
           "\n\n1. d4 Nf6 2. c4 e6 *\n");
    CHECK(pgn_game_same_line(a, b, 0));
    pgn_game_free(a);
    pgn_game_free(b);
}

/* Games without moves (forfeits): a duplicate only of the same game, White, Black, Date and
 * Result compared with or without PGN_DEDUPE_TAGS (issue 31: TWIC's forfeits between different
 * players were one game). */
static void test_no_moves(void) {
    pgn_game *a = NULL, *b = NULL;
    CHECK(pgn_game_new(&a, NULL) == PGN_OK && pgn_game_new(&b, NULL) == PGN_OK);
    read_game_text(
        a, "[White \"A, B\"]\n[Black \"C\"]\n[Date \"2022.04.01\"]\n[Result \"1-0\"]\n\n1-0\n");
    read_game_text(
        b, "[White \"D\"]\n[Black \"E\"]\n[Date \"2022.04.01\"]\n[Result \"1-0\"]\n\n1-0\n");
    for (uint32_t flags = 0; flags <= PGN_DEDUPE_TAGS; flags += PGN_DEDUPE_TAGS) {
        CHECK(!pgn_game_same_line(a, b, flags));
        CHECK(pgn_game_line_key(a, flags) != pgn_game_line_key(b, flags));
    }
    read_game_text(
        b, "[White \"a b\"]\n[Black \"C\"]\n[Date \"2022.04.01\"]\n[Result \"1-0\"]\n\n1-0\n");
    CHECK(pgn_game_same_line(a, b, 0));
    CHECK_EQ_U64(pgn_game_line_key(a, 0), pgn_game_line_key(b, 0));
    read_game_text(
        b, "[White \"a b\"]\n[Black \"C\"]\n[Date \"2022.04.01\"]\n[Result \"0-1\"]\n\n0-1\n");
    CHECK(!pgn_game_same_line(a, b, 0));
    /* with a move, the players do not count without PGN_DEDUPE_TAGS */
    read_game_text(a, "[White \"A\"]\n\n1. e4 *\n");
    read_game_text(b, "[White \"D\"]\n\n1. e4 *\n");
    CHECK(pgn_game_same_line(a, b, 0));
    CHECK_EQ_U64(pgn_game_line_key(a, 0), pgn_game_line_key(b, 0));
    pgn_game_free(a);
    pgn_game_free(b);
}

/* A visitor keying each game's main line as it is read (pgn_line_key_*), as pgnkit dedupe does. */
typedef struct streamed {
    uint32_t flags;
    unsigned depth;
    uint64_t key, plies;
    char tags[4][PGN_DEDUPE_TAG_MAX];
    pgn_str norm[4];
} streamed;

static pgn_flow st_begin(void *user, pgn_loc at) {
    streamed *s = user;
    pgn_str empty = {"", 0};
    (void)at;
    s->depth = 0;
    s->plies = 0;
    for (unsigned i = 0; i < 4; i++) {
        s->norm[i].ptr = s->tags[i];
        s->norm[i].len = pgn_dedupe_norm_tag(i, empty, s->tags[i], PGN_DEDUPE_TAG_MAX);
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow st_tag(void *user, pgn_str name, pgn_str value) {
    static const char *const names[4] = {"White", "Black", "Date", "Result"};
    streamed *s = user;
    for (unsigned i = 0; i < 4; i++) {
        if (name.len == strlen(names[i]) && memcmp(name.ptr, names[i], name.len) == 0) {
            s->norm[i].len = pgn_dedupe_norm_tag(i, value, s->tags[i], PGN_DEDUPE_TAG_MAX);
        }
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow st_end_tags(void *user, const pgn_pos *start) {
    ((streamed *)user)->key = pgn_line_key_start(start);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow st_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    streamed *s = user;
    (void)before;
    (void)san;
    (void)at;
    if (s->depth == 0) {
        s->key = pgn_line_key_move(s->key, mv);
        s->plies++;
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow st_in(void *user) {
    ((streamed *)user)->depth++;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow st_out(void *user) {
    ((streamed *)user)->depth--;
    return PGN_FLOW_CONTINUE;
}

/* The key built from a visitor equals pgn_game_line_key, game by game (with and without tags),
 * on the pgnmentor slice and on TWIC 1427 (variations, comments, long tag sets). */
static void test_streamed_key(void) {
    static const char *files[] = {"corpus/big/twic/twic1427.pgn.gz",
                                  "corpus/big/pgnmentor-players/Kasparov.pgn.gz"};
    static const pgn_visitor v = {st_begin, st_tag, st_end_tags, st_move, NULL,
                                  NULL,     st_in,  st_out,      NULL};
    size_t games = 0, equal = 0;
    for (size_t f = 0; f < 2; f++) {
        buf text = {0};
        CHECK(buf_load_shared(files[f], &text));
        pgn_reader *rv, *rg;
        pgn_game *g;
        CHECK(pgn_reader_new_mem(&rv, NULL, text.p, text.len) == PGN_OK);
        CHECK(pgn_reader_new_mem(&rg, NULL, text.p, text.len) == PGN_OK);
        CHECK(pgn_game_new(&g, NULL) == PGN_OK);
        streamed s;
        while (pgn_reader_visit(rv, &v, &s) == PGN_OK && pgn_reader_next(rg, g) == PGN_OK) {
            /* a line without moves is keyed with its tags either way (issue 31) */
            uint64_t plain = pgn_line_key_finish(s.key, s.plies, s.plies ? NULL : s.norm);
            uint64_t tagged = pgn_line_key_finish(s.key, s.plies, s.norm);
            games++;
            equal += plain == pgn_game_line_key(g, 0) &&
                     tagged == pgn_game_line_key(g, PGN_DEDUPE_TAGS) &&
                     (plain != tagged) == (s.plies != 0);
        }
        pgn_game_free(g);
        pgn_reader_free(rv);
        pgn_reader_free(rg);
        buf_free(&text);
    }
    printf("dedupe: streamed line keys equal the tree's for %zu of %zu games\n", equal, games);
    CHECK(games > 6000);
    CHECK_EQ_U64(equal, games);
}

int main(void) {
    test_confirmation();
    test_same_line();
    test_no_moves();
    test_streamed_key();
    test_slice();
    return harness_finish();
}
