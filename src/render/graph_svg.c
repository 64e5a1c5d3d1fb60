/* SPDX-License-Identifier: MIT */
/* A game's evaluation graph as an SVG 1.1 document, from the [%eval] commands of its main line
 * (digest §10), on lichess's winning-chance scale, with judged moves marked (docs/analysis.md). */
#include "render_internal.h"

#include "pgnkit/evaluation.h"

#include <stdio.h>

/* One ply of the main line, as the graph walks it. */
typedef struct ply_iter {
    const pgn_node *node;
    pgn_pos before, pos; /* the positions before and after the ply's move */
    size_t ply;          /* 1-based */
    int has_eval;
    pgn_engine_eval eval; /* after the move, White's view */
    int had_eval;         /* the previous position's evaluation, for judging */
    pgn_engine_eval prev;
} ply_iter;

/* The node's evaluation as pgn_engine_eval: its [%eval] ("#0": the side to move is mated), or
 * checkmate when the position after it is mate; 0 when it has neither. */
static int node_eval(const pgn_node *node, const pgn_pos *after, pgn_engine_eval *out) {
    pgn_eval e;
    int sign = after->side == PGN_BLACK ? 1 : -1; /* the mated side is the side to move */
    if (pgn_node_eval(node, &e)) {
        if (e.kind == PGN_EVAL_CP) {
            *out = (pgn_engine_eval){PGN_SCORE_CP, e.value, 0};
        } else if (e.value != 0) {
            *out = (pgn_engine_eval){PGN_SCORE_MATE, e.value, 0};
        } else {
            *out = (pgn_engine_eval){PGN_SCORE_CHECKMATE, sign, 0};
        }
        return 1;
    }
    if (pgn_node_move(node) != PGN_MOVE_NULL && pgn_pos_is_checkmate(after)) {
        *out = (pgn_engine_eval){PGN_SCORE_CHECKMATE, sign, 0};
        return 1;
    }
    return 0;
}

static void iter_init(ply_iter *it, const pgn_game *game) {
    it->node = pgn_game_root(game);
    it->pos = *pgn_game_start(game);
    it->ply = 0;
    it->has_eval = node_eval(it->node, &it->pos, &it->eval);
}

static int iter_next(ply_iter *it) {
    const pgn_node *next = pgn_node_child(it->node);
    if (!next) {
        return 0;
    }
    it->had_eval = it->has_eval;
    it->prev = it->eval;
    it->before = it->pos;
    it->node = next;
    pgn_pos_play(&it->pos, pgn_node_move(next));
    it->ply++;
    it->has_eval = node_eval(next, &it->pos, &it->eval);
    return 1;
}

/* The move's judgement NAG: from the evaluations around it, else its own $6/$2/$4; 0 if none. */
static unsigned judgement(const ply_iter *it) {
    if (it->had_eval && it->has_eval && it->prev.kind != PGN_SCORE_CHECKMATE) {
        pgn_judgement j;
        pgn_judge_move(it->prev, it->eval, (pgn_color)it->before.side, &j);
        return j.nag;
    }
    for (size_t i = 0; i < pgn_node_nag_count(it->node); i++) {
        unsigned n = pgn_node_nag(it->node, i);
        if (n == 6 || n == 2 || n == 4) {
            return n;
        }
    }
    return 0;
}

typedef struct geometry {
    double w, plot_h, mid, step;
} geometry;

static double gx(const geometry *g, size_t ply) {
    return ((double)ply - 0.5) * g->step;
}

static double gy(const geometry *g, pgn_engine_eval e) {
    return g->mid - pgn_engine_eval_winning_chances(e) * (g->mid - 2);
}

/* The area between the curve and the middle line, as one polygon; clip decides its colour. */
static void area(svg_out *o, const pgn_game *game, const geometry *g, const char *fill,
                 const char *clip) {
    ply_iter it;
    size_t first = 0, last = 0;
    iter_init(&it, game);
    pgnk_svg_puts(o, "<polygon points=\"");
    while (iter_next(&it)) {
        if (it.has_eval) {
            if (!first) {
                first = it.ply;
                pgnk_svg_printf(o, "%.1f,%.1f", gx(g, it.ply), g->mid);
            }
            last = it.ply;
            pgnk_svg_printf(o, " %.1f,%.1f", gx(g, it.ply), gy(g, it.eval));
        }
    }
    pgnk_svg_printf(o, " %.1f,%.1f\" fill=\"%s\" clip-path=\"url(#%s)\"/>\n", gx(g, last), g->mid,
                    fill, clip);
}

static void curve(svg_out *o, const pgn_game *game, const geometry *g) {
    ply_iter it;
    int any = 0;
    iter_init(&it, game);
    pgnk_svg_puts(o, "<polyline points=\"");
    while (iter_next(&it)) {
        if (it.has_eval) {
            pgnk_svg_printf(o, "%s%.1f,%.1f", any ? " " : "", gx(g, it.ply), gy(g, it.eval));
            any = 1;
        }
    }
    pgnk_svg_puts(o, "\" fill=\"none\" stroke=\"#d85000\" stroke-width=\"1.5\"/>\n");
}

/* "12. Nf3" or "12... Nf6" for the move of it. */
static void move_label(const ply_iter *it, char *buf, size_t cap) {
    char san[PGN_SAN_MAX];
    pgn_san_write(&it->before, pgn_node_move(it->node), san);
    snprintf(buf, cap, "%lu%s %s", (unsigned long)it->before.fullmove,
             it->before.side == PGN_WHITE ? "." : "...", san);
}

static void eval_label(const ply_iter *it, char *buf, size_t cap) {
    if (!it->has_eval) {
        buf[0] = 0;
    } else if (it->eval.kind == PGN_SCORE_CP) {
        snprintf(buf, cap, " %+.2f", it->eval.value / 100.0);
    } else if (it->eval.kind == PGN_SCORE_MATE) {
        snprintf(buf, cap, " #%d", (int)it->eval.value);
    } else {
        snprintf(buf, cap, " %s", it->eval.value > 0 ? "1-0" : "0-1");
    }
}

/* Dots on judged moves, then the transparent columns with their titles. */
static void marks(svg_out *o, const pgn_game *game, const geometry *g) {
    ply_iter it;
    iter_init(&it, game);
    while (iter_next(&it)) {
        unsigned nag = judgement(&it);
        if (nag && it.has_eval) {
            const char *color = nag == 4 ? "#db3031" : nag == 2 ? "#e69f00" : "#56b4e9";
            pgnk_svg_printf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n",
                            gx(g, it.ply), gy(g, it.eval), color);
        }
    }
    iter_init(&it, game);
    while (iter_next(&it)) {
        char mv[48], ev[24];
        unsigned nag = judgement(&it);
        move_label(&it, mv, sizeof mv);
        eval_label(&it, ev, sizeof ev);
        pgnk_svg_printf(o,
                        "<rect id=\"ply-%lu\" x=\"%.1f\" y=\"0\" width=\"%.2f\" height=\"%.1f\" "
                        "fill=\"#000000\" fill-opacity=\"0\"><title>%s%s%s</title></rect>\n",
                        (unsigned long)it.ply, gx(g, it.ply) - g->step / 2, g->step, g->plot_h, mv,
                        ev,
                        nag == 4   ? " blunder"
                        : nag == 2 ? " mistake"
                        : nag == 6 ? " inaccuracy"
                                   : "");
    }
}

/* Move numbers under the columns of White's moves, every 1, 2, 5, 10, 20, 50 ... moves so that
 * labels stay about 40 pixels apart. */
static void axis(svg_out *o, const pgn_game *game, const geometry *g, double h) {
    ply_iter it;
    static const unsigned long steps[] = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000};
    size_t i = 0;
    while (i + 1 < sizeof steps / sizeof steps[0] && g->step * 2 * (double)steps[i] < 40) {
        i++;
    }
    unsigned long every = steps[i];
    iter_init(&it, game);
    while (iter_next(&it)) {
        unsigned long n = it.before.fullmove;
        if (it.before.side == PGN_WHITE && n % every == 0) {
            double x = gx(g, it.ply);
            pgnk_svg_printf(o,
                            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                            "stroke=\"#666666\"/>\n"
                            "<text x=\"%.1f\" y=\"%.1f\" font-family=\"sans-serif\" "
                            "font-size=\"11\" text-anchor=\"middle\" fill=\"#333333\">%lu</text>\n",
                            x, g->plot_h, x, g->plot_h + 4, x, h - 3, n);
        }
    }
}

pgn_status pgn_graph_svg(const pgn_game *game, const pgn_graph_opts *opts, pgn_write_fn fn,
                         void *ctx) {
    unsigned w = opts && opts->width ? opts->width : 600;
    unsigned h = opts && opts->height ? opts->height : 200;
    size_t plies = pgn_game_ply_count(game);
    geometry g;
    g.w = w;
    g.plot_h = h > 40 ? h - 16.0 : h;
    g.mid = g.plot_h / 2;
    g.step = g.w / (double)(plies ? plies : 1);
    svg_out o;
    pgnk_svg_init(&o, fn, ctx);
    pgnk_svg_printf(&o,
                    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                    "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"%u\" "
                    "height=\"%u\" viewBox=\"0 0 %u %u\">\n"
                    "<defs><clipPath id=\"above\"><rect width=\"%u\" height=\"%.1f\"/></clipPath>"
                    "<clipPath id=\"below\"><rect y=\"%.1f\" width=\"%u\" height=\"%.1f\"/>"
                    "</clipPath></defs>\n"
                    "<rect width=\"%u\" height=\"%u\" fill=\"#f4f4f4\"/>\n"
                    "<rect width=\"%u\" height=\"%.1f\" fill=\"#a7a7a7\"/>\n",
                    w, h, w, h, w, g.mid, g.mid, w, g.mid, w, h, w, g.plot_h);
    ply_iter it;
    int any = 0;
    iter_init(&it, game);
    while (!any && iter_next(&it)) {
        any = it.has_eval;
    }
    if (any) {
        area(&o, game, &g, "#ffffff", "above");
        area(&o, game, &g, "#262421", "below");
    }
    pgnk_svg_printf(&o,
                    "<line x1=\"0\" y1=\"%.1f\" x2=\"%u\" y2=\"%.1f\" stroke=\"#777777\" "
                    "stroke-width=\"1\"/>\n",
                    g.mid, w, g.mid);
    if (any) {
        curve(&o, game, &g);
    }
    marks(&o, game, &g);
    axis(&o, game, &g, h);
    pgnk_svg_puts(&o, "</svg>\n");
    return pgnk_svg_finish(&o);
}
