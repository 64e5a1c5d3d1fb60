/* SPDX-License-Identifier: MIT */
/* pgnkit JSON form of games, reading (docs/json-format.md): a strict reader (RFC 8259) that
 * replays every move on the board and builds the game back. Part of the parse layer, apart from
 * the writer (json.h, which includes this header). */
#ifndef PGNKIT_JSON_READER_H
#define PGNKIT_JSON_READER_H

#include "base.h"
#include "game.h"
#include "reader.h"

#ifdef __cplusplus
extern "C" {
#endif

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
