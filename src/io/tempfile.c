/* SPDX-License-Identifier: MIT */
/* Temporary files (include/pgnkit/tempfile.h; issue 29 point 3, from cli/tempfile.c and
 * cli/sort_runs.c): anonymous ones in a directory, ones beside their targets named after the
 * process that made them (the sweep of a gone process's files, which needs readdir, is the
 * program's), and what an in-place rewrite keeps (owner, group, mode, extended attributes) or
 * backs up. POSIX (mkstemp, linkat, fchown), Linux's xattr calls where there are; the names are
 * built on the stack. */
#define _POSIX_C_SOURCE 200809L
#include "pgnkit/tempfile.h"

#include "../base/errtext.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/xattr.h>
#endif

enum { NAME_MAX_BYTES = 4096 };

pgn_status pgn_temp_open(const char *dir, int *fd, char *msg, size_t cap) {
    char name[NAME_MAX_BYTES], why[64];
    *fd = -1;
    if (strlen(dir) > 4000) {
        pgnk_set_msg(msg, cap, "the directory name is longer than 4000 bytes");
        return PGN_E_LIMIT;
    }
    snprintf(name, sizeof name, "%s/pgnkit-XXXXXX", dir);
    int f = mkstemp(name);
    if (f < 0) {
        int err = errno;
        struct rlimit rl;
        if (err == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0) {
            pgnk_set_msg(msg, cap, "%s (the limit is %llu open files: ulimit -n)",
                         pgnk_errno_text(err, why), (unsigned long long)rl.rlim_cur);
        } else {
            pgnk_set_msg(msg, cap, "%s", pgnk_errno_text(err, why));
        }
        return PGN_E_IO;
    }
    unlink(name);                  /* gone when closed, however the program ends */
    fcntl(f, F_SETFD, FD_CLOEXEC); /* a flag only: the file works without it */
    *fd = f;
    return PGN_OK;
}

/* The length of the directory part of path (0: none, the directory is "."), and its last
 * component in *base. */
static size_t dir_len(const char *path, const char **base) {
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    return slash ? (slash == path ? 1 : (size_t)(slash - path)) : 0;
}

pgn_status pgn_temp_name(const char *target, char *out, size_t cap) {
    const char *base;
    size_t d = dir_len(target, &base);
    int n = snprintf(out, cap, "%.*s/.%s.pgnkit-%ld-XXXXXX", d ? (int)d : 1, d ? target : ".", base,
                     (long)getpid());
    return n > 0 && (size_t)n < cap && d < 0x7fffffff ? PGN_OK : PGN_E_LIMIT;
}

long pgn_temp_maker(const char *name) {
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

pgn_status pgn_temp_create(const char *target, mode_t mode, char *name, size_t cap, int *fd) {
    *fd = -1;
    if (pgn_temp_name(target, name, cap) != PGN_OK) {
        errno = ENAMETOOLONG;
        return PGN_E_LIMIT;
    }
    int f = mkstemp(name);
    if (f < 0) {
        return PGN_E_IO;
    }
    if (fchmod(f, mode) != 0) {
        int err = errno;
        close(f);
        unlink(name);
        errno = err;
        return PGN_E_IO;
    }
    fcntl(f, F_SETFD, FD_CLOEXEC);
    *fd = f;
    return PGN_OK;
}

#if defined(__linux__)
/* Copies the extended attributes of path to fd: PGN_OK, or PGN_E_IO with msg. A file system
 * without them has none to keep. */
static pgn_status keep_xattrs(int fd, const char *path, char *msg, size_t cap) {
    char why[64];
    ssize_t n = listxattr(path, NULL, 0);
    if (n < 0 && (errno == ENOTSUP || errno == ENOSYS)) {
        return PGN_OK;
    }
    if (n <= 0) {
        if (n < 0) {
            pgnk_set_msg(msg, cap, "cannot read its extended attributes (%s): not replaced",
                         pgnk_errno_text(errno, why));
        }
        return n == 0 ? PGN_OK : PGN_E_IO;
    }
    char *names = malloc((size_t)n), *val = NULL;
    if (!names || (n = listxattr(path, names, (size_t)n)) < 0) {
        pgnk_set_msg(msg, cap, "cannot read its extended attributes (%s): not replaced",
                     pgnk_errno_text(names ? errno : ENOMEM, why));
        free(names);
        return PGN_E_IO;
    }
    pgn_status st = PGN_OK;
    for (ssize_t i = 0; st == PGN_OK && i < n; i += (ssize_t)strlen(names + i) + 1) {
        ssize_t len = getxattr(path, names + i, NULL, 0);
        char *v = len >= 0 ? realloc(val, len ? (size_t)len : 1) : NULL;
        if (!v || (len = getxattr(path, names + i, v, (size_t)len)) < 0 ||
            fsetxattr(fd, names + i, v, (size_t)len, 0) != 0) {
            pgnk_set_msg(msg, cap, "cannot keep its extended attribute '%s' (%s): not replaced",
                         names + i, pgnk_errno_text(v ? errno : ENOMEM, why));
            st = PGN_E_IO;
        }
        val = v ? v : val;
    }
    free(names);
    free(val);
    return st;
}
#endif

pgn_status pgn_temp_keep_metadata(int fd, const char *path, const struct stat *old, char *msg,
                                  size_t cap) {
    struct stat now;
    char why[64];
    if (fstat(fd, &now) != 0) {
        pgnk_set_msg(msg, cap, "cannot read its new copy's owner (%s): not replaced",
                     pgnk_errno_text(errno, why));
        return PGN_E_IO;
    }
    if ((now.st_uid != old->st_uid || now.st_gid != old->st_gid) &&
        fchown(fd, old->st_uid, old->st_gid) != 0) {
        pgnk_set_msg(msg, cap, "cannot keep its owner %ld and group %ld (%s): not replaced",
                     (long)old->st_uid, (long)old->st_gid, pgnk_errno_text(errno, why));
        return PGN_E_IO;
    }
    if (fchmod(fd, old->st_mode & 07777) != 0) { /* after fchown, which may clear set-id bits */
        pgnk_set_msg(msg, cap, "cannot keep its mode %04o (%s): not replaced",
                     (unsigned)(old->st_mode & 07777), pgnk_errno_text(errno, why));
        return PGN_E_IO;
    }
#if defined(__linux__)
    return keep_xattrs(fd, path, msg, cap);
#else
    (void)path;
    return PGN_OK;
#endif
}

pgn_status pgn_temp_backup(const char *path, const char *suffix, char *msg, size_t cap) {
    char name[NAME_MAX_BYTES], why[64];
    int n = snprintf(name, sizeof name, "%s%s", path, suffix);
    if (n < 0 || (size_t)n >= sizeof name) {
        pgnk_set_msg(msg, cap, "cannot keep a backup as '%s%s': %s (not replaced)", path, suffix,
                     pgnk_errno_text(ENAMETOOLONG, why));
        return PGN_E_LIMIT;
    }
    if ((unlink(name) != 0 && errno != ENOENT) ||
        linkat(AT_FDCWD, path, AT_FDCWD, name, AT_SYMLINK_FOLLOW) != 0) {
        pgnk_set_msg(msg, cap, "cannot keep a backup as '%s': %s (not replaced)", name,
                     pgnk_errno_text(errno, why));
        return PGN_E_IO;
    }
    return PGN_OK;
}
