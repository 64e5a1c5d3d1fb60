/* SPDX-License-Identifier: MIT */
/* One search read from the engine's output lines: per multipv index the latest info line with an
 * exact score and the latest with any score (exact beats bound), the best move as the fallback
 * line, and the first illegal move of each kind. No I/O: the caller feeds the lines. */
#include <assert.h>
#include <string.h>

#include "../base/alloc.h"
#include "../game/arena.h"
#include "engine_internal.h"

/* The latest line of one multipv index so far. */
typedef struct line_pick {
    int have_exact, have_any;
    pgn_uci_info exact, any;
} line_pick;

struct pgn_search {
    pgn_allocator alloc;
    pgn_pos pos;
    pgn_move best;
    uint32_t nlines;
    size_t nwarn;
    pgn_search_warning warn[2];
    line_pick *lines; /* [0]: multipv 1 */
};

pgn_status pgn_search_new(pgn_search **out, const pgn_allocator *alloc, uint32_t lines) {
    assert(out != NULL);
    *out = NULL;
    uint32_t n = lines == 0 ? 1 : lines > PGN_SEARCH_LINES_MAX ? PGN_SEARCH_LINES_MAX : lines;
    pgn_status st;
    pgn_search *s = pgnk_alloc_object(alloc, sizeof *s, &st);
    if (s == NULL) {
        return st;
    }
    pgnk_alloc_copy(&s->alloc, alloc);
    s->nlines = n;
    s->lines = pgnk_malloc(&s->alloc, n * sizeof *s->lines);
    if (s->lines == NULL) {
        pgnk_free(&s->alloc, s);
        return PGN_E_NOMEM;
    }
    pgn_pos start;
    pgn_pos_init(&start);
    pgn_search_begin(s, &start);
    *out = s;
    return PGN_OK;
}

void pgn_search_free(pgn_search *s) {
    if (s == NULL) {
        return;
    }
    pgn_allocator alloc = s->alloc;
    pgnk_free(&alloc, s->lines);
    pgnk_free(&alloc, s);
}

void pgn_search_begin(pgn_search *s, const pgn_pos *pos) {
    assert(s != NULL && pos != NULL);
    s->pos = *pos;
    s->best = PGN_MOVE_NONE;
    s->nwarn = 0;
    for (uint32_t i = 0; i < s->nlines; i++) {
        s->lines[i].have_exact = 0;
        s->lines[i].have_any = 0;
    }
}

/* Keeps the first warning of each kind. */
static void warn(pgn_search *s, int best_move, pgn_status st, const char *text) {
    for (size_t i = 0; i < s->nwarn; i++) {
        if (s->warn[i].best_move == best_move) {
            return;
        }
    }
    pgn_search_warning *w = &s->warn[s->nwarn++];
    w->best_move = best_move;
    w->status = st;
    memcpy(w->move, text, sizeof w->move);
    w->move[sizeof w->move - 1] = 0;
}

static void pick(line_pick *p, const pgn_uci_info *info) {
    p->any = *info;
    p->have_any = 1;
    if (info->score.bound == PGN_BOUND_EXACT) {
        p->exact = *info;
        p->have_exact = 1;
    }
}

pgn_status pgn_search_feed(pgn_search *s, const char *line, size_t len) {
    assert(s != NULL && (line != NULL || len == 0));
    pgn_uci_msg m;
    pgn_uci_parse_line(&s->pos, line, len, &m);
    if (m.kind == PGN_UCI_INFO && (m.info.has & PGN_INFO_SCORE) && m.info.multipv >= 1 &&
        m.info.multipv <= s->nlines) {
        if (m.info.pv_status != PGN_OK) {
            warn(s, 0, m.info.pv_status, m.info.pv_bad);
        }
        pick(&s->lines[m.info.multipv - 1], &m.info);
    } else if (m.kind == PGN_UCI_BESTMOVE) {
        if (m.move_status != PGN_OK) {
            warn(s, 1, m.move_status, m.move_bad);
        }
        s->best = m.best;
        return PGN_END;
    }
    return PGN_OK;
}

size_t pgn_search_warning_count(const pgn_search *s) {
    assert(s != NULL);
    return s->nwarn;
}

const pgn_search_warning *pgn_search_warning_at(const pgn_search *s, size_t i) {
    assert(s != NULL && i < s->nwarn);
    return &s->warn[i];
}

/* The line chosen for one index: the last exact one, else the last with a bound. */
static const pgn_uci_info *chosen(const line_pick *p) {
    return p->have_exact ? &p->exact : &p->any;
}

void pgn_search_result(const pgn_search *s, pgn_position_analysis *out, pgn_engine_line *alt,
                       uint32_t alt_cap) {
    assert(s != NULL && out != NULL && (alt != NULL || alt_cap == 0));
    memset(out, 0, sizeof *out);
    out->alt = alt;
    if (!s->lines[0].have_any) {
        return; /* PGN_SCORE_NONE */
    }
    pgn_color side = (pgn_color)s->pos.side;
    const pgn_uci_info *info = chosen(&s->lines[0]);
    out->eval = pgn_engine_eval_from_score(info->score, side, info->depth);
    out->pv_len = info->pv_len;
    memcpy(out->pv, info->pv, info->pv_len * sizeof info->pv[0]);
    if (out->pv_len == 0 && s->best != PGN_MOVE_NONE) {
        out->pv[0] = s->best;
        out->pv_len = 1;
    }
    for (uint32_t k = 1;
         k < s->nlines && k <= alt_cap && s->lines[k].have_any && s->lines[k].any.pv_len > 0; k++) {
        info = chosen(&s->lines[k]);
        pgn_engine_line *l = &alt[out->alt_count++];
        l->eval = pgn_engine_eval_from_score(info->score, side, info->depth);
        l->pv_len = info->pv_len;
        memcpy(l->pv, info->pv, info->pv_len * sizeof info->pv[0]);
    }
}
