/* SPDX-License-Identifier: MIT */
/* ECO classification by position: a binary search of the packed table positions by Zobrist key,
 * confirmed by comparing the whole packed position (never the hash alone), along a game's main
 * line; the deepest position found wins, so transpositions classify. */
#include "opening_internal.h"

#include <assert.h>
#include <string.h>

#include "../base/bits.h"
#include "eco_table.inc"

size_t pgn_opening_count(void) {
    return ECO_LINES;
}

const pgn_opening *pgn_opening_at(size_t index) {
    assert(index < ECO_LINES);
    return &eco_lines[index];
}

const char *pgn_opening_variation(const pgn_opening *opening) {
    const char *v = opening->name + opening->family_len;
    return *v ? v + 2 : v;
}

/* The table line of pos (whose key is up to date), or NULL: the run of the sorted table that
 * the top bits of the identity key select (about one entry; eco_buckets), then the whole packed
 * position compared for each entry of that key (only on a hit). */
static const pgn_opening *find_keyed(const pgn_pos *pos) {
    uint64_t key = pgn_pos_identity_key(pos);
    size_t b = (size_t)(key >> (64 - ECO_BUCKET_BITS)), lo = eco_buckets[b],
           hi = eco_buckets[b + 1];
    while (lo < hi && eco_positions[lo].key < key) {
        lo++;
    }
    if (lo == hi || eco_positions[lo].key != key) {
        return NULL;
    }
    pgnk_eco_pos p;
    pgnk_eco_pack(pos, &p);
    for (; lo < ECO_POSITIONS && eco_positions[lo].key == key; lo++) {
        const pgnk_eco_pos *e = &eco_positions[lo];
        if (e->occ == p.occ && e->lo == p.lo && e->hi == p.hi && e->meta == p.meta) {
            return &eco_lines[e->line];
        }
    }
    return NULL;
}

const pgn_opening *pgn_opening_find(const pgn_pos *pos) {
    pgn_pos keyed = *pos;
    keyed.key = pgn_pos_compute_key(pos);
    return find_keyed(&keyed);
}

static unsigned piece_count(const pgn_pos *pos) {
    return bits_popcount(pos->by_type[0]);
}

/* 1 while a table position can still come: enough pieces, and some table position whose home
 * pawns (White's on rank 2, Black's on rank 7, which never come back) are all still at home. */
static int book_reachable(const pgn_pos *pos) {
    uint64_t wp = pos->by_color[PGN_WHITE] & pos->by_type[PGN_PAWN];
    uint64_t bp = pos->by_color[PGN_BLACK] & pos->by_type[PGN_PAWN];
    unsigned home = (unsigned)((wp >> 8) & 0xFF) | (unsigned)((bp >> 40) & 0xFF00);
    return (eco_home_reach[home >> 6] >> (home & 63)) & 1 && piece_count(pos) >= ECO_MIN_PIECES;
}

/* The first table entry whose key is pos's (up to date), or ECO_POSITIONS: a candidate only,
 * find_keyed confirms it. */
static size_t key_hit(const pgn_pos *pos) {
    uint64_t key = pgn_pos_identity_key(pos);
    size_t b = (size_t)(key >> (64 - ECO_BUCKET_BITS)), lo = eco_buckets[b],
           hi = eco_buckets[b + 1];
    while (lo < hi && eco_positions[lo].key < key) {
        lo++;
    }
    return lo < hi && eco_positions[lo].key == key ? lo : ECO_POSITIONS;
}

/* The walk of pgn_opening_classify. confirm: every key hit confirmed on the spot (find_keyed);
 * else only the deepest one at the end, and 0 is returned when that fails (a key shared by a
 * position the table lacks: the caller walks again confirming each). */
static int walk(const pgn_game *game, int confirm, const pgn_opening **best, uint32_t *best_ply) {
    pgn_pos pos = *pgn_game_start(game), hit;
    pos.key = pgn_pos_compute_key(&pos);
    int have = key_hit(&pos) < ECO_POSITIONS;
    uint32_t n = 0, at = 0;
    *best = confirm ? find_keyed(&pos) : NULL;
    hit = pos;
    int reachable = book_reachable(&pos);
    for (const pgn_node *node = pgn_node_child(pgn_game_root(game)); node && reachable;
         node = pgn_node_child(node)) {
        pgn_move mv = pgn_node_move(node);
        if (mv == PGN_MOVE_NULL) {
            break; /* a null move leaves the game's positions: nothing after it is an opening */
        }
        /* only a pawn move or a capture (castling too, as king takes rook) changes what
         * book_reachable reads */
        int changes = pos.board[PGN_MOVE_TO(mv)] != 0 ||
                      PGN_PIECE_TYPE(pos.board[PGN_MOVE_FROM(mv)]) == PGN_PAWN;
        pgn_pos_play(&pos, mv);
        reachable = !changes || book_reachable(&pos);
        n++;
        const pgn_opening *o = NULL;
        if (confirm ? (o = find_keyed(&pos)) != NULL : key_hit(&pos) < ECO_POSITIONS) {
            *best = confirm ? o : *best;
            have = 1;
            at = n;
            hit = confirm ? hit : pos;
        }
    }
    *best_ply = at;
    if (!confirm && have) {
        *best = find_keyed(&hit);
        return *best != NULL;
    }
    return 1;
}

const pgn_opening *pgn_opening_classify(const pgn_game *game, uint32_t *ply) {
    const pgn_opening *best;
    uint32_t best_ply;
    if (!walk(game, 0, &best, &best_ply)) {
        walk(game, 1, &best, &best_ply);
    }
    if (ply) {
        *ply = best ? best_ply : 0;
    }
    return best;
}

static pgn_str cstr(const char *s, size_t len) {
    pgn_str r = {s, len};
    return r;
}

pgn_status pgn_opening_tag(pgn_game *game, uint32_t flags, const pgn_opening **found) {
    pgn_str old;
    const pgn_opening *o = NULL;
    if (!((flags & PGN_OPENING_ONLY_MISSING) && pgn_game_tag_get(game, "ECO", &old))) {
        o = pgn_opening_classify(game, NULL);
    }
    if (found) {
        *found = o;
    }
    if (!o) {
        return PGN_OK;
    }
    pgn_status st = pgn_game_tag_set(game, cstr("ECO", 3), cstr(o->eco, 3));
    if (st == PGN_OK) {
        st = pgn_game_tag_set(game, cstr("Opening", 7), cstr(o->name, o->family_len));
    }
    const char *var = pgn_opening_variation(o);
    if (st == PGN_OK && *var) {
        st = pgn_game_tag_set(game, cstr("Variation", 9), cstr(var, strlen(var)));
    } else if (st == PGN_OK) {
        pgn_game_tag_remove(game, "Variation");
    }
    return st;
}
