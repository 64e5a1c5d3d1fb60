/* SPDX-License-Identifier: MIT */
/* The splitter of -j N (parallel.c): finds in a text the places to cut it into batches that
 * readers can read apart with the same result as one reader over the whole. A cut is a line
 * starting with '[' outside any comment, string or ';' line, whose last non-blank line before it
 * ends with a termination marker (after which the serial reader has nothing pending: no skipped
 * text, comment or tag section belongs to the next game), or, in a batch that grew past
 * PGNK_WEAK_AFTER bytes without one (games without markers), neither starts with '[' (a ChessBase
 * blank line inside a tag section) nor ends with ']'. The batch after the cut starts at R, the
 * last non-blank byte before it: a reader with range_start = R (pgn_reader_opts) skips to the
 * tag section at the cut. */
#ifndef PGNKIT_IO_SPLITTER_H
#define PGNKIT_IO_SPLITTER_H

#include <stddef.h>
#include <stdint.h>

enum { PGNK_WEAK_AFTER = 1 << 25 };

/* Bytes of the text: buf[0] is at offset start. */
typedef struct pgnk_text {
    const char *buf;
    size_t len;
    uint64_t start;
} pgnk_text;

/* The scan's state, kept from one call to the next (zeroed, with bol 1, at the text's start). */
typedef struct pgnk_scanner {
    int state;
    int bol;                /* the next byte starts a line */
    int lf;                 /* the last line break was (or ended in) an LF */
    int prev_cr;            /* the last byte was a CR */
    uint64_t pos;           /* the offset of the next byte to scan */
    uint64_t breaks;        /* line breaks before pos (LF, CRLF and a lone CR: one each) */
    uint64_t cut, cut_from; /* the cut found (the next batch's first game), its line's first byte */
    uint32_t cut_line;      /* the line of the cut */
    int dirty;              /* bytes that are not UTF-8 since the last cut */
    int check_utf8;         /* --input-encoding auto */
} pgnk_scanner;

enum { PGNK_SCAN_MORE, PGNK_SCAN_CUT };
/* Scans b from sc->pos on; PGNK_SCAN_CUT at a cut at least min bytes into b (sc->cut, cut_from,
 * cut_line set; the scan goes on from the cut), PGNK_SCAN_MORE when the bytes
 * end (more are needed; at eof, all were scanned). Notes bytes that are not UTF-8 in sc->dirty
 * when sc->check_utf8. */
int pgnk_scan(pgnk_scanner *sc, const pgnk_text *b, size_t min, int eof);

#endif
