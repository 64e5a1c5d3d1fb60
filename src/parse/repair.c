/* SPDX-License-Identifier: MIT */
/* A move that cannot be played as written (docs/repair.md): the legal moves most likely meant,
 * ranked by the rest of the game and then by the slip model (src/chess/slips.c), and under
 * PGN_READ_FIX the one clearly meant played in its place. Runs only on the error path. */
#include "parse.h"

#include "../base/bits.h"
#include "../chess/slips.h"

#include <string.h>

#include "pgnkit/chess.h"

#define CANDIDATES 32
#define SUGGESTIONS 5
#define LOOK_MAX 4096u  /* tokens read ahead at most: a bound on the work for one move */
#define FIX_MIN_REACH 8 /* plies that must read after a repair that does not reach the end */
#define FIX_MAX_COST 4u

typedef struct ranked {
    pgnk_slip c;
    unsigned reach; /* plies of the line read legally after the candidate */
    int whole;      /* the line read legally to its end (or to the end of the text at hand) */
    unsigned marks; /* moves after it whose capture or check marks the line contradicts */
} ranked;

/* Capture, check and mate marks written in typed that the move played (san) contradicts */
static unsigned marks_off(const char *typed, size_t tl, const char *san, size_t sl) {
    unsigned m = 0;
    m += (memchr(typed, 'x', tl) != NULL) != (memchr(san, 'x', sl) != NULL);
    m += (memchr(typed, '+', tl) != NULL) != (memchr(san, '+', sl) != NULL);
    m += (memchr(typed, '#', tl) != NULL) != (memchr(san, '#', sl) != NULL);
    return m;
}

/* Symbol t: 1 when it ends the line (a result, a new game's "1" after an empty line), 2 when it
 * is a move number, 0 when it is a move to play. */
static int symbol_kind(const token *t) {
    size_t i = 0;
    while (i < t->len && t->ptr[i] >= '0' && t->ptr[i] <= '9') {
        i++;
    }
    if (i == t->len) {
        return t->blank_before && t->len == 1 && t->ptr[0] == '1' ? 1 : 2;
    }
    if (t->value != 0 ||
        (t->len == 3 && (memcmp(t->ptr, "1-0", 3) == 0 || memcmp(t->ptr, "0-1", 3) == 0 ||
                         memcmp(t->ptr, "1/2", 3) == 0)) ||
        (t->len == 7 && memcmp(t->ptr, "1/2-1/2", 7) == 0)) {
        return 1;
    }
    return 0;
}

/* Plays move t after each candidate of rk still reading (bits of live); returns those that
 * still read. */
static uint32_t play_each(const token *t, pgn_pos *ps, ranked *rk, uint32_t live, uint32_t flags) {
    for (uint32_t left = live; left; left &= left - 1) {
        unsigned i = bits_ctz(left);
        pgn_san_result res;
        if (pgn_san_parse(&ps[i], t->ptr, t->len, flags, &res) != PGN_OK) {
            rk[i].whole = 0;
            live &= ~((uint32_t)1 << i);
            continue;
        }
        char san[PGN_SAN_MAX];
        size_t sl = pgn_san_write(&ps[i], res.move, san);
        rk[i].marks += marks_off(t->ptr, t->len, san, sl);
        pgn_pos_play_unkeyed(&ps[i], res.move);
        rk[i].reach++;
    }
    return live;
}

/* Reads the rest of the line from the lexer (up to LOOK_MAX tokens), played after each of the n
 * candidates of rk (n <= 32): comments, NAGs, move numbers and variations are stepped over; the
 * line ends at a result, '*', the next game, the ')' of its variation or the input's end. */
static void read_line(lexer *lx, pgn_pos *ps, ranked *rk, size_t n, uint32_t flags) {
    uint32_t live = n >= 32 ? ~(uint32_t)0 : ((uint32_t)1 << n) - 1, depth = 0;
    token t;
    for (unsigned k = 0; k < LOOK_MAX && live; k++) {
        pgnk_lexer_next(lx, &t);
        if (t.kind == TOK_EOF || t.kind == TOK_LBRACKET || t.kind == TOK_STAR ||
            (t.kind == TOK_RPAREN && depth == 0)) {
            return;
        }
        if (t.kind == TOK_LPAREN || t.kind == TOK_RPAREN) {
            depth += t.kind == TOK_LPAREN ? 1u : (uint32_t)-1;
            continue;
        }
        if ((t.kind != TOK_SYMBOL && t.kind != TOK_BAD) || depth > 0 || t.too_long) {
            continue;
        }
        int kind = t.kind == TOK_SYMBOL ? symbol_kind(&t) : 0;
        if (kind == 1) {
            return;
        }
        if (kind == 0) {
            live = play_each(&t, ps, rk, live, flags);
        }
    }
}

/* Reads the rest of the line after the move at `at` through the lexer for the candidates, then
 * puts the lexer back where it was (the window keeps the bytes from the move on, so memory grows
 * with the game, never more). Returns the typed move's text, moved with the window when it is
 * r->tok's. */
static const char *read_ahead(pgn_reader *r, const char *text, pgn_loc at, pgn_pos *ps, ranked *rk,
                              size_t n, uint32_t flags) {
    lexer *lx = &r->lx;
    int own = !r->have_tok && text == r->tok.ptr;
    pgnk_lex_place sv;
    pgnk_ahead_begin(r, at.offset, own, &sv);
    read_line(lx, ps, rk, n, flags);
    pgnk_ahead_end(r, &sv);
    if (own) {
        r->tok.ptr = lx->buf + (at.offset - lx->base);
        return r->tok.ptr;
    }
    return text;
}

/* a before b: the line reads further after it, then it is nearer to what was typed */
static int before(const ranked *a, const ranked *b) {
    if (a->whole != b->whole) {
        return a->whole;
    }
    if (!a->whole && a->reach != b->reach) {
        return a->reach > b->reach;
    }
    if (a->marks != b->marks) {
        return a->marks < b->marks;
    }
    if (a->c.cost != b->c.cost) {
        return a->c.cost < b->c.cost;
    }
    return strcmp(a->c.san, b->c.san) < 0;
}

/* Ranks the n candidates of slips into rk, best first, by what the rest of the line says of
 * each (read ahead through the lexer). Returns the typed move's text (read_ahead). */
static const char *rank_candidates(pgn_reader *r, const pgn_pos *pos, const char *text, size_t len,
                                   pgn_loc at, uint32_t san_flags, const pgnk_slip *slips, size_t n,
                                   ranked *rk) {
    pgn_pos ps[CANDIDATES];
    ranked x[CANDIDATES];
    for (size_t i = 0; i < n; i++) {
        ranked one = {slips[i], 0, 1, 0};
        /* the typed move's own capture and check marks */
        size_t sl = strlen(slips[i].san);
        one.marks += (memchr(text, '+', len) != NULL) != (memchr(slips[i].san, '+', sl) != NULL);
        one.marks += (memchr(text, 'x', len) != NULL) != (memchr(slips[i].san, 'x', sl) != NULL);
        x[i] = one;
        ps[i] = *pos;
        pgn_pos_play_unkeyed(&ps[i], slips[i].move);
    }
    text = read_ahead(r, text, at, ps, x, n, san_flags);
    for (size_t i = 0; i < n; i++) { /* insertion sort: at most CANDIDATES */
        size_t k = i;
        while (k > 0 && before(&x[i], &rk[k - 1])) {
            rk[k] = rk[k - 1];
            k--;
        }
        rk[k] = x[i];
    }
    return text;
}

/* The first SUGGESTIONS candidates into r->diag_sugg, separated by spaces */
static void put_suggestions(pgn_reader *r, const ranked *rk, size_t n) {
    size_t used = 0;
    for (size_t i = 0; i < n && i < SUGGESTIONS; i++) {
        size_t l = strlen(rk[i].c.san);
        if (used + l + 2 > sizeof r->diag_sugg) {
            break;
        }
        if (used > 0) {
            r->diag_sugg[used++] = ' ';
        }
        memcpy(r->diag_sugg + used, rk[i].c.san, l + 1);
        used += l;
    }
}

/* o rivals b: the rest of the line reads as far after it (both to the end, or both broken
 * within 4 plies of each other) and it is nearer to what was typed, or as near without
 * contradicting more marks; or b reads to the end but o, nearer to what was typed, reads on far
 * enough to be stopped by another slip. */
static int rivals(const ranked *b, const ranked *o) {
    if (b->whole && !o->whole && o->reach >= FIX_MIN_REACH && o->c.cost < b->c.cost) {
        return 1; /* o may stop at a second slip further on that b happens to read */
    }
    if (o->whole != b->whole || (!b->whole && o->reach + 4 <= b->reach)) {
        return 0;
    }
    return o->c.cost < b->c.cost || (o->c.cost == b->c.cost && o->marks <= b->marks);
}

/* Clearly meant: the line reads on after the best (to its end, or far enough) without
 * contradicting a capture or check mark written in it, the best is near what was typed, and no
 * other candidate that reads as far is as near. */
static int clearly_meant(const ranked *rk, size_t n) {
    const ranked *b = &rk[0];
    if (b->c.cost > FIX_MAX_COST || (!b->whole && b->reach < FIX_MIN_REACH) || b->marks > 0) {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if (rivals(b, &rk[i])) {
            return 0;
        }
    }
    return 1;
}

int pgnk_repair_move(pgn_reader *r, const pgn_pos *pos, const char *text, size_t len, pgn_loc at,
                     uint32_t san_flags, pgn_move *mv) {
    pgnk_slip slips[CANDIDATES];
    ranked rk[CANDIDATES];
    size_t n = pgnk_slip_candidates(pos, text, len, slips, CANDIDATES);
    r->diag_sugg[0] = 0;
    if (n == 0) {
        return 0;
    }
    text = rank_candidates(r, pos, text, len, at, san_flags, slips, n, rk);
    put_suggestions(r, rk, n);
    if (!(r->opts.flags & PGN_READ_FIX) || !clearly_meant(rk, n)) {
        return 0;
    }
    const ranked *b = &rk[0];
    memcpy(r->repair_san, b->c.san, sizeof b->c.san);
    memcpy(r->diag_repl, b->c.san, sizeof b->c.san);
    *mv = b->c.move;
    pgnk_reader_diag_sev(r, PGN_W_REPAIRED_MOVE, PGN_SEV_WARNING, at, text, len);
    return 1;
}
