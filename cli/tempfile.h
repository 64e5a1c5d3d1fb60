/* SPDX-License-Identifier: MIT */
/* Temporary files beside the files they replace (issue 36): named ".BASE.pgnkit-PID-XXXXXX" in
 * the target's directory, so that the rename into place is atomic and a stale one names the run
 * that left it; removed on every exit path (by their owner on errors, by a signal handler on
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE) and, should a run die without one (SIGKILL, a crash), by
 * the next run that writes into the same directory. The names, the outputs over them, the
 * metadata an in-place rewrite keeps and the backup are the library's (pgn_temp_*, pgn_output_*,
 * include/pgnkit/tempfile.h); these wrappers add the signal handler's list, the sweep (readdir)
 * and the messages. */
#ifndef PGNKIT_CLI_TEMPFILE_H
#define PGNKIT_CLI_TEMPFILE_H

#include "pgnkit.h"

/* The hooks that register a temporary file's name for removal on a signal (before the file is
 * made) and unregister it (after it was renamed into place or removed), and that sweep a
 * directory of the temporary files of runs that are gone (once per directory and run): for
 * pgn_output and pgn_temp_make. */
extern const pgn_temp_hooks cli_temp_hooks;

/* -i --backup SUFFIX: the file path as it is, before it is replaced, as path.SUFFIX (a hard link
 * to it, replacing an older backup; the file a symbolic link names). EXIT_OK, or EXIT_RESOURCE
 * after a message (the caller then does not replace it). */
int cli_backup(const char *path, const char *suffix);

#endif
