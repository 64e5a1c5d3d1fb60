/* SPDX-License-Identifier: MIT */
/* The UCI engine process (engine.h: pgn_engine_*) between uci_process.c (the process and its
 * pipes) and uci_engine.c (the UCI dialogue). POSIX. */
#ifndef PGNKIT_ENGINE_UCI_ENGINE_H
#define PGNKIT_ENGINE_UCI_ENGINE_H

#include "pgnkit/engine.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pgn_engine {
    pgn_allocator alloc;
    pgn_engine_config cfg;
    pid_t pid; /* 0: not running; read and written atomically (pgn_engine_kill) */
    int to_fd, from_fd;
    size_t start, len;
    int chess960; /* UCI_Chess960 as last set */
    int aborted;  /* cfg.abort_fd was seen readable (it is not watched again) */
    int has_chess960, has_threads, has_hash, has_multipv;
    char name[128];
    char variants[1024]; /* the UCI_Variant option's line after its name (its "var" values) */
    char variant[24];    /* UCI_Variant as last set ("" : never) */
    char buf[1 << 16];
};

/* CLOCK_MONOTONIC in milliseconds: the deadlines. */
int64_t pgnk_engine_now_ms(void);
/* Starts path (looked up on PATH) with two close-on-exec pipes as its stdin and stdout, into
 * e->pid, e->to_fd, e->from_fd. Returns 0, or -1 with the error number in *spawn_errno. */
int pgnk_engine_spawn(pgn_engine *e, const char *path, int *spawn_errno);
/* Writes len bytes of text to the engine, all of them; 0, or -1 (its input is closed). */
int pgnk_engine_send_text(pgn_engine *e, const char *text, size_t len);
/* Writes one formatted line (under 255 bytes) and its line break; 0 or -1. */
int pgnk_engine_send_line(pgn_engine *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Next line of output (NUL-terminated in place): 1, 0 on timeout (or cfg.abort_fd readable, the
 * first time), -1 at EOF or error. */
int pgnk_engine_read_line(pgn_engine *e, int64_t deadline, char **line, size_t *len);
/* Formats the failure into err and, if the engine runs, closes its pipes and kills it. */
void pgnk_engine_fail(pgn_engine *e, char *err, size_t errcap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
