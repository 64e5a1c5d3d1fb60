/* SPDX-License-Identifier: MIT */
/* The engine's process for pgnkit analyze: posix_spawn with two close-on-exec pipes, commands
 * written whole, output read line by line under poll deadlines, and the stop: quit, then kill.
 * The UCI dialogue over it is in engine.c. */
#define _GNU_SOURCE /* pipe2 (POSIX.1-2024) */
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

int64_t engine_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int engine_spawn(engine *e, const char *path, int *spawn_errno) {
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
    if (rc == 0 && e->cfg->own_group) {
        sigset_t none; /* nor the caller's blocked signals (serve blocks SIGINT, SIGTERM) */
        sigemptyset(&none);
        rc = posix_spawnattr_setpgroup(&at, 0);
        rc = rc ? rc : posix_spawnattr_setsigmask(&at, &none);
        rc =
            rc ? rc : posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    }
    rc = rc ? rc : posix_spawnp(&e->pid, path, &fa, &at, argv, environ);
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        *spawn_errno = rc;
        close(in[1]);
        close(out[0]);
        e->pid = 0;
        return -1;
    }
    e->to_fd = in[1];
    e->from_fd = out[0];
    return 0;
}

int engine_send_text(engine *e, const char *text, size_t len) {
    for (size_t off = 0; off < len;) {
        ssize_t w = write(e->to_fd, text + off, len - off);
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

int engine_send_line(engine *e, const char *fmt, ...) {
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line - 1) {
        return -1;
    }
    line[n++] = '\n';
    return engine_send_text(e, line, (size_t)n);
}

int engine_read_line(engine *e, int64_t deadline, char **line, size_t *len) {
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
        int64_t left = deadline - engine_now_ms();
        if (left <= 0) {
            return 0;
        }
        int watch = e->cfg->abort_fd > 0 && !e->aborted;
        struct pollfd p[2] = {{e->from_fd, POLLIN, 0}, {e->cfg->abort_fd, POLLIN, 0}};
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

/* Kills what is left of the engine's process group (cfg->own_group): called while the engine's
 * process is not yet reaped, so that its id cannot name another group. */
static void kill_group(engine *e) {
    if (e->cfg->own_group) {
        kill(-e->pid, SIGKILL);
    }
}

static void kill_engine(engine *e) {
    if (e->pid > 0) {
        kill_group(e);
        kill(e->pid, SIGKILL);
        waitpid(e->pid, NULL, 0);
    }
    e->pid = 0;
}

void engine_stop(engine *e) {
    if (e->pid <= 0) {
        return;
    }
    engine_send_line(e, "quit");
    close(e->to_fd);
    close(e->from_fd);
    /* give it a moment to exit on its own, then kill it */
    for (int i = 0; i < 50; i++) {
        siginfo_t si;
        si.si_pid = 0;
        int r = waitid(P_PID, (id_t)e->pid, &si, WEXITED | WNOHANG | WNOWAIT);
        if (r == 0 && si.si_pid == e->pid) { /* exited, not reaped yet */
            kill_group(e);                   /* a wrapper script's children */
            waitpid(e->pid, NULL, 0);
            e->pid = 0;
            return;
        }
        if (r < 0 && errno != EINTR) {
            e->pid = 0;
            return;
        }
        struct timespec ts = {0, 10 * 1000000};
        nanosleep(&ts, NULL);
    }
    kill_engine(e);
}

void engine_fail(engine *e, char *err, size_t errcap, const char *fmt, ...) {
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
