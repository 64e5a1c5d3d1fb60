/* SPDX-License-Identifier: MIT */
/* Movetext's variations (PGN §8.2.5) on an explicit stack of levels, each with the position a
 * variation starts from played again on demand, and its comments (§5) with their embedded
 * commands (digest §10). The tokens and moves are movetext.c's. */
#include "movetext_internal.h"

#include <string.h>

#include "pgnkit/annot.h"

rav_level *pgnk_mt_push_level(pgn_reader *r) {
    if (r->depth == r->levels_cap) {
        void *p = r->levels;
        if (!pgnk_grow(&r->alloc, &p, &r->levels_cap, r->depth + 1, sizeof *r->levels, 8)) {
            r->nomem = 1;
            return NULL;
        }
        r->levels = p;
    }
    rav_level *l = &r->levels[r->depth++];
    l->first = r->line_count;
    l->has_move = l->dead = 0;
    l->visible = 1;
    return l;
}

int pgnk_mt_grow_line_moves(pgn_reader *r) {
    void *p = r->line_moves;
    if (!pgnk_grow(&r->alloc, &p, &r->line_cap, r->line_cap + 1, sizeof *r->line_moves, 256)) {
        return 0;
    }
    r->line_moves = p;
    return 1;
}

/* The position before the last move of line l, the top level (which has a move): its base
 * with the line's moves but the last played again. That position becomes the base, so that each
 * move is played again at most once whatever the number of variations (no copy of the position
 * per move: a variation needs it, most moves have none). Without a board only the side to move
 * is kept. */
static void line_prev(pgn_reader *r, const mt_state *s, rav_level *l, pgn_pos *out) {
    if (!s->board) {
        *out = l->pos;
        out->side = l->prev_side;
        return;
    }
    size_t last = r->line_count - 1;
    pgn_pos p = l->base;
    for (size_t i = l->first; i < last; i++) {
        if (s->keys) {
            pgn_pos_play(&p, r->line_moves[i]);
        } else {
            pgn_pos_play_unkeyed(&p, r->line_moves[i]);
        }
    }
    l->base = p;
    r->line_moves[l->first] = r->line_moves[last];
    r->line_count = l->first + 1;
    *out = p;
}

/* Leaves the top level: its moves are dropped from line_moves. */
static void pop_level(pgn_reader *r) {
    r->depth--;
    r->line_count = r->levels[r->depth].first;
}

void pgnk_mt_on_open(pgn_reader *r, mt_state *s, rav_level *l, const token *t) {
    /* a ( before the main line's first move-shaped symbol (move_seen: alike in every mode, also
     * when the movetext is skipped) that is never closed is ignored, as python-chess, chessops
     * and pgn-extract read ( 1. c4 *: the game ends where a full read ends it */
    int first = r->depth == 1 && !s->skip_parens && !s->move_seen;
    int live = !s->skip_parens && !l->dead;
    if (live && !l->has_move) {
        pgnk_reader_diag(r, PGN_W_VARIATION_START, t->at, t->ptr, t->len);
    }
    if (first && !pgnk_paren_closed(r)) {
        return; /* never closed (( 1. c4 *): ignored, as python-chess, chessops, pgn-extract */
    }
    if (!live) {
        s->skip_parens++;
        return;
    }
    if (!l->has_move) {
        s->skip_parens = 1;
        s->skip_visible = 0;
        return;
    }
    if (r->depth > r->opts.max_depth) {
        if (!s->limit_warned) {
            s->limit_warned = 1;
            pgnk_reader_diag(r, PGN_E_LIMIT, t->at, t->ptr, t->len);
        }
        s->skip_parens = 1;
        s->skip_visible = 0;
        return;
    }
    pgn_pos before;
    rav_level *n = NULL;
    if (!r->nomem) { /* else a move may be missing from line_moves */
        line_prev(r, s, l, &before);
        n = pgnk_mt_push_level(r);
    }
    if (!n) {
        s->skip_parens = 1;
        s->skip_visible = 0;
        return;
    }
    n->pos = n->base = before;
    pgn_flow f = r->v && r->v->begin_variation ? r->v->begin_variation(r->user) : PGN_FLOW_CONTINUE;
    if (f == PGN_FLOW_STOP) {
        r->v = NULL;
    } else if (f == PGN_FLOW_SKIP) {
        pop_level(r);
        s->skip_parens = 1;
        s->skip_visible = 1;
    }
}

void pgnk_mt_on_close(pgn_reader *r, mt_state *s, const token *t) {
    if (s->skip_parens) {
        if (--s->skip_parens == 0 && s->skip_visible && r->v && r->v->end_variation &&
            r->v->end_variation(r->user) == PGN_FLOW_STOP) {
            r->v = NULL;
        }
        return;
    }
    if (r->depth <= 1) {
        pgnk_reader_diag(r, PGN_W_STRAY_PAREN, t->at, t->ptr, t->len);
        return;
    }
    pop_level(r);
    if (r->v && r->v->end_variation && r->v->end_variation(r->user) == PGN_FLOW_STOP) {
        r->v = NULL;
    }
}

/* Places inside a comment token's text (which starts after its "{" at t->at), counted forward
 * from the last place asked for, so that the places of many commands cost one pass: lines and
 * columns as the lexer counts them (LF, CRLF and a lone CR are one line break each). */
typedef struct text_cursor {
    const token *t;
    size_t pos;        /* bytes counted so far */
    size_t line_begin; /* offset where the current line starts */
    uint32_t line;
    int broke; /* a line break was seen: columns count from line_begin */
} text_cursor;

static pgn_loc cursor_loc(text_cursor *c, size_t off) {
    pgn_loc at = c->t->at;
    for (; c->pos < off; c->pos++) {
        char ch = c->t->ptr[c->pos];
        if (ch == '\n' ||
            (ch == '\r' && (c->pos + 1 >= c->t->len || c->t->ptr[c->pos + 1] != '\n'))) {
            c->line++;
            c->line_begin = c->pos + 1;
            c->broke = 1;
        }
    }
    at.line += c->line;
    at.offset += off + 1;
    at.column = c->broke ? (uint32_t)(off - c->line_begin + 1) : at.column + 1 + (uint32_t)off;
    return at;
}

/* Embedded commands (digest §10): a malformed "[%...]" in a brace comment is W_BAD_COMMAND, at
 * its "[". The comment itself is kept unchanged. */
static void check_commands(pgn_reader *r, const token *t) {
    pgn_cmd_iter it;
    pgn_cmd c;
    pgn_str body = {t->ptr, t->len};
    text_cursor cur = {t, 0, 0, 0, 0};
    if (t->len < 2 || memchr(t->ptr, '%', t->len) == NULL) {
        return;
    }
    pgn_cmd_iter_init(&it, body);
    while (pgn_cmd_next(&it, &c)) {
        if (c.kind == PGN_CMD_BAD) {
            pgnk_reader_diag(r, PGN_W_BAD_COMMAND, cursor_loc(&cur, c.offset), c.raw.ptr,
                             c.raw.len);
        }
    }
}

void pgnk_mt_on_comment(pgn_reader *r, const token *t) {
    if (t->unterminated) {
        pgnk_reader_diag(r, PGN_E_UNTERMINATED_COMMENT, t->at, t->ptr, t->len);
        return;
    }
    if (t->too_long) {
        pgnk_reader_diag(r, PGN_E_TOKEN_TOO_LONG, t->at, NULL, 0);
        return;
    }
    if (t->kind == TOK_COMMENT) {
        check_commands(r, t);
    }
    if (!r->v || !r->v->comment) {
        return;
    }
    token body = *t;
    if (t->kind == TOK_LINE_COMMENT) {
        body.ptr++;
        body.len--;
    }
    if (pgnk_text_decode(r, &r->text, &body, 0)) {
        pgn_str text = {r->text.ptr, r->text.len};
        if (r->v->comment(r->user, text) == PGN_FLOW_STOP) {
            r->v = NULL;
        }
    }
}
