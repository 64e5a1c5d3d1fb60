/* SPDX-License-Identifier: MIT */
/* Outputs replaced only when complete (include/pgnkit/tempfile.h; issue 29 point 3, from
 * cli/output.c and cli/zout.c): an unnamed (O_TMPFILE) or named temporary file beside the target,
 * with the replaced file's owner, group, mode and extended attributes, compressed by the name's
 * extension through pgn_encoder, written through a buffer, fsync'd and renamed over the target on
 * commit, removed otherwise; a device or FIFO written as it comes; the same-file test by device
 * and inode. POSIX on file descriptors (linkat through /proc/self/fd on Linux). */
#define _GNU_SOURCE /* O_TMPFILE, linkat, renameat2 */
#include "pgnkit/source.h"
#include "pgnkit/tempfile.h"

#include "../base/alloc.h"
#include "../base/errtext.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { DEFAULT_BUFFER = 64 << 10, TEMP_CAP = PATH_MAX + 64, ATTEMPTS = 1000 };

struct pgn_output {
    pgn_allocator alloc;
    pgn_temp_hooks hooks;
    uint32_t flags;
    char *buf; /* cap bytes, len of them waiting for the file */
    size_t len, cap;
    int fd;            /* -1: not open */
    int err;           /* the first write error (an errno; 0: none) */
    int replace;       /* a temporary file, put over target on commit */
    int named;         /* tmp names it (else it is unnamed, O_TMPFILE) */
    pgn_encoder *enc;  /* compressing (else NULL) */
    const char *about; /* the file the last failure's sentence is about (NULL: it names it) */
    char path[PATH_MAX], target[PATH_MAX], tmp[TEMP_CAP];
};

static int hook_add(const pgn_temp_hooks *h, const char *name) {
    return h && h->add ? h->add(h->ctx, name) : 0;
}

static void hook_remove(const pgn_temp_hooks *h, const char *name) {
    if (h && h->remove) {
        h->remove(h->ctx, name);
    }
}

/* The directory part of path ("." if none, "/" for "/x") into dir (PATH_MAX bytes); 0 or
 * ENAMETOOLONG. */
static int dir_of(const char *path, char *dir) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
    if (n >= PATH_MAX) {
        return ENAMETOOLONG;
    }
    memcpy(dir, slash ? path : ".", n);
    dir[n] = 0;
    return 0;
}

static void hook_sweep(const pgn_temp_hooks *h, const char *target) {
    char dir[PATH_MAX];
    if (h && h->sweep && dir_of(target, dir) == 0) {
        h->sweep(h->ctx, dir);
    }
}

int pgn_temp_stale(const char *name) {
    long pid = pgn_temp_maker(name);
    return pid != 0 && pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

void pgn_temp_remove(const char *tmp, const pgn_temp_hooks *hooks) {
    unlink(tmp);
    hook_remove(hooks, tmp);
}

/* Writes the last six characters of name as the attempt's number. */
static void number(char *name, unsigned v) {
    char *x = name + strlen(name);
    for (int i = 0; i < 6; i++, v /= 10) {
        *--x = (char)('0' + v % 10);
    }
}

pgn_status pgn_temp_make(const char *target, mode_t mode, const pgn_temp_hooks *hooks, char *name,
                         size_t cap, int *fd) {
    *fd = -1;
    if (pgn_temp_name(target, name, cap) != PGN_OK) {
        errno = ENAMETOOLONG;
        return PGN_E_LIMIT;
    }
    hook_sweep(hooks, target); /* what an interrupted run left there */
    for (unsigned attempt = 0; attempt < ATTEMPTS; attempt++) {
        number(name, attempt);
        if (hook_add(hooks, name) != 0) { /* named before it exists: a signal never misses it */
            errno = ENOMEM;
            return PGN_E_NOMEM;
        }
        int f = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (f >= 0) {
            *fd = f;
            return PGN_OK;
        }
        int err = errno;
        hook_remove(hooks, name);
        if (err != EEXIST) {
            errno = err;
            return PGN_E_IO;
        }
    }
    errno = EEXIST;
    return PGN_E_IO;
}

/* Puts tmp in place as path (place), without replacing an existing name. 0, or -1 with errno. */
static int place(const char *tmp, const char *path) {
#ifdef RENAME_NOREPLACE
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0) {
        return 0;
    }
    if (errno != EINVAL && errno != ENOSYS) {
        return -1;
    }
#endif
    if (link(tmp, path) != 0) { /* never over a name made since the check */
        return -1;
    }
    unlink(tmp);
    return 0;
}

pgn_status pgn_temp_place(const char *tmp, const char *path, int replace,
                          const pgn_temp_hooks *hooks) {
    if ((replace ? rename(tmp, path) : place(tmp, path)) != 0) {
        return PGN_E_IO;
    }
    hook_remove(hooks, tmp);
    return PGN_OK;
}

pgn_status pgn_output_new(pgn_output **out, const pgn_output_opts *opts) {
    pgn_status st;
    const pgn_allocator *a = opts ? opts->alloc : NULL;
    pgn_output *o = pgnk_alloc_object(a, sizeof *o, &st);
    *out = NULL;
    if (!o) {
        return st;
    }
    pgnk_alloc_copy(&o->alloc, a);
    if (opts) {
        o->hooks = opts->hooks;
        o->flags = opts->flags;
        o->cap = opts->buffer;
    }
    o->cap = o->cap ? o->cap : DEFAULT_BUFFER;
    o->fd = -1;
    if (!(o->buf = pgnk_malloc(&o->alloc, o->cap))) {
        pgnk_free(&o->alloc, o);
        return PGN_E_NOMEM;
    }
    *out = o;
    return PGN_OK;
}

/* Opens an unnamed file in the target's directory (O_TMPFILE), or -1 where the system has none. */
static int open_unnamed(const pgn_output *o) {
#ifdef O_TMPFILE
    char dir[PATH_MAX];
    if (!(o->flags & PGN_OUTPUT_NAMED_TEMP) && dir_of(o->target, dir) == 0 &&
        access("/proc/self/fd", X_OK) == 0) {
        return open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    }
#else
    (void)o;
#endif
    return -1;
}

/* The temporary file beside o->target, with the replaced file's metadata (old, when it exists).
 * 0, or an errno (-1: msg says it all, about the target). */
static int open_temp(pgn_output *o, const struct stat *old, char *msg, size_t cap) {
    o->replace = 1;
    hook_sweep(&o->hooks, o->target);
    if ((o->fd = open_unnamed(o)) < 0) {
        if (pgn_temp_make(o->target, 0666, &o->hooks, o->tmp, sizeof o->tmp, &o->fd) != PGN_OK) {
            return errno;
        }
        o->named = 1;
    }
    if (old && pgn_temp_keep_metadata(o->fd, o->target, old, msg, cap) != PGN_OK) {
        o->about = o->target;
        return -1;
    }
    return 0;
}

/* Removes the temporary file while it has a name (not committed), and closes the file. */
static void drop(pgn_output *o) {
    if (o->fd >= 0) {
        close(o->fd);
    }
    if (o->named) {
        pgn_temp_remove(o->tmp, &o->hooks);
    }
    pgn_encoder_free(o->enc);
    o->enc = NULL;
    o->fd = -1;
    o->named = o->replace = 0;
    o->len = 0;
}

/* The file's bytes: all of them, or o->err set. */
static ptrdiff_t put_fd(void *ctx, const void *data, size_t len) {
    pgn_output *o = ctx;
    for (const char *p = data, *end = p + len; !o->err && p < end;) {
        ssize_t n = write(o->fd, p, (size_t)(end - p));
        if (n <= 0 && (n == 0 || errno != EINTR)) {
            o->err = n == 0 ? EIO : errno;
        }
        p += n > 0 ? n : 0;
    }
    return o->err ? -1 : (ptrdiff_t)len;
}

/* Writes what the buffer holds. */
static int flush(pgn_output *o) {
    size_t n = o->len;
    o->len = 0;
    return n && put_fd(o, o->buf, n) < 0 ? -1 : 0;
}

/* The compressed (or plain) bytes, through the buffer; a write as large as it passes straight. */
static ptrdiff_t put(void *ctx, const void *data, size_t len) {
    pgn_output *o = ctx;
    if (len <= o->cap - o->len) {
        memcpy(o->buf + o->len, data, len);
        o->len += len;
        return o->err ? -1 : (ptrdiff_t)len;
    }
    if (flush(o) < 0) {
        return -1;
    }
    return len < o->cap ? put(o, data, len) : put_fd(o, data, len);
}

pgn_status pgn_output_open(pgn_output *o, const char *path, char *msg, size_t cap) {
    char why[64];
    struct stat sb;
    drop(o);
    o->err = 0;
    o->about = NULL;
    int exists = stat(path, &sb) == 0, err = 0;
    snprintf(o->path, sizeof o->path, "%s", path);
    if (strlen(path) >= sizeof o->path) {
        err = ENAMETOOLONG;
    } else if (exists && S_ISDIR(sb.st_mode)) {
        err = EISDIR;
    } else if (exists && !S_ISREG(sb.st_mode)) { /* a device or a FIFO: written as it comes */
        o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        err = o->fd < 0 ? errno : 0;
    } else if (exists && !realpath(path, o->target)) {
        err = errno; /* a symbolic link is followed: the file it names is replaced, the link kept */
    } else {
        if (!exists) {
            memcpy(o->target, path, strlen(path) + 1);
        }
        err = open_temp(o, exists ? &sb : NULL, msg, cap);
    }
    pgn_status st = PGN_OK;
    pgn_format fmt = o->flags & PGN_OUTPUT_PLAIN ? PGN_FORMAT_PLAIN : pgn_format_of_name(path);
    if (err > 0) {
        pgnk_set_msg(msg, cap, "cannot write '%s': %s", path, pgnk_errno_text(err, why));
    } else if (!err && fmt != PGN_FORMAT_PLAIN &&
               (st = pgn_encoder_new(&o->enc, fmt, put, o, msg, cap)) != PGN_OK) {
        o->about = o->path;
    }
    if (err || st != PGN_OK) {
        drop(o);
        return err ? PGN_E_IO : st;
    }
    return PGN_OK;
}

ptrdiff_t pgn_output_write(void *output, const void *data, size_t len) {
    pgn_output *o = output;
    if (o->err || o->fd < 0) {
        o->err = o->err ? o->err : EBADF;
        return -1;
    }
    if (!o->enc) {
        return put(o, data, len);
    }
    if (pgn_encoder_write(o->enc, data, len) < 0) {
        o->err = o->err ? o->err : EIO; /* the compressor's own failure */
        return -1;
    }
    return (ptrdiff_t)len;
}

/* Puts the finished temporary file in place: named next to the target first when it is unnamed
 * (registered through the hooks until renamed). 0 or an errno. */
static int commit_file(pgn_output *o) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
    if (!o->named && pgn_temp_name(o->target, o->tmp, sizeof o->tmp) != PGN_OK) {
        return ENAMETOOLONG;
    }
    for (unsigned attempt = 0; !o->named && attempt < ATTEMPTS; attempt++) {
        number(o->tmp, attempt);
        if (hook_add(&o->hooks, o->tmp) != 0) {
            return ENOMEM;
        }
        if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0) {
            o->named = 1;
            break;
        }
        int err = errno;
        hook_remove(&o->hooks, o->tmp);
        if (err != EEXIST) {
            return err;
        }
    }
    if (!o->named) {
        return EEXIST;
    }
    if (rename(o->tmp, o->target) != 0) {
        return errno;
    }
    hook_remove(&o->hooks, o->tmp);
    o->named = 0;
    return 0;
}

pgn_status pgn_output_close(pgn_output *o, int commit, char *msg, size_t cap) {
    char why[64];
    if (o->fd < 0) {
        return PGN_OK;
    }
    if (o->enc && !o->err && pgn_encoder_finish(o->enc) != PGN_OK && !o->err) {
        o->err = EIO; /* the compressor's own failure */
    }
    int rerr = 0;
    if (flush(o) == 0 && !o->err && commit && o->replace) {
        o->err = fsync(o->fd) != 0 ? errno : 0;
        rerr = o->err ? 0 : commit_file(o);
    }
    if (close(o->fd) != 0 && !o->err && !rerr) {
        o->err = errno;
    }
    o->fd = -1;
    drop(o); /* not committed: the target stays as it was */
    o->about = NULL;
    if (rerr) {
        pgnk_set_msg(msg, cap, "cannot replace '%s': %s", o->path, pgnk_errno_text(rerr, why));
    } else if (o->err) {
        pgnk_set_msg(msg, cap, "error writing %s: %s", o->path, pgnk_errno_text(o->err, why));
    }
    return rerr || o->err ? PGN_E_IO : PGN_OK;
}

const char *pgn_output_about(const pgn_output *o) {
    return o->about;
}

const char *pgn_output_target(const pgn_output *o) {
    return o->replace ? o->target : NULL;
}

void pgn_output_free(pgn_output *o) {
    if (o) {
        drop(o);
        pgnk_free(&o->alloc, o->buf);
        pgnk_free(&o->alloc, o);
    }
}

/* The absolute name path has, or would have once created: its directory resolved, into name
 * (PATH_MAX bytes). 0, or -1 when the directory does not resolve. */
static int future_name(const char *path, char *name) {
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    if (dir_of(path, dir) != 0 || !realpath(dir, real)) {
        return -1;
    }
    int n = snprintf(name, PATH_MAX, "%s/%s", real, base);
    return n > 0 && n < PATH_MAX ? 0 : -1;
}

/* stat of name, standard input for "-": 1 when it exists. */
static int stat_of(const char *name, struct stat *sb) {
    return strcmp(name, "-") == 0 ? fstat(0, sb) == 0 : stat(name, sb) == 0;
}

int pgn_output_same_file(const char *a, const char *b) {
    struct stat sa, sb;
    int ea = stat_of(a, &sa), eb = stat_of(b, &sb);
    if (ea && eb) {
        return S_ISREG(sa.st_mode) && S_ISREG(sb.st_mode) && sa.st_dev == sb.st_dev &&
               sa.st_ino == sb.st_ino;
    }
    if (ea || eb || strcmp(a, "-") == 0 || strcmp(b, "-") == 0) {
        return 0;
    }
    char na[PATH_MAX], nb[PATH_MAX];
    return future_name(a, na) == 0 && future_name(b, nb) == 0 && strcmp(na, nb) == 0;
}
