/* SPDX-License-Identifier: MIT */
/* The JSON reader's upper half: checks one game object against the schema of
 * docs/json-format.md (every member's type, no unknown or repeated member) and builds the game,
 * replaying every move (SAN or UCI, PGN §8.2.3) on the board from the start position (PGN §9.7
 * FEN). Lines and variations (PGN §8.2.5) are walked with an explicit stack of frames. */
#include "json_internal.h"
#include "parse.h"

#include "../base/utf8.h"
#include "../game/game_internal.h"

#include <string.h>

/* A line being replayed (vars == 0), or the variations of a move still to start (vars == 1). */
typedef struct line_frame {
    const jval *cur;  /* the next move object, or the next variation (an array) */
    pgn_node *parent; /* the node the next move follows */
    pgn_pos pos;      /* the position before the next move */
    int vars;
} line_frame;

static pgn_status bad(pgn_json_reader *r, const jval *v, int at_key, const char *detail) {
    const char *ex = at_key ? v->key : v->type == JV_STRING || v->type == JV_NUMBER ? v->str : NULL;
    size_t n = at_key ? v->key_len : ex != NULL ? v->len : 0;
    return pgnk_json_error(r, PGN_E_BAD_JSON, at_key ? v->key_at : v->at, ex, n, detail);
}

/* Finds the slot of member m among names (NULL-terminated); reports an unknown or repeated one. */
static pgn_status member(pgn_json_reader *r, const jval *m, const char *const *names,
                         const jval **slots) {
    for (size_t i = 0; names[i] != NULL; i++) {
        if (strlen(names[i]) == m->key_len && memcmp(names[i], m->key, m->key_len) == 0) {
            if (slots[i] != NULL) {
                return bad(r, m, 1, "member given twice");
            }
            slots[i] = m;
            return PGN_OK;
        }
    }
    return bad(r, m, 1, "unknown member");
}

static pgn_status members(pgn_json_reader *r, const jval *obj, const char *const *names,
                          const jval **slots) {
    for (const jval *m = obj->first; m != NULL; m = m->next) {
        pgn_status st = member(r, m, names, slots);
        if (st != PGN_OK) {
            return st;
        }
    }
    return PGN_OK;
}

static pgn_str str_of(const jval *v) {
    pgn_str s;
    s.ptr = v->str;
    s.len = v->len;
    return s;
}

/* A comment object: {"text": "...", "commands": [...]}. The text is what the game keeps;
 * "commands" (the parsed [%cmd ...] of the text) is checked for shape and otherwise ignored. */
static pgn_status comment(pgn_json_reader *r, const jval *v, pgn_game *game, pgn_node *node,
                          int pre) {
    static const char *const names[] = {"text", "commands", NULL};
    const jval *slot[2] = {NULL, NULL};
    pgn_status st;
    if (v->type != JV_OBJECT) {
        return bad(r, v, 0, "a comment must be an object with a \"text\" string");
    }
    if ((st = members(r, v, names, slot)) != PGN_OK) {
        return st;
    }
    if (slot[0] == NULL || slot[0]->type != JV_STRING) {
        return bad(r, slot[0] != NULL ? slot[0] : v, 0, "a comment needs a \"text\" string");
    }
    if (slot[1] != NULL) {
        if (slot[1]->type != JV_ARRAY) {
            return bad(r, slot[1], 0, "\"commands\" must be an array of objects");
        }
        for (const jval *c = slot[1]->first; c != NULL; c = c->next) {
            if (c->type != JV_OBJECT) {
                return bad(r, c, 0, "\"commands\" must be an array of objects");
            }
        }
    }
    st = pre ? pgn_node_append_pre_comment(game, node, str_of(slot[0]))
             : pgn_node_append_comment(game, node, str_of(slot[0]));
    return st;
}

/* A tag name the PGN writer can write and the PGN reader read back as one (PGN §7, and the lax
 * names the reader takes with W_TAG_NAME): letters, digits and _ + # = : - / @, starting with a
 * letter, a digit, + - or = (the PGN reader takes a name starting with _ # : / @ for a malformed
 * tag pair). */
static int tag_name_ok(const char *s, size_t len) {
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        int alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alnum && (c == 0 || strchr(i == 0 ? "+-=" : "_+#=:-/@", c) == NULL)) {
            return 0;
        }
    }
    return len > 0;
}

static pgn_status tags(pgn_json_reader *r, const jval *v, pgn_game *game) {
    if (v->type != JV_OBJECT) {
        return bad(r, v, 0, "\"tags\" must be an object of strings");
    }
    for (const jval *m = v->first; m != NULL; m = m->next) {
        pgn_str value;
        if (!tag_name_ok(m->key, m->key_len)) {
            return bad(
                r, m, 1,
                "a tag name is letters, digits and _ + # = : - / @, not starting with _ # : / @");
        }
        if (m->type != JV_STRING) {
            return bad(r, m, 0, "a tag value must be a string");
        }
        if (memchr(m->str, '\t', m->len) != NULL || memchr(m->str, '\n', m->len) != NULL ||
            memchr(m->str, '\r', m->len) != NULL) {
            /* a PGN string cannot hold them (PGN §7): a line break would end it, a tab is read
             * as a space (W_TAG_VALUE); the PGN reader never gives them, nor does --to json */
            return bad(r, m, 0, "a tag value cannot hold a tab or a line break");
        }
        if (pgn_game_tag_get(game, m->key, &value)) {
            return bad(r, m, 1, "tag given twice");
        }
        pgn_str name = {m->key, m->key_len};
        if (pgn_game_tag_set(game, name, str_of(m)) != PGN_OK) {
            return PGN_E_NOMEM;
        }
    }
    return PGN_OK;
}

/* The position of a FEN string value, with the FEN's own column when the string had no escape. */
static pgn_status fen_value(pgn_json_reader *r, const jval *v, pgn_variant variant, uint32_t flags,
                            pgn_pos *pos) {
    pgn_fen_diag d;
    if (v->type != JV_STRING) {
        return bad(r, v, 0, "a FEN must be a string");
    }
    if (pgn_fen_parse_variant(pos, variant, v->str, v->len, flags, &d) != PGN_OK) {
        pgn_loc at = v->at;
        if (v->raw_len == v->len && d.column >= 1) {
            at.offset += d.column;
            at.column += d.column;
        }
        return pgnk_json_error(r, PGN_E_BAD_FEN, at, v->str, v->len, d.reason);
    }
    return PGN_OK;
}

/* The member of the tags object named name (which the game's tags have). */
static const jval *tag_member(const jval *tagsv, const char *name) {
    size_t n = strlen(name);
    const jval *m = tagsv->first;
    while (m->key_len != n || memcmp(m->key, name, n) != 0) {
        m = m->next;
    }
    return m;
}

/* Same position for the purpose of a FEN tag beside "fen": en passant is left out (the writer
 * gives it only when a capture is legal, a FEN tag may give it after any double step). */
static int same_position(const pgn_pos *a, const pgn_pos *b) {
    return memcmp(a->board, b->board, sizeof a->board) == 0 && a->side == b->side &&
           a->castle == b->castle && a->halfmove == b->halfmove && a->fullmove == b->fullmove &&
           memcmp(a->pocket, b->pocket, sizeof a->pocket) == 0 && a->promoted == b->promoted &&
           a->checks[0] == b->checks[0] && a->checks[1] == b->checks[1];
}

/* The game's rules, from its Variant tag as in PGN (digest §7.6, T85): a Chess960 name turns on
 * Chess960 rules (*is960), a variant of docs/variants.md selects it, other names are refused.
 * "variant" (may be NULL) must name the same variant: PGN has no other way to say it. */
static pgn_status game_variant(pgn_json_reader *r, const jval *tagsv, const jval *vm,
                               pgn_game *game, pgn_variant *variant, int *is960) {
    pgn_str tag;
    pgn_variant named = PGN_VARIANT_STANDARD;
    *variant = PGN_VARIANT_STANDARD;
    *is960 = 0;
    if (pgn_game_tag_get(game, "Variant", &tag)) {
        int k = pgnk_reader_variant_kind(tag.ptr, tag.len, variant);
        if (k == 0) {
            const jval *m = tag_member(tagsv, "Variant");
            return pgnk_json_error(r, PGN_E_UNSUPPORTED_VARIANT, m->at, m->str, m->len,
                                   "pgnkit reads standard chess, Chess960 and the variants of "
                                   "docs/variants.md");
        }
        *is960 = k == 2;
    }
    if (vm != NULL &&
        (vm->type != JV_STRING || !pgn_variant_from_name(vm->str, vm->len, &named, NULL))) {
        return bad(r, vm, 0, "\"variant\" must be the name of a variant of docs/variants.md");
    }
    if (vm != NULL && named != *variant) {
        return bad(r, vm, 0, "\"variant\" must be the variant the Variant tag names");
    }
    return PGN_OK;
}

/* The start position: "fen", else the FEN tag (as in PGN, §9.7.2), else the variant's start.
 * Chess960 rules come from what PGN can say them with, so that the PGN export reads back alike: a
 * Variant tag naming Chess960 or a FEN whose castling rights only Chess960 allows; "chess960": true
 * must agree with one of them. A variant comes from the Variant tag (game_variant). */
static pgn_status start_position(pgn_json_reader *r, const jval *tagsv, const jval *fen,
                                 const jval *c960, const jval *vm, pgn_game *game) {
    pgn_pos pos, tag_pos;
    pgn_str tag;
    pgn_status st;
    pgn_variant variant;
    int variant960 = 0;
    const jval *fen_tag = NULL;
    if (c960 != NULL && c960->type != JV_TRUE && c960->type != JV_FALSE) {
        return bad(r, c960, 0, "\"chess960\" must be true or false");
    }
    if ((st = game_variant(r, tagsv, vm, game, &variant, &variant960)) != PGN_OK) {
        return st;
    }
    uint32_t flags = variant960 ? PGN_FEN_CHESS960 : 0;
    if (pgn_game_tag_get(game, "FEN", &tag)) {
        /* the tag is kept as read and the PGN export rewrites it from the start: it must be a
         * FEN, and the same position as "fen" */
        fen_tag = tag_member(tagsv, "FEN");
        if ((st = fen_value(r, fen_tag, variant, flags, &tag_pos)) != PGN_OK) {
            return st;
        }
    }
    if (fen != NULL) {
        if ((st = fen_value(r, fen, variant, flags, &pos)) != PGN_OK) {
            return st;
        }
        if (fen_tag != NULL && !same_position(&pos, &tag_pos)) {
            return bad(r, fen, 0, "\"fen\" and the FEN tag are different positions");
        }
    } else if (fen_tag != NULL) {
        pos = tag_pos;
    } else {
        pgn_pos_init_variant(&pos, variant);
        pos.chess960 = (uint8_t)variant960;
    }
    if (c960 != NULL && c960->type == JV_TRUE && !pos.chess960) {
        return bad(r, c960, 0,
                   "\"chess960\": true needs a Variant tag naming Chess960 or a FEN only Chess960 "
                   "allows (PGN has no other way to say it)");
    }
    pgn_game_set_start(game, &pos);
    return PGN_OK;
}

static pgn_status nags(pgn_json_reader *r, const jval *v, pgn_game *game, pgn_node *node) {
    if (v->type != JV_ARRAY) {
        return bad(r, v, 0, "\"nags\" must be an array of integers from 0 to 255");
    }
    for (const jval *e = v->first; e != NULL; e = e->next) {
        unsigned n = 0;
        size_t i;
        for (i = 0; e->type == JV_NUMBER && i < e->len && i < 4; i++) {
            if (e->str[i] < '0' || e->str[i] > '9') {
                break;
            }
            n = n * 10 + (unsigned)(e->str[i] - '0');
        }
        if (e->type != JV_NUMBER || i != e->len || i == 0 || n > 255) {
            return bad(r, e, 0, "a NAG must be an integer from 0 to 255");
        }
        if (pgn_node_add_nag(game, node, n) != PGN_OK) {
            return PGN_E_NOMEM;
        }
    }
    return PGN_OK;
}

/* The move of a move object: SAN replayed on pos (lax SAN accepted), or UCI; both must agree. */
static pgn_status resolve(pgn_json_reader *r, const jval *san, const jval *uci, const pgn_pos *pos,
                          pgn_move *mv) {
    pgn_status st;
    if (san != NULL) {
        pgn_san_result res;
        if (san->type != JV_STRING) {
            return bad(r, san, 0, "\"san\" must be a string");
        }
        st = pgn_san_parse(pos, san->str, san->len, PGN_SAN_NULL_MOVES, &res);
        if (st != PGN_OK) {
            return pgnk_json_error(r, st, san->at, san->str, san->len,
                                   "SAN not legal in the position");
        }
        *mv = res.move;
    }
    if (uci != NULL) {
        pgn_move m;
        if (uci->type != JV_STRING) {
            return bad(r, uci, 0, "\"uci\" must be a string");
        }
        st = pgn_uci_parse(pos, uci->str, uci->len, &m);
        if (st != PGN_OK) {
            return pgnk_json_error(r, st, uci->at, uci->str, uci->len,
                                   "UCI not legal in the position");
        }
        if (san != NULL && m != *mv) {
            return bad(r, uci, 0, "\"uci\" and \"san\" are different moves");
        }
        *mv = m;
    }
    return PGN_OK;
}

static line_frame *push(pgn_json_reader *r, size_t *depth, const jval *cur, pgn_node *parent,
                        const pgn_pos *pos, int vars) {
    line_frame *s = r->lines;
    if (*depth == r->lines_cap) {
        void *p = r->lines;
        if (!pgnk_grow(&r->alloc, &p, &r->lines_cap, *depth + 1, sizeof *s, 16)) {
            return NULL;
        }
        r->lines = s = p;
    }
    s[*depth].cur = cur;
    s[*depth].parent = parent;
    s[*depth].pos = *pos;
    s[*depth].vars = vars;
    return &s[(*depth)++];
}

/* One move object of the line in f: its node is added after f->parent; f moves past it. */
static pgn_status move_object(pgn_json_reader *r, line_frame *f, const jval *v, pgn_game *game,
                              const jval **vars_out) {
    static const char *const names[] = {"pre_comment", "san",     "uci",        "fen",
                                        "nags",        "comment", "variations", NULL};
    const jval *s[7] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    pgn_status st;
    pgn_move mv = PGN_MOVE_NONE;
    pgn_node *n;
    if (v->type != JV_OBJECT) {
        return bad(r, v, 0, "a move must be an object");
    }
    if ((st = members(r, v, names, s)) != PGN_OK) {
        return st;
    }
    if (s[1] == NULL && s[2] == NULL) {
        return bad(r, v, 0, "a move needs \"san\" or \"uci\"");
    }
    if ((st = resolve(r, s[1], s[2], &f->pos, &mv)) != PGN_OK) {
        return st;
    }
    if (s[3] != NULL && s[3]->type != JV_STRING) {
        return bad(r, s[3], 0, "\"fen\" must be a string");
    }
    if (pgn_node_add(game, f->parent, mv, (s[1] != NULL ? s[1] : s[2])->at, &n) != PGN_OK) {
        return PGN_E_NOMEM;
    }
    if ((s[0] != NULL && (st = comment(r, s[0], game, n, 1)) != PGN_OK) ||
        (s[4] != NULL && (st = nags(r, s[4], game, n)) != PGN_OK) ||
        (s[5] != NULL && (st = comment(r, s[5], game, n, 0)) != PGN_OK)) {
        return st;
    }
    if (s[6] != NULL && s[6]->type != JV_ARRAY) {
        return bad(r, s[6], 0, "\"variations\" must be an array of lines");
    }
    *vars_out = s[6] != NULL && s[6]->first != NULL ? s[6] : NULL;
    f->parent = n;
    pgn_pos_play(&f->pos, mv);
    return PGN_OK;
}

/* Replays the main line "moves" and every variation in it. */
static pgn_status lines(pgn_json_reader *r, const jval *moves, pgn_game *game) {
    size_t depth = 0;
    if (moves->type != JV_ARRAY) {
        return bad(r, moves, 0, "\"moves\" must be an array of moves");
    }
    if (!push(r, &depth, moves->first, pgn_game_root(game), pgn_game_start(game), 0)) {
        return PGN_E_NOMEM;
    }
    while (depth > 0) {
        line_frame *f = (line_frame *)r->lines + depth - 1;
        const jval *v = f->cur;
        if (v == NULL) {
            depth--;
            continue;
        }
        f->cur = v->next;
        if (f->vars) {
            if (v->type != JV_ARRAY || v->first == NULL) {
                return bad(r, v, 0, "a variation must be a non-empty array of moves");
            }
            pgn_pos pos = f->pos;
            if (!push(r, &depth, v->first, f->parent, &pos, 0)) {
                return PGN_E_NOMEM;
            }
            continue;
        }
        /* the variations of this move start where it starts */
        pgn_node *parent = f->parent;
        pgn_pos before = f->pos;
        const jval *vars = NULL;
        pgn_status st = move_object(r, f, v, game, &vars);
        if (st != PGN_OK) {
            return st;
        }
        if (vars != NULL && !push(r, &depth, vars->first, parent, &before, 1)) {
            return PGN_E_NOMEM;
        }
    }
    return PGN_OK;
}

/* A decimal number member below 2^32 (line, column), else 0 after reporting it. */
static int small_number(pgn_json_reader *r, const jval *v, uint32_t *out) {
    uint64_t n = 0;
    size_t i = 0;
    for (; v->type == JV_NUMBER && i < v->len && i < 10 && v->str[i] >= '0' && v->str[i] <= '9';
         i++) {
        n = n * 10 + (uint64_t)(v->str[i] - '0');
    }
    if (v->type != JV_NUMBER || i == 0 || i != v->len || n > UINT32_MAX) {
        bad(r, v, 0, "a diagnostic's line and column are whole numbers");
        return 0;
    }
    *out = (uint32_t)n;
    return 1;
}

/* One element of "diagnostics" ({"code", "severity", "line", "column", "message", "token"}), kept
 * in the game as it was written, so that JSON read and written again is the same JSON. */
static pgn_status diagnostic(pgn_json_reader *r, const jval *v, pgn_game *game) {
    static const char *const names[] = {"code",    "severity", "line", "column",
                                        "message", "token",    NULL};
    const jval *m[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    pgn_diag d;
    pgn_status st;
    if (v->type != JV_OBJECT) {
        return bad(r, v, 0, "a diagnostic must be an object");
    }
    if ((st = members(r, v, names, m)) != PGN_OK) {
        return st;
    }
    memset(&d, 0, sizeof d);
    d.code = PGN_OK;
    for (int c = 1; m[0] && m[0]->type == JV_STRING && c < 256 && d.code == PGN_OK; c++) {
        const char *name = pgn_status_name((pgn_status)c);
        if (strlen(name) == m[0]->len && memcmp(name, m[0]->str, m[0]->len) == 0) {
            d.code = (pgn_status)c;
        }
    }
    if (d.code == PGN_OK || !m[1] || m[1]->type != JV_STRING || !m[2] || !m[3] ||
        (m[4] && m[4]->type != JV_STRING) || (m[5] && m[5]->type != JV_STRING)) {
        return bad(r, v, 0,
                   "a diagnostic needs a known \"code\", \"severity\", \"line\" and "
                   "\"column\"");
    }
    d.severity =
        m[1]->len == 5 && memcmp(m[1]->str, "error", 5) == 0 ? PGN_SEV_ERROR : PGN_SEV_WARNING;
    if (!small_number(r, m[2], &d.at.line) || !small_number(r, m[3], &d.at.column)) {
        return PGN_E_BAD_JSON;
    }
    if (m[5]) {
        pgnk_utf8_excerpt(d.token, sizeof d.token, m[5]->str, m[5]->len);
    }
    return pgn_game_add_diag(game, &d);
}

/* How the game was read when it was written (docs/json-format.md): "broken": true refuses the
 * game (E_BROKEN_GAME at the member: a game cut short is never read back as a whole one); the
 * diagnostics of a whole game are kept in it, with the number that were not. */
static pgn_status read_record(pgn_json_reader *r, const jval *broken, const jval *diags,
                              const jval *dropped, pgn_game *game) {
    if (broken != NULL && broken->type != JV_TRUE && broken->type != JV_FALSE) {
        return bad(r, broken, 0, "\"broken\" must be true or false");
    }
    if (broken != NULL && broken->type == JV_TRUE) {
        return pgnk_json_error(r, PGN_E_BROKEN_GAME, broken->key_at, broken->key, broken->key_len,
                               "refused: it would be read back as a whole game");
    }
    if (diags != NULL && diags->type != JV_ARRAY) {
        return bad(r, diags, 0, "\"diagnostics\" must be an array");
    }
    for (const jval *d = diags ? diags->first : NULL; d; d = d->next) {
        pgn_status st = diagnostic(r, d, game);
        if (st != PGN_OK) {
            return st;
        }
    }
    uint64_t n = 0;
    size_t i = 0;
    for (; dropped && dropped->type == JV_NUMBER && i < dropped->len && i < 19 &&
           dropped->str[i] >= '0' && dropped->str[i] <= '9';
         i++) {
        n = n * 10 + (uint64_t)(dropped->str[i] - '0');
    }
    if (dropped != NULL && (dropped->type != JV_NUMBER || i == 0 || i != dropped->len)) {
        return bad(r, dropped, 0, "\"diagnostics_dropped\" must be a whole number");
    }
    pgnk_game_record(game)->dropped = n;
    return PGN_OK;
}

pgn_status pgnk_json_build_game(pgn_json_reader *r, const jval *v, pgn_game *game) {
    static const char *const names[] = {"tags",    "fen",         "chess960",
                                        "comment", "moves",       "result",
                                        "broken",  "diagnostics", "diagnostics_dropped",
                                        "variant", NULL};
    static const char *const required[] = {"tags", NULL, NULL, NULL, "moves", "result"};
    const jval *s[10] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    pgn_status st;
    if ((st = members(r, v, names, s)) != PGN_OK) {
        return st;
    }
    for (size_t i = 0; i < 6; i++) {
        if (required[i] != NULL && s[i] == NULL) {
            return pgnk_json_error(r, PGN_E_BAD_JSON, v->at, required[i], strlen(required[i]),
                                   "a game needs the members \"tags\", \"moves\" and \"result\"");
        }
    }
    if ((st = read_record(r, s[6], s[7], s[8], game)) != PGN_OK ||
        (st = tags(r, s[0], game)) != PGN_OK ||
        (st = start_position(r, s[0], s[1], s[2], s[9], game)) != PGN_OK ||
        (s[3] != NULL && (st = comment(r, s[3], game, pgn_game_root(game), 0)) != PGN_OK)) {
        return st;
    }
    if (s[5]->type != JV_STRING || pgn_result_parse(s[5]->str, s[5]->len) == PGN_RESULT_NONE) {
        return bad(r, s[5], 0, "\"result\" must be \"1-0\", \"0-1\", \"1/2-1/2\" or \"*\"");
    }
    if ((st = lines(r, s[4], game)) != PGN_OK) {
        return st;
    }
    pgn_game_set_result(game, pgn_result_parse(s[5]->str, s[5]->len));
    return PGN_OK;
}
