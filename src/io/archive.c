/* SPDX-License-Identifier: MIT */
/* Archives as sources (source.h): libarchive reads the container (zip, 7z, RAR, tar) from the
 * decoded bytes of a pgn_source, which has already told it from its first bytes and decoded any
 * gzip, zstd, bzip2 or xz layer around it (a .tar.gz). A source that can seek lets libarchive seek
 * (a zip is read by its central directory, a 7z by its header at the end); from a pipe or inside a
 * compressed layer a zip is read by its local headers, in order, and a 7z cannot be read. Each
 * member whose name ends in one of the source's endings (.pgn) is a text of its own, named
 * "SOURCE(MEMBER)".
 *
 * libarchive is opened at the first archive (dlopen of the library the build found, kept loaded:
 * RTLD_NODELETE), not linked: it pulls in libxml2, ICU (a 30 MB data library) and libstdc++, which
 * every program linking libpgnkit would map at start-up (a pgnkit run under a 40 MB memory limit
 * failed to load them). Each archive holds its own table of the calls (no global state). */
#define _GNU_SOURCE /* RTLD_NODELETE */
#include "source_int.h"

#include "../base/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef PGNKIT_HAVE_ARCHIVE
#include <archive.h>
#include <archive_entry.h>
#include <dlfcn.h>

#ifndef PGNKIT_ARCHIVE_SONAME
#define PGNKIT_ARCHIVE_SONAME "libarchive.so.13"
#endif

/* The calls of libarchive used, filled by load. */
typedef struct la_api {
    void *lib;
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
} la_api;

enum { ARC_BUF = 1 << 16 };

struct pgnk_arc {
    la_api la;
    struct archive *a;
    pgn_source *s;
    const char *member;
    int seekable; /* the source can seek: libarchive may */
    unsigned char buf[ARC_BUF];
    char err[PGNK_ERR];
};

/* dlsym(lib, name) into the function pointer at fn (size bytes): POSIX makes the conversion
 * valid, ISO C does not name it, so it goes through memcpy. 0, or -1 with msg. */
static int take(void *lib, const char *name, void *fn, size_t size, char *msg, size_t cap) {
    void *p = dlsym(lib, name);
    if (!p || size != sizeof p) {
        pgnk_set_msg(msg, cap, "%s has no %s", PGNKIT_ARCHIVE_SONAME, name);
        return -1;
    }
    memcpy(fn, &p, size);
    return 0;
}

#define TAKE(member, name) take(la->lib, name, &la->member, sizeof la->member, msg, cap)

/* Opens libarchive (loaded once for the process, then counted by dlopen): 0, or -1 with msg. */
static int load(la_api *la, char *msg, size_t cap) {
    la->lib = dlopen(PGNKIT_ARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!la->lib) {
        const char *why = dlerror();
        pgnk_set_msg(msg, cap,
                     "reading it needs libarchive (%s), which cannot be opened: %s (Debian: "
                     "apt-get install libarchive13)",
                     PGNKIT_ARCHIVE_SONAME, why ? why : "not found");
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
        dlclose(la->lib);
        la->lib = NULL;
        return -1;
    }
    return 0;
}

static la_ssize_t read_cb(struct archive *a, void *user, const void **out) {
    pgnk_arc *arc = user;
    ptrdiff_t n = pgnk_zread(arc->s, arc->buf, sizeof arc->buf);
    *out = arc->buf;
    if (n < 0) {
        arc->la.set_error(a, -1, "%s", arc->s->err[0] ? arc->s->err : "read error");
        return -1;
    }
    return (la_ssize_t)n;
}

static la_int64_t seek_cb(struct archive *a, void *user, la_int64_t off, int whence) {
    pgnk_arc *arc = user;
    int64_t at = pgnk_zseek(arc->s, off, whence);
    if (at < 0) {
        arc->la.set_error(a, -1, "cannot seek in this input");
        return ARCHIVE_FATAL;
    }
    return at;
}

/* The archive's message, kept past the next libarchive call. */
static void keep_error(pgnk_arc *arc) {
    const char *why = arc->la.error_string(arc->a);
    snprintf(arc->err, sizeof arc->err, "%s%s", why ? why : "unreadable archive",
             arc->seekable || why == NULL || strstr(why, "seek") == NULL
                 ? ""
                 : " (from a pipe or inside gzip, zstd, bzip2 or xz, only zip and tar archives "
                   "are read: give the archive itself)");
}

pgn_status pgnk_arc_open(pgnk_arc **out, pgn_source *s, char *msg, size_t cap) {
    char why[PGNK_ERR];
    *out = NULL;
    pgnk_arc *arc = pgnk_malloc(&s->alloc, sizeof *arc);
    if (arc == NULL) {
        pgnk_set_msg(msg, cap, "out of memory");
        return PGN_E_NOMEM;
    }
    memset(arc, 0, sizeof *arc);
    if (load(&arc->la, why, sizeof why) < 0) {
        pgnk_set_msg(msg, cap, "%s: %s", s->archive, why);
        pgnk_free(&s->alloc, arc);
        return PGN_E_IO;
    }
    la_api *la = &arc->la;
    if ((arc->a = la->read_new()) == NULL) {
        pgnk_arc_free(arc);
        pgnk_set_msg(msg, cap, "out of memory");
        return PGN_E_NOMEM;
    }
    arc->s = s;
    arc->member = "";
    la->zip(arc->a);
    la->sevenzip(arc->a);
    la->rar(arc->a);
    la->rar5(arc->a);
    la->tar(arc->a);
    arc->seekable = pgnk_zseek(s, 0, SEEK_CUR) >= 0;
    if (arc->seekable) {
        la->set_seek(arc->a, seek_cb);
    }
    if (la->open(arc->a, arc, NULL, read_cb, NULL) != ARCHIVE_OK) {
        keep_error(arc);
        pgnk_set_msg(msg, cap, "%s: %s", s->archive, arc->err);
        pgnk_arc_free(arc);
        return PGN_E_IO;
    }
    *out = arc;
    return PGN_OK;
}

/* Whether name ends in one of the extensions asked for. */
static int wanted(const pgnk_arc *arc, const char *name) {
    size_t n = strlen(name);
    for (const char *const *e = arc->s->exts; *e != NULL; e++) {
        size_t k = strlen(*e);
        if (n > k && strcasecmp(name + n - k, *e) == 0) {
            return 1;
        }
    }
    return 0;
}

int pgnk_arc_next(pgnk_arc *arc) {
    for (;;) {
        struct archive_entry *e;
        int r = arc->la.next_header(arc->a, &e);
        if (r == ARCHIVE_EOF) {
            arc->member = "";
            return PGNK_ARC_END;
        }
        if (r < ARCHIVE_WARN) {
            keep_error(arc);
            return PGNK_ARC_ERROR;
        }
        const char *name = arc->la.pathname_utf8(e);
        arc->member = name ? name : arc->la.pathname(e) ? arc->la.pathname(e) : "?";
        if (arc->la.filetype(e) != AE_IFREG) {
            continue; /* directories, links: nothing to read, nothing to say */
        }
        return wanted(arc, arc->member) ? PGNK_ARC_READ : PGNK_ARC_SKIPPED;
    }
}

const char *pgnk_arc_member(const pgnk_arc *arc) {
    return arc->member;
}

ptrdiff_t pgnk_arc_read(pgnk_arc *arc, void *buf, size_t cap) {
    la_ssize_t n = arc->la.read_data(arc->a, buf, cap);
    if (n < 0) {
        keep_error(arc);
        return -1;
    }
    return (ptrdiff_t)n;
}

const char *pgnk_arc_error(const pgnk_arc *arc) {
    return arc->err[0] ? arc->err : NULL;
}

void pgnk_arc_free(pgnk_arc *arc) {
    if (arc != NULL) {
        if (arc->a != NULL) {
            arc->la.read_free(arc->a);
        }
        if (arc->la.lib != NULL) {
            dlclose(arc->la.lib);
        }
        pgnk_free(&arc->s->alloc, arc);
    }
}

#else /* no libarchive in this build: magic.c refuses archives before they get here */

struct pgnk_arc {
    int none;
};

pgn_status pgnk_arc_open(pgnk_arc **out, pgn_source *s, char *msg, size_t cap) {
    (void)s;
    *out = NULL;
    pgnk_set_msg(msg, cap, "this pgnkit was built without libarchive (libarchive-dev)");
    return PGN_E_IO;
}

int pgnk_arc_next(pgnk_arc *arc) {
    (void)arc;
    return PGNK_ARC_END;
}

const char *pgnk_arc_member(const pgnk_arc *arc) {
    (void)arc;
    return "";
}

ptrdiff_t pgnk_arc_read(pgnk_arc *arc, void *buf, size_t cap) {
    (void)arc;
    (void)buf;
    (void)cap;
    return -1;
}

const char *pgnk_arc_error(const pgnk_arc *arc) {
    (void)arc;
    return NULL;
}

void pgnk_arc_free(pgnk_arc *arc) {
    (void)arc;
}

#endif

/* ---- the members, one after another (source.h) ---- */

/* Names a skipped member in names (up to three), for the message when none is read. */
static void note_skipped(pgn_source *s, char *names, size_t cap, const char *m) {
    size_t used = strlen(names);
    if (s->skipped++ < 3) {
        snprintf(names + used, cap - used, "%s%s", used ? ", " : "", m);
    }
}

/* At member m: the source reads it, named "NAME(m)". */
static pgn_status at_member(pgn_source *s, const char *m) {
    size_t n = strlen(s->name) + strlen(m) + 3;
    char *name = pgnk_malloc(&s->alloc, n);
    if (name == NULL) {
        pgnk_source_fail(s, "out of memory");
        return PGN_E_NOMEM;
    }
    snprintf(name, n, "%s(%s)", s->name, m);
    pgnk_free(&s->alloc, s->member);
    s->member = name;
    s->members++;
    return PGN_OK;
}

pgn_status pgn_source_next(pgn_source *s) {
    char skipped[200] = "";
    for (int k; s->arc != NULL && (k = pgnk_arc_next(s->arc)) != PGNK_ARC_END;) {
        const char *m = pgnk_arc_member(s->arc);
        if (k == PGNK_ARC_ERROR) {
            pgnk_source_fail(s, "%s", pgnk_arc_error(s->arc));
            return PGN_E_IO;
        }
        if (k == PGNK_ARC_SKIPPED) { /* named below if no member is read at all */
            note_skipped(s, skipped, sizeof skipped, m);
            continue;
        }
        return at_member(s, m);
    }
    if (s->arc != NULL && s->members == 0) {
        pgnk_source_fail(s, "no member named *%s in %s%s%s%s", s->exts[0], s->archive,
                         s->skipped ? " (it holds " : "", skipped,
                         s->skipped > 3 ? ", ...)"
                         : s->skipped   ? ")"
                                        : "");
        return PGN_E_IO;
    }
    return PGN_END;
}
