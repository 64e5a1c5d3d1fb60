/* SPDX-License-Identifier: MIT */
/* What an input is, by its first bytes (compress.c): the compressed formats it decodes, the
 * archives archive.c reads, and what is refused, with the message that says why. */
#ifndef PGNKIT_CLI_ZMAGIC_H
#define PGNKIT_CLI_ZMAGIC_H

#include "compress.h"

#include <stddef.h>

typedef struct cli_zmagic {
    const char *bytes;
    size_t len, at;
    int fmt;     /* a cli_zformat, or -1: not decoded here */
    int archive; /* read by archive.c (libarchive), when the build has it */
    const char *what, *hint;
} cli_zmagic;

/* The magic at the start of p[0..n), or NULL. A zstd skippable frame (magic 0x184D2A5?, which
 * pzstd and the lichess files put first) counts as zstd; bzip2 needs its block size digit. */
const cli_zmagic *cli_zmagic_find(const unsigned char *p, size_t n);
/* Refuses what cannot be read: lz4, an archive when the build has no libarchive, a format whose
 * library the build lacks, and anything compressed found inside (inside: the outer format's
 * name) but an archive. Returns 0 (readable), or -1 with msg (cap bytes) saying why. */
int cli_zmagic_refuse(const cli_zmagic *m, const char *inside, char *msg, size_t cap);

#endif
