/* SPDX-License-Identifier: MIT */
/* Line-oriented exporters of a game's main line: SAN (PGN §8.2.3), long algebraic, EPD (PGN §16.2:
 * the four FEN fields and the hmvc, fmvn and id opcodes) and CSV (RFC 4180: fields with a comma, a
 * double quote or a line break are quoted, quotes doubled, rows end with CRLF). Each game is
 * composed in one reusable buffer and handed to the callback. */
#include "pgnkit/export.h"

#include <assert.h>
#include <string.h>

#include "../game/arena.h"
#include "pgnkit/annot.h"

struct pgn_exporter {
    pgn_export_opts opts;
    pgn_allocator alloc;
    pgn_write_fn fn;
    void *ctx;
    char *buf;
    size_t len, cap;
    uint64_t games;
    int header_done;
    pgn_status err;
};

static const char *const str_names[7] = {"Event", "Site",  "Date",  "Round",
                                         "White", "Black", "Result"};

pgn_status pgn_exporter_new(pgn_exporter **out, const pgn_export_opts *opts, pgn_write_fn fn,
                            void *ctx) {
    pgn_exporter *ex;
    assert(out != NULL && opts != NULL && fn != NULL);
    *out = NULL;
    pgn_status st;
    ex = pgnk_alloc_object(opts->alloc, sizeof *ex, &st);
    if (ex == NULL) {
        return st;
    }
    ex->opts = *opts;
    pgnk_alloc_copy(&ex->alloc, opts->alloc);
    ex->opts.alloc = &ex->alloc; /* no pointer of the caller's is kept */
    ex->fn = fn;
    ex->ctx = ctx;
    *out = ex;
    return PGN_OK;
}

void pgn_exporter_free(pgn_exporter *ex) {
    pgn_allocator alloc;
    if (ex == NULL) {
        return;
    }
    alloc = ex->alloc;
    pgnk_free(&alloc, ex->buf);
    pgnk_free(&alloc, ex);
}

static void put(pgn_exporter *ex, const char *s, size_t n) {
    if (ex->err != PGN_OK || n == 0) {
        return;
    }
    if (n > ex->cap - ex->len) {
        void *p = ex->buf;
        if (n > SIZE_MAX - ex->len || !pgnk_grow(&ex->alloc, &p, &ex->cap, ex->len + n, 1, 4096)) {
            ex->err = PGN_E_NOMEM;
            return;
        }
        ex->buf = p;
    }
    memcpy(ex->buf + ex->len, s, n);
    ex->len += n;
}

static void puts_(pgn_exporter *ex, const char *s) {
    put(ex, s, strlen(s));
}

static void put_uint(pgn_exporter *ex, uint64_t v) {
    char d[24];
    size_t n = sizeof d;
    do {
        d[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    put(ex, d + n, sizeof d - n);
}

static pgn_status flush(pgn_exporter *ex) {
    pgn_status st = ex->err;
    if (st == PGN_OK && ex->len > 0) {
        ptrdiff_t r = ex->fn(ex->ctx, ex->buf, ex->len);
        if (r < 0 || (size_t)r != ex->len) {
            st = PGN_E_IO;
        }
    }
    ex->len = 0;
    ex->err = PGN_OK;
    return st;
}

/* ---- long algebraic ---- */

size_t pgn_lan_write(const pgn_pos *pos, pgn_move mv, char buf[PGN_LAN_MAX]) {
    static const char letters[] = "  NBRQK";
    char san[PGN_SAN_MAX];
    size_t n = 0, sn;
    pgn_square from = PGN_MOVE_FROM(mv), to = PGN_MOVE_TO(mv);
    pgn_piece_type type;
    assert(pos != NULL && buf != NULL);
    sn = pgn_san_write(pos, mv, san);
    if (mv == PGN_MOVE_NULL || PGN_MOVE_KIND(mv) == PGN_MOVE_CASTLE || sn == 0) {
        memcpy(buf, san, sn + 1);
        return sn;
    }
    type = PGN_PIECE_TYPE(pos->board[from]);
    if (type != PGN_PAWN && type != PGN_NO_PIECE) {
        buf[n++] = letters[type];
    }
    buf[n++] = (char)('a' + from % 8);
    buf[n++] = (char)('1' + from / 8);
    buf[n++] = pgn_move_is_capture(pos, mv) ? 'x' : '-';
    buf[n++] = (char)('a' + to % 8);
    buf[n++] = (char)('1' + to / 8);
    if (PGN_MOVE_KIND(mv) == PGN_MOVE_PROMOTION) {
        buf[n++] = '=';
        buf[n++] = letters[PGN_MOVE_PROMO(mv)];
    }
    if (san[sn - 1] == '+' || san[sn - 1] == '#') {
        buf[n++] = san[sn - 1];
    }
    buf[n] = '\0';
    return n;
}

/* ---- one line per game: SAN, LAN ---- */

static void write_moves(pgn_exporter *ex, const pgn_game *game) {
    const pgn_node *node;
    pgn_pos pos = *pgn_game_start(game);
    int first = 1;
    for (node = pgn_node_child(pgn_game_root(game)); node != NULL; node = pgn_node_child(node)) {
        char text[PGN_LAN_MAX];
        size_t n;
        pgn_move mv = pgn_node_move(node);
        if (ex->opts.format == PGN_EXPORT_LAN) {
            n = pgn_lan_write(&pos, mv, text);
        } else {
            n = pgn_san_write(&pos, mv, text);
        }
        if (!first) {
            put(ex, " ", 1);
        }
        if (ex->opts.lang != PGN_LANG_ENGLISH) { /* not export format (docs/notation.md) */
            char other[PGN_SAN_LANG_MAX + PGN_DESC_MAX];
            size_t m = pgn_lang_is_descriptive(ex->opts.lang)
                           ? pgn_desc_write(&pos, ex->opts.lang, mv, other, sizeof other)
                           : pgn_san_translate(ex->opts.lang, text, n, other, sizeof other);
            put(ex, m ? other : text, m ? m : n);
        } else {
            put(ex, text, n);
        }
        first = 0;
        pgn_pos_play(&pos, mv);
    }
    put(ex, "\n", 1);
}

/* ---- EPD ---- */

static void epd_line(pgn_exporter *ex, const pgn_pos *pos, uint64_t ply) {
    char fen[PGN_FEN_MAX];
    size_t n = pgn_fen_write(pos, ex->opts.fen_flags | PGN_FEN_EPD, fen, sizeof fen);
    put(ex, fen, n);
    puts_(ex, " hmvc ");
    put_uint(ex, pos->halfmove);
    puts_(ex, "; fmvn ");
    put_uint(ex, pos->fullmove);
    puts_(ex, "; id \"");
    put_uint(ex, ex->games);
    put(ex, ".", 1);
    put_uint(ex, ply);
    puts_(ex, "\";\n");
}

static void write_epd(pgn_exporter *ex, const pgn_game *game) {
    const pgn_node *node;
    pgn_pos pos = *pgn_game_start(game);
    uint64_t ply = 0;
    epd_line(ex, &pos, ply);
    for (node = pgn_node_child(pgn_game_root(game)); node != NULL; node = pgn_node_child(node)) {
        pgn_pos_play(&pos, pgn_node_move(node));
        epd_line(ex, &pos, ++ply);
    }
}

/* ---- CSV (RFC 4180) ---- */

static void csv_field(pgn_exporter *ex, const char *s, size_t n) {
    size_t i, run = 0;
    int quote = 0;
    for (i = 0; i < n && !quote; i++) {
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    }
    if (!quote) {
        put(ex, s, n);
        return;
    }
    put(ex, "\"", 1);
    for (i = 0; i < n; i++) {
        if (s[i] == '"') {
            put(ex, s + run, i + 1 - run);
            run = i; /* the quote again */
        }
    }
    put(ex, s + run, n - run);
    put(ex, "\"", 1);
}

static void csv_header(pgn_exporter *ex) {
    size_t i;
    if (ex->header_done) {
        return;
    }
    ex->header_done = 1;
    if (ex->opts.format == PGN_EXPORT_CSV_PLY) {
        puts_(ex, "game,ply,san,uci,fen,clock,eval,nags\r\n");
        return;
    }
    if (ex->opts.tags == NULL) {
        puts_(ex, "Event,Site,Date,Round,White,Black,Result\r\n");
        return;
    }
    for (i = 0; i < ex->opts.tag_count; i++) {
        if (i > 0) {
            put(ex, ",", 1);
        }
        csv_field(ex, ex->opts.tags[i].ptr, ex->opts.tags[i].len);
    }
    put(ex, "\r\n", 2);
}

static void csv_tag(pgn_exporter *ex, const pgn_game *game, pgn_str name) {
    size_t i, count = pgn_game_tag_count(game);
    if (name.len == 6 && memcmp(name.ptr, "Result", 6) == 0) {
        pgn_result r = pgn_game_result(game);
        pgn_str v;
        if (r == PGN_RESULT_NONE && pgn_game_tag_get(game, "Result", &v)) {
            csv_field(ex, v.ptr, v.len);
        } else {
            puts_(ex, pgn_result_str(r));
        }
        return;
    }
    for (i = 0; i < count; i++) {
        pgn_str n = pgn_game_tag_name(game, i);
        if (n.len == name.len && memcmp(n.ptr, name.ptr, n.len) == 0) {
            pgn_str v = pgn_game_tag_value(game, i);
            csv_field(ex, v.ptr, v.len);
            return;
        }
    }
}

static void write_csv_row(pgn_exporter *ex, const pgn_game *game) {
    size_t i;
    if (ex->opts.tags == NULL) {
        for (i = 0; i < 7; i++) {
            pgn_str name = {str_names[i], strlen(str_names[i])};
            if (i > 0) {
                put(ex, ",", 1);
            }
            csv_tag(ex, game, name);
        }
    } else {
        for (i = 0; i < ex->opts.tag_count; i++) {
            if (i > 0) {
                put(ex, ",", 1);
            }
            csv_tag(ex, game, ex->opts.tags[i]);
        }
    }
    put(ex, "\r\n", 2);
}

/* Seconds with up to three decimals, trailing zeros dropped ("59.5", "180"). */
static void put_seconds(pgn_exporter *ex, int64_t ms) {
    char frac[4];
    int n = 3;
    if (ms < 0) {
        put(ex, "-", 1);
        ms = -ms;
    }
    put_uint(ex, (uint64_t)ms / 1000);
    ms %= 1000;
    if (ms == 0) {
        return;
    }
    frac[0] = (char)('0' + ms / 100);
    frac[1] = (char)('0' + ms / 10 % 10);
    frac[2] = (char)('0' + ms % 10);
    while (frac[n - 1] == '0') {
        n--;
    }
    put(ex, ".", 1);
    put(ex, frac, (size_t)n);
}

static void put_eval(pgn_exporter *ex, const pgn_eval *e) {
    char text[PGN_CMD_MAX];
    size_t n = pgn_eval_write(e, text), start = 7; /* after "[%eval " */
    size_t end = n - 1;                            /* before "]" */
    size_t i;
    for (i = start; i < end; i++) {
        if (text[i] == ',') {
            end = i; /* the depth is not part of the value */
        }
    }
    put(ex, text + start, end - start);
}

static void write_csv_plies(pgn_exporter *ex, const pgn_game *game) {
    const pgn_node *node;
    pgn_pos pos = *pgn_game_start(game);
    uint64_t ply = 0;
    for (node = pgn_node_child(pgn_game_root(game)); node != NULL; node = pgn_node_child(node)) {
        char san[PGN_SAN_MAX], uci[PGN_UCI_MAX], fen[PGN_FEN_MAX];
        pgn_move mv = pgn_node_move(node);
        int64_t ms;
        pgn_eval e;
        size_t i;
        put_uint(ex, ex->games);
        put(ex, ",", 1);
        put_uint(ex, ++ply);
        put(ex, ",", 1);
        put(ex, san, pgn_san_write(&pos, mv, san));
        put(ex, ",", 1);
        put(ex, uci, pgn_uci_write(&pos, mv, uci));
        put(ex, ",", 1);
        pgn_pos_play(&pos, mv);
        put(ex, fen, pgn_fen_write(&pos, ex->opts.fen_flags, fen, sizeof fen));
        put(ex, ",", 1);
        if (pgn_node_clock(node, &ms)) {
            put_seconds(ex, ms);
        }
        put(ex, ",", 1);
        if (pgn_node_eval(node, &e)) {
            put_eval(ex, &e);
        }
        put(ex, ",", 1);
        for (i = 0; i < pgn_node_nag_count(node); i++) {
            if (i > 0) {
                put(ex, " ", 1);
            }
            put(ex, "$", 1);
            put_uint(ex, pgn_node_nag(node, i));
        }
        put(ex, "\r\n", 2);
    }
}

pgn_status pgn_exporter_write(pgn_exporter *ex, const pgn_game *game) {
    assert(ex != NULL && game != NULL);
    ex->games++;
    switch (ex->opts.format) {
    case PGN_EXPORT_SAN:
    case PGN_EXPORT_LAN: write_moves(ex, game); break;
    case PGN_EXPORT_EPD: write_epd(ex, game); break;
    case PGN_EXPORT_CSV:
        csv_header(ex);
        write_csv_row(ex, game);
        break;
    case PGN_EXPORT_CSV_PLY:
        csv_header(ex);
        write_csv_plies(ex, game);
        break;
    default: break;
    }
    return flush(ex);
}

pgn_status pgn_exporter_finish(pgn_exporter *ex) {
    assert(ex != NULL);
    if (ex->opts.format == PGN_EXPORT_CSV || ex->opts.format == PGN_EXPORT_CSV_PLY) {
        csv_header(ex);
    }
    return flush(ex);
}
