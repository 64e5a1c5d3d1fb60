/* SPDX-License-Identifier: MIT */
/* pgnkit NAG table: the 256 Numeric Annotation Glyphs (PGN §8.2.4, §10), their meanings, usual
 * symbols and ASCII spellings, and the look-up from a glyph such as ± or +/= back to its number. */
#ifndef PGNKIT_NAG_H
#define PGNKIT_NAG_H

#include "base.h"
#include "chess.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The groups of the NAG table (PGN §10). */
typedef enum pgn_nag_class {
    PGN_NAG_NULL = 0,       /* $0, the null annotation: a placeholder for software */
    PGN_NAG_MOVE = 1,       /* $1-$9: assessments of the move just played */
    PGN_NAG_POSITION = 2,   /* $10-$135: assessments of the position */
    PGN_NAG_TIME = 3,       /* $136-$139: time pressure */
    PGN_NAG_NONSTANDARD = 4 /* $140-$255: reserved by the standard; some used by programs */
} pgn_nag_class;

/**
 * One row of the NAG table. The rows are static constant data: every pointer stays valid for the
 * life of the program, and no field is ever NULL. Fields are read-only.
 */
typedef struct pgn_nag_info {
    unsigned nag;            /* 0..255, the row's own number */
    pgn_nag_class nag_class; /* its group */
    const char *meaning;    /* English, as the NAG table gives it; "Not defined" where nothing is */
    const char *symbol;     /* the usual glyph, UTF-8 ("!", "±", "+−"), or "" if there is none */
    uint32_t codepoints[2]; /* the Unicode code points of symbol, then 0 (all 0: no symbol) */
    const char *ascii;      /* an ASCII spelling ("!!", "+/=", "+-"), or "" if there is none */
    const char
        *used_by; /* for a non-standard NAG, the program that defines it ("ChessPad"), else "" */
} pgn_nag_info;

/**
 * The table row of NAG nag (every value of a uint8_t has one). Never NULL; the row is static and
 * never freed.
 */
PGN_API const pgn_nag_info *pgn_nag_get(uint8_t nag);

/**
 * Looks up a glyph written as text: the symbols and ASCII spellings of the table ("!", "‼", "±",
 * "+/-", "⩲", "+=", "+/=", "=", "∞", "+-", "+−", "N", ...). text need not be NUL-terminated; the
 * match is exact (no surrounding white space). Five glyphs stand for a White/Black pair of NAGs:
 * ⟳ (32/33), → (36/37), ↑ (40/41) and ⇆ (132/133) take the number of `mover`, the side that
 * played the move the glyph follows; ⨀ (22/23, zugzwang) takes the number of the side to move
 * after it. Returns 1 and sets *nag, or returns 0 (and leaves *nag alone) for an unknown glyph.
 */
PGN_API int pgn_nag_from_symbol(const char *text, size_t len, pgn_color mover, unsigned *nag);

/**
 * The text pgnkit writes for NAG nag after a move played by `mover` when NAGs are written as
 * symbols: "!", "?", "!!", "??", "!?", "?!" for $1-$6, else the table's symbol, provided that
 * pgn_nag_from_symbol reads it back to nag for the same mover; "" where no such symbol exists
 * (then $n must be written). Never NULL; static.
 */
PGN_API const char *pgn_nag_write_symbol(uint8_t nag, pgn_color mover);

#ifdef __cplusplus
}
#endif
#endif
