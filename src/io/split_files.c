/* SPDX-License-Identifier: MIT */
/* The files of a split being written (include/pgnkit/split.h, pgn_split_files_*; issue 29 point
 * 3, from cli/split_files.c): a temporary file each, a set of open ones of at most open_max (the
 * least recently used closed, opened again to append), a 4 KB buffer per open file (as stdio's),
 * put in place one by one by the caller's call. POSIX (open, write, close). */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, O_NOFOLLOW */
#include "split_int.h"

#include "../base/alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

enum { BUF_SIZE = 4096, TMP_EXTRA = 48 };

typedef struct sf_file {
    char *tmp; /* its temporary file until put in place */
    int fd;    /* open on tmp, or -1 (closed, opened again to append) */
    char *buf; /* while open: BUF_SIZE bytes, len of them not yet written */
    size_t len;
    uint64_t stamp; /* last use, to close the least recently used */
} sf_file;

struct pgn_split_files {
    pgn_split *split;
    pgn_temp_hooks hooks;
    int has_hooks;
    size_t open_max, nopen;
    uint64_t clock;
    sf_file *files;
    size_t capfiles;
    const char *why; /* the last failure: "" when none */
    size_t about;    /* its file */
    int err;
};

pgn_status pgn_split_files_new(pgn_split_files **out, pgn_split *s, size_t open_max,
                               const pgn_temp_hooks *hooks) {
    pgn_split_files *f = pgnk_malloc(&s->alloc, sizeof *f);
    if (!f) {
        return PGN_E_NOMEM;
    }
    memset(f, 0, sizeof *f);
    f->split = s;
    f->open_max = open_max ? open_max : 1;
    if (hooks) {
        f->hooks = *hooks;
        f->has_hooks = 1;
    }
    f->why = "";
    *out = f;
    return PGN_OK;
}

static const pgn_temp_hooks *hooks_of(const pgn_split_files *f) {
    return f->has_hooks ? &f->hooks : NULL;
}

/* Notes a failure on file i with errno err; PGN_E_IO. */
static pgn_status fail(pgn_split_files *f, size_t i, const char *why, int err) {
    f->why = why;
    f->about = i;
    f->err = err;
    return PGN_E_IO;
}

/* Writes len bytes to fd: 0, or -1 with errno set. */
static int write_all(int fd, const char *p, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            if (n == 0) {
                errno = EIO;
            }
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Writes out the buffer of open file i: PGN_OK, or PGN_E_IO after fail. */
static pgn_status flush(pgn_split_files *f, size_t i) {
    sf_file *x = &f->files[i];
    int bad = write_all(x->fd, x->buf, x->len);
    x->len = 0;
    return bad ? fail(f, i, "error writing", errno) : PGN_OK;
}

pgn_status pgn_split_files_close(pgn_split_files *f, size_t file) {
    if (file >= f->capfiles || f->files[file].fd < 0) {
        return PGN_OK;
    }
    sf_file *x = &f->files[file];
    pgn_status st = flush(f, file);
    if (close(x->fd) != 0 && st == PGN_OK) {
        st = fail(f, file, "error writing", errno);
    }
    x->fd = -1;
    pgnk_free(&f->split->alloc, x->buf);
    x->buf = NULL;
    f->nopen--;
    return st;
}

/* Closes the open file used least recently: PGN_OK, or PGN_E_IO after fail. */
static pgn_status close_oldest(pgn_split_files *f) {
    size_t old = SIZE_MAX;
    for (size_t i = 0; i < f->capfiles; i++) {
        if (f->files[i].fd >= 0 && (old == SIZE_MAX || f->files[i].stamp < f->files[old].stamp)) {
            old = i;
        }
    }
    return old != SIZE_MAX ? pgn_split_files_close(f, old) : PGN_OK;
}

/* Opens file i for writing: its temporary file made, or opened again to append. PGN_OK, or
 * PGN_E_IO after fail. */
static pgn_status open_file(pgn_split_files *f, size_t i) {
    sf_file *x = &f->files[i];
    const char *path = pgn_split_name(f->split, i);
    if (f->nopen >= f->open_max && close_oldest(f) != PGN_OK) {
        return PGN_E_IO;
    }
    int fd = -1, err = 0;
    size_t cap = strlen(path) + TMP_EXTRA;
    if (x->tmp) {
        fd = open(x->tmp, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
    } else if ((x->tmp = pgnk_malloc(&f->split->alloc, cap)) != NULL) {
        if (pgn_temp_make(path, 0666, hooks_of(f), x->tmp, cap, &fd) != PGN_OK) {
            err = errno;
            pgnk_free(&f->split->alloc, x->tmp);
            x->tmp = NULL;
        }
    } else {
        err = ENOMEM;
    }
    if (fd >= 0 && !(x->buf = pgnk_malloc(&f->split->alloc, BUF_SIZE))) {
        err = ENOMEM;
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        return fail(f, i, "cannot write", err ? err : errno);
    }
    x->fd = fd;
    x->len = 0;
    f->nopen++;
    return PGN_OK;
}

/* Appends len bytes to open file i as stdio does (so that a full disk stops a run at the same
 * game): the buffer filled, written once full when more bytes come, whole buffers' worth written
 * directly, the rest buffered. PGN_OK, or PGN_E_IO after fail. */
static pgn_status put(pgn_split_files *f, size_t i, const char *p, size_t len) {
    sf_file *x = &f->files[i];
    size_t n = len < BUF_SIZE - x->len ? len : BUF_SIZE - x->len;
    memcpy(x->buf + x->len, p, n);
    x->len += n;
    if ((len -= n) == 0) {
        return PGN_OK;
    }
    if (flush(f, i) != PGN_OK) {
        return PGN_E_IO;
    }
    size_t direct = len - len % BUF_SIZE;
    if (write_all(x->fd, p + n, direct) != 0) {
        return fail(f, i, "error writing", errno);
    }
    memcpy(x->buf, p + n + direct, len - direct);
    x->len = len - direct;
    return PGN_OK;
}

pgn_status pgn_split_files_add(pgn_split_files *f, const char *raw, size_t len) {
    size_t i, full;
    f->why = "";
    pgn_status st = pgn_split_place(f->split, &i, &full);
    if (st != PGN_OK) {
        return st;
    }
    if (full != SIZE_MAX && pgn_split_files_close(f, full) != PGN_OK) {
        return PGN_E_IO; /* full: never written again */
    }
    if (i >= f->capfiles) {
        size_t cap = f->capfiles;
        if (!pgnk_grow(&f->split->alloc, (void **)&f->files, &cap, i + 1, sizeof *f->files, 64)) {
            return PGN_E_NOMEM;
        }
        for (size_t k = f->capfiles; k < cap; k++) {
            sf_file z = {NULL, -1, NULL, 0, 0};
            f->files[k] = z;
        }
        f->capfiles = cap;
    }
    sf_file *cur = &f->files[i];
    if (cur->fd < 0 && open_file(f, i) != PGN_OK) {
        return PGN_E_IO;
    }
    cur->stamp = ++f->clock;
    if (len == 0) {
        return PGN_OK;
    }
    if (put(f, i, raw, len) != PGN_OK || (raw[len - 1] != '\n' && put(f, i, "\n", 1) != PGN_OK)) {
        return PGN_E_IO;
    }
    return PGN_OK;
}

pgn_status pgn_split_files_place(pgn_split_files *f, size_t file, int replace) {
    sf_file *x = file < f->capfiles ? &f->files[file] : NULL;
    if (!x || !x->tmp) {
        errno = ENOENT;
        return PGN_E_IO;
    }
    pgn_status st = pgn_temp_place(x->tmp, pgn_split_name(f->split, file), replace, hooks_of(f));
    if (st == PGN_OK) {
        pgnk_free(&f->split->alloc, x->tmp);
        x->tmp = NULL;
    }
    return st;
}

const char *pgn_split_files_error(const pgn_split_files *f, const char **name, int *err) {
    if (name) {
        *name = f->why[0] ? pgn_split_name(f->split, f->about) : NULL;
    }
    if (err) {
        *err = f->why[0] ? f->err : 0;
    }
    return f->why;
}

void pgn_split_files_free(pgn_split_files *f) {
    if (!f) {
        return;
    }
    for (size_t i = 0; i < f->capfiles; i++) {
        sf_file *x = &f->files[i];
        if (x->fd >= 0) {
            close(x->fd);
        }
        pgnk_free(&f->split->alloc, x->buf);
        if (x->tmp) {
            pgn_temp_remove(x->tmp, hooks_of(f));
            pgnk_free(&f->split->alloc, x->tmp);
        }
    }
    pgnk_free(&f->split->alloc, f->files);
    pgn_allocator alloc = f->split->alloc;
    pgnk_free(&alloc, f);
}
