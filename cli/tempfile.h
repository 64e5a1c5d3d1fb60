/* SPDX-License-Identifier: MIT */
/* Temporary files beside the files they replace (issue 36): named ".BASE.pgnkit-PID-XXXXXX" in
 * the target's directory, so that the rename into place is atomic and a stale one names the run
 * that left it; removed on every exit path (by their owner on errors, by a signal handler on
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE) and, should a run die without one (SIGKILL, a crash), by
 * the next run that writes into the same directory. The metadata an in-place rewrite keeps is
 * here too (owner, group, mode, extended attributes). The names, the metadata and the backup are
 * the library's (pgn_temp_*, include/pgnkit/tempfile.h); these wrappers add the signal handler's
 * list, the sweep (readdir) and the messages. */
#ifndef PGNKIT_CLI_TEMPFILE_H
#define PGNKIT_CLI_TEMPFILE_H

#include <sys/stat.h>
#include <sys/types.h>

/* Creates (O_EXCL, mode) a temporary file for target in its directory, after removing the stale
 * ones of dead runs there; its name goes to *name (malloc'd) and is registered for removal on a
 * signal. Returns the descriptor, or -1 with errno set (*name NULL). */
int cli_temp_create(const char *target, mode_t mode, char **name);
/* "DIR/.BASE.pgnkit-PID-XXXXXX" for target (malloc'd), the X's for mkstemp, or NULL; the caller
 * that makes the file itself (linkat) registers it with cli_temp_register. */
char *cli_temp_name(const char *target);
/* Registers name (the caller's string, kept until cli_temp_forget) for removal on a signal. 0, or
 * -1 when out of memory (the file is then not removed on a signal). */
int cli_temp_register(const char *name);
/* Unregisters name (after it was renamed into place or removed). */
void cli_temp_forget(const char *name);
/* Removes the temporary files of runs that are gone from the directory of target (once per
 * directory and run). */
void cli_temp_sweep(const char *target);

/* Gives the new file fd the owner, group, mode and extended attributes of the file it replaces
 * (old: its stat, path its name). 0, or -1 after a message naming path and what could not be
 * kept (the caller then does not replace it). */
int cli_keep_metadata(int fd, const char *path, const struct stat *old);

/* -i --backup SUFFIX: the file path as it is, before it is replaced, as path.SUFFIX (a hard link
 * to it, replacing an older backup; the file a symbolic link names). EXIT_OK, or EXIT_RESOURCE
 * after a message (the caller then does not replace it). */
int cli_backup(const char *path, const char *suffix);

#endif
