/* SPDX-License-Identifier: MIT */
/* The game-tree builder: an internal visitor (as in python-chess) that turns the reader's events
 * into a pgn_game. A comment before any move of the game is the game comment (root); before the
 * first move of a variation it is that move's pre-comment; otherwise it follows the last move. */
#include "parse.h"

#include "../game/game_internal.h"

#include <stdlib.h>
#include <string.h>

static pgn_flow fail(builder *b, pgn_status st) {
    b->status = st;
    return PGN_FLOW_STOP;
}

static pgn_node **top(builder *b) {
    return &b->stack[b->depth - 1];
}

static int push(builder *b, pgn_node *n) {
    void *s = b->stack;
    if (b->depth == b->cap &&
        !pgnk_grow(b->alloc, &s, &b->cap, b->depth + 1, sizeof *b->stack, 16)) {
        return 0;
    }
    b->stack = s;
    b->stack[b->depth++] = n;
    return 1;
}

#define POOL_NODES 32 /* at most, the rest of the arena's chunk */

/* The builder's next block of nodes from the game's arena: the first of them, b->pool past it;
 * NULL when out of memory. */
static pgn_node *next_pool(builder *b) {
    size_t count;
    pgn_node *n = pgnk_arena_alloc_some(b->arena, sizeof *n, POOL_NODES, &count);
    b->pool = n;
    b->pool_end = n != NULL ? n + count : NULL;
    return n;
}

/* The packed moves made nodes (the game is no longer a plain main line); 0 when out of memory. */
static int unpack(builder *b) {
    pgn_node *last;
    size_t count = (size_t)(b->pk - b->pk_base);
    b->packing = 0;
    b->pk_base = b->pk = b->pk_end = NULL;
    if (pgnk_game_unpack(b->game, count, &last) != PGN_OK) {
        return 0;
    }
    if (count > 0) {
        *top(b) = last;
        b->fresh = 0;
    }
    return 1;
}

/* One more packed move (its SAN canonical, 1 to 7 bytes), the block grown when full. */
static pgn_flow pack_move(builder *b, pgn_move mv, pgn_str san, pgn_loc at) {
    if (b->pk == b->pk_end) {
        size_t n = (size_t)(b->pk - b->pk_base), cap;
        pgnk_packed *base = pgnk_game_line_room(b->game, n + 1, &cap);
        if (base == NULL) {
            return fail(b, PGN_E_NOMEM);
        }
        b->pk_base = base;
        b->pk = base + n;
        b->pk_end = base + cap;
    }
    return pgnk_builder_move_read(b, mv, san, at); /* (room now) */
}

pgn_flow pgnk_builder_move_slow(void *user, pgn_move mv, pgn_str san, pgn_loc at) {
    builder *b = user;
    if (b->packing) {
        if (san.len - 1 < 7) {
            return pack_move(b, mv, san, at);
        }
        if (!unpack(b)) {
            return fail(b, PGN_E_NOMEM);
        }
    }
    if (san.len - 1 >= 7 || b->pending_len != 0) {
        return pgnk_builder_move(user, mv, san, san.len <= 7, at);
    }
    if (next_pool(b) == NULL) {
        return fail(b, PGN_E_NOMEM);
    }
    return pgnk_builder_move_read(user, mv, san, at); /* (the block is not empty) */
}

static pgn_flow on_begin(void *user, pgn_loc at) {
    builder *b = user;
    (void)at;
    b->pool = b->pool_end = NULL; /* (the arena may have been reset) */
    b->depth = 0;
    b->fresh = 1;
    b->arena = pgnk_game_arena(b->game);
    b->pending_len = 0;
    b->packing = b->pack_ok;
    if (b->packing) { /* (the game was reset: no packed move yet) */
        size_t cap;
        b->pk_base = b->pk = pgnk_game_line_room(b->game, 0, &cap);
        b->pk_end = b->pk != NULL ? b->pk + cap : NULL;
    }
    return push(b, pgn_game_root(b->game)) ? PGN_FLOW_CONTINUE : fail(b, PGN_E_NOMEM);
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    builder *b = user;
    pgn_status st = b->reader && b->reader->tag_fresh ? pgnk_game_tag_add_new(b->game, name, value)
                                                      : pgn_game_tag_set(b->game, name, value);
    return st == PGN_OK ? PGN_FLOW_CONTINUE : fail(b, st);
}

static pgn_flow on_end_tags(void *user, const pgn_pos *start) {
    builder *b = user;
    if (start) {
        pgn_game_set_start(b->game, start);
    }
    return PGN_FLOW_CONTINUE;
}

pgn_flow pgnk_builder_move(void *user, pgn_move mv, pgn_str san, int canonical, pgn_loc at) {
    builder *b = user;
    pgn_node *n;
    if (b->packing) {
        if (canonical && san.len - 1 < 7) {
            return pack_move(b, mv, san, at);
        }
        if (!unpack(b)) {
            return fail(b, PGN_E_NOMEM);
        }
    }
    if (canonical && san.len > 0 && san.len < sizeof n->san) { /* the common move */
        n = pgnk_node_add_kept(b->arena, *top(b), mv, at, san.ptr, san.len);
        if (n == NULL) {
            return fail(b, PGN_E_NOMEM);
        }
    } else if (pgnk_game_node_add_san(b->game, *top(b), mv, at, NULL, 0, &n) != PGN_OK) {
        return fail(b, PGN_E_NOMEM);
    }
    if (b->pending_len) {
        pgn_str text = {b->pending, b->pending_len};
        if (pgn_node_append_pre_comment(b->game, n, text) != PGN_OK) {
            return fail(b, PGN_E_NOMEM);
        }
        b->pending_len = 0;
    }
    *top(b) = n;
    b->fresh = 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    const builder *b = user;
    (void)before;
    return pgnk_builder_move(user, mv, san, b->reader && b->reader->san_canonical, at);
}

static pgn_str trimmed(pgn_str s) {
    while (s.len && (s.ptr[0] == ' ' || s.ptr[0] == '\t' || s.ptr[0] == '\n' || s.ptr[0] == '\r')) {
        s.ptr++;
        s.len--;
    }
    while (s.len && (s.ptr[s.len - 1] == ' ' || s.ptr[s.len - 1] == '\t' ||
                     s.ptr[s.len - 1] == '\n' || s.ptr[s.len - 1] == '\r')) {
        s.len--;
    }
    return s;
}

static pgn_flow on_comment(void *user, pgn_str text) {
    builder *b = user;
    if (b->packing && !unpack(b)) {
        return fail(b, PGN_E_NOMEM);
    }
    pgn_node *n = *top(b);
    text = trimmed(text);
    if (b->fresh && b->depth > 1) {
        /* before the first move of a variation: kept until that move exists */
        size_t need = b->pending_len + text.len + 2;
        void *p = b->pending;
        if (need > b->pending_cap && !pgnk_grow(b->alloc, &p, &b->pending_cap, need, 1, need * 2)) {
            return fail(b, PGN_E_NOMEM);
        }
        b->pending = p;
        if (b->pending_len && text.len) {
            b->pending[b->pending_len++] = ' ';
        }
        memcpy(b->pending + b->pending_len, text.ptr, text.len);
        b->pending_len += text.len;
        return PGN_FLOW_CONTINUE;
    }
    return pgn_node_append_comment(b->game, n, text) == PGN_OK ? PGN_FLOW_CONTINUE
                                                               : fail(b, PGN_E_NOMEM);
}

static pgn_flow on_nag(void *user, unsigned nag) {
    builder *b = user;
    if (b->packing && !unpack(b)) {
        return fail(b, PGN_E_NOMEM);
    }
    return pgn_node_add_nag(b->game, *top(b), nag) == PGN_OK ? PGN_FLOW_CONTINUE
                                                             : fail(b, PGN_E_NOMEM);
}

static pgn_flow on_begin_variation(void *user) {
    builder *b = user;
    if (b->packing && !unpack(b)) {
        return fail(b, PGN_E_NOMEM);
    }
    pgn_node *cur = *top(b);
    b->fresh = 1;
    return push(b, pgn_node_parent(cur)) ? PGN_FLOW_CONTINUE : fail(b, PGN_E_NOMEM);
}

static pgn_flow on_end_variation(void *user) {
    builder *b = user;
    if (b->depth > 1) {
        b->depth--;
    }
    if (b->pending_len) {
        /* a variation with a comment but no move: the comment is not lost */
        pgn_str text = {b->pending, b->pending_len};
        b->pending_len = 0;
        if (pgn_node_append_comment(b->game, *top(b), text) != PGN_OK) {
            return fail(b, PGN_E_NOMEM);
        }
    }
    b->fresh = 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end_game(void *user, pgn_result result, const pgn_game_summary *summary) {
    builder *b = user;
    pgn_game_set_result(b->game, result);
    pgn_game_set_marker(b->game, summary->marker);
    pgn_game_set_broken(b->game, summary->broken);
    return PGN_FLOW_CONTINUE;
}

void pgnk_builder_start(builder *b, pgn_reader *r, pgn_game *game) {
    memset(b, 0, sizeof *b);
    b->game = game;
    b->alloc = r->opts.alloc;
    b->reader = r;
    b->pack_ok = (r->opts.flags & PGN_READ_PACK_LINE) != 0;
    b->stack = r->build_stack;
    b->cap = r->build_cap;
    b->pending = r->build_pending;
    b->pending_cap = r->build_pending_cap;
}

void pgnk_builder_finish(builder *b, pgn_reader *r) {
    if (b->packing) {
        pgnk_game_line_set(b->game, (size_t)(b->pk - b->pk_base));
    }
    r->build_stack = b->stack;
    r->build_cap = b->cap;
    r->build_pending = b->pending;
    r->build_pending_cap = b->pending_cap;
}

const pgn_visitor pgnk_builder_visitor = {on_begin,   on_tag, on_end_tags,        on_move,
                                          on_comment, on_nag, on_begin_variation, on_end_variation,
                                          on_end_game};
