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
    /* pgnkit serve: the engine in a process group of its own (its group, a wrapper script's
     * children too, killed when it is), and a file descriptor whose becoming readable ends the
     * wait for the engine's output at once: a search is then told to stop (0: none) */
    int own_group, abort_fd;
} engine_cfg;

typedef struct engine {
    const engine_cfg *cfg;
    pid_t pid;
    int to_fd, from_fd;
    size_t start, len;
    int chess960; /* UCI_Chess960 as last set */
    int aborted;  /* cfg->abort_fd was seen readable (it is not watched again) */
    int has_chess960, has_threads, has_hash, has_multipv;
    char name[128];
    char variants[1024]; /* the UCI_Variant option's line after its name (its "var" values) */
    char variant[24];    /* UCI_Variant as last set ("" : never) */
    char buf[1 << 16];
} engine;

/* Starts the engine and completes the uci/uciok handshake, sets the options and waits for readyok.
 * Returns 0, or -1 with a message in err (not found, not a UCI engine, ...); e is then stopped. */
int engine_start(engine *e, const engine_cfg *cfg, char *err, size_t errcap);

/* Sends quit and reaps the process (killed if it does not exit at once); e may be stopped already.
 */
void engine_stop(engine *e);

/* 1, with the reason in err, when a game starting at start cannot go to this engine: a position
 * without a king (docs/pgn-dialect.md: no UCI engine searches one), or a variant that is not
 * standard and that the engine's UCI_Variant option does not list (Fairy-Stockfish lists
 * "crazyhouse", ...); else 0. pgnkit analyze and serve refuse such a game with that reason
 * (docs/variants.md). */
int engine_refuses_game(const engine *e, const pgn_pos *start, char *err, size_t errcap);
/* Sets UCI_Variant to name if it changes (before engine_new_game). Returns 0 or -1 (dead). */
int engine_set_variant(engine *e, const char *name);

/* Prepares a new game: UCI_Chess960 if it changes, ucinewgame, isready. Returns 0 or -1 (dead). */
int engine_new_game(engine *e, int chess960, char *err, size_t errcap);

/* Runs one search: sends the commands position and go (no line breaks), then gives the engine's
 * output to search (pgn_search_feed) until bestmove, under the deadline of the limit (cfg): past
 * it, "stop" and one more second. Warnings (illegal moves from the engine, a late result) go to
 * warn (cleared if none). Returns 0, or -1 when the engine died, timed out or gave no score (err
 * says which; a dead or silent engine is then stopped). */
int engine_search(engine *e, const char *position, const char *go, pgn_search *search, char *err,
                  size_t errcap, char *warn, size_t warncap);

/* Between engine_proc.c (the process and its pipes) and engine.c (the UCI dialogue). */

/* CLOCK_MONOTONIC in milliseconds: the deadlines. */
int64_t engine_now_ms(void);
/* Starts path (looked up on PATH) with two close-on-exec pipes as its stdin and stdout, into
 * e->pid, e->to_fd, e->from_fd. Returns 0, or -1 with the error number in *spawn_errno. */
int engine_spawn(engine *e, const char *path, int *spawn_errno);
/* Writes len bytes of text to the engine, all of them; 0, or -1 (its input is closed). */
int engine_send_text(engine *e, const char *text, size_t len);
/* Writes one formatted line (under 255 bytes) and its line break; 0 or -1. */
int engine_send_line(engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Next line of output (NUL-terminated in place): 1, 0 on timeout (or cfg->abort_fd readable, the
 * first time), -1 at EOF or error. */
int engine_read_line(engine *e, int64_t deadline, char **line, size_t *len);
/* Formats the failure into err and, if the engine runs, closes its pipes and kills it. */
void engine_fail(engine *e, char *err, size_t errcap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
