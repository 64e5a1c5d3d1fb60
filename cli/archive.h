/* SPDX-License-Identifier: MIT */
/* Archives as inputs: a zip, 7z, RAR or tar file (a tar compressed by gzip, zstd, bzip2 or xz too:
 * compress.c decodes that layer) is read through libarchive, its members one after another, each
 * a text of its own for the reader (its own lines, its own name in diagnostics). Only the members
 * whose names end in the extensions asked for (.pgn) are read; the others are skipped and named.
 * Present when the build found libarchive (PGNKIT_HAVE_ARCHIVE); else compress.c refuses archives
 * and names the missing library. */
#ifndef PGNKIT_CLI_ARCHIVE_H
#define PGNKIT_CLI_ARCHIVE_H

#include "compress.h"

#include <stddef.h>

typedef struct cli_arc cli_arc;

/* Opens an archive over the bytes cli_zin_read gives of z (which it neither takes nor frees).
 * exts: the member name endings to read (any case), NULL-terminated. Returns PGN_OK,
 * PGN_E_NOMEM, or PGN_E_IO when the build has no libarchive (msg says so). */
pgn_status cli_arc_open(cli_arc **out, cli_zin *z, const char *const *exts, char *msg, size_t cap);
/* Moves to the next member: CLI_ARC_READ (a member to read: cli_arc_read gives its bytes),
 * CLI_ARC_SKIPPED (a member not read: a directory is never reported, another file is),
 * CLI_ARC_END, or CLI_ARC_ERROR (cli_arc_error says why). cli_arc_member names the member. */
enum { CLI_ARC_ERROR = -1, CLI_ARC_END = 0, CLI_ARC_READ = 1, CLI_ARC_SKIPPED = 2 };
int cli_arc_next(cli_arc *a);
/* The member's path in the archive (as the archive stores it), or "" before the first. */
const char *cli_arc_member(const cli_arc *a);
/* A pgn_read_fn over the current member's bytes: > 0, 0 at its end, -1 on failure. */
ptrdiff_t cli_arc_read(void *ctx, void *buf, size_t cap);
/* NULL, or why the archive could not be read (libarchive's message, or the decoder's). */
const char *cli_arc_error(const cli_arc *a);
void cli_arc_free(cli_arc *a);

#endif
