/* SPDX-License-Identifier: MIT */
/* Temporary files beside their targets (tempfile.h): the list a signal handler removes, the
 * directories swept in this run and the sweep itself (readdir, which the library does not call),
 * as the hooks of the library's pgn_output and pgn_temp_make; the names, whose process made a
 * file, and what a replaced file keeps are the library's (include/pgnkit/tempfile.h). */
#define _POSIX_C_SOURCE 200809L
#include "tempfile.h"

#include "driver.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The registered names. The handler reads the list, so it changes only with the signals
 * blocked; the strings are their owners' (never freed while registered). */
static struct {
    const char **names;
    size_t n, cap;
    int handlers; /* installed */
    char **swept; /* the directories swept in this run */
    size_t nswept;
} reg;

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
enum { NSIGNALS = sizeof stop_signals / sizeof stop_signals[0] };

/* Removes every registered file, then dies of the signal as if there were no handler. */
static void on_signal(int sig) {
    for (size_t i = 0; i < reg.n; i++) {
        if (reg.names[i]) {
            unlink(reg.names[i]);
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* The handlers, for the signals whose action is still the default (an ignored SIGPIPE or a
 * nohup'ed SIGHUP stays so). */
static void install_handlers(void) {
    reg.handlers = 1;
    for (size_t i = 0; i < NSIGNALS; i++) {
        struct sigaction old, sa;
        if (sigaction(stop_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL) {
            continue;
        }
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (size_t k = 0; k < NSIGNALS; k++) {
            sigaddset(&sa.sa_mask, stop_signals[k]); /* one removal at a time */
        }
        sigaction(stop_signals[i], &sa, NULL);
    }
}

static void block(sigset_t *old) {
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < NSIGNALS; i++) {
        sigaddset(&set, stop_signals[i]);
    }
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static int temp_register(void *ctx, const char *name) {
    (void)ctx;
    sigset_t old;
    int ok = 1;
    block(&old);
    if (!reg.handlers) {
        install_handlers();
    }
    if (reg.n == reg.cap) {
        size_t cap = reg.cap ? reg.cap * 2 : 16;
        const char **p = realloc(reg.names, cap * sizeof *p);
        if (p) {
            reg.names = p;
            reg.cap = cap;
        } else {
            ok = 0;
        }
    }
    if (ok) {
        reg.names[reg.n++] = name;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok ? 0 : -1;
}

static void temp_forget(void *ctx, const char *name) {
    (void)ctx;
    sigset_t old;
    block(&old);
    for (size_t i = reg.n; i-- > 0;) {
        if (reg.names[i] == name) {
            reg.names[i] = reg.names[--reg.n];
            break;
        }
    }
    if (reg.n == 0) { /* the last one: the list goes, so that a run leaves nothing behind */
        free(reg.names);
        reg.names = NULL;
        reg.cap = 0;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Has dir been swept in this run? Notes it if not (out of memory: as if it had). */
static int swept(const char *dir) {
    for (size_t i = 0; i < reg.nswept; i++) {
        if (strcmp(reg.swept[i], dir) == 0) {
            return 1;
        }
    }
    char **p = realloc(reg.swept, (reg.nswept + 1) * sizeof *p);
    char *copy = p ? strdup(dir) : NULL;
    if (p) {
        reg.swept = p;
    }
    if (!copy) {
        return 1;
    }
    reg.swept[reg.nswept++] = copy;
    return 0;
}

/* Removes the temporary files of runs that are gone from dir (once per directory and run). */
static void temp_sweep(void *ctx, const char *dir) {
    (void)ctx;
    DIR *d = swept(dir) ? NULL : opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        if (pgn_temp_stale(e->d_name)) {
            unlinkat(dirfd(d), e->d_name, 0);
        }
    }
    if (d) {
        closedir(d);
    }
}

const pgn_temp_hooks cli_temp_hooks = {temp_register, temp_forget, temp_sweep, NULL};

/* --backup SUFFIX: the file as it is, before it is replaced, as FILE.SUFFIX (a hard link to it,
 * replacing an older backup; the file a symbolic link names). EXIT_OK or EXIT_RESOURCE (said). */
int cli_backup(const char *path, const char *suffix) {
    char msg[512];
    if (pgn_temp_backup(path, suffix, msg, sizeof msg) != PGN_OK) {
        cli_error(path, "%s", msg);
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}
