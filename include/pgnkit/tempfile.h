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
#include <stdint.h>
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

/* ---- outputs replaced only when complete (src/io/output.c) ---- */

/** What a program does with the names of its temporary files, to remove them on a signal (the
 * library keeps no list): add(ctx, name) before the file called name is made (0, or -1: out of
 * memory, the file is then not made), remove(ctx, name) once it is gone or renamed; name stays
 * valid in between. sweep(ctx, dir) before a temporary file is made in directory dir: the program
 * removes there the files whose run is gone (pgn_temp_stale; readdir is the program's). Any may
 * be NULL. */
typedef struct pgn_temp_hooks {
    int (*add)(void *ctx, const char *name);
    void (*remove)(void *ctx, const char *name);
    void (*sweep)(void *ctx, const char *dir);
    void *ctx;
} pgn_temp_hooks;

/**
 * Creates the temporary file for target as pgn_temp_create does, but named with the attempt's
 * number in place of the X's (the next number when one exists), O_EXCL, mode mode less the umask,
 * after hooks->sweep of its directory, each name given to hooks->add before its file is made
 * (hooks may be NULL). Returns PGN_OK with
 * the descriptor in *fd and the name in name (cap bytes); PGN_E_LIMIT (the name does not fit),
 * PGN_E_NOMEM (hooks->add refused) or PGN_E_IO with errno set (nothing left behind, no name
 * left added); *fd is -1 then.
 */
PGN_API PGN_NODISCARD pgn_status pgn_temp_make(const char *target, mode_t mode,
                                               const pgn_temp_hooks *hooks, char *name, size_t cap,
                                               int *fd);

/** Nonzero when name (a last path component) is a temporary file whose process is gone
 * (pgn_temp_maker, then kill(pid, 0) failing with ESRCH): never this process's or a live one's. */
PGN_API int pgn_temp_stale(const char *name);

/** Removes the temporary file tmp and gives its name to hooks->remove (hooks may be NULL). */
PGN_API void pgn_temp_remove(const char *tmp, const pgn_temp_hooks *hooks);

/**
 * Puts the temporary file tmp in place as path (its name then given to hooks->remove; hooks may
 * be NULL): with replace, over what path names (the name
 * itself: a symbolic link there is replaced, not followed); without, never over an existing name,
 * even one made since the caller looked (renameat2's RENAME_NOREPLACE, or a hard link then the
 * unlink of tmp where the file system has no such rename). Returns PGN_OK, or PGN_E_IO with errno
 * set (EEXIST: path exists).
 */
PGN_API PGN_NODISCARD pgn_status pgn_temp_place(const char *tmp, const char *path, int replace,
                                                const pgn_temp_hooks *hooks);

/** An output file: written to a temporary file beside its target and put in place only by a
 * commit. Not thread-safe (one thread at a time). */
typedef struct pgn_output pgn_output;

enum {
    PGN_OUTPUT_NAMED_TEMP = 1u << 0, /* a named temporary file even where O_TMPFILE works */
    PGN_OUTPUT_PLAIN = 1u << 1       /* never compressed, whatever the name's extension */
};

/** Options of pgn_output_new; a zeroed struct gives the defaults. */
typedef struct pgn_output_opts {
    const pgn_allocator *alloc; /* the object and its buffer (NULL: libc); a compressor's state
                                 * and the copy of extended attributes come from libc */
    uint32_t flags;             /* PGN_OUTPUT_* */
    size_t buffer;              /* the write buffer's size in bytes (0: 64 KiB) */
    pgn_temp_hooks hooks;       /* the temporary files' names, for the program's signal handler */
} pgn_output_opts;

/**
 * Creates an output, not yet open (opts may be NULL). Returns PGN_OK with the object in *out (the
 * caller frees it with pgn_output_free), PGN_E_BAD_ALLOCATOR or PGN_E_NOMEM (*out NULL then).
 */
PGN_API PGN_NODISCARD pgn_status pgn_output_new(pgn_output **out, const pgn_output_opts *opts);

/**
 * Opens o for path (what o had open before is closed without commit). A regular file, or a name
 * not yet taken, is written to an unnamed (O_TMPFILE) or named (pgn_temp_make) temporary file in
 * its directory, with the owner, group, mode and extended attributes of the file it replaces (a
 * symbolic link is followed: the file it names is replaced, the link kept) or 0666 less the umask;
 * a device or FIFO is written as it comes. Names ending in .gz, .zst, .bz2 or .xz are compressed
 * (pgn_encoder) unless PGN_OUTPUT_PLAIN. Returns PGN_OK; PGN_E_IO with the sentence in msg (cap
 * bytes): "cannot write 'PATH': REASON", or one about pgn_output_about(o) (the file's metadata
 * that cannot be kept, a compressor this build lacks); PGN_E_NOMEM. Nothing is left on failure.
 */
PGN_API PGN_NODISCARD pgn_status pgn_output_open(pgn_output *o, const char *path, char *msg,
                                                 size_t cap);

/** A pgn_write_fn (ctx: the pgn_output): len, or -1 after a write error (remembered: every later
 * write fails too, and pgn_output_close reports it). */
PGN_API ptrdiff_t pgn_output_write(void *output, const void *data, size_t len);

/**
 * Ends the compressed stream, writes what is buffered and closes the file; with commit and no
 * write error, the temporary file is fsync'd and renamed over the target, otherwise removed (the
 * target untouched). Returns PGN_OK (also when o is not open), or PGN_E_IO with msg "error
 * writing PATH: REASON" or "cannot replace 'PATH': REASON". o can be opened again.
 */
PGN_API PGN_NODISCARD pgn_status pgn_output_close(pgn_output *o, int commit, char *msg, size_t cap);

/** The file the last failure's sentence is about (borrowed until o is opened again or freed), or
 * NULL when the sentence names it. */
PGN_API const char *pgn_output_about(const pgn_output *o);

/** The file an open o replaces on commit (a symbolic link resolved; borrowed), or NULL when o
 * writes a device or is not open. */
PGN_API const char *pgn_output_target(const pgn_output *o);

/** Closes o without commit (nothing replaced) and releases it; accepts NULL. */
PGN_API void pgn_output_free(pgn_output *o);

/** Nonzero when a and b name the same regular file (the same device and inode; symbolic links
 * followed; "-" is standard input), or when neither exists yet and both would be the same name
 * once created (their directories resolved). */
PGN_API int pgn_output_same_file(const char *a, const char *b);

#ifdef __cplusplus
}
#endif
#endif
