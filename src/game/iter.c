/* SPDX-License-Identifier: MIT */
/* The one game-tree iterator (include/pgnkit/game.h; cmark's cmark_iter shape): enter and leave
 * events for the game, its variations (PGN §8.2.5) and its moves in PGN order, with an explicit
 * stack of open variations (nothing recurses) and the position kept incrementally: the side to
 * move and move number from the ply count, the board (PGN_ITER_BOARD) by playing each move once. */
#include <assert.h>
#include <string.h>

#include "../base/alloc.h"
#include "game_internal.h"

pgn_status pgn_iter_new(pgn_iter **out, const pgn_allocator *alloc) {
    pgn_iter *it;
    assert(out != NULL);
    *out = NULL;
    pgn_status st;
    it = pgnk_alloc_object(alloc, sizeof *it, &st);
    if (it == NULL) {
        return st;
    }
    pgnk_alloc_copy(&it->alloc, alloc);
    *out = it;
    return PGN_OK;
}

void pgn_iter_free(pgn_iter *it) {
    pgn_allocator alloc;
    if (it == NULL) {
        return;
    }
    alloc = it->alloc;
    pgnk_free(&alloc, it->stack);
    pgnk_free(&alloc, it);
}

void pgn_iter_reset(pgn_iter *it, const pgn_game *game, uint32_t flags) {
    const pgn_pos *start;
    assert(it != NULL && game != NULL);
    start = pgn_game_start(game);
    it->game = game;
    it->flags = flags;
    it->root = pgn_game_root(game);
    it->node = it->root;
    it->ply = 0;
    it->event = 0;
    it->depth = 0;
    it->side = start->side;
    it->fullmove = start->fullmove;
    it->cur = 0;
    it->after_ok = 0;
    if (flags & PGN_ITER_BOARD) {
        it->pos[0] = *start;
    }
}

/* Opens the variations of the current node (a main continuation with alternatives). */
pgn_status pgnk_iter_push(pgn_iter *it) {
    pgnk_iter_frame *f;
    void *p = it->stack;
    if (it->depth == it->cap &&
        !pgnk_grow(&it->alloc, &p, &it->cap, it->depth + 1, sizeof *it->stack, 8)) {
        return PGN_E_NOMEM;
    }
    it->stack = p;
    f = &it->stack[it->depth++];
    f->main = it->node;
    f->alt = it->node->sibling;
    f->next_alt = f->alt->sibling;
    f->ply = it->ply;
    f->side = it->side;
    f->fullmove = it->fullmove;
    if (it->flags & PGN_ITER_BOARD) {
        f->before = it->pos[it->cur];
    }
    it->node = f->alt;
    return PGN_OK;
}

pgn_status pgn_iter_next(pgn_iter *it, pgn_iter_event *event) {
    assert(it != NULL && it->game != NULL && event != NULL);
    return pgnk_iter_next(it, event);
}

pgn_node *pgn_iter_node(const pgn_iter *it) {
    return it->node;
}

size_t pgn_iter_depth(const pgn_iter *it) {
    return it->depth;
}

size_t pgn_iter_ply(const pgn_iter *it) {
    return it->ply;
}

pgn_color pgn_iter_side(const pgn_iter *it) {
    return pgnk_iter_side(it);
}

uint32_t pgn_iter_fullmove(const pgn_iter *it) {
    return pgnk_iter_fullmove(it);
}

int pgn_iter_has_variations(const pgn_iter *it) {
    return pgnk_iter_has_variations(it);
}

const pgn_pos *pgn_iter_pos(const pgn_iter *it) {
    assert(it->flags & PGN_ITER_BOARD);
    return &it->pos[it->cur];
}

const pgn_pos *pgn_iter_pos_after(pgn_iter *it) {
    assert((it->flags & PGN_ITER_BOARD) &&
           (it->event == PGN_ITER_MOVE_ENTER || it->event == PGN_ITER_MOVE_LEAVE));
    return pgnk_iter_pos_after(it);
}
