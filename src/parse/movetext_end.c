/* SPDX-License-Identifier: MIT */
/* A game cut short (issue 34; docs/pgn-dialect.md, "Games cut short"): the movetext's last token,
 * kept as the reader goes, tells at its end (the end of the input, the next game's tag section or
 * its first move number) whether the text stops inside a move, after a move number, inside a
 * termination marker; a game with moves whose Result tag announces a result its movetext never
 * reaches was cut too, unless a mate ended it (a game of tags alone was not: lichess exports
 * them).
 * Each is E_TRUNCATED: the game is broken, never taken for whole. */
#include "movetext_internal.h"
#include "movetext_scan.h"

#include <string.h>

/* One element of a move's form: a byte of set, or (opt) none. */
typedef struct form_elem {
    const char *set;
    uint8_t opt;
} form_elem;

#define FILES "abcdefgh"
#define RANKS "12345678"
#define PIECES "KQRBNPkqrn"
/* The English forms a move token may take (SAN, long algebraic, UCI; lax promotions and piece
 * letters), castling, and the termination markers (1/2 alone is a lax one). */
static const form_elem form_move[] = {{PIECES, 1}, {FILES, 1}, {RANKS, 1}, {"x:-", 1},
                                      {FILES, 0},  {RANKS, 0}, {"+#", 1},  {"+#", 1}};
static const form_elem form_promo[] = {{PIECES, 1}, {FILES, 1}, {RANKS, 1}, {"x:-", 1},
                                       {FILES, 0},  {RANKS, 0}, {"=", 1},   {"QRBNqrbn", 0},
                                       {"+#", 1},   {"+#", 1}};
static const form_elem form_castle[] = {{"O0o", 0}, {"-", 0}, {"O0o", 0}, {"+#", 1}, {"+#", 1}};
static const form_elem form_castle_long[] = {{"O0o", 0}, {"-", 0},  {"O0o", 0}, {"-", 0},
                                             {"O0o", 0}, {"+#", 1}, {"+#", 1}};
static const form_elem form_white[] = {{"1", 0}, {"-", 0}, {"0", 0}};
static const form_elem form_black[] = {{"0", 0}, {"-", 0}, {"1", 0}};
static const form_elem form_draw[] = {{"1", 0}, {"/", 0}, {"2", 0}, {"-", 0},
                                      {"1", 0}, {"/", 0}, {"2", 0}};

/* Where p (n bytes) stands against form f (k elements): 0 it is no beginning of it, 1 a beginning
 * only, 2 a whole one. The states are the places in the form, a bit each (k < 32): no recursion. */
static int match_form(const form_elem *f, unsigned k, const char *p, size_t n) {
    uint32_t cur = 1, next;
    for (unsigned i = 0; i < k; i++) { /* past the optional elements at the start */
        if ((cur >> i & 1) && f[i].opt) {
            cur |= (uint32_t)1 << (i + 1);
        }
    }
    for (size_t j = 0; j < n && cur; j++, cur = next) {
        next = 0;
        for (unsigned i = 0; i < k; i++) {
            if ((cur >> i & 1) && p[j] && strchr(f[i].set, p[j])) {
                next |= (uint32_t)1 << (i + 1);
            }
        }
        for (unsigned i = 0; i < k; i++) {
            if ((next >> i & 1) && f[i].opt) {
                next |= (uint32_t)1 << (i + 1);
            }
        }
    }
    return !cur ? 0 : (cur >> k & 1) ? 2 : 1;
}

int pgnk_move_incomplete(const char *p, size_t n) {
    static const struct {
        const form_elem *f;
        unsigned k;
    } forms[] = {{form_draw, 7},        {form_move, 8},  {form_promo, 10}, {form_castle, 5},
                 {form_castle_long, 7}, {form_white, 3}, {form_black, 3}};
    int begins = 0;
    if (n == 0 || n > 16) {
        return 0;
    }
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        int m = match_form(forms[i].f, forms[i].k, p, n);
        if (m == 2 || (i == 0 && n == 3 && m == 1)) {
            return 0; /* a whole move or marker (1/2: a lax draw) */
        }
        begins |= m;
    }
    return begins != 0;
}

int pgnk_move_weak(const char *p, size_t n) {
    if (n == 1) {
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        if (strchr("x:=-0123456789", p[i])) {
            return 0;
        }
    }
    return !(n == 2 && strchr("KQRBN", p[0]));
}

/* Keeps token t as the movetext's last one so far: where it is and its first bytes. */
static void keep_tail(mt_state *s, int kind, const token *t) {
    s->tail = (uint8_t)kind;
    s->tail_at = t->at;
    s->tail_len = t->len < sizeof s->tail_text ? (uint8_t)t->len : (uint8_t)sizeof s->tail_text;
    memcpy(s->tail_text, t->ptr, s->tail_len);
}

void pgnk_mt_note_tail(mt_state *s, const token *t, int live) {
    if (t->kind == TOK_LPAREN || t->kind == TOK_RPAREN || t->kind == TOK_BAD) {
        s->tail = TAIL_OTHER;
    } else if (t->kind == TOK_SYMBOL) {
        int number = 1;
        for (size_t i = 0; i < t->len && number; i++) {
            number = t->ptr[i] >= '0' && t->ptr[i] <= '9';
        }
        s->tail_mate = t->len > 0 && t->ptr[t->len - 1] == '#';
        if (number) {
            keep_tail(s, TAIL_NUMBER, t);
        } else if (!live && t->len <= sizeof s->tail_text) {
            keep_tail(s, TAIL_UNJUDGED, t); /* a live line's is judged as it is read */
        } else {
            s->tail = TAIL_MOVE; /* (more than 16 bytes: never an incomplete move) */
        }
    }
}

void pgnk_mt_pending(mt_state *s, const token *t, int weak) {
    keep_tail(s, TAIL_INCOMPLETE, t);
    s->pending = weak ? PENDING_WEAK : PENDING_BAD;
    s->pending_first = !s->prev_skipped;
    s->skipped = (uint8_t)weak; /* skipped text that follows is one run with it */
}

void pgnk_mt_flush_pending(pgn_reader *r, mt_state *s) {
    if (s->pending == PENDING_BAD) {
        pgnk_reader_diag(r, PGN_E_BAD_SAN, s->tail_at, s->tail_text, s->tail_len);
    } else if (s->pending == PENDING_WEAK && s->pending_first) {
        pgnk_reader_diag(r, PGN_W_SKIPPED_TEXT, s->tail_at, s->tail_text, s->tail_len);
    }
    s->pending = 0;
}

/* A game with moves whose Result tag announces a result its movetext never reaches, though it
 * did not end in a mate (see the top). */
static int cut_before_result(const pgn_reader *r, const mt_state *s) {
    if (r->lx.error != PGN_OK) {
        return 0; /* the input failed: no game is judged on what it did not give */
    }
    pgn_result tr = r->tag_result.len ? pgn_result_parse(r->tag_result.ptr, r->tag_result.len)
                                      : PGN_RESULT_NONE;
    return s->move_seen && tr != PGN_RESULT_NONE && tr != PGN_RESULT_UNKNOWN &&
           !(s->tail == TAIL_MOVE && s->tail_mate);
}

void pgnk_mt_end(pgn_reader *r, mt_state *s, const token *t) {
    if (s->tail == TAIL_UNJUDGED) {
        s->tail = pgnk_move_incomplete(s->tail_text, s->tail_len) ? TAIL_INCOMPLETE : TAIL_MOVE;
    }
    int cut = s->pending || s->tail == TAIL_INCOMPLETE || s->tail == TAIL_NUMBER;
    if (cut) { /* the last token: a move or a marker cut short, a move number without its move */
        pgnk_reader_diag(r, PGN_E_TRUNCATED, s->tail_at, s->tail_text, s->tail_len);
        s->pending = 0;
    }
    if (s->skip_parens || r->depth > 1) {
        pgnk_reader_diag(r, PGN_E_UNBALANCED_PAREN, t->at, t->ptr, t->len);
    }
    if (!cut && cut_before_result(r, s)) {
        pgnk_reader_diag(r, PGN_E_TRUNCATED, t->at, t->ptr, t->len);
    } else if (!cut) {
        pgnk_reader_diag(
            r, (r->opts.flags & PGN_READ_STRICT) ? PGN_E_MISSING_RESULT : PGN_W_MISSING_RESULT,
            t->at, t->ptr, t->len);
    }
}

void pgnk_mt_after_marker(pgn_reader *r, const token *t) {
    if (t->kind != TOK_SYMBOL || t->len != 3 || memcmp(t->ptr, "1/2", 3) != 0) {
        return;
    }
    token copy = *t; /* a look at the next byte may move the window */
    char text[3] = {'1', '/', '2'};
    size_t i = r->lx.pos;
    if (!lexer_have(&r->lx, &i) && r->lx.error == PGN_OK) { /* 1/2-1/2 cut after its 1/2 */
        pgnk_reader_diag(r, PGN_E_TRUNCATED, copy.at, text, 3);
    }
}

/* The game boundary (issue 34 point 4): "1" after an empty line starts a new game only when it
 * cannot continue this one. "1..." (Black's first move, after a comment set apart by empty lines)
 * continues it: a game without tags starts with White's move. Looks at the periods after t, the
 * current token (its text is pointed at again should the look move the window). */
int pgnk_mt_black_number(pgn_reader *r) {
    lexer *lx = &r->lx;
    uint64_t start = r->tok.at.offset;
    if (start < lx->base) {
        return 0;
    }
    size_t i = (size_t)(start - lx->base) + r->tok.len; /* a move number took its periods */
    int dots = 0;
    set_keep(lx, start);
    while (dots < 2 && (i < lx->pos || lexer_have(lx, &i)) && lx->buf[i] == '.') {
        dots++;
        i++;
    }
    r->tok.ptr = lx->buf + (size_t)(start - lx->base);
    return dots == 2;
}

void pgnk_mt_fast_tail(mt_state *s, const fast_cur *c) {
    size_t e = c->i, d, st;
    for (d = e; d > 0 && c->b[d - 1] == '.';) {
        d--;
    }
    for (st = d; st > 0 && (char_class(c->b[st - 1]) & C_SYM);) {
        st--;
    }
    int number = d < e && st < d;
    for (size_t i = st; i < d && number; i++) {
        number = (unsigned)(c->b[i] - '0') < 10u;
    }
    if (number && d - st <= sizeof s->tail_text) {
        s->tail = TAIL_NUMBER;
        s->tail_len = (uint8_t)(d - st);
        memcpy(s->tail_text, c->b + st, d - st);
        s->tail_at.offset = c->base + st;
        s->tail_at.line = c->line;
        s->tail_at.column = (uint32_t)(c->base + st - c->line_off + 1);
    } else if (!s->pending) {
        s->tail = TAIL_MOVE;
        s->tail_mate = e > 0 && c->b[e - 1] == '#';
    }
}

int pgnk_mt_handed_on(mt_state *s, const rav_level *l, uint8_t mate) {
    if (l->dead && !s->pending) {
        s->tail = TAIL_MOVE;
        s->tail_mate = mate;
    }
    return 0;
}
