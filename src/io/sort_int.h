/* SPDX-License-Identifier: MIT */
/* The external sort's state (include/pgnkit/sort.h), between src/io/sort.c (the games held, the
 * tag values, the order) and src/io/sort_runs.c (the runs on disk and their merging). Internal. */
#ifndef PGNKIT_IO_SORT_INT_H
#define PGNKIT_IO_SORT_INT_H

#include "pgnkit/sort.h"

#define PGNK_SORT_NONE UINT32_MAX /* a tag the game does not have */
/* Runs merged at once (issue 34 point 6): PGNK_SORT_FANIN runs of one level are merged into one
 * of the next as soon as they are written. */
#define PGNK_SORT_FANIN 16

/* A game as held and as written to a run: this header, the tag values, then the raw text. */
typedef struct pgnk_rec {
    uint64_t ordinal;
    uint64_t size; /* of the whole record */
    uint32_t raw_len;
    uint32_t key_len[PGN_SORT_MAX_TAGS];
} pgnk_rec;

typedef struct pgnk_run {
    int fd;
    unsigned level; /* it merges PGNK_SORT_FANIN^level runs */
} pgnk_run;

struct pgn_sort {
    pgn_allocator alloc;
    char *names[PGN_SORT_MAX_TAGS];
    size_t ntags;
    char *temp_dir;
    uint64_t memory, held, added;
    char *val[PGN_SORT_MAX_TAGS]; /* the current game's values */
    uint32_t len[PGN_SORT_MAX_TAGS], cap[PGN_SORT_MAX_TAGS];
    pgnk_rec **recs;
    size_t nrecs, caprecs;
    pgnk_run *runs; /* open runs, oldest first */
    size_t nruns, capruns;
    uint64_t runs_made;
    char *wbuf; /* a run's write buffer */
    size_t wlen;
    char msg[256];
};

/* -1, 0 or 1: a before b by the tags, then by order of addition. */
int pgnk_sort_compare(const pgn_sort *s, const pgnk_rec *a, const pgnk_rec *b);
/* Writes records recs[0..n) (sorted) to a new run, pushed onto the open runs (merging). */
pgn_status pgnk_sort_to_run(pgn_sort *s, pgnk_rec *const *recs, size_t n);
/* Merges the open runs into write. */
pgn_status pgnk_sort_merge(pgn_sort *s, pgn_write_fn write, void *ctx);
/* Writes raw text (len bytes) and a newline when it does not end with one. */
pgn_status pgnk_sort_emit(pgn_write_fn write, void *ctx, const char *raw, size_t len);
/* Closes the open runs. */
void pgnk_sort_close_runs(pgn_sort *s);

/* Temporary files written and read through buffers (sort_runs.c: the sort's runs; dedupe_files.c:
 * dedupe's spool). */
enum { PGNK_FD_READ = 1 << 14 }; /* the least size of a pgnk_fd_reader's buffer */
/* Writes p[0..n) to fd whole (EINTR retried): 0, or -1. */
int pgnk_fd_write_all(int fd, const char *p, size_t n);
/* A file being read: its descriptor, a buffer of PGNK_FD_READ bytes or more, and the bytes of it
 * not yet taken (buf[pos..len)). */
typedef struct pgnk_fd_reader {
    int fd;
    char *buf;
    size_t pos, len;
} pgnk_fd_reader;
/* Reads n bytes into dst: 1, 0 at the end before any byte, -1 on a failure or a cut record. */
int pgnk_fd_take(pgnk_fd_reader *r, void *dst, size_t n);

#endif
