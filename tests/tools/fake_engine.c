/* SPDX-License-Identifier: MIT */
/* A scripted UCI engine for the tests of pgnkit analyze. It plays by the UCI description (2004):
 * uci/uciok, isready/readyok, setoption, position startpos|fen ... moves ..., go, quit. Its score
 * is the material balance from the side to move (pawn 100, minor 300, rook 500, queen 900), or
 * mate 1 when a mate in one exists; its best move is the mate or the first legal move (the last
 * one when FAKE_ENGINE_BEST=last). With MultiPV K it also gives lines 2..K: the legal moves from
 * the end of the list (skipping the best one), line k scored cp -(7700 + k). FAKE_ENGINE_MODE
 * picks a misbehaviour:
 *   normal      a bound line after the exact ones (the exact score must win), info string, wdl
 *   crash       exits in the middle of every search
 *   crash-once  exits in the middle of the first search if FAKE_ENGINE_STATE (a file) does not
 *               exist
 *   hang        never answers go
 *   illegal     an illegal move in the pv and as bestmove
 *   slow        holds its bestmove back until stop
 *   notuci      echoes every line back and never says uciok
 * "fake_engine --eval" reads FENs, one per line, and prints the [%eval] value (White's point of
 * view, e.g. "-1.00" or "#1"; "none" for a position without legal moves) this engine gives them
 * with its multipv 1 line: the tests compare what pgnkit analyze wrote with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_script.h"

/* --eval: what this engine says of each FEN read, from White's point of view. */
static int print_evals(void) {
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        pgn_pos pos;
        if (pgn_fen_parse(&pos, line, strlen(line), 0, NULL) != PGN_OK) {
            fprintf(stderr, "fake_engine --eval: bad FEN '%s'\n", line);
            return 1;
        }
        pgn_movelist ml;
        pgn_pos_legal_moves(&pos, &ml);
        int mate = 0;
        if (ml.count == 0) {
            printf("none\n");
            continue;
        }
        fake_best_move(&pos, &ml, &mate);
        int sign = pos.side == PGN_WHITE ? 1 : -1;
        if (mate) {
            printf("#%d\n", sign);
        } else {
            int v = sign * fake_material(&pos), a = v < 0 ? -v : v;
            printf("%s%d.%02d\n", v < 0 ? "-" : "", a / 100, a % 100);
        }
    }
    return 0;
}

static void print_line(void *ctx, const char *line) {
    (void)ctx;
    printf("%s\n", line);
}

/* Returns 1 when the best move is held back until "stop" (mode slow). */
static int search(const pgn_pos *pos, const char *mode, int multipv, char held[PGN_UCI_MAX]) {
    char score[32], uci[PGN_UCI_MAX];
    if (!fake_search_start(pos, print_line, NULL, score, uci)) {
        return 0;
    }
    fflush(stdout);
    if (strcmp(mode, "crash") == 0) {
        exit(3);
    }
    if (strcmp(mode, "crash-once") == 0) {
        const char *state = getenv("FAKE_ENGINE_STATE");
        if (state && access(state, F_OK) != 0) {
            FILE *f = fopen(state, "w");
            if (f) {
                fclose(f);
            }
            exit(3);
        }
    }
    if (strcmp(mode, "hang") == 0) {
        for (;;) {
            pause();
        }
    }
    if (strcmp(mode, "illegal") == 0) {
        printf("info depth 2 multipv 1 score %s wdl 10 980 10 nodes 20 pv %s a1a1\nbestmove e1e8\n",
               score, uci);
        return 0;
    }
    if (strcmp(mode, "slow") == 0) {
        memcpy(held, uci, PGN_UCI_MAX);
        return 1;
    }
    fake_search_finish(pos, multipv, score, uci, print_line, NULL);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--eval") == 0) {
        return print_evals();
    }
    const char *mode = getenv("FAKE_ENGINE_MODE");
    mode = mode ? mode : "normal";
    char line[65536];
    pgn_pos pos;
    pgn_pos_init(&pos);
    int chess960 = 0, multipv = 1, have_pos = 1, holding = 0;
    char held[PGN_UCI_MAX] = "";
    const char *log_path = getenv("FAKE_ENGINE_LOG");
    FILE *log = log_path ? fopen(log_path, "a") : NULL;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (log) {
            fprintf(log, "%s\n", line);
            fflush(log);
        }
        if (strcmp(mode, "notuci") == 0) {
            printf("%s\n", line);
        } else if (strcmp(line, "uci") == 0) {
            printf("id name FakeEngine 1.0\nid author pgnkit tests\n"
                   "option name Threads type spin default 1 min 1 max 512\n"
                   "option name Hash type spin default 16 min 1 max 33554432\n"
                   "option name MultiPV type spin default 1 min 1 max 500\n"
                   "option name UCI_Chess960 type check default false\nuciok\n");
        } else if (strcmp(line, "isready") == 0) {
            printf("readyok\n");
        } else if (strncmp(line, "setoption name UCI_Chess960 value ", 34) == 0) {
            chess960 = strcmp(line + 34, "true") == 0;
        } else if (strncmp(line, "setoption name MultiPV value ", 29) == 0) {
            multipv = atoi(line + 29);
        } else if (strncmp(line, "position ", 9) == 0) {
            have_pos = fake_set_position(&pos, line + 9, chess960) == 0;
        } else if (strncmp(line, "go", 2) == 0) {
            if (have_pos) {
                holding = search(&pos, mode, multipv, held);
            } else {
                printf("info string bad position\nbestmove 0000\n");
            }
        } else if (strcmp(line, "stop") == 0 && holding) {
            printf("bestmove %s\n", held);
            holding = 0;
        } else if (strcmp(line, "quit") == 0) {
            return 0;
        }
        fflush(stdout);
    }
    return 0;
}
