/* SPDX-License-Identifier: MIT */
/* pgnkit pictures: a board as SVG 1.1 (a position, the last move, check, the [%csl]/[%cal] marks
 * of a comment) and a game's evaluation graph as SVG 1.1 from its [%eval] commands, on lichess's
 * winning-chance scale. Pieces: Maurizio Monge's "Celtic" set (MIT, src/render/PIECES.md). The
 * writers allocate nothing: the text goes to a pgn_write_fn through a buffer on the stack. */
#ifndef PGNKIT_RENDER_H
#define PGNKIT_RENDER_H

#include "annot.h"
#include "base.h"
#include "chess.h"
#include "game.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pgn_board_opts.flags */
#define PGN_BOARD_FLIP 0x01u   /* Black at the bottom */
#define PGN_BOARD_COORDS 0x02u /* file letters and rank numbers inside the edge squares */

/** How to draw a board. A zeroed struct gives a 400-pixel board, White at the bottom, no marks. */
typedef struct pgn_board_opts {
    uint32_t flags; /* PGN_BOARD_* */
    uint32_t size;  /* width and height in pixels; 0 means 400 */
    /* highlighted as the last move (its two squares; castling: the king's); PGN_MOVE_NONE: none */
    pgn_move last_move;
    const pgn_mark *marks; /* arrows (from != to) and circled squares (from == to); may be NULL */
    size_t mark_count;
} pgn_board_opts;

/**
 * Writes pos as a standalone SVG 1.1 document to fn: the squares, the last move highlighted, a
 * red glow under the king of the side to move when it is in check, circled squares, the pieces,
 * the coordinates with PGN_BOARD_COORDS, and the arrows on top, in the colours lichess gives
 * [%csl]/[%cal] marks (G green, R red, Y yellow, B blue). opts may be NULL (defaults). Only the
 * pieces on the board are defined in the document. Returns PGN_OK, or PGN_E_IO when fn failed.
 */
PGN_API PGN_NODISCARD pgn_status pgn_board_svg(const pgn_pos *pos, const pgn_board_opts *opts,
                                               pgn_write_fn fn, void *ctx);

/**
 * Writes the board of game's main line after ply plies (0: the start position) like
 * pgn_board_svg: the move of that ply highlighted unless opts->last_move is set, and the marks of
 * opts followed by the [%csl]/[%cal] marks of the comment after that move (for ply 0, the game
 * comment). Returns PGN_OK, PGN_E_LIMIT when the main line has fewer plies, or PGN_E_IO.
 */
PGN_API PGN_NODISCARD pgn_status pgn_game_board_svg(const pgn_game *game, size_t ply,
                                                    const pgn_board_opts *opts, pgn_write_fn fn,
                                                    void *ctx);

/**
 * Writes an SVG 1.1 document defining the twelve pieces (ids "pk-wK" ... "pk-bP", each drawn in
 * a 933.333-unit square) for pages that draw boards themselves with <use>. Returns PGN_OK or
 * PGN_E_IO.
 */
PGN_API PGN_NODISCARD pgn_status pgn_pieces_svg(pgn_write_fn fn, void *ctx);

/** How to draw an evaluation graph. A zeroed struct gives 600 x 200 pixels. */
typedef struct pgn_graph_opts {
    uint32_t width, height; /* pixels; 0 means 600 and 200 */
} pgn_graph_opts;

/**
 * Writes the evaluation graph of game's main line as an SVG 1.1 document: one column per ply, the
 * [%eval] after each move on lichess's winning-chance scale 2 / (1 + exp(-0.00368208 * cp)) - 1
 * (mates and a checkmating move at +1 or -1; plies without [%eval] are skipped), the area between
 * the curve and the middle white above it and black below, judged moves as dots in lichess's
 * colours (inaccuracy blue, mistake orange, blunder red) judged from the evaluations before and
 * after the move with pgn_judge_move (the thresholds of docs/analysis.md; where either is
 * missing, the move's own $6/$2/$4), and move numbers along the bottom. Each column is a
 * transparent rect with id "ply-N" and a <title> ("12... Nf6 -0.35") so that a page can find the
 * move clicked. Returns PGN_OK or PGN_E_IO.
 */
PGN_API PGN_NODISCARD pgn_status pgn_graph_svg(const pgn_game *game, const pgn_graph_opts *opts,
                                               pgn_write_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
