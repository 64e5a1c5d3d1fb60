/* SPDX-License-Identifier: MIT */
/* A move that cannot be played as written (docs/repair.md): the legal moves most likely meant,
 * ranked by the rest of the game and then by the slip model (src/chess/slips.c), and under
 * PGN_READ_FIX the one clearly meant played in its place. Runs only on the error path. */
#include "parse.h"

#include "../chess/slips.h"

#include <string.h>

#include "pgnkit/chess.h"

#define CANDIDATES 32
#define SUGGESTIONS 5
#define LOOK_MAX 1000u  /* plies looked at after a candidate */
#define FIX_MIN_REACH 8 /* plies that must read after a repair that does not reach the end */
#define FIX_MAX_COST 4u

typedef struct ranked {
    pgnk_slip c;
    unsigned reach; /* plies of the line read legally after the candidate */
    int whole;      /* the line read legally to its end (or to the end of the text at hand) */
    unsigned marks; /* moves after it whose capture or check marks the line contradicts */
} ranked;

static int is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Skips a comment, a rest-of-line comment or a variation at p (which starts one); returns the
 * place after it, or NULL when the text ends inside it. Nested variations are counted, not
 * recursed into. */
static const char *skip_aside(const char *p, const char *end) {
    unsigned depth = 0;
    do {
        if (*p == '{') {
            const char *q = memchr(p, '}', (size_t)(end - p));
            if (q == NULL) {
                return NULL;
            }
            p = q;
        } else if (*p == ';') {
            const char *q = memchr(p, '\n', (size_t)(end - p));
            if (q == NULL) {
                return NULL;
            }
            p = q;
        } else if (*p == '(') {
            depth++;
        } else if (*p == ')' && depth > 0) {
            depth--;
        }
        p++;
    } while (depth > 0 && p < end);
    return depth > 0 ? NULL : p;
}

static int token_end(char c) {
    return is_space(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == ';' || c == '[' ||
           c == '$';
}

/* A token of digits at [s, p): 0 when it ends the line (1-0, 0-1, 1/2-1/2), 1 when it is
 * castling written with zeros (a move), 2 when it is a move number: *next is then where a move
 * glued to it starts. */
static int number_token(const char *s, const char *p, const char **next) {
    const char *q = s;
    while (q < p && *q >= '0' && *q <= '9') {
        q++;
    }
    if (q < p && (*q == '-' || *q == '/')) {
        return s[0] == '0' && q + 1 < p && q[1] == '-'; /* 0-0 castles */
    }
    while (q < p && *q == '.') {
        q++;
    }
    *next = q;
    return 2;
}

/* The next token of [*pp, end): 1 and [*tok, *tok + *tl) when it is a move to play, -1 when it
 * is something to step over (space, a comment, a NAG, a move number), 0 when the line ends
 * there (a result, the next game, a ')') or the text at hand ends before it is whole. */
static int scan_token(const char **pp, const char *end, const char **tok, size_t *tl) {
    const char *p = *pp;
    char c = *p;
    if (is_space(c) || c == '.' || c == '!' || c == '?') {
        *pp = p + 1;
        return -1;
    }
    if (c == '{' || c == ';' || c == '(') {
        *pp = skip_aside(p, end);
        return *pp == NULL ? 0 : -1;
    }
    if (c == ')' || c == '[' || c == '*' || c == '}') {
        return 0;
    }
    const char *s = p;
    while (p < end && !token_end(*p)) {
        p++;
    }
    if (c == '$') {
        p++;
        while (p < end && *p >= '0' && *p <= '9') {
            p++;
        }
        *pp = p;
        return -1;
    }
    if (p == end) {
        return 0; /* the token may go on past the text at hand */
    }
    if (c >= '0' && c <= '9') {
        int k = number_token(s, p, pp);
        if (k != 1) {
            return k == 0 ? 0 : -1;
        }
    }
    *pp = p;
    size_t len = (size_t)(p - s);
    while (len > 0 && (s[len - 1] == '!' || s[len - 1] == '?')) {
        len--;
    }
    *tok = s;
    *tl = len;
    return len == 0 ? -1 : 1;
}

/* Capture, check and mate marks written in typed that the move played (san) contradicts */
static unsigned marks_off(const char *typed, size_t tl, const char *san, size_t sl) {
    unsigned m = 0;
    m += (memchr(typed, 'x', tl) != NULL) != (memchr(san, 'x', sl) != NULL);
    m += (memchr(typed, '+', tl) != NULL) != (memchr(san, '+', sl) != NULL);
    m += (memchr(typed, '#', tl) != NULL) != (memchr(san, '#', sl) != NULL);
    return m;
}

/* How many moves of the text [p, end) play legally from pos, up to LOOK_MAX; *whole: the line
 * ended (a result, the next game, a ')' or the text at hand) before a move that did not. */
static unsigned reach(const pgn_pos *from, const char *p, const char *end, uint32_t flags,
                      int *whole, unsigned *marks) {
    pgn_pos pos = *from;
    unsigned n = 0;
    *whole = 1;
    while (p < end && n < LOOK_MAX) {
        const char *s = NULL;
        size_t len = 0;
        int t = scan_token(&p, end, &s, &len);
        if (t == 0) {
            return n;
        }
        if (t < 0) {
            continue;
        }
        pgn_san_result res;
        if (pgn_san_parse(&pos, s, len, flags, &res) != PGN_OK) {
            *whole = 0;
            return n;
        }
        char san[PGN_SAN_MAX];
        size_t sl = pgn_san_write(&pos, res.move, san);
        *marks += marks_off(s, len, san, sl);
        pgn_pos_play_unkeyed(&pos, res.move);
        n++;
    }
    return n;
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

/* Ranks the n candidates of slips into rk, best first, by what the text after the typed move
 * (as far as the lexer's window holds it) says of each. */
static void rank_candidates(const pgn_reader *r, const pgn_pos *pos, const char *text, size_t len,
                            pgn_loc at, uint32_t san_flags, const pgnk_slip *slips, size_t n,
                            ranked *rk) {
    const char *rest = NULL, *end = NULL;
    uint64_t after = at.offset + len;
    if (after >= r->lx.base && after <= r->lx.base + r->lx.len) {
        rest = r->lx.buf + (after - r->lx.base);
        end = r->lx.buf + r->lx.len;
    }
    for (size_t i = 0; i < n; i++) {
        ranked x = {slips[i], 0, 1, 0};
        if (rest != NULL) {
            pgn_pos next = *pos;
            pgn_pos_play_unkeyed(&next, slips[i].move);
            x.reach = reach(&next, rest, end, san_flags, &x.whole, &x.marks);
            /* the typed move's own capture and check marks */
            size_t sl = strlen(slips[i].san);
            x.marks += (memchr(text, '+', len) != NULL) != (memchr(slips[i].san, '+', sl) != NULL);
            x.marks += (memchr(text, 'x', len) != NULL) != (memchr(slips[i].san, 'x', sl) != NULL);
        }
        /* insertion sort: at most CANDIDATES */
        size_t k = i;
        while (k > 0 && before(&x, &rk[k - 1])) {
            rk[k] = rk[k - 1];
            k--;
        }
        rk[k] = x;
    }
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
    rank_candidates(r, pos, text, len, at, san_flags, slips, n, rk);
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
