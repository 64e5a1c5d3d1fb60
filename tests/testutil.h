/* SPDX-License-Identifier: MIT */
/* Support code shared by the unit tests:
 *  - growable byte buffers: append, printf, a pgn write callback, whole files. The text is always
 *    NUL-terminated after buf_put; running out of memory ends the test program (exit status 1,
 *    "FAIL out of memory"), as a test cannot go on without its buffers;
 *  - text: the first n games of a PGN text, tab-separated fields;
 *  - a pgn_allocator whose allocations fail after a budget and that counts the live blocks. */
#ifndef PGNKIT_TESTUTIL_H
#define PGNKIT_TESTUTIL_H

#include <pgnkit/base.h>
#include <pgnkit/game.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

/* Appends n bytes of s (n may be 0: makes p a valid empty string). */
void buf_put(buf *b, const void *s, size_t n);
void buf_str(buf *b, const char *s);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void buf_printf(buf *b, const char *fmt, ...);
/* A pgn_write_fn appending to the buf in ctx; never fails. */
ptrdiff_t buf_write(void *ctx, const void *data, size_t len);
/* Frees b->p and empties b. */
void buf_free(buf *b);

/* Appends the rest of f; 1 unless a read error. */
int buf_slurp(FILE *f, buf *out);
/* The whole file at path into out (emptied first); 1 on success. */
int buf_read_path(const char *path, buf *out);
/* The whole file at path, malloc'd and NUL-terminated, its length in *len (len may be NULL);
 * NULL if it cannot be read. */
char *buf_read_file(const char *path, size_t *len);
/* Loads the shared file rel (harness_shared; through `gzip -dc` if it ends in .gz) into out,
 * NUL-terminated. A missing or unreadable file is a harness failure; returns 0 then. */
int buf_load_shared(const char *rel, buf *out);

/* ---- text ---- */

/* The length of the prefix of p holding its first n games: up to the (n+1)th line starting with
 * "[Event " (len if there are no more). */
size_t slice_games(const char *p, size_t len, uint64_t n);
/* Splits line (NUL-terminated, modified in place) at tabs into at most max fields; returns the
 * count. */
int split_tabs(char *line, char **fields, int max);

/* ---- a failing, counting allocator ---- */

typedef struct limit_alloc {
    long left; /* allocations (malloc and realloc) that still succeed; < 0: unlimited */
    long live; /* blocks not yet freed */
} limit_alloc;

/* A pgn_allocator over ta (its ctx). */
pgn_allocator limit_allocator(limit_alloc *ta);

/* Appends g's start as EPD, '|', and its main line in UCI (" e2e4 e7e5"); returns the plies. */
size_t buf_main_line(buf *b, const pgn_game *g);
/* Reads the first game of the NUL-terminated text into g (a failed check when it does not read). */
void read_game_text(pgn_game *g, const char *text);

/* Calls fn(path, ctx) on every file of dir whose name ends in suffix (NULL: any name not
 * starting with '.'), in subfolders too if recurse; returns the sum of what fn returns. A folder
 * that cannot be listed is a failure. */
unsigned tu_each_file(const char *dir, const char *suffix, int recurse,
                      unsigned (*fn)(const char *path, void *ctx), void *ctx);

#endif
