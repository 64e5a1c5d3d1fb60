/* SPDX-License-Identifier: MIT */
/* The PGN export writer's state, shared by its two files: pgn_writer.c (the buffer, the movetext)
 * and pgn_writer_tags.c (the tag section). Internal header. */
#ifndef PGNKIT_EXPORT_PGN_WRITER_INTERNAL_H
#define PGNKIT_EXPORT_PGN_WRITER_INTERNAL_H

#include "pgnkit/writer.h"

#include "../base/alloc.h"
#include "../game/game_internal.h"
#include "sink.h"

#define FLUSH_AT ((size_t)1 << 16) /* complete lines beyond this are sent to the callback early */

typedef struct tag_ref {
    pgn_str name, value;
    size_t order; /* tie-break, so that the output never depends on qsort's stability */
} tag_ref;

struct pgn_writer {
    pgnk_sink sink; /* first: allocator, callback, iterator (sink.h) */
    uint32_t flags, width, fen_flags;
    pgn_nag_style nag_style;
    pgn_lang lang;
    pgnk_buf out;      /* the game being composed */
    size_t line_start; /* offset in buf of the current movetext line */
    size_t unit_start; /* offset of the current unit: a token plus what is glued to it */
    int open_paren;    /* a glued "(" waits for the next token */
    int need_number;   /* a black move now needs "N..." (PGN §8.2.2.2) */
    int kept_san;      /* this game's nodes all have their SAN: no board is kept up to date */
    pgn_status err;    /* the first failure while writing this game; then everything stops */
    tag_ref *tags;
    size_t tags_cap;
    char *clean; /* a comment without its braces (write_comment) */
    size_t clean_cap;
};

/* Room for n more bytes in w->out; 0 (and w->err set) when it cannot grow. */
int pgnk_writer_room(pgn_writer *w, size_t n);

/* pgn_writer_run.c. From the walk's current move on, the run of moves without comment, NAG or
 * variation along its line written into w->out, the walk then moved to its last move; 0 when the
 * first is not written (the caller writes it token by token). */
int pgnk_writer_simple_run(pgn_writer *w, pgn_iter *it);
/* The same for the packed moves e[0..n), the first played by side at move fullmove: how many were
 * written (0: none, as for pgnk_writer_simple_run). */
size_t pgnk_writer_packed_run(pgn_writer *w, const pgnk_packed *e, size_t n, unsigned side,
                              uint32_t fullmove);

/* The tag section (PGN §8.1.1) into w->out; *marker: the termination marker the movetext ends
 * with. */
void pgnk_writer_tags(pgn_writer *w, const pgn_game *game, const char **marker);

#endif
