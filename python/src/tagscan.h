/* SPDX-License-Identifier: MIT */
/* The scan behind the tags' columns (tagscan.c): per tag name a column of codes into the tag's
 * distinct values, kept by row; and the join of the scans of a source's parts. No Python object:
 * all of it runs without the GIL. */
#ifndef PGNKIT_PY_TAGSCAN_H
#define PGNKIT_PY_TAGSCAN_H

#include "pk.h"
#include "strtab.h"

/* A column's codes by row, in chunks of PK_CHUNK rows made when a row of theirs gets one: chunk k
 * holds rows [k * PK_CHUNK, (k + 1) * PK_CHUNK), PK_NO_CODE where the game has no such tag; a NULL
 * chunk has none. (Dense by row, so no row index is kept beside each code; chunks, so that no
 * array is copied as it grows and a rare tag costs nothing in the rows it is absent from.) */
enum { PK_CHUNK_BITS = 14, PK_CHUNK = 1 << PK_CHUNK_BITS };
#define PK_NO_CODE UINT32_MAX

typedef struct pk_tcol {
    pk_strtab values;
    pgn_membuf chunks; /* uint32_t * per chunk */
    uint32_t last;     /* the code last stored (PK_NO_CODE: none) */
    uint32_t last_len; /* its length and the offset of its bytes in values' arena, kept here: */
    size_t last_off;   /* its entry would be a cache miss in a big column (White, Site) */
    uint64_t next;     /* the row after the last one stored: the rows from there on are not
                          written until a later code or the end of the scan fills them */
} pk_tcol;

typedef struct pk_tscan {
    pk_strtab names;  /* column i is names' string i */
    pgn_membuf cols;  /* pk_tcol values */
    pgn_membuf after; /* uint32_t: [c + 1] the column that came after column c last time; [0]:
                         the first */
    uint32_t prev;    /* the last column of this game + 1 (0 at its start) */
    uint64_t row;     /* the game being scanned */
    int oom;
} pk_tscan;

/* Where a part's games lie: the first one's first byte, the last one's end (where the game after
 * it starts), and whether the stream is UTF-16 (E_UTF16: the reader reads none of it). */
typedef struct pk_tspan {
    uint64_t first, end;
    int any, utf16;
} pk_tspan;

/* The number of columns of s, and column i. */
size_t pk_tscan_ncols(const pk_tscan *s);
pk_tcol *pk_tscan_col(const pk_tscan *s, size_t i);

void pk_tscan_free(pk_tscan *s);

/* Scans every game of r (a reader with PGN_READ_NO_BOARD) into s; span, if not NULL: where they
 * lie. Polls n (if not NULL) after each PK_POLL_BYTES of input and stops when it says so.
 * PGN_END, or the failure (PGN_E_NOMEM when s could not grow). */
pgn_status pk_scan_all(pgn_reader *r, pk_tscan *s, pk_tspan *span, pk_nogil *n);

/* The scans of a source's parts joined: all holds the names and the values of every part, in
 * order of first appearance (its columns have no codes), part p's column i is all's column
 * col[p][i] and its value k all's value val[p][i][k]. One scan is its own join (all is it, the
 * maps are NULL: the identity). */
typedef struct pk_tjoin {
    pk_tscan *part; /* nparts scans, in stream order */
    size_t nparts;
    pk_tscan *all;
    uint32_t **col;
    uint32_t ***val;
    uint64_t rows;
} pk_tjoin;

/* Joins the n scans at part (an array from malloc, which j takes); -1 when out of memory (j then
 * frees them). */
int pk_join_build(pk_tjoin *j, pk_tscan *part, size_t n);

/* The codes of j's column c in every row (-1 where the game has no such tag). */
void pk_join_codes(const pk_tjoin *j, size_t c, int32_t *out);

/* Frees the codes and the values of j's column c once they are made into Python objects, so that
 * the next column's buffers take their memory rather than fresh pages (a fresh page costs about
 * 16 us on this VM); the column has neither after. Only when every column's codes are one chunk
 * (at most PK_CHUNK rows): the chunks of more rows lie between other columns' and take no buffer
 * of a column's size, and freed all at once at the end they make one region for the frame's
 * arrays. */
void pk_join_drop(pk_tjoin *j, size_t c);

void pk_join_free(pk_tjoin *j);

/* ---- a source read in parts, each by its own reader on its own thread (tagparts.c) ---- */

typedef struct pk_tag_source {
    const char *path; /* a file's path (the file system's bytes), or NULL: the len bytes at data */
    const char *data;
    size_t len;
    uint64_t size;        /* its size in bytes (0: unknown, as for a pipe: read in one part) */
    pgn_reader_opts opts; /* the readers' options (encoding, flags); no diagnostic callback */
    uint64_t range_start, range_end; /* as pgn_reader_opts' (0, 0: all of it) */
    size_t jobs;                     /* at most this many parts (threads) */
    size_t part_bytes;               /* and at least this many bytes in each */
    int guess; /* give a part the encoding state the last part read told (else AUTO: the worst
                  case of the threads' timing, for tests) */
} pk_tag_source;

/* Scans src into j, in parts when it holds at least 2 * part_bytes: [start, end) is cut into
 * equal byte ranges, read with the library's range semantics on up to jobs threads, and their
 * scans joined in order. A part that one reader would have come to in another encoding state
 * (pgn_reader_encoding_state) is read again from that state. When the parts do not read every
 * game once as one reader would (a range that starts inside a comment holding a tag-like line, a
 * game without tags at a cut, a UTF-16 stream), the source is read again with one reader.
 * *parts: the number of parts of the read that counted (1 after such a fallback). n is polled as
 * pk_scan_all polls it. PGN_END, PGN_E_IO when the path cannot be opened (errno set), or the
 * failure. */
pgn_status pk_scan_source(const pk_tag_source *src, pk_tjoin *j, size_t *parts, pk_nogil *n);

#endif
