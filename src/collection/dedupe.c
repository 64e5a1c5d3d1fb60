/* SPDX-License-Identifier: MIT */
/* Duplicate games: a line key mixed from Zobrist keys, the move-by-move comparison that confirms
 * it, and an open-addressed set of distinct games that keeps only keys and the caller's
 * references (memory per distinct game, not per byte of text). */
#include "../base/alloc.h"
#include "pgnkit/collection.h"

#include <assert.h>
#include <string.h>

#include "../game/arena.h"

typedef struct entry {
    uint64_t key;
    uint64_t ref;
    uint64_t cluster; /* UINT64_MAX: empty slot */
} entry;

struct pgn_dedupe {
    pgn_allocator alloc;
    uint32_t flags;
    entry *slots;
    size_t cap; /* a power of two */
    uint64_t count;
};

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
    return h * UINT64_C(0xff51afd7ed558ccd);
}

/* FEN fields 1-4 of pos as one key (en passant only when a capture is legal). */
static uint64_t start_key(const pgn_pos *pos) {
    pgn_pos p = *pos;
    p.key = pgn_pos_compute_key(pos);
    return pgn_pos_identity_key(&p);
}

/* Byte c of a name as compared: ASCII lower case; 0 for the ignored " .,-". */
static unsigned char name_byte(unsigned char c) {
    if (c == ' ' || c == '.' || c == ',' || c == '-') {
        return 0;
    }
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static const char *const TAG_NAMES[4] = {"White", "Black", "Date", "Result"};

size_t pgn_dedupe_norm_tag(unsigned i, pgn_str v, char *out, size_t cap) {
    size_t n = 0;
    assert(i < 4 && (out || !cap));
    if (i == 3) {
        const char *r = pgn_result_str(pgn_result_parse(v.ptr ? v.ptr : "", v.len));
        n = strlen(r) < cap ? strlen(r) : cap;
        memcpy(out, r, n);
        return n;
    }
    for (size_t k = 0; k < v.len && n < cap; k++) {
        unsigned char c = i < 2 ? name_byte((unsigned char)v.ptr[k]) : (unsigned char)v.ptr[k];
        if (c) {
            out[n++] = (char)c;
        }
    }
    return n;
}

/* The normalised value of tag i (0..3) of g into out (at most cap bytes); its length. */
static size_t norm_tag(const pgn_game *g, unsigned i, char *out, size_t cap) {
    pgn_str v = {"", 0};
    pgn_game_tag_get(g, TAG_NAMES[i], &v);
    return pgn_dedupe_norm_tag(i, v, out, cap);
}

uint64_t pgn_line_key_start(const pgn_pos *start) {
    return mix(0, start_key(start));
}

uint64_t pgn_line_key_move(uint64_t key, pgn_move mv) {
    return mix(key, mv);
}

uint64_t pgn_line_key_finish(uint64_t key, uint64_t plies, const pgn_str *tags) {
    key = mix(key, plies);
    for (unsigned i = 0; tags && i < 4; i++) {
        for (size_t k = 0; k < tags[i].len; k++) {
            key = mix(key, (unsigned char)tags[i].ptr[k]);
        }
        key = mix(key, 256 + i);
    }
    return key;
}

/* Whether the four tags count: with PGN_DEDUPE_TAGS, and always for a game without moves (a
 * forfeit between A and B is not one between C and D; issue 31). */
static int tags_count(uint32_t flags, uint64_t plies) {
    return (flags & PGN_DEDUPE_TAGS) || plies == 0;
}

uint64_t pgn_game_line_key(const pgn_game *game, uint32_t flags) {
    /* the moves, not the positions' keys: pgn_game_same_line compares moves, and the line need
     * not be played again (that replay was a tenth of pgnkit dedupe's time) */
    uint64_t h = pgn_line_key_start(pgn_game_start(game)), plies = 0;
    for (const pgn_node *n = pgn_node_child(pgn_game_root(game)); n; n = pgn_node_child(n)) {
        h = pgn_line_key_move(h, pgn_node_move(n));
        plies++;
    }
    char buf[4][PGN_DEDUPE_TAG_MAX];
    pgn_str tags[4];
    int use = tags_count(flags, plies);
    for (unsigned i = 0; use && i < 4; i++) {
        tags[i].ptr = buf[i];
        tags[i].len = norm_tag(game, i, buf[i], sizeof buf[i]);
    }
    return pgn_line_key_finish(h, plies, use ? tags : NULL);
}

static int same_start(const pgn_pos *a, const pgn_pos *b) {
    return memcmp(a->board, b->board, sizeof a->board) == 0 && a->side == b->side &&
           a->castle == b->castle && start_key(a) == start_key(b);
}

int pgn_game_same_line(const pgn_game *a, const pgn_game *b, uint32_t flags) {
    if (!same_start(pgn_game_start(a), pgn_game_start(b))) {
        return 0;
    }
    const pgn_node *x = pgn_node_child(pgn_game_root(a)), *y = pgn_node_child(pgn_game_root(b));
    int use = tags_count(flags, x ? 1 : 0);
    for (; x && y; x = pgn_node_child(x), y = pgn_node_child(y)) {
        if (pgn_node_move(x) != pgn_node_move(y)) {
            return 0;
        }
    }
    if (x || y) {
        return 0;
    }
    for (unsigned i = 0; use && i < 4; i++) {
        char u[PGN_DEDUPE_TAG_MAX], v[PGN_DEDUPE_TAG_MAX];
        size_t nu = norm_tag(a, i, u, sizeof u), nv = norm_tag(b, i, v, sizeof v);
        if (nu != nv || memcmp(u, v, nu) != 0) {
            return 0;
        }
    }
    return 1;
}

/* The next node in preorder after n (children first, then alternatives, then up). */
static const pgn_node *next_node(const pgn_node *n) {
    if (pgn_node_child(n)) {
        return pgn_node_child(n);
    }
    for (; n; n = pgn_node_parent(n)) {
        if (pgn_node_sibling(n)) {
            return pgn_node_sibling(n);
        }
    }
    return NULL;
}

uint64_t pgn_game_richness(const pgn_game *game) {
    uint64_t r = pgn_game_tag_count(game), nodes = 0;
    const pgn_node *root = pgn_game_root(game);
    r += pgn_node_comment(root).len > 0;
    r += pgn_node_pre_comment(root).len > 0;
    for (const pgn_node *n = next_node(root); n; n = next_node(n)) {
        r += pgn_node_comment(n).len > 0;
        r += pgn_node_pre_comment(n).len > 0;
        r += pgn_node_nag_count(n);
        nodes++;
    }
    return r + nodes - pgn_game_ply_count(game); /* the moves outside the main line */
}

pgn_status pgn_dedupe_new(pgn_dedupe **out, const pgn_dedupe_opts *opts) {
    const pgn_allocator *alloc = opts ? opts->alloc : NULL;
    pgn_status st;
    pgn_dedupe *d = pgnk_alloc_object(alloc, sizeof *d, &st);
    if (!d) {
        return st;
    }
    pgnk_alloc_copy(&d->alloc, alloc);
    d->flags = opts ? opts->flags : 0;
    *out = d;
    return PGN_OK;
}

void pgn_dedupe_free(pgn_dedupe *set) {
    if (set) {
        pgn_allocator alloc = set->alloc;
        pgnk_free(&alloc, set->slots);
        pgnk_free(&alloc, set);
    }
}

uint64_t pgn_dedupe_count(const pgn_dedupe *set) {
    return set->count;
}

size_t pgn_dedupe_memory(const pgn_dedupe *set) {
    return sizeof *set + set->cap * sizeof(entry);
}

/* Doubles the table (16 slots at first); PGN_OK or PGN_E_NOMEM with the set unchanged. */
static pgn_status grow(pgn_dedupe *d) {
    size_t cap = d->cap ? d->cap * 2 : 16;
    if (cap > SIZE_MAX / sizeof(entry) || cap < d->cap) {
        return PGN_E_NOMEM;
    }
    entry *slots = pgnk_malloc(&d->alloc, cap * sizeof(entry));
    if (!slots) {
        return PGN_E_NOMEM;
    }
    for (size_t i = 0; i < cap; i++) {
        slots[i].cluster = UINT64_MAX;
    }
    for (size_t i = 0; i < d->cap; i++) {
        if (d->slots[i].cluster != UINT64_MAX) {
            size_t j = (size_t)d->slots[i].key & (cap - 1);
            while (slots[j].cluster != UINT64_MAX) {
                j = (j + 1) & (cap - 1);
            }
            slots[j] = d->slots[i];
        }
    }
    pgnk_free(&d->alloc, d->slots);
    d->slots = slots;
    d->cap = cap;
    return PGN_OK;
}

pgn_status pgn_dedupe_add_key(pgn_dedupe *set, uint64_t key, uint64_t ref,
                              pgn_dedupe_same_key_fn same, void *ctx, uint64_t *cluster,
                              int *is_new) {
    assert(set && same && cluster && is_new);
    if ((set->count + 1) * 2 > set->cap) {
        pgn_status st = grow(set);
        if (st != PGN_OK) {
            return st;
        }
    }
    size_t j = (size_t)key & (set->cap - 1);
    for (; set->slots[j].cluster != UINT64_MAX; j = (j + 1) & (set->cap - 1)) {
        if (set->slots[j].key != key) {
            continue;
        }
        int r = same(ctx, set->slots[j].ref);
        if (r < 0) {
            return PGN_E_IO;
        }
        if (r > 0) {
            *cluster = set->slots[j].cluster;
            *is_new = 0;
            return PGN_OK;
        }
    }
    set->slots[j].key = key;
    set->slots[j].ref = ref;
    set->slots[j].cluster = set->count++;
    *cluster = set->slots[j].cluster;
    *is_new = 1;
    return PGN_OK;
}

/* pgn_dedupe_add's callback and game, for pgn_dedupe_add_key. */
typedef struct game_same {
    pgn_dedupe_same_fn same;
    void *ctx;
    const pgn_game *game;
} game_same;

static int same_game(void *ctx, uint64_t ref) {
    const game_same *g = ctx;
    return g->same(g->ctx, ref, g->game);
}

pgn_status pgn_dedupe_add(pgn_dedupe *set, const pgn_game *game, uint64_t ref,
                          pgn_dedupe_same_fn same, void *ctx, uint64_t *cluster, int *is_new) {
    assert(set && game && same && cluster && is_new);
    game_same g = {same, ctx, game};
    return pgn_dedupe_add_key(set, pgn_game_line_key(game, set->flags), ref, same_game, &g, cluster,
                              is_new);
}
