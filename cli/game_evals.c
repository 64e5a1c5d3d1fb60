/* SPDX-License-Identifier: MIT */
/* Whether a game has evaluations to draw: pgnkit html and serve give no graph to a game without
 * (issues 31 and 34: an empty grey box for every such game made the page of TWIC 1427 262 MB). */
#include "cli.h"

#include <pgnkit/annot.h>

int cli_game_has_evals(const pgn_game *game) {
    for (const pgn_node *n = pgn_game_root(game); n; n = pgn_node_child(n)) {
        pgn_eval e;
        if (pgn_node_eval(n, &e)) {
            return 1;
        }
    }
    return 0;
}
