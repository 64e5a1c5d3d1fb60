/* SPDX-License-Identifier: MIT */
/* Temporary files beside their targets and what an in-place rewrite keeps (tempfile.h): the names
 * that say which run made them, the list a signal handler removes, the sweep of a dead run's
 * files, and the owner, group, mode and extended attributes of a replaced file. */
#define _GNU_SOURCE /* mkostemp */
#include "tempfile.h"

#include "driver.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/xattr.h>
#endif

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

int cli_temp_register(const char *name) {
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

void cli_temp_forget(const char *name) {
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

/* The directory part of path ("." if none) and its last component. */
static char *dir_part(const char *path, const char **base) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, slash ? path : ".", n);
        d[n] = 0;
    }
    *base = slash ? slash + 1 : path;
    return d;
}

char *cli_temp_name(const char *target) {
    const char *base;
    char *dir = dir_part(target, &base);
    size_t n = dir ? strlen(dir) + strlen(base) + 48 : 0;
    char *t = dir ? malloc(n) : NULL;
    if (t) {
        snprintf(t, n, "%s/.%s.pgnkit-%ld-XXXXXX", dir, base, (long)getpid());
    }
    free(dir);
    return t;
}

/* The process that made temporary file name (".BASE.pgnkit-PID-XXXXXX"), or 0 for another name. */
static long maker_of(const char *name) {
    const char *p = NULL;
    for (const char *q = name; (q = strstr(q, ".pgnkit-")) != NULL; q++) {
        p = q; /* the last one: BASE may hold the text too */
    }
    if (name[0] != '.' || !p || p == name) {
        return 0;
    }
    char *end;
    long pid = strtol(p + 8, &end, 10);
    return pid > 0 && end != p + 8 && end[0] == '-' && strlen(end + 1) == 6 ? pid : 0;
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

void cli_temp_sweep(const char *target) {
    const char *base;
    char *dir = dir_part(target, &base);
    DIR *d = dir && !swept(dir) ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        long pid = maker_of(e->d_name);
        if (pid == 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH) {
            continue; /* not ours, this run's, or its run lives (or may: EPERM) */
        }
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(n);
        if (path) {
            snprintf(path, n, "%s/%s", dir, e->d_name);
            unlink(path);
            free(path);
        }
    }
    if (d) {
        closedir(d);
    }
    free(dir);
}

int cli_temp_create(const char *target, mode_t mode, char **name) {
    cli_temp_sweep(target);
    *name = cli_temp_name(target);
    if (!*name) {
        errno = ENOMEM;
        return -1;
    }
    sigset_t old;
    block(&old); /* made and registered at once: a signal between would leave it */
    int fd = mkostemp(*name, O_CLOEXEC);
    int err = fd < 0 ? errno : cli_temp_register(*name) != 0 ? ENOMEM : 0;
    if (fd >= 0 && err) {
        close(fd);
        unlink(*name);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!err && fchmod(fd, mode) != 0) {
        err = errno;
        close(fd);
        unlink(*name);
        cli_temp_forget(*name);
    }
    if (err) {
        free(*name);
        *name = NULL;
        errno = err;
        return -1;
    }
    return fd;
}

#if defined(__linux__)
/* Copies the extended attributes of path (ACLs and capabilities too) to fd: 0, or -1 after a
 * message. A file system without them has none to keep. */
static int keep_xattrs(int fd, const char *path) {
    ssize_t n = listxattr(path, NULL, 0);
    if (n < 0 && (errno == ENOTSUP || errno == ENOSYS)) {
        return 0;
    }
    if (n <= 0) {
        return n == 0 ? 0 : -2;
    }
    char *names = malloc((size_t)n), *val = NULL;
    int st = names && (n = listxattr(path, names, (size_t)n)) >= 0 ? 0 : -2;
    for (ssize_t i = 0; st == 0 && i < n; i += (ssize_t)strlen(names + i) + 1) {
        ssize_t len = getxattr(path, names + i, NULL, 0);
        char *v = len >= 0 ? realloc(val, len ? (size_t)len : 1) : NULL;
        if (!v || (len = getxattr(path, names + i, v, (size_t)len)) < 0 ||
            fsetxattr(fd, names + i, v, (size_t)len, 0) != 0) {
            cli_error(path, "cannot keep its extended attribute '%s' (%s): not replaced", names + i,
                      strerror(v ? errno : ENOMEM));
            st = -1;
        }
        val = v ? v : val;
    }
    free(names);
    free(val);
    return st;
}
#endif

int cli_keep_metadata(int fd, const char *path, const struct stat *old) {
    struct stat now;
    if (fstat(fd, &now) != 0) {
        cli_error(path, "cannot read its new copy's owner (%s): not replaced", strerror(errno));
        return -1;
    }
    if ((now.st_uid != old->st_uid || now.st_gid != old->st_gid) &&
        fchown(fd, old->st_uid, old->st_gid) != 0) {
        cli_error(path, "cannot keep its owner %ld and group %ld (%s): not replaced",
                  (long)old->st_uid, (long)old->st_gid, strerror(errno));
        return -1;
    }
    if (fchmod(fd, old->st_mode & 07777) != 0) { /* after fchown, which may clear set-id bits */
        cli_error(path, "cannot keep its mode %04o (%s): not replaced",
                  (unsigned)(old->st_mode & 07777), strerror(errno));
        return -1;
    }
#if defined(__linux__)
    int st = keep_xattrs(fd, path);
    if (st == -2) {
        cli_error(path, "cannot read its extended attributes (%s): not replaced", strerror(errno));
    }
    return st < 0 ? -1 : 0;
#else
    return 0;
#endif
}

/* --backup SUFFIX: the file as it is, before it is replaced, as FILE.SUFFIX (a hard link to it,
 * replacing an older backup; the file a symbolic link names). EXIT_OK or EXIT_RESOURCE (said). */
int cli_backup(const char *path, const char *suffix) {
    size_t n = strlen(path), k = strlen(suffix);
    char *name = malloc(n + k + 1);
    if (!name) {
        cli_error(NULL, "out of memory");
        return EXIT_RESOURCE;
    }
    memcpy(name, path, n);
    memcpy(name + n, suffix, k + 1);
    int st = EXIT_OK;
    if ((unlink(name) != 0 && errno != ENOENT) ||
        linkat(AT_FDCWD, path, AT_FDCWD, name, AT_SYMLINK_FOLLOW) != 0) {
        cli_error(path, "cannot keep a backup as '%s': %s (not replaced)", name, strerror(errno));
        st = EXIT_RESOURCE;
    }
    free(name);
    return st;
}
