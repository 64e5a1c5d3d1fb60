/* SPDX-License-Identifier: MIT */
/* Temporary files (the io layer, src/io/tempfile.c; issue 29 point 3, from pgnkit's
 * cli/tempfile.c and cli/sort_runs.c): anonymous ones in a caller's directory (an external
 * sort's runs), and ones beside the file they will replace (issue 36), named
 * ".BASE.pgnkit-PID-XXXXXX" in the target's directory so that the rename into place is atomic and
 * a stale one names the process that left it (pgn_temp_maker), for a later process to remove once
 * that process is gone (the program's sweep: readdir is not thread-safe); what an in-place rewrite
 * keeps of the file it replaces (owner, group, mode, extended attributes) and the backup of it.
 * Removal on a signal is the program's (it needs a handler and a list of names, which the library
 * does not keep). POSIX; nothing printed: a failure's sentence goes to the caller's msg buffer (cap
 * bytes; msg may be NULL). */
#ifndef PGNKIT_TEMPFILE_H
#define PGNKIT_TEMPFILE_H

#include "base.h"

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Creates an anonymous temporary file in directory dir (made with mkstemp as
 * DIR/pgnkit-XXXXXX and unlinked at once, so that it goes when its descriptor is closed, however
 * the program ends), open for reading and writing, close-on-exec. Returns PGN_OK with the
 * descriptor in *fd (the caller closes it), PGN_E_LIMIT (dir longer than 4,000 bytes) or PGN_E_IO;
 * on a failure *fd is -1 and msg holds the reason, naming the limit of open files when that was
 * reached ("Too many open files (the limit is 12 open files: ulimit -n)").
 */
PGN_API PGN_NODISCARD pgn_status pgn_temp_open(const char *dir, int *fd, char *msg, size_t cap);

/**
 * Writes the name of a temporary file for target, "DIR/.BASE.pgnkit-PID-XXXXXX" (DIR the
 * directory of target, "." when it has none; PID this process; the X's for mkstemp) into out (cap
 * bytes). Returns PGN_OK, or PGN_E_LIMIT when it does not fit.
 */
PGN_API PGN_NODISCARD pgn_status pgn_temp_name(const char *target, char *out, size_t cap);

/** The process that made the temporary file called name (a last path component,
 * ".BASE.pgnkit-PID-XXXXXX"), or 0 when name is not one: a sweep removes those whose process is
 * gone (kill(pid, 0) fails with ESRCH), never this process's or a live one's. */
PGN_API long pgn_temp_maker(const char *name);

/**
 * Creates the temporary file for target (pgn_temp_name into name, cap bytes) with O_EXCL, mode
 * mode, close-on-exec, open for writing. Returns PGN_OK with the descriptor in *fd, PGN_E_LIMIT
 * (the name does not fit) or PGN_E_IO with errno set (nothing left behind); *fd is -1 then.
 */
PGN_API PGN_NODISCARD pgn_status pgn_temp_create(const char *target, mode_t mode, char *name,
                                                 size_t cap, int *fd);

/**
 * Gives the new file fd the owner, group, mode and extended attributes (ACLs and capabilities
 * too, on Linux) of the file it replaces: old is that file's stat, path its name. Returns PGN_OK,
 * or PGN_E_IO with msg saying what could not be kept ("cannot keep its mode 0640 (...): not
 * replaced"), after which the caller does not replace it.
 */
PGN_API PGN_NODISCARD pgn_status pgn_temp_keep_metadata(int fd, const char *path,
                                                        const struct stat *old, char *msg,
                                                        size_t cap);

/**
 * Keeps the file path as it is, before it is replaced, as path followed by suffix: a hard link
 * to it (the file a symbolic link names), replacing an older backup. Returns PGN_OK, PGN_E_LIMIT
 * (the name is longer than 4,095 bytes) or PGN_E_IO, with msg "cannot keep a backup as 'NAME':
 * REASON (not replaced)".
 */
PGN_API PGN_NODISCARD pgn_status pgn_temp_backup(const char *path, const char *suffix, char *msg,
                                                 size_t cap);

#ifdef __cplusplus
}
#endif
#endif
