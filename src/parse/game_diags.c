/* SPDX-License-Identifier: MIT */
/* How a game was read, kept in the game: its diagnostics (a bounded number, in the game's arena,
 * plus a count of the rest) and whether it was cut short (docs/design.md, Broken games). The
 * storage is the game layer's game_record; the pgn_diag type belongs to this layer. */
#include "parse.h"

#include <assert.h>
#include <string.h>

#include "../game/arena.h"
#include "../game/game_internal.h"

size_t pgn_game_diag_count(const pgn_game *game, uint64_t *dropped) {
    assert(game != NULL);
    const game_record *rec = pgnk_game_record_const(game);
    if (dropped != NULL) {
        *dropped = rec->dropped;
    }
    return rec->count;
}

const pgn_diag *pgn_game_diag(const pgn_game *game, size_t index) {
    assert(game != NULL);
    const game_record *rec = pgnk_game_record_const(game);
    assert(index < rec->count);
    return (const pgn_diag *)rec->diags + index;
}

pgn_status pgn_game_add_diag(pgn_game *game, const pgn_diag *diag) {
    assert(game != NULL && diag != NULL);
    game_record *rec = pgnk_game_record(game);
    if (diag->severity == PGN_SEV_ERROR) {
        rec->broken = 1;
    }
    if (rec->count == PGN_GAME_DIAG_MAX) {
        rec->dropped++;
        return PGN_OK;
    }
    if (rec->diags == NULL) {
        rec->diags = pgnk_arena_alloc(pgnk_game_arena(game), PGN_GAME_DIAG_MAX * sizeof *diag);
        if (rec->diags == NULL) {
            return PGN_E_NOMEM;
        }
        rec->cap = PGN_GAME_DIAG_MAX;
    }
    pgn_diag *d = (pgn_diag *)rec->diags + rec->count++;
    *d = *diag;
    d->source = NULL;
    return PGN_OK;
}

int pgn_game_broken(const pgn_game *game) {
    assert(game != NULL);
    return pgnk_game_record_const(game)->broken;
}

void pgn_game_set_broken(pgn_game *game, int broken) {
    assert(game != NULL);
    pgnk_game_record(game)->broken = broken != 0;
}
