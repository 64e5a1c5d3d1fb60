/* SPDX-License-Identifier: MIT */
/* The PGN export format writer (PGN §3.2, §8.1.1 tag order, §8.2.1 line layout, §8.2.2.2 move
 * numbers, §8.2.3 SAN, §8.2.4 NAGs, §8.2.5 RAVs; digest §4 and the §12 policy). A game is composed
 * into one buffer and handed to the callback; the tree is walked with the game iterator. The tag
 * section is pgn_writer_tags.c's. */
#include "pgnkit/writer.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../base/chars.h"
#include "../game/arena.h"
#include "../game/game_internal.h"
#include "pgnkit/annot.h"
#include "pgn_writer_internal.h"

#define DEFAULT_WIDTH 79

pgn_status pgn_writer_new(pgn_writer **out, const pgn_writer_opts *opts, pgn_write_fn fn,
                          void *ctx) {
    pgn_writer *w;
    pgn_status st;
    assert(out != NULL && fn != NULL);
    *out = NULL;
    w = pgnk_sink_new(sizeof *w, opts != NULL ? opts->alloc : NULL, fn, ctx, &st);
    if (w == NULL) {
        return st;
    }
    if (opts != NULL) {
        w->flags = opts->flags;
        w->width = opts->width;
        w->fen_flags = opts->fen_flags;
        w->nag_style = opts->nag_style;
        w->lang = opts->lang;
    }
    if (w->width == 0) {
        w->width = DEFAULT_WIDTH;
    }
    *out = w;
    return PGN_OK;
}

void pgn_writer_free(pgn_writer *writer) {
    if (writer == NULL) {
        return;
    }
    pgnk_buf_free(&writer->out, &writer->sink.alloc);
    pgnk_free(&writer->sink.alloc, writer->tags);
    pgnk_free(&writer->sink.alloc, writer->clean);
    pgnk_sink_free(&writer->sink);
}

/* ---- the output buffer ---- */

int pgnk_writer_room(pgn_writer *w, size_t n) {
    if (!pgnk_buf_reserve(&w->out, &w->sink.alloc, n)) {
        w->err = PGN_E_NOMEM;
        return 0;
    }
    return 1;
}

static inline void put(pgn_writer *w, const char *s, size_t n) {
    if (w->err != PGN_OK || n == 0 || (n > w->out.cap - w->out.len && !pgnk_writer_room(w, n))) {
        return;
    }
    char *d = w->out.ptr + w->out.len;
    if (n <= 8) {
        for (size_t i = 0; i < n; i++) { /* most tokens are a few bytes: no call */
            d[i] = s[i];
        }
    } else {
        memcpy(d, s, n);
    }
    w->out.len += n;
}

/* Sends the first n bytes of the buffer to the callback and drops them. */
static void flush(pgn_writer *w, size_t n) {
    if (w->err != PGN_OK || n == 0) {
        return;
    }
    w->err = pgnk_sink_write(&w->sink, w->out.ptr, n);
    if (w->err != PGN_OK) {
        return;
    }
    memmove(w->out.ptr, w->out.ptr + n, w->out.len - n);
    w->out.len -= n;
    w->line_start -= n;
    w->unit_start -= n;
}

/* ---- movetext tokens (PGN §8.2.1: greedy fill, one space between tokens) ---- */

/* Starts a unit of n bytes (plus a waiting glued "("): on this line after one space if it fits
 * within the width, else on a new line. A unit wider than the width stands alone. */
static void unit_open(pgn_writer *w, size_t n) {
    if (w->line_start >= FLUSH_AT) {
        flush(w, w->line_start);
    }
    if (w->open_paren) {
        n++;
    }
    if (w->out.len > w->line_start) {
        if (w->out.len - w->line_start + 1 + n > w->width) {
            put(w, "\n", 1);
            w->line_start = w->out.len;
        } else {
            put(w, " ", 1);
        }
    }
    w->unit_start = w->out.len;
    if (w->open_paren) {
        put(w, "(", 1);
        w->open_paren = 0;
    }
}

/* After bytes were glued to the current unit: if the line is now too long, the unit moves to a
 * new line (the space before it becomes the line break). */
static void unit_fix(pgn_writer *w) {
    if (w->err == PGN_OK && w->out.len - w->line_start > w->width &&
        w->unit_start > w->line_start) {
        w->out.ptr[w->unit_start - 1] = '\n';
        w->line_start = w->unit_start;
    }
}

static void token(pgn_writer *w, const char *s, size_t n) {
    unit_open(w, n);
    put(w, s, n);
}

/* A number token: prefix, decimal v, suffix ("$3", "12.", "12..."). */
static void token_uint_n(pgn_writer *w, const char *prefix, size_t p, unsigned long v,
                         const char *suffix, size_t k) {
    char digits[32];
    size_t n = sizeof digits;
    if (v < 100) { /* move numbers, NAGs: no division loop */
        digits[--n] = (char)('0' + v % 10);
        if (v >= 10) {
            digits[--n] = (char)('0' + v / 10);
        }
    } else {
        do {
            digits[--n] = (char)('0' + v % 10);
            v /= 10;
        } while (v != 0);
    }
    unit_open(w, p + sizeof digits - n + k);
    put(w, prefix, p);
    put(w, digits + n, sizeof digits - n);
    put(w, suffix, k);
}

/* ---- comments (digest §4.2: words re-wrapped, "}" dropped, "{" written as "["). The braces are
 * handled once, first (without_braces); everything below sees text without them. ---- */

static int comment_has_words(pgn_str c) {
    size_t i;
    for (i = 0; i < c.len; i++) {
        if (!pgnk_is_space(c.ptr[i])) {
            return 1;
        }
    }
    return 0;
}

/* The well-formed command ([%clk ...], [%foo bar], not a malformed one) starting at s[i], as
 * pgn_cmd_next reads it; 0 when there is none. */
static int command_at(const char *s, size_t n, size_t i, pgn_cmd *c) {
    pgn_cmd_iter it;
    pgn_str rest;
    if (i + 1 >= n || s[i] != '[' || s[i + 1] != '%') {
        return 0;
    }
    rest.ptr = s + i;
    rest.len = n - i;
    pgn_cmd_iter_init(&it, rest);
    return pgn_cmd_next(&it, c) && c->kind != PGN_CMD_TEXT && c->kind != PGN_CMD_BAD;
}

/* A command normalized in white space only (digest T84): "[%name", one space and the operands
 * with each run of white space made one space and none around commas, "]". Returns the length;
 * writes it when w is not NULL. */
static size_t put_command(pgn_writer *w, const pgn_cmd *c) {
    size_t i, n = 2 + c->name.len + 1;
    int space = 0;
    char last = ',';
    if (w != NULL) {
        put(w, "[%", 2);
        put(w, c->name.ptr, c->name.len);
    }
    if (c->args.len > 0) {
        n++;
        if (w != NULL) {
            put(w, " ", 1);
        }
    }
    for (i = 0; i < c->args.len; i++) {
        char ch = c->args.ptr[i];
        if (pgnk_is_space(ch)) {
            space = 1;
            continue;
        }
        if (space && ch != ',' && last != ',') {
            n++;
            if (w != NULL) {
                put(w, " ", 1);
            }
        }
        space = 0;
        last = ch;
        n++;
        if (w != NULL) {
            put(w, &c->args.ptr[i], 1);
        }
    }
    if (w != NULL) {
        put(w, "]", 1);
    }
    return n;
}

/* Writes (w not NULL) or measures one word of a comment, its commands normalized. */
static size_t put_comment_word(pgn_writer *w, const char *s, size_t n) {
    size_t i = 0, run = 0, len = 0;
    pgn_cmd c;
    while (i < n) {
        if (command_at(s, n, i, &c)) {
            if (w != NULL) {
                put(w, s + run, i - run);
            }
            len += put_command(w, &c);
            i += c.raw.len;
            run = i;
            continue;
        }
        len++;
        i++;
    }
    if (w != NULL) {
        put(w, s + run, n - run);
    }
    return len;
}

/* One word of a comment (a command with its spaces is one word; cmds: it may hold one). A word
 * starting with "%" is glued to the token before it (with its space), so that no line ever starts
 * with "%" (an escape line, PGN §6); so is one starting with "[" but not "[%" (a "[%" cannot start
 * a tag pair), so that no line inside a comment looks like a tag pair, which the reader takes for
 * the end of an unterminated comment; and one starting with "(%", what without_braces makes of a
 * "{%", so that writing the output again lays it out the same way (found by fuzz_roundtrip). */
static void comment_word(pgn_writer *w, const char *s, size_t n, int cmds) {
    size_t kept = cmds ? put_comment_word(NULL, s, n) : n;
    char first = s[0], second = n > 1 ? s[1] : 0;
    int glue = first == '%' || (first == '[' && second != '%') || (first == '(' && second == '%');
    if (glue) {
        put(w, " ", 1);
    } else {
        unit_open(w, kept);
    }
    if (cmds) {
        put_comment_word(w, s, n);
    } else {
        put(w, s, n);
    }
    if (glue) {
        unit_fix(w);
    }
}

/* The comment as it will be written, braces handled first: "}" dropped, "{" made "[" (or "(" where
 * "[%" would appear that the text did not have). Everything after (commands, words, layout) is
 * decided on this text, so that writing the output again decides the same (found by
 * fuzz_roundtrip). Returns c itself when it has no braces. */
static pgn_str without_braces(pgn_writer *w, pgn_str c) {
    void *p = w->clean;
    size_t i, n = 0;
    if (memchr(c.ptr, '{', c.len) == NULL && memchr(c.ptr, '}', c.len) == NULL) {
        return c;
    }
    if (c.len + 1 > w->clean_cap &&
        !pgnk_grow(&w->sink.alloc, &p, &w->clean_cap, c.len + 1, 1, 4097)) {
        w->err = PGN_E_NOMEM;
        c.len = 0;
        return c;
    }
    w->clean = p;
    for (i = 0; i < c.len; i++) {
        char ch = c.ptr[i];
        if (ch == '}') {
            continue;
        }
        if (ch == '{' || (ch == '[' && i + 1 < c.len && c.ptr[i + 1] == '}')) {
            size_t k = i + 1;
            while (k < c.len && c.ptr[k] == '}') {
                k++;
            }
            ch = k < c.len && c.ptr[k] == '%' ? '(' : '[';
            i = k - 1;
        }
        w->clean[n++] = ch;
    }
    c.ptr = w->clean;
    c.len = n;
    return c;
}

static void write_comment(pgn_writer *w, pgn_str c) {
    size_t i = 0, close = 0;
    pgn_cmd cmd;
    if (c.len == 0) {
        return; /* most moves have none */
    }
    c = without_braces(w, c);
    if (w->err != PGN_OK || !comment_has_words(c)) {
        return;
    }
    /* No command can start after the last "]": not looking there keeps a comment full of "[%"
     * linear. Most comments have no "%" at all and take the plain path. */
    if (memchr(c.ptr, '%', c.len) != NULL) {
        close = c.len;
        while (close > 0 && c.ptr[close - 1] != ']') {
            close--;
        }
    }
    token(w, "{", 1);
    while (i < c.len) {
        size_t start;
        int cmds = 0;
        while (i < c.len && pgnk_is_space(c.ptr[i])) {
            i++;
        }
        start = i;
        while (i < c.len && !pgnk_is_space(c.ptr[i])) {
            if (i < close && c.ptr[i] == '[' && command_at(c.ptr, c.len, i, &cmd)) {
                i += cmd.raw.len;
                cmds = 1;
            } else {
                i++;
            }
        }
        if (i > start) {
            comment_word(w, c.ptr + start, i - start, cmds);
        }
    }
    token(w, "}", 1);
    w->need_number = 1;
}

/* ---- the move tree, walked with pgn_iter (src/game/iter.c) ---- */

static int want(const pgn_writer *w, uint32_t flag) {
    return (w->flags & (flag | PGN_WRITE_REDUCED)) == 0;
}

static void open_variation(pgn_writer *w) {
    if (w->flags & PGN_WRITE_SPACED_RAV) {
        token(w, "(", 1);
    } else {
        w->open_paren = 1;
    }
    w->need_number = 1;
}

static void close_variation(pgn_writer *w) {
    if (w->flags & PGN_WRITE_SPACED_RAV) {
        token(w, ")", 1);
    } else {
        put(w, ")", 1);
        unit_fix(w);
    }
    w->need_number = 1;
}

static pgn_str cstr(const char *s) {
    pgn_str r;
    r.ptr = s;
    r.len = strlen(s);
    return r;
}

/* One NAG after a move played by `mover`, in the writer's NAG style. */
static void write_nag(pgn_writer *w, unsigned nag, pgn_color mover) {
    const pgn_nag_info *info = pgn_nag_get((uint8_t)nag);
    const char *s = "";
    int defined = info->nag_class != PGN_NAG_NONSTANDARD || info->used_by[0] != '\0';
    if (w->nag_style == PGN_NAG_STYLE_SYMBOL) {
        s = pgn_nag_write_symbol((uint8_t)nag, mover);
    }
    if (w->nag_style == PGN_NAG_STYLE_TEXT && defined) {
        write_comment(w, cstr(info->meaning));
        return;
    }
    if (*s != '\0') {
        token(w, s, strlen(s));
    } else {
        token_uint_n(w, "$", 1, nag, "", 0);
    }
    if (!(w->flags & PGN_WRITE_NAG_COMPAT)) {
        w->need_number = 1; /* a NAG is an annotation: digest D7, literal reading */
    }
}

/* The move's text san (n bytes, the SAN its first bare ones), or in another language's letters
 * or in descriptive notation, which is written from the position (docs/notation.md). */
static void move_token(pgn_writer *w, const pgn_pos *pos, pgn_move mv, const char *san, size_t n,
                       size_t bare) {
    char other[PGN_SAN_LANG_MAX + PGN_DESC_MAX];
    size_t m;
    if (w->lang == PGN_LANG_ENGLISH) {
        token(w, san, n);
        return;
    }
    if (pgn_lang_is_descriptive(w->lang)) {
        m = pgn_desc_write(pos, w->lang, mv, other, PGN_DESC_MAX);
        if (m > 0) {
            memcpy(other + m, san + bare, n - bare); /* a glued ! or ? */
            m += n - bare;
        }
    } else {
        m = pgn_san_translate(w->lang, san, n, other, sizeof other);
    }
    token(w, m ? other : san, m ? m : n);
}

/* The move number, the SAN and what follows the move: NAGs, then the comment. */
static void write_move(pgn_writer *w, const pgn_node *node) {
    pgn_color side = pgnk_iter_side(w->sink.iter);
    uint32_t fullmove = pgnk_iter_fullmove(w->sink.iter);
    char san[PGN_SAN_MAX + 2];
    size_t i = 0, n, nags = want(w, PGN_WRITE_NO_NAGS) ? node->nag_count : 0;
    if (node->pre.len && want(w, PGN_WRITE_NO_COMMENTS)) {
        write_comment(w, pgn_node_pre_comment(node));
    }
    if (side == PGN_WHITE) {
        token_uint_n(w, "", 0, fullmove, ".", 1);
    } else if (w->need_number) {
        token_uint_n(w, "", 0, fullmove, "...", 3);
    }
    if (w->kept_san) {
        if (nags == 0 && node->post.len == 0) {
            token(w, node->san, node->san_len); /* the common move: SAN only */
            w->need_number = 0;
            return;
        }
        memcpy(san, node->san, node->san_len);
        n = node->san_len;
    } else {
        n = pgn_san_write(pgn_iter_pos(w->sink.iter), node->move, san);
    }
    size_t bare = n; /* the SAN before a glued suffix */
    if (w->nag_style == PGN_NAG_STYLE_SYMBOL && nags > 0 && pgn_node_nag(node, 0) >= 1 &&
        pgn_node_nag(node, 0) <= 6) {
        /* the move's first assessment glued to it, as the suffix it stands for (PGN §8.2.3.8) */
        const char *suffix = pgn_nag_get((uint8_t)pgn_node_nag(node, 0))->ascii;
        memcpy(san + n, suffix, strlen(suffix));
        n += strlen(suffix);
        i = 1;
    }
    /* (the board only where the SAN is not kept: descriptive notation is never written so) */
    move_token(w, w->kept_san ? NULL : pgn_iter_pos(w->sink.iter), node->move, san, n, bare);
    w->need_number = 0;
    for (; i < nags; i++) {
        write_nag(w, pgn_node_nag(node, i), side);
    }
    if (node->post.len && want(w, PGN_WRITE_NO_COMMENTS)) {
        write_comment(w, pgn_node_comment(node));
    }
}

/* ---- a packed main line (PGN_READ_PACK_LINE): the bytes the tree's walk would give ---- */

/* write_move for a packed move (pos: the position before it, kept up to date unless kept_san). */
static void write_packed_move(pgn_writer *w, const pgnk_packed *e, unsigned side, uint32_t fullmove,
                              const pgn_pos *pos) {
    char san[PGN_SAN_MAX + 2];
    if (side == PGN_WHITE) {
        token_uint_n(w, "", 0, fullmove, ".", 1);
    } else if (w->need_number) {
        token_uint_n(w, "", 0, fullmove, "...", 3);
    }
    if (w->kept_san) {
        token(w, e->san, e->san_len);
    } else {
        size_t n = pgn_san_write(pos, e->mv, san);
        move_token(w, pos, e->mv, san, n, n);
    }
    w->need_number = 0;
}

static void write_packed(pgn_writer *w, const pgn_game *game, const pgnk_packed *e, size_t n) {
    pgn_pos pos = *pgn_game_start(game);
    unsigned side = pos.side;
    uint32_t fullmove = pos.fullmove;
    size_t i = 0;
    while (i < n && w->err == PGN_OK) {
        size_t k = pgnk_writer_packed_run(w, e + i, n - i, side, fullmove);
        if (k == 0) {
            write_packed_move(w, &e[i], side, fullmove, &pos);
            k = 1;
        }
        i += k;
        if (w->kept_san) { /* (as pgnk_iter_skip_main) */
            fullmove += (uint32_t)((side + k) / 2);
            side = (unsigned)((side + k) & 1);
        } else { /* (as pgnk_iter_advance_ with its board) */
            pgn_pos_play(&pos, e[i - 1].mv);
            side = pos.side;
            fullmove = pos.fullmove;
        }
    }
}

static void write_movetext(pgn_writer *w, const pgn_game *game, const char *marker) {
    pgn_iter *it = w->sink.iter;
    pgn_iter_event ev;
    uint32_t flags = PGN_ITER_NO_MOVE_LEAVE;
    w->line_start = w->out.len;
    w->unit_start = w->out.len;
    w->open_paren = 0;
    w->need_number = 1; /* a game starting with Black to move begins with "N..." */
    w->kept_san = pgn_game_san_complete(game) && !(w->flags & PGN_WRITE_RECOMPUTE_SAN) &&
                  w->lang == PGN_LANG_ENGLISH;
    if (!w->kept_san) {
        flags |= PGN_ITER_BOARD; /* else the side to move and move number are all it needs */
    }
    if (!want(w, PGN_WRITE_NO_VARIATIONS)) {
        flags |= PGN_ITER_MAIN_LINE;
    }
    size_t packed;
    const pgnk_packed *line = pgnk_game_line(game, &packed);
    if (packed > 0) { /* no comment, NAG or variation: the moves alone */
        write_packed(w, game, line, packed);
        flags = 0;
    }
    pgn_iter_reset(it, game, flags);
    while (w->err == PGN_OK) {
        pgn_status st = pgnk_iter_next(it, &ev);
        if (st != PGN_OK) {
            w->err = st == PGN_END ? PGN_OK : st;
            break;
        }
        if (ev == PGN_ITER_MOVE_ENTER) {
            if (!pgnk_writer_simple_run(w, it)) {
                write_move(w, it->node);
            }
        } else if (ev == PGN_ITER_VARIATION_ENTER) {
            open_variation(w);
        } else if (ev == PGN_ITER_VARIATION_LEAVE) {
            close_variation(w);
        } else if (ev == PGN_ITER_GAME_ENTER && want(w, PGN_WRITE_NO_COMMENTS)) {
            write_comment(w, pgn_node_pre_comment(it->node));
            write_comment(w, pgn_node_comment(it->node));
        }
    }
    token(w, marker, strlen(marker));
    put(w, "\n\n", 2);
}

pgn_status pgn_writer_write(pgn_writer *writer, const pgn_game *game) {
    const char *marker;
    pgn_status st;
    assert(writer != NULL && game != NULL);
    writer->err = PGN_OK;
    writer->out.len = 0;
    writer->line_start = 0;
    writer->unit_start = 0;
    marker = "*";
    pgnk_writer_tags(writer, game, &marker);
    put(writer, "\n", 1);
    write_movetext(writer, game, marker);
    flush(writer, writer->out.len);
    st = writer->err;
    writer->out.len = 0;
    return st;
}
