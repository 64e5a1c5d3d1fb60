/* SPDX-License-Identifier: MIT */
/* Splitting a collection into files (the io layer, src/io/split.c; issue 29 point 3, from pgnkit
 * split's cli/split_names.c and cli/split_files.c): which file each game goes to (N games a file,
 * a file per value of a tag, or both) and the files' names, made from a pattern in which {n} is
 * the file's number (from 1, counted per value), {value} the value split by and {TAG} any tag's
 * value. A value is made safe before it goes into a name ('/', '\\', control bytes and a leading
 * '.' replaced by '_', cut to 100 bytes on a UTF-8 boundary, '_' when empty), and two values that
 * would give one name are numbered apart (name~2.pgn). The directories a name needs are created.
 * The caller opens, writes and puts the files in place; nothing is printed, a failure's sentence
 * is kept for pgn_split_error. POSIX (mkdir, realpath, fnmatch). */
#ifndef PGNKIT_SPLIT_H
#define PGNKIT_SPLIT_H

#include "base.h"
#include "tempfile.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Tags a split can use: the one split by and those its pattern names. */
#define PGN_SPLIT_MAX_TAGS 8
/** Bytes of a pattern. */
#define PGN_SPLIT_PATTERN_MAX 1024
/** Bytes of a value in a file name. */
#define PGN_SPLIT_VALUE_MAX 100

typedef struct pgn_split_opts {
    const char *pattern;        /* NULL: "{value}.pgn" with by, else "split-{n}.pgn" (copied) */
    const char *by;             /* a tag name, "Year" for the year of Date; NULL: none (copied) */
    uint64_t per_file;          /* games a file at most; 0: no limit */
    const pgn_allocator *alloc; /* NULL: libc */
} pgn_split_opts;

/** The files of a split and the values of the game being placed. */
typedef struct pgn_split pgn_split;

/**
 * Creates a split (opts required). Returns PGN_OK, PGN_E_NOMEM, PGN_E_BAD_ALLOCATOR, or
 * PGN_E_LIMIT for a pattern or tag that cannot be used, with the reason in msg (cap bytes, may be
 * NULL): "the pattern is longer than 1024 bytes", "a { in the pattern has no name or no }", "at
 * most 7 tags in the pattern", "the tag to split by has no name". The caller frees it with
 * pgn_split_free.
 */
PGN_API PGN_NODISCARD pgn_status pgn_split_new(pgn_split **out, const pgn_split_opts *opts,
                                               char *msg, size_t cap);
/** Frees the split and its names (the files and directories stay); accepts NULL. */
PGN_API void pgn_split_free(pgn_split *s);
/** The pattern in use (the default when opts gave none); the split's. */
PGN_API const char *pgn_split_pattern(const pgn_split *s);

/** Starts a game: forgets the tag values noted so far (call it at a visitor's begin_game). */
PGN_API void pgn_split_begin_game(pgn_split *s);
/** Notes tag name's value for the current game when the split uses it (copied; Date's first four
 * bytes for "Year"). Returns PGN_OK or PGN_E_NOMEM. */
PGN_API PGN_NODISCARD pgn_status pgn_split_tag(pgn_split *s, pgn_str name, pgn_str value);

/**
 * Places the current game: *file is the index (from 0, in order of creation) of the file it goes
 * to, and the game is counted there. A value's first file, and its next one when the last is full
 * (per_file games), is new: its name is made and the directories it names are created. *full is
 * the index of a file that will get no more games (the one that just filled), which the caller may
 * close, or SIZE_MAX. Returns PGN_OK, PGN_E_NOMEM or PGN_E_IO (a directory could not be created:
 * pgn_split_error).
 */
PGN_API PGN_NODISCARD pgn_status pgn_split_place(pgn_split *s, size_t *file, size_t *full);
/** The number of files so far. */
PGN_API size_t pgn_split_count(const pgn_split *s);
/** The name of file (an index below pgn_split_count); the split's, valid until it is freed. */
PGN_API const char *pgn_split_name(const pgn_split *s, size_t file);
/** The number of games placed in file. */
PGN_API uint64_t pgn_split_games(const pgn_split *s, size_t file);

/**
 * Could the pattern give path as a file's name? Only decided for a pattern without tag values
 * (its names are known before any game; 0 for the others, whose names the caller checks before
 * putting the files in place): both as absolute names, the directory of each resolved (symbolic
 * links, ".."), {n} matching any text, a name numbered apart (name~2.pgn) too. 1 or 0.
 */
PGN_API int pgn_split_may_name(const pgn_split *s, const char *path);

/** Removes the directories the split created, those that are empty, the deepest first (after a
 * run that put no file in place). */
PGN_API void pgn_split_remove_dirs(pgn_split *s);

/** The sentence of the last failure ("cannot create: ..."), and in *name (may be NULL) the path
 * it concerns; "" when none. The split's, valid until its next call. */
PGN_API const char *pgn_split_error(const pgn_split *s, const char **name);

/**
 * The files of a split being written (src/io/split_files.c; issue 29 point 3, from
 * cli/split_files.c): each to a temporary file beside its name (pgn_temp_make, mode 0666 less the
 * umask), at most open_max of them open at once (the one used least recently is closed, and opened
 * again to append when its value comes back), each with a write buffer of 4 KB while it is open.
 * Nothing is put in place before pgn_split_files_place; nothing printed: a failure's sentence and
 * errno are kept for pgn_split_files_error. Its memory is the split's allocator's.
 */
typedef struct pgn_split_files pgn_split_files;

/** Creates the files of split s (which must outlive them), open_max at least 1 open at once,
 * the temporary files' names given to hooks (may be NULL; copied). PGN_OK or PGN_E_NOMEM. */
PGN_API PGN_NODISCARD pgn_status pgn_split_files_new(pgn_split_files **out, pgn_split *s,
                                                     size_t open_max, const pgn_temp_hooks *hooks);
/**
 * Places the current game (pgn_split_place), closes the file that filled, and writes the game's
 * len bytes of raw text to its file, with a newline when they do not end in one (len 0: nothing
 * written, the game still counted). Returns PGN_OK; PGN_E_NOMEM; or PGN_E_IO: a file could not be
 * made, written or closed (pgn_split_files_error), or a directory could not be created
 * (pgn_split_files_error gives "", pgn_split_error the sentence).
 */
PGN_API PGN_NODISCARD pgn_status pgn_split_files_add(pgn_split_files *f, const char *raw,
                                                     size_t len);
/** Writes out and closes file (an index below pgn_split_count) when it is open. PGN_OK, or
 * PGN_E_IO (its last writes failed: pgn_split_files_error). */
PGN_API PGN_NODISCARD pgn_status pgn_split_files_close(pgn_split_files *f, size_t file);
/** Puts closed file in place under its name (pgn_temp_place: with replace over an existing name).
 * PGN_OK, or PGN_E_IO with errno set (the file stays a temporary file). */
PGN_API PGN_NODISCARD pgn_status pgn_split_files_place(pgn_split_files *f, size_t file,
                                                       int replace);
/** The last failure of pgn_split_files_add or _close: its sentence ("cannot write": the
 * temporary file could not be made or opened again; "error writing"), the file's name in *name
 * and the errno in *err (both may be NULL); "" when none. Valid until the next call on f. */
PGN_API const char *pgn_split_files_error(const pgn_split_files *f, const char **name, int *err);
/** Closes the files still open, removes the temporary files not put in place (given to the
 * hooks' remove) and frees f; accepts NULL. The split and its directories stay. */
PGN_API void pgn_split_files_free(pgn_split_files *f);

#ifdef __cplusplus
}
#endif
#endif
