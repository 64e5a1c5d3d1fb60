/* SPDX-License-Identifier: MIT */
/* What a stream is, by its first bytes (source.h): the one table of magic numbers, the formats'
 * names, and the refusals of what cannot be read, with the message that says why. */
#include "codec.h"
#include "source_int.h"

#include <string.h>

static const pgn_magic magics[] = {
    {"\x1f\x8b", 2, 0, PGN_FORMAT_GZIP, 0, "gzip data", "zcat"},
    {"\x28\xb5\x2f\xfd", 4, 0, PGN_FORMAT_ZSTD, 0, "zstd data", "zstdcat"},
    {"BZh", 3, 0, PGN_FORMAT_BZIP2, 0, "bzip2 data", "bzcat"},
    {"\xfd"
     "7zXZ",
     6, 0, PGN_FORMAT_XZ, 0, "xz data", "xzcat"},
    {"PK\x03\x04", 4, 0, -1, 1, "a zip archive", "unzip -p FILE"},
    {"PK\x05\x06", 4, 0, -1, 1, "a zip archive", "unzip -p FILE"},
    {"7z\xbc\xaf\x27\x1c", 6, 0, -1, 1, "a 7z archive", "7z x -so FILE"},
    {"Rar!\x1a\x07", 6, 0, -1, 1, "a RAR archive", "unrar p FILE"},
    {"\x04\x22\x4d\x18", 4, 0, -1, 0, "lz4 data", "lz4cat FILE"},
    {"ustar", 5, 257, -1, 1, "a tar archive", "tar -xOf FILE"},
};

static const char *const format_names[] = {"plain", "gzip", "zstd", "bzip2", "xz"};

const char *pgn_format_name(pgn_format f) {
    return (unsigned)f < sizeof format_names / sizeof format_names[0] ? format_names[f] : "plain";
}

pgn_format pgn_format_of_name(const char *path) {
    static const char *const ext[] = {NULL, ".gz", ".zst", ".bz2", ".xz"};
    size_t n = path ? strlen(path) : 0;
    for (int f = PGN_FORMAT_GZIP; f <= PGN_FORMAT_XZ; f++) {
        size_t k = strlen(ext[f]);
        if (n > k && strcmp(path + n - k, ext[f]) == 0) {
            return (pgn_format)f;
        }
    }
    return PGN_FORMAT_PLAIN;
}

const pgn_magic *pgn_magic_table(size_t *n) {
    *n = sizeof magics / sizeof magics[0];
    return magics;
}

const pgn_magic *pgn_magic_find(const void *data, size_t n) {
    const unsigned char *p = data;
    if (n >= 4 && (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18) {
        return &magics[1];
    }
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
        const pgn_magic *m = &magics[i];
        if (n >= m->at + m->len && memcmp(p + m->at, m->bytes, m->len) == 0 &&
            (m->format != PGN_FORMAT_BZIP2 || (n > 3 && p[3] >= '1' && p[3] <= '9'))) {
            return m;
        }
    }
    return NULL;
}

#ifdef PGNKIT_HAVE_ARCHIVE
enum { HAVE_LIBARCHIVE = 1 };
#else
enum { HAVE_LIBARCHIVE = 0 };
#endif

int pgnk_magic_refuse(const pgn_magic *m, const char *inside, char *msg, size_t cap) {
    if (m->format < 0 && !(m->archive && HAVE_LIBARCHIVE)) {
        pgnk_set_msg(msg, cap,
                     "%s%s%s: pgnkit reads PGN text, plain or compressed once (gzip, zstd, "
                     "bzip2, xz)%s; take the games out first (%s)",
                     m->what, inside ? " inside " : "", inside ? inside : "",
                     m->archive ? ", and archives when built with libarchive (libarchive-dev)" : "",
                     m->hint);
        return -1;
    }
    if (m->format < 0) {
        return 0; /* an archive, for archive.c: a .tar.gz too */
    }
    if (inside) {
        pgnk_set_msg(msg, cap, "%s inside %s data (compressed twice): decompress it once first",
                     m->what, inside);
        return -1;
    }
    const char *lib = pgn_format_missing_lib((pgn_format)m->format);
    if (lib != NULL) {
        pgnk_set_msg(msg, cap,
                     "%s, but this pgnkit was built without %s: install it and rebuild, or "
                     "pipe it through %s",
                     m->what, lib, m->hint);
        return -1;
    }
    return 0;
}
