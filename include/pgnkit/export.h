/* SPDX-License-Identifier: MIT */
/* pgnkit line-oriented exporters of a game's main line: SAN, long algebraic (LAN), EPD (PGN §16.2)
 * and CSV (RFC 4180), one game or one position per line. */
#ifndef PGNKIT_EXPORT_H
#define PGNKIT_EXPORT_H

#include "base.h"
#include "game.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pgn_export_format {
    PGN_EXPORT_SAN = 0, /* the main line's SAN moves, space separated, one game per line */
    PGN_EXPORT_LAN,     /* the same in long algebraic: Ng1-f3 e7xd8=Q+ O-O (pgn-extract -Wxolalg) */
    PGN_EXPORT_EPD,     /* one EPD line per main-line position, the start included: the four FEN
                           fields, then hmvc, fmvn and id "GAME.PLY" (PGN §16.2) */
    PGN_EXPORT_CSV,     /* a header row, then one row per game: the tags of opts.tags */
    PGN_EXPORT_CSV_PLY  /* a header row, then one row per main-line ply: game, ply, san, uci, fen
                           (after the move), clock (seconds), eval (pawns or #N), nags ($n ...) */
} pgn_export_format;

typedef struct pgn_export_opts {
    pgn_export_format format;
    uint32_t fen_flags;  /* pgn_fen_write flags for EPD and CSV_PLY */
    const pgn_str *tags; /* CSV: the columns (tag names); NULL: the Seven Tag Roster */
    size_t tag_count;
    const pgn_allocator *alloc; /* NULL: libc */
    pgn_lang lang; /* SAN and LAN: piece letters (0: English; others are not export format) */
} pgn_export_opts;

typedef struct pgn_exporter pgn_exporter;

/** Creates an exporter sending its text to fn. opts is copied (the tag names it points to must
 * outlive the exporter). Returns PGN_OK or PGN_E_NOMEM; release with pgn_exporter_free. */
PGN_API PGN_NODISCARD pgn_status pgn_exporter_new(pgn_exporter **out, const pgn_export_opts *opts,
                                                  pgn_write_fn fn, void *ctx);
/** Writes one game (the CSV header row first, before the first game). Games are numbered from 1
 * in the order they are written. Returns PGN_OK, PGN_E_NOMEM or PGN_E_IO (fn failed). */
PGN_API PGN_NODISCARD pgn_status pgn_exporter_write(pgn_exporter *ex, const pgn_game *game);
/** Ends the output: writes the CSV header row if no game was written. PGN_OK or PGN_E_IO. */
PGN_API PGN_NODISCARD pgn_status pgn_exporter_finish(pgn_exporter *ex);
/** Frees the exporter; accepts NULL. */
PGN_API void pgn_exporter_free(pgn_exporter *ex);

/** Longest long-algebraic move with its NUL ("Qd1xd8+", "e7xd8=Q#"). */
#define PGN_LAN_MAX 12
/** Writes mv (legal in pos) in long algebraic notation with a NUL: piece letter (none for pawns),
 * origin, "-" or "x", destination, "=Q" for a promotion, "+" or "#"; castling as O-O/O-O-O; the
 * null move as "--". Returns the length. */
PGN_API size_t pgn_lan_write(const pgn_pos *pos, pgn_move mv, char buf[PGN_LAN_MAX]);

#ifdef __cplusplus
}
#endif
#endif
