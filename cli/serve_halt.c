/* SPDX-License-Identifier: MIT */
/* pgnkit serve's shutdown (issue 36): the pipe every engine watches (pgn_engine_config.abort_fd),
 * written by the first stop signal so that every running search is told to stop at once (the
 * queue's end: pgn_jobs_abort, pgn_jobs_halt); and a second signal's kill of every engine's
 * process group and exit. */
#define _GNU_SOURCE /* pipe2 (POSIX.1-2024) */
#include "serve_jobs.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

/* The pipe whose read end every engine watches (pgn_engine_config.abort_fd, never 0), and the
 * engines in process groups of their own: 0, or -1. */
int serve_open_abort_pipe(serve_jobs *j) {
    if (pipe2(j->abort_pipe, O_CLOEXEC) != 0) {
        j->abort_pipe[0] = j->abort_pipe[1] = -1;
        return -1;
    }
    if (j->abort_pipe[0] == 0) { /* 0 means none to pgn_engine_config */
        int fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
        close(0);
        j->abort_pipe[0] = fd;
    }
    j->cfg.abort_fd = j->abort_pipe[0];
    j->cfg.own_group = 1;
    return j->abort_pipe[0] > 0 ? 0 : -1;
}

void serve_jobs_abort(serve_jobs *j) {
    pgn_jobs_abort(j->q);
    ssize_t w = write(j->abort_pipe[1], "x", 1); /* never read: stays readable */
    (void)w;
}

void serve_jobs_halt(serve_jobs *j) {
    pgn_jobs_halt(j->q);
}

void *serve_second_signal(void *arg) {
    serve_second *sec = arg;
    int sig = 0;
    if (sigwait(&sec->stop, &sig) == 0) {
        fprintf(stderr, "pgnkit serve: signal %d again: exiting now\n", sig);
        pgn_jobs_kill(sec->jobs->q); /* every engine's process group */
        _exit(EXIT_OK);
    }
    return NULL;
}
