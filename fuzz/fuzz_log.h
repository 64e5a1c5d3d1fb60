/* SPDX-License-Identifier: MIT */
/* A log of everything a reading reports (fuzz_reader, tests/unit/test_chunked.c): each callback a
 * line of text (games, tags, moves with their place and position, comments, NAGs, variations,
 * results and summaries, diagnostics with line, column and game number), for a kind of reading:
 * no visitor, without boards, the tree builder (its games written out), a loud visitor, one
 * under PGN_READ_MOVE_AFTER, and under PGN_READ_MOVE_GATE (select's reading) a visitor whose
 * gate opens and closes, or stays closed; the visitors that lg_answer say STOP or SKIP now and then
 * as a seed picks. The text comes from memory or through a read callback in chunks of a size
 * (1, 2, 3...), as much as asked, or random sizes: reading it whole or in chunks must give the
 * same log (STYLE C7). */
#ifndef PGNKIT_FUZZ_LOG_H
#define PGNKIT_FUZZ_LOG_H

#include <pgnkit.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void
lg_printf(pgn_membuf *b, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) {
        (void)pgn_membuf_write(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
    }
}

static inline void lg_put(pgn_membuf *b, const void *p, size_t n) {
    if (n) {
        (void)pgn_membuf_write(b, p, n);
    }
}

/* ---- the input, in chunks ---- */

typedef struct fz_feed {
    const char *p;
    size_t len, at, step; /* step 0: as much as asked; SIZE_MAX: random sizes */
    uint64_t rng;
} fz_feed;

static inline size_t lg_feed_random(fz_feed *f) {
    f->rng = f->rng * 6364136223846793005u + 1442695040888963407u;
    unsigned r = (unsigned)(f->rng >> 33);
    switch (r % 4) { /* mostly short, now and then up to a window's size */
    case 0: return 1 + (r >> 2) % 4;
    case 1: return 1 + (r >> 2) % 70;
    case 2: return 1 + (r >> 2) % 700;
    default: return 1 + (r >> 2) % 70000;
    }
}

static inline ptrdiff_t lg_feed_read(void *ctx, void *dst, size_t cap) {
    fz_feed *f = ctx;
    size_t n = f->len - f->at, want = f->step == SIZE_MAX ? lg_feed_random(f) : f->step;
    if (want && n > want) {
        n = want;
    }
    if (n > cap) {
        n = cap;
    }
    memcpy(dst, f->p + f->at, n);
    f->at += n;
    return (ptrdiff_t)n;
}

/* ---- the log ---- */

enum fz_kind { FZ_NONE, FZ_SYNTAX, FZ_TREE, FZ_LOUD, FZ_AFTER, FZ_GATED, FZ_CLOSED, FZ_KINDS };
static const char *const fz_kind_names[FZ_KINDS] = {
    "no visitor", "syntax only", "tree builder", "loud", "after", "gated", "closed gate"};

typedef struct fz_logger {
    pgn_move_gate gate; /* first: the reader's, under PGN_READ_MOVE_GATE */
    pgn_membuf out;
    enum fz_kind kind;
    unsigned seed, calls, games;
} fz_logger;

static inline void lg_str(fz_logger *l, const char *what, pgn_str s) {
    lg_printf(&l->out, "%s %zu:", what, s.len);
    lg_put(&l->out, s.ptr, s.len);
    lg_put(&l->out, "\n", 1);
}

static inline void lg_loc(fz_logger *l, pgn_loc at) {
    lg_printf(&l->out, " @%llu %u:%u", (unsigned long long)at.offset, at.line, at.column);
}

static inline void lg_pos(fz_logger *l, const pgn_pos *pos) {
    if (pos) {
        lg_printf(&l->out, " [%016llx %016llx %u %u %u %u]", (unsigned long long)pos->by_color[0],
                  (unsigned long long)pos->by_color[1], pos->side, pos->ep, pos->halfmove,
                  (unsigned)pos->fullmove);
    }
}

static inline void lg_diag(void *ctx, const pgn_diag *d) {
    fz_logger *l = ctx;
    lg_printf(&l->out, "diag %s sev %d", pgn_status_name(d->code), (int)d->severity);
    lg_loc(l, d->at);
    lg_printf(&l->out, " game %llu '%s'\n", (unsigned long long)d->game, d->token);
}

/* The answer of the visitors that answer (loud, after, gated, closed gate) at their call-th
 * callback: STOP or SKIP now and then, how often as the seed picks; what (a move, a comment, a
 * variation's start, the end of the tags) may change it. */
static inline pgn_flow lg_answer(fz_logger *l, unsigned what) {
    l->calls++;
    if (l->kind < FZ_LOUD) {
        return PGN_FLOW_CONTINUE;
    }
    unsigned h = (l->calls * 2654435761u + l->seed + what) % (23 + l->seed % 89);
    return h == 1 ? PGN_FLOW_STOP : h == 0 ? PGN_FLOW_SKIP : PGN_FLOW_CONTINUE;
}

static inline void lg_passed(fz_logger *l) {
    if (l->kind == FZ_GATED || l->kind == FZ_CLOSED) {
        lg_printf(&l->out, " passed %u", l->gate.passed);
        l->gate.passed = 0;
    }
}

/* The gate's pawn rules, in some games: the pawns of the d and e files watched as they stand,
 * and a missing pawn of c7 opening the watched squares. */
static inline void lg_gate_pawns(fz_logger *l, const pgn_pos *pos) {
    if (pos == NULL) {
        return;
    }
    uint64_t p = pos->by_type[PGN_PAWN];
    l->gate.pawns_open = l->games % 4 < 2;
    l->gate.watch[0] = l->gate.watch[1] = UINT64_C(0x1818181818181818);
    l->gate.pawns[0] = p & pos->by_color[PGN_WHITE];
    l->gate.pawns[1] = p & pos->by_color[PGN_BLACK];
    l->gate.absent_open = l->games % 4 == 1;
    l->gate.absent[1] = UINT64_C(1) << 50;
}

static inline pgn_flow lg_begin(void *user, pgn_loc at) {
    fz_logger *l = user;
    lg_printf(&l->out, "begin");
    lg_loc(l, at);
    lg_put(&l->out, "\n", 1);
    return PGN_FLOW_CONTINUE;
}

static inline pgn_flow lg_tag(void *user, pgn_str name, pgn_str value) {
    fz_logger *l = user;
    lg_str(l, "tag", name);
    lg_str(l, "value", value);
    return PGN_FLOW_CONTINUE;
}

static inline pgn_flow lg_end_tags(void *user, const pgn_pos *start) {
    fz_logger *l = user;
    lg_printf(&l->out, "end_tags");
    lg_pos(l, start);
    lg_put(&l->out, "\n", 1);
    l->games++;
    if (l->kind == FZ_GATED) { /* open, but d4 and e5 watched; closed in every third game */
        l->gate.open = l->games % 3 != 0;
        l->gate.squares = (UINT64_C(1) << 27) | (UINT64_C(1) << 36);
        lg_gate_pawns(l, start);
    }
    return l->games % 17 == 0 ? lg_answer(l, 3) : PGN_FLOW_CONTINUE;
}

static inline pgn_flow lg_move(void *user, const pgn_pos *pos, pgn_move mv, pgn_str san,
                               pgn_loc at) {
    fz_logger *l = user;
    lg_printf(&l->out, "move %04x ", (unsigned)mv);
    lg_put(&l->out, san.ptr, san.len);
    lg_loc(l, at);
    lg_pos(l, pos);
    lg_passed(l);
    lg_put(&l->out, "\n", 1);
    if (l->kind == FZ_GATED) { /* closed now and then, and its squares change */
        l->gate.open = l->calls % 5 != 0;
        l->gate.squares ^= UINT64_C(1) << PGN_MOVE_TO(mv);
        lg_gate_pawns(l, pos);
    }
    return lg_answer(l, 0);
}

static inline pgn_flow lg_comment(void *user, pgn_str text) {
    fz_logger *l = user;
    lg_str(l, "comment", text);
    return lg_answer(l, 1);
}

static inline pgn_flow lg_nag(void *user, unsigned nag) {
    fz_logger *l = user;
    lg_printf(&l->out, "nag %u\n", nag);
    return PGN_FLOW_CONTINUE;
}

static inline pgn_flow lg_begin_var(void *user) {
    fz_logger *l = user;
    lg_printf(&l->out, "(\n");
    return lg_answer(l, 2);
}

static inline pgn_flow lg_end_var(void *user) {
    fz_logger *l = user;
    lg_printf(&l->out, ")\n");
    return PGN_FLOW_CONTINUE;
}

static inline void lg_summary(fz_logger *l, const char *what, const pgn_game_summary *s) {
    lg_printf(&l->out, "%s %llu", what, (unsigned long long)s->game);
    lg_loc(l, s->start);
    lg_printf(&l->out, " end %llu errors %u warnings %u plies %u broken %d marker %d",
              (unsigned long long)s->end_offset, s->errors, s->warnings, s->plies, s->broken,
              (int)s->marker);
    if (s->errors) {
        lg_printf(&l->out, " first %s", pgn_status_name(s->first_error.code));
        lg_loc(l, s->first_error.at);
    }
    lg_pos(l, s->final_pos);
    lg_put(&l->out, "\n", 1);
}

static inline pgn_flow lg_end_game(void *user, pgn_result result, const pgn_game_summary *s) {
    fz_logger *l = user;
    lg_printf(&l->out, "end_game %d", (int)result);
    lg_passed(l);
    lg_put(&l->out, "\n", 1);
    lg_summary(l, "summary", s);
    return PGN_FLOW_CONTINUE;
}

static const pgn_visitor lg_loud = {lg_begin, lg_tag,       lg_end_tags, lg_move,    lg_comment,
                                    lg_nag,   lg_begin_var, lg_end_var,  lg_end_game};
static const pgn_visitor lg_moves_only = {NULL, NULL, lg_end_tags, lg_move,    NULL,
                                          NULL, NULL, NULL,        lg_end_game};
static const pgn_visitor lg_nothing = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

static inline uint32_t lg_kind_flags(enum fz_kind k) {
    switch (k) {
    case FZ_SYNTAX: return PGN_READ_NO_BOARD;
    case FZ_AFTER: return PGN_READ_MOVE_AFTER;
    case FZ_GATED:
    case FZ_CLOSED: return PGN_READ_MOVE_AFTER | PGN_READ_MOVE_GATE | PGN_READ_NO_KEYS;
    default: return 0;
    }
}

/* Reads every game of the tree builder, each written out (with boards: without, its nodes hold no
 * moves) with its diagnostics. */
static inline pgn_status lg_read_trees(fz_logger *l, pgn_reader *r, int boards) {
    pgn_game *g = NULL;
    pgn_writer *w = NULL;
    pgn_status st = pgn_game_new(&g, NULL);
    if (st == PGN_OK) {
        st = pgn_writer_new(&w, NULL, pgn_membuf_write, &l->out);
    }
    while (st == PGN_OK) {
        st = pgn_reader_next(r, g);
        if (st != PGN_OK) {
            break;
        }
        lg_summary(l, "game", pgn_reader_summary(r));
        lg_printf(&l->out, "tree broken %d diags %zu\n", pgn_game_broken(g),
                  pgn_game_diag_count(g, NULL));
        st = boards ? pgn_writer_write(w, g) : PGN_OK;
    }
    pgn_writer_free(w);
    pgn_game_free(g);
    return st;
}

/* Steps of fz_log_read: the text from memory (no read callback). */
#define FZ_WHOLE ((size_t)1 << 62)

/* The log of reading text as kind with the options base (NULL: the defaults; its diagnostics
 * callback is the log's, the kind's flags are added), from memory (step FZ_WHOLE) or through a
 * read callback step bytes at a time (0: as much as asked; SIZE_MAX: random sizes, from
 * feed_seed). seed picks the visitors' answers. out (zeroed) receives the log. */
static inline void fz_log_read(pgn_membuf *out, const char *text, size_t len,
                               const pgn_reader_opts *base, enum fz_kind kind, size_t step,
                               unsigned seed, uint64_t feed_seed) {
    fz_logger l;
    memset(&l, 0, sizeof l);
    l.kind = kind;
    l.seed = seed;
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    if (base) {
        o = *base;
    }
    o.flags |= lg_kind_flags(kind);
    o.on_diag = lg_diag;
    o.diag_ctx = &l;
    fz_feed f = {text, len, 0, step, feed_seed};
    pgn_reader *r = NULL;
    pgn_status st = step == FZ_WHOLE ? pgn_reader_new_mem(&r, &o, text, len)
                                     : pgn_reader_new(&r, &o, lg_feed_read, &f);
    if (st == PGN_OK && kind == FZ_TREE) {
        st = lg_read_trees(&l, r, !(o.flags & PGN_READ_NO_BOARD));
    }
    const pgn_visitor *v = kind == FZ_NONE || kind == FZ_SYNTAX  ? &lg_nothing
                           : kind == FZ_LOUD || kind == FZ_AFTER ? &lg_loud
                                                                 : &lg_moves_only;
    while (st == PGN_OK) {
        st = pgn_reader_visit(r, v, &l);
        if (st == PGN_OK) {
            lg_summary(&l, "visited", pgn_reader_summary(r));
        }
    }
    lg_printf(&l.out, "status %s\n", pgn_status_name(st));
    pgn_reader_free(r);
    *out = l.out;
}

#endif
