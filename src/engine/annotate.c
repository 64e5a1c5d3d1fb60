/* SPDX-License-Identifier: MIT */
/* Writes an engine analysis into a game tree: [%eval] commands (annot.h), move assessment NAGs
 * (PGN §10: $2, $4, $6) with the better move, the engine's lines as variations (PGN §8.2.5), a
 * position assessment NAG after the last move, and the Annotator and per-player tags. With
 * PGN_ANNOTATE_REPLACE the annotations of an earlier analysis are recognised and removed first
 * (docs/analysis.md, "Running analyze again"). */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "../base/chars.h"
#include "../game/arena.h"
#include "engine_internal.h"

static pgn_str cstr(const char *s) {
    pgn_str r = {s, strlen(s)};
    return r;
}

static const char *judgement_word(unsigned nag) {
    return nag == 4 ? "Blunder." : nag == 2 ? "Mistake." : "Inaccuracy.";
}

static int has_nag(const pgn_node *node, unsigned nag) {
    for (size_t i = 0; i < pgn_node_nag_count(node); i++) {
        if (pgn_node_nag(node, i) == nag) {
            return 1;
        }
    }
    return 0;
}

/* The end of phrase matched in text from i, or 0: each space of phrase matches a run of white
 * space in text (a writer may have broken the line there, or a reader kept the break). */
static size_t phrase_end(pgn_str text, size_t i, const char *phrase) {
    for (const char *p = phrase; *p; p++) {
        if (*p == ' ') {
            if (i >= text.len || !pgnk_is_space(text.ptr[i])) {
                return 0;
            }
            while (i < text.len && pgnk_is_space(text.ptr[i])) {
                i++;
            }
        } else if (i < text.len && text.ptr[i] == *p) {
            i++;
        } else {
            return 0;
        }
    }
    return i;
}

/* 1 if text holds phrase with white space or an end on both sides. */
static int has_phrase(pgn_str text, const char *phrase) {
    for (size_t i = 0; *phrase && i < text.len; i++) {
        size_t e = (i == 0 || pgnk_is_space(text.ptr[i - 1])) ? phrase_end(text, i, phrase) : 0;
        if (e > 0 && (e == text.len || pgnk_is_space(text.ptr[e]))) {
            return 1;
        }
    }
    return 0;
}

/* ---- recognising an earlier analysis (PGN_ANNOTATE_REPLACE) ---- */

/* The end of the white-space-delimited word starting at i. */
static size_t word_end(pgn_str t, size_t i) {
    while (i < t.len && !pgnk_is_space(t.ptr[i])) {
        i++;
    }
    return i;
}

static size_t skip_space(pgn_str t, size_t i) {
    while (i < t.len && pgnk_is_space(t.ptr[i])) {
        i++;
    }
    return i;
}

static int word_is(pgn_str t, size_t from, size_t to, const char *w) {
    return to - from == strlen(w) && memcmp(t.ptr + from, w, to - from) == 0;
}

/* If one of our sentences starts at word i of t ("Blunder." or "Blunder. X was best.", the word
 * matching a NAG of the node), returns its end and sets *nag; else 0. */
static size_t sentence_at(pgn_str t, size_t i, const pgn_node *node, unsigned *nag) {
    static const unsigned nags[3] = {6, 2, 4};
    size_t e = word_end(t, i);
    for (int k = 0; k < 3; k++) {
        if (!word_is(t, i, e, judgement_word(nags[k])) || !has_nag(node, nags[k])) {
            continue;
        }
        *nag = nags[k];
        /* " X was best." */
        size_t a = skip_space(t, e), ae = word_end(t, a);
        size_t b = skip_space(t, ae), be = word_end(t, b);
        size_t c = skip_space(t, be), ce = word_end(t, c);
        if (a < ae && word_is(t, b, be, "was") && word_is(t, c, ce, "best.")) {
            return ce;
        }
        return e;
    }
    return 0;
}

#define MAX_SPANS 16

/* Our sentences found in a comment: byte spans [from, to) and the NAG each goes with. */
typedef struct sentence_spans {
    size_t from[MAX_SPANS], to[MAX_SPANS];
    unsigned drop[MAX_SPANS];
    size_t n;
} sentence_spans;

/* Finds our judgement sentences in the comment c of node (at most MAX_SPANS). Only plain text is
 * searched, never the inside of a [%...] command. */
static void find_sentences(pgn_str c, const pgn_node *node, sentence_spans *sp) {
    pgn_cmd_iter it;
    pgn_cmd piece;
    sp->n = 0;
    pgn_cmd_iter_init(&it, c);
    while (sp->n < MAX_SPANS && pgn_cmd_next(&it, &piece)) {
        if (piece.kind != PGN_CMD_TEXT) {
            continue;
        }
        size_t end = piece.offset + piece.raw.len;
        for (size_t i = piece.offset; i < end && sp->n < MAX_SPANS;) {
            i = skip_space(c, i);
            if (i >= end) {
                break;
            }
            size_t e = (i == 0 || pgnk_is_space(c.ptr[i - 1]))
                           ? sentence_at(c, i, node, &sp->drop[sp->n])
                           : 0;
            if (e > 0 && e <= end) {
                sp->from[sp->n] = i;
                sp->to[sp->n++] = e;
                i = e;
            } else {
                i = word_end(c, i);
            }
        }
    }
}

/* Sets the node's comment again from the pieces of c between the sentences, joined by one space. */
static pgn_status rebuild_comment(pgn_game *game, pgn_node *node, pgn_str c,
                                  const sentence_spans *sp) {
    pgn_status st = PGN_OK;
    int first = 1;
    for (size_t k = 0; k <= sp->n && st == PGN_OK; k++) {
        size_t a = k == 0 ? 0 : sp->to[k - 1], b = k == sp->n ? c.len : sp->from[k];
        while (a < b && pgnk_is_space(c.ptr[a])) {
            a++;
        }
        while (b > a && pgnk_is_space(c.ptr[b - 1])) {
            b--;
        }
        pgn_str seg = {c.ptr + a, b - a};
        if (seg.len == 0) {
            continue;
        }
        st = first ? pgn_node_set_comment(game, node, seg)
                   : pgn_node_append_comment(game, node, seg);
        first = 0;
    }
    if (st == PGN_OK && first) {
        st = pgn_node_set_comment(game, node, cstr(""));
    }
    return st;
}

/* Removes the NAGs the sentences went with; all others kept (at most 256 distinct values), but
 * added back only while st is PGN_OK. Returns st or the failure adding them. */
static pgn_status drop_sentence_nags(pgn_game *game, pgn_node *node, const sentence_spans *sp,
                                     pgn_status st) {
    unsigned char keep[256];
    size_t nk = 0;
    for (size_t i = 0; i < pgn_node_nag_count(node) && nk < sizeof keep; i++) {
        unsigned v = pgn_node_nag(node, i);
        int dropped = 0;
        for (size_t k = 0; k < sp->n; k++) {
            dropped |= sp->drop[k] == v;
        }
        if (!dropped) {
            keep[nk++] = (unsigned char)v;
        }
    }
    pgn_node_clear_nags(node);
    for (size_t i = 0; i < nk && st == PGN_OK; i++) {
        st = pgn_node_add_nag(game, node, keep[i]);
    }
    return st;
}

/* Removes our judgement sentences from the node's comment (at most MAX_SPANS) and the NAGs they
 * go with. */
static pgn_status remove_sentences(pgn_game *game, pgn_node *node) {
    pgn_str c = pgn_node_comment(node);
    sentence_spans sp;
    find_sentences(c, node, &sp);
    if (sp.n == 0) {
        return PGN_OK;
    }
    return drop_sentence_nags(game, node, &sp, rebuild_comment(game, node, c, &sp));
}

/* 1 if the variation starting at v looks like one we add: its first move's comment is one
 * well-formed [%eval] and nothing else, and it has no other comment, NAG or variation inside. */
static int is_our_line(const pgn_node *v) {
    pgn_cmd_iter it;
    pgn_cmd piece;
    pgn_cmd_iter_init(&it, pgn_node_comment(v));
    if (!pgn_cmd_next(&it, &piece) || piece.kind != PGN_CMD_EVAL || pgn_cmd_next(&it, &piece) ||
        pgn_node_nag_count(v) > 0 || pgn_node_pre_comment(v).len > 0) {
        return 0;
    }
    for (const pgn_node *n = pgn_node_child(v); n; n = pgn_node_child(n)) {
        if (pgn_node_sibling(n) || pgn_node_comment(n).len || pgn_node_pre_comment(n).len ||
            pgn_node_nag_count(n)) {
            return 0;
        }
    }
    return 1;
}

/* Removes what an earlier analysis wrote on the main-line move node: its [%eval], our sentences
 * with their NAGs, and our variations beside it. */
static pgn_status remove_earlier(pgn_game *game, pgn_node *node) {
    pgn_status st = pgn_node_set_eval(game, node, NULL);
    if (st == PGN_OK) {
        st = remove_sentences(game, node);
    }
    for (pgn_node *v = pgn_node_sibling(node); v && st == PGN_OK;) {
        pgn_node *next = pgn_node_sibling(v);
        if (is_our_line(v)) {
            pgn_node_remove(v);
        }
        v = next;
    }
    return st;
}

/* ---- adding ---- */

static pgn_status set_eval(pgn_game *game, pgn_node *node, pgn_engine_eval e) {
    pgn_eval typed;
    if (!pgn_engine_eval_to_eval(e, &typed)) {
        return PGN_OK;
    }
    return pgn_node_set_eval(game, node, &typed);
}

/* An engine line (its score e, moves pv) as a variation beside the move played from parent,
 * at most max plies, its first move carrying the line's [%eval]; not added when it starts with
 * the move played or with the first move of a variation already there. */
static pgn_status add_line(pgn_game *game, pgn_node *parent, pgn_engine_eval e, const pgn_move *pv,
                           uint32_t pv_len, uint32_t max) {
    if (pv_len == 0) {
        return PGN_OK;
    }
    for (const pgn_node *s = pgn_node_child(parent); s; s = pgn_node_sibling(s)) {
        if (pgn_node_move(s) == pv[0]) {
            return PGN_OK;
        }
    }
    pgn_node *at = parent;
    uint32_t n = pv_len < max ? pv_len : max;
    pgn_loc none = {0, 0, 0};
    for (uint32_t k = 0; k < n; k++) {
        pgn_node *added;
        pgn_status st = pgn_node_add(game, at, pv[k], none, &added);
        if (st == PGN_OK && k == 0) {
            st = set_eval(game, added, e);
        }
        if (st != PGN_OK) {
            return st;
        }
        at = added;
    }
    return PGN_OK;
}

static pgn_status annotate_move(pgn_game *game, pgn_node *parent, pgn_node *node,
                                const pgn_pos *before, const pgn_position_analysis *prev,
                                const pgn_position_analysis *cur, const pgn_annotate_opts *opts,
                                uint32_t max_line) {
    uint32_t flags = opts ? opts->flags : 0;
    pgn_status st = PGN_OK;
    if (flags & PGN_ANNOTATE_REPLACE) {
        st = remove_earlier(game, node);
    }
    if (st == PGN_OK) {
        st = set_eval(game, node, cur->eval);
    }
    pgn_judgement j;
    pgn_judge_move(prev->eval, cur->eval, (pgn_color)before->side, &j);
    int best_differs = prev->pv_len > 0 && prev->pv[0] != pgn_node_move(node);
    if (j.nag != 0 && st == PGN_OK) {
        char text[96];
        st = pgn_node_add_nag(game, node, j.nag);
        if (best_differs) {
            char san[PGN_SAN_MAX];
            pgn_san_write(before, prev->pv[0], san);
            snprintf(text, sizeof text, "%s %s was best.", judgement_word(j.nag), san);
        } else {
            snprintf(text, sizeof text, "%s", judgement_word(j.nag));
        }
        if (st == PGN_OK && !has_phrase(pgn_node_comment(node), text)) {
            st = pgn_node_append_comment(game, node, cstr(text));
        }
    }
    if (st != PGN_OK) {
        return st;
    }
    if ((flags & PGN_ANNOTATE_ALL_LINES) || (best_differs && (j.nag == 2 || j.nag == 4))) {
        st = add_line(game, parent, prev->eval, prev->pv, prev->pv_len, max_line);
    }
    for (uint32_t k = 0; (flags & PGN_ANNOTATE_ALL_LINES) && k < prev->alt_count && st == PGN_OK;
         k++) {
        const pgn_engine_line *l = &prev->alt[k];
        st = add_line(game, parent, l->eval, l->pv, l->pv_len, max_line);
    }
    return st;
}

static pgn_status set_tag(pgn_game *game, const char *name, const char *value) {
    return pgn_game_tag_set(game, cstr(name), cstr(value));
}

/* The part of an annotator name that says who wrote it: from its last " (" on ("(pgnkit
 * analyze)"), else all of it. */
static pgn_str signature(pgn_str name) {
    for (size_t i = name.len; i >= 2; i--) {
        if (name.ptr[i - 2] == ' ' && name.ptr[i - 1] == '(') {
            pgn_str s = {name.ptr + i - 1, name.len - (i - 1)};
            return s;
        }
    }
    return name;
}

static int ends_with(pgn_str s, pgn_str tail) {
    return s.len >= tail.len && memcmp(s.ptr + s.len - tail.len, tail.ptr, tail.len) == 0;
}

/* Annotator: ours after the earlier one ("Kasparov; ours"), once; with replace, earlier parts
 * ("; " separated) that end with our signature go first. */
static pgn_status write_annotator(pgn_game *game, const char *annotator, int replace) {
    pgn_str old, mine = cstr(annotator), sig = signature(mine);
    char both[600];
    size_t n = 0;
    if (!pgn_game_tag_get(game, "Annotator", &old)) {
        old.ptr = "";
        old.len = 0;
    }
    if (!replace && ends_with(old, mine)) {
        return PGN_OK;
    }
    for (size_t a = 0; a < old.len;) {
        size_t b = a;
        while (b < old.len && !(old.ptr[b] == ';' && b + 1 < old.len && old.ptr[b + 1] == ' ')) {
            b++;
        }
        pgn_str part = {old.ptr + a, b - a};
        if (part.len > 0 && !(replace && ends_with(part, sig)) &&
            n + part.len + 2 < sizeof both - 256) {
            if (n > 0) {
                memcpy(both + n, "; ", 2);
                n += 2;
            }
            memcpy(both + n, part.ptr, part.len);
            n += part.len;
        }
        a = b < old.len ? b + 2 : b;
    }
    snprintf(both + n, sizeof both - n, "%s%.250s", n > 0 ? "; " : "", annotator);
    return set_tag(game, "Annotator", both);
}

static pgn_status write_tags(pgn_game *game, const pgn_annotate_opts *opts,
                             const pgn_game_stats *s) {
    pgn_status st = PGN_OK;
    if (opts && opts->annotator &&
        (st = write_annotator(game, opts->annotator, (opts->flags & PGN_ANNOTATE_REPLACE) != 0)) !=
            PGN_OK) {
        return st;
    }
    static const char *const acc_name[2] = {"WhiteAccuracy", "BlackAccuracy"};
    static const char *const acpl_name[2] = {"WhiteACPL", "BlackACPL"};
    for (int c = 0; c < 2; c++) {
        if (s->moves[c] == 0) {
            continue;
        }
        char v[32];
        snprintf(v, sizeof v, "%.1f", s->accuracy[c]);
        if ((st = set_tag(game, acc_name[c], v)) != PGN_OK) {
            return st;
        }
        snprintf(v, sizeof v, "%.0f", s->acpl[c]);
        if ((st = set_tag(game, acpl_name[c], v)) != PGN_OK) {
            return st;
        }
    }
    return PGN_OK;
}

/* The position NAG after the last move; with replace, the position NAGs we give ($10, $14-$19)
 * that are there go first. */
static pgn_status position_nag(pgn_game *game, pgn_node *last, unsigned nag, int replace) {
    pgn_status st = PGN_OK;
    if (replace) {
        unsigned char keep[256];
        size_t nk = 0;
        for (size_t i = 0; i < pgn_node_nag_count(last) && nk < sizeof keep; i++) {
            unsigned v = pgn_node_nag(last, i);
            if (v != 10 && (v < 14 || v > 19)) {
                keep[nk++] = (unsigned char)v;
            }
        }
        pgn_node_clear_nags(last);
        for (size_t i = 0; i < nk && st == PGN_OK; i++) {
            st = pgn_node_add_nag(game, last, keep[i]);
        }
    }
    return st == PGN_OK && nag ? pgn_node_add_nag(game, last, nag) : st;
}

pgn_status pgn_game_annotate(pgn_game *game, const pgn_position_analysis *positions, size_t n,
                             const pgn_annotate_opts *opts, pgn_game_stats *stats) {
    assert(game != NULL && (positions != NULL || n == 0));
    if (n != pgn_game_ply_count(game) + 1) {
        return PGN_E_LIMIT;
    }
    uint32_t max_line = opts && opts->variation_plies ? opts->variation_plies : 6;
    int replace = opts && (opts->flags & PGN_ANNOTATE_REPLACE);
    pgn_color first = (pgn_color)pgn_game_start(game)->side;
    pgn_node *node = NULL;
    pgn_iter *it;
    pgn_iter_event ev;
    pgn_status st = pgn_iter_new(&it, &pgnk_game_arena(game)->alloc);
    if (st != PGN_OK) {
        return st;
    }
    /* the main line only, so the variations added beside each move do not disturb the walk */
    pgn_iter_reset(it, game, PGN_ITER_MAIN_LINE | PGN_ITER_BOARD | PGN_ITER_NO_MOVE_LEAVE);
    for (size_t i = 1; st == PGN_OK && (st = pgn_iter_next(it, &ev)) == PGN_OK;) {
        if (ev == PGN_ITER_MOVE_ENTER) {
            node = pgn_iter_node(it);
            st = annotate_move(game, pgn_node_parent(node), node, pgn_iter_pos(it),
                               &positions[i - 1], &positions[i], opts, max_line);
            i++;
        }
    }
    pgn_iter_free(it);
    if (st != PGN_END) {
        return st;
    }
    if (node) {
        st = position_nag(game, node, pgn_engine_eval_position_nag(positions[n - 1].eval), replace);
        if (st != PGN_OK) {
            return st;
        }
    }
    pgn_game_stats s;
    pgnk_eval_stats_strided(positions, sizeof *positions, n, first, &s);
    if (stats) {
        *stats = s;
    }
    return write_tags(game, opts, &s);
}
