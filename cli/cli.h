/* SPDX-License-Identifier: MIT */
/* Shared declarations of the pgnkit command-line program. */
#ifndef PGNKIT_CLI_H
#define PGNKIT_CLI_H

#include "pgnkit.h"

/* Exit statuses (STYLE C9). */
enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_RESOURCE = 3 };

int cmd_perft(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_fen(int argc, char **argv);

/* Sets *pos from --fen text (NULL: the start position), forcing Chess960 if asked; prints a
 * diagnostic naming the field and column and returns EXIT_INPUT on a bad FEN. */
int cli_position(pgn_pos *pos, const char *fen, int chess960);

/* Prints "pgnkit CMD: error: ..." style usage errors; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *usage, const char *msg);

/* Prints each warning bit in `warnings` about `token` to stderr. */
void cli_print_warnings(const char *token, uint32_t warnings);

#endif
