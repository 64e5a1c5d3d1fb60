/* SPDX-License-Identifier: MIT */
/* Annotation editing options shared by pgnkit fmt and convert (--strip-comments ... --fen-comments,
 * applied with pgn_game_edit). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <string.h>

int cli_edit_option(int ch, pgn_edit_opts *e) {
    switch (ch) {
    case CLI_OPT_STRIP_COMMENTS: e->flags |= PGN_EDIT_STRIP_COMMENTS; return 1;
    case CLI_OPT_STRIP_NAGS: e->flags |= PGN_EDIT_STRIP_NAGS; return 1;
    case CLI_OPT_STRIP_VARIATIONS: e->flags |= PGN_EDIT_STRIP_VARIATIONS; return 1;
    case CLI_OPT_STRIP_CLOCK: e->flags |= PGN_EDIT_STRIP_CLOCK; return 1;
    case CLI_OPT_STRIP_EVAL: e->flags |= PGN_EDIT_STRIP_EVAL; return 1;
    case CLI_OPT_SEVEN_TAGS: e->flags |= PGN_EDIT_SEVEN_TAGS; return 1;
    case CLI_OPT_ADD_PLYCOUNT: e->flags |= PGN_EDIT_ADD_PLYCOUNT; return 1;
    case CLI_OPT_FEN_COMMENTS: e->flags |= PGN_EDIT_FEN_COMMENTS; return 1;
    default: return 0;
    }
}
