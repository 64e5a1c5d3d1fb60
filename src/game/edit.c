/* SPDX-License-Identifier: MIT */
/* Whole-game annotation edits (pgnkit fmt/convert --strip-*, --seven-tags, --add-plycount,
 * --fen-comments): comments, NAGs, RAVs (PGN §8.2.4, §8.2.5), embedded commands (digest §10), the
 * Seven Tag Roster (PGN §8.1.1). The tree is walked as the writers walk it, with pgn_iter. */
#include <assert.h>
#include <string.h>

#include "arena.h"
#include "game_internal.h"
#include "final_tags.h"
#include "pgnkit/annot.h"

typedef struct walk {
    pgn_game *game;
    const pgn_edit_opts *opts;
    uint32_t cmd_mask;
} walk;

static pgn_status fen_comment(walk *w, pgn_node *node, const pgn_pos *after) {
    char fen[PGN_FEN_MAX];
    pgn_str t;
    t.ptr = fen;
    t.len = pgn_fen_write(after, w->opts->fen_flags, fen, sizeof fen);
    return pgn_node_append_comment(w->game, node, t);
}

/* The edits of one node; after is the position after its move (NULL for the root). */
static pgn_status edit_node(walk *w, pgn_node *node, const pgn_pos *after) {
    uint32_t f = w->opts->flags;
    pgn_status st;
    pgn_str empty = {NULL, 0};
    if (f & PGN_EDIT_STRIP_NAGS) {
        pgn_node_clear_nags(node);
    }
    if (f & PGN_EDIT_STRIP_COMMENTS) {
        if ((st = pgn_node_set_comment(w->game, node, empty)) != PGN_OK ||
            (st = pgn_node_set_pre_comment(w->game, node, empty)) != PGN_OK) {
            return st;
        }
    } else if (w->cmd_mask != 0) {
        if ((st = pgn_node_remove_commands(w->game, node, w->cmd_mask)) != PGN_OK) {
            return st;
        }
    }
    if ((f & PGN_EDIT_FEN_COMMENTS) && after != NULL) {
        return fen_comment(w, node, after);
    }
    return PGN_OK;
}

/* Visits every node in PGN order (pgn_iter): the root, then each move. */
static pgn_status walk_tree(walk *w) {
    pgn_iter *it;
    pgn_iter_event ev;
    int board = (w->opts->flags & PGN_EDIT_FEN_COMMENTS) != 0;
    pgn_status st = pgn_iter_new(&it, &pgnk_game_arena(w->game)->alloc);
    if (st != PGN_OK) {
        return st;
    }
    pgn_iter_reset(it, w->game, PGN_ITER_NO_MOVE_LEAVE | (board ? PGN_ITER_BOARD : 0));
    while ((st = pgn_iter_next(it, &ev)) == PGN_OK) {
        if (ev == PGN_ITER_GAME_ENTER) {
            st = edit_node(w, it->node, NULL);
        } else if (ev == PGN_ITER_MOVE_ENTER) {
            st = edit_node(w, it->node, board ? pgn_iter_pos_after(it) : NULL);
        }
        if (st != PGN_OK) {
            break;
        }
    }
    pgn_iter_free(it);
    return st == PGN_END ? PGN_OK : st;
}

static void strip_variations(pgn_game *game) {
    pgn_node *node;
    for (node = pgn_game_root(game); node != NULL; node = pgn_node_child(node)) {
        pgn_node *child = pgn_node_child(node);
        while (child != NULL && pgn_node_sibling(child) != NULL) {
            pgn_node_remove(pgn_node_sibling(child));
        }
    }
}

static int is_kept_tag(pgn_str name) {
    static const char *const kept[] = {"Event", "Site",   "Date", "Round", "White",
                                       "Black", "Result", "FEN",  "SetUp"};
    size_t i;
    for (i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        if (name.len == strlen(kept[i]) && memcmp(name.ptr, kept[i], name.len) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Keeps the roster (and FEN, SetUp): the kept strings stay valid in the arena while the tag list
 * is cleared and refilled, so this is linear in the number of tags. */
static pgn_status seven_tags(pgn_game *game) {
    pgn_str keep[9][2];
    size_t i, n = 0, count = pgn_game_tag_count(game);
    for (i = 0; i < count && n < 9; i++) {
        pgn_str name = pgn_game_tag_name(game, i);
        if (is_kept_tag(name)) {
            keep[n][0] = name;
            keep[n][1] = pgn_game_tag_value(game, i);
            n++;
        }
    }
    if (n == count) {
        return PGN_OK;
    }
    pgn_game_tags_clear(game);
    for (i = 0; i < n; i++) {
        pgn_status st = pgn_game_tag_set(game, keep[i][0], keep[i][1]);
        if (st != PGN_OK) {
            return st;
        }
    }
    return PGN_OK;
}

static pgn_status add_plycount(pgn_game *game) {
    char digits[24];
    size_t n = sizeof digits, v = pgn_game_ply_count(game);
    pgn_str name = {"PlyCount", 8}, value;
    do {
        digits[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    value.ptr = digits + n;
    value.len = sizeof digits - n;
    return pgn_game_tag_set(game, name, value);
}

/* PGN_EDIT_FIX_RESULTS: the result the main line's final position decides (checkmate, stalemate,
 * a variant's own ending: the variant asked first, issue 35), else the termination marker as read,
 * else the game's; set as the result and the Result tag. */
static pgn_status fix_results(pgn_game *game) {
    pgn_pos pos = *pgn_game_start(game);
    pgn_result res = pgn_game_marker(game);
    for (const pgn_node *n = pgn_node_child(pgn_game_root(game)); n; n = pgn_node_child(n)) {
        pgn_pos_play(&pos, pgn_node_move(n));
    }
    pgn_outcome end = pgn_pos_outcome(&pos, 1);
    if (end == PGN_OUTCOME_CHECKMATE || end == PGN_OUTCOME_STALEMATE ||
        end >= PGN_OUTCOME_KING_EXPLODED) {
        int winner = pgn_outcome_winner(&pos, end);
        res = winner < 0            ? PGN_RESULT_DRAW
              : winner == PGN_WHITE ? PGN_RESULT_WHITE_WINS
                                    : PGN_RESULT_BLACK_WINS;
    } else if (res == PGN_RESULT_NONE) {
        res = pgn_game_result(game);
    }
    pgn_game_set_result(game, res);
    const char *text = pgn_result_str(res);
    pgn_str name = {"Result", 6}, value = {text, strlen(text)};
    return pgn_game_tag_set(game, name, value);
}

pgn_status pgn_game_edit(pgn_game *game, const pgn_edit_opts *opts) {
    walk w;
    pgn_status st = PGN_OK;
    uint32_t f;
    assert(game != NULL && opts != NULL);
    f = opts->flags;
    memset(&w, 0, sizeof w);
    w.game = game;
    w.opts = opts;
    if (f & PGN_EDIT_STRIP_CLOCK) {
        w.cmd_mask |= PGN_CMD_TIMES;
    }
    if (f & PGN_EDIT_STRIP_EVAL) {
        w.cmd_mask |= PGN_CMD_BIT(PGN_CMD_EVAL);
    }
    if (f & PGN_EDIT_STRIP_VARIATIONS) {
        strip_variations(game);
    }
    if (f & (PGN_EDIT_STRIP_COMMENTS | PGN_EDIT_STRIP_NAGS | PGN_EDIT_STRIP_CLOCK |
             PGN_EDIT_STRIP_EVAL | PGN_EDIT_FEN_COMMENTS)) {
        st = walk_tree(&w);
    }
    if (st == PGN_OK && (f & PGN_EDIT_SEVEN_TAGS)) {
        st = seven_tags(game);
    }
    if (st == PGN_OK && (f & PGN_EDIT_ADD_PLYCOUNT)) {
        st = add_plycount(game);
    }
    if (st == PGN_OK && (f & PGN_EDIT_FIX_RESULTS)) {
        st = fix_results(game);
    }
    if (st == PGN_OK && (f & (PGN_EDIT_ADD_HASHCODE | PGN_EDIT_ADD_TERMINATION |
                              PGN_EDIT_ADD_FINAL_FEN | PGN_EDIT_ADD_MATERIAL))) {
        st = pgnk_game_final_tags(game, f, opts->fen_flags);
    }
    return st;
}
