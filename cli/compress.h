/* SPDX-License-Identifier: MIT */
/* Compressed inputs and outputs of the program (issue 16): an input is recognised by its first
 * bytes (gzip, zstd, bzip2, xz or plain text; never by its name) and read through one pgn_read_fn;
 * an output is compressed when the name given to -o ends in .gz, .zst, .bz2 or .xz. Each format
 * needs its system library (found by the Makefile through pkg-config); without it, such an input
 * or output gets a message naming the missing library. The library libpgnkit needs none of this:
 * it reads through the callback. */
#ifndef PGNKIT_CLI_COMPRESS_H
#define PGNKIT_CLI_COMPRESS_H

#include "pgnkit.h"

#include <stdint.h>
#include <stdio.h>

typedef struct cli_zin cli_zin;

/* What an input holds, by its first bytes. */
typedef enum cli_zformat { CLI_Z_PLAIN, CLI_Z_GZIP, CLI_Z_ZSTD, CLI_Z_BZIP2, CLI_Z_XZ } cli_zformat;

/* Opens a decoding stream over f (not closed by it) from where f stands. It reads the first bytes
 * of f (and of the decoded text) to tell the format, unless plain is set (the text of a range of
 * a plain file, which may start with anything). A zip, 7z, RAR or tar archive (a compressed tar
 * too) is opened for archive.c when the build has libarchive (cli_zin_archive); lz4, an archive
 * without libarchive, a format without its library in this build, or a file compressed twice is
 * refused: *out is then NULL and msg (cap bytes) says why. Returns PGN_OK, PGN_E_NOMEM, or PGN_E_IO
 * (refused or unreadable, with msg set). Release with cli_zin_free. */
pgn_status cli_zin_open(cli_zin **out, FILE *f, int plain, char *msg, size_t cap);
/* A pgn_read_fn over the decoded bytes: > 0 bytes, 0 at the end, -1 when reading or decoding
 * failed (cli_zin_error then says where). */
ptrdiff_t cli_zin_read(void *ctx, void *buf, size_t cap);
/* NULL, or the message of the failure that made cli_zin_read return -1: the format, what went
 * wrong and the byte offset in the (compressed) file where decoding failed. */
const char *cli_zin_error(const cli_zin *z);
cli_zformat cli_zin_format(const cli_zin *z);
/* NULL, or what archive the (decoded) bytes are, e.g. "a zip archive": cli_zin_read gives the
 * archive's bytes, for archive.c. */
const char *cli_zin_archive(const cli_zin *z);
/* Moves a plain input of a regular file to off (fseeko's whence; SEEK_CUR from the bytes read
 * through z), for archive formats that read their index at the end (7z, a zip's central
 * directory): the new offset, or -1 (a pipe, a compressed input, a seek error). */
int64_t cli_zin_seek(cli_zin *z, int64_t off, int whence);
/* Bytes of the file consumed so far (compressed bytes for a compressed input). */
uint64_t cli_zin_consumed(const cli_zin *z);
void cli_zin_free(cli_zin *z);

/* One frame of a zstd file (pgnkit frames): where it is in the file and in the decoded text, and
 * the line number of its first decoded byte (as pgn_reader_opts.line_base wants it). A skippable
 * frame has no plain bytes. */
typedef struct cli_zframe {
    uint64_t offset, size;             /* in the file */
    uint64_t plain_offset, plain_size; /* in the decoded text */
    uint64_t line;
    int skippable;
} cli_zframe;
/* Called after each frame; nonzero stops the walk. */
typedef int (*cli_zframe_fn)(void *user, const cli_zframe *fr);
/* Decodes the zstd file f from where it stands (its start) to its end, frame by frame, calling fn
 * after each. Returns 0, 1 when fn stopped it, or -1 with msg set (not zstd, damaged). */
int cli_zstd_frames(FILE *f, cli_zframe_fn fn, void *user, char *msg, size_t cap);
/* For the walk over a zstd file's frames (zframes.c): decodes z again from the start of its file,
 * calling on_end(user, at, made) when a frame ends at byte at of the file, after made more
 * decoded bytes of the read under way. 0, or -1 with msg set. */
int cli_zin_restart(cli_zin *z, void (*on_end)(void *user, uint64_t at, size_t made), void *user,
                    char *msg, size_t cap);
/* "plain", "gzip", "zstd", "bzip2", "xz". */
const char *cli_zformat_name(cli_zformat f);

/* The format an output named path is compressed with, by its extension (.gz .zst .bz2 .xz);
 * CLI_Z_PLAIN otherwise and for NULL. */
cli_zformat cli_zformat_of_name(const char *path);
/* A stdio stream compressing into under (which it neither closes nor takes) in format fmt; for
 * CLI_Z_PLAIN it returns under itself. Returns NULL after writing a message to msg (no library
 * for the format in this build, or out of memory). Close with cli_zout_close before under. */
FILE *cli_zout_open(FILE *under, cli_zformat fmt, char *msg, size_t cap);
/* Ends the compressed stream of a stream from cli_zout_open and closes it (nothing for under
 * itself); returns 0, or -1 when compressing or writing failed. */
int cli_zout_close(FILE *f, FILE *under);

#endif
