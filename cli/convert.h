/* SPDX-License-Identifier: MIT */
/* pgnkit convert's state, between cli/cmd_convert.c (the options, the formats of a built game
 * and --from json) and cli/convert_stream.c (uci and fen, streamed through the visitor). */
#ifndef PGNKIT_CLI_CONVERT_H
#define PGNKIT_CLI_CONVERT_H

#include "cli.h"

enum { TO_NONE, TO_UCI, TO_FEN, TO_SAN, TO_LAN, TO_EPD, TO_CSV, TO_JSON, TO_NDJSON, TO_PGN };

typedef struct convert {
    int to, from_json, keep_broken, per_ply;
    pgn_lang lang;    /* --lang: san and lan only */
    const char *tags; /* --tags for csv */
    uint32_t fen_flags;
    pgn_edit_opts edit;
    /* uci and fen: the current game's text, written when the game turns out whole */
    pgn_membuf buf;
    unsigned depth; /* variation nesting: only depth 0 is converted */
    unsigned moves;
    pgn_exporter *ex;
    pgn_json_writer *jw;
    pgn_writer *pw;
    pgn_str *tag_names; /* --tags split (convert_rules) */
    size_t tag_count;
} convert;

/* --to uci and fen: the main line of every game streamed through the visitor, no tree built
 * (-j N: on the workers, each with a convert state of its own). */
void convert_stream(cli_run *r, convert *c);

#endif
