/* SPDX-License-Identifier: MIT */
/* The JSON writer (docs/json-format.md): one object per game with its tags (PGN §8.1, input
 * order), start position, comments, NAGs (PGN §8.2.4), the variation tree (PGN §8.2.5) as nested
 * lines, the result (PGN §8.2.6), and per move SAN, UCI and FEN. Strings follow RFC 8259 §7. The
 * output is streamed through the callback; the tree is walked with an explicit stack. */
#include "pgnkit/annot.h"
#include "pgnkit/json.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../chess/fen_ranks.h"
#include "../base/utf8.h"
#include "../game/arena.h"
#include "../game/game_internal.h"
#include "sink.h"
#include "variant_start.h"

#define FLUSH_AT ((size_t)1 << 16)

struct pgn_json_writer {
    pgnk_sink sink; /* first: allocator, callback, iterator (sink.h) */
    uint32_t flags, fen_flags;
    uint64_t games;
    pgn_status err; /* the first failure; then everything stops */
    int kept_san;   /* this game's nodes all have their SAN (pgn_game_san_complete) */
    int move_fen;   /* this game's moves have their "fen" (not PGN_JSON_NO_MOVE_FEN's game) */
    int short_move; /* the open move was written "SAN UCI" (PGN_JSON_SHORT_MOVES): no brace */
    char *buf;
    size_t len, cap;
    chess_fen_ranks fen_ranks; /* the FEN text of each rank of the position after fen_node */
    const pgn_node *fen_node;  /* NULL: fen_ranks holds nothing of this game */
};

pgn_status pgn_json_writer_new(pgn_json_writer **out, const pgn_json_writer_opts *opts,
                               pgn_write_fn fn, void *ctx) {
    pgn_json_writer *w;
    pgn_status st;
    assert(out != NULL && fn != NULL);
    *out = NULL;
    w = pgnk_sink_new(sizeof *w, opts != NULL ? opts->alloc : NULL, fn, ctx, &st);
    if (w == NULL) {
        return st;
    }
    if (opts != NULL) {
        w->flags = opts->flags;
        w->fen_flags = opts->fen_flags;
    }
    w->buf = pgnk_malloc(&w->sink.alloc, FLUSH_AT * 2);
    if (w->buf == NULL) {
        pgn_json_writer_free(w);
        return PGN_E_NOMEM;
    }
    w->cap = FLUSH_AT * 2;
    *out = w;
    return PGN_OK;
}

void pgn_json_writer_free(pgn_json_writer *writer) {
    if (writer == NULL) {
        return;
    }
    pgnk_free(&writer->sink.alloc, writer->buf);
    pgnk_sink_free(&writer->sink);
}

/* ---- output ---- */

/* Sends the buffer to the callback. After a failure the output is dropped, so that len stays
 * below FLUSH_AT whatever is written (direct writes rely on it: see room). */
static void flush(pgn_json_writer *w) {
    if (w->err == PGN_OK && w->len != 0) {
        w->err = pgnk_sink_write(&w->sink, w->buf, w->len);
    }
    w->len = 0;
}

/* Appends n bytes; the buffer is flushed when it passes FLUSH_AT, so it never grows (a longer
 * piece goes straight to the callback). The common short piece is copied inline. */
static void put_slow(pgn_json_writer *w, const char *s, size_t n) {
    if (w->err != PGN_OK) {
        return;
    }
    if (n > w->cap - w->len) {
        flush(w);
        if (n > w->cap) {
            if (w->err == PGN_OK) {
                w->err = pgnk_sink_write(&w->sink, s, n);
            }
            return;
        }
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    if (w->len >= FLUSH_AT) {
        flush(w);
    }
}

static inline void put(pgn_json_writer *w, const char *s, size_t n) {
    if (n <= 16 && w->len + n < FLUSH_AT) { /* len < FLUSH_AT <= cap - FLUSH_AT: room */
        char *d = w->buf + w->len;
        for (size_t i = 0; i < n; i++) {
            d[i] = s[i];
        }
        w->len += n;
        return;
    }
    put_slow(w, s, n);
}

/* Where up to ROOM_MAX bytes may be written directly: between calls len is below FLUSH_AT
 * (flush empties the buffer, also after a failure), and cap is twice FLUSH_AT. Then commit. */
#define ROOM_MAX FLUSH_AT
static inline char *room(pgn_json_writer *w) {
    return w->buf + w->len;
}

static inline void commit(pgn_json_writer *w, size_t n) {
    w->len += n;
    if (w->len >= FLUSH_AT) {
        flush(w);
    }
}

static void puts_(pgn_json_writer *w, const char *s) {
    put(w, s, strlen(s));
}

static void put_uint(pgn_json_writer *w, unsigned long v) {
    char digits[24];
    size_t n = sizeof digits;
    do {
        digits[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    put(w, digits + n, sizeof digits - n);
}

/* Writes the JSON form (RFC 8259 §7) of the bytes p[*at..stop) of a string of len bytes at d and
 * moves *at past them; a UTF-8 sequence that starts before stop is finished (up to 3 bytes past
 * it). Every control character (C0, DEL, C1) is written \u00XX, so that no escape sequence of a
 * PGN reaches a terminal through JSON (issue 36). Each byte read gives at most 6 written. */
static size_t escape(char *d, const unsigned char *p, size_t len, size_t *at, size_t stop) {
    static const char hex[] = "0123456789abcdef";
    size_t i = *at, k = 0;
    while (i < stop) {
        unsigned c = p[i];
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x7f) {
            d[k++] = (char)c;
            i++;
        } else if (c >= 0x80) {
            size_t n = pgnk_utf8_seq_len(p + i, len - i);
            if (n == 2 && c == 0xc2 && p[i + 1] < 0xa0) { /* C1 control U+0080-U+009F */
                char esc[6] = {'\\', 'u', '0', '0', hex[p[i + 1] >> 4], hex[p[i + 1] & 15]};
                memcpy(d + k, esc, 6);
                k += 6;
            } else if (n == 0) {
                memcpy(d + k, "\\ufffd", 6);
                k += 6;
                n = 1;
            } else {
                memcpy(d + k, p + i, n);
                k += n;
            }
            i += n;
        } else if (c == '"' || c == '\\') {
            d[k++] = '\\';
            d[k++] = (char)c;
            i++;
        } else {
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            memcpy(d + k, esc, 6);
            k += 6;
            i++;
        }
    }
    *at = i;
    return k;
}

/* A JSON string, escaped straight into the buffer in pieces that fit its room. */
static void put_string(pgn_json_writer *w, pgn_str s) {
    enum { PIECE = (ROOM_MAX - 8) / 6 };
    const unsigned char *p = (const unsigned char *)s.ptr;
    size_t i = 0;
    put(w, "\"", 1);
    while (i < s.len) {
        size_t stop = s.len - i > PIECE ? i + PIECE : s.len;
        commit(w, escape(room(w), p, s.len, &i, stop));
    }
    put(w, "\"", 1);
}

static void put_cstring(pgn_json_writer *w, const char *s) {
    pgn_str t;
    t.ptr = s;
    t.len = strlen(s);
    put_string(w, t);
}

static void put_int(pgn_json_writer *w, const char *key, int64_t v) {
    put(w, ",\"", 2);
    puts_(w, key);
    put(w, "\":", 2);
    if (v < 0) {
        put(w, "-", 1);
    }
    put_uint(w, v < 0 ? (unsigned long)-(v + 1) + 1 : (unsigned long)v);
}

/* ",\"commands\":[...]" for the embedded commands of a comment (include/pgnkit/annot.h), if it
 * has any; malformed ones (PGN_CMD_BAD) are text. The text stays the authority: the reader
 * ignores this array. */
static void put_commands(pgn_json_writer *w, pgn_str text) {
    pgn_cmd_iter it;
    pgn_cmd c;
    int first = 1;
    pgn_cmd_iter_init(&it, text);
    while (pgn_cmd_next(&it, &c)) {
        if (c.kind == PGN_CMD_TEXT || c.kind == PGN_CMD_BAD) {
            continue;
        }
        put(w, first ? ",\"commands\":[{\"name\":" : ",{\"name\":", first ? 21 : 9);
        first = 0;
        put_string(w, c.name);
        put(w, ",\"args\":", 8);
        put_string(w, c.args);
        if (PGN_CMD_TIMES & PGN_CMD_BIT(c.kind)) {
            put_int(w, "ms", c.ms);
        } else if (c.kind == PGN_CMD_EVAL) {
            put_int(w, c.eval.kind == PGN_EVAL_MATE ? "mate" : "cp", c.eval.value);
            if (c.eval.depth >= 0) {
                put_int(w, "depth", c.eval.depth);
            }
        } else if (c.kind == PGN_CMD_CSL || c.kind == PGN_CMD_CAL) {
            pgn_str args = c.args;
            pgn_mark m;
            put(w, ",\"marks\":[", 10);
            for (int k = 0; pgn_mark_next(&args, &m); k++) {
                char mark[] = ",{\"color\":\"G\",\"from\":\"a1\",\"to\":\"a1\"}";
                mark[11] = m.color;
                mark[22] = (char)('a' + (m.from & 7));
                mark[23] = (char)('1' + (m.from >> 3));
                mark[32] = (char)('a' + (m.to & 7));
                mark[33] = (char)('1' + (m.to >> 3));
                put(w, mark + (k == 0), sizeof mark - 1 - (k == 0));
            }
            put(w, "]", 1);
        }
        put(w, "}", 1);
    }
    if (!first) {
        put(w, "]", 1);
    }
}

/* ",\"key\":{\"text\":...}" for a comment, if there is one, with its parsed commands. */
static void put_comment(pgn_json_writer *w, const char *key, pgn_str text) {
    if (text.len == 0) {
        return;
    }
    put(w, ",\"", 2);
    puts_(w, key);
    put(w, "\":{\"text\":", 10);
    put_string(w, text);
    put_commands(w, text);
    put(w, "}", 1);
}

/* ---- the move tree ---- */

/* The SAN of a move at d: the SAN kept in the node when the whole game has it (as the PGN writer
 * does), else from the board. Returns its length. */
static size_t san_at(const pgn_json_writer *w, const pgn_node *n, char *d) {
    if (w->kept_san) {
        pgn_str san = pgn_node_san(n);
        memcpy(d, san.ptr, san.len);
        return san.len;
    }
    return pgn_san_write(pgnk_iter_pos(w->sink.iter), pgn_node_move(n), d);
}

/* A move as the string "SAN UCI" (PGN_JSON_SHORT_MOVES), straight into the buffer. */
static void put_short_move(pgn_json_writer *w, const pgn_node *n) {
    static_assert(3 + PGN_SAN_MAX + PGN_UCI_MAX <= ROOM_MAX, "a move fits the buffer's room");
    char *d = room(w);
    size_t k = 1;
    d[0] = '"';
    k += san_at(w, n, d + k);
    d[k++] = ' ';
    k += pgn_uci_write(pgnk_iter_pos(w->sink.iter), pgn_node_move(n), d + k);
    d[k++] = '"';
    commit(w, k);
}

/* "san", "uci" and "fen" (unless !move_fen) of a move, written straight into the buffer. */
static void put_move(pgn_json_writer *w, const pgn_node *n) {
    enum { MOST = 7 + PGN_SAN_MAX + 9 + PGN_UCI_MAX + 9 + PGN_FEN_MAX + 8 };
    pgn_move mv = pgn_node_move(n);
    const pgn_pos *pos = pgnk_iter_pos(w->sink.iter);
    char *d = room(w);
    size_t k = 7;
    static_assert(MOST <= ROOM_MAX, "a move fits the buffer's room");
    memcpy(d, "\"san\":\"", 7);
    k += san_at(w, n, d + k);
    memcpy(d + k, "\",\"uci\":\"", 9);
    k += 9;
    k += pgn_uci_write(pos, mv, d + k);
    if (!w->move_fen) {
        d[k++] = '"';
        commit(w, k);
        return;
    }
    pos = pgnk_iter_pos_after(w->sink.iter);
    memcpy(d + k, "\",\"fen\":\"", 9);
    k += 9;
    /* after the parent's move fen_ranks holds this move's before: only its ranks change */
    unsigned changed = 0xffu;
    if (w->fen_node != NULL && pgn_node_parent(n) == w->fen_node &&
        !(w->flags & PGN_JSON_RECOMPUTE) && pos->variant == PGN_VARIANT_STANDARD) {
        /* (a variant's move may change more: an atomic explosion, a drop's pocket) */
        changed = chess_fen_move_ranks(mv);
    }
    w->fen_node = n;
    k += pgnk_chess_fen_write_ranks(&w->fen_ranks, pos, w->fen_flags, changed, d + k);
    d[k++] = '"';
    commit(w, k);
}

/* Writes node's object up to (not including) its "variations" and closing brace, or the whole
 * move as "SAN UCI" (PGN_JSON_SHORT_MOVES) when it has nothing but them. */
static void put_node(pgn_json_writer *w, const pgn_node *n) {
    size_t i, k = pgn_node_nag_count(n);
    pgn_str pre = pgn_node_pre_comment(n), post = pgn_node_comment(n);
    w->short_move = !w->move_fen && (w->flags & PGN_JSON_SHORT_MOVES) && k == 0 && pre.len == 0 &&
                    post.len == 0 && !pgnk_iter_has_variations(w->sink.iter);
    if (w->short_move) {
        put_short_move(w, n);
        return;
    }
    put(w, "{", 1);
    if (pre.len) {
        put(w, "\"pre_comment\":{\"text\":", 22);
        put_string(w, pre);
        put_commands(w, pre);
        put(w, "},", 2);
    }
    put_move(w, n);
    if (k) {
        put(w, ",\"nags\":[", 9);
        for (i = 0; i < k; i++) {
            if (i) {
                put(w, ",", 1);
            }
            put_uint(w, pgn_node_nag(n, i));
        }
        put(w, "]", 1);
    }
    put_comment(w, "comment", post);
}

/* The moves of the game (docs/json-format.md): an array of move objects; a main continuation
 * with alternatives lists them in its "variations", an array of such arrays. The separators
 * follow from the event before: a move after a move's end takes a comma, a variation after a
 * variation's end too, and a move whose variations end closes their array. */
static void put_moves(pgn_json_writer *w, const pgn_game *game) {
    pgn_iter *it = w->sink.iter;
    pgn_iter_event ev, prev = PGN_ITER_GAME_ENTER;
    pgn_iter_reset(it, game, PGN_ITER_BOARD);
    while (w->err == PGN_OK) {
        pgn_status st = pgnk_iter_next(it, &ev);
        if (st != PGN_OK) {
            w->err = st == PGN_END ? PGN_OK : st;
            break;
        }
        switch (ev) {
        case PGN_ITER_MOVE_ENTER:
            if (prev == PGN_ITER_MOVE_LEAVE) {
                put(w, ",", 1);
            }
            put_node(w, it->node);
            break;
        case PGN_ITER_MOVE_LEAVE:
            if (prev == PGN_ITER_VARIATION_LEAVE) {
                put(w, "]}", 2);
            } else if (!w->short_move) {
                put(w, "}", 1);
            }
            break;
        case PGN_ITER_VARIATION_ENTER:
            if (prev == PGN_ITER_MOVE_ENTER) {
                put(w, ",\"variations\":[[", 16);
            } else {
                put(w, ",[", 2);
            }
            break;
        case PGN_ITER_VARIATION_LEAVE:
        case PGN_ITER_GAME_LEAVE: put(w, "]", 1); break;
        default: /* PGN_ITER_GAME_ENTER */ put(w, "[", 1); break;
        }
        prev = ev;
    }
}

/* How the game was read (docs/json-format.md): "broken": true for a game cut short, and its
 * diagnostics (code, severity, line, column, message, token), with the number not kept. */
static void put_diagnostics(pgn_json_writer *w, const pgn_game *game) {
    uint64_t dropped;
    size_t n = pgn_game_diag_count(game, &dropped);
    if (pgn_game_broken(game)) {
        put(w, ",\"broken\":true", 14);
    }
    if (n == 0) {
        return;
    }
    put(w, ",\"diagnostics\":[", 16);
    for (size_t i = 0; i < n; i++) {
        const pgn_diag *d = pgn_game_diag(game, i);
        put(w, i ? ",{\"code\":" : "{\"code\":", i ? 9 : 8);
        put_cstring(w, pgn_status_name(d->code));
        put(w, ",\"severity\":", 12);
        put_cstring(w, d->severity == PGN_SEV_ERROR ? "error" : "warning");
        put(w, ",\"line\":", 8);
        put_uint(w, d->at.line);
        put(w, ",\"column\":", 10);
        put_uint(w, d->at.column);
        put(w, ",\"message\":", 11);
        put_cstring(w, pgn_status_message(d->code));
        put(w, ",\"token\":", 9);
        put_cstring(w, d->token);
        put(w, "}", 1);
    }
    put(w, "]", 1);
    if (dropped) {
        put(w, ",\"diagnostics_dropped\":", 23);
        put_uint(w, (unsigned long)dropped);
    }
}

/* ---- games ---- */

pgn_status pgn_json_writer_write(pgn_json_writer *writer, const pgn_game *game) {
    pgn_json_writer *w = writer;
    const pgn_pos *start;
    const pgn_node *root;
    size_t i, n;
    assert(w != NULL && game != NULL);
    if (w->err != PGN_OK) {
        return w->err;
    }
    if (!(w->flags & PGN_JSON_NDJSON)) {
        put(w, w->games ? ",\n" : "[\n", 2);
    }
    w->games++;
    w->kept_san = pgn_game_san_complete(game) && !(w->flags & PGN_JSON_RECOMPUTE);
    w->fen_node = NULL; /* nodes of another game may sit at the same addresses */
    put(w, "{\"tags\":{", 9);
    n = pgn_game_tag_count(game);
    for (i = 0; i < n; i++) {
        if (i) {
            put(w, ",", 1);
        }
        put_string(w, pgn_game_tag_name(game, i));
        put(w, ":", 1);
        put_string(w, pgn_game_tag_value(game, i));
    }
    put(w, "}", 1);
    start = pgn_game_start(game);
    w->move_fen = !(w->flags & PGN_JSON_NO_MOVE_FEN) || start->chess960 ||
                  start->variant != PGN_VARIANT_STANDARD;
    if (start->variant != PGN_VARIANT_STANDARD) {
        put(w, ",\"variant\":", 11);
        put_cstring(w, pgn_variant_uci_name((pgn_variant)start->variant));
    }
    if (!pgnk_export_is_rules_start(start) || start->chess960) {
        char fen[PGN_FEN_MAX];
        pgn_fen_write(start, w->fen_flags, fen, sizeof fen);
        put(w, ",\"fen\":", 7);
        put_cstring(w, fen);
        if (start->chess960) {
            put(w, ",\"chess960\":true", 16);
        }
    }
    root = pgn_game_root(game);
    put_comment(w, "comment", pgn_node_comment(root));
    put(w, ",\"moves\":", 9);
    put_moves(w, game);
    put(w, ",\"result\":", 10);
    put_cstring(w, pgn_result_str(pgn_game_result(game)));
    put_diagnostics(w, game);
    put(w, "}", 1);
    if (w->flags & PGN_JSON_NDJSON) {
        put(w, "\n", 1);
    }
    flush(w);
    return w->err;
}

pgn_status pgn_json_writer_finish(pgn_json_writer *writer) {
    assert(writer != NULL);
    if (writer->err != PGN_OK || (writer->flags & PGN_JSON_NDJSON)) {
        return writer->err;
    }
    puts_(writer, writer->games ? "\n]\n" : "[]\n");
    flush(writer);
    return writer->err;
}

size_t pgn_json_escape(char *dst, size_t cap, const char *src, size_t len) {
    const unsigned char *p = (const unsigned char *)src;
    size_t i = 0, k = 0;
    assert(dst != NULL && cap > 0 && (src != NULL || len == 0));
    /* one character at a time: at most 6 bytes each, so the text is cut on a boundary */
    while (i < len && cap - k > 6) {
        k += escape(dst + k, p, len, &i, i + 1);
    }
    dst[k] = '\0';
    return k;
}

/* ---- JSON through a callback: strings and diagnostics (docs/diagnostics.schema.json) ---- */

/* Output gathered on the stack and sent to the callback when full and at the end, so that a
 * diagnostic usually reaches fn in one call. */
typedef struct cb_out {
    pgn_write_fn fn;
    void *ctx;
    pgn_status err;
    size_t len;
    char buf[2048];
} cb_out;

enum { CB_PIECE = 256 }; /* escaped, a piece takes at most 6 * (CB_PIECE + 3) bytes of buf */

static void cb_flush(cb_out *o) {
    if (o->err == PGN_OK && o->len != 0) {
        ptrdiff_t r = o->fn(o->ctx, o->buf, o->len);
        if (r < 0 || (size_t)r != o->len) {
            o->err = PGN_E_IO;
        }
    }
    o->len = 0;
}

/* n is short: the fixed pieces of a diagnostic */
static void cb_put(cb_out *o, const char *s, size_t n) {
    assert(n <= sizeof o->buf);
    if (n > sizeof o->buf - o->len) {
        cb_flush(o);
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void cb_string(cb_out *o, const char *s, size_t len) {
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    cb_put(o, "\"", 1);
    while (i < len) {
        size_t stop = len - i > CB_PIECE ? i + CB_PIECE : len;
        if (sizeof o->buf - o->len < 6 * (CB_PIECE + 3)) {
            cb_flush(o);
        }
        o->len += escape(o->buf + o->len, p, len, &i, stop);
    }
    cb_put(o, "\"", 1);
}

static void cb_member(cb_out *o, const char *name, const char *s) {
    cb_put(o, name, strlen(name));
    cb_string(o, s, strlen(s));
}

pgn_status pgn_json_write_string(pgn_write_fn fn, void *ctx, const char *src, size_t len) {
    cb_out o;
    assert(fn != NULL && (src != NULL || len == 0));
    o.fn = fn, o.ctx = ctx, o.err = PGN_OK, o.len = 0;
    cb_string(&o, src, len);
    cb_flush(&o);
    return o.err;
}

ptrdiff_t pgn_json_html_write(void *ctx, const void *p, size_t n) {
    const pgn_json_html_sink *sink = ctx;
    const char *s = p;
    size_t run = 0;
    assert(sink != NULL && sink->fn != NULL && (p != NULL || n == 0));
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '<' || s[i] == '>' || s[i] == '&') {
            char esc[6] = {
                '\\', 'u', '0', '0', s[i] == '&' ? '2' : '3', "0123456789abcdef"[s[i] & 15]};
            if ((i > run && sink->fn(sink->ctx, s + run, i - run) < 0) ||
                sink->fn(sink->ctx, esc, sizeof esc) < 0) {
                return -1;
            }
            run = i + 1;
        }
    }
    if (n > run && sink->fn(sink->ctx, s + run, n - run) < 0) {
        return -1;
    }
    return (ptrdiff_t)n;
}

/* ,"suggestions":["Bb5","Bc4"] (space-separated in d) and ,"replacement":"Bb5" when set */
static void cb_fixes(cb_out *o, const pgn_diag *d) {
    const char *p = d->suggestions;
    if (*p != '\0') {
        cb_put(o, ",\"suggestions\":[", 16);
        for (int first = 1; *p != '\0'; first = 0) {
            size_t n = strcspn(p, " ");
            cb_put(o, ",", first ? 0 : 1);
            cb_string(o, p, n);
            p += n + (p[n] == ' ');
        }
        cb_put(o, "]", 1);
    }
    if (d->replacement[0] != '\0') {
        cb_member(o, ",\"replacement\":", d->replacement);
    }
}

pgn_status pgn_diag_json(const pgn_diag *d, const char *detail, pgn_write_fn fn, void *ctx) {
    cb_out o;
    char head[160];
    assert(d != NULL && fn != NULL);
    o.fn = fn, o.ctx = ctx, o.err = PGN_OK, o.len = 0;
    cb_member(&o, "{\"file\":", d->source != NULL ? d->source : "<stdin>");
    int n =
        snprintf(head, sizeof head,
                 ",\"line\":%u,\"column\":%u,\"offset\":%llu,\"game\":%llu,\"severity\":\"%s\"",
                 (unsigned)d->at.line, (unsigned)d->at.column, (unsigned long long)d->at.offset,
                 (unsigned long long)d->game, d->severity == PGN_SEV_ERROR ? "error" : "warning");
    cb_put(&o, head, n > 0 && (size_t)n < sizeof head ? (size_t)n : 0);
    cb_member(&o, ",\"code\":", pgn_status_name(d->code));
    cb_member(&o, ",\"message\":", pgn_status_message(d->code));
    if (detail != NULL && detail[0] != '\0') {
        cb_member(&o, ",\"detail\":", detail);
    }
    cb_member(&o, ",\"token\":", d->token);
    cb_fixes(&o, d);
    cb_put(&o, "}", 1);
    cb_flush(&o);
    return o.err;
}
