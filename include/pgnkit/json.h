/* SPDX-License-Identifier: MIT */
/* pgnkit JSON form of games (docs/json-format.md, schema docs/pgnkit-game.schema.json): a writer
 * that streams each game with its tags, start position, whole variation tree (PGN §8.2.5),
 * comments, NAGs (PGN §8.2.4) and result, and per move SAN, UCI and the FEN after it; and the
 * strict reader of json_reader.h (included here); a diagnostic as JSON and as a text line. */
#ifndef PGNKIT_JSON_H
#define PGNKIT_JSON_H

#include "base.h"
#include "game.h"
#include "json_reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* JSON writer flags (pgn_json_writer_opts.flags). Zero writes one JSON array of games. */
#define PGN_JSON_NDJSON 0x01u /* newline-delimited JSON: one game object per line, no array */
/* for tests: SAN and FEN of every move from the board alone, never the SAN kept in the node
 * (pgn_node_san) nor the previous move's FEN text */
#define PGN_JSON_RECOMPUTE 0x02u
/* no "fen" member in the moves of a game of standard chess that is not Chess960, whose reader can
 * replay the UCI moves (pgnkit html, issue 34: the FENs made a page about 9 times its PGN's size);
 * other games keep them */
#define PGN_JSON_NO_MOVE_FEN 0x04u
/* with PGN_JSON_NO_MOVE_FEN: a move written without "fen" that has no comment, NAG or variation
 * is the string "SAN UCI" ("e4 e2e4") instead of an object (the form of docs/json-format.md,
 * "Compact moves"; pgn_json_reader does not read it) */
#define PGN_JSON_SHORT_MOVES 0x08u

typedef struct pgn_json_writer_opts {
    uint32_t flags;
    uint32_t fen_flags; /* pgn_fen_write flags for every "fen" member (0: X-FEN, legal e.p.) */
    const pgn_allocator *alloc;
} pgn_json_writer_opts;

typedef struct pgn_json_writer pgn_json_writer;

/** Creates a JSON writer sending its output to fn (the same callback type as the PGN writer).
 * opts may be NULL (defaults). Returns PGN_OK or PGN_E_NOMEM; release with pgn_json_writer_free.
 */
PGN_API PGN_NODISCARD pgn_status pgn_json_writer_new(pgn_json_writer **out,
                                                     const pgn_json_writer_opts *opts,
                                                     pgn_write_fn fn, void *ctx);
/** Frees the writer (without finishing the array); accepts NULL. */
PGN_API void pgn_json_writer_free(pgn_json_writer *writer);

/**
 * Writes one game as a JSON object on one line (docs/json-format.md): "[" before the first game
 * and "," between games unless PGN_JSON_NDJSON. Output goes to fn in pieces of about 64 KiB, so
 * memory does not grow with the game; the tree is walked with pgn_iter. Strings are
 * escaped per RFC 8259 (", \, control characters as \u00XX); UTF-8 passes through, and a byte
 * that is not part of valid UTF-8 (possible only in games built through the API) is written as
 * U+FFFD. Returns PGN_OK, PGN_E_NOMEM, or PGN_E_IO when fn failed (the output is then cut).
 */
PGN_API PGN_NODISCARD pgn_status pgn_json_writer_write(pgn_json_writer *writer,
                                                       const pgn_game *game);

/** Ends the output: "]\n" after the games ("[]\n" if none) unless PGN_JSON_NDJSON, where it
 * writes nothing. Returns PGN_OK or PGN_E_IO. */
PGN_API PGN_NODISCARD pgn_status pgn_json_writer_finish(pgn_json_writer *writer);

/**
 * Writes the body of a JSON string (RFC 8259 §7, without the quotes) for the len bytes at src:
 * `"` and `\` escaped, control characters (C0, DEL, C1) as \u00XX, valid UTF-8 copied, and every
 * byte that is not part of valid UTF-8 written as \ufffd, so the result is valid UTF-8 whatever src
 * holds. The one escaper of pgnkit (the JSON writer uses the same code). At most cap - 1 bytes
 * are written, then a NUL; the text is cut on a character boundary when it does not fit (6 * len +
 * 1 bytes always do). Returns the length written. dst must not be NULL and cap must be at least 1.
 */
PGN_API size_t pgn_json_escape(char *dst, size_t cap, const char *src, size_t len);

/**
 * Writes the JSON string (with its quotes) of the len bytes at src to fn, escaped as
 * pgn_json_escape does, in pieces of at most a few KiB: the one JSON string writer for output
 * that goes through a callback (memory does not grow with len). Returns PGN_OK, or PGN_E_IO when
 * fn failed (the output is then cut).
 */
PGN_API PGN_NODISCARD pgn_status pgn_json_write_string(pgn_write_fn fn, void *ctx, const char *src,
                                                       size_t len);

/** Where pgn_json_html_write sends its text: a write callback and its context. */
typedef struct pgn_json_html_sink {
    pgn_write_fn fn;
    void *ctx;
} pgn_json_html_sink;

/**
 * A pgn_write_fn (ctx: a pgn_json_html_sink) for JSON text that goes into an HTML page's
 * <script> element, or into an answer a browser might read as HTML: passes the n bytes at p on to
 * sink->fn with every <, > and & written as \u003c, \u003e, \u0026. In JSON text these bytes
 * occur only inside strings, where the escape means the same character (RFC 8259 §7), so the JSON
 * reads the same and no text in it can end the element or be markup. Put it under the JSON
 * writers (pgn_json_write_string, pgn_diag_json, pgn_json_writer_new). Returns n, or -1 when
 * sink->fn failed.
 */
PGN_API ptrdiff_t pgn_json_html_write(void *ctx, const void *p, size_t n);

/**
 * Writes diagnostic d as one JSON object, without a newline: the one JSON form of a diagnostic
 * (docs/diagnostics.schema.json, "diagnostic"), which pgnkit --diag json, pgnkit serve and the
 * Python package share. Members in this order: file (d->source, or "<stdin>" when NULL), line,
 * column, offset, game, severity, code, message (pgn_status_message), detail (only when detail is
 * neither NULL nor empty), token, suggestions (only when d has some) and replacement (only when
 * set). Strings are escaped as pgn_json_escape does. Returns PGN_OK, or PGN_E_IO when fn failed.
 */
PGN_API PGN_NODISCARD pgn_status pgn_diag_json(const pgn_diag *d, const char *detail,
                                               pgn_write_fn fn, void *ctx);

/**
 * Writes diagnostic d as one line of text, the newline included, in GCC's form (src/export/
 * diag_text.c): "FILE:LINE:COLUMN: SEVERITY: MESSAGE[: DETAIL][ 'TOKEN'][HINT] [CODE] (game N)"
 * with FILE d->source or "<stdin>", SEVERITY "error" or "warning", MESSAGE pgn_status_message,
 * DETAIL when detail is neither NULL nor empty, TOKEN d->token when not empty with control bytes
 * and UTF-8 C1 controls as spaces, HINT " (replaced by MOVE)" when d has a replacement, else
 * ": did you mean A?" or ": did you mean A or B?" (the two best suggestions), CODE
 * pgn_status_name. Given to fn in one call when the line fits 4 KB. Returns PGN_OK, or PGN_E_IO
 * when fn failed.
 */
PGN_API PGN_NODISCARD pgn_status pgn_diag_text(const pgn_diag *d, const char *detail,
                                               pgn_write_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
