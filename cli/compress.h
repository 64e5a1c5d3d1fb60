/* SPDX-License-Identifier: MIT */
/* Compressed outputs of the program (issue 16): an output is compressed when the name given to -o
 * ends in .gz, .zst, .bz2 or .xz (pgn_format_of_name), through the library's pgn_encoder. Inputs
 * are the library's sources (include/pgnkit/source.h). */
#ifndef PGNKIT_CLI_COMPRESS_H
#define PGNKIT_CLI_COMPRESS_H

#include "pgnkit.h"

#include <stdio.h>

/* A stdio stream compressing into under (which it neither closes nor takes) in format fmt; for
 * PGN_FORMAT_PLAIN it returns under itself. Returns NULL after writing a message to msg (no library
 * for the format in this build, or out of memory). Close with cli_zout_close before under. */
FILE *cli_zout_open(FILE *under, pgn_format fmt, char *msg, size_t cap);
/* Ends the compressed stream of a stream from cli_zout_open and closes it (nothing for under
 * itself); returns 0, or -1 when compressing or writing failed. */
int cli_zout_close(FILE *f, FILE *under);

#endif
