/* SPDX-License-Identifier: MIT */
/* pgnkit JSON form of games (docs/json-format.md, schema docs/pgnkit-game.schema.json): a writer
 * that streams each game with its tags, start position, whole variation tree (PGN §8.2.5),
 * comments, NAGs (PGN §8.2.4) and result, and per move SAN, UCI and the FEN after it; and a strict
 * reader (RFC 8259) that replays every move on the board and builds the game back. */
#ifndef PGNKIT_JSON_H
#define PGNKIT_JSON_H

#include "base.h"
#include "game.h"
#include "reader.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- writer ---- */

/* JSON writer flags (pgn_json_writer_opts.flags). Zero writes one JSON array of games. */
#define PGN_JSON_NDJSON 0x01u /* newline-delimited JSON: one game object per line, no array */
/* for tests: SAN and FEN of every move from the board alone, never the SAN kept in the node
 * (pgn_node_san) nor the previous move's FEN text */
#define PGN_JSON_RECOMPUTE 0x02u

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
 * memory does not grow with the game; the tree is walked with an explicit stack. Strings are
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
 * `"` and `\` escaped, control characters as \u00XX, valid UTF-8 copied, and every byte that is not
 * part of valid UTF-8 written as \ufffd, so the result is valid UTF-8 whatever src holds. The one
 * escaper of pgnkit (the JSON writer uses the same code). At most cap - 1 bytes are written, then a
 * NUL; the text is cut on a character boundary when it does not fit (6 * len + 1 bytes always
 * do). Returns the length written. dst must not be NULL and cap must be at least 1.
 */
PGN_API size_t pgn_json_escape(char *dst, size_t cap, const char *src, size_t len);

/* ---- reader ---- */

typedef struct pgn_json_reader_opts {
    uint32_t flags;          /* none defined yet; must be 0 */
    const char *source_name; /* copied into diagnostics as is; must outlive the reader */
    pgn_diag_fn on_diag;
    void *diag_ctx;
    const pgn_allocator *alloc;
    size_t max_token;   /* longest string or number in bytes; 0 means 1 MiB. Longer: PGN_E_LIMIT */
    uint32_t max_depth; /* deepest nesting of arrays and objects; 0 means 12400 (three levels per
                         * variation: 4096 nested variations). Deeper: PGN_E_LIMIT */
} pgn_json_reader_opts;

typedef struct pgn_json_reader pgn_json_reader;

/** Creates a JSON reader pulling bytes through read(ctx, ...). opts may be NULL; it is copied.
 * Returns PGN_OK or PGN_E_NOMEM; release with pgn_json_reader_free. */
PGN_API PGN_NODISCARD pgn_status pgn_json_reader_new(pgn_json_reader **out,
                                                     const pgn_json_reader_opts *opts,
                                                     pgn_read_fn read, void *ctx);
/** A JSON reader over len bytes at data, which must outlive the reader (not copied). */
PGN_API PGN_NODISCARD pgn_status pgn_json_reader_new_mem(pgn_json_reader **out,
                                                         const pgn_json_reader_opts *opts,
                                                         const void *data, size_t len);
/** Frees the reader; accepts NULL. */
PGN_API void pgn_json_reader_free(pgn_json_reader *reader);

/**
 * Reads the next game into game (reset first). The input is a sequence of top-level values, each
 * a game object or an array of game objects: the output of --to json and of --to ndjson both
 * read back. Memory is bounded by the largest game; nothing recurses per nesting level.
 *
 * Returns PGN_OK with the game; PGN_END when no game is left; for a game that is well-formed JSON
 * but not a valid game, its error after one diagnostic (to opts.on_diag): PGN_E_BAD_JSON (a
 * member of the wrong type, unknown or missing), PGN_E_BAD_FEN, PGN_E_UNSUPPORTED_VARIANT (a
 * Variant tag naming rules pgnkit does not check, as in PGN), PGN_E_BAD_SAN, PGN_E_ILLEGAL_MOVE
 * or PGN_E_AMBIGUOUS_MOVE (every move is replayed on the board), and the next call reads the next
 * game. Fatal errors: PGN_E_BAD_JSON for a syntax error and PGN_E_LIMIT (each with a diagnostic
 * giving line and column), PGN_E_IO, PGN_E_NOMEM; after them the reader cannot find another game
 * and the following calls return PGN_END.
 */
PGN_API PGN_NODISCARD pgn_status pgn_json_reader_next(pgn_json_reader *reader, pgn_game *game);

/** What was wrong at the last diagnostic, as a short English phrase ("expected : after the
 * member name"), for messages; "" before any. Borrowed: static text. */
PGN_API const char *pgn_json_reader_detail(const pgn_json_reader *reader);

/** Games read so far (including those with errors) and diagnostics reported. */
PGN_API void pgn_json_reader_totals(const pgn_json_reader *reader, uint64_t *games,
                                    uint64_t *errors);

#ifdef __cplusplus
}
#endif
#endif
