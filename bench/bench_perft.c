/* SPDX-License-Identifier: MIT */
/* bench_perft: times the chess core (STYLE C12).
 *
 *   bench_perft perft [--fen FEN] [--no-bulk] [-n RUNS] DEPTH
 *       pgn_perft from FEN (default: the start position), with bulk counting at the leaves unless
 *       --no-bulk (then every leaf move is played). One line per run:
 *       perft depth=D bulk=B nodes=N seconds=S nps=X
 *   bench_perft san [-n RUNS] FILE.pgn.gz...
 *       SAN resolution throughput on clean PGN files (the TWIC issues): the files are decompressed
 *       and tokenized into memory first (tests/twic_tokens.h); only pgn_san_parse (flags 0) and
 *       pgn_pos_play over every main-line move of every game are timed. One line per run:
 *       san games=G plies=P errors=E seconds=S plies_per_s=X
 *
 * Output is one key=value line per run so that bench/run_bench.sh can take medians. */
#define _POSIX_C_SOURCE 200809L

#include "../tests/twic_tokens.h"

#include <pgnkit/chess.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int usage(void) {
    fprintf(stderr, "usage: bench_perft perft [--fen FEN] [--no-bulk] [-n RUNS] DEPTH\n"
                    "       bench_perft san [-n RUNS] FILE.pgn.gz...\n");
    return 2;
}

static int parse_runs(const char *s, int *runs) {
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 1 || v > 1000) {
        return 0;
    }
    *runs = (int)v;
    return 1;
}

static int cmd_perft(int argc, char **argv) {
    const char *fen = PGN_START_FEN;
    int bulk = 1, runs = 1;
    long depth = -1;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--fen") == 0 && i + 1 < argc) {
            fen = argv[++i];
        } else if (strcmp(argv[i], "--no-bulk") == 0) {
            bulk = 0;
        } else if (strcmp(argv[i], "--bulk") == 0) {
            bulk = 1;
        } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            if (!parse_runs(argv[++i], &runs)) {
                return usage();
            }
        } else if (depth < 0 && argv[i][0] >= '0' && argv[i][0] <= '9') {
            char *end = NULL;
            depth = strtol(argv[i], &end, 10);
            if (*end || depth > 12) {
                return usage();
            }
        } else {
            return usage();
        }
    }
    if (depth < 0) {
        return usage();
    }
    pgn_pos pos;
    pgn_fen_diag diag;
    if (pgn_fen_parse(&pos, fen, strlen(fen), 0, &diag) != PGN_OK) {
        fprintf(stderr, "bench_perft: bad FEN (field %u, column %u): %s\n", (unsigned)diag.field,
                (unsigned)diag.column, diag.reason);
        return 1;
    }
    for (int r = 0; r < runs; r++) {
        double t0 = now_seconds();
        uint64_t nodes = pgn_perft(&pos, (unsigned)depth, bulk);
        double secs = now_seconds() - t0;
        printf("perft depth=%ld bulk=%d nodes=%llu seconds=%.6f nps=%.0f\n", depth, bulk,
               (unsigned long long)nodes, secs, secs > 0 ? (double)nodes / secs : 0.0);
        fflush(stdout);
    }
    return 0;
}

static int cmd_san(int argc, char **argv) {
    int runs = 1, nfiles = 0;
    twic_games g;
    memset(&g, 0, sizeof g);
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            if (!parse_runs(argv[++i], &runs)) {
                twic_free(&g);
                return usage();
            }
        } else {
            if (!twic_load_gz(&g, argv[i])) {
                fprintf(stderr, "bench_perft: cannot read %s\n", argv[i]);
                twic_free(&g);
                return 1;
            }
            nfiles++;
        }
    }
    if (nfiles == 0) {
        twic_free(&g);
        return usage();
    }
    for (int r = 0; r < runs; r++) {
        unsigned long plies = 0, errors = 0;
        uint64_t checksum = 0;
        double t0 = now_seconds();
        for (size_t game = 0; game < g.ngames; game++) {
            pgn_pos pos;
            pgn_pos_init(&pos);
            size_t n = twic_game_plies(&g, game);
            for (size_t k = 0; k < n; k++) {
                const char *tok = twic_token(&g, game, k);
                pgn_san_result res;
                if (pgn_san_parse(&pos, tok, strlen(tok), 0, &res) != PGN_OK) {
                    errors++;
                    break; /* the rest of the game cannot be followed */
                }
                pgn_pos_play(&pos, res.move);
                plies++;
            }
            checksum ^= pos.key; /* keeps the work observable */
        }
        double secs = now_seconds() - t0;
        printf(
            "san games=%lu plies=%lu errors=%lu seconds=%.6f plies_per_s=%.0f checksum=%016llx\n",
            (unsigned long)g.ngames, plies, errors, secs, secs > 0 ? (double)plies / secs : 0.0,
            (unsigned long long)checksum);
        fflush(stdout);
    }
    twic_free(&g);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "perft") == 0) {
        return cmd_perft(argc - 2, argv + 2);
    }
    if (argc >= 2 && strcmp(argv[1], "san") == 0) {
        return cmd_san(argc - 2, argv + 2);
    }
    return usage();
}
