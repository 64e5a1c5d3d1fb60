/* SPDX-License-Identifier: MIT */
/* Writes an engine analysis into a game tree: [%eval] commands in the comments, move assessment
 * NAGs (PGN §10: $2, $4, $6) with the better move, the engine's line as a variation (PGN §8.2.5),
 * a position assessment NAG after the last move, and the Annotator and per-player tags. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

static pgn_str cstr(const char *s) {
    pgn_str r = {s, strlen(s)};
    return r;
}

static const char *judgement_word(unsigned nag) {
    return nag == 4 ? "Blunder." : nag == 2 ? "Mistake." : "Inaccuracy.";
}

/* The engine's line from `before` as a variation beside the move played from parent. */
static pgn_status add_line(pgn_game *game, pgn_node *parent, const pgn_position_analysis *pa,
                           uint32_t max) {
    pgn_node *at = parent;
    uint32_t n = pa->pv_len < max ? pa->pv_len : max;
    pgn_loc none = {0, 0, 0};
    for (uint32_t k = 0; k < n; k++) {
        pgn_node *added;
        pgn_status st = pgn_node_add(game, at, pa->pv[k], none, &added);
        if (st != PGN_OK) {
            return st;
        }
        at = added;
    }
    return PGN_OK;
}

static pgn_status annotate_move(pgn_game *game, pgn_node *parent, pgn_node *node,
                                const pgn_pos *before, const pgn_position_analysis *prev,
                                const pgn_position_analysis *cur, uint32_t max_line) {
    char text[96];
    size_t len = pgn_eval_format(cur->eval, text + 7);
    if (len > 0) {
        memcpy(text, "[%eval ", 7);
        memcpy(text + 7 + len, "]", 2);
        pgn_status st = pgn_node_append_comment(game, node, cstr(text));
        if (st != PGN_OK) {
            return st;
        }
    }
    pgn_judgement j;
    pgn_judge_move(prev->eval, cur->eval, (pgn_color)before->side, &j);
    if (j.nag == 0) {
        return PGN_OK;
    }
    pgn_status st = pgn_node_add_nag(game, node, j.nag);
    if (st != PGN_OK) {
        return st;
    }
    int best_differs = prev->pv_len > 0 && prev->pv[0] != pgn_node_move(node);
    if (best_differs) {
        char san[PGN_SAN_MAX];
        pgn_san_write(before, prev->pv[0], san);
        snprintf(text, sizeof text, "%s %s was best.", judgement_word(j.nag), san);
    } else {
        snprintf(text, sizeof text, "%s", judgement_word(j.nag));
    }
    if ((st = pgn_node_append_comment(game, node, cstr(text))) != PGN_OK) {
        return st;
    }
    if (best_differs && (j.nag == 2 || j.nag == 4)) {
        return add_line(game, parent, prev, max_line);
    }
    return PGN_OK;
}

static pgn_status set_tag(pgn_game *game, const char *name, const char *value) {
    return pgn_game_tag_set(game, cstr(name), cstr(value));
}

static pgn_status write_tags(pgn_game *game, const pgn_annotate_opts *opts,
                             const pgn_game_stats *s) {
    pgn_status st = PGN_OK;
    if (opts && opts->annotator) {
        /* an earlier annotator is kept in front: "Kasparov; Stockfish 15.1, nodes ..." */
        pgn_str old, mine = cstr(opts->annotator);
        if (pgn_game_tag_get(game, "Annotator", &old) && old.len > 0 &&
            !(old.len >= mine.len &&
              memcmp(old.ptr + old.len - mine.len, mine.ptr, mine.len) == 0)) {
            char both[512];
            int n = snprintf(both, sizeof both, "%.*s; %s", (int)(old.len < 250 ? old.len : 250),
                             old.ptr, opts->annotator);
            st = n > 0 ? set_tag(game, "Annotator", both) : PGN_OK;
        } else if (!pgn_game_tag_get(game, "Annotator", &old) || old.len == 0) {
            st = set_tag(game, "Annotator", opts->annotator);
        }
        if (st != PGN_OK) {
            return st;
        }
    }
    static const char *const acc_name[2] = {"WhiteAccuracy", "BlackAccuracy"};
    static const char *const acpl_name[2] = {"WhiteACPL", "BlackACPL"};
    for (int c = 0; c < 2; c++) {
        if (s->moves[c] == 0) {
            continue;
        }
        char v[32];
        snprintf(v, sizeof v, "%.1f", s->accuracy[c]);
        if ((st = set_tag(game, acc_name[c], v)) != PGN_OK) {
            return st;
        }
        snprintf(v, sizeof v, "%.0f", s->acpl[c]);
        if ((st = set_tag(game, acpl_name[c], v)) != PGN_OK) {
            return st;
        }
    }
    return PGN_OK;
}

pgn_status pgn_game_annotate(pgn_game *game, const pgn_position_analysis *positions, size_t n,
                             const pgn_annotate_opts *opts, pgn_game_stats *stats) {
    assert(game != NULL && (positions != NULL || n == 0));
    if (n != pgn_game_ply_count(game) + 1) {
        return PGN_E_LIMIT;
    }
    uint32_t max_line = opts && opts->variation_plies ? opts->variation_plies : 6;
    pgn_pos pos = *pgn_game_start(game);
    pgn_color first = (pgn_color)pos.side;
    pgn_node *parent = pgn_game_root(game), *node = NULL;
    for (size_t i = 1; i < n; i++) {
        node = pgn_node_child(parent);
        pgn_status st =
            annotate_move(game, parent, node, &pos, &positions[i - 1], &positions[i], max_line);
        if (st != PGN_OK) {
            return st;
        }
        pgn_pos_play(&pos, pgn_node_move(node));
        parent = node;
    }
    if (node) {
        unsigned nag = pgn_eval_position_nag(positions[n - 1].eval);
        pgn_status st = nag ? pgn_node_add_nag(game, node, nag) : PGN_OK;
        if (st != PGN_OK) {
            return st;
        }
    }
    pgn_game_stats s;
    engine_stats_strided(positions, sizeof *positions, n, first, &s);
    if (stats) {
        *stats = s;
    }
    return write_tags(game, opts, &s);
}
