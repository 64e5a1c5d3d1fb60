/* SPDX-License-Identifier: MIT */
/* A UCI engine process for pgnkit analyze: spawned with posix_spawn, spoken to over two pipes,
 * every read bounded by poll timeouts. The protocol itself is parsed by the library. */
#ifndef PGNKIT_CLI_ENGINE_H
#define PGNKIT_CLI_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pgnkit.h"

typedef enum engine_limit { LIMIT_NODES, LIMIT_DEPTH, LIMIT_MOVETIME } engine_limit;

typedef struct engine_cfg {
    const char *path; /* NULL: "stockfish" on PATH, then /usr/games/stockfish */
    unsigned threads, hash_mb, multipv;
    engine_limit limit_kind;
    uint64_t limit;
    int timeout_ms;   /* one search; 0: derived from the limit */
    int handshake_ms; /* uci -> uciok and isready -> readyok */
} engine_cfg;

typedef struct engine {
    const engine_cfg *cfg;
    pid_t pid;
    int to_fd, from_fd;
    size_t start, len;
    int chess960; /* UCI_Chess960 as last set */
    int has_chess960, has_threads, has_hash, has_multipv;
    char name[128];
    char buf[1 << 16];
} engine;

/* Starts the engine and completes the uci/uciok handshake, sets the options and waits for readyok.
 * Returns 0, or -1 with a message in err (not found, not a UCI engine, ...); e is then stopped. */
int engine_start(engine *e, const engine_cfg *cfg, char *err, size_t errcap);

/* Sends quit and reaps the process (killed if it does not exit at once); e may be stopped already.
 */
void engine_stop(engine *e);

/* Prepares a new game: UCI_Chess960 if it changes, ucinewgame, isready. Returns 0 or -1 (dead). */
int engine_new_game(engine *e, int chess960, char *err, size_t errcap);

/* Searches the position reached from start by moves[0..n-1] (cur is that position) and fills out
 * with the multipv 1 score (the last exact one, else the last bound) and line, and alt[0..] with
 * lines multipv 2..alt_cap+1 chosen the same way (out->alt and out->alt_count point at them).
 * Illegal moves from the engine are reported in warn (cleared if none) and dropped. Returns 0, or
 * -1 when the engine died, timed out or gave no score (err says which; the engine is then
 * stopped). */
int engine_search(engine *e, const pgn_pos *start, const pgn_move *moves, size_t n,
                  const pgn_pos *cur, pgn_position_analysis *out, pgn_engine_line *alt,
                  unsigned alt_cap, char *err, size_t errcap, char *warn, size_t warncap);

#endif
