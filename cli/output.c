/* SPDX-License-Identifier: MIT */
/* Outputs of the program: written to a temporary file in the target's directory (flushed,
 * fsync'd, mode kept) and renamed over the target only when complete, compressed by the name's
 * extension (cli/zout.c, the library's pgn_encoder); the same-file test that keeps outputs from
 * destroying inputs; the growable memory output. The inputs are in input.c. */
#define _GNU_SOURCE /* O_TMPFILE, linkat (Linux); without it, a named temporary file */
#include "cli.h"
#include "compress.h"
#include "tempfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h> /* __fbufsize (glibc, musl) */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OUT_BUFFER = 1 << 20 };

/* Gives f a buffer of OUT_BUFFER bytes, malloc'd (kept in *keep, freed once f is closed):
 * setvbuf(f, NULL, _IOFBF, size) is not enough, glibc then ignores the size and uses the
 * file's block size, 4 KiB for a regular file or /dev/null (fmt wrote 22,156 4 KiB writes for
 * the 90 MB of the gnuchess book, each a system call). Standard output keeps its buffer to the
 * end of the process (reachable from stdout), and gets it once. A terminal keeps its line
 * buffering, so that a person sees each game as it is written. Out of memory: the default. */
static void big_buffer(FILE *f, char **keep) {
    if (isatty(fileno(f)) || __fbufsize(f) >= OUT_BUFFER) {
        return;
    }
    char *b = malloc(OUT_BUFFER);
    if (b && setvbuf(f, b, _IOFBF, OUT_BUFFER) == 0) {
        *keep = f == stdout ? NULL : b;
        return;
    }
    free(b);
    setvbuf(f, NULL, _IOFBF, 0);
}

/* The directory part of path ("." if none), malloc'd; NULL when out of memory. */
static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 1;
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, slash ? path : ".", n);
        d[n] = 0;
        if (slash && n == 0) { /* "/x": the root */
            d[0] = '/';
            d[1] = 0;
        }
    }
    return d;
}

/* The last component of path. */
static const char *base_of(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Opens an unnamed file in path's directory (O_TMPFILE), or -1 where the system has none.
 * PGNKIT_NAMED_TEMP=1 takes the named fallback as macOS, vfat or NFS would (for the tests). */
static int open_unnamed(const char *path, mode_t mode) {
#ifdef O_TMPFILE
    char *dir = dir_of(path);
    int fd = -1;
    const char *named = getenv("PGNKIT_NAMED_TEMP");
    if (dir && access("/proc/self/fd", X_OK) == 0 && !(named && strcmp(named, "1") == 0)) {
        fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
    }
    free(dir);
    return fd;
#else
    (void)path;
    (void)mode;
    return -1;
#endif
}

/* Removes the temporary file while it has a name (not committed). */
static void drop_temp(cli_output *o) {
    if (o->tmp) {
        unlink(o->tmp);
        cli_temp_forget(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
}

static int open_fail(cli_output *o, const char *path, int err) {
    cli_error(NULL, "cannot write '%s': %s", path, strerror(err));
    free(o->tmp);
    free(o->target);
    o->tmp = o->target = NULL;
    return EXIT_RESOURCE;
}

/* -o x.gz (.zst, .bz2, .xz): a compressing stream over the file just opened (cli/zout.c). */
static int compressed(cli_output *o) {
    char msg[200];
    o->under = o->file;
    o->file = cli_zout_open(o->under, pgn_format_of_name(o->path), msg, sizeof msg);
    if (o->file == NULL) {
        cli_error(o->path, "%s", msg);
        o->file = o->under;
        cli_output_close(o, 0, EXIT_RESOURCE); /* nothing written: no file left */
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}

int cli_output_open(cli_output *o, const char *path) {
    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (!path || strcmp(path, "-") == 0) {
        o->file = stdout;
        big_buffer(stdout, &o->vbuf);
        return EXIT_OK;
    }
    o->path = path;
    struct stat sb;
    int exists = stat(path, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) {
        return open_fail(o, path, EISDIR);
    }
    if (exists && !S_ISREG(sb.st_mode)) { /* a device or a FIFO: written as it comes */
        o->file = fopen(path, "wb");
        if (!o->file) {
            return open_fail(o, path, errno);
        }
        big_buffer(o->file, &o->vbuf);
        return compressed(o);
    }
    mode_t mask = umask(0);
    umask(mask);
    mode_t mode = exists ? (sb.st_mode & 07777) : (0666 & ~mask);
    /* a symbolic link is followed: the file it names is replaced, the link kept */
    o->target = exists ? realpath(path, NULL) : strdup(path);
    if (!o->target) {
        return open_fail(o, path, errno);
    }
    cli_temp_sweep(o->target); /* what an interrupted run left there */
    o->fd = open_unnamed(o->target, mode);
    if (o->fd < 0 && (o->fd = cli_temp_create(o->target, mode, &o->tmp)) < 0) {
        return open_fail(o, path, errno);
    }
    /* a file replaced keeps its owner, group, mode and extended attributes, or stays (issue 36) */
    int meta = exists ? cli_keep_metadata(o->fd, o->target, &sb) : fchmod(o->fd, mode);
    int err = errno;
    if (meta != 0 || !(o->file = fdopen(o->fd, "wb"))) {
        err = meta != 0 ? err : errno;
        close(o->fd);
        drop_temp(o);
        if (exists && meta != 0) { /* cli_keep_metadata said why */
            free(o->target);
            o->target = NULL;
            return EXIT_RESOURCE;
        }
        return open_fail(o, path, err);
    }
    big_buffer(o->file, &o->vbuf);
    return compressed(o);
}

/* Gives the unnamed file o->fd a name next to the target (o->tmp, registered for removal on a
 * signal until renamed). 0 or an errno. */
static int name_unnamed(cli_output *o) {
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        free(o->tmp);
        if ((o->tmp = cli_temp_name(o->target)) == NULL || cli_temp_register(o->tmp) != 0) {
            free(o->tmp);
            o->tmp = NULL;
            return ENOMEM;
        }
        unsigned v = attempt;
        for (char *x = o->tmp + strlen(o->tmp); x[-1] == 'X'; v /= 10) {
            *--x = (char)('0' + v % 10);
        }
        if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0) {
            return 0;
        }
        int err = errno;
        cli_temp_forget(o->tmp);
        if (err != EEXIST) {
            free(o->tmp);
            o->tmp = NULL;
            return err;
        }
    }
    return EEXIST;
}

/* Puts the finished file in place. 0 or an errno. */
static int commit_file(cli_output *o) {
    int err = 0;
    if (!o->tmp && (err = name_unnamed(o)) != 0) {
        return err;
    }
    if (rename(o->tmp, o->target) != 0) {
        return errno;
    }
    cli_temp_forget(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return 0;
}

int cli_output_close(cli_output *o, int commit, int status) {
    if (!o->file) {
        return status;
    }
    if (o->under && o->file != o->under) { /* end the compressed stream first */
        o->failed |= cli_zout_close(o->file, o->under) != 0;
        o->file = o->under;
    }
    int err = 0;
    if (fflush(o->file) != 0 || ferror(o->file) || o->failed) {
        err = errno ? errno : EIO;
    }
    if (!err && commit && o->fd >= 0 && fsync(o->fd) != 0) {
        err = errno;
    }
    if (!err && commit && o->target && (err = commit_file(o)) != 0) {
        cli_error(NULL, "cannot replace '%s': %s", o->path, strerror(err));
        status = EXIT_RESOURCE;
        err = 0;
    }
    if (o->file != stdout && fclose(o->file) != 0 && !err) {
        err = errno;
    }
    drop_temp(o); /* not committed: the target stays as it was */
    if (err) {
        cli_error(NULL, "error writing %s: %s", o->path ? o->path : "standard output",
                  strerror(err));
        status = EXIT_RESOURCE;
    }
    free(o->target);
    free(o->vbuf); /* f's, now closed (never stdout's) */
    memset(o, 0, sizeof *o);
    o->fd = -1;
    return status;
}

ptrdiff_t cli_output_write(void *ctx, const void *data, size_t len) {
    cli_output *o = ctx;
    if (fwrite(data, 1, len, o->file) != len) {
        o->failed = 1;
        return -1;
    }
    return (ptrdiff_t)len;
}

/* Nonzero when a and b are the same regular file (stat follows symbolic links). */
static int same_regular(const struct stat *a, const struct stat *b) {
    return S_ISREG(a->st_mode) && S_ISREG(b->st_mode) && a->st_dev == b->st_dev &&
           a->st_ino == b->st_ino;
}

/* The absolute name path would have once created: its directory resolved (malloc'd). */
static char *future_name(const char *path) {
    char *dir = dir_of(path), *real = dir ? realpath(dir, NULL) : NULL, *name = NULL;
    if (real) {
        size_t n = strlen(real) + strlen(base_of(path)) + 2;
        if ((name = malloc(n)) != NULL) {
            snprintf(name, n, "%s/%s", real, base_of(path));
        }
    }
    free(dir);
    free(real);
    return name;
}

int cli_same_file(const char *a, const char *b) {
    struct stat sa, sb;
    int ea = strcmp(a, "-") == 0 ? fstat(0, &sa) == 0 : stat(a, &sa) == 0;
    int eb = strcmp(b, "-") == 0 ? fstat(0, &sb) == 0 : stat(b, &sb) == 0;
    if (ea && eb) {
        return same_regular(&sa, &sb);
    }
    if (ea || eb || strcmp(a, "-") == 0 || strcmp(b, "-") == 0) {
        return 0;
    }
    char *na = future_name(a), *nb = future_name(b);
    int same = na && nb && strcmp(na, nb) == 0;
    free(na);
    free(nb);
    return same;
}

ptrdiff_t cli_membuf_write(void *ctx, const void *data, size_t len) {
    cli_membuf *b = ctx; /* the library's pgn_membuf with libc (the callers free b->p) */
    if (len <= b->cap - b->len && len > 0) { /* it fits: no call */
        memcpy(b->p + b->len, data, len);
        b->len += len;
        return (ptrdiff_t)len;
    }
    pgn_membuf m = {b->p, b->len, b->cap, NULL};
    ptrdiff_t n = pgn_membuf_write(&m, data, len);
    b->p = m.ptr;
    b->len = m.len;
    b->cap = m.cap;
    return n;
}

pgn_status cli_write_raw(FILE *f, const char *raw, size_t len) {
    if (!f || len == 0) {
        return PGN_OK;
    }
    int ok = fwrite(raw, 1, len, f) == len && (raw[len - 1] == '\n' || fputc('\n', f) != EOF);
    return ok ? PGN_OK : PGN_E_IO;
}
