/* SPDX-License-Identifier: MIT */
/* pgnkit dedupe's parts (cmd_dedupe.c: options and the first pass; dedupe_line.c: the main line
 * read by a visitor and its record in the spool; dedupe_out.c: the spooled text of --keep richest,
 * its second pass and the --report file). */
#ifndef PGNKIT_CLI_DEDUPE_H
#define PGNKIT_CLI_DEDUPE_H

#include "cli.h"
#include "parallel.h"

typedef struct rep { /* a distinct game: where its first copy's spool record is, the copy kept */
    uint64_t start;
    uint64_t first, keep; /* ordinals of the first copy and of the kept one */
    uint32_t len, rich;
    const char *input; /* its input's name */
    uint32_t line;
} rep;

typedef struct member { /* a duplicate, for --report */
    uint64_t cluster, ordinal;
    const char *input;
    uint32_t line;
} member;

/* The main line of the game being read (--keep first: no tree), as a record that two copies
 * share byte for byte exactly when pgn_game_same_line holds: the start position's board, side,
 * castling rights and identity key, the number of plies, the moves, then with --by moves+tags
 * the four normalised tags (each a 2-byte length and its bytes). */
typedef struct dd_line {
    uint32_t flags;
    unsigned depth; /* of variations */
    uint64_t key;   /* pgn_line_key_* */
    uint32_t plies;
    pgn_pos start; /* the last start position (as the reader gave it), its identity and line keys:
                      most games start where the one before did */
    uint64_t start_id, start_key;
    int have_start;
    unsigned char *rec, *back; /* the record, and an earlier one read back from the spool */
    size_t len, cap, back_cap;
    char tags[4][PGN_DEDUPE_TAG_MAX];
    size_t tag_len[4];
    int nomem;
    /* the spool's first records, up to DD_SPOOL_MEM bytes, stay here and are compared in place
     * (no read back); the others go to the spool file, at DD_SPOOL_MEM + their offset there */
    unsigned char *mem;
    size_t mem_len, mem_cap;
    int mem_full;
} dd_line;

/* Bytes of line records dedupe keeps in memory (a constant, whatever the input's size). */
#define DD_SPOOL_MEM ((size_t)4 << 20)

typedef struct dd_state {
    cli_run *run;
    FILE *spool; /* --keep first: the distinct games' line records; richest: every game's text */
    uint64_t spooled;
    pgn_dedupe *set;
    pgn_game *scratch;
    uint32_t flags;
    int richest;
    FILE *out, *dupes, *report;
    rep *reps;
    size_t nreps, capreps;
    member *members;
    size_t nmembers, capmembers;
    char **names; /* the inputs' names the records point to (an input's own goes with it) */
    size_t nnames, capnames;
    uint64_t *kept; /* --keep richest: the ordinals of the kept copies, sorted */
    size_t nkept, next_kept;
    uint64_t broken, dropped;
    dd_line line;
} dd_state;

/* Grows *p (n used of *cap elements of size sz) to hold one more; 0 when out of memory. */
int dd_reserve(void **p, size_t n, size_t *cap, size_t sz);

/* The visitor that builds s->line (user: the dd_line). */
const pgn_visitor *dd_line_visitor(void);
/* Looks the line just read (g's) up in s->set, confirming each equal key against the spooled
 * record; a new line's record is appended to the spool (*at, *len: where). PGN_OK, PGN_E_NOMEM or
 * PGN_E_IO.
 */
pgn_status dd_line_add(dd_state *s, const cli_game *g, uint64_t *cluster, int *is_new, uint64_t *at,
                       uint32_t *len);
/* -j N (cli/parallel.h): the workers read the lines (a dd_line each) and send g's key and record
 * as its product, which dd_line_add then takes instead of s->line's own. */
const cli_par_hooks *dd_line_hooks(void);
void dd_line_free(dd_line *l);

/* --keep richest: appends g's text to the spool (*at: where its bytes start). */
pgn_status dd_spool(dd_state *s, const cli_game *g, uint64_t *at);
/* --keep richest: pgn_dedupe_same_fn, the first copy of cluster ref read back and compared. */
int dd_same_as_rep(void *ctx, uint64_t ref, const pgn_game *game);
/* --keep richest: the second pass over the spool (kept copies and broken games to the output,
 * the others to --dupes). */
pgn_status dd_second_pass(dd_state *s);
/* --report: the clusters of two or more copies, as JSON. */
void dd_write_report(dd_state *s);

#endif
