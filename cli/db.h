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
/* The explorer's answer for pos as the page's panel reads it (cli/serve_explore.c): {"fen",
 * "moves": [{"san", "uci", "games", "white", "draws", "black", "elo", "fen" (after the move)}],
 * "games"}, appended to b; *games (may be NULL) the games that went on from pos. 0, -1 (the
 * database failed: msg), -2 (out of memory). */
int cli_explore_json(pgn_db *db, const pgn_pos *pos, cli_membuf *b, uint64_t *games, char *msg,
                     size_t cap);
/* Opens the database of cmd --db (pgnkit html, serve) for reading: EXIT_OK, or EXIT_RESOURCE
 * after a message. */
int cli_explore_open(pgn_db **db, const char *path, const char *cmd);
/* The answers of pgnkit html --db: one for each position of the games' main lines that the
 * database has, each given once (a set of position keys), comma-separated in json; a game's line
 * is followed up to the first position at most one stored game went on from (a line of one
 * game is that game's, and would make the page many times its games' size). Zero it to start. */
typedef struct cli_explore_set {
    pgn_db *db;
    cli_membuf json;
    uint64_t *keys; /* open addressing, 0 free; the key 0 is stored as 1 */
    size_t n, cap;
    unsigned long answers;
} cli_explore_set;
/* Adds the answers of g's main line (standard chess only): 0, -1 (the database failed: msg), -2
 * (out of memory). */
int cli_explore_game(cli_explore_set *x, const pgn_game *g, char *msg, size_t cap);
void cli_explore_set_free(cli_explore_set *x);

#endif
