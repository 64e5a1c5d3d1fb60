/* SPDX-License-Identifier: MIT */
/* Tags computed from the final position of the main line: HashCode (its Polyglot key),
 * Termination (checkmate, stalemate, repetition, move rules, insufficient material: FIDE
 * Laws 5 and 9), FinalFEN and Material. Memory: one key per main-line ply, from the game's arena
 * (the repetition count needs the positions since the last capture or pawn move). */
#include <string.h>

#include "arena.h"
#include "final_tags.h"
#include "game_internal.h"

static pgn_str cstr(const char *s) {
    pgn_str r = {s, strlen(s)};
    return r;
}

/* "KQR2B2N2P8 v KQR2BN2P7": each side's pieces, king first, a count after a letter above 1. */
static void material(const pgn_pos *pos, char *out) {
    static const char letters[] = "KQRBNP";
    static const pgn_piece_type types[] = {PGN_KING,   PGN_QUEEN,  PGN_ROOK,
                                           PGN_BISHOP, PGN_KNIGHT, PGN_PAWN};
    size_t n = 0;
    for (unsigned c = 0; c < 2; c++) {
        if (c == 1) {
            memcpy(out + n, " v ", 3);
            n += 3;
        }
        for (unsigned i = 0; i < 6; i++) {
            uint64_t bb = pos->by_color[c] & pos->by_type[types[i]];
            unsigned k = 0;
            for (; bb; bb &= bb - 1) {
                k++;
            }
            if (k > 0) {
                out[n++] = letters[i];
            }
            if (k > 1) {
                n += k >= 10 ? 2 : 1;
                out[n - 1] = (char)('0' + k % 10);
                if (k >= 10) {
                    out[n - 2] = (char)('0' + k / 10);
                }
            }
        }
    }
    out[n] = 0;
}

/* The final position into *pos and its repetition count into *reps. */
static pgn_status final_position(pgn_game *game, pgn_pos *pos, unsigned *reps) {
    size_t plies = pgn_game_ply_count(game), n = 0;
    uint64_t *keys = pgnk_arena_calloc(pgnk_game_arena(game), plies + 1, sizeof *keys);
    if (!keys) {
        return PGN_E_NOMEM;
    }
    *pos = *pgn_game_start(game);
    pos->key = pgn_pos_compute_key(pos);
    keys[n++] = pgn_pos_identity_key(pos);
    for (const pgn_node *node = pgn_node_child(pgn_game_root(game)); node;
         node = pgn_node_child(node)) {
        pgn_pos_play(pos, pgn_node_move(node));
        keys[n++] = pgn_pos_identity_key(pos);
    }
    *reps = pgn_repetitions(keys, n, pgn_pos_repetition_window(pos));
    return PGN_OK;
}

static char hex_digit(unsigned v) {
    return (char)(v < 10 ? '0' + v : 'a' + v - 10);
}

pgn_status pgnk_game_final_tags(pgn_game *game, uint32_t flags, uint32_t fen_flags) {
    pgn_pos pos;
    unsigned reps = 1;
    pgn_status st = final_position(game, &pos, &reps);
    if (st == PGN_OK && (flags & PGN_EDIT_ADD_HASHCODE)) {
        char hex[17];
        for (unsigned i = 0; i < 16; i++) {
            hex[i] = hex_digit((unsigned)(pos.key >> (60 - 4 * i)) & 15u);
        }
        hex[16] = 0;
        st = pgn_game_tag_set(game, cstr("HashCode"), cstr(hex));
    }
    pgn_outcome o = pgn_pos_outcome(&pos, reps);
    if (st == PGN_OK && (flags & PGN_EDIT_ADD_TERMINATION) && o != PGN_OUTCOME_NONE) {
        st = pgn_game_tag_set(game, cstr("Termination"), cstr(pgn_outcome_name(o)));
    }
    if (st == PGN_OK && (flags & PGN_EDIT_ADD_FINAL_FEN)) {
        char fen[PGN_FEN_MAX];
        pgn_fen_write(&pos, fen_flags, fen, sizeof fen);
        st = pgn_game_tag_set(game, cstr("FinalFEN"), cstr(fen));
    }
    if (st == PGN_OK && (flags & PGN_EDIT_ADD_MATERIAL)) {
        char m[64];
        material(&pos, m);
        st = pgn_game_tag_set(game, cstr("Material"), cstr(m));
    }
    return st;
}
