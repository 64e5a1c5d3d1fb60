/* SPDX-License-Identifier: MIT */
/* A chess board as an SVG 1.1 document: squares, last move, check, [%csl] circles and [%cal]
 * arrows (digest §10), and the Celtic pieces (tools/gen_pieces.py) placed with <use>. */
#include "render_internal.h"

#include <math.h>
#include <string.h>

typedef struct piece_path {
    const char *d;
    unsigned char width;  /* stroke width in the piece's 933.333-unit square */
    unsigned char faint;  /* drawn at half opacity (decoration lines) */
    unsigned char filled; /* the body, filled with the piece's gradient */
} piece_path;

typedef struct piece_art {
    const char *gradient; /* the body gradient's attributes */
    const piece_path *paths;
    size_t count;
} piece_art;

#include "pieces.inc"

#define SQ 100.0            /* a square in the document's units; the board is 800 x 800 */
#define PIECE_UNITS 933.333 /* the pieces' own square */

static const char light_sq[] = "#f0d9b5", dark_sq[] = "#b58863"; /* lichess's brown board */
static const char piece_letters[] = "PNBRQK";

static const char *mark_color(char c) {
    switch (c) {
    case 'R': return "#882020";
    case 'Y': return "#e68f00";
    case 'B': return "#003088";
    default: return "#15781b";
    }
}

static void piece_def(svg_out *o, unsigned color, unsigned type) {
    const piece_art *a = &piece_arts[type - 1];
    char id[8] = {'p', 'k', '-', color ? 'b' : 'w', piece_letters[type - 1], 0};
    pgnk_svg_printf(o,
                    "<linearGradient id=\"%s-g\" gradientUnits=\"userSpaceOnUse\" %s>"
                    "<stop offset=\"0\" stop-color=\"%s\"/><stop offset=\"1\" stop-color=\"%s\"/>"
                    "</linearGradient>\n",
                    id, a->gradient, piece_stops[color][0], piece_stops[color][1]);
    pgnk_svg_printf(o,
                    "<g id=\"%s\" fill=\"none\" stroke=\"#000000\" stroke-linecap=\"round\" "
                    "stroke-linejoin=\"round\">\n",
                    id);
    for (size_t i = 0; i < a->count; i++) {
        const piece_path *p = &a->paths[i];
        pgnk_svg_puts(o, "<path d=\"");
        pgnk_svg_put(o, p->d, strlen(p->d));
        pgnk_svg_printf(o, "\" stroke-width=\"%u\"", p->width);
        if (p->filled) {
            pgnk_svg_printf(o, " fill=\"url(#%s-g)\" fill-rule=\"evenodd\"", id);
        }
        if (p->faint) {
            pgnk_svg_puts(o, " opacity=\"0.5\"");
        }
        pgnk_svg_puts(o, "/>\n");
    }
    pgnk_svg_puts(o, "</g>\n");
}

static void svg_open(svg_out *o, double w, double h, unsigned px_w, unsigned px_h) {
    pgnk_svg_printf(o,
                    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                    "xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" width=\"%u\" "
                    "height=\"%u\" viewBox=\"0 0 %g %g\">\n",
                    px_w, px_h, w, h);
}

pgn_status pgn_pieces_svg(pgn_write_fn fn, void *ctx) {
    svg_out o;
    pgnk_svg_init(&o, fn, ctx);
    svg_open(&o, PIECE_UNITS, PIECE_UNITS, 0, 0);
    pgnk_svg_puts(&o, "<defs>\n");
    for (unsigned c = 0; c < 2; c++) {
        for (unsigned t = PGN_PAWN; t <= PGN_KING; t++) {
            piece_def(&o, c, t);
        }
    }
    pgnk_svg_puts(&o, "</defs>\n</svg>\n");
    return pgnk_svg_finish(&o);
}

/* Top-left corner of square sq in the document, as the board is turned. */
static void square_xy(unsigned sq, int flip, double *x, double *y) {
    unsigned file = sq & 7, rank = sq >> 3;
    *x = SQ * (flip ? 7 - file : file);
    *y = SQ * (flip ? rank : 7 - rank);
}

static void square_rect(svg_out *o, unsigned sq, int flip, const char *attrs) {
    double x, y;
    square_xy(sq, flip, &x, &y);
    pgnk_svg_printf(o, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" %s/>\n", x, y, SQ, SQ,
                    attrs);
}

/* An arrow from the centre of one square to the centre of another, as one polygon (a shaft and
 * a head), so that it looks the same in every renderer (no markers). */
static void arrow(svg_out *o, const pgn_mark *m, int flip) {
    double ax, ay, bx, by;
    square_xy(m->from, flip, &ax, &ay);
    square_xy(m->to, flip, &bx, &by);
    ax += SQ / 2, ay += SQ / 2, bx += SQ / 2, by += SQ / 2;
    double dx = bx - ax, dy = by - ay, len = sqrt(dx * dx + dy * dy);
    double ux = dx / len, uy = dy / len, nx = -uy, ny = ux;
    const double shaft = 0.08 * SQ, head = 0.22 * SQ, head_len = 0.4 * SQ;
    double hx = bx - ux * head_len, hy = by - uy * head_len;
    const double pts[7][2] = {
        {ax + nx * shaft, ay + ny * shaft}, {hx + nx * shaft, hy + ny * shaft},
        {hx + nx * head, hy + ny * head},   {bx, by},
        {hx - nx * head, hy - ny * head},   {hx - nx * shaft, hy - ny * shaft},
        {ax - nx * shaft, ay - ny * shaft}};
    pgnk_svg_puts(o, "<polygon points=\"");
    for (int i = 0; i < 7; i++) {
        pgnk_svg_printf(o, "%s%.1f,%.1f", i ? " " : "", pts[i][0], pts[i][1]);
    }
    pgnk_svg_printf(o, "\" fill=\"%s\" opacity=\"0.8\"/>\n", mark_color(m->color));
}

static void circle(svg_out *o, const pgn_mark *m, int flip) {
    double x, y;
    square_xy(m->from, flip, &x, &y);
    pgnk_svg_printf(o,
                    "<circle cx=\"%g\" cy=\"%g\" r=\"%g\" fill=\"none\" stroke=\"%s\" "
                    "stroke-width=\"%g\" opacity=\"0.8\"/>\n",
                    x + SQ / 2, y + SQ / 2, SQ / 2 - SQ / 32, mark_color(m->color), SQ / 16);
}

/* The marks of opts, then those of the [%csl]/[%cal] commands of comment: arrows when want_arrows,
 * else circled squares. */
static void marks(svg_out *o, const pgn_board_opts *opts, pgn_str comment, int want_arrows) {
    int flip = (opts->flags & PGN_BOARD_FLIP) != 0;
    for (size_t i = 0; i < opts->mark_count; i++) {
        const pgn_mark *m = &opts->marks[i];
        if (m->from < 64 && m->to < 64 && (m->from != m->to) == want_arrows) {
            want_arrows ? arrow(o, m, flip) : circle(o, m, flip);
        }
    }
    pgn_cmd_iter it;
    pgn_cmd c;
    pgn_cmd_iter_init(&it, comment);
    while (pgn_cmd_next(&it, &c)) {
        if (c.kind != (want_arrows ? PGN_CMD_CAL : PGN_CMD_CSL)) {
            continue;
        }
        pgn_str args = c.args;
        pgn_mark m;
        while (pgn_mark_next(&args, &m)) {
            if ((m.from != m.to) == want_arrows) {
                want_arrows ? arrow(o, &m, flip) : circle(o, &m, flip);
            }
        }
    }
}

static const char *opposite(unsigned file, unsigned rank) {
    return (file + rank) % 2 == 0 ? light_sq : dark_sq; /* a1 (0, 0) is dark */
}

/* Rank numbers in the left column, file letters along the bottom row, in the other colour. */
static void coords(svg_out *o, int flip) {
    unsigned left = flip ? 7 : 0, bottom = flip ? 7 : 0;
    for (unsigned i = 0; i < 8; i++) {
        unsigned rank = flip ? i : 7 - i, file = flip ? 7 - i : i;
        pgnk_svg_printf(o,
                        "<text x=\"%g\" y=\"%g\" font-family=\"sans-serif\" font-size=\"%g\" "
                        "font-weight=\"bold\" fill=\"%s\">%c</text>\n",
                        SQ * 0.05, SQ * i + SQ * 0.22, SQ * 0.2, opposite(left, rank), '1' + rank);
        pgnk_svg_printf(o,
                        "<text x=\"%g\" y=\"%g\" font-family=\"sans-serif\" font-size=\"%g\" "
                        "font-weight=\"bold\" text-anchor=\"end\" fill=\"%s\">%c</text>\n",
                        SQ * i + SQ * 0.95, SQ * 8 - SQ * 0.06, SQ * 0.2, opposite(file, bottom),
                        'a' + file);
    }
}

/* The squares the last move shows: from and to, the king's destination for castling. */
static void last_move_squares(pgn_move mv, unsigned sq[2]) {
    sq[0] = PGN_MOVE_FROM(mv);
    sq[1] = PGN_MOVE_TO(mv);
    if (PGN_MOVE_KIND(mv) == PGN_MOVE_CASTLE) {
        sq[1] = (sq[0] & 56) | (sq[1] > sq[0] ? 6u : 2u);
    }
}

/* The <defs>: each piece on the board once, and the check gradient when the king is in check. */
static void board_defs(svg_out *o, const pgn_pos *pos, int check) {
    pgnk_svg_puts(o, "<defs>\n");
    unsigned present = 0;
    for (unsigned sq = 0; sq < 64; sq++) {
        if (pos->board[sq]) {
            present |= 1u << pos->board[sq];
        }
    }
    for (unsigned c = 0; c < 2; c++) {
        for (unsigned t = PGN_PAWN; t <= PGN_KING; t++) {
            if (present & (1u << PGN_PIECE(c, t))) {
                piece_def(o, c, t);
            }
        }
    }
    if (check) {
        pgnk_svg_puts(o, "<radialGradient id=\"check\"><stop offset=\"0\" stop-color=\"#ff0000\"/>"
                         "<stop offset=\"0.25\" stop-color=\"#e70000\"/>"
                         "<stop offset=\"0.89\" stop-color=\"#a90000\" stop-opacity=\"0\"/>"
                         "<stop offset=\"1\" stop-color=\"#9e0000\" stop-opacity=\"0\"/>"
                         "</radialGradient>\n");
    }
    pgnk_svg_puts(o, "</defs>\n");
}

/* The squares: light ground, dark squares, the last move, the king in check. */
static void board_squares(svg_out *o, const pgn_pos *pos, const pgn_board_opts *opts, int flip,
                          int check) {
    pgnk_svg_printf(o, "<rect width=\"%g\" height=\"%g\" fill=\"%s\"/>\n", 8 * SQ, 8 * SQ,
                    light_sq);
    for (unsigned sq = 0; sq < 64; sq++) {
        if (((sq >> 3) + (sq & 7)) % 2 == 0) {
            square_rect(o, sq, flip, "fill=\"#b58863\""); /* dark_sq */
        }
    }
    if (opts->last_move != PGN_MOVE_NONE && opts->last_move != PGN_MOVE_NULL) {
        unsigned sq[2];
        last_move_squares(opts->last_move, sq);
        for (int i = 0; i < 2; i++) {
            square_rect(o, sq[i], flip, "fill=\"#9bc700\" fill-opacity=\"0.41\"");
        }
    }
    if (check) {
        uint64_t king = pos->by_type[PGN_KING] & pos->by_color[pos->side];
        for (unsigned sq = 0; sq < 64; sq++) {
            if (king >> sq & 1) {
                square_rect(o, sq, flip, "fill=\"url(#check)\"");
            }
        }
    }
}

/* The pieces, each a <use> of its definition. */
static void board_pieces(svg_out *o, const pgn_pos *pos, int flip) {
    for (unsigned sq = 0; sq < 64; sq++) {
        unsigned p = pos->board[sq];
        if (p) {
            double x, y;
            square_xy(sq, flip, &x, &y);
            pgnk_svg_printf(
                o, "<use xlink:href=\"#pk-%c%c\" transform=\"translate(%g,%g) scale(%.6f)\"/>\n",
                PGN_PIECE_COLOR(p) ? 'b' : 'w', piece_letters[PGN_PIECE_TYPE(p) - 1], x, y,
                SQ / PIECE_UNITS);
        }
    }
}

static void board(svg_out *o, const pgn_pos *pos, const pgn_board_opts *opts, pgn_str comment) {
    int flip = (opts->flags & PGN_BOARD_FLIP) != 0;
    unsigned size = opts->size ? opts->size : 400;
    int check = pgn_pos_in_check(pos);
    svg_open(o, 8 * SQ, 8 * SQ, size, size);
    board_defs(o, pos, check);
    board_squares(o, pos, opts, flip, check);
    marks(o, opts, comment, 0);
    board_pieces(o, pos, flip);
    if (opts->flags & PGN_BOARD_COORDS) {
        coords(o, flip);
    }
    marks(o, opts, comment, 1);
    pgnk_svg_puts(o, "</svg>\n");
}

pgn_status pgn_board_svg(const pgn_pos *pos, const pgn_board_opts *opts, pgn_write_fn fn,
                         void *ctx) {
    pgn_board_opts def = {0};
    svg_out o;
    pgnk_svg_init(&o, fn, ctx);
    board(&o, pos, opts ? opts : &def, (pgn_str){"", 0});
    return pgnk_svg_finish(&o);
}

pgn_status pgn_game_board_svg(const pgn_game *game, size_t ply, const pgn_board_opts *opts,
                              pgn_write_fn fn, void *ctx) {
    pgn_board_opts o2 = {0};
    if (opts) {
        o2 = *opts;
    }
    pgn_pos pos = *pgn_game_start(game);
    const pgn_node *node = pgn_game_root(game);
    for (size_t i = 0; i < ply; i++) {
        node = pgn_node_child(node);
        if (!node) {
            return PGN_E_LIMIT;
        }
        pgn_pos_play(&pos, pgn_node_move(node));
    }
    if (o2.last_move == PGN_MOVE_NONE && ply > 0) {
        o2.last_move = pgn_node_move(node);
    }
    svg_out o;
    pgnk_svg_init(&o, fn, ctx);
    board(&o, &pos, &o2, pgn_node_comment(node));
    return pgnk_svg_finish(&o);
}
