/* SPDX-License-Identifier: MIT */
/* Internal state of the JSON reader: json_reader.c (bytes, tokens, one game object as a small
 * tree of values) and json_game.c (that tree checked against the game schema, moves replayed). */
#ifndef PGNKIT_JSON_INTERNAL_H
#define PGNKIT_JSON_INTERNAL_H

#include "../game/arena.h"
#include "pgnkit/json_reader.h"

enum { JV_NULL, JV_FALSE, JV_TRUE, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

/* A JSON value of the game being read, in the reader's arena. Strings are NUL-terminated. */
typedef struct jval jval;
struct jval {
    jval *next;      /* next element of the array, next member of the object */
    jval *first;     /* first element or member (arrays and objects) */
    const char *key; /* the member name (NUL-terminated), or NULL */
    size_t key_len;
    const char *str; /* decoded string, or the number's text */
    size_t len;
    size_t raw_len; /* bytes between the quotes in the input (== len: no escapes) */
    pgn_loc at;     /* where the value starts (the quote of a string) */
    pgn_loc key_at;
    uint8_t type;
};

/* An open array or object while parsing. */
typedef struct jopen {
    jval *v;
    jval *last;   /* its last child so far */
    uint8_t want; /* what comes next: see json_reader.c */
} jopen;

struct pgn_json_reader {
    pgn_json_reader_opts opts;
    pgn_allocator alloc;
    pgn_read_fn read;
    void *ctx;
    /* the input window: the caller's memory (new_mem) or a buffer refilled by read */
    const char *win;
    char *own; /* the buffer, NULL for memory */
    size_t win_len, win_pos;
    uint64_t win_offset; /* stream offset of win[0] */
    uint8_t eof, io_error, done, last_cr;
    uint32_t line;
    uint64_t line_start; /* offset where the current line begins */
    /* the token scratch: a string's decoded bytes or a number's text */
    char *sbuf;
    size_t slen, scap;
    /* one game's values, and the parser's stack of open containers */
    arena arena;
    jopen *stack;
    size_t depth, stack_cap;
    uint8_t top; /* outside games: see json_reader.c */
    /* json_game.c: frames of the lines being replayed */
    void *lines;
    size_t lines_cap;
    const char *detail; /* what was wrong, for the last diagnostic */
    uint64_t games, errors;
};

/* json_reader.c: reports an error diagnostic at `at` with an excerpt and a reason; returns code. */
pgn_status pgnk_json_error(pgn_json_reader *r, pgn_status code, pgn_loc at, const char *excerpt,
                           size_t len, const char *detail);

/* json_game.c: fills game from the game object v. PGN_OK or the error already reported. */
pgn_status pgnk_json_build_game(pgn_json_reader *r, const jval *v, pgn_game *game);

#endif
