/* SPDX-License-Identifier: MIT */
/* pgnkit db (issue 30): what the subcommands (cli/cmd_db*.c) share: opening the database, and a
 * position from the command line. Apart from cmd_db.c so that no two db files call each other. */
#define _POSIX_C_SOURCE 200809L
#include "db.h"

#include <stdio.h>
#include <string.h>

int cli_db_open(pgn_db **db, const char *path, uint32_t flags, const char *cmd) {
    char msg[512];
    if (pgn_db_open(db, path, flags, msg, sizeof msg) != PGN_OK) {
        cli_error(NULL, "error: db %s: %s: %s", cmd, path, msg);
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}

int cli_db_position(pgn_pos *pos, const char *text, const char *cmd) {
    if (strchr(text, '/') != NULL) {
        if (pgn_fen_parse(pos, text, strlen(text), 0, NULL) != PGN_OK) {
            cli_error(NULL, "error: db %s: not a FEN: %s", cmd, text);
            return -1;
        }
        return 0;
    }
    pgn_pos_init(pos);
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            p++;
        }
        const char *b = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
            p++;
        }
        char tok[64];
        size_t n = (size_t)(p - b) < sizeof tok ? (size_t)(p - b) : sizeof tok - 1;
        memcpy(tok, b, n);
        tok[n] = '\0';
        const char *mv = cli_skip_move_number(tok);
        if (!*mv) {
            continue;
        }
        pgn_san_result r;
        if (pgn_san_parse(pos, mv, strlen(mv), 0, &r) != PGN_OK) {
            cli_error(NULL, "error: db %s: '%s' is no legal move in: %s", cmd, mv, text);
            return -1;
        }
        pgn_pos_play(pos, r.move);
    }
    return 0;
}
