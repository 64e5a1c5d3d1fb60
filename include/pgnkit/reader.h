/* SPDX-License-Identifier: MIT */
/* pgnkit streaming PGN reader (PGN §7-§9 import format, digest §5): pulls bytes through a callback,
 * reports each game through a visitor or builds its tree, and reports every problem as a
 * diagnostic with line, column, byte offset and game number. Memory is bounded by the largest game.
 */
#ifndef PGNKIT_READER_H
#define PGNKIT_READER_H

#include <stdio.h>

#include "base.h"
#include "chess.h"
#include "game.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A diagnostic: an error (PGN_E_*) or a warning (PGN_W_*) with its place in the stream. */
typedef struct pgn_diag {
    pgn_status code;
    pgn_severity severity; /* PGN_SEV_ERROR for PGN_E_*, and for PGN_W_* under PGN_READ_STRICT
                              (except PGN_W_RESULT_AFTER_MATE, a warning only strict reports) */
    pgn_loc at;            /* start of the offending token */
    uint64_t game;         /* 1-based ordinal of the game in this stream */
    const char *source;    /* opts.source_name, may be NULL */
    char token[48];        /* NUL-terminated excerpt of the offending text */
    /* Appended (issue 28; docs/repair.md). A move that cannot be played as written: the legal
     * moves most likely meant, in SAN, best first, separated by single spaces (up to 5; empty:
     * none). W_REPAIRED_MOVE: replacement is the move played for token. Owned as token is. */
    char suggestions[48];
    char replacement[16];
} pgn_diag;

/** Receives each diagnostic; d is valid only during the call. */
typedef void (*pgn_diag_fn)(void *ctx, const pgn_diag *d);

/** Input callback: fills buf with up to cap bytes; returns the count, 0 at the end, -1 on error. */
typedef ptrdiff_t (*pgn_read_fn)(void *ctx, void *buf, size_t cap);

typedef enum pgn_flow { PGN_FLOW_CONTINUE = 0, PGN_FLOW_SKIP, PGN_FLOW_STOP } pgn_flow;

/** What the reader knows about the game just read. */
typedef struct pgn_game_summary {
    uint64_t game;       /* ordinal */
    pgn_loc start;       /* first byte of the game */
    uint64_t end_offset; /* just past its last byte */
    uint32_t errors, warnings;
    pgn_diag first_error; /* valid when errors > 0 */
    uint32_t plies;       /* main-line moves read */
    int broken;           /* nonzero: an error lost part of the game (moves, tags or text) */
    pgn_result marker;    /* the termination marker as read (PGN_RESULT_NONE: none); the game's
                             result is the Result tag's when they disagree (W_RESULT_MISMATCH) */
    /* During end_game only (NULL elsewhere): the main line's final position, where its last
     * legal move left it; NULL under PGN_READ_NO_BOARD or when the movetext was not read. A
     * visitor that needs only the final position then needs no move callback. */
    const pgn_pos *final_pos;
} pgn_game_summary;

/**
 * Visitor callbacks; any member may be NULL. Strings are valid only during the call. A comment
 * that comes before any move of the game or of a variation is the pre-comment of what follows;
 * otherwise it belongs to the move before it.
 */
typedef struct pgn_visitor {
    pgn_flow (*begin_game)(void *user, pgn_loc at);
    pgn_flow (*tag)(void *user, pgn_str name, pgn_str value);
    /* start: the game's start position (from FEN or standard), NULL under PGN_READ_NO_BOARD.
     * SKIP jumps to end_game without reading the movetext. */
    pgn_flow (*end_tags)(void *user, const pgn_pos *start);
    /* before: the position before mv (after it under PGN_READ_MOVE_AFTER); NULL and
     * mv = PGN_MOVE_NONE under PGN_READ_NO_BOARD.
     * STOP: no more callbacks for this game (its moves are still resolved and checked). SKIP: the
     * rest of the movetext is skipped as after end_tags' SKIP (no move resolved, no callback
     * but end_game, whose summary counts the plies up to this one). */
    pgn_flow (*move)(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at);
    pgn_flow (*comment)(void *user, pgn_str text);
    pgn_flow (*nag)(void *user, unsigned nag);
    pgn_flow (*begin_variation)(void *user); /* SKIP: jump past the matching ')' */
    pgn_flow (*end_variation)(void *user);
    pgn_flow (*end_game)(void *user, pgn_result result, const pgn_game_summary *summary);
} pgn_visitor;

/* Reader flags (pgn_reader_opts.flags). Zero is the lax import format. */
#define PGN_READ_STRICT 0x01u          /* import-format warnings become errors */
#define PGN_READ_NO_BOARD 0x02u        /* do not resolve SAN: tags and syntax only (fast) */
#define PGN_READ_KEEP_RAW 0x04u        /* keep each game's original bytes (pgn_reader_raw) */
#define PGN_READ_NESTED_COMMENTS 0x08u /* { a { b } c } nests (pgn-extract --nestedcomments) */
#define PGN_READ_NO_NULL_MOVES 0x10u   /* refuse -- and Z0 even in lax mode */
#define PGN_READ_NO_KEYS                                                                           \
    0x20u /* positions given to a visitor have key 0 (faster; pgn_pos_compute_key) */
#define PGN_READ_NO_LANG_DETECT                                                                    \
    0x40u /* a move English cannot read stays an error: no other language is tried */
#define PGN_READ_RANGE_AT_GAME                                                                     \
    0x80u /* range_start begins a game's line (the caller cut there): no skip to a boundary */
#define PGN_READ_KEEP_LEAD                                                                         \
    0x100u /* with KEEP_RAW: keep the text before the first game (pgn_reader_raw_between); the     \
            * memory it takes is that text's size */
#define PGN_READ_FIX                                                                               \
    0x200u /* a move that cannot be played is replaced by the one candidate that is clearly        \
            * meant (W_REPAIRED_MOVE; docs/repair.md) */
#define PGN_READ_TAGS_ONLY                                                                         \
    0x400u /* accepted, no longer needed: every skipped movetext (end_tags SKIP, a refused game,   \
            * a move callback's SKIP) is passed over a line at a time up to its last line, with    \
            * the games, tags and diagnostics of a token-by-token reading (docs/design.md) */
#define PGN_READ_TAG_SPANS                                                                         \
    0x800u /* the tag callback's name and value may point into the reader's input window, not      \
            * NUL-terminated (as pgn_str promises; without the flag they are NUL-terminated        \
            * copies): no copy a tag pair */
#define PGN_READ_MOVE_AFTER                                                                        \
    0x1000u /* the move callback comes once the move is played, and its position is the one after  \
             * mv, not before it: the reader may read and play a move in one pass                  \
             * (pgn_query_visitor_fast). pgn_reader_next ignores it */
#define PGN_READ_MOVE_GATE                                                                         \
    0x2000u /* with PGN_READ_MOVE_AFTER: the user pointer given to pgn_reader_visit points to a    \
             * pgn_move_gate, which the visitor keeps; the reader may pass over the moves it lets  \
             * pass (no move callback), counting them in it (pgn_query_visitor_fast) */
#define PGN_READ_PACK_LINE                                                                         \
    0x4000u /* pgn_reader_next: a game whose movetext is a main line of moves alone (no comment,   \
             * NAG or variation; every SAN canonical as written) may keep its moves packed, not as \
             * nodes: its root then has no child, and the one function that sees the moves is      \
             * pgn_writer_write, which writes them as it would the tree (issue 32: pgnkit fmt).    \
             * Tags, start, result and diagnostics are kept as always. For a game that goes to the \
             * writer alone */

/** What a visitor read under PGN_READ_MOVE_GATE lets the reader pass over: while open is 1, a
 * main-line move of standard chess that is no castling, no en passant capture, no null move, and
 * neither leaves nor reaches a square of squares (or does, but absent_open is 1 and once it is
 * played a square of absent[c] holds no pawn of colour c, for c White or Black), may get no move
 * callback, passed then counting it, if it is no pawn move nor capture (the halfmove clock runs),
 * or if pawns_open is 1 and the pawns of each colour c on the squares watch[c] are those of
 * pawns[c] once it is played. The visitor may change the fields but passed in any callback, and
 * must read (and may reset) passed: the moves passed over since. Such a pawn move or capture may
 * also pass if alive_open is 1 and, once it is played, each colour c has at least min_pawns[c]
 * pawns and one on each of the square sets alive[c][0..nalive[c]-1] (at most PGN_GATE_ALIVE_MAX).
 * The reader reads the gate only during pgn_reader_visit. */
#define PGN_GATE_ALIVE_MAX 4
typedef struct pgn_move_gate {
    uint64_t squares;
    uint32_t open;
    uint32_t passed;
    uint32_t pawns_open;
    uint64_t pawns[2]; /* [PGN_WHITE], [PGN_BLACK] */
    uint64_t watch[2];
    uint32_t absent_open;
    uint64_t absent[2];
    uint32_t alive_open;
    uint8_t nalive[2];
    uint8_t min_pawns[2];
    uint64_t alive[2][PGN_GATE_ALIVE_MAX];
} pgn_move_gate;

/** How bytes that are not UTF-8 are read. AUTO: UTF-8, else CP437 or Windows-1252 (which reads
 * Latin-1 text the same) as each text's bytes tell, else as the last text that told
 * (docs/pgn-dialect.md, "Encodings"). */
typedef enum pgn_encoding {
    PGN_ENC_AUTO = 0,
    PGN_ENC_UTF8,
    PGN_ENC_LATIN1,
    PGN_ENC_CP1252,
    PGN_ENC_CP437
} pgn_encoding;

/** The encoding named by name, as the CLI's --input-encoding and Python's encoding= take it:
 * "auto", "utf-8" or "utf8", "latin-1", "latin1" or "iso-8859-1", "cp1252" or "windows-1252",
 * "cp437". Returns 1 and sets *out, or 0 for another name (*out unchanged). */
PGN_API int pgn_encoding_from_name(const char *name, pgn_encoding *out);

typedef struct pgn_reader_opts {
    uint32_t flags;
    const char *source_name; /* copied into diagnostics as is; must outlive the reader */
    pgn_diag_fn on_diag;
    void *diag_ctx;
    const pgn_allocator *alloc;
    size_t max_token;   /* longest single token; 0 means 1 MiB. Longer: PGN_E_TOKEN_TOO_LONG */
    uint32_t max_depth; /* deepest RAV nesting; 0 means 4096. Deeper: PGN_E_LIMIT */
    uint64_t
        max_errors; /* stop after this many errors (pgn_reader_* return PGN_E_LIMIT); 0 = never */
    pgn_encoding encoding;
    /* Byte range, for splitting a file between readers (a caller that splits a file itself, as
     * pgnkit --range and the Python binding do):
     * - the read callback delivers the stream from byte range_start on (the caller seeks there);
     * - a reader with range_start > 0 first skips the line range_start lies in, then up to the
     *   next range boundary: a line that looks like a tag pair ([Name "...) right after an empty
     *   line, both after that first line;
     * - it reads the games that start before the first boundary after range_end (0 = to the end
     *   of the stream), the last one to its end past range_end: a game after range_end that
     *   starts elsewhere (without tags, within a line, after a line that is not empty) is read
     *   too, since the next range skips it.
     * So consecutive ranges [0, s), [s, t), ... [z, 0) read every game exactly once, as one reader
     * does, wherever s, t, ... fall: a boundary is always a game's start for the reader before,
     * also inside a { comment, which such a line ends (docs/pgn-dialect.md). Caveats: a tag
     * section that an empty line splits before a tag the game does not have yet (one game, which
     * a boundary cuts in two), such a line in a comment when comments nest, and text that is not
     * UTF-8 read with PGN_ENC_AUTO (each range guesses from what it reads). A file without empty
     * lines before its tag sections has no boundary: the first range reads it all. Offsets in
     * locations are true offsets in the stream (they count from 0 at its start, not at
     * range_start). Lines count from line_base at range_start (0 means 1): give the line number of
     * byte range_start (LF, CRLF and CR each end a line; when range_start is the LF of a CRLF, one
     * less) for true line numbers. */
    uint64_t range_start, range_end;
    uint32_t line_base;
    /* The piece letters of the movetext (docs/notation.md). PGN_LANG_ENGLISH (0): English, and
     * per game, when English cannot read a move, the languages that read it and agree with the
     * moves before it are tried on the rest of the game (W_LANGUAGE at the end names the one or
     * ones that read it all; E_LANGUAGE_AMBIGUOUS where they read a move differently), unless
     * PGN_READ_NO_LANG_DETECT. Another language: that language only (figurines are read in all). */
    pgn_lang input_lang;
} pgn_reader_opts;

typedef struct pgn_reader pgn_reader;

/** Creates a reader that pulls bytes through read(ctx, ...). opts may be NULL (defaults); it is
 * copied. Returns PGN_OK or PGN_E_NOMEM; release with pgn_reader_free. */
PGN_API PGN_NODISCARD pgn_status pgn_reader_new(pgn_reader **out, const pgn_reader_opts *opts,
                                                pgn_read_fn read, void *ctx);
/** A reader over len bytes at data, which must outlive the reader (not copied). */
PGN_API PGN_NODISCARD pgn_status pgn_reader_new_mem(pgn_reader **out, const pgn_reader_opts *opts,
                                                    const void *data, size_t len);
/** A reader over an open stdio stream (not closed by the reader). */
PGN_API PGN_NODISCARD pgn_status pgn_reader_new_file(pgn_reader **out, const pgn_reader_opts *opts,
                                                     FILE *file);
/** Frees the reader and its buffers (not the FILE or the data it reads); accepts NULL. */
PGN_API void pgn_reader_free(pgn_reader *reader);

/**
 * Reads one game, reporting it through v (may be NULL: syntax check only). Returns PGN_OK after a
 * game (even a broken one: its problems went to on_diag), PGN_END when the input has no more
 * games, PGN_E_NOMEM, PGN_E_IO (the callback failed: the game being read then gets no end_game,
 * no further diagnostic and is not counted in the totals; the games before it were reported), or
 * PGN_E_LIMIT (max_errors reached).
 */
PGN_API PGN_NODISCARD pgn_status pgn_reader_visit(pgn_reader *reader, const pgn_visitor *v,
                                                  void *user);

/** Reads one game into game (reset first): tags, start position, move tree and result. Moves after
 * an illegal one are not in the tree. Same returns as pgn_reader_visit. */
PGN_API PGN_NODISCARD pgn_status pgn_reader_next(pgn_reader *reader, pgn_game *game);

/** The summary of the game last read. Borrowed from the reader. */
PGN_API const pgn_game_summary *pgn_reader_summary(const pgn_reader *reader);

/** The original bytes of the game last read (with PGN_READ_KEEP_RAW; else empty), from its first
 * byte up to the start of the next game. Valid until the next read. */
PGN_API pgn_str pgn_reader_raw(const pgn_reader *reader);

/** The end of pgn_reader_raw that follows the game's own text (its termination marker, or its
 * last token): the text between it and the next game, such as white space, % escape lines,
 * comments and notes, so that a rewrite can keep it verbatim in its place (issue 34). *lead (may
 * be NULL) receives, under PGN_READ_KEEP_LEAD for the first game of a stream read from its start,
 * the text before that game, else an empty string. With PGN_READ_KEEP_RAW (else both empty);
 * borrowed from the reader, valid until the next read. */
PGN_API pgn_str pgn_reader_raw_between(const pgn_reader *reader, pgn_str *lead);

/* ---- how a game was read: its diagnostics, kept in the game ---- */

/** At most this many diagnostics are kept per game; the rest are only counted. */
#define PGN_GAME_DIAG_MAX 16

/** The number of diagnostics kept in game (at most PGN_GAME_DIAG_MAX, in the order reported):
 * pgn_reader_next keeps every diagnostic reported while it read the game. *dropped (may be NULL)
 * gets the number reported beyond them. 0 for a game built through the API. */
PGN_API size_t pgn_game_diag_count(const pgn_game *game, uint64_t *dropped);
/** Diagnostic index (< pgn_game_diag_count) of game, borrowed from the game (valid until it is
 * reset, freed or read into); its source is NULL (the reader's name is not kept). */
PGN_API const pgn_diag *pgn_game_diag(const pgn_game *game, size_t index);
/** Keeps a copy of diag in game (beyond PGN_GAME_DIAG_MAX, counts it) and, for an error, marks the
 * game cut short. The memory comes from the game's arena. PGN_OK or PGN_E_NOMEM. */
PGN_API PGN_NODISCARD pgn_status pgn_game_add_diag(pgn_game *game, const pgn_diag *diag);
/** Nonzero if the game was cut short: an error lost part of it (pgn_game_summary.broken), so the
 * game in memory is not the whole game of the input. Writers mark it (the JSON "broken" member). */
PGN_API int pgn_game_broken(const pgn_game *game);
/** Sets what pgn_game_broken returns. */
PGN_API void pgn_game_set_broken(pgn_game *game, int broken);

/** Totals so far: games, errors and warnings reported. */
PGN_API void pgn_reader_totals(const pgn_reader *reader, uint64_t *games, uint64_t *errors,
                               uint64_t *warnings);

/** Under PGN_ENC_AUTO, a text (a tag value, a comment) whose bytes cannot tell CP437 from
 * Windows-1252 is read in the encoding of the last text that could tell, else as Windows-1252
 * (docs/pgn-dialect.md, "Encodings"). How a reader stands: */
typedef struct pgn_encoding_state {
    pgn_encoding last; /* the encoding undecided text is read in now: the last that told (CP437,
                          CP1252), else the one given by pgn_reader_set_encoding_state; AUTO or
                          CP1252: as Windows-1252 */
    int told;          /* a text has told (last is this reader's own) */
    int assumed;       /* undecided text was read before any text told: in the state given */
} pgn_encoding_state;

/** The reader's encoding state. A caller that reads a stream in byte ranges with several readers
 * reads the same as one reader when each range is read from the state the ranges before it left
 * (the last `last` of a range that told), or when its reader did not assume (assumed 0) or was
 * given a state that reads undecided text the same (CP1252 and AUTO do). */
PGN_API pgn_encoding_state pgn_reader_encoding_state(const pgn_reader *reader);
/** Gives the reader the state the text before its range left, before its first read: CP437 or
 * CP1252 (another value: AUTO, as at the start of a stream). */
PGN_API void pgn_reader_set_encoding_state(pgn_reader *reader, pgn_encoding last);

#ifdef __cplusplus
}
#endif
#endif
