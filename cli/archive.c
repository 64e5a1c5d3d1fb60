/* SPDX-License-Identifier: MIT */
/* Archives as inputs (archive.h): libarchive reads the container (zip, 7z, RAR, tar) from the
 * bytes of a cli_zin, which has already told it from its first bytes and decoded any gzip, zstd,
 * bzip2 or xz layer around it (a .tar.gz). A regular file can seek (a zip is read by its central
 * directory, a 7z by its header at the end); from a pipe or inside a compressed layer a zip is
 * read by its local headers, in order, and a 7z cannot be read.
 *
 * libarchive is opened at the first archive (dlopen of the library the build found), not linked:
 * it pulls in libxml2, ICU (a 30 MB data library) and libstdc++, which every pgnkit command would
 * map at start-up (a run under a 40 MB memory limit failed to load them), as serve_http.h says of
 * libmicrohttpd. The calls below go through the table la, filled once on the main thread. */
#define _POSIX_C_SOURCE 200809L
#include "archive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef PGNKIT_HAVE_ARCHIVE
#include "dynlib.h"

#include <archive.h>
#include <archive_entry.h>
#include <dlfcn.h>

#ifndef PGNKIT_ARCHIVE_SONAME
#define PGNKIT_ARCHIVE_SONAME "libarchive.so.13"
#endif

static struct {
    int state; /* 0 not tried, 1 open, -1 failed (why says why) */
    char why[300];
    __typeof__(archive_read_new) *read_new;
    __typeof__(archive_read_support_format_zip) *zip;
    __typeof__(archive_read_support_format_7zip) *sevenzip;
    __typeof__(archive_read_support_format_rar) *rar;
    __typeof__(archive_read_support_format_rar5) *rar5;
    __typeof__(archive_read_support_format_tar) *tar;
    __typeof__(archive_read_set_seek_callback) *set_seek;
    __typeof__(archive_read_open) *open;
    __typeof__(archive_read_next_header) *next_header;
    __typeof__(archive_entry_pathname_utf8) *pathname_utf8;
    __typeof__(archive_entry_pathname) *pathname;
    __typeof__(archive_entry_filetype) *filetype;
    __typeof__(archive_read_data) *read_data;
    __typeof__(archive_error_string) *error_string;
    __typeof__(archive_set_error) *set_error;
    __typeof__(archive_read_free) *read_free;
} la;

#define TAKE(member, name)                                                                         \
    cli_dl_take(lib, PGNKIT_ARCHIVE_SONAME, name, &la.member, sizeof la.member, la.why,            \
                sizeof la.why)

/* Opens libarchive once: 0, or -1 with la.why. */
static int load(void) {
    if (la.state != 0) {
        return la.state > 0 ? 0 : -1;
    }
    la.state = -1;
    void *lib = cli_dl_open(PGNKIT_ARCHIVE_SONAME, "reading it", "libarchive", "libarchive13",
                            la.why, sizeof la.why);
    if (!lib) {
        return -1;
    }
    if (TAKE(read_new, "archive_read_new") || TAKE(zip, "archive_read_support_format_zip") ||
        TAKE(sevenzip, "archive_read_support_format_7zip") ||
        TAKE(rar, "archive_read_support_format_rar") ||
        TAKE(rar5, "archive_read_support_format_rar5") ||
        TAKE(tar, "archive_read_support_format_tar") ||
        TAKE(set_seek, "archive_read_set_seek_callback") || TAKE(open, "archive_read_open") ||
        TAKE(next_header, "archive_read_next_header") ||
        TAKE(pathname_utf8, "archive_entry_pathname_utf8") ||
        TAKE(pathname, "archive_entry_pathname") || TAKE(filetype, "archive_entry_filetype") ||
        TAKE(read_data, "archive_read_data") || TAKE(error_string, "archive_error_string") ||
        TAKE(set_error, "archive_set_error") || TAKE(read_free, "archive_read_free")) {
        dlclose(lib);
        return -1;
    }
    la.state = 1; /* the library stays open for the life of the process */
    return 0;
}

enum { ARC_BUF = 1 << 16 };

struct cli_arc {
    struct archive *a;
    cli_zin *z;
    const char *const *exts;
    const char *member;
    int seekable; /* a plain regular file: libarchive may seek */
    unsigned char buf[ARC_BUF];
    char err[300];
};

static la_ssize_t read_cb(struct archive *a, void *user, const void **out) {
    cli_arc *arc = user;
    ptrdiff_t n = cli_zin_read(arc->z, arc->buf, sizeof arc->buf);
    *out = arc->buf;
    if (n < 0) {
        la.set_error(a, -1, "%s", cli_zin_error(arc->z) ? cli_zin_error(arc->z) : "read error");
        return -1;
    }
    return (la_ssize_t)n;
}

static la_int64_t seek_cb(struct archive *a, void *user, la_int64_t off, int whence) {
    cli_arc *arc = user;
    int64_t at = cli_zin_seek(arc->z, off, whence);
    if (at < 0) {
        la.set_error(a, -1, "cannot seek in this input");
        return ARCHIVE_FATAL;
    }
    return at;
}

/* The archive's message, kept past the next libarchive call. */
static void keep_error(cli_arc *arc) {
    const char *why = la.error_string(arc->a);
    snprintf(arc->err, sizeof arc->err, "%s%s", why ? why : "unreadable archive",
             arc->seekable || why == NULL || strstr(why, "seek") == NULL
                 ? ""
                 : " (from a pipe or inside gzip, zstd, bzip2 or xz, only zip and tar archives "
                   "are read: give the archive itself)");
}

pgn_status cli_arc_open(cli_arc **out, cli_zin *z, const char *const *exts, char *msg, size_t cap) {
    *out = NULL;
    if (load() < 0) {
        snprintf(msg, cap, "%s", la.why);
        return PGN_E_IO;
    }
    cli_arc *arc = calloc(1, sizeof *arc);
    if (arc == NULL || (arc->a = la.read_new()) == NULL) {
        free(arc);
        snprintf(msg, cap, "out of memory");
        return PGN_E_NOMEM;
    }
    arc->z = z;
    arc->exts = exts;
    arc->member = "";
    la.zip(arc->a);
    la.sevenzip(arc->a);
    la.rar(arc->a);
    la.rar5(arc->a);
    la.tar(arc->a);
    arc->seekable = cli_zin_seek(z, 0, SEEK_CUR) >= 0;
    if (arc->seekable) {
        la.set_seek(arc->a, seek_cb);
    }
    if (la.open(arc->a, arc, NULL, read_cb, NULL) != ARCHIVE_OK) {
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
        int r = la.next_header(arc->a, &e);
        if (r == ARCHIVE_EOF) {
            arc->member = "";
            return CLI_ARC_END;
        }
        if (r < ARCHIVE_WARN) {
            keep_error(arc);
            return CLI_ARC_ERROR;
        }
        const char *name = la.pathname_utf8(e);
        arc->member = name ? name : la.pathname(e) ? la.pathname(e) : "?";
        if (la.filetype(e) != AE_IFREG) {
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
    la_ssize_t n = la.read_data(arc->a, buf, cap);
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
        la.read_free(arc->a);
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
