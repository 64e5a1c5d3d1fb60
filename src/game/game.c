/* SPDX-License-Identifier: MIT */
/* The game tree (PGN §8.2.5 RAVs as siblings, python-chess's shape, STYLE C8), its tags (PGN §8.1)
 * and termination marker (PGN §8.2.6). Everything lives in the game's arena; no function here
 * recurses over the tree. */
#include "pgnkit/game.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "game_internal.h"

typedef pgnk_tag tag_entry;

/* Above this many tags a hash index finds a name in O(1) (10^5 tags must not be quadratic). */
#define TAG_INDEX_MIN 16

struct pgn_game {
    arena arena;
    tag_entry *tags;
    size_t tag_count, tag_cap;
    uint32_t *index; /* open addressing: tag position + 1, 0 = empty; NULL below TAG_INDEX_MIN */
    size_t index_cap;
    pgn_pos start;
    pgn_result result;
    game_record rec;
    pgn_node root;        /* inside the game, so that reset never needs memory */
    uint8_t san_complete; /* every node has its SAN and the start has not changed since */
    pgn_node *rootp;      /* &root, handed out mutable by the const getter without a cast */
    pgnk_packed *line;    /* the packed main line (PGN_READ_PACK_LINE): line_len of line_cap */
    size_t line_len, line_cap;
};

/* ---- results ---- */

const char *pgn_result_str(pgn_result result) {
    switch (result) {
    case PGN_RESULT_WHITE_WINS: return "1-0";
    case PGN_RESULT_BLACK_WINS: return "0-1";
    case PGN_RESULT_DRAW: return "1/2-1/2";
    case PGN_RESULT_NONE:
    case PGN_RESULT_UNKNOWN:
    default: return "*";
    }
}

pgn_result pgn_result_parse(const char *text_, size_t len) {
    static const pgn_result all[] = {PGN_RESULT_WHITE_WINS, PGN_RESULT_BLACK_WINS, PGN_RESULT_DRAW,
                                     PGN_RESULT_UNKNOWN};
    size_t i;
    if (text_ == NULL) {
        return PGN_RESULT_NONE;
    }
    for (i = 0; i < sizeof all / sizeof all[0]; i++) {
        const char *s = pgn_result_str(all[i]);
        if (strlen(s) == len && memcmp(s, text_, len) == 0) {
            return all[i];
        }
    }
    return PGN_RESULT_NONE;
}

/* ---- life cycle ---- */

static void game_clear(pgn_game *g) {
    g->tags = NULL;
    g->tag_count = 0;
    g->tag_cap = 0;
    g->index = NULL;
    g->index_cap = 0;
    pgn_pos_init(&g->start);
    g->result = PGN_RESULT_NONE;
    memset(&g->rec, 0, sizeof g->rec);
    g->rec.marker = PGN_RESULT_NONE;
    memset(&g->root, 0, sizeof g->root);
    g->rootp = &g->root;
    g->san_complete = 1;
    g->line_len = 0; /* (the block is kept for the next game) */
}

pgn_status pgn_game_new(pgn_game **out, const pgn_allocator *alloc) {
    pgn_game *g;
    assert(out != NULL);
    *out = NULL;
    pgn_status st;
    g = pgnk_alloc_object(alloc, sizeof *g, &st);
    if (g == NULL) {
        return st;
    }
    pgnk_arena_init(&g->arena, alloc);
    g->line = NULL;
    g->line_cap = 0;
    game_clear(g);
    *out = g;
    return PGN_OK;
}

void pgn_game_free(pgn_game *game) {
    pgn_allocator alloc;
    if (game == NULL) {
        return;
    }
    alloc = game->arena.alloc;
    pgnk_free(&alloc, game->line);
    pgnk_arena_free(&game->arena);
    pgnk_free(&alloc, game);
}

void pgn_game_reset(pgn_game *game) {
    assert(game != NULL);
    pgnk_arena_reset(&game->arena);
    game_clear(game);
}

/* ---- tags ---- */

static pgn_str str_of(game_text t) {
    pgn_str s;
    s.ptr = t.ptr != NULL ? t.ptr : "";
    s.len = t.len;
    return s;
}

static size_t name_hash(const char *s, size_t len) {
    uint32_t h = 2166136261u; /* FNV-1a */
    size_t i;
    for (i = 0; i < len; i++) {
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    }
    return (size_t)h;
}

static int name_equal(game_text name, const char *s, size_t len) {
    return name.len == len && (len == 0 || memcmp(name.ptr, s, len) == 0);
}

static void index_insert(uint32_t *index, size_t cap, const tag_entry *tags, size_t pos) {
    size_t i = name_hash(tags[pos].name.ptr, tags[pos].name.len) & (cap - 1);
    while (index[i] != 0) {
        i = (i + 1) & (cap - 1);
    }
    index[i] = (uint32_t)(pos + 1);
}

static void index_fill(pgn_game *g) {
    size_t i;
    memset(g->index, 0, g->index_cap * sizeof *g->index);
    for (i = 0; i < g->tag_count; i++) {
        index_insert(g->index, g->index_cap, g->tags, i);
    }
}

/* Position of the tag called name, or SIZE_MAX. */
static size_t tag_find(const pgn_game *g, const char *name, size_t len) {
    size_t i;
    if (g->index != NULL) {
        for (i = name_hash(name, len) & (g->index_cap - 1); g->index[i] != 0;
             i = (i + 1) & (g->index_cap - 1)) {
            size_t pos = (size_t)g->index[i] - 1;
            if (name_equal(g->tags[pos].name, name, len)) {
                return pos;
            }
        }
        return SIZE_MAX;
    }
    for (i = 0; i < g->tag_count; i++) {
        if (name_equal(g->tags[i].name, name, len)) {
            return i;
        }
    }
    return SIZE_MAX;
}

/* Room for one more tag in the array and, past TAG_INDEX_MIN, in the index (load <= 1/2). */
static pgn_status tags_reserve(pgn_game *g) {
    size_t need = g->tag_count + 1;
    if (need >= UINT32_MAX / 4) {
        return PGN_E_LIMIT;
    }
    if (need > g->tag_cap) {
        size_t cap = g->tag_cap ? g->tag_cap * 2 : 8;
        tag_entry *t = NULL;
        if (cap <= SIZE_MAX / sizeof *t) {
            t = pgnk_arena_realloc(&g->arena, g->tags, g->tag_cap * sizeof *t, cap * sizeof *t);
        }
        if (t == NULL) {
            return PGN_E_NOMEM;
        }
        g->tags = t;
        g->tag_cap = cap;
    }
    if (need >= TAG_INDEX_MIN && need * 2 > g->index_cap) {
        size_t cap = 64;
        uint32_t *index;
        while (cap < need * 2) {
            cap *= 2;
        }
        index = cap <= SIZE_MAX / sizeof *index ? pgnk_arena_alloc(&g->arena, cap * sizeof *index)
                                                : NULL;
        if (index == NULL) {
            return PGN_E_NOMEM;
        }
        g->index = index;
        g->index_cap = cap;
        index_fill(g);
    }
    return PGN_OK;
}

size_t pgn_game_tag_count(const pgn_game *game) {
    assert(game != NULL);
    return game->tag_count;
}

const pgnk_tag *pgnk_game_tags(const pgn_game *game, size_t *count) {
    *count = game->tag_count;
    return game->tags;
}

pgn_str pgn_game_tag_name(const pgn_game *game, size_t index) {
    assert(game != NULL && index < game->tag_count);
    return str_of(game->tags[index].name);
}

pgn_str pgn_game_tag_value(const pgn_game *game, size_t index) {
    assert(game != NULL && index < game->tag_count);
    return str_of(game->tags[index].value);
}

int pgn_game_tag_get(const pgn_game *game, const char *name, pgn_str *value) {
    size_t pos;
    assert(game != NULL && name != NULL);
    pos = tag_find(game, name, strlen(name));
    if (pos == SIZE_MAX) {
        return 0;
    }
    if (value != NULL) {
        *value = str_of(game->tags[pos].value);
    }
    return 1;
}

static pgn_status tag_append(pgn_game *game, pgn_str name, game_text v);

pgn_status pgn_game_tag_set(pgn_game *game, pgn_str name, pgn_str value) {
    size_t pos;
    game_text v;
    assert(game != NULL && (name.ptr != NULL || name.len == 0));
    assert(value.ptr != NULL || value.len == 0);
    v.len = value.len;
    v.ptr = pgnk_arena_strndup(&game->arena, value.ptr, value.len);
    if (v.ptr == NULL) {
        return PGN_E_NOMEM;
    }
    pos = tag_find(game, name.ptr, name.len);
    if (pos != SIZE_MAX) {
        game->tags[pos].value = v;
        return PGN_OK;
    }
    return tag_append(game, name, v);
}

static pgn_status tag_store(pgn_game *game, game_text n, game_text v);

/* Copies n bytes: a tag's name or value, most of them 16 bytes or fewer, with fixed-size moves
 * that compilers inline instead of a call to memcpy (issue 32: the calls were a third of a tag's
 * cost in the reader's builder). */
static inline void copy_text(char *dst, const char *src, size_t n) {
    if (n > 16) {
        memcpy(dst, src, n);
    } else if (n > 8) {
        memcpy(dst, src, 8);
        memcpy(dst + n - 8, src + n - 8, 8);
    } else if (n > 0) {
        pgnk_copy_short(dst, src, n);
    }
}

/* Name and value in one block of the arena, each NUL-terminated (one allocation per tag: the
 * reader's builder adds a dozen to every game, issue 32). */
pgn_status pgnk_game_tag_add_new(pgn_game *game, pgn_str name, pgn_str value) {
    game_text n, v;
    if (name.len > SIZE_MAX / 2 - 1 || value.len > SIZE_MAX / 2 - 1) {
        return PGN_E_NOMEM;
    }
    char *p = pgnk_arena_alloc_inline(&game->arena, name.len + value.len + 2);
    if (p == NULL) {
        return PGN_E_NOMEM;
    }
    n.ptr = p;
    n.len = name.len;
    v.ptr = p + name.len + 1;
    v.len = value.len;
    copy_text(n.ptr, name.ptr, name.len);
    copy_text(v.ptr, value.ptr, value.len);
    n.ptr[n.len] = '\0';
    v.ptr[v.len] = '\0';
    if (game->tag_count + 1 <= game->tag_cap && game->tag_count + 1 < TAG_INDEX_MIN &&
        game->index == NULL) { /* room, and no index yet: tag_store's work is the two stores */
        game->tags[game->tag_count].name = n;
        game->tags[game->tag_count].value = v;
        game->tag_count++;
        return PGN_OK;
    }
    return tag_store(game, n, v);
}

/* Appends a tag the game does not have, its value v already copied. */
static pgn_status tag_append(pgn_game *game, pgn_str name, game_text v) {
    game_text n;
    n.len = name.len;
    n.ptr = pgnk_arena_strndup(&game->arena, name.ptr, name.len);
    if (n.ptr == NULL) {
        return PGN_E_NOMEM;
    }
    return tag_store(game, n, v);
}

/* Appends the tag n = v, both already copied, the game not having n. */
static pgn_status tag_store(pgn_game *game, game_text n, game_text v) {
    pgn_status st = tags_reserve(game);
    if (st != PGN_OK) {
        return st;
    }
    game->tags[game->tag_count].name = n;
    game->tags[game->tag_count].value = v;
    if (game->index != NULL) {
        index_insert(game->index, game->index_cap, game->tags, game->tag_count);
    }
    game->tag_count++;
    return PGN_OK;
}

int pgn_game_tag_remove(pgn_game *game, const char *name) {
    size_t pos;
    assert(game != NULL && name != NULL);
    pos = tag_find(game, name, strlen(name));
    if (pos == SIZE_MAX) {
        return 0;
    }
    memmove(game->tags + pos, game->tags + pos + 1,
            (game->tag_count - pos - 1) * sizeof *game->tags);
    game->tag_count--;
    if (game->index != NULL) {
        index_fill(game); /* positions after pos moved down by one */
    }
    return 1;
}

/* ---- start position and result ---- */

const pgn_pos *pgn_game_start(const pgn_game *game) {
    assert(game != NULL);
    return &game->start;
}

void pgn_game_set_start(pgn_game *game, const pgn_pos *start) {
    assert(game != NULL && start != NULL);
    game->start = *start;
    if (game->root.child != NULL) {
        game->san_complete = 0; /* the SAN kept in the nodes may no longer fit */
    }
}

pgn_str pgn_node_san(const pgn_node *node) {
    pgn_str s;
    assert(node != NULL);
    s.ptr = node->san;
    s.len = node->san_len;
    return s;
}

int pgn_game_san_complete(const pgn_game *game) {
    assert(game != NULL);
    return game->san_complete;
}

pgn_result pgn_game_result(const pgn_game *game) {
    assert(game != NULL);
    return game->result;
}

void pgn_game_set_result(pgn_game *game, pgn_result result) {
    assert(game != NULL);
    game->result = result;
}

pgn_result pgn_game_marker(const pgn_game *game) {
    assert(game != NULL);
    return game->rec.marker;
}

void pgn_game_set_marker(pgn_game *game, pgn_result marker) {
    assert(game != NULL);
    game->rec.marker = marker;
}

game_record *pgnk_game_record(pgn_game *game) {
    return &game->rec;
}

const game_record *pgnk_game_record_const(const pgn_game *game) {
    return &game->rec;
}

/* ---- the move tree ---- */

pgn_node *pgn_game_root(const pgn_game *game) {
    assert(game != NULL);
    return game->rootp;
}

pgn_node *pgn_node_parent(const pgn_node *node) {
    assert(node != NULL);
    return node->parent;
}

pgn_node *pgn_node_child(const pgn_node *node) {
    assert(node != NULL);
    return node->child;
}

pgn_node *pgn_node_sibling(const pgn_node *node) {
    assert(node != NULL);
    return node->sibling;
}

pgn_move pgn_node_move(const pgn_node *node) {
    assert(node != NULL);
    return node->move;
}

pgn_str pgn_node_comment(const pgn_node *node) {
    assert(node != NULL);
    return str_of(node->post);
}

pgn_str pgn_node_pre_comment(const pgn_node *node) {
    assert(node != NULL);
    return str_of(node->pre);
}

size_t pgn_node_nag_count(const pgn_node *node) {
    assert(node != NULL);
    return node->nag_count;
}

unsigned pgn_node_nag(const pgn_node *node, size_t index) {
    assert(node != NULL && index < node->nag_count);
    return node->nags[index];
}

pgn_loc pgn_node_loc(const pgn_node *node) {
    assert(node != NULL);
    return node->loc;
}

size_t pgn_game_ply_count(const pgn_game *game) {
    size_t n = 0;
    const pgn_node *node;
    assert(game != NULL);
    for (node = game->root.child; node != NULL; node = node->child) {
        n++;
    }
    return n;
}

pgn_status pgn_node_add(pgn_game *game, pgn_node *parent, pgn_move mv, pgn_loc at, pgn_node **out) {
    return pgnk_game_node_add_san(game, parent, mv, at, NULL, 0, out);
}

pgn_status pgnk_game_node_add_san(pgn_game *game, pgn_node *parent, pgn_move mv, pgn_loc at,
                                  const char *san, size_t san_len, pgn_node **out) {
    pgn_node *node;
    assert(game != NULL && parent != NULL);
    if (san != NULL && san_len > 0 && san_len < sizeof node->san) {
        node = pgnk_node_add_kept(&game->arena, parent, mv, at, san, san_len);
    } else {
        node = pgnk_arena_alloc_inline(&game->arena, sizeof *node);
        if (node != NULL) {
            pgnk_node_link(node, parent, mv, at);
            game->san_complete = 0;
        }
    }
    if (node == NULL) {
        return PGN_E_NOMEM;
    }
    if (out != NULL) {
        *out = node;
    }
    return PGN_OK;
}

/* Appends t to *dst, joined with one space; grows in place when *dst was the latest allocation. */
static pgn_status text_append(pgn_game *game, game_text *dst, pgn_str t) {
    char *p;
    size_t len;
    if (t.len == 0) {
        return PGN_OK;
    }
    if (dst->len == 0) {
        p = pgnk_arena_strndup(&game->arena, t.ptr, t.len);
        len = t.len;
    } else {
        if (dst->len > SIZE_MAX - 2 || t.len > SIZE_MAX - 2 - dst->len) {
            return PGN_E_NOMEM;
        }
        len = dst->len + 1 + t.len;
        p = pgnk_arena_realloc(&game->arena, dst->ptr, dst->len + 1, len + 1);
        if (p != NULL) {
            p[dst->len] = ' ';
            memcpy(p + dst->len + 1, t.ptr, t.len);
            p[len] = '\0';
        }
    }
    if (p == NULL) {
        return PGN_E_NOMEM;
    }
    dst->ptr = p;
    dst->len = len;
    return PGN_OK;
}

pgn_status pgn_node_append_comment(pgn_game *game, pgn_node *node, pgn_str text_) {
    assert(game != NULL && node != NULL && (text_.ptr != NULL || text_.len == 0));
    return text_append(game, &node->post, text_);
}

pgn_status pgn_node_append_pre_comment(pgn_game *game, pgn_node *node, pgn_str text_) {
    assert(game != NULL && node != NULL && (text_.ptr != NULL || text_.len == 0));
    return text_append(game, &node->pre, text_);
}

/* Sets *dst to a copy of text_ in the game's arena; *dst unchanged when out of memory. */
static pgn_status text_set(pgn_game *game, game_text *dst, pgn_str text_) {
    game_text t = {NULL, 0};
    pgn_status st = text_append(game, &t, text_);
    if (st == PGN_OK) {
        *dst = t;
    }
    return st;
}

pgn_status pgn_node_set_comment(pgn_game *game, pgn_node *node, pgn_str text_) {
    assert(game != NULL && node != NULL && (text_.ptr != NULL || text_.len == 0));
    return text_set(game, &node->post, text_);
}

pgn_status pgn_node_add_nag(pgn_game *game, pgn_node *node, unsigned nag) {
    size_t i;
    assert(game != NULL && node != NULL);
    if (nag > 255) {
        return PGN_E_LIMIT;
    }
    for (i = 0; i < node->nag_count; i++) {
        if (node->nags[i] == nag) {
            return PGN_OK;
        }
    }
    if (node->nag_count == node->nag_cap) {
        /* at most 256 distinct values, so the capacity stops at 256 */
        size_t cap = node->nag_cap ? (size_t)node->nag_cap * 2 : 4;
        uint8_t *p = pgnk_arena_realloc(&game->arena, node->nags, node->nag_cap, cap);
        if (p == NULL) {
            return PGN_E_NOMEM;
        }
        node->nags = p;
        node->nag_cap = (uint16_t)cap;
    }
    node->nags[node->nag_count++] = (uint8_t)nag;
    return PGN_OK;
}

void pgn_node_clear_nags(pgn_node *node) {
    assert(node != NULL);
    node->nag_count = 0;
}

pgn_status pgn_node_set_pre_comment(pgn_game *game, pgn_node *node, pgn_str text_) {
    assert(game != NULL && node != NULL && (text_.ptr != NULL || text_.len == 0));
    return text_set(game, &node->pre, text_);
}

void pgn_node_remove(pgn_node *node) {
    pgn_node *parent, **link, *prev = NULL;
    assert(node != NULL && node->parent != NULL);
    parent = node->parent;
    for (link = &parent->child; *link != node; link = &(*link)->sibling) {
        prev = *link;
    }
    *link = node->sibling;
    if (parent->last_child == node) {
        parent->last_child = prev;
    }
    node->sibling = NULL;
    node->parent = NULL;
}

/* ---- the packed main line (issue 32) ---- */

const pgnk_packed *pgnk_game_line(const pgn_game *game, size_t *count) {
    *count = game->line_len;
    return game->line;
}

pgnk_packed *pgnk_game_line_room(pgn_game *game, size_t need, size_t *cap) {
    void *p = game->line;
    if (need > game->line_cap &&
        !pgnk_grow(&game->arena.alloc, &p, &game->line_cap, need, sizeof *game->line, 256)) {
        return NULL;
    }
    game->line = p;
    *cap = game->line_cap;
    return game->line;
}

void pgnk_game_line_set(pgn_game *game, size_t count) {
    game->line_len = count;
}

pgn_status pgnk_game_unpack(pgn_game *game, size_t count, pgn_node **last) {
    pgn_node *n = &game->root;
    size_t i;
    game->line_len = 0;
    for (i = 0; i < count; i++) {
        const pgnk_packed *e = &game->line[i];
        n = pgnk_node_add_kept(&game->arena, n, e->mv, e->at, e->san, e->san_len);
        if (n == NULL) {
            return PGN_E_NOMEM;
        }
    }
    *last = n;
    return PGN_OK;
}

arena *pgnk_game_arena(pgn_game *game) {
    assert(game != NULL);
    return &game->arena;
}

void pgn_game_tags_clear(pgn_game *game) {
    assert(game != NULL);
    game->tag_count = 0;
    if (game->index != NULL) {
        memset(game->index, 0, game->index_cap * sizeof *game->index);
    }
}
