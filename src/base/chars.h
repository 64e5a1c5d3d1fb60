/* SPDX-License-Identifier: MIT */
/* The one definition of white space in PGN text (issue 12): space and the four control
 * characters PGN §4.1 permits in import format (horizontal tab, vertical tab, line feed,
 * carriage return), plus form feed, which the lexer's byte table (src/parse/lexer.c) also
 * separates tokens with. Comments are split into words on exactly these, so the writer, the
 * annotator and the command parser agree with the lexer. Internal. */
#ifndef PGNKIT_CHARS_H
#define PGNKIT_CHARS_H

static inline int pgnk_is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

#endif
