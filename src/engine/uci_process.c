/* SPDX-License-Identifier: MIT */
/* A UCI engine's process (engine.h: pgn_engine_*): posix_spawn with two close-on-exec pipes,
 * commands written whole with SIGPIPE held back, output read line by line under poll deadlines,
 * and the stop: quit, then kill. The UCI dialogue over it is in uci_engine.c. */
#define _GNU_SOURCE /* pipe2 (POSIX.1-2024) */
#include "uci_engine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int64_t pgnk_engine_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int pgnk_engine_spawn(pgn_engine *e, const char *path, int *spawn_errno) {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        *spawn_errno = errno;
        return -1;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        *spawn_errno = errno;
        close(in[0]);
        close(in[1]);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    char *argv[] = {(char *)(uintptr_t)path, NULL};
    posix_spawnattr_t at;
    int rc = posix_spawnattr_init(&at);
    if (rc == 0 && e->cfg.own_group) {
        sigset_t none; /* nor the caller's blocked signals (serve blocks SIGINT, SIGTERM) */
        sigemptyset(&none);
        rc = posix_spawnattr_setpgroup(&at, 0);
        rc = rc ? rc : posix_spawnattr_setsigmask(&at, &none);
        rc =
            rc ? rc : posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    }
    pid_t pid = 0;
    rc = rc ? rc : posix_spawnp(&pid, path, &fa, &at, argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        *spawn_errno = rc;
        close(in[1]);
        close(out[0]);
        return -1;
    }
    e->to_fd = in[1];
    e->from_fd = out[0];
    __atomic_store_n(&e->pid, pid, __ATOMIC_RELAXED);
    return 0;
}

/* write(2) with SIGPIPE blocked on this thread, and the SIGPIPE a dead engine raised taken back
 * (unless one was pending before): the library never kills its caller. */
static ssize_t write_quietly(int fd, const char *p, size_t n) {
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigemptyset(&pending);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE) == 1;
    int blocked = pthread_sigmask(SIG_BLOCK, &pipe_set, &old) == 0;
    ssize_t w = write(fd, p, n);
    int saved = errno;
    if (w < 0 && saved == EPIPE && blocked && !was_pending) {
        const struct timespec now = {0, 0};
        while (sigtimedwait(&pipe_set, NULL, &now) < 0 && errno == EINTR) {
        }
    }
    if (blocked) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    errno = saved;
    return w;
}

int pgnk_engine_send_text(pgn_engine *e, const char *text, size_t len) {
    for (size_t off = 0; off < len;) {
        ssize_t w = write_quietly(e->to_fd, text + off, len - off);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        off += (size_t)w;
    }
    return 0;
}

int pgnk_engine_send_line(pgn_engine *e, const char *fmt, ...) {
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line - 1) {
        return -1;
    }
    line[n++] = '\n';
    return pgnk_engine_send_text(e, line, (size_t)n);
}

int pgnk_engine_read_line(pgn_engine *e, int64_t deadline, char **line, size_t *len) {
    for (;;) {
        char *nl = memchr(e->buf + e->start, '\n', e->len - e->start);
        if (nl) {
            *line = e->buf + e->start;
            *len = (size_t)(nl - *line);
            *nl = 0;
            e->start += *len + 1;
            return 1;
        }
        if (e->start > 0) {
            memmove(e->buf, e->buf + e->start, e->len - e->start);
            e->len -= e->start;
            e->start = 0;
        }
        if (e->len == sizeof e->buf - 1) {
            e->len = 0; /* an absurdly long line: dropped */
        }
        int64_t left = deadline - pgnk_engine_now_ms();
        if (left <= 0) {
            return 0;
        }
        int watch = e->cfg.abort_fd > 0 && !e->aborted;
        struct pollfd p[2] = {{e->from_fd, POLLIN, 0}, {e->cfg.abort_fd, POLLIN, 0}};
        int pr = poll(p, watch ? 2 : 1, (int)(left > 1000000 ? 1000000 : left));
        if (pr < 0 && errno == EINTR) {
            continue;
        }
        if (watch && p[1].revents) {
            e->aborted = 1; /* as if the deadline had passed: the caller stops the engine */
            return 0;
        }
        if (pr == 0) {
            continue; /* the deadline is checked above */
        }
        ssize_t r = read(e->from_fd, e->buf + e->len, sizeof e->buf - 1 - e->len);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return -1;
        }
        e->len += (size_t)r;
    }
}

/* Kills what is left of the engine's process group (cfg.own_group): called while the engine's
 * process is not yet reaped, so that its id cannot name another group. */
static void kill_group(const pgn_engine *e, pid_t pid) {
    if (e->cfg.own_group) {
        kill(-pid, SIGKILL);
    }
}

/* The process reaped: pid 0 from here on. */
static void reaped(pgn_engine *e) {
    __atomic_store_n(&e->pid, 0, __ATOMIC_RELAXED);
}

static void kill_engine(pgn_engine *e) {
    if (e->pid > 0) {
        kill_group(e, e->pid);
        kill(e->pid, SIGKILL);
        waitpid(e->pid, NULL, 0);
    }
    reaped(e);
}

void pgn_engine_kill(pgn_engine *e) {
    pid_t pid = e ? __atomic_load_n(&e->pid, __ATOMIC_RELAXED) : 0;
    if (pid > 0) {
        kill_group(e, pid);
        kill(pid, SIGKILL);
    }
}

int pgn_engine_running(const pgn_engine *e) {
    return e != NULL && e->pid > 0;
}

void pgn_engine_stop(pgn_engine *e) {
    if (e == NULL || e->pid <= 0) {
        return;
    }
    pgnk_engine_send_line(e, "quit");
    close(e->to_fd);
    close(e->from_fd);
    /* give it a moment to exit on its own, then kill it */
    for (int i = 0; i < 50; i++) {
        siginfo_t si;
        si.si_pid = 0;
        int r = waitid(P_PID, (id_t)e->pid, &si, WEXITED | WNOHANG | WNOWAIT);
        if (r == 0 && si.si_pid == e->pid) { /* exited, not reaped yet */
            kill_group(e, e->pid);           /* a wrapper script's children */
            waitpid(e->pid, NULL, 0);
            reaped(e);
            return;
        }
        if (r < 0 && errno != EINTR) {
            reaped(e);
            return;
        }
        struct timespec ts = {0, 10 * 1000000};
        nanosleep(&ts, NULL);
    }
    kill_engine(e);
}

void pgnk_engine_fail(pgn_engine *e, char *err, size_t errcap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errcap, fmt, ap);
    va_end(ap);
    if (e->pid > 0) {
        close(e->to_fd);
        close(e->from_fd);
        kill_engine(e);
    }
}
