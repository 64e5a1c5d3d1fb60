/* SPDX-License-Identifier: MIT */
/* The analysis of a game with an engine behind callbacks: the main line's positions, those the
 * rules decide evaluated without the engine, the others searched (the UCI commands built here,
 * the output read by pgn_search), then pgn_game_annotate. Working memory is the caller's
 * allocator's and bounded by the game; nothing here starts a process or does I/O. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../game/arena.h"
#include "engine_internal.h"

#define DEFAULT_NODES 1000000u

/* The working memory of one analysis, all from one allocator. */
typedef struct work {
    const pgn_allocator *alloc;
    size_t n;                  /* positions: plies + 1 */
    pgn_move *moves;           /* [n - 1] the main line */
    uint64_t *keys;            /* [n] identity keys, for fivefold repetition */
    pgn_position_analysis *pa; /* [n] */
    pgn_engine_line *alt;      /* [n * alt_cap] lines 2.. of each position */
    uint32_t alt_cap;
    char *command; /* the position command */
    size_t command_cap;
    pgn_search *search;
} work;

static void *alloc_array(const pgn_allocator *alloc, size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) {
        return NULL;
    }
    void *p = pgnk_malloc(alloc, count * size);
    if (p != NULL) {
        memset(p, 0, count * size);
    }
    return p;
}

static void work_free(work *w) {
    pgnk_free(w->alloc, w->moves);
    pgnk_free(w->alloc, w->keys);
    pgnk_free(w->alloc, w->pa);
    pgnk_free(w->alloc, w->alt);
    pgnk_free(w->alloc, w->command);
    pgn_search_free(w->search);
}

static pgn_status work_init(work *w, size_t plies, uint32_t lines, const pgn_allocator *alloc) {
    memset(w, 0, sizeof *w);
    w->alloc = alloc;
    w->n = plies + 1;
    w->alt_cap = lines - 1;
    w->command_cap = plies <= (SIZE_MAX - 128) / 6 ? 128 + 6 * plies : 0;
    w->moves = alloc_array(alloc, w->n, sizeof *w->moves);
    w->keys = alloc_array(alloc, w->n, sizeof *w->keys);
    w->pa = alloc_array(alloc, w->n, sizeof *w->pa);
    w->alt = w->alt_cap ? alloc_array(alloc, w->n, (size_t)w->alt_cap * sizeof *w->alt) : NULL;
    w->command = w->command_cap ? alloc_array(alloc, w->command_cap, 1) : NULL;
    if (!w->moves || !w->keys || !w->pa || (w->alt_cap && !w->alt) || !w->command ||
        pgn_search_new(&w->search, alloc, lines) != PGN_OK) {
        work_free(w);
        return PGN_E_NOMEM;
    }
    return PGN_OK;
}

/* The main line into w->moves; PGN_E_ILLEGAL_MOVE at a null move. */
static pgn_status read_main_line(const pgn_game *game, work *w) {
    const pgn_node *node = pgn_game_root(game);
    for (size_t i = 0; i + 1 < w->n; i++) {
        node = pgn_node_child(node);
        w->moves[i] = pgn_node_move(node);
        if (w->moves[i] == PGN_MOVE_NULL) {
            return PGN_E_ILLEGAL_MOVE;
        }
    }
    return PGN_OK;
}

/* 1 with the evaluation of a position the rules decide (no engine asked): a checkmate, or a draw
 * that needs no claim; 0 for a position the game goes on from. */
static int decided(const pgn_pos *pos, const uint64_t *keys, size_t i, pgn_engine_eval *out) {
    unsigned reps = pgn_repetitions(keys, i + 1, pgn_pos_repetition_window(pos));
    pgn_outcome o = pgn_pos_outcome(pos, reps);
    memset(out, 0, sizeof *out);
    switch (o) {
    case PGN_OUTCOME_CHECKMATE:
        out->kind = PGN_SCORE_CHECKMATE;
        out->value = pos->side == PGN_WHITE ? -1 : 1;
        return 1;
    case PGN_OUTCOME_STALEMATE:
    case PGN_OUTCOME_INSUFFICIENT_MATERIAL:
    case PGN_OUTCOME_SEVENTYFIVE_MOVES:
    case PGN_OUTCOME_FIVEFOLD_REPETITION: out->kind = PGN_SCORE_CP; return 1;
    default: return 0;
    }
}

static pgn_status search_one(const pgn_engine_callbacks *engine, void *ctx, work *w,
                             const pgn_game *game, const pgn_pos *pos, size_t i, const char *go) {
    pgn_search_request req;
    req.ply = i;
    req.start = pgn_game_start(game);
    req.moves = w->moves;
    req.pos = pos;
    pgn_uci_position_command(req.start, w->moves, i, w->command, w->command_cap);
    req.position = w->command;
    req.go = go;
    pgn_search_begin(w->search, pos);
    pgn_status st = engine->search(ctx, &req, w->search);
    if (st == PGN_OK) {
        pgn_search_result(w->search, &w->pa[i], w->alt ? w->alt + i * w->alt_cap : NULL,
                          w->alt_cap);
    }
    return st;
}

/* Every position of the main line evaluated into w->pa. */
static pgn_status evaluate_all(const pgn_game *game, const pgn_engine_callbacks *engine, void *ctx,
                               work *w, const char *go) {
    const pgn_pos *start = pgn_game_start(game);
    pgn_status st = engine->new_game ? engine->new_game(ctx, start->chess960) : PGN_OK;
    pgn_pos pos = *start;
    for (size_t i = 0; i < w->n && st == PGN_OK; i++) {
        if (i > 0) {
            pgn_pos_play(&pos, w->moves[i - 1]);
        }
        w->keys[i] = pgn_pos_identity_key(&pos);
        if (!decided(&pos, w->keys, i, &w->pa[i].eval)) {
            st = search_one(engine, ctx, w, game, &pos, i, go);
        }
        if (st == PGN_OK && engine->position_done) {
            engine->position_done(ctx, i);
        }
    }
    return st;
}

pgn_status pgn_game_analyze(pgn_game *game, const pgn_engine_callbacks *engine, void *ctx,
                            const pgn_analyze_opts *opts, pgn_game_stats *stats) {
    assert(game != NULL && engine != NULL && engine->search != NULL);
    pgn_analyze_opts o;
    memset(&o, 0, sizeof o);
    if (opts) {
        o = *opts;
    }
    if (o.limit_value == 0) {
        o.limit = PGN_LIMIT_NODES;
        o.limit_value = DEFAULT_NODES;
    }
    static const char *const limit_names[] = {"nodes", "depth", "movetime"};
    const char *limit_name = limit_names[o.limit <= PGN_LIMIT_MOVETIME ? o.limit : 0];
    char go[48], annotator[200];
    snprintf(go, sizeof go, "go %s %llu", limit_name, (unsigned long long)o.limit_value);
    snprintf(annotator, sizeof annotator, "%.150s, %s %llu (pgnkit analyze)",
             o.engine_name ? o.engine_name : "engine", limit_name,
             (unsigned long long)o.limit_value);
    uint32_t lines = o.multipv > 1 ? o.multipv : 1;
    work w;
    pgn_status st = pgnk_alloc_check(o.alloc);
    if (st != PGN_OK) {
        return st;
    }
    st = work_init(&w, pgn_game_ply_count(game), lines, o.alloc);
    if (st != PGN_OK) {
        return st;
    }
    st = read_main_line(game, &w);
    if (st == PGN_OK) {
        st = evaluate_all(game, engine, ctx, &w, go);
    }
    if (st == PGN_OK) {
        pgn_annotate_opts ao = {annotator, o.variation_plies,
                                (o.flags & PGN_ANNOTATE_REPLACE) |
                                    (lines > 1 ? PGN_ANNOTATE_ALL_LINES : 0u)};
        st = pgn_game_annotate(game, w.pa, w.n, &ao, stats);
    }
    work_free(&w);
    return st;
}
