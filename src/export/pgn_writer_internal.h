/* SPDX-License-Identifier: MIT */
/* The PGN export writer's state, shared by its two files: pgn_writer.c (the buffer, the movetext)
 * and pgn_writer_tags.c (the tag section). Internal header. */
#ifndef PGNKIT_EXPORT_PGN_WRITER_INTERNAL_H
#define PGNKIT_EXPORT_PGN_WRITER_INTERNAL_H

#include "pgnkit/writer.h"

#include "../base/alloc.h"
#include "sink.h"

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

/* The tag section (PGN §8.1.1) into w->out; *marker: the termination marker the movetext ends
 * with. */
void pgnk_writer_tags(pgn_writer *w, const pgn_game *game, const char **marker);

#endif
