/* SPDX-License-Identifier: MIT */
/* pgnkit db (issue 30): the subcommands' shared declarations (cli/cmd_db*.c). */
#ifndef PGNKIT_CLI_DB_H
#define PGNKIT_CLI_DB_H

#include "cli.h"

/* pgnkit db explore and pgnkit db games (cli/cmd_db_explore.c). */
int cli_db_explore(int argc, char **argv);
int cli_db_games(int argc, char **argv);
/* pgnkit db select (cli/cmd_db_select.c). */
int cli_db_select(int argc, char **argv);
/* Opens the database at path (a message and EXIT_RESOURCE when it cannot be). */
int cli_db_open(pgn_db **db, const char *path, uint32_t flags, const char *cmd);
/* A position from text: a FEN (it has a '/'), else moves from the start (SAN or UCI, move
 * numbers skipped). 0, or -1 after a message naming what is wrong. */
int cli_db_position(pgn_pos *pos, const char *text, const char *cmd);
/* Opens the database of cmd --db (pgnkit html, serve) for reading: EXIT_OK, or EXIT_RESOURCE
 * after a message. */
int cli_explore_open(pgn_db **db, const char *path, const char *cmd);

#endif
