/* SPDX-License-Identifier: MIT */
/* What the game layer offers the layers above it beyond the public API. Internal header. */
#ifndef PGNKIT_GAME_INTERNAL_H
#define PGNKIT_GAME_INTERNAL_H

#include "pgnkit/game.h"

#include <string.h>

#include "arena.h"

/* A copied, NUL-terminated string; ptr is NULL when empty. */
typedef struct game_text {
    char *ptr;
    size_t len;
} game_text;

/* The node, visible to the layers above for their hot loops (the export writer reads a node's
 * fields directly instead of through one call per field); everything else uses the API. */
struct pgn_node {
    pgn_node *parent;
    pgn_node *child;      /* the main continuation (first child) */
    pgn_node *sibling;    /* the next alternative to this node's move */
    pgn_node *last_child; /* so that pgn_node_add appends in O(1) */
    game_text pre, post;  /* comment before the move, comment after it */
    uint8_t *nags;        /* from the arena, input order, no duplicates */
    uint16_t nag_count, nag_cap;
    pgn_move move;
    uint8_t san_len; /* 0: no SAN kept */
    char san[8];     /* the SAN as read (at most 7 bytes), when the reader found it canonical
                      * (STYLE: reuse); 8 so that writers may copy it in one 8-byte move */
    pgn_loc loc;
};

/* pgn_node_add, keeping san[0..san_len) as the move's SAN (the caller vouches that it is the
 * canonical SAN of mv in the position before it; at most 7 bytes); NULL: none kept, and the game
 * is no longer pgn_game_san_complete. For the reader's tree builder, so that the export writer
 * need not replay the game. */
pgn_status pgnk_game_node_add_san(pgn_game *game, pgn_node *parent, pgn_move mv, pgn_loc at,
                                  const char *san, size_t san_len, pgn_node **out);

/* Copies n bytes (1 to 8) with fixed-size moves that compilers inline: a move's SAN, once per
 * move, where a call to memcpy cost more than the copy. */
static inline void pgnk_copy_short(char *dst, const char *src, size_t n) {
    if (n >= 4) {
        memcpy(dst, src, 4);
        memcpy(dst + n - 4, src + n - 4, 4);
    } else if (n >= 2) { /* two overlapping 2-byte moves: no division, one store fewer */
        memcpy(dst, src, 2);
        memcpy(dst + n - 2, src + n - 2, 2);
    } else {
        dst[0] = src[0];
    }
}

/* A fresh node (its memory from the game's arena) for move mv made the last child of parent. */
static inline void pgnk_node_link(pgn_node *node, pgn_node *parent, pgn_move mv, pgn_loc at) {
    /* field by field, not memset: compilers made the memset a "rep stos", whose start-up cost
     * was a third of a node's time (issue 32) */
    static const game_text none = {NULL, 0};
    node->parent = parent;
    node->child = NULL;
    node->sibling = NULL;
    node->last_child = NULL;
    node->pre = none;
    node->post = none;
    node->nags = NULL;
    node->nag_count = 0;
    node->nag_cap = 0;
    node->move = mv;
    node->san_len = 0;
    memset(node->san, 0, sizeof node->san); /* one 8-byte store */
    node->loc = at;
    if (parent->child == NULL) {
        parent->child = node;
    } else {
        parent->last_child->sibling = node;
    }
    parent->last_child = node;
}

/* pgnk_game_node_add_san when the SAN is kept (1 to 7 bytes), inline for the reader's tree
 * builder (issue 32: the call and the arena's call were a third of the cost of a node); a is the
 * game's arena (pgnk_game_arena). The node, or NULL when out of memory. */
static inline pgn_node *pgnk_node_add_kept(arena *a, pgn_node *parent, pgn_move mv, pgn_loc at,
                                           const char *san, size_t san_len) {
    pgn_node *node = pgnk_arena_alloc_inline(a, sizeof *node);
    if (node != NULL) {
        pgnk_node_link(node, parent, mv, at);
        pgnk_copy_short(node->san, san, san_len);
        node->san_len = (uint8_t)san_len;
    }
    return node;
}

/* A move of a packed main line (PGN_READ_PACK_LINE): what its node would hold, its SAN kept. */
typedef struct pgnk_packed {
    char san[8]; /* the canonical SAN, 1 to 7 bytes (8: one 8-byte move, as pgn_node's) */
    pgn_loc at;
    pgn_move mv;
    uint8_t san_len;
} pgnk_packed;

/* The game's packed main line, *count moves (0: none; the tree then holds the moves), borrowed
 * until the game changes. A game read under PGN_READ_PACK_LINE holds either. */
const pgnk_packed *pgnk_game_line(const pgn_game *game, size_t *count);
/* Room for at least need packed moves (the block kept from game to game): the block and its
 * capacity in *cap, or NULL when out of memory (the block then unchanged). */
pgnk_packed *pgnk_game_line_room(pgn_game *game, size_t need, size_t *cap);
/* The first count moves of the block are the game's packed main line. */
void pgnk_game_line_set(pgn_game *game, size_t count);
/* The block's first count moves made nodes of the main line (the game then packs none), *last the
 * last of them (the root when count is 0); PGN_OK or PGN_E_NOMEM. */
pgn_status pgnk_game_unpack(pgn_game *game, size_t count, pgn_node **last);

/* pgn_game_tag_set for a name the caller knows the game does not have yet (the reader's builder:
 * the reader tracks the names it has seen), without looking for it. */
pgn_status pgnk_game_tag_add_new(pgn_game *game, pgn_str name, pgn_str value);

/* A tag pair as the game keeps it: name and value each NUL-terminated, ptr NULL when empty. */
typedef struct pgnk_tag {
    game_text name, value;
} pgnk_tag;

/* The game's tags in their order, *count of them, borrowed until the game changes: one call for
 * the export writer's tag section instead of two per tag. */
const pgnk_tag *pgnk_game_tags(const pgn_game *game, size_t *count);

/* One open variation of a pgn_iter walk. */
typedef struct pgnk_iter_frame {
    pgn_node *main;     /* the move whose alternatives these are */
    pgn_node *alt;      /* the alternative being walked */
    pgn_node *next_alt; /* the next one, or NULL */
    size_t ply;         /* plies before main's move */
    uint32_t fullmove;  /* and the move number and side to move there */
    uint8_t side;
    pgn_pos before; /* PGN_ITER_BOARD: the position before main's move */
} pgnk_iter_frame;

/* The iterator, visible to the writers for their hot loops (they read node and ply directly). */
struct pgn_iter {
    pgn_allocator alloc;
    const pgn_game *game;
    pgn_node *root;
    pgn_node *node;   /* the node of the current event */
    size_t ply;       /* plies before the current position */
    uint32_t flags;   /* PGN_ITER_* */
    uint8_t event;    /* the current event; 0 before the first */
    uint8_t side;     /* the side to move and the move number of the current position */
    uint8_t cur;      /* board: pos[cur] is the current position */
    uint8_t after_ok; /* board: pos[!cur] is the position after node's move */
    uint32_t fullmove;
    pgn_pos pos[2];
    pgnk_iter_frame *stack;
    size_t depth, cap;
};

/* Opens the variations of the current node; PGN_OK or PGN_E_NOMEM. */
pgn_status pgnk_iter_push(pgn_iter *it);

/* Whether the walk opens variations after n's move: n is a main move with alternatives. */
static inline int pgnk_iter_node_has_variations(const pgn_iter *it, const pgn_node *n) {
    return n->sibling != NULL && n->parent->child == n && !(it->flags & PGN_ITER_MAIN_LINE);
}

static inline int pgnk_iter_has_variations(const pgn_iter *it) {
    return it->event == PGN_ITER_MOVE_ENTER && pgnk_iter_node_has_variations(it, it->node);
}

/* Past the current node's move: ply and board. */
static inline void pgnk_iter_advance_(pgn_iter *it) {
    it->ply++;
    if (!(it->flags & PGN_ITER_BOARD)) {
        it->fullmove += it->side; /* PGN_BLACK is 1 */
        it->side = (uint8_t)!it->side;
        return;
    }
    if (it->after_ok) {
        it->cur = (uint8_t)!it->cur;
        it->after_ok = 0;
    } else {
        pgn_pos_play(&it->pos[it->cur], it->node->move);
    }
    it->side = it->pos[it->cur].side;
    it->fullmove = it->pos[it->cur].fullmove;
}

/* From the MOVE_ENTER of the current move down its line, plies moves none of which has variations
 * (pgnk_iter_node_has_variations), to the MOVE_ENTER of node, the last of them: what pgnk_iter_next
 * gives under PGN_ITER_NO_MOVE_LEAVE, without the board (not PGN_ITER_BOARD). For the export
 * writer's run of plain moves (issue 32), which walks the line itself. */
static inline void pgnk_iter_skip_main(pgn_iter *it, pgn_node *node, size_t plies) {
    it->ply += plies;
    /* the moves Black played (PGN_BLACK is 1) */
    it->fullmove += (uint32_t)((it->side + plies) / 2);
    it->side = (uint8_t)((it->side + plies) & 1);
    it->node = node;
}

/* After VARIATION_LEAVE: back to the position before the main move; the next alternative, or
 * the main move's leave. */
static inline pgn_iter_event pgnk_iter_after_variation_(pgn_iter *it) {
    pgnk_iter_frame *f = &it->stack[it->depth - 1];
    if (f->next_alt != NULL) {
        f->alt = f->next_alt;
        f->next_alt = f->alt->sibling;
        it->node = f->alt;
        return PGN_ITER_VARIATION_ENTER;
    }
    it->node = f->main;
    it->depth--;
    return PGN_ITER_MOVE_LEAVE;
}

/* After MOVE_LEAVE: the next move of the line, or the end of the line. */
static inline pgn_iter_event pgnk_iter_after_move_(pgn_iter *it) {
    pgn_node *next = it->node->child;
    pgnk_iter_advance_(it);
    if (next != NULL) {
        it->node = next;
        return PGN_ITER_MOVE_ENTER;
    }
    if (it->depth > 0) { /* back to the position before the variation's first move */
        pgnk_iter_frame *f = &it->stack[it->depth - 1];
        it->node = f->alt;
        it->ply = f->ply;
        it->side = f->side;
        it->fullmove = f->fullmove;
        it->after_ok = 0;
        if (it->flags & PGN_ITER_BOARD) {
            it->pos[it->cur] = f->before;
        }
        return PGN_ITER_VARIATION_LEAVE;
    }
    it->node = it->root;
    return PGN_ITER_GAME_LEAVE;
}

/* pgn_iter_next, inline for the writers' hot loops. */
static inline pgn_status pgnk_iter_next(pgn_iter *it, pgn_iter_event *event) {
    pgn_iter_event ev;
    switch (it->event) {
    case 0: ev = PGN_ITER_GAME_ENTER; break;
    case PGN_ITER_GAME_ENTER:
        it->node = it->node->child;
        ev = it->node != NULL ? PGN_ITER_MOVE_ENTER : PGN_ITER_GAME_LEAVE;
        if (it->node == NULL) {
            it->node = it->root;
        }
        break;
    case PGN_ITER_MOVE_ENTER:
        if (pgnk_iter_has_variations(it)) {
            if (pgnk_iter_push(it) != PGN_OK) {
                return PGN_E_NOMEM;
            }
            it->after_ok = 0; /* the alternative starts from the same position */
            ev = PGN_ITER_VARIATION_ENTER;
        } else if (it->flags & PGN_ITER_NO_MOVE_LEAVE) {
            ev = pgnk_iter_after_move_(it);
        } else {
            ev = PGN_ITER_MOVE_LEAVE;
        }
        break;
    case PGN_ITER_VARIATION_ENTER: ev = PGN_ITER_MOVE_ENTER; break;
    case PGN_ITER_VARIATION_LEAVE:
        ev = pgnk_iter_after_variation_(it);
        if (ev == PGN_ITER_MOVE_LEAVE && (it->flags & PGN_ITER_NO_MOVE_LEAVE)) {
            ev = pgnk_iter_after_move_(it);
        }
        break;
    case PGN_ITER_MOVE_LEAVE: ev = pgnk_iter_after_move_(it); break;
    default: /* PGN_ITER_GAME_LEAVE */ return PGN_END;
    }
    it->event = (uint8_t)ev;
    *event = ev;
    return PGN_OK;
}

/* pgn_iter_pos and pgn_iter_pos_after, inline for the writers' hot loops. */
static inline const pgn_pos *pgnk_iter_pos(const pgn_iter *it) {
    return &it->pos[it->cur];
}

static inline const pgn_pos *pgnk_iter_pos_after(pgn_iter *it) {
    if (!it->after_ok) {
        it->pos[!it->cur] = it->pos[it->cur];
        pgn_pos_play(&it->pos[!it->cur], it->node->move);
        it->after_ok = 1;
    }
    return &it->pos[!it->cur];
}

/* pgn_iter_side and pgn_iter_fullmove, inline for the writers' hot loops. */
static inline pgn_color pgnk_iter_side(const pgn_iter *it) {
    return (pgn_color)it->side;
}

static inline uint32_t pgnk_iter_fullmove(const pgn_iter *it) {
    return it->fullmove;
}
/* How a game was read, kept in the game for its readers (pgn_game_marker, and the parse layer's
 * pgn_game_diag...): emptied by pgn_game_reset; diags come from the game's arena. */
typedef struct game_record {
    pgn_result marker; /* the termination marker as read, PGN_RESULT_NONE if none */
    uint8_t broken;    /* cut short: an error lost part of the game */
    void *diags;       /* pgn_diag[cap] (a type of the parse layer) */
    uint32_t count, cap;
    uint64_t dropped; /* diagnostics past cap, counted only */
} game_record;
game_record *pgnk_game_record(pgn_game *game);
const game_record *pgnk_game_record_const(const pgn_game *game);

#endif
