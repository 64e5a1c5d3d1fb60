/* SPDX-License-Identifier: MIT */
/* The progress line (issue 16): on a terminal (or with --progress), one line on stderr redrawn a
 * few times a second while games are read: the file, bytes read of its size, games, games/s,
 * MB/s and, when the size is known, the ETA. Every message erases it first (messages.c), and so
 * does the end of each input. Only the main thread draws it. */
#define _POSIX_C_SOURCE 200809L
#include "parallel.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static struct {
    int mode;  /* -1 auto, 0 off, 1 on */
    int shown; /* the line is on the terminal */
    const cli_input *in;
    uint64_t size; /* 0: unknown */
    uint64_t games;
    double t0, last;
} pr = {-1, 0, NULL, 0, 0, 0, 0};

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_mode(int mode) {
    pr.mode = mode;
}

void cli_progress_input(const cli_input *in) {
    if (pr.mode < 0) {
        pr.mode = isatty(2) != 0;
    }
    pr.in = pr.mode ? in : NULL;
    pr.size = 0;
    if (pr.in && in->src && pgn_source_seekable(in->src)) {
        pr.size = pgn_source_size(in->src);
    }
    pr.games = 0;
    pr.t0 = pr.last = pr.in ? now() : 0;
}

static void draw(double t) {
    double secs = t - pr.t0 > 1e-3 ? t - pr.t0 : 1e-3;
    uint64_t bytes = pr.in->src ? pgn_source_consumed(pr.in->src) : 0;
    double mb = (double)bytes / 1e6;
    fprintf(stderr, "\r%s: %.1f MB", pr.in->name, mb);
    if (pr.size) {
        fprintf(stderr, " of %.1f MB (%.0f%%)", (double)pr.size / 1e6,
                100.0 * (double)bytes / (double)pr.size);
    }
    fprintf(stderr, ", %llu games, %.0f games/s, %.1f MB/s", (unsigned long long)pr.games,
            (double)pr.games / secs, mb / secs);
    if (pr.size && bytes > 0 && bytes <= pr.size) {
        unsigned long eta = (unsigned long)(secs * (double)(pr.size - bytes) / (double)bytes);
        fprintf(stderr, ", ETA %lu:%02lu", eta / 60, eta % 60);
    }
    fputs("\033[K", stderr);
    fflush(stderr);
    pr.shown = 1;
}

void cli_progress_tick(void) {
    if (!pr.in) {
        return;
    }
    double t = now();
    if (t - pr.last >= 0.25) {
        pr.last = t;
        draw(t);
    }
}

void cli_progress_game(void) {
    if (pr.in) {
        pr.games++;
        if ((pr.games & 15) == 0) {
            cli_progress_tick();
        }
    }
}

void cli_progress_clear(void) {
    if (pr.shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        pr.shown = 0;
    }
}
