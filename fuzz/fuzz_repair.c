/* SPDX-License-Identifier: MIT */
/* Fuzz target: repairs of mistyped moves (PGN_READ_FIX, docs/repair.md). The input is read twice,
 * without and with PGN_READ_FIX. Invariants: both reads end with PGN_END with the same number of
 * games; a game read without error is the same game (main line, move for move) with PGN_READ_FIX
 * and gets no W_REPAIRED_MOVE; every main-line move of a game read with PGN_READ_FIX is legal
 * where it stands, and a game with no error left under it is not broken. */
#include "fuzz_common.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

#define RP_MAX_PLIES 2048

typedef struct rp_line {
    size_t n;
    int whole; /* read without error */
    pgn_move moves[RP_MAX_PLIES];
} rp_line;

/* The main line of g; checks that each move is legal where it stands. */
static void rp_main_line(const pgn_game *g, rp_line *l) {
    pgn_pos pos = *pgn_game_start(g);
    l->n = 0;
    for (pgn_node *n = pgn_node_child(pgn_game_root(g)); n; n = pgn_node_child(n)) {
        pgn_move mv = pgn_node_move(n);
        if (mv == PGN_MOVE_NONE || mv == PGN_MOVE_NULL) {
            return; /* a null move (--) or none: not a move the board can check */
        }
        FUZZ_CHECK(pgn_pos_is_legal(&pos, mv), "a main-line move is not legal where it stands");
        pgn_pos_play(&pos, mv);
        if (l->n < RP_MAX_PLIES) {
            l->moves[l->n++] = mv;
        }
    }
}

int FUZZ_ENTRY(const uint8_t *data, size_t size) {
    static rp_line plain[64], fixed, past; /* past: plain games after the 64th (not compared) */
    pgn_reader_opts ro;
    fz_diags d;
    pgn_reader *r;
    pgn_game *g;
    if (pgn_game_new(&g, NULL) != PGN_OK) {
        return 0;
    }
    size_t games = 0;
    for (int pass = 0; pass < 2; pass++) {
        fz_diag_opts(&ro, &d);
        ro.flags = pass ? PGN_READ_FIX : 0;
        if (pgn_reader_new_mem(&r, &ro, size ? (const char *)data : "", size) != PGN_OK) {
            break;
        }
        size_t k = 0;
        pgn_status st;
        while ((st = pgn_reader_next(r, g)) == PGN_OK) {
            const pgn_game_summary *s = pgn_reader_summary(r);
            rp_line *l = pass ? &fixed : k < 64 ? &plain[k] : &past;
            rp_main_line(g, l);
            l->whole = s->errors == 0;
            if (pass && l->whole) {
                FUZZ_CHECK(!s->broken, "a game with no error left is broken under PGN_READ_FIX");
            }
            if (pass && k < 64 && plain[k].whole) {
                FUZZ_CHECK(fixed.n == plain[k].n && memcmp(fixed.moves, plain[k].moves,
                                                           fixed.n * sizeof fixed.moves[0]) == 0,
                           "PGN_READ_FIX changed a game read without error");
                for (size_t n = 0; n < pgn_game_diag_count(g, NULL); n++) {
                    FUZZ_CHECK(pgn_game_diag(g, n)->code != PGN_W_REPAIRED_MOVE,
                               "a game read without error got W_REPAIRED_MOVE");
                }
            }
            k++;
        }
        FUZZ_CHECK(st == PGN_END || st == PGN_E_NOMEM, "reading did not end with PGN_END");
        FUZZ_CHECK(pass == 0 || k == games, "PGN_READ_FIX read another number of games");
        games = k;
        pgn_reader_free(r);
    }
    pgn_game_free(g);
    return 0;
}
