/* SPDX-License-Identifier: MIT */
/* The UCI protocol (Stefan Meyer-Kahlen's "Description of the universal chess interface", 2004) as
 * pure functions: one line of engine output parsed into a message, every move in it checked on
 * the board, and the "position" command built. No I/O: the CLI owns the engine process. */
#include <assert.h>
#include <string.h>

#include "pgnkit/engine.h"

typedef struct tokenizer {
    const char *p, *end;
} tokenizer;

static int is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Next token, or an empty one at the end of the line. */
static pgn_str next_token(tokenizer *t) {
    while (t->p < t->end && is_blank(*t->p)) {
        t->p++;
    }
    pgn_str s = {t->p, 0};
    while (t->p < t->end && !is_blank(*t->p)) {
        t->p++;
    }
    s.len = (size_t)(t->p - s.ptr);
    return s;
}

/* The rest of the line after blanks, without trailing blanks. */
static pgn_str rest_of_line(tokenizer *t) {
    while (t->p < t->end && is_blank(*t->p)) {
        t->p++;
    }
    const char *e = t->end;
    while (e > t->p && is_blank(e[-1])) {
        e--;
    }
    pgn_str s = {t->p, (size_t)(e - t->p)};
    t->p = t->end;
    return s;
}

static int tok_is(pgn_str s, const char *word) {
    size_t n = strlen(word);
    return s.len == n && memcmp(s.ptr, word, n) == 0;
}

/* Reads a decimal integer with an optional sign; saturates instead of overflowing. */
static int tok_int(pgn_str s, int64_t *out) {
    size_t i = 0;
    int neg = 0;
    if (s.len > 0 && (s.ptr[0] == '-' || s.ptr[0] == '+')) {
        neg = s.ptr[0] == '-';
        i = 1;
    }
    if (i == s.len) {
        return 0;
    }
    int64_t v = 0;
    for (; i < s.len; i++) {
        if (s.ptr[i] < '0' || s.ptr[i] > '9') {
            return 0;
        }
        if (v < INT64_MAX / 10 - 10) {
            v = v * 10 + (s.ptr[i] - '0');
        }
    }
    *out = neg ? -v : v;
    return 1;
}

static uint32_t clamp_u32(int64_t v) {
    return v < 0 ? 0u : v > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static int32_t clamp_i32(int64_t v) {
    return v < INT32_MIN ? INT32_MIN : v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

static void copy_token(char dst[8], pgn_str s) {
    size_t n = s.len < 7 ? s.len : 7;
    memcpy(dst, s.ptr, n);
    dst[n] = 0;
}

/* Info keywords that take one value, which is skipped or read. */
static int takes_one_value(pgn_str k) {
    static const char *const words[] = {"depth",   "seldepth", "time",           "nodes",
                                        "multipv", "currmove", "currmovenumber", "hashfull",
                                        "nps",     "tbhits",   "sbhits",         "cpuload"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (tok_is(k, words[i])) {
            return 1;
        }
    }
    return 0;
}

static int is_info_keyword(pgn_str k) {
    return takes_one_value(k) || tok_is(k, "score") || tok_is(k, "pv") || tok_is(k, "string") ||
           tok_is(k, "refutation") || tok_is(k, "currline");
}

static void parse_score(tokenizer *t, pgn_uci_info *info) {
    pgn_str kind = next_token(t);
    pgn_str val = next_token(t);
    int64_t v;
    if (!tok_int(val, &v) || (!tok_is(kind, "cp") && !tok_is(kind, "mate"))) {
        return;
    }
    info->has |= PGN_INFO_SCORE;
    info->score.bound = PGN_BOUND_EXACT;
    if (tok_is(kind, "cp")) {
        info->score.kind = PGN_SCORE_CP;
        info->score.value = clamp_i32(v);
    } else if (v == 0) {
        info->score.kind = PGN_SCORE_CHECKMATE; /* the side to move is mated */
        info->score.value = -1;
    } else {
        info->score.kind = PGN_SCORE_MATE;
        info->score.value = clamp_i32(v);
    }
    /* bounds and wdl may follow in any order */
    for (;;) {
        tokenizer save = *t;
        pgn_str s = next_token(t);
        if (tok_is(s, "lowerbound")) {
            info->score.bound = PGN_BOUND_LOWER;
        } else if (tok_is(s, "upperbound")) {
            info->score.bound = PGN_BOUND_UPPER;
        } else if (tok_is(s, "wdl")) {
            next_token(t);
            next_token(t);
            next_token(t);
        } else {
            *t = save;
            return;
        }
    }
}

/* Reads pv moves up to the next info keyword, checking each on the board. */
static void parse_pv(tokenizer *t, const pgn_pos *pos, pgn_uci_info *info) {
    pgn_pos cur;
    if (pos) {
        cur = *pos;
    }
    int ok = pos != NULL;
    info->has |= PGN_INFO_PV;
    info->pv_len = 0;
    info->pv_status = PGN_OK;
    for (;;) {
        tokenizer save = *t;
        pgn_str s = next_token(t);
        if (s.len == 0 || is_info_keyword(s)) {
            *t = save;
            return;
        }
        if (!ok || info->pv_len == PGN_UCI_PV_MAX) {
            continue;
        }
        pgn_move mv;
        pgn_status st = pgn_uci_parse(&cur, s.ptr, s.len, &mv);
        if (st == PGN_OK && mv == PGN_MOVE_NULL) {
            st = PGN_E_ILLEGAL_MOVE; /* engines never search null moves */
        }
        if (st != PGN_OK) {
            info->pv_status = st;
            copy_token(info->pv_bad, s);
            ok = 0;
            continue;
        }
        info->pv[info->pv_len++] = mv;
        pgn_pos_play(&cur, mv);
    }
}

static void parse_info(tokenizer *t, const pgn_pos *pos, pgn_uci_msg *out) {
    pgn_uci_info *info = &out->info;
    info->multipv = 1;
    for (;;) {
        pgn_str k = next_token(t);
        if (k.len == 0) {
            return;
        }
        if (tok_is(k, "string")) {
            pgn_str text = rest_of_line(t);
            if (info->has == 0) {
                out->kind = PGN_UCI_INFO_STRING;
                out->text = text;
            }
            return;
        }
        if (tok_is(k, "score")) {
            parse_score(t, info);
        } else if (tok_is(k, "pv")) {
            parse_pv(t, pos, info);
        } else if (tok_is(k, "refutation") || tok_is(k, "currline")) {
            /* move lists we do not use: skipped up to the next keyword */
            pgn_uci_info scratch;
            memset(&scratch, 0, sizeof scratch);
            parse_pv(t, NULL, &scratch);
        } else if (takes_one_value(k)) {
            int64_t v = 0;
            int have = tok_int(next_token(t), &v);
            if (!have) {
                continue;
            }
            if (tok_is(k, "depth")) {
                info->depth = clamp_u32(v);
                info->has |= PGN_INFO_DEPTH;
            } else if (tok_is(k, "seldepth")) {
                info->seldepth = clamp_u32(v);
                info->has |= PGN_INFO_SELDEPTH;
            } else if (tok_is(k, "multipv")) {
                info->multipv = clamp_u32(v);
                info->has |= PGN_INFO_MULTIPV;
            } else if (tok_is(k, "nodes")) {
                info->nodes = v < 0 ? 0 : (uint64_t)v;
                info->has |= PGN_INFO_NODES;
            } else if (tok_is(k, "nps")) {
                info->nps = v < 0 ? 0 : (uint64_t)v;
                info->has |= PGN_INFO_NPS;
            } else if (tok_is(k, "time")) {
                info->time_ms = v < 0 ? 0 : (uint64_t)v;
                info->has |= PGN_INFO_TIME;
            }
        }
        /* any other token is unknown and skipped */
    }
}

static pgn_status read_move(const pgn_pos *pos, pgn_str s, pgn_move *out, char bad[8]) {
    pgn_status st = pgn_uci_parse(pos, s.ptr, s.len, out);
    if (st == PGN_OK && *out == PGN_MOVE_NULL) {
        st = PGN_E_ILLEGAL_MOVE;
    }
    if (st != PGN_OK) {
        *out = PGN_MOVE_NONE;
        copy_token(bad, s);
    }
    return st;
}

static void parse_bestmove(tokenizer *t, const pgn_pos *pos, pgn_uci_msg *out) {
    out->kind = PGN_UCI_BESTMOVE;
    out->move_status = PGN_OK;
    pgn_str best = next_token(t);
    if (!pos || tok_is(best, "(none)") || tok_is(best, "0000")) {
        return;
    }
    out->move_status = read_move(pos, best, &out->best, out->move_bad);
    if (out->move_status != PGN_OK) {
        return;
    }
    if (tok_is(next_token(t), "ponder")) {
        pgn_pos after = *pos;
        pgn_pos_play(&after, out->best);
        char bad[8];
        pgn_str p = next_token(t);
        if (p.len && read_move(&after, p, &out->ponder, bad) != PGN_OK) {
            out->ponder = PGN_MOVE_NONE;
        }
    }
}

/* option name NAME type T [default D] [min m] [max M] [var V]...: NAME may hold spaces. */
static void parse_option(tokenizer *t, pgn_uci_msg *out) {
    if (!tok_is(next_token(t), "name")) {
        return;
    }
    out->kind = PGN_UCI_OPTION;
    pgn_str first = next_token(t);
    const char *name_end = first.ptr + first.len;
    out->text = first;
    out->option_type.ptr = out->option_default.ptr = "";
    for (;;) {
        pgn_str s = next_token(t);
        if (s.len == 0) {
            break;
        }
        if (tok_is(s, "type")) {
            out->option_type = next_token(t);
            continue;
        }
        if (tok_is(s, "default")) {
            /* a string default runs to the next keyword (strings may hold spaces) */
            pgn_str d = next_token(t);
            const char *end = d.ptr + d.len;
            for (;;) {
                tokenizer save = *t;
                pgn_str more = next_token(t);
                if (more.len == 0 || tok_is(more, "min") || tok_is(more, "max") ||
                    tok_is(more, "var")) {
                    *t = save;
                    break;
                }
                end = more.ptr + more.len;
            }
            out->option_default.ptr = d.ptr;
            out->option_default.len = (size_t)(end - d.ptr);
            continue;
        }
        if (out->option_type.len == 0 && !tok_is(s, "min") && !tok_is(s, "max") &&
            !tok_is(s, "var")) {
            name_end = s.ptr + s.len; /* still inside the name */
            out->text.len = (size_t)(name_end - out->text.ptr);
        }
    }
}

void pgn_uci_parse_line(const pgn_pos *pos, const char *line, size_t len, pgn_uci_msg *out) {
    assert(out != NULL && (line != NULL || len == 0));
    memset(out, 0, sizeof *out);
    out->text.ptr = "";
    out->info.pv_status = PGN_OK;
    tokenizer t = {line, line + len};
    pgn_str cmd = next_token(&t);
    if (tok_is(cmd, "info")) {
        out->kind = PGN_UCI_INFO;
        parse_info(&t, pos, out);
    } else if (tok_is(cmd, "bestmove")) {
        parse_bestmove(&t, pos, out);
    } else if (tok_is(cmd, "uciok")) {
        out->kind = PGN_UCI_UCIOK;
    } else if (tok_is(cmd, "readyok")) {
        out->kind = PGN_UCI_READYOK;
    } else if (tok_is(cmd, "id")) {
        pgn_str field = next_token(&t);
        if (tok_is(field, "name") || tok_is(field, "author")) {
            out->kind = tok_is(field, "name") ? PGN_UCI_ID_NAME : PGN_UCI_ID_AUTHOR;
            out->text = rest_of_line(&t);
        }
    } else if (tok_is(cmd, "option")) {
        parse_option(&t, out);
    }
}

typedef struct out_buf {
    char *buf;
    size_t cap, len;
} out_buf;

static void put(out_buf *o, const char *s, size_t n) {
    if (o->len < o->cap) {
        size_t room = o->cap - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}

size_t pgn_uci_position_command(const pgn_pos *start, const pgn_move *moves, size_t n, char *buf,
                                size_t cap) {
    assert(start != NULL && (moves != NULL || n == 0) && (buf != NULL || cap == 0));
    out_buf o = {buf, cap, 0};
    if (pgn_pos_is_standard_start(start) && !start->chess960) {
        put(&o, "position startpos", 17);
    } else {
        char fen[PGN_FEN_MAX];
        size_t fl = pgn_fen_write(start, 0, fen, sizeof fen);
        put(&o, "position fen ", 13);
        put(&o, fen, fl);
    }
    if (n > 0) {
        put(&o, " moves", 6);
    }
    pgn_pos cur = *start;
    for (size_t i = 0; i < n; i++) {
        char uci[PGN_UCI_MAX];
        size_t ul = pgn_uci_write(&cur, moves[i], uci);
        put(&o, " ", 1);
        put(&o, uci, ul);
        pgn_pos_play(&cur, moves[i]);
    }
    if (cap > 0) {
        buf[o.len < cap ? o.len : cap - 1] = 0;
    }
    return o.len;
}

/* The score of an engine line in White's point of view (the model itself is src/game/evaluation.c).
 */
pgn_engine_eval pgn_engine_eval_from_score(pgn_score score, pgn_color side_to_move,
                                           uint32_t depth) {
    pgn_engine_eval e;
    e.kind = score.kind;
    e.value = score.value;
    e.depth = depth;
    if (side_to_move == PGN_BLACK) {
        e.value = e.value == INT32_MIN ? INT32_MAX : -e.value;
    }
    return e;
}
