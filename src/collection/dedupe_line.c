/* SPDX-License-Identifier: MIT */
/* A game's line as a byte record (include/pgnkit/collection.h, pgn_dedupe_line): built by a
 * visitor as the reader plays the main line (no tree: that halved pgnkit dedupe's time, the tree
 * and the second parse of every duplicate were most of it) or from a tree; two records are equal
 * exactly when pgn_game_same_line holds, so a duplicate is confirmed by comparing bytes. */
#include "../base/alloc.h"
#include "pgnkit/collection.h"

#include <assert.h>
#include <string.h>

static const char *const TAGS[4] = {"White", "Black", "Date", "Result"};

/* The record's head: board, side, castling rights, identity key; then the plies. */
#define HEAD (64 + 1 + 8 + 8)

struct pgn_dedupe_line {
    pgn_allocator alloc;
    uint32_t flags;
    unsigned depth; /* of variations */
    uint64_t key;   /* pgn_line_key_* */
    uint32_t plies;
    pgn_pos start; /* the last start position (as the reader gave it), its identity and line keys:
                      most games start where the one before did */
    uint64_t start_id, start_key;
    int have_start, nomem;
    pgnk_buf rec;
    char tags[4][PGN_DEDUPE_TAG_MAX];
    size_t tag_len[4];
};

pgn_status pgn_dedupe_line_new(pgn_dedupe_line **out, uint32_t flags, const pgn_allocator *alloc) {
    pgn_status st;
    pgn_dedupe_line *l = pgnk_alloc_object(alloc, sizeof *l, &st);
    assert(out);
    if (!l) {
        return st;
    }
    pgnk_alloc_copy(&l->alloc, alloc);
    l->flags = flags;
    *out = l;
    return PGN_OK;
}

void pgn_dedupe_line_free(pgn_dedupe_line *line) {
    if (line) {
        pgn_allocator alloc = line->alloc;
        pgnk_buf_free(&line->rec, &alloc);
        pgnk_free(&alloc, line);
    }
}

/* Appends n bytes to the record; 0 when out of memory (then remembered). */
static int put(pgn_dedupe_line *l, const void *p, size_t n) {
    if (!pgnk_buf_reserve(&l->rec, &l->alloc, n)) {
        l->nomem = 1;
        return 0;
    }
    memcpy(l->rec.ptr + l->rec.len, p, n);
    l->rec.len += n;
    return 1;
}

static void begin(pgn_dedupe_line *l) {
    static const pgn_str empty = {"", 0};
    l->depth = 0;
    l->plies = 0;
    l->rec.len = 0;
    l->nomem = 0;
    for (unsigned i = 0; i < 4; i++) {
        l->tag_len[i] = pgn_dedupe_norm_tag(i, empty, l->tags[i], PGN_DEDUPE_TAG_MAX);
    }
}

/* The last value of a tag wins, as in the game tree (pgn_game_tag_set). Kept without
 * PGN_DEDUPE_TAGS too: a game without moves is compared with its tags (pgn_game_same_line). */
static void tag(pgn_dedupe_line *l, pgn_str name, pgn_str value) {
    for (unsigned i = 0; i < 4; i++) {
        if (name.len == strlen(TAGS[i]) && memcmp(name.ptr, TAGS[i], name.len) == 0) {
            l->tag_len[i] = pgn_dedupe_norm_tag(i, value, l->tags[i], PGN_DEDUPE_TAG_MAX);
        }
    }
}

/* The record's head: the start position as pgn_game_same_line compares it, and room for the
 * number of plies. */
static void head(pgn_dedupe_line *l, const pgn_pos *start) {
    pgn_pos p;
    memset(&p, 0, sizeof p);
    if (start) {
        p = *start;
    }
    if (!l->have_start || memcmp(&p, &l->start, sizeof p) != 0) { /* else as the last game's */
        l->start = p;
        l->have_start = 1;
        p.key = pgn_pos_compute_key(&p);
        l->start_id = pgn_pos_identity_key(&p);
        l->start_key = pgn_line_key_start(&p);
    }
    uint64_t id = l->start_id;
    l->key = l->start_key;
    put(l, p.board, sizeof p.board);
    put(l, &p.side, 1);
    put(l, &p.castle, sizeof p.castle);
    put(l, &id, sizeof id);
    put(l, &l->plies, sizeof l->plies);
}

static int move(pgn_dedupe_line *l, pgn_move mv) {
    l->key = pgn_line_key_move(l->key, mv);
    l->plies++;
    if (l->rec.len + sizeof mv <= l->rec.cap) { /* put's common case, inline */
        memcpy(l->rec.ptr + l->rec.len, &mv, sizeof mv);
        l->rec.len += sizeof mv;
        return 1;
    }
    return put(l, &mv, sizeof mv);
}

static pgn_flow on_begin(void *user, pgn_loc at) {
    (void)at;
    begin(user);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    tag(user, name, value);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end_tags(void *user, const pgn_pos *start) {
    pgn_dedupe_line *l = user;
    head(l, start);
    return l->nomem ? PGN_FLOW_STOP : PGN_FLOW_CONTINUE;
}

static pgn_flow on_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    pgn_dedupe_line *l = user;
    (void)before;
    (void)san;
    (void)at;
    if (l->depth != 0) {
        return PGN_FLOW_CONTINUE;
    }
    return move(l, mv) ? PGN_FLOW_CONTINUE : PGN_FLOW_STOP;
}

static pgn_flow on_begin_variation(void *user) {
    ((pgn_dedupe_line *)user)->depth++;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end_variation(void *user) {
    ((pgn_dedupe_line *)user)->depth--;
    return PGN_FLOW_CONTINUE;
}

/* Taken and dropped: a comment is decoded only for a visitor that takes it, and its encoding
 * warnings are to be the same as when the game is built. */
static pgn_flow on_comment(void *user, pgn_str text) {
    (void)user;
    (void)text;
    return PGN_FLOW_CONTINUE;
}

const pgn_visitor *pgn_dedupe_line_visitor(void) {
    static const pgn_visitor v = {on_begin,   on_tag, on_end_tags,        on_move,
                                  on_comment, NULL,   on_begin_variation, on_end_variation,
                                  NULL};
    return &v;
}

/* Ends the record: the number of plies in its head, then the tags. */
pgn_status pgn_dedupe_line_finish(pgn_dedupe_line *l, uint64_t *key, pgn_str *record) {
    pgn_str tags[4];
    assert(l && key && record);
    if (l->nomem || l->rec.len < HEAD + sizeof l->plies) {
        return PGN_E_NOMEM;
    }
    memcpy(l->rec.ptr + HEAD, &l->plies, sizeof l->plies);
    int use = (l->flags & PGN_DEDUPE_TAGS) || l->plies == 0; /* as pgn_game_same_line */
    for (unsigned i = 0; use && i < 4; i++) {
        uint16_t n = (uint16_t)l->tag_len[i];
        tags[i].ptr = l->tags[i];
        tags[i].len = l->tag_len[i];
        put(l, &n, sizeof n);
        put(l, l->tags[i], n);
    }
    if (l->nomem) {
        return PGN_E_NOMEM;
    }
    *key = pgn_line_key_finish(l->key, l->plies, use ? tags : NULL);
    record->ptr = l->rec.ptr;
    record->len = l->rec.len;
    return PGN_OK;
}

pgn_status pgn_dedupe_line_from_game(pgn_dedupe_line *l, const pgn_game *game, uint64_t *key,
                                     pgn_str *record) {
    assert(l && game);
    begin(l);
    for (unsigned i = 0; i < 4; i++) {
        pgn_str value;
        if (pgn_game_tag_get(game, TAGS[i], &value)) {
            l->tag_len[i] = pgn_dedupe_norm_tag(i, value, l->tags[i], PGN_DEDUPE_TAG_MAX);
        }
    }
    head(l, pgn_game_start(game));
    for (const pgn_node *n = pgn_node_child(pgn_game_root(game)); n; n = pgn_node_child(n)) {
        if (!move(l, pgn_node_move(n))) {
            break;
        }
    }
    return pgn_dedupe_line_finish(l, key, record);
}
