/* SPDX-License-Identifier: MIT */
/* Archives as inputs (archive.h): libarchive reads the container (zip, 7z, RAR, tar) from the
 * bytes of a cli_zin, which has already told it from its first bytes and decoded any gzip, zstd,
 * bzip2 or xz layer around it (a .tar.gz). A regular file can seek (a zip is read by its central
 * directory, a 7z by its header at the end); from a pipe or inside a compressed layer a zip is
 * read by its local headers, in order, and a 7z cannot be read. */
#define _POSIX_C_SOURCE 200809L
#include "archive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef PGNKIT_HAVE_ARCHIVE
#include <archive.h>
#include <archive_entry.h>

enum { ARC_BUF = 1 << 16 };

struct cli_arc {
    struct archive *a;
    cli_zin *z;
    const char *const *exts;
    const char *member;
    int seekable; /* a plain regular file: libarchive may seek */
    int failed;   /* the archive's bytes could not be read (z says why) */
    unsigned char buf[ARC_BUF];
    char err[300];
};

static la_ssize_t read_cb(struct archive *a, void *user, const void **out) {
    cli_arc *arc = user;
    ptrdiff_t n = cli_zin_read(arc->z, arc->buf, sizeof arc->buf);
    *out = arc->buf;
    if (n < 0) {
        arc->failed = 1;
        archive_set_error(a, -1, "%s",
                          cli_zin_error(arc->z) ? cli_zin_error(arc->z) : "read error");
        return -1;
    }
    return (la_ssize_t)n;
}

static la_int64_t seek_cb(struct archive *a, void *user, la_int64_t off, int whence) {
    cli_arc *arc = user;
    int64_t at = cli_zin_seek(arc->z, off, whence);
    if (at < 0) {
        archive_set_error(a, -1, "cannot seek in this input");
        return ARCHIVE_FATAL;
    }
    return at;
}

/* The archive's message, kept past the next libarchive call. */
static void keep_error(cli_arc *arc) {
    const char *why = archive_error_string(arc->a);
    snprintf(arc->err, sizeof arc->err, "%s%s", why ? why : "unreadable archive",
             arc->seekable || why == NULL || strstr(why, "seek") == NULL
                 ? ""
                 : " (from a pipe or inside gzip, zstd, bzip2 or xz, only zip and tar archives "
                   "are read: give the archive itself)");
}

pgn_status cli_arc_open(cli_arc **out, cli_zin *z, const char *const *exts, char *msg, size_t cap) {
    cli_arc *arc = calloc(1, sizeof *arc);
    *out = NULL;
    if (arc == NULL || (arc->a = archive_read_new()) == NULL) {
        free(arc);
        snprintf(msg, cap, "out of memory");
        return PGN_E_NOMEM;
    }
    arc->z = z;
    arc->exts = exts;
    arc->member = "";
    archive_read_support_format_zip(arc->a);
    archive_read_support_format_7zip(arc->a);
    archive_read_support_format_rar(arc->a);
    archive_read_support_format_rar5(arc->a);
    archive_read_support_format_tar(arc->a);
    arc->seekable = cli_zin_seek(z, 0, SEEK_CUR) >= 0;
    if (arc->seekable) {
        archive_read_set_seek_callback(arc->a, seek_cb);
    }
    if (archive_read_open(arc->a, arc, NULL, read_cb, NULL) != ARCHIVE_OK) {
        keep_error(arc);
        snprintf(msg, cap, "%s", arc->err);
        cli_arc_free(arc);
        return PGN_E_IO;
    }
    *out = arc;
    return PGN_OK;
}

/* Whether name ends in one of the extensions asked for. */
static int wanted(const cli_arc *arc, const char *name) {
    size_t n = strlen(name);
    for (const char *const *e = arc->exts; *e != NULL; e++) {
        size_t k = strlen(*e);
        if (n > k && strcasecmp(name + n - k, *e) == 0) {
            return 1;
        }
    }
    return 0;
}

int cli_arc_next(cli_arc *arc) {
    for (;;) {
        struct archive_entry *e;
        int r = archive_read_next_header(arc->a, &e);
        if (r == ARCHIVE_EOF) {
            arc->member = "";
            return CLI_ARC_END;
        }
        if (r < ARCHIVE_WARN) {
            keep_error(arc);
            return CLI_ARC_ERROR;
        }
        const char *name = archive_entry_pathname_utf8(e);
        arc->member = name ? name : archive_entry_pathname(e) ? archive_entry_pathname(e) : "?";
        if (archive_entry_filetype(e) != AE_IFREG) {
            continue; /* directories, links: nothing to read, nothing to say */
        }
        return wanted(arc, arc->member) ? CLI_ARC_READ : CLI_ARC_SKIPPED;
    }
}

const char *cli_arc_member(const cli_arc *arc) {
    return arc->member;
}

ptrdiff_t cli_arc_read(void *ctx, void *buf, size_t cap) {
    cli_arc *arc = ctx;
    la_ssize_t n = archive_read_data(arc->a, buf, cap);
    if (n < 0) {
        keep_error(arc);
        return -1;
    }
    return (ptrdiff_t)n;
}

const char *cli_arc_error(const cli_arc *arc) {
    return arc->err[0] ? arc->err : NULL;
}

void cli_arc_free(cli_arc *arc) {
    if (arc != NULL) {
        archive_read_free(arc->a);
        free(arc);
    }
}

#else /* no libarchive in this build: compress.c refuses archives before they get here */

struct cli_arc {
    int none;
};

pgn_status cli_arc_open(cli_arc **out, cli_zin *z, const char *const *exts, char *msg, size_t cap) {
    (void)z;
    (void)exts;
    *out = NULL;
    snprintf(msg, cap, "this pgnkit was built without libarchive (libarchive-dev)");
    return PGN_E_IO;
}

int cli_arc_next(cli_arc *arc) {
    (void)arc;
    return CLI_ARC_END;
}

const char *cli_arc_member(const cli_arc *arc) {
    (void)arc;
    return "";
}

ptrdiff_t cli_arc_read(void *ctx, void *buf, size_t cap) {
    (void)ctx;
    (void)buf;
    (void)cap;
    return -1;
}

const char *cli_arc_error(const cli_arc *arc) {
    (void)arc;
    return NULL;
}

void cli_arc_free(cli_arc *arc) {
    (void)arc;
}

#endif
