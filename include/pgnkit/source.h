/* SPDX-License-Identifier: MIT */
/* Sources of games (issue 29; the io layer, src/io): where the bytes the reader reads come from.
 * A source is opened on a path, a file descriptor, a read callback or memory; what it holds is
 * told by its first bytes, never by a name (one magic table): plain text, gzip (decoded by ISA-L's
 * igzip where the build found it, else zlib), zstd (several frames and skippable frames), bzip2,
 * xz, or an archive (zip, 7z, RAR, tar, a compressed tar) whose members named *.pgn are read one
 * after another, each named ARCHIVE(MEMBER). A source also lists a zstd file's frames and cuts
 * byte ranges with true line numbers; the parallel reader (below) reads a source on N threads and
 * hands its games back in input order.
 *
 * The codecs are the system's (zlib, libisal, libzstd, libbz2, liblzma), linked into libpgnkit
 * when the build found them (pgnkit.pc lists them in Libs.private); libarchive is opened with
 * dlopen at the first archive (docs/design.md says why). A format whose library the build lacks
 * is refused with a message naming it. The rest of the library (the rules, the reader, the
 * writers) needs none of this: a program that uses only them links with libc alone.
 *
 * Messages: a function that fails writes one English sentence (never printed) to its msg buffer
 * or to pgn_source_error; pgnkit prints them as "pgnkit CMD: NAME: MESSAGE". */
#ifndef PGNKIT_SOURCE_H
#define PGNKIT_SOURCE_H

#include "base.h"
#include "game.h"
#include "reader.h"
#include "writer.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- formats and the magic table ---- */

/** What a stream holds, by its first bytes. */
typedef enum pgn_format {
    PGN_FORMAT_PLAIN = 0,
    PGN_FORMAT_GZIP,
    PGN_FORMAT_ZSTD,
    PGN_FORMAT_BZIP2,
    PGN_FORMAT_XZ
} pgn_format;

/** "plain", "gzip", "zstd", "bzip2" or "xz"; never NULL. */
PGN_API const char *pgn_format_name(pgn_format f);
/** NULL when this build decodes and encodes f, else the library it lacks with its Debian package
 * ("libzstd (libzstd-dev)"). */
PGN_API const char *pgn_format_missing_lib(pgn_format f);
/** The format an output named path is written in, by its extension: .gz, .zst, .bz2, .xz, else
 * (and for NULL) PGN_FORMAT_PLAIN. */
PGN_API pgn_format pgn_format_of_name(const char *path);

/** One row of the magic table: bytes[0..len) at offset at of a stream. */
typedef struct pgn_magic {
    const char *bytes;
    size_t len, at;
    int format;       /* a pgn_format the source decodes, or -1: not decoded (archive, refused) */
    int archive;      /* a container whose members the source reads (through libarchive) */
    const char *what; /* "gzip data", "a zip archive", "lz4 data" */
    const char *hint; /* the command that takes the text out: "zcat", "unzip -p FILE" */
} pgn_magic;

/** The magic table: *n rows, static, in the order pgn_magic_find tries them. */
PGN_API const pgn_magic *pgn_magic_table(size_t *n);
/** The row whose bytes begin p[0..n), or NULL (plain text). A zstd skippable frame (0x184D2A5?,
 * which pzstd and the lichess files put first) is zstd; bzip2 needs its block size digit. The
 * pointer is into the static table. */
PGN_API const pgn_magic *pgn_magic_find(const void *p, size_t n);

/* ---- sources ---- */

typedef struct pgn_source pgn_source;

/* pgn_source_opts.flags */
#define PGN_SOURCE_PLAIN 0x01u /* no recognition: the bytes are the text as they are */

/** Options of pgn_source_open_*; a zeroed struct (or NULL) gives the defaults. */
typedef struct pgn_source_opts {
    const pgn_allocator *alloc; /* the source's own memory (the codecs allocate through libc) */
    const char *name;           /* in messages and members' names; NULL: the path, "<stdin>" for
                                   fd 0, "<memory>", else "<input>". Copied. */
    const char *const *members; /* archive members read: name endings, any case, NULL-terminated;
                                   NULL: {".pgn", NULL} */
    uint32_t flags;             /* PGN_SOURCE_* */
} pgn_source_opts;

/** Opens the file at path ("-": standard input, not closed) and reads its first bytes to tell what
 * it holds; an archive is opened at its first member to read. On success *out owns the source
 * (pgn_source_free). Errors, with one sentence in msg (cap bytes; may be NULL with cap 0): PGN_E_IO
 * (the system's reason: "No such file or directory", "Is a directory"; lz4 data; an archive
 * without libarchive or without a member to read; a format without its library in this build; a
 * file compressed twice; a damaged start), PGN_E_NOMEM, PGN_E_BAD_ALLOCATOR. *out is then NULL. */
PGN_API pgn_status pgn_source_open_path(pgn_source **out, const char *path,
                                        const pgn_source_opts *opts, char *msg, size_t cap);
/** The same over an open file descriptor, read from where it stands; fd is neither closed nor
 * owned (it must stay open until pgn_source_free). A regular file can seek: ranges, frames, and
 * zip and 7z archives read by their index. */
PGN_API pgn_status pgn_source_open_fd(pgn_source **out, int fd, const pgn_source_opts *opts,
                                      char *msg, size_t cap);
/** The same over a read callback (read(ctx, buf, cap): > 0 bytes, 0 at the end, -1 on failure),
 * which cannot seek. ctx must outlive the source. */
PGN_API pgn_status pgn_source_open_read(pgn_source **out, pgn_read_fn read, void *ctx,
                                        const pgn_source_opts *opts, char *msg, size_t cap);
/** The same over data[0..len) (not copied: it must outlive the source), which can seek. */
PGN_API pgn_status pgn_source_open_mem(pgn_source **out, const void *data, size_t len,
                                       const pgn_source_opts *opts, char *msg, size_t cap);

/** A pgn_read_fn (ctx: the pgn_source) over the decoded text of the source, or of the archive
 * member it is at: > 0 bytes, 0 at the end, -1 when reading or decoding failed (pgn_source_error
 * then says where: "truncated zstd data: the file ends at byte N", "corrupt gzip data at byte N:
 * REASON", "read error at byte N: REASON"). Pass it with the source to pgn_reader_new. */
PGN_API ptrdiff_t pgn_source_read(void *source, void *buf, size_t cap);
/** NULL, or the sentence saying why the last read, range or frame walk failed. Borrowed until the
 * source's next call. */
PGN_API const char *pgn_source_error(const pgn_source *s);
/** The name of what is read: the name (opts.name or the path), or for an archive's member
 * "NAME(MEMBER)", as GNU ld names a library's members. Borrowed until the next pgn_source_next. */
PGN_API const char *pgn_source_name(const pgn_source *s);
/** The name of the source itself (the archive's, for a member). Borrowed for the source's life. */
PGN_API const char *pgn_source_outer_name(const pgn_source *s);
/** The compression of the stream (of the archive's bytes for a compressed tar). */
PGN_API pgn_format pgn_source_format(const pgn_source *s);
/** NULL, or the kind of archive the source is ("a zip archive"), static. */
PGN_API const char *pgn_source_archive(const pgn_source *s);
/** Moves an archive to its next member to read: PGN_OK (pgn_source_read and pgn_source_name are
 * the member's), PGN_END when none is left (at once for a source that is no archive), PGN_E_IO
 * when the archive is damaged (pgn_source_error says why; the members before were read whole),
 * PGN_E_NOMEM. */
PGN_API pgn_status pgn_source_next(pgn_source *s);
/** Bytes of the underlying file or stream consumed so far (compressed bytes for a compressed
 * source): for a progress line. */
PGN_API uint64_t pgn_source_consumed(const pgn_source *s);
/** The size of the underlying file when it is a regular file or memory, else 0 (unknown). */
PGN_API uint64_t pgn_source_size(const pgn_source *s);
/** Nonzero when the source reads a regular file (or memory): it can seek. */
PGN_API int pgn_source_seekable(const pgn_source *s);

/** Cuts the byte range [start, end) of the file (end 0: to the end) out of a plain or zstd source
 * that can seek, before its first read, for a reader with the library's range semantics
 * (pgn_reader_opts.range_start): sets ro->range_start, range_end and line_base and moves the
 * source to the range. A plain file's range starts anywhere; a zstd file's START and END are frame
 * boundaries (or its size), turned into the frames' text offsets. line_base: the line of byte
 * START when the caller knows it, else 0: the source counts the line breaks before START, so that
 * diagnostics give true line numbers (LF, CRLF and a lone CR each end a line). A range of frames
 * without text reads nothing. PGN_OK, or PGN_E_IO with pgn_source_error set (standard input or a
 * callback, an archive, another compressed format, not frame boundaries), PGN_E_NOMEM. */
PGN_API pgn_status pgn_source_range(pgn_source *s, uint64_t start, uint64_t end, uint32_t line_base,
                                    pgn_reader_opts *ro);

/** One frame of a zstd file: where it is in the file and in the decoded text, and the line of its
 * first decoded byte (as pgn_reader_opts.line_base wants it). A skippable frame has no text. */
typedef struct pgn_frame {
    uint64_t offset, size;           /* in the file */
    uint64_t text_offset, text_size; /* in the decoded text */
    uint64_t line;
    int skippable;
} pgn_frame;
/** Called after each frame; nonzero stops the walk. */
typedef int (*pgn_frame_fn)(void *user, const pgn_frame *fr);
/** Decodes a zstd source that can seek from its start to its end, frame by frame, calling fn after
 * each; the source is then spent (free it). PGN_OK (also when fn stopped the walk), or PGN_E_IO
 * with pgn_source_error set (not zstd, damaged, cannot seek), PGN_E_NOMEM. */
PGN_API pgn_status pgn_source_frames(pgn_source *s, pgn_frame_fn fn, void *user);

/** Releases the source and what it opened (a path's file; not a caller's fd); accepts NULL. */
PGN_API void pgn_source_free(pgn_source *s);

/* ---- compressing output ---- */

typedef struct pgn_encoder pgn_encoder;

/** A compressing writer in format fmt (gzip level 6, zstd level 3 with a checksum, bzip2 9, xz
 * preset 6) that writes what it makes to write(ctx, ...). PGN_OK, PGN_E_IO (no library for fmt in
 * this build, said in msg), PGN_E_NOMEM. PGN_FORMAT_PLAIN passes the bytes through. */
PGN_API pgn_status pgn_encoder_new(pgn_encoder **out, pgn_format fmt, pgn_write_fn write, void *ctx,
                                   char *msg, size_t cap);
/** A pgn_write_fn (ctx: the pgn_encoder): compresses len bytes; len, or -1 when compressing or
 * the underlying write failed. */
PGN_API ptrdiff_t pgn_encoder_write(void *encoder, const void *buf, size_t len);
/** Ends the compressed stream (the last bytes written). PGN_OK or PGN_E_IO. */
PGN_API pgn_status pgn_encoder_finish(pgn_encoder *e);
/** Releases the encoder (without finishing the stream); accepts NULL. */
PGN_API void pgn_encoder_free(pgn_encoder *e);

/* ---- the parallel reader ---- */

/** A game handed to pgn_parallel_opts.each, on the caller's thread, in input order. Everything is
 * borrowed for the call. */
typedef struct pgn_par_game {
    pgn_game *game;                  /* the tree (opts.tree and no prepare hook), else NULL */
    const pgn_game_summary *summary; /* summary->game: 1-based over the source's text */
    pgn_str raw;                     /* the game's bytes, with PGN_READ_KEEP_RAW; else empty */
    pgn_str product;                 /* what the prepare hook appended for it */
    int has_product;                 /* a prepare hook ran (product may be empty) */
    /* With a tree: where the reader keeps it. The callback may take the game by setting *take to
     * NULL: the caller then owns it (pgn_game_free) and the reader makes another. Else NULL. */
    pgn_game **take;
    /* as pgn_reader_raw_between: the end of raw after the game's own text, and before the first
     * game of the text the text before it (PGN_READ_KEEP_LEAD); with PGN_READ_KEEP_RAW */
    pgn_str between, lead;
} pgn_par_game;

/** Work done on the worker threads (each member may be NULL): a state per worker made from
 * opts.hooks_user (or opts.user), the visitor's user for that worker (visitor mode needs it), and
 * prepare, called on the worker after each game: the bytes it appends to out (a pgn_membuf growing
 * through libc) come back in pgn_par_game.product. With prepare, each gets no tree (a worker keeps
 * one). */
typedef struct pgn_par_hooks {
    void *(*worker_new)(void *user); /* NULL: out of memory */
    void (*worker_free)(void *wuser);
    void *(*worker_vuser)(void *wuser);
    pgn_status (*prepare)(void *wuser, const pgn_par_game *g, pgn_membuf *out);
} pgn_par_hooks;

/** Options of pgn_parallel_read; a zeroed struct reads on one thread per core. */
typedef struct pgn_parallel_opts {
    unsigned threads; /* workers; 0: one per online core (at most 256) */
    size_t batch;     /* bytes of text a batch is cut after; 0: 1 MiB, or 64 KiB with trees */
    /* The readers' options. reader.on_diag gets each diagnostic on the caller's thread, in input
     * order, interleaved with the games exactly as one reader gives them; reader.max_errors and
     * the range are ignored (see pgn_parallel_serial). */
    pgn_reader_opts reader;
    int tree;                   /* build each game's tree (pgn_reader_next), else visit */
    const pgn_visitor *visitor; /* visitor mode: its user is hooks.worker_vuser's */
    pgn_par_hooks hooks;
    void *user; /* given to each, progress and hooks.worker_new */
    /* given to hooks.worker_new instead of user (NULL: user), for hooks written apart from each:
     * a program's commands behind one driver */
    void *hooks_user;
    /* Each game in input order, on the caller's thread (NULL: the games are only counted). A
     * status other than PGN_OK stops the read, which returns it. */
    pgn_status (*each)(void *user, const pgn_par_game *g);
    /* After each chunk read and each game given out, on the caller's thread (NULL: none): bytes
     * of the source consumed (pgn_source_consumed) and games given out so far. */
    void (*progress)(void *user, uint64_t consumed, uint64_t games);
} pgn_parallel_opts;

/** What a parallel read did. */
typedef struct pgn_parallel_totals {
    uint64_t games, errors, warnings; /* as pgn_reader_totals, over the games given out */
    int from_each;                    /* the returned status came from opts->each */
} pgn_parallel_totals;

/** The number of workers pgn_parallel_read starts for opts.threads = threads: threads (at most
 * 256), or for 0 one per online core. */
PGN_API unsigned pgn_parallel_workers(unsigned threads);
/** Nonzero when reading src on threads can pay: it is seekable (from a pipe, the first game
 * would wait for a whole batch) and not plain text smaller than a batch of 1 MiB (the threads
 * and their buffers would cost more than they give: 3 ms on an empty file, 2-3 ms at 200-500 KB).
 * A program's default for reading on one thread or on the cores. */
PGN_API int pgn_parallel_worthwhile(const pgn_source *src);
/** Nonzero when reading with ro needs one reader over the whole text (so pgn_parallel_read must
 * not be used): max_errors, a byte range or line base, nested comments. */
PGN_API int pgn_parallel_serial(const pgn_reader_opts *ro);
/** Reads the source's text (the current member of an archive) on opts->threads workers: the
 * calling thread reads, cuts the text into batches where one reader surely starts a game, and
 * gives each game, its diagnostics and its raw bytes to opts->each in input order, the same as one
 * reader over the whole text would (byte-identical output; offsets, lines and raw bytes are the
 * text's own). A compressed source (or an archive) is decoded on one more thread, up to 4 MiB of
 * text ahead of the batches; src must not be used on another thread until the call returns
 * (pgn_source_consumed from each and progress is safe: it then counts the file's bytes behind the
 * text given out). Memory: at most 2N batches in flight. Returns PGN_END at the end,
 * PGN_E_IO when the source failed (pgn_source_error says why; the games before were given), or
 * PGN_E_NOMEM, or PGN_E_BAD_ALLOCATOR (a half-filled opts->reader.alloc: nothing read), or each's
 * status; totals (may be NULL) are filled in every case. */
PGN_API pgn_status pgn_parallel_read(pgn_source *src, const pgn_parallel_opts *opts,
                                     pgn_parallel_totals *totals);

#ifdef __cplusplus
}
#endif
#endif
