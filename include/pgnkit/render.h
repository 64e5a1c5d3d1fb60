/* SPDX-License-Identifier: MIT */
/* pgnkit pictures: a board as SVG 1.1 (a position, the last move, check, the [%csl]/[%cal] marks
 * of a comment) and a game's evaluation graph as SVG 1.1 from its [%eval] commands, on lichess's
 * winning-chance scale. Pieces: Maurizio Monge's "Celtic" set (MIT, src/render/PIECES.md). The
 * SVG writers allocate nothing: the text goes to a pgn_write_fn through a buffer on the stack. The
 * viewer's JSON (pgnkit serve's games and pastes) comes last. */
#ifndef PGNKIT_RENDER_H
#define PGNKIT_RENDER_H

#include "annot.h"
#include "base.h"
#include "chess.h"
#include "evaluation.h"
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

/* ---- the JSON of a page's viewer (pgnkit html and serve) ---- */

/**
 * Writes game g as the viewer's entry (web/viewer.js; pgnkit html's page, serve's answers):
 * {"game": the game as the JSON writer's NDJSON form (docs/json-format.md) with json_flags
 * (pgn_json_writer_opts.flags, e.g. PGN_JSON_SHORT_MOVES) added, "graph": the <svg> element of
 * pgn_graph_svg at 720 x 180 (only when the game has [%eval]s), and when stats is not NULL
 * "analysed": analysed != 0 and "stats": {"white": {...}, "black": {...}} ("moves", "acpl",
 * "accuracy" (one decimal; null for a side without moves), "inaccuracies", "mistakes",
 * "blunders")}. Every <, > and & is written as \u00XX (pgn_json_html_write), so no text of a PGN
 * can be markup. The entry goes to fn. Returns PGN_OK, PGN_E_IO when fn failed (the entry is then
 * cut) or PGN_E_NOMEM.
 */
PGN_API PGN_NODISCARD pgn_status pgn_viewer_entry_json(const pgn_game *g, uint32_t json_flags,
                                                       const pgn_game_stats *stats, int analysed,
                                                       pgn_write_fn fn, void *ctx);

/* pgn_paste_opts.flags */
#define PGN_PASTE_ENTRIES 0x01u /* each whole game's viewer entry goes to pgn_paste.entries */

/** How pgn_paste_read reads a pasted text. A zeroed struct: no caps, 200 diagnostics listed. */
typedef struct pgn_paste_opts {
    uint32_t flags;             /* PGN_PASTE_* */
    uint32_t reader_flags;      /* pgn_reader_opts.flags, e.g. PGN_READ_FIX */
    unsigned max_games;         /* games that read whole, at most (0: no cap) */
    unsigned max_plies;         /* main-line plies of one game, at most (0: no cap) */
    unsigned max_diags;         /* diagnostics kept as JSON (all are counted); 0: 200 */
    const char *source_name;    /* the diagnostics' "file" (NULL: "<stdin>"); borrowed */
    const pgn_allocator *alloc; /* the reader's, the games' and pgn_paste's buffers' (NULL: libc);
                                   borrowed: it must outlive the pgn_paste */
} pgn_paste_opts;

/* pgn_paste.over: which cap of pgn_paste_opts refused the text */
#define PGN_PASTE_OVER_GAMES 1u /* max_games */
#define PGN_PASTE_OVER_PLIES 2u /* max_plies */

/** What a pasted text holds (pgn_paste_read fills it; release with pgn_paste_free). */
typedef struct pgn_paste {
    unsigned games;            /* games that read whole: the ones shown and analysed */
    unsigned broken;           /* games left out for their errors */
    uint64_t positions;        /* the whole games' main-line positions (plies + 1 each) */
    unsigned errors, warnings; /* every diagnostic, counted */
    unsigned ndiags;           /* the diagnostics in diags */
    char error[160];           /* why the text is refused ("" when it is not) */
    unsigned over;      /* the cap that refused it: PGN_PASTE_OVER_GAMES or _PLIES (0: none) */
    pgn_membuf diags;   /* the first diagnostics as JSON objects (pgn_diag_json), comma-separated */
    pgn_membuf entries; /* with PGN_PASTE_ENTRIES: the whole games' pgn_viewer_entry_json entries
                           (no statistics), comma-separated */
} pgn_paste;

/**
 * Reads every game of text[0..len) into p (which need not be initialised): a broken game is
 * counted and left out, the others kept (issue 28), each diagnostic counted and the first ones
 * kept as JSON, with <, > and & escaped. opts may be NULL. Returns PGN_OK when at least one game
 * reads whole and no cap is exceeded; PGN_E_LIMIT when the text is refused: no game reads whole,
 * a cap of opts is exceeded, or the reader stopped (p->error says which); PGN_E_NOMEM;
 * PGN_E_BAD_ALLOCATOR (opts->alloc half-filled: p is left empty). p holds
 * what was read in every case: release it with pgn_paste_free.
 */
PGN_API PGN_NODISCARD pgn_status pgn_paste_read(pgn_paste *p, const char *text, size_t len,
                                                const pgn_paste_opts *opts);

/**
 * Writes the JSON members every answer about a paste has (no braces): "error" (only when
 * p->error is set), "games", "broken", "positions", "errors", "warnings", "diagnostics": [...],
 * to fn. Returns PGN_OK, or PGN_E_IO when fn failed.
 */
PGN_API PGN_NODISCARD pgn_status pgn_paste_json(const pgn_paste *p, pgn_write_fn fn, void *ctx);

/** Releases what p holds (NULL is allowed); p may be read again after. */
PGN_API void pgn_paste_free(pgn_paste *p);

#ifdef __cplusplus
}
#endif
#endif
