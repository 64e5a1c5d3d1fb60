/* SPDX-License-Identifier: MIT */
/* The splitter's fast paths (splitter.c): the bytes a scan can skip many at a time. */
#ifndef PGNKIT_PGNK_SCAN_BLOCKS_H
#define PGNKIT_PGNK_SCAN_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

/* The states of the splitter's scan. */
enum { S_TEXT, S_COMMENT, S_STRING, S_LINE };

/* The first byte from i on where the scan in state must stop (a byte that can change the state
 * or the count; with high, a byte >= 0x80), or a byte before it (fewer than 16 bytes left, or a
 * big-endian machine) from which the caller's byte loop goes on. */
size_t pgnk_skip_blocks(const unsigned char *d, size_t i, size_t n, int state, int high);

/* From a line start in text state after an LF, before e: the end of the last LF before the first
 * byte that can change the scan's state or count ('{', ';', CR, with high a byte >= 0x80), the
 * LFs counted in *lfs; i when there is none. */
size_t pgnk_plain_lines(const unsigned char *d, size_t i, size_t e, int high, uint64_t *lfs);

#endif
