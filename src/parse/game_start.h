/* SPDX-License-Identifier: MIT */
/* Where a game starts (issue 33 point 4): the one test of a line that looks like a tag pair
 * ([Name "...), which the reader, the range cutting and the parallel splitter all use. The lexer
 * ends an unterminated comment at such a line (digest T49 recovery) and a byte range's boundary is
 * such a line after an empty one (include/pgnkit/reader.h, range_start); the splitter of -j N
 * (src/io/splitter.c) ends a comment where the lexer does and cuts at a tag section after a
 * termination marker. A name is a symbol of the lexer (first byte C_START, then C_SYM bytes). */
#ifndef PGNKIT_PARSE_GAME_START_H
#define PGNKIT_PARSE_GAME_START_H

#include <stddef.h>

/* A scan of one line that can go on when more bytes come: zero it at the line's first byte. */
typedef struct pgnk_tag_scan {
    size_t at; /* the next byte to look at, from the line's first byte */
    int stage; /* 0 blanks, 1 [ seen, 2 in the name, 3 blanks before the quote */
} pgnk_tag_scan;

/* Does the line whose first n bytes are at line look like a tag pair: blanks (space, tab), [, a
 * name, at least one blank, and a quote? 1 yes, 0 no, -1 the n bytes end first (call again with
 * the same scan and more of the line: the bytes seen are not looked at again). */
int pgnk_tag_line_scan(pgnk_tag_scan *s, const unsigned char *line, size_t n);

#endif
