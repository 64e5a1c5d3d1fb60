/* SPDX-License-Identifier: MIT */
/* The export writer's runs of plain moves (PGN §8.2.1 line layout, §8.2.2.2 move numbers): moves
 * without comment, NAG or variation, written straight into the buffer and their lines made
 * afterwards, from the tree (pgnk_writer_simple_run) or from a packed main line
 * (pgnk_writer_packed_run). pgn_writer.c writes everything else. */
#include <string.h>

#include "../game/game_internal.h"
#include "pgn_writer_internal.h"

/* The buffer's cursor while pgnk_writer_simple_run writes, in locals: a store through a char
 * pointer may alias anything, so fields of w would be reloaded after every byte stored. */
typedef struct run_cursor {
    char *buf;
    size_t len, cap, line; /* as w->out.len, w->out.cap, w->line_start */
    size_t end;            /* a move may start while len < end: 64 bytes of room */
    size_t from;           /* the run's first byte: a space from here on is one it wrote */
    size_t width;
    size_t digits; /* the move number's digits in num */
    char num[16];  /* the move number being written, its digits and "..." (run_count) */
} run_cursor;

static inline void run_end(run_cursor *c) {
    c->end = c->cap >= 64 ? c->cap - 63 : 0;
}

/* The run's tokens are written with one space before each (none before the first when the line is
 * empty), and its lines made afterwards: the greedy fill of unit_open breaks a line at the last of
 * the run's spaces at or before line + width (the token before it ends within the width, the one
 * after it does not), or at the run's first space when the line's text before the run already
 * reaches past the width. A line whose first token is wider than the width (no space of the run
 * in reach) ends at the next space. Returns the last line's start; the lines up to end are made. */
static size_t run_lines(char *buf, size_t line, size_t end, size_t from, size_t width) {
    while (end - line > width) {
        size_t x = line + width, lo = line > from ? line : from, s = x;
        if (x < from) {
            if (from >= end) {
                break; /* nothing of the run written yet */
            }
            s = from; /* the space before the run's first token (the line held text) */
        } else {
            while (s > lo && buf[s] != ' ') {
                s--;
            }
            if (buf[s] != ' ') { /* a token wider than the width alone on its line */
                s = x;
                while (s < end && buf[s] != ' ') {
                    s++;
                }
                if (s == end) {
                    break;
                }
            }
        }
        buf[s] = '\n';
        line = s + 1;
    }
    return line;
}

/* The move number v (below 10^8) in c->num, its digits followed by "..." (run_count may add a
 * digit: num has room for 13 bytes, far more moves than a run could hold). */
static void run_set_number(run_cursor *c, uint32_t v) {
    char d[16];
    size_t n = sizeof d;
    do {
        d[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    c->digits = sizeof d - n;
    memset(c->num, 0, sizeof c->num); /* all 16 are stored by run_number */
    memcpy(c->num, d + n, c->digits);
    memcpy(c->num + c->digits, "...", 3);
}

/* The next move number: its last digit counted up (a carry now and then, a digit more rarely). */
static inline void run_count(run_cursor *c) {
    size_t i = c->digits;
    while (i > 0 && c->num[i - 1] == '9') {
        c->num[--i] = '0';
    }
    if (i > 0) {
        c->num[i - 1]++;
        return;
    }
    memmove(c->num + 1, c->num, c->digits + 3);
    c->num[0] = '1';
    c->digits++;
}

/* The move number and its "." or "..." (dots: 1 or 3), after a space when sep: the 16 bytes of
 * num stored, the first digits + dots of them kept (64 bytes of room were made). */
static inline void run_number(run_cursor *c, size_t sep, size_t dots) {
    c->buf[c->len] = ' ';
    c->len += sep;
    memcpy(c->buf + c->len, c->num, sizeof c->num);
    c->len += c->digits + dots;
}

/* A move pgnk_writer_simple_run writes: no comment, no NAG (its SAN kept: w->kept_san). */
static inline int simple_node(const pgn_node *node) {
    return (node->pre.len | node->post.len | node->nag_count) == 0;
}

/* A SAN of 8 bytes stored, len of them kept, after a space when sep (one copy of all 8). */
static inline void run_word(run_cursor *c, const char san[8], size_t len, size_t sep) {
    c->buf[c->len] = ' ';
    c->len += sep;
    memcpy(c->buf + c->len, san, 8);
    c->len += len;
}

/* The move's SAN, after a space when sep. */
static inline void run_san(run_cursor *c, const pgn_node *node, size_t sep) {
    run_word(c, node->san, node->san_len, sep);
}

static inline int run_room(pgn_writer *w, run_cursor *c);

/* Whether the run goes on from *node to its child (simple, *node without variations, room made):
 * then *node is the child, one ply more. */
static inline int run_next(pgn_writer *w, const pgn_iter *it, run_cursor *c, pgn_node **node,
                           size_t *plies) {
    pgn_node *next = (*node)->child;
    if (next == NULL || !simple_node(next) || pgnk_iter_node_has_variations(it, *node) ||
        !run_room(w, c)) {
        return 0;
    }
    *node = next;
    ++*plies;
    return 1;
}

/* Whether the run may write one more move: room made (64 bytes: the longest move number, 9
 * digits, "...", the SAN, two spaces), and no flush due (the lines so far made first). */
static inline int run_room(pgn_writer *w, run_cursor *c) {
    if (c->len < c->end) {
        return 1;
    }
    c->line = run_lines(c->buf, c->line, c->len, c->from, c->width);
    if (c->line >= FLUSH_AT) {
        return 0;
    }
    w->out.len = c->len;
    if (!pgnk_writer_room(w, 64)) {
        return 0;
    }
    c->buf = w->out.ptr;
    c->cap = w->out.cap;
    run_end(c);
    return 1;
}

/* From the walk's current move on, the run of common moves along its line (simple_node) written
 * straight into the buffer: numbers and SANs stored with a space before each, the lines then made
 * from the spaces (run_lines); the walk is then moved to the last one written
 * (pgnk_iter_skip_main). A move with variations ends the run (the walk then opens them); so does
 * one that is not simple, or a flush due. 0 when the first move is not written (not simple, a "("
 * waits, a move number of 9 digits, or the buffer could not grow): the general path then writes
 * it, and reports. */
int pgnk_writer_simple_run(pgn_writer *w, pgn_iter *it) {
    pgn_node *node = it->node;
    run_cursor c;
    size_t plies = 0, sep;
    unsigned side = it->side;
    if (!w->kept_san || w->open_paren || w->err != PGN_OK || !simple_node(node) ||
        it->fullmove >= 100000000 || w->line_start >= FLUSH_AT) {
        return 0; /* (a run adds at most a few thousand moves: 9 digits at most) */
    }
    c.buf = w->out.ptr;
    c.len = w->out.len;
    c.cap = w->out.cap;
    c.line = w->line_start;
    c.from = c.len;
    c.width = w->width;
    run_end(&c);
    if (!run_room(w, &c)) {
        return 0;
    }
    run_set_number(&c, it->fullmove);
    sep = c.len > c.line; /* no space before the first token of a line */
    if (side == PGN_BLACK && w->need_number) {
        run_number(&c, sep, 3);
        sep = 1;
    }
    for (;;) { /* a move number, White's move, Black's move */
        if (side == PGN_WHITE) {
            run_number(&c, sep, 1);
            run_san(&c, node, 1);
            if (!run_next(w, it, &c, &node, &plies)) {
                break;
            }
            sep = 1;
        }
        run_san(&c, node, sep);
        if (!run_next(w, it, &c, &node, &plies)) {
            break;
        }
        run_count(&c);
        side = PGN_WHITE;
        sep = 1;
    }
    w->out.len = c.len;
    w->line_start = run_lines(c.buf, c.line, c.len, c.from, c.width);
    w->unit_start = c.len - node->san_len; /* the last unit: the SAN */
    w->need_number = 0;
    pgnk_iter_skip_main(it, node, plies);
    return 1;
}

/* ---- a packed main line (PGN_READ_PACK_LINE): the bytes the tree's walk above would give ---- */

#define PACKED_CHUNK 2048 /* moves a packed run writes at most: room made once for all */
#define PACKED_ROOM 26    /* per move: a space and 8 bytes of SAN; a space and 16 of number */

static inline void run_packed_san(run_cursor *c, const pgnk_packed *e, size_t sep) {
    run_word(c, e->san, e->san_len, sep);
}

/* pgnk_writer_simple_run for the packed moves e[0..n), the first played by side at move
 * fullmove: up to PACKED_CHUNK of them, with the room for all made first (no test a move), the
 * lines made at the end. How many were written; 0 where pgnk_writer_simple_run writes none. */
size_t pgnk_writer_packed_run(pgn_writer *w, const pgnk_packed *e, size_t n, unsigned side,
                              uint32_t fullmove) {
    run_cursor c;
    size_t i = 0, sep;
    n = n < PACKED_CHUNK ? n : PACKED_CHUNK;
    if (!w->kept_san || w->open_paren || w->err != PGN_OK || fullmove >= 100000000 ||
        w->line_start >= FLUSH_AT || n == 0 || !pgnk_writer_room(w, n * PACKED_ROOM + 64)) {
        return 0;
    }
    c.buf = w->out.ptr;
    c.len = w->out.len;
    c.line = w->line_start;
    c.from = c.len;
    run_set_number(&c, fullmove);
    sep = c.len > c.line;
    if (side == PGN_BLACK) {
        if (w->need_number) {
            run_number(&c, sep, 3);
            sep = 1;
        }
        run_packed_san(&c, &e[0], sep);
        run_count(&c);
        i = sep = 1;
    }
    for (; i + 1 < n; i += 2) { /* a move number, White's move, Black's move */
        run_number(&c, sep, 1);
        run_packed_san(&c, &e[i], 1);
        run_packed_san(&c, &e[i + 1], 1);
        run_count(&c);
        sep = 1;
    }
    if (i < n) {
        run_number(&c, sep, 1);
        run_packed_san(&c, &e[i], 1);
    }
    w->out.len = c.len;
    w->line_start = run_lines(c.buf, c.line, c.len, c.from, w->width);
    w->unit_start = c.len - e[n - 1].san_len;
    w->need_number = 0;
    return n;
}
