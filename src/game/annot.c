/* SPDX-License-Identifier: MIT */
/* Embedded commands in comments (PGN Specification Supplement §3.2 and §4; the de facto [%eval],
 * [%csl], [%cal]; digest §10): a zero-copy scanner over a comment's text and commands, and the
 * node getters and setters built on it. Commands stay in the comment text (docs/design.md). */
#include "pgnkit/annot.h"

#include <assert.h>
#include <string.h>

#include "../base/chars.h"
#include "arena.h"

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

static int is_alnum(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static pgn_str trim(pgn_str s) {
    while (s.len > 0 && pgnk_is_space(s.ptr[0])) {
        s.ptr++;
        s.len--;
    }
    while (s.len > 0 && pgnk_is_space(s.ptr[s.len - 1])) {
        s.len--;
    }
    return s;
}

static int str_is(pgn_str s, const char *lit) {
    size_t n = strlen(lit);
    return s.len == n && memcmp(s.ptr, lit, n) == 0;
}

/* Reads 1..max_digits digits at s[*i]; the value in *v. 0 when there are none or too many. */
static int digits(pgn_str s, size_t *i, int max_digits, int64_t *v) {
    int n = 0;
    *v = 0;
    while (*i < s.len && is_digit(s.ptr[*i])) {
        if (++n > max_digits) {
            return 0;
        }
        *v = *v * 10 + (s.ptr[*i] - '0');
        (*i)++;
    }
    return n > 0;
}

/* H:MM:SS(.f...): hours up to 6 digits, minutes and seconds 1 or 2 digits below 60 (python-chess
 * and chessops accept one-digit fields too). Fractions are rounded to milliseconds. */
static int parse_time(pgn_str s, int64_t *ms) {
    size_t i = 0;
    int64_t h, m, sec, frac = 0, scale = 1000;
    int round_up = 0;
    if (!digits(s, &i, 6, &h) || i >= s.len || s.ptr[i++] != ':' || !digits(s, &i, 2, &m) ||
        i >= s.len || s.ptr[i++] != ':' || !digits(s, &i, 2, &sec) || m >= 60 || sec >= 60) {
        return 0;
    }
    if (i < s.len && s.ptr[i] == '.') {
        i++;
        while (i < s.len && is_digit(s.ptr[i])) {
            if (scale > 1) {
                scale /= 10;
                frac += (s.ptr[i] - '0') * scale;
            } else if (scale == 1) {
                round_up = s.ptr[i] >= '5';
                scale = 0;
            }
            i++;
        }
    }
    if (i != s.len) {
        return 0;
    }
    *ms = ((h * 60 + m) * 60 + sec) * 1000 + frac + round_up;
    return 1;
}

/* [+-]?(D+ | D*.D{1,2} | D+.) in pawns, or #[+-]?D+; then an optional ",depth". */
static int parse_eval(pgn_str s, pgn_eval *e) {
    size_t i = 0, comma = 0;
    int64_t v = 0, d = -1;
    int neg = 0;
    pgn_str val = s;
    while (comma < s.len && s.ptr[comma] != ',') {
        comma++;
    }
    if (comma < s.len) {
        pgn_str dep = {s.ptr + comma + 1, s.len - comma - 1};
        size_t j = 0;
        dep = trim(dep);
        if (!digits(dep, &j, 5, &d) || j != dep.len) {
            return 0;
        }
        val.len = comma;
        val = trim(val);
    }
    e->depth = (int32_t)d;
    if (val.len > 0 && val.ptr[0] == '#') {
        i = 1;
        if (i < val.len && (val.ptr[i] == '+' || val.ptr[i] == '-')) {
            neg = val.ptr[i++] == '-';
        }
        if (!digits(val, &i, 5, &v) || i != val.len) {
            return 0;
        }
        e->kind = PGN_EVAL_MATE;
        e->value = (int32_t)(neg ? -v : v);
        return 1;
    }
    if (i < val.len && (val.ptr[i] == '+' || val.ptr[i] == '-')) {
        neg = val.ptr[i++] == '-';
    }
    {
        int64_t whole = 0, frac = 0;
        int have_whole = digits(val, &i, 7, &whole), nfrac = 0;
        if (i < val.len && val.ptr[i] == '.') {
            i++;
            while (i < val.len && is_digit(val.ptr[i]) && nfrac < 3) {
                frac = frac * 10 + (val.ptr[i++] - '0');
                nfrac++;
            }
        }
        if (i != val.len || nfrac > 2 || (!have_whole && nfrac == 0)) {
            return 0;
        }
        v = whole * 100 + (nfrac == 1 ? frac * 10 : frac);
    }
    e->kind = PGN_EVAL_CP;
    e->value = (int32_t)(neg ? -v : v);
    return 1;
}

static int square_at(const char *p, uint8_t *sq) {
    if (p[0] < 'a' || p[0] > 'h' || p[1] < '1' || p[1] > '8') {
        return 0;
    }
    *sq = (uint8_t)((p[1] - '1') * 8 + (p[0] - 'a'));
    return 1;
}

int pgn_mark_next(pgn_str *args, pgn_mark *out) {
    pgn_str s = *args;
    size_t end = 0;
    assert(args != NULL && out != NULL);
    while (s.len > 0 && (pgnk_is_space(s.ptr[0]) || s.ptr[0] == ',')) {
        s.ptr++;
        s.len--;
    }
    while (end < s.len && s.ptr[end] != ',' && !pgnk_is_space(s.ptr[end])) {
        end++;
    }
    if (end != 3 && end != 5) {
        return 0;
    }
    if (strchr("RGYB", s.ptr[0]) == NULL || s.ptr[0] == 0 || !square_at(s.ptr + 1, &out->from)) {
        return 0;
    }
    out->color = s.ptr[0];
    out->to = out->from;
    if (end == 5 && !square_at(s.ptr + 3, &out->to)) {
        return 0;
    }
    args->ptr = s.ptr + end;
    args->len = s.len - end;
    return 1;
}

/* Comma-separated marks of 3 (square) or 5 (arrow) characters; white space around commas is
 * tolerated. An empty list is well formed. */
static int parse_marks(pgn_str s, int arrows, size_t *count) {
    size_t n = 0, i = 0;
    while (i < s.len) {
        size_t start = i;
        while (i < s.len && s.ptr[i] != ',') {
            i++;
        }
        {
            pgn_str item = {s.ptr + start, i - start};
            pgn_mark m;
            item = trim(item);
            if (item.len != (arrows ? 5u : 3u) || !pgn_mark_next(&item, &m)) {
                return 0;
            }
        }
        n++;
        if (i < s.len) {
            i++;
            if (i == s.len) {
                return 0; /* a trailing comma */
            }
        }
    }
    *count = n;
    return 1;
}

static const struct {
    const char *name;
    pgn_cmd_kind kind;
} known[] = {{"clk", PGN_CMD_CLK}, {"emt", PGN_CMD_EMT},   {"egt", PGN_CMD_EGT},
             {"mct", PGN_CMD_MCT}, {"eval", PGN_CMD_EVAL}, {"csl", PGN_CMD_CSL},
             {"cal", PGN_CMD_CAL}};

/* Types a well-formed command by its name and checks its operands; BAD when they are wrong. */
static void type_command(pgn_cmd *c) {
    size_t k;
    c->kind = PGN_CMD_OTHER;
    for (k = 0; k < sizeof known / sizeof known[0]; k++) {
        if (str_is(c->name, known[k].name)) {
            c->kind = known[k].kind;
        }
    }
    switch (c->kind) {
    case PGN_CMD_CLK:
    case PGN_CMD_EMT:
    case PGN_CMD_EGT:
    case PGN_CMD_MCT:
        if (!parse_time(c->args, &c->ms)) {
            c->kind = PGN_CMD_BAD;
        }
        break;
    case PGN_CMD_EVAL:
        if (!parse_eval(c->args, &c->eval)) {
            c->kind = PGN_CMD_BAD;
        }
        break;
    case PGN_CMD_CSL:
    case PGN_CMD_CAL:
        if (!parse_marks(c->args, c->kind == PGN_CMD_CAL, &c->marks)) {
            c->kind = PGN_CMD_BAD;
        }
        break;
    default: break;
    }
}

/* The command starting at "[%" at s.ptr[i]: its end (just past "]") and its kind. A command is
 * "[%" name (letters, digits, _), then "]" or white space and operands up to a "]" outside
 * double quotes. Anything else is BAD: "[%" and the name, or to the end when no "]" closes it. */
static size_t scan_command(pgn_str s, size_t i, pgn_cmd *c) {
    size_t j = i + 2, name_start = j, args_start;
    int quoted = 0;
    while (j < s.len && is_alnum(s.ptr[j])) {
        j++;
    }
    c->name.ptr = s.ptr + name_start;
    c->name.len = j - name_start;
    args_start = j;
    if (c->name.len > 0 && j < s.len && (s.ptr[j] == ']' || pgnk_is_space(s.ptr[j]))) {
        while (j < s.len && (quoted || s.ptr[j] != ']')) {
            quoted ^= s.ptr[j] == '"';
            j++;
        }
        if (j < s.len) {
            c->args.ptr = s.ptr + args_start;
            c->args.len = j - args_start;
            c->args = trim(c->args);
            type_command(c);
            return j + 1;
        }
    }
    /* Malformed: "[%" and its name when the shape is wrong, else (no "]") the rest of the comment.
     * Either way the scan never goes back, so a comment is read in linear time. */
    c->kind = PGN_CMD_BAD;
    return j;
}

void pgn_cmd_iter_init(pgn_cmd_iter *it, pgn_str comment) {
    assert(it != NULL && (comment.ptr != NULL || comment.len == 0));
    it->comment = comment;
    it->pos = 0;
}

int pgn_cmd_next(pgn_cmd_iter *it, pgn_cmd *out) {
    pgn_str s;
    size_t i, end;
    assert(it != NULL && out != NULL);
    s = it->comment;
    i = it->pos;
    if (i >= s.len) {
        return 0;
    }
    memset(out, 0, sizeof *out);
    out->offset = i;
    out->raw.ptr = s.ptr + i;
    if (i + 1 < s.len && s.ptr[i] == '[' && s.ptr[i + 1] == '%') {
        end = scan_command(s, i, out);
    } else {
        const char *p = s.ptr + i;
        end = i;
        for (;;) {
            const void *q = memchr(p, '[', s.len - (size_t)(p - s.ptr));
            if (q == NULL) {
                end = s.len;
                break;
            }
            p = q;
            end = (size_t)(p - s.ptr);
            if (end + 1 < s.len && p[1] == '%') {
                break;
            }
            p++;
        }
        out->kind = PGN_CMD_TEXT;
    }
    out->raw.len = end - i;
    it->pos = end;
    return 1;
}

int pgn_cmd_find(pgn_str comment, pgn_cmd_kind kind, pgn_cmd *out) {
    pgn_cmd_iter it;
    pgn_cmd c;
    assert(out != NULL);
    if (comment.len < 4 || memchr(comment.ptr, '%', comment.len) == NULL) {
        return 0; /* the common case: no command at all */
    }
    pgn_cmd_iter_init(&it, comment);
    while (pgn_cmd_next(&it, &c)) {
        if (c.kind == kind) {
            *out = c;
            return 1;
        }
    }
    return 0;
}

size_t pgn_comment_remove(pgn_str comment, uint32_t mask, char *out) {
    pgn_cmd_iter it;
    pgn_cmd c;
    size_t n = 0, start, end;
    int drop_space = 0; /* a command was removed: one space after it goes too */
    assert(out != NULL || comment.len == 0);
    pgn_cmd_iter_init(&it, comment);
    while (pgn_cmd_next(&it, &c)) {
        if (c.kind != PGN_CMD_TEXT && (mask & PGN_CMD_BIT(c.kind)) != 0) {
            if (n > 0 && pgnk_is_space(out[n - 1])) {
                n--; /* the space before it */
                drop_space = 0;
            } else {
                drop_space = 1;
            }
            continue;
        }
        start = 0;
        if (drop_space && c.raw.len > 0 && pgnk_is_space(c.raw.ptr[0])) {
            start = 1;
        }
        drop_space = 0;
        memcpy(out + n, c.raw.ptr + start, c.raw.len - start);
        n += c.raw.len - start;
    }
    start = 0;
    while (start < n && pgnk_is_space(out[start])) {
        start++;
    }
    end = n;
    while (end > start && pgnk_is_space(out[end - 1])) {
        end--;
    }
    memmove(out, out + start, end - start);
    return end - start;
}

/* ---- writing commands ---- */

static size_t put_uint(char *out, uint64_t v, int min_digits) {
    char tmp[24];
    size_t n = 0, i;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0 || (int)n < min_digits);
    for (i = 0; i < n; i++) {
        out[i] = tmp[n - 1 - i];
    }
    return n;
}

size_t pgn_eval_write(const pgn_eval *eval, char *out) {
    size_t n = 0;
    int64_t v;
    assert(eval != NULL && out != NULL);
    memcpy(out, "[%eval ", 7);
    n = 7;
    v = eval->value;
    if (eval->kind == PGN_EVAL_MATE) {
        out[n++] = '#';
    }
    if (v < 0) {
        out[n++] = '-';
        v = -v;
    }
    if (eval->kind == PGN_EVAL_MATE) {
        n += put_uint(out + n, (uint64_t)v, 1);
    } else {
        n += put_uint(out + n, (uint64_t)(v / 100), 1);
        out[n++] = '.';
        n += put_uint(out + n, (uint64_t)(v % 100), 2);
    }
    if (eval->depth >= 0) {
        out[n++] = ',';
        n += put_uint(out + n, (uint64_t)eval->depth, 1);
    }
    out[n++] = ']';
    out[n] = '\0';
    return n;
}

size_t pgn_clock_write(pgn_cmd_kind kind, int64_t ms, char *out) {
    size_t n = 0, k;
    uint64_t t, frac;
    assert(out != NULL);
    for (k = 0; k < sizeof known / sizeof known[0]; k++) {
        if (known[k].kind == kind) {
            break;
        }
    }
    assert(k < 4);
    if (k >= 4) {
        k = 0;
    }
    t = ms < 0 ? 0 : (uint64_t)ms;
    if (t > (uint64_t)999999 * 3600000) {
        t = (uint64_t)999999 * 3600000;
    }
    out[n++] = '[';
    out[n++] = '%';
    memcpy(out + n, known[k].name, 3);
    n += 3;
    out[n++] = ' ';
    frac = t % 1000;
    t /= 1000;
    n += put_uint(out + n, t / 3600, 1);
    out[n++] = ':';
    n += put_uint(out + n, t / 60 % 60, 2);
    out[n++] = ':';
    n += put_uint(out + n, t % 60, 2);
    if (frac != 0) {
        out[n++] = '.';
        n += put_uint(out + n, frac, 3);
        while (out[n - 1] == '0') {
            n--;
        }
    }
    out[n++] = ']';
    out[n] = '\0';
    return n;
}

/* ---- per node ---- */

int pgn_node_clock(const pgn_node *node, int64_t *ms) {
    pgn_cmd c;
    assert(node != NULL && ms != NULL);
    if (!pgn_cmd_find(pgn_node_comment(node), PGN_CMD_CLK, &c)) {
        return 0;
    }
    *ms = c.ms;
    return 1;
}

int pgn_node_eval(const pgn_node *node, pgn_eval *eval) {
    pgn_cmd c;
    assert(node != NULL && eval != NULL);
    if (!pgn_cmd_find(pgn_node_comment(node), PGN_CMD_EVAL, &c)) {
        return 0;
    }
    *eval = c.eval;
    return 1;
}

/* Rebuilds the node's comment with every command of kind removed and cmd (if any) in place of the
 * first one, or appended after a space. The new text is composed in the game's arena (STYLE C6). */
static pgn_status replace_command(pgn_game *game, pgn_node *node, pgn_cmd_kind kind,
                                  const char *cmd, size_t cmd_len) {
    pgn_str old = pgn_node_comment(node);
    pgn_cmd_iter it;
    pgn_cmd c;
    char *buf;
    size_t n = 0, cap;
    int placed = 0;
    if (old.len > SIZE_MAX - cmd_len - 2) {
        return PGN_E_NOMEM;
    }
    cap = old.len + cmd_len + 2;
    buf = pgnk_arena_alloc(pgnk_game_arena(game), cap);
    if (buf == NULL) {
        return PGN_E_NOMEM;
    }
    if (cmd == NULL) {
        n = pgn_comment_remove(old, PGN_CMD_BIT(kind), buf);
    } else {
        pgn_cmd_iter_init(&it, old);
        while (pgn_cmd_next(&it, &c)) {
            if (c.kind == kind) {
                if (!placed) {
                    memcpy(buf + n, cmd, cmd_len);
                    n += cmd_len;
                    placed = 1;
                }
                continue;
            }
            memcpy(buf + n, c.raw.ptr, c.raw.len);
            n += c.raw.len;
        }
        if (!placed) {
            if (n > 0) {
                buf[n++] = ' ';
            }
            memcpy(buf + n, cmd, cmd_len);
            n += cmd_len;
        }
    }
    {
        pgn_str t = {buf, n};
        return pgn_node_set_comment(game, node, t);
    }
}

pgn_status pgn_node_set_eval(pgn_game *game, pgn_node *node, const pgn_eval *eval) {
    char cmd[PGN_CMD_MAX];
    assert(game != NULL && node != NULL);
    if (eval == NULL) {
        return replace_command(game, node, PGN_CMD_EVAL, NULL, 0);
    }
    return replace_command(game, node, PGN_CMD_EVAL, cmd, pgn_eval_write(eval, cmd));
}

pgn_status pgn_node_set_clock(pgn_game *game, pgn_node *node, int64_t ms) {
    char cmd[PGN_CMD_MAX];
    assert(game != NULL && node != NULL);
    if (ms < 0) {
        return replace_command(game, node, PGN_CMD_CLK, NULL, 0);
    }
    return replace_command(game, node, PGN_CMD_CLK, cmd, pgn_clock_write(PGN_CMD_CLK, ms, cmd));
}

pgn_status pgn_node_remove_commands(pgn_game *game, pgn_node *node, uint32_t mask) {
    pgn_str c[2];
    int k;
    assert(game != NULL && node != NULL);
    c[0] = pgn_node_comment(node);
    c[1] = pgn_node_pre_comment(node);
    for (k = 0; k < 2; k++) {
        pgn_str t;
        char *buf;
        pgn_status st;
        if (c[k].len < 4 || memchr(c[k].ptr, '%', c[k].len) == NULL) {
            continue;
        }
        buf = pgnk_arena_alloc(pgnk_game_arena(game), c[k].len);
        if (buf == NULL) {
            return PGN_E_NOMEM;
        }
        t.ptr = buf;
        t.len = pgn_comment_remove(c[k], mask, buf);
        if (t.len == c[k].len) {
            continue;
        }
        st = k == 0 ? pgn_node_set_comment(game, node, t) : pgn_node_set_pre_comment(game, node, t);
        if (st != PGN_OK) {
            return st;
        }
    }
    return PGN_OK;
}

int pgn_game_has_evals(const pgn_game *game) {
    for (const pgn_node *n = pgn_game_root(game); n; n = pgn_node_child(n)) {
        pgn_eval e;
        if (pgn_node_eval(n, &e)) {
            return 1;
        }
    }
    return 0;
}
