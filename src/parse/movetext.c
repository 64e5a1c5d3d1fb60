/* SPDX-License-Identifier: MIT */
/* Movetext (PGN §8.2): move numbers, SAN resolved on the board, NAGs and suffix annotations
 * (§8.2.3.8, §8.2.4), comments, RAVs (§8.2.5) on an explicit stack, and the termination marker
 * (§8.2.6). An illegal move kills the rest of its line; the parent line goes on (STYLE C5). */
#include "movetext_internal.h"
#include "movetext_gate.h"
#include "movetext_scan.h"
#include "tag_skip.h"

#include "../base/utf8.h"
#include "../chess/san_play.h"

#include <string.h>

#include "pgnkit/annot.h"
#include "pgnkit/nag.h"

static void warn_bits(pgn_reader *r, uint32_t bits, pgn_loc at, pgn_str text) {
    for (unsigned b = 0; bits; b++, bits >>= 1) {
        if (bits & 1) {
            pgn_status code = (pgn_status)(PGN_W_CASTLE_ZERO + b);
            /* bc4 read as a bishop: no other language reads it so (movetext_lang.c) */
            r->lang_tainted |= code == PGN_W_LOWERCASE_PIECE;
            pgnk_reader_diag(r, code, at, text.ptr, text.len);
        }
    }
}

/* What a move callback answered: STOP ends the callbacks of the game (its moves are still
 * resolved); SKIP also skips the rest of the movetext, as a SKIP from end_tags does (no move is
 * resolved, nothing is reported but structure errors, the final position is not checked), and
 * end_game still comes. The move itself is played: the caller goes on with it. */
static void after_move(pgn_reader *r, mt_state *s, pgn_flow f) {
    if (f == PGN_FLOW_CONTINUE) {
        return;
    }
    r->v = NULL;
    if (f == PGN_FLOW_SKIP) {
        r->move_skip = 1;
        r->skip_movetext = 2;
        s->move_seen = 1;
        for (uint32_t d = 0; d < r->depth; d++) {
            r->levels[d].dead = 1;
        }
    }
}

/* Appends mv to the moves of the current line (for its variations). */
static inline void line_push(pgn_reader *r, pgn_move mv) {
    if (r->line_count == r->line_cap && !pgnk_mt_grow_line_moves(r)) {
        r->nomem = 1; /* the game fails (PGN_E_NOMEM); its variations are skipped (on_open) */
    } else {
        r->line_moves[r->line_count++] = mv;
    }
}

/* Records mv, which the side `side` played on line l, for the line's variations. */
static inline void record_on_line(pgn_reader *r, rav_level *l, pgn_move mv, uint8_t side) {
    line_push(r, mv);
    l->prev_side = side;
    l->has_move = 1;
    r->sum.plies += r->depth == 1;
}

/* Plays mv on line l (read in English or not), recording it for the line's variations. */
static inline void play_on_line(pgn_reader *r, mt_state *s, rav_level *l, pgn_move mv,
                                int english) {
    if (english) { /* promotions read in English: which languages agree (movetext_lang.c) */
        r->moves_or |= mv;
    }
    if (r->drop_warn && PGN_MOVE_IS_DROP(mv)) {
        pgnk_drop_warn(r); /* the game's first drop: it is crazyhouse (drop_ahead.c) */
    }
    uint8_t side = l->pos.side;
    if (s->keys) {
        pgn_pos_play(&l->pos, mv);
    } else {
        pgn_pos_play_unkeyed(&l->pos, mv); /* nobody looks at the key: save its updates */
    }
    record_on_line(r, l, mv, side);
}

/* Reports and plays the move res of token t (san: its text without a glued glyph). english: read
 * with English letters (a constant where inlined, so the English path pays nothing for it). */
static inline void played(pgn_reader *r, mt_state *s, rav_level *l, const token *t, pgn_str san,
                          const pgn_san_result *res, int english) {
    pgn_san_result other;
    if (res->warnings) {
        int k = english ? pgnk_mt_pawn_letter_split(r, s, l, t, res, &other) : 0;
        if (k == 1) {
            return;
        }
        san.ptr = t->ptr; /* (the window may have moved) */
        res = k == 2 ? &other : res;
        english = k == 2 ? 0 : english;
        warn_bits(r, res->warnings, t->at, san);
    }
    if (r->v && r->v->move) {
        /* no quirk, English: the text is canonical SAN */
        r->san_canonical = english && res->warnings == 0 && san.len <= 7;
        if (s->after) {
            play_on_line(r, s, l, res->move, english);
            /* the gate's pass as in the fast path (a move the window cut there comes here) */
            if (!(s->gate && r->depth == 1 && gate_pass(s->gate, &l->pos, res->move))) {
                after_move(r, s, r->v->move(r->user, &l->pos, res->move, san, t->at));
            }
            return;
        }
        after_move(r, s, r->v->move(r->user, &l->pos, res->move, san, t->at));
    }
    play_on_line(r, s, l, res->move, english);
}

/* Token t that English did not read (st; any error when the game is read in other languages):
 * in the game's other languages (movetext_lang.c), else as a move with a glyph glued to it.
 * Returns the glyph's length, as play_san. */
static COLD size_t play_other(pgn_reader *r, mt_state *s, rav_level *l, const token *t,
                              pgn_status st) {
    pgn_san_result res;
    char buf[64];
    token joined;
    t = pgnk_mt_promotion_glyph(r, l, t, &joined, buf, sizeof buf);
    size_t glued = 0;
    int english = 0;
    st = pgnk_lang_read(r, &l->pos, t->ptr, t->len, t->at, s->san_flags, st, &res);
    pgn_str san = {t->ptr, t->len}; /* (after: a read ahead may move the window) */
    s->board = r->lang_cands ? BOARD_OTHER : BOARD_ENGLISH;
    if (st != PGN_OK) {
        english = r->lang_cands == 0;
        glued = pgnk_mt_unplayable(r, s, l, t, st, &res);
        if (glued == PGNK_MT_REPAIRED) {
            played(r, s, l, t, (pgn_str){r->repair_san, strlen(r->repair_san)}, &res, 1);
            return 0;
        }
        if (glued == 0) {
            pgnk_lang_hint(r, &l->pos, t->ptr, t->len, t->at, st);
            return 0;
        }
        san.len -= glued;
    }
    played(r, s, l, t, san, &res, english);
    if (glued > 0 && t == &joined) { /* the caller's t is gone: the glyph is read here */
        token glyph = pgnk_mt_glyph_part(t, glued);
        if (!pgnk_mt_read_glyph(r, s, l, &glyph)) {
            pgnk_mt_skip_text(r, s, &glyph);
        }
        return 0;
    }
    return glued;
}

/* A move on a line without a board: not read, but the side to move is kept for glyphs. */
static inline void pass_move(pgn_reader *r, rav_level *l) {
    l->prev_side = l->pos.side;
    l->pos.side = (uint8_t)(l->pos.side ^ 1u);
    l->has_move = 1;
    r->sum.plies += r->depth == 1;
}

/* Plays the move of token t. Returns the length of an ASCII glyph glued to it (e4+/=), which the
 * caller reads after the move: none of these SAN forms is a move, so they are looked for only when
 * the whole token cannot be played. Without a board the token is not interpreted, glyph and all. */
static size_t play_san(pgn_reader *r, mt_state *s, rav_level *l, const token *t) {
    pgn_str san = {t->ptr, t->len};
    pgn_san_result res;
    if (s->board == BOARD_OTHER) { /* no English: movetext_lang.c */
        if (r->lang_fast && pgnk_lang_fast(r, &l->pos, t->ptr, t->len, s->san_flags, &res)) {
            played(r, s, l, t, san, &res, 0);
            return 0;
        }
        return play_other(r, s, l, t, PGN_E_BAD_SAN);
    }
    if (s->board != BOARD_ENGLISH) {
        pass_move(r, l);
        if (r->v && r->v->move) {
            after_move(r, s, r->v->move(r->user, NULL, PGN_MOVE_NONE, san, t->at));
        }
        return 0;
    }
    /* English first, by the fast path; other languages only when it fails */
    pgn_status st = pgn_san_parse(&l->pos, t->ptr, t->len, s->san_flags, &res);
    if (st == PGN_OK) {
        played(r, s, l, t, san, &res, 1);
        return 0;
    }
    return play_other(r, s, l, t, st);
}

/* Plays t, a token that could be a move (pgnk_mt_could_be_move), and a glyph glued to it. */
void pgnk_mt_play_token(pgn_reader *r, mt_state *s, rav_level *l, const token *t) {
    size_t glued = play_san(r, s, l, t);
    if (glued > 0) {
        token glyph = pgnk_mt_glyph_part(t, glued);
        if (!pgnk_mt_read_glyph(r, s, l, &glyph)) {
            pgnk_mt_skip_text(r, s, &glyph);
        }
    }
}

/* W_MOVE_NUMBER for the move number at window index st..end, on n's line (once per game). */
static COLD void number_warn(pgn_reader *r, mt_state *s, const fast_cur *n, size_t st, size_t end) {
    token t;
    fast_token(&t, n, st, end);
    s->number_warned = 1;
    pgnk_reader_diag(r, PGN_W_MOVE_NUMBER, t.at, t.ptr, t.len);
}

/* A move number, the digits at window index st..end, against the position's (W_MOVE_NUMBER, once
 * per game; its value is read only then). */
static inline void check_number(pgn_reader *r, mt_state *s, const rav_level *l, const fast_cur *n,
                                size_t st, size_t end) {
    s->prev_skipped = s->skipped;
    s->skipped = 0;
    if (!s->board || s->number_warned) {
        return;
    }
    if (number_value(n->b + st, (unsigned)(end - st)) != l->pos.fullmove) {
        number_warn(r, s, n, st, end);
    }
}

/* The move mv at window index st..end (on n's line), just played to l->pos, given to the move
 * visitor (PGN_READ_MOVE_AFTER). */
static inline void visit_played(pgn_reader *r, mt_state *s, rav_level *l, const fast_cur *n,
                                size_t st, size_t end, pgn_move mv) {
    pgn_str san = {(const char *)n->b + st, end - st};
    fast_token(&r->tok, n, st, end);
    r->san_canonical = san.len <= 7;
    after_move(r, s, r->v->move(r->user, &l->pos, mv, san, r->tok.at));
}

/* The move at window index st..end (on n's line) read and played in one pass, where nobody sees
 * it, the tree builder is the visitor (it never looks at the position before a move, and the SAN
 * the fast path reads is canonical: san_fast.c) or the visitor sees it only once played
 * (PGN_READ_MOVE_AFTER; safe: see fast_tokens). 1 if it was, 0 if another path must read it. */
static inline int one_pass(pgn_reader *r, mt_state *s, rav_level *l, const fast_cur *n, size_t st,
                           size_t end, int *safe) {
    pgn_str san = {(const char *)n->b + st, end - st};
    uint8_t side = l->pos.side;
    pgn_move mv = pgnk_san_play(&l->pos, san.ptr, san.len, safe);
    if (mv == PGN_MOVE_NONE) {
        return 0;
    }
    r->moves_or |= mv; /* (never a drop: standard chess) */
    record_on_line(r, l, mv, side);
    if (r->v == &pgnk_builder_visitor) {
        pgn_loc at = {n->base + st, n->line, (uint32_t)(n->base + st - n->line_off + 1)};
        after_move(r, s, pgnk_builder_move_read(r->user, mv, san, at));
    } else if (r->v && r->v->move) {
        visit_played(r, s, l, n, st, end, mv);
    }
    return 1;
}

/* Plays the move at window index st..end (on n's line) in the fast path. Returns 1 if the lexer
 * was not used (the common case: SAN read in English, or in the game's language by its letter
 * map); else the lexer was moved past the move first and the path may have read on (the caller
 * then loads its place again). The token (r->tok) is filled only when something may look at it:
 * a warning, a move visitor, another path. lead: the first bytes of the fast path's moves so far,
 * noted first (the languages a move may be read in agree with them, movetext_lang.c). */
static NOINLINE int fast_play_other(pgn_reader *r, mt_state *s, rav_level *l, const fast_cur *n,
                                    size_t st, size_t end, int *safe, uint64_t lead) {
    pgn_san_result res;
    token *t = &r->tok;
    pgn_str san = {(const char *)n->b + st, end - st};
    *safe = 0; /* another path plays the move */
    r->lead_seen |= lead;
    uint8_t mate = (uint8_t)(san.ptr[san.len - 1] == '#'); /* (the window may move) */
    if (s->board == BOARD_ENGLISH) {
        pgn_status ps = pgn_san_parse(&l->pos, san.ptr, san.len, s->san_flags, &res);
        if (ps == PGN_OK && !res.warnings && !(r->v && r->v->move)) {
            play_on_line(r, s, l, res.move, 1); /* nothing to report */
            return 1;
        }
        fast_token(t, n, st, end);
        if (ps == PGN_OK && !(res.warnings & PGN_WARN_BIT(PGN_W_PAWN_LETTER))) {
            played(r, s, l, t, san, &res, 1);
            return 1;
        }
        fast_store_past(&r->lx, n, end); /* (Pc3 may read ahead: movetext_lang.c) */
        if (ps == PGN_OK) {
            played(r, s, l, t, san, &res, 1);
            return pgnk_mt_handed_on(s, l, mate);
        }
        size_t glued = play_other(r, s, l, t, ps);
        if (glued > 0) { /* as play_token */
            token glyph = pgnk_mt_glyph_part(t, glued);
            if (!pgnk_mt_read_glyph(r, s, l, &glyph)) {
                pgnk_mt_skip_text(r, s, &glyph);
            }
        }
        return pgnk_mt_handed_on(s, l, mate);
    }
    if (s->board == 0 && !(r->v && r->v->move)) {
        pass_move(r, l); /* no board and no visitor: play_token would do no more */
        return 1;
    }
    fast_token(t, n, st, end);
    if (s->board == BOARD_OTHER && r->lang_fast &&
        pgnk_lang_fast(r, &l->pos, san.ptr, san.len, s->san_flags, &res)) {
        played(r, s, l, t, san, &res, 0);
        return 1;
    }
    if (s->board == 0) {
        pgnk_mt_play_token(r, s, l, t); /* no board: the token is not read */
        return 1;
    }
    fast_store_past(&r->lx, n, end);
    pgnk_mt_play_token(r, s, l, t);
    return pgnk_mt_handed_on(s, l, mate);
}

/* fast_play_other, but for the common case: English SAN read and played in one pass. */
static ALWAYS_INLINE int fast_play(pgn_reader *r, mt_state *s, rav_level *l, const fast_cur *n,
                                   size_t st, size_t end, int *safe, uint64_t lead) {
    if (s->board == BOARD_ENGLISH &&
        (!(r->v && r->v->move) || r->v == &pgnk_builder_visitor || s->after == 2) &&
        one_pass(r, s, l, n, st, end, safe)) {
        return 1;
    }
    return fast_play_other(r, s, l, n, st, end, safe, lead);
}

/* Moves place c past a token that ends at end, from the place n before it. */
static inline void fast_advance(fast_cur *c, const fast_cur *n, size_t end) {
    *c = *n;
    c->i = end;
    c->at_start = 0;
}

/* What fast_move left: go on; leave, the place past the move (LEAVE_PAST) or the lexer's (LEAVE:
 * the line died, the next token read); or load the lexer's place (RELOAD). STOP: fast_one's. */
enum { MOVE_ON, MOVE_LEAVE_PAST, MOVE_LEAVE, MOVE_RELOAD, MOVE_STOP };

/* What one_pass does with a move the fast path reads in English: QUIET_PLAY, nobody sees it (it
 * is only played); QUIET_BUILD, the tree builder is the visitor (played, then its node added by
 * pgnk_builder_move_read); GATED, the visitor sees the main line's moves its gate does not let
 * pass (gated_move); LOUD, another visitor. fast_move takes the first two inline (issue 32: the
 * general tests of fast_play and one_pass cost fmt about 25 instructions a move). */
enum { LOUD, QUIET_PLAY, QUIET_BUILD, GATED };
static inline int fast_quiet(const pgn_reader *r, const mt_state *s) {
    if (s->board != BOARD_ENGLISH) {
        return LOUD;
    }
    if (!(r->v && r->v->move)) {
        return QUIET_PLAY;
    }
    return r->v == &pgnk_builder_visitor ? QUIET_BUILD : s->gate && r->depth == 1 ? GATED : LOUD;
}

/* The notes record_on_line makes of a move (and fast_move of a move-shaped symbol) for the moves
 * fast_move played in one pass since the last call: made once for a run of them, as
 * movetext_pass.c makes them, rather than move by move (issue 32). Before anything else may look
 * at them: another path, fast_tokens' end. */
static inline void quiet_flush(pgn_reader *r, mt_state *s, rav_level *l) {
    if (s->quiet_plies) {
        l->prev_side = (uint8_t)(l->pos.side ^ 1u); /* (standard chess: the sides take turns) */
        l->has_move = 1;
        r->sum.plies += r->depth == 1 ? s->quiet_plies : 0;
        s->move_seen |= r->depth == 1;
        s->quiet_plies = 0;
    }
}

/* one_pass's builder step for the move mv just played from window index st..end: its node. */
static ALWAYS_INLINE void quiet_build(pgn_reader *r, mt_state *s, rav_level *l, const fast_cur *n,
                                      size_t st, size_t end, pgn_move mv, int *quiet) {
    pgn_str san = {(const char *)n->b + st, end - st};
    pgn_loc at = {n->base + st, n->line, (uint32_t)(n->base + st - n->line_off + 1)};
    pgn_flow f = pgnk_builder_move_read(r->user, mv, san, at);
    if (f != PGN_FLOW_CONTINUE) {
        quiet_flush(r, s, l); /* its notes before anything else looks */
        after_move(r, s, f);
        *quiet = fast_quiet(r, s);
    }
}

/* one_pass under the gate (PGN_READ_MOVE_AFTER and PGN_READ_MOVE_GATE, on the main line):
 * GATE_PASSED if the move was played and the gate let it pass, 1 if played and visited, 0 if
 * another path must read it. */
enum { GATE_PASSED = 2 };
static NOINLINE int gated_move(pgn_reader *r, mt_state *s, rav_level *l, const fast_cur *n,
                               size_t st, size_t end, int *safe) {
    uint8_t side = l->pos.side;
    pgn_move mv = pgnk_san_play(&l->pos, (const char *)n->b + st, end - st, safe);
    if (mv == PGN_MOVE_NONE) {
        return 0;
    }
    r->moves_or |= mv;
    record_on_line(r, l, mv, side);
    if (gate_pass(s->gate, &l->pos, mv)) {
        return GATE_PASSED;
    }
    visit_played(r, s, l, n, st, end, mv);
    return 1;
}

/* The move at window index st..end (on n's line), in the fast path: played, its first byte added
 * to *lead. *quiet: fast_quiet, as it was when the last path other than one_pass left. */
static ALWAYS_INLINE int fast_move(pgn_reader *r, mt_state *s, rav_level *l, const fast_cur *n,
                                   size_t st, size_t end, int *safe, uint64_t *lead, int *quiet) {
    s->prev_skipped = s->skipped;
    s->skipped = 0;
    unsigned char c0 = n->b[st]; /* the window may move on a look at the next token */
    int kept;
    if (*quiet == QUIET_PLAY || *quiet == QUIET_BUILD) {
        pgn_move mv = pgnk_san_play(&l->pos, (const char *)n->b + st, end - st, safe);
        if (mv != PGN_MOVE_NONE) { /* one_pass: no more than a node, the line lives on */
            r->moves_or |= mv;
            line_push(r, mv); /* record_on_line's other notes: quiet_flush */
            s->quiet_plies++;
            if (*quiet == QUIET_BUILD) {
                quiet_build(r, s, l, n, st, end, mv, quiet);
            }
            *lead |= (uint64_t)1 << (c0 & 63);
            return MOVE_ON;
        }
    }
    quiet_flush(r, s, l);
    s->move_seen |= r->depth == 1; /* a symbol shaped like a move (see read_movetext) */
    if (*quiet == GATED) {
        kept = gated_move(r, s, l, n, st, end, safe);
        if (kept == GATE_PASSED) {
            *lead |= (uint64_t)1 << (c0 & 63);
            return MOVE_ON;
        }
        kept = kept ? kept : fast_play_other(r, s, l, n, st, end, safe, *lead);
    } else if (*quiet) {
        kept = fast_play_other(r, s, l, n, st, end, safe, *lead);
    } else {
        kept = fast_play(r, s, l, n, st, end, safe, *lead);
    }
    *quiet = fast_quiet(r, s);
    if (l->dead) {
        l->dead = l->dead == PEEKED ? 0 : l->dead; /* r->tok holds the next token */
        return kept ? MOVE_LEAVE_PAST : MOVE_LEAVE;
    }
    *lead |= (uint64_t)1 << (c0 & 63);
    if (!kept) {
        s->tail = s->pending ? s->tail : TAIL_MOVE; /* (its '#' unseen: the window moved) */
        s->tail_mate = 0;
        return MOVE_RELOAD; /* the lexer holds the place */
    }
    return MOVE_ON;
}

/* The next token of b, a move number or a move, read as fast_block reads them: MOVE_ON (c moved
 * past it), what fast_move returned (c moved past that move), or MOVE_STOP when none is left. */
static ALWAYS_INLINE int block_token(pgn_reader *r, mt_state *s, rav_level *l, fast_cur *c,
                                     block_toks *b, int *safe, uint64_t *lead, int *quiet) {
    if (!b->toks) {
        return MOVE_STOP;
    }
    size_t i = b->i;
    unsigned st = bits_ctz(b->toks), e = bits_ctz(b->ends);
    uint64_t bit = b->toks & -b->toks, brk = b->lf & (bit - 1);
    b->toks &= b->toks - 1;
    b->ends &= b->ends - 1;
    if (brk) { /* at most one line break before a token */
        b->lf ^= brk;
        c->line++;
        c->line_off = c->base + i + bits_ctz(brk) + 1;
        c->at_start = 1;
    }
    int k = MOVE_ON;
    if (!(bit & b->moves)) {
        check_number(r, s, l, c, i + st, i + st + bits_ctz(~(b->digit >> st)));
    } else {
        k = fast_move(r, s, l, c, i + st, i + e, safe, lead, quiet);
    }
    c->at_start = 0;
    c->i = i + e;
    return k;
}

/* quiet_run's ends besides MOVE_ON and MOVE_LEAVE_PAST: nothing read (RUN_NONE), or a move the
 * gate stopped given to the visitor and the block's next moves to run (RUN_AGAIN). */
enum { RUN_NONE = MOVE_STOP + 1, RUN_AGAIN };

/* The move mv of b (bits st..e) that quiet_run played and recorded and the gate did not let pass:
 * c and b moved past it, its notes made, the visitor told, as fast_move does after gated_move. */
static NOINLINE int run_loud(pgn_reader *r, mt_state *s, rav_level *l, fast_cur *c, block_toks *b,
                             unsigned st, unsigned e, pgn_move mv, uint64_t *lead, int *quiet) {
    uint64_t prev = b->ends & pass_below(st + 1); /* the token before it, if in b */
    uint64_t gap = b->lf & pass_below(st) & ~(prev ? pass_below(63 - bits_clz(prev)) : 0);
    uint8_t at_start = gap || (!prev && c->at_start);
    unsigned char c0 = c->b[b->i + st];
    run_past(s, c, b, e);
    quiet_flush(r, s, l);
    fast_cur n = *c;
    n.at_start = at_start;
    visit_played(r, s, l, &n, b->i + st, b->i + e, mv);
    *quiet = fast_quiet(r, s);
    if (l->dead) {
        l->dead = l->dead == PEEKED ? 0 : l->dead; /* r->tok holds the next token */
        return MOVE_LEAVE_PAST;
    }
    *lead |= (uint64_t)1 << (c0 & 63);
    return RUN_AGAIN;
}

/* The moves of block b from its first token on, played in one pass where nobody sees them
 * (QUIET_PLAY) or the gate lets them pass (GATED), up to the first one pgnk_san_play leaves to
 * another path or the gate stops (run_loud): the move numbers among them checked at once
 * beforehand (numbers_agree: a block whose numbers would not all agree, or one whose moves might
 * need more room in r->line_moves, is left to block_token whole), the moves' notes made once for
 * the run (issue 32: block_token's look at each token, its number or move and its line, cost
 * about 60 instructions a ply). c and b are moved past the last token read. */
static ALWAYS_INLINE int quiet_run(pgn_reader *r, mt_state *s, rav_level *l, fast_cur *c,
                                   block_toks *b, uint64_t move_ends, int *safe, uint64_t *lead,
                                   int *quiet, int gated, int again) {
    const unsigned char *p = c->b + b->i;
    uint64_t moves = b->toks & b->moves, ends = b->ends & move_ends;
    if (r->line_cap - r->line_count < 32 ||
        (!again && s->board && !s->number_warned &&
         !numbers_agree(p, b->toks, moves, b->digit, l->pos.fullmove, l->pos.side))) {
        return RUN_NONE;
    }
    pgn_move *out = r->line_moves + r->line_count, *o = out;
    uint64_t left = ends;
    int loud = 0;
    for (; moves; moves &= moves - 1, left &= left - 1) {
        unsigned st = bits_ctz(moves);
        pgn_move mv = pgnk_san_play(&l->pos, (const char *)p + st, bits_ctz(left) - st, safe);
        if (mv == PGN_MOVE_NONE) {
            break;
        }
        *o++ = mv;
        r->moves_or |= mv;
        if (gated && !gate_pass(s->gate, &l->pos, mv)) {
            loud = 1;
            break;
        }
        *lead |= (uint64_t)1 << (p[bits_ctz(moves)] & 63);
    }
    if (o == out) {
        return RUN_NONE;
    }
    r->line_count += (size_t)(o - out);
    s->quiet_plies += (uint32_t)(o - out);
    if (loud) {
        return run_loud(r, s, l, c, b, bits_ctz(moves), bits_ctz(left), o[-1], lead, quiet);
    }
    /* past the last move played, or past the block's last token once every move was */
    run_past(s, c, b, 63 - bits_clz(moves ? ends & ~left : b->ends));
    return MOVE_ON;
}

/* quiet_run under the gate, again while a move the gate stopped left moves of b to run: the gate's
 * code out of check's loop (inlined, it cost check 0.3%; so do gated_move and fast_tokens). */
static NOINLINE int gated_runs(pgn_reader *r, mt_state *s, rav_level *l, fast_cur *c, block_toks *b,
                               uint64_t move_ends, int *safe, uint64_t *lead, int *quiet) {
    int k;
    for (int again = 0;; again = 1) {
        k = quiet_run(r, s, l, c, b, move_ends, safe, lead, quiet, 1, again);
        if (k != RUN_AGAIN || *quiet != GATED || !(b->toks & b->moves)) {
            return k;
        }
    }
}

/* The tokens fast_tokens reads in the 64 bytes from c's place on, found at once from their class
 * masks (pass_scan, as movetext_pass.c's pass_block): each token's start and end by a count of
 * trailing zeros, the line by the line breaks before it, and no test of white space. Returns
 * MOVE_ON with c moved past the tokens read (not moved: none), or what fast_move returned, c then
 * past that move. The loop reads three tokens a turn, each by its own copy of block_token, and is
 * entered at the copy that matches the first token (a number, White's move, Black's move): in the
 * common movetext (number, move, move) each copy then meets one kind of token, where one copy for
 * all met them in turn and its branch (number or move) was mispredicted on every other token
 * (issue 32). */
static ALWAYS_INLINE int fast_block(pgn_reader *r, mt_state *s, rav_level *l, fast_cur *c,
                                    scan_masks *sm, int *safe, uint64_t *lead, int *quiet) {
    size_t i = c->i;
    const unsigned char *p = c->b + i;
    lexer_masks m;
    pass_toks t;
    pgnk_lexer_masks_all(p, &m);
    *sm = (scan_masks){i, m.sym, m.digit};
    uint64_t ends = pass_scan(p, &m, &t);
    uint64_t toks = ends ? t.starts & pass_below(63 - bits_clz(ends)) : 0;
    block_toks b = {toks, ends, t.moves, m.lf, m.digit, i};
    int k = MOVE_ON;
    if ((b.toks & t.moves) && *quiet == QUIET_PLAY) {
        quiet_run(r, s, l, c, &b, m.sym << 1, safe, lead, quiet, 0, 0);
    } else if ((b.toks & t.moves) && *quiet == GATED) {
        k = gated_runs(r, s, l, c, &b, m.sym << 1, safe, lead, quiet);
    }
    if (k == MOVE_LEAVE_PAST) {
        return k;
    }
    /* the copy to start at: 0 a number, 1 White's move, 2 Black's move */
    unsigned at = (b.toks & -b.toks & t.moves) ? 1u + l->pos.side : 0u;
    for (;; at = 0) {
        if (at == 0 && (k = block_token(r, s, l, c, &b, safe, lead, quiet)) != MOVE_ON) {
            break;
        }
        if (at <= 1 && (k = block_token(r, s, l, c, &b, safe, lead, quiet)) != MOVE_ON) {
            break;
        }
        if ((k = block_token(r, s, l, c, &b, safe, lead, quiet)) != MOVE_ON) {
            break;
        }
    }
    return k == MOVE_STOP ? MOVE_ON : k;
}

/* One token read from c's place as fast_block would, but by looking at its bytes: where the window
 * holds fewer than 64 bytes or the block's first token needs it. Returns MOVE_STOP where the fast
 * path leaves (c moved past a word given to the general path), else as fast_move (c moved past the
 * token). */
static NOINLINE int fast_one(pgn_reader *r, mt_state *s, rav_level *l, fast_cur *c, scan_masks *m,
                             int *safe, uint64_t *lead, int *quiet) {
    fast_cur n = *c;
    size_t st = fast_space(c, &n), end, dend;
    int digit;
    if (st == 0) {
        return MOVE_STOP;
    }
    if ((unsigned)(c->b[st] - '0') < 10u) {
        if ((end = fast_number(c, m, st, &dend)) == 0) {
            return MOVE_STOP;
        }
        check_number(r, s, l, &n, st, dend);
        fast_advance(c, &n, end);
        return MOVE_ON;
    }
    if ((unsigned)((c->b[st] | 0x20) - 'a') >= 26u || (end = fast_symbol(c, m, st, &digit)) == 0) {
        return MOVE_STOP;
    }
    fast_advance(c, &n, end);
    if (!digit && !castles_with_o(c->b + st, end - st)) {
        fast_token(&r->tok, &n, st, end);
        r->have_tok = 1; /* "ep", a word, castling with 0 or o: the general path */
        return MOVE_STOP;
    }
    return fast_move(r, s, l, &n, st, end, safe, lead, quiet);
}

/* The common tokens of a live line, read in a tight loop straight from the lexer's window, which
 * the loop keeps in locals (fast_cur) and hands back when it leaves: move numbers ("12." "12...")
 * and moves that start with a letter and hold a digit, or castle with letters O, after white space
 * with at most one line break. They need none of on_token's cases (no result, no e.p. suffix, no
 * text), so they go straight to the number check and the SAN reader. Anything else is left in
 * r->tok for the general path (have_tok set), or unread when the fast path cannot tell; so is what
 * follows a move that killed the line. Only this loop plays on l while it runs, so a move it read
 * and played in one pass tells whether the next one starts in check (its check sign verified).
 * 64 bytes at a time (fast_block) where the window holds them, else token by token (fast_one). */
static NOINLINE void fast_tokens(pgn_reader *r, mt_state *s) {
    lexer *lx = &r->lx;
    fast_cur c;
    scan_masks m = {MASKS_NONE, 0, 0};
    uint64_t lead = 0; /* first bytes of the moves played: which languages agree with them */
    rav_level *l = &r->levels[r->depth - 1];
    int k, moved = 0, safe = 0; /* safe: l->pos is known not to be in check (above) */
    int quiet = fast_quiet(r, s);
    if (!fast_load(lx, &c)) {
        return;
    }
    for (;;) {
        size_t at = c.i;
        k = c.len - at >= 64 ? fast_block(r, s, l, &c, &m, &safe, &lead, &quiet) : MOVE_ON;
        if (k == MOVE_ON && c.i == at) {
            k = fast_one(r, s, l, &c, &m, &safe, &lead, &quiet);
        }
        moved |= c.i != at; /* (c moved past a move that killed the line: MOVE_LEAVE below) */
        if (k == MOVE_ON) {
            continue;
        }
        if (k != MOVE_RELOAD) {
            moved = k == MOVE_LEAVE ? 0 : moved;
            break;
        }
        moved = 0; /* the lexer holds the place */
        if (!fast_load(lx, &c)) {
            break;
        }
        m.at = MASKS_NONE; /* the window may have moved */
    }
    quiet_flush(r, s, l);
    if (moved) {
        fast_store(lx, &c);
        /* c.i: just past the last token read (or given to the general path, which notes it
         * again) */
        pgnk_mt_fast_tail(s, &c);
    }
    r->lead_seen |= lead;
}

/* The fast path: without a board or a move visitor, nothing reads the moves (movetext_pass.c). */
static inline void fast_read(pgn_reader *r, mt_state *s) {
    if (s->board == 0 && !(r->v && r->v->move)) {
        pgnk_mt_fast_pass(r, s);
    } else {
        fast_tokens(r, s);
    }
}

static void read_movetext(pgn_reader *r);

void pgnk_movetext_read(pgn_reader *r) {
    pgnk_lang_game_start(r);
    read_movetext(r);
    pgnk_drop_warn(r); /* (its first drop was not played: a dead line, a skipped movetext) */
    pgnk_lang_game_end(r);
}

/* A movetext not read: whole lines (tag_skip.h), then the lexer's skip; before a move is seen,
 * tokens one by one. The last token they pass that a token walk notes is noted (E_TRUNCATED
 * should the movetext end before the next one). */
static void skip_unread(pgn_reader *r, mt_state *s) {
    if (!s->move_seen || (r->opts.flags & PGNK_READ_NO_SKIP)) {
        return;
    }
    token tail;
    if (!pgnk_tag_skip(&r->lx, &s->tag_skip_until, &tail)) {
        pgnk_lexer_skip_inert(&r->lx, &tail);
    }
    if (tail.kind != TOK_EOF) {
        pgnk_mt_note_tail(s, &tail, 0);
    }
}

/* The next token: the common end of a game, a termination marker where the fast path stopped, read
 * at once (lexer_next_marker), else by the token reader. */
static inline void next_token(pgn_reader *r) {
    if (!r->have_tok && lexer_next_marker(&r->lx, &r->tok)) {
        r->have_tok = 1;
    }
    reader_next_token(r);
}

static void read_movetext(pgn_reader *r) {
    mt_state s;
    memset(&s, 0, sizeof s);
    s.board = !(r->opts.flags & PGN_READ_NO_BOARD) && r->skip_movetext == 0;
    s.board = s.board && r->lang_cands ? BOARD_OTHER : s.board; /* --input-lang */
    /* the game builder ignores the positions; another visitor may read their keys */
    s.keys =
        r->v && r->v->move && r->v != &pgnk_builder_visitor && !(r->opts.flags & PGN_READ_NO_KEYS);
    s.after = (r->opts.flags & PGN_READ_MOVE_AFTER) && r->v != &pgnk_builder_visitor;
    s.after = s.after && !s.keys ? 2 : s.after;
    s.gate =
        s.after == 2 && (r->opts.flags & PGN_READ_MOVE_GATE) && r->v && r->v->move ? r->user : NULL;
    /* Under PGN_READ_STRICT the SAN quirks keep their W_* codes, reported as errors (no
     * PGN_SAN_STRICT, which would turn every one into E_BAD_SAN). */
    s.san_flags = (r->opts.flags & PGN_READ_NO_NULL_MOVES) ? 0 : PGN_SAN_NULL_MOVES;
    r->depth = 0;
    r->line_count = 0;
    rav_level *root = pgnk_mt_push_level(r);
    if (!root) {
        return;
    }
    root->pos = root->base = r->start;
    root->dead = r->skip_movetext != 0;
    for (;;) {
        /* after an incomplete move, the next token one by one: it tells whether one was last */
        if (!r->have_tok && !s.pending) {
            if (!s.skip_parens && !r->levels[r->depth - 1].dead) {
                fast_read(r, &s);
            } else {
                skip_unread(r, &s);
            }
        }
        next_token(r);
        token *t = &r->tok;
        /* "1." (not "1...": pgnk_mt_black_number) after an empty line, once the main line has
         * moves: a new game without tags. A symbol shaped like a move counts whether it is read,
         * skipped (SKIP), illegal, unreadable or after an illegal one, so that where a game ends
         * depends neither on its moves' legality nor on the visitor (fuzz_reader checks it). */
        int restart = t->kind == TOK_SYMBOL && t->blank_before && r->depth == 1 && !s.skip_parens &&
                      s.move_seen && t->len == 1 && t->ptr[0] == '1' && !pgnk_mt_black_number(r);
        if (!s.move_seen && r->depth == 1 && !s.skip_parens && pgnk_mt_move_shaped(t)) {
            s.move_seen = 1;
        }
        if (t->kind == TOK_EOF || t->kind == TOK_LBRACKET || restart) {
            pgnk_mt_end(r, &s, t);
            return; /* the token stays for the next game */
        }
        if (s.pending) {
            pgnk_mt_flush_pending(r, &s);
        }
        pgnk_mt_note_tail(&s, t, !s.skip_parens && !r->levels[r->depth - 1].dead);
        reader_consume(r);
        if (pgnk_mt_on_token(r, &s, &r->levels[r->depth - 1], t)) {
            pgnk_mt_after_marker(r, t);
            return;
        }
    }
}
