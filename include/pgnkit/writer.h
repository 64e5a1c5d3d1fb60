/* SPDX-License-Identifier: MIT */
/* pgnkit export writer: the strict PGN export format (PGN §3.2, §8; digest §4 and §12 policy). */
#ifndef PGNKIT_WRITER_H
#define PGNKIT_WRITER_H

#include "base.h"
#include "game.h"
#include "nag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writer flags (pgn_writer_opts.flags). Zero is the strict export format. */
#define PGN_WRITE_REDUCED 0x01u /* reduced export format: STR tags only, no comments/NAGs/RAVs */
#define PGN_WRITE_NO_COMMENTS 0x02u
#define PGN_WRITE_NO_VARIATIONS 0x04u
#define PGN_WRITE_NO_NAGS 0x08u
#define PGN_WRITE_NAG_COMPAT                                                                       \
    0x10u /* no "N..." after a NAG (python-chess, pgn-extract), digest D7 */
#define PGN_WRITE_SPACED_RAV 0x20u /* "( 3... Nxe4 )" instead of "(3... Nxe4)" */
#define PGN_WRITE_RECOMPUTE_SAN                                                                    \
    0x40u /* for tests: write SAN from the board, never pgn_node_san                               \
           */

/* How NAGs are written (pgn_writer_opts.nag_style). */
typedef enum pgn_nag_style {
    PGN_NAG_STYLE_NUMBER = 0, /* "$14": the export format (PGN §8.2.4), the default */
    PGN_NAG_STYLE_SYMBOL = 1, /* "e4! ⩲": ! ? !! ?? !? ?! glued to the move, other glyphs after
                                 it (pgn_nag_write_symbol), $n where none; reads back the same */
    PGN_NAG_STYLE_TEXT = 2    /* "e4 {White has a slight advantage}": the meaning as a comment;
                                 $n for the NAGs the table leaves undefined */
} pgn_nag_style;

typedef struct pgn_writer_opts {
    uint32_t flags;
    uint32_t width;     /* longest movetext line; 0 means 79 (PGN §8.2.1) */
    uint32_t fen_flags; /* pgn_fen_write flags for the FEN tag */
    const pgn_allocator *alloc;
    pgn_nag_style nag_style; /* 0: $n */
    /* Piece letters of the moves: PGN_LANG_ENGLISH (0), the export format; another language or
     * figurines are for people to read, not export format (PGN §17; docs/notation.md). */
    pgn_lang lang;
} pgn_writer_opts;

/** Output callback: writes len bytes, returns len on success or -1 on failure. */
typedef ptrdiff_t (*pgn_write_fn)(void *ctx, const void *buf, size_t len);

/** A growable memory buffer as a pgn_write_fn target: pass pgn_membuf_write as the callback and a
 * pgn_membuf as its ctx. Start from a zeroed one ({0}); set alloc before the first write to grow
 * it through an allocator (NULL: libc) and never change it after. The bytes written are
 * ptr[0..len), not NUL-terminated; the caller may read them and set len to 0 to reuse the
 * memory. The buffer owns ptr: release it with pgn_membuf_free. */
typedef struct pgn_membuf {
    char *ptr;
    size_t len, cap;
    const pgn_allocator *alloc;
} pgn_membuf;

/** A pgn_write_fn appending the len bytes at buf to the pgn_membuf ctx, growing it (capacity
 * doubled, sizes checked for overflow). Returns len, or -1 when out of memory, when the size would
 * overflow or when alloc is half-filled (PGN_E_BAD_ALLOCATOR's rule); the buffer is then
 * unchanged. */
PGN_API ptrdiff_t pgn_membuf_write(void *ctx, const void *buf, size_t len);
/** Frees the buffer's memory and empties it (ptr NULL, len and cap 0; alloc kept); accepts a
 * buffer that never grew. */
PGN_API void pgn_membuf_free(pgn_membuf *b);

typedef struct pgn_writer pgn_writer;

/** Creates a writer that sends each game to fn. opts may be NULL (defaults). Returns PGN_OK or
 * PGN_E_NOMEM; release with pgn_writer_free. */
PGN_API PGN_NODISCARD pgn_status pgn_writer_new(pgn_writer **out, const pgn_writer_opts *opts,
                                                pgn_write_fn fn, void *ctx);
/** Frees the writer; accepts NULL. It writes nothing more (each game was sent whole). */
PGN_API void pgn_writer_free(pgn_writer *writer);

/**
 * Writes one game in export format, followed by its empty line: the Seven Tag Roster in order
 * (missing ones as "?", Date "????.??.??", Result = the termination marker), the other tags in
 * ASCII order of name (FEN rewritten from the start position, SetUp "1" whenever FEN is present),
 * an empty line, movetext wrapped at opts.width, the termination marker. Returns PGN_OK,
 * PGN_E_NOMEM, or PGN_E_IO when fn failed.
 */
PGN_API PGN_NODISCARD pgn_status pgn_writer_write(pgn_writer *writer, const pgn_game *game);

#ifdef __cplusplus
}
#endif
#endif
