/* SPDX-License-Identifier: MIT */
/* The first bytes of an input (zmagic.h): the table of magic numbers, and the refusals. */
#include "zmagic.h"
#include "zcodec.h"

#include <string.h>

static const cli_zmagic magics[] = {
    {"\x1f\x8b", 2, 0, CLI_Z_GZIP, 0, "gzip data", "zcat"},
    {"\x28\xb5\x2f\xfd", 4, 0, CLI_Z_ZSTD, 0, "zstd data", "zstdcat"},
    {"BZh", 3, 0, CLI_Z_BZIP2, 0, "bzip2 data", "bzcat"},
    {"\xfd"
     "7zXZ",
     6, 0, CLI_Z_XZ, 0, "xz data", "xzcat"},
    {"PK\x03\x04", 4, 0, -1, 1, "a zip archive", "unzip -p FILE"},
    {"PK\x05\x06", 4, 0, -1, 1, "a zip archive", "unzip -p FILE"},
    {"7z\xbc\xaf\x27\x1c", 6, 0, -1, 1, "a 7z archive", "7z x -so FILE"},
    {"Rar!\x1a\x07", 6, 0, -1, 1, "a RAR archive", "unrar p FILE"},
    {"\x04\x22\x4d\x18", 4, 0, -1, 0, "lz4 data", "lz4cat FILE"},
    {"ustar", 5, 257, -1, 1, "a tar archive", "tar -xOf FILE"},
};

const cli_zmagic *cli_zmagic_find(const unsigned char *p, size_t n) {
    if (n >= 4 && (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18) {
        return &magics[1];
    }
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
        const cli_zmagic *m = &magics[i];
        if (n >= m->at + m->len && memcmp(p + m->at, m->bytes, m->len) == 0 &&
            (m->fmt != CLI_Z_BZIP2 || (n > 3 && p[3] >= '1' && p[3] <= '9'))) {
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

int cli_zmagic_refuse(const cli_zmagic *m, const char *inside, char *msg, size_t cap) {
    if (m->fmt < 0 && !(m->archive && HAVE_LIBARCHIVE)) {
        cli_set_msg(msg, cap,
                    "%s%s%s: pgnkit reads PGN text, plain or compressed once (gzip, zstd, "
                    "bzip2, xz)%s; take the games out first (%s)",
                    m->what, inside ? " inside " : "", inside ? inside : "",
                    m->archive ? ", and archives when built with libarchive (libarchive-dev)" : "",
                    m->hint);
        return -1;
    }
    if (m->fmt < 0) {
        return 0; /* an archive, for archive.c: a .tar.gz too */
    }
    if (inside) {
        cli_set_msg(msg, cap, "%s inside %s data (compressed twice): decompress it once first",
                    m->what, inside);
        return -1;
    }
    const char *lib = cli_zformat_missing_lib((cli_zformat)m->fmt);
    if (lib != NULL) {
        cli_set_msg(msg, cap,
                    "%s, but this pgnkit was built without %s: install it and rebuild, or "
                    "pipe it through %s",
                    m->what, lib, m->hint);
        return -1;
    }
    return 0;
}
