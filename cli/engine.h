/* SPDX-License-Identifier: MIT */
/* A UCI engine process for pgnkit analyze: spawned with posix_spawn, spoken to over two pipes,
 * every read bounded by poll timeouts. The protocol and a search's output are read by the
 * library. */
#ifndef PGNKIT_CLI_ENGINE_H
#define PGNKIT_CLI_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pgnkit.h"

typedef struct engine_cfg {
    const char *path; /* NULL: "stockfish" on PATH, then /usr/games/stockfish */
    unsigned threads, hash_mb, multipv;
    pgn_search_limit limit_kind;
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

/* Runs one search: sends the commands position and go (no line breaks), then gives the engine's
 * output to search (pgn_search_feed) until bestmove, under the deadline of the limit (cfg): past
 * it, "stop" and one more second. Warnings (illegal moves from the engine, a late result) go to
 * warn (cleared if none). Returns 0, or -1 when the engine died, timed out or gave no score (err
 * says which; a dead or silent engine is then stopped). */
int engine_search(engine *e, const char *position, const char *go, pgn_search *search, char *err,
                  size_t errcap, char *warn, size_t warncap);

#endif
