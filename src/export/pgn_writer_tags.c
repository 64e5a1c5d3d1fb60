/* SPDX-License-Identifier: MIT */
/* The tag section of the PGN export format (PGN §8.1.1: the Seven Tag Roster in order, then the
 * other tags in ASCII order; FEN, SetUp and Variant from the game's start). Names are compared
 * with their lengths known (no strlen per tag; a roster name by its first byte), a value without
 * a byte to escape is checked and copied 8 bytes at a time with no call, the game's tags are read
 * in one call, and the sort's comparison looks at the first byte before calling memcmp (issue 32:
 * the tags were a third of the writer's instructions). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../game/game_internal.h"
#include "pgn_writer_internal.h"
#include "variant_start.h"

/* the Seven Tag Roster (0-6), then FEN (7) and SetUp (8) */
static const pgn_str special_names[9] = {{"Event", 5},  {"Site", 4},  {"Date", 4},
                                         {"Round", 5},  {"White", 5}, {"Black", 5},
                                         {"Result", 6}, {"FEN", 3},   {"SetUp", 5}};
static const pgn_str str_defaults[6] = {{"?", 1}, {"?", 1}, {"????.??.??", 10},
                                        {"?", 1}, {"?", 1}, {"?", 1}};
static const pgn_str variant_name = {"Variant", 7};

static int name_is(pgn_str name, pgn_str s) {
    return name.len == s.len && memcmp(name.ptr, s.ptr, s.len) == 0;
}

/* A game's tag text as a pgn_str: "" for an empty one (pgn_game_tag_name's rule). */
static inline pgn_str text_str(game_text t) {
    pgn_str s;
    s.ptr = t.ptr != NULL ? t.ptr : "";
    s.len = t.len;
    return s;
}

static pgn_str cstr(const char *s) {
    pgn_str r;
    r.ptr = s;
    r.len = strlen(s);
    return r;
}

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Nonzero when one of the 8 bytes of x is '"' or '\\' (the exact zero-byte test of x xor each). */
static inline uint64_t has_escape(uint64_t x) {
    uint64_t q = x ^ (ONES * '"'), b = x ^ (ONES * '\\');
    return (((q - ONES) & ~q) | ((b - ONES) & ~b)) & HIGHS;
}

static inline uint64_t load8(const char *p) {
    uint64_t x;
    memcpy(&x, p, 8);
    return x;
}

/* The n bytes at s (n >= 4) as 8 bytes or two overlapping halves: the first 4 and the last 4,
 * each widened (a word with an escape has one either way). */
static inline uint64_t load_tail(const char *s, size_t n) {
    uint32_t lo, hi;
    memcpy(&lo, s, 4);
    memcpy(&hi, s + n - 4, 4);
    return (uint64_t)lo | (uint64_t)hi << 32;
}

/* Whether one of the n bytes at s is '"' or '\\': 8 at a time, the last 8 (or the overlapping
 * halves of a shorter value) read once more; no byte outside s[0..n) is read. */
static int needs_escape(const char *s, size_t n) {
    size_t i;
    if (n < 4) {
        for (i = 0; i < n; i++) {
            if (s[i] == '"' || s[i] == '\\') {
                return 1;
            }
        }
        return 0;
    }
    if (n < 8) {
        return has_escape(load_tail(s, n)) != 0;
    }
    for (i = 0; i + 8 < n; i += 8) {
        if (has_escape(load8(s + i))) {
            return 1;
        }
    }
    return has_escape(load8(s + n - 8)) != 0;
}

/* n bytes from s to d with fixed-size moves (the last ones overlapping): no call for a tag's
 * short name or value. */
static inline void copy_small(char *d, const char *s, size_t n) {
    size_t i;
    if (n >= 8) {
        for (i = 0; i + 8 < n; i += 8) {
            memcpy(d + i, s + i, 8);
        }
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n > 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* The room [Name "value"] and its line feed take at most (every byte of the value escaped) added
 * to *need; 0 (w->err set) when the sum would overflow. */
static int tag_room(pgn_writer *w, size_t *need, pgn_str name, pgn_str value) {
    if (value.len > SIZE_MAX / 4 || name.len > SIZE_MAX / 4 ||
        name.len + 2 * value.len + 6 > SIZE_MAX - *need) {
        w->err = PGN_E_NOMEM;
        return 0;
    }
    *need += name.len + 2 * value.len + 6;
    return 1;
}

/* [Name "value"] and a line feed at d, with \\ and \" escaped (room made: tag_room); a value
 * without a byte to escape is copied whole. Returns the end of what it wrote. */
static inline char *put_tag(char *d, pgn_str name, pgn_str value) {
    size_t i;
    *d++ = '[';
    copy_small(d, name.ptr, name.len);
    d += name.len;
    memcpy(d, " \"", 2);
    d += 2;
    if (!needs_escape(value.ptr, value.len)) {
        copy_small(d, value.ptr, value.len);
        d += value.len;
    } else {
        for (i = 0; i < value.len; i++) {
            char c = value.ptr[i];
            if (c == '\\' || c == '"') {
                *d++ = '\\';
            }
            *d++ = c;
        }
    }
    memcpy(d, "\"]\n", 3);
    return d + 3;
}

static int tag_cmp(const void *a, const void *b) {
    const tag_ref *x = a, *y = b;
    size_t n = x->name.len < y->name.len ? x->name.len : y->name.len;
    int c = 0;
    if (n > 0 && x->name.ptr[0] != y->name.ptr[0]) { /* most names differ in their first byte */
        return (unsigned char)x->name.ptr[0] < (unsigned char)y->name.ptr[0] ? -1 : 1;
    }
    c = n ? memcmp(x->name.ptr, y->name.ptr, n) : 0;
    if (c != 0) {
        return c;
    }
    if (x->name.len != y->name.len) {
        return x->name.len < y->name.len ? -1 : 1;
    }
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Whether name is the n bytes of s (n a constant where it is called: an inlined compare). */
#define NAME_IS(name, s, n) ((name).len == (n) && memcmp((name).ptr, (s), (n)) == 0)

/* The roster index (0-6) of a tag name, 7 for FEN, 8 for SetUp, -1 for any other name: by its
 * first byte, then one compare of a known size. */
static int special_tag(pgn_str name) {
    if (name.len < 3 || name.len > 6) {
        return -1;
    }
    switch (name.ptr[0]) {
    case 'E': return NAME_IS(name, "Event", 5) ? 0 : -1;
    case 'S': return NAME_IS(name, "Site", 4) ? 1 : NAME_IS(name, "SetUp", 5) ? 8 : -1;
    case 'D': return NAME_IS(name, "Date", 4) ? 2 : -1;
    case 'R': return NAME_IS(name, "Round", 5) ? 3 : NAME_IS(name, "Result", 6) ? 6 : -1;
    case 'W': return NAME_IS(name, "White", 5) ? 4 : -1;
    case 'B': return NAME_IS(name, "Black", 5) ? 5 : -1;
    case 'F': return NAME_IS(name, "FEN", 3) ? 7 : -1;
    default: return -1;
    }
}

/* Sorts the tags after the roster by name (insertion sort: a game has a dozen or so). */
static void sort_tags(tag_ref *t, size_t n) {
    size_t i, j;
    if (n > 32) {
        qsort(t, n, sizeof *t, tag_cmp);
        return;
    }
    for (i = 1; i < n; i++) {
        tag_ref x = t[i];
        for (j = i; j > 0 && tag_cmp(&t[j - 1], &x) > 0; j--) {
            t[j] = t[j - 1];
        }
        t[j] = x;
    }
}

/* Appends tag name = value to w->tags[*n]. */
static void add_tag(pgn_writer *w, size_t *n, pgn_str name, pgn_str value) {
    w->tags[*n].name = name;
    w->tags[*n].value = value;
    w->tags[*n].order = *n;
    ++*n;
}

/* The tags that say the rules and the start (have: the game had a FEN tag, a Variant tag). FEN is
 * rewritten from the start position (three-check counters as lichess writes them) and is written
 * when the game had one or starts elsewhere than its rules' start (the standard position, or its
 * variant's: pgnk_export_is_rules_start); SetUp "1" goes with it
 * and only with it. A variant's game without a Variant tag gets one (lichess's name). */
static size_t rules_tags(pgn_writer *w, const pgn_game *game, size_t n, int have_fen,
                         int have_variant, char fen[PGN_FEN_MAX]) {
    const pgn_pos *start = pgn_game_start(game);
    if (have_fen || !pgnk_export_is_rules_start(start)) {
        pgn_fen_write(start, w->fen_flags | PGN_FEN_LICHESS_CHECKS, fen, PGN_FEN_MAX);
        add_tag(w, &n, special_names[7], cstr(fen));
        add_tag(w, &n, special_names[8], cstr("1"));
    }
    if (start->variant != PGN_VARIANT_STANDARD && !have_variant) {
        add_tag(w, &n, variant_name, cstr(pgn_variant_name((pgn_variant)start->variant)));
    }
    return n;
}

/* The roster (have[k]: roster[k] is the game's; else the default), Result as marker, then the n
 * tags of w->tags: the room for all of them made at once, then written with plain stores (issue
 * 32: a check and a call per tag were half of a tag's cost). */
static void write_all(pgn_writer *w, const pgn_str roster[7], const int have[9], pgn_str marker,
                      size_t n) {
    pgn_str values[7];
    size_t i, need = 0;
    for (i = 0; i < 6; i++) {
        values[i] = have[i] ? roster[i] : str_defaults[i];
        if (!tag_room(w, &need, special_names[i], values[i])) {
            return;
        }
    }
    values[6] = marker;
    if (!tag_room(w, &need, special_names[6], marker)) {
        return;
    }
    for (i = 0; i < n; i++) {
        if (!tag_room(w, &need, w->tags[i].name, w->tags[i].value)) {
            return;
        }
    }
    if (w->err != PGN_OK || (need > w->out.cap - w->out.len && !pgnk_writer_room(w, need))) {
        return;
    }
    char *d = w->out.ptr + w->out.len;
    for (i = 0; i < 7; i++) {
        d = put_tag(d, special_names[i], values[i]);
    }
    for (i = 0; i < n; i++) {
        d = put_tag(d, w->tags[i].name, w->tags[i].value);
    }
    w->out.len = (size_t)(d - w->out.ptr);
}

/* The tag section: the Seven Tag Roster in its order (missing ones filled in, Result from the
 * termination marker), then the other tags sorted by name, with FEN, SetUp and Variant as
 * rules_tags says. Reduced export keeps FEN and SetUp only for a set-up position, without which
 * the moves could not be replayed, and Variant only for a variant's game. One pass over the
 * game's tags. */
void pgnk_writer_tags(pgn_writer *w, const pgn_game *game, const char **marker) {
    char fen[PGN_FEN_MAX];
    pgn_str roster[7];
    int have[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, have_variant = 0;
    size_t i, n = 0, count;
    const pgnk_tag *tags = pgnk_game_tags(game, &count);
    int reduced = (w->flags & PGN_WRITE_REDUCED) != 0;
    int variant = pgn_game_start(game)->variant != PGN_VARIANT_STANDARD;
    pgn_result r = pgn_game_result(game);
    void *p = w->tags;
    if (count + 3 > w->tags_cap && /* (pgnk_grow reallocates whenever it is called) */
        !pgnk_grow(&w->sink.alloc, &p, &w->tags_cap, count + 3, sizeof *w->tags,
                   4096 / sizeof *w->tags + 1)) {
        w->err = PGN_E_NOMEM;
        return;
    }
    w->tags = p;
    for (i = 0; i < count; i++) {
        pgn_str name = text_str(tags[i].name);
        int k = special_tag(name);
        if (k >= 0) {
            have[k] = 1;
            if (k < 7) {
                roster[k] = text_str(tags[i].value);
            }
        } else if (!reduced || (variant && name_is(name, variant_name))) {
            have_variant |= name_is(name, variant_name);
            add_tag(w, &n, name, text_str(tags[i].value));
        }
    }
    /* the termination marker: the game's, else the Result tag's if it is a marker, else "*" */
    if (r == PGN_RESULT_NONE && have[6]) {
        r = pgn_result_parse(roster[6].ptr, roster[6].len);
    }
    *marker = pgn_result_str(r);
    n = rules_tags(w, game, n, have[7] && !reduced, have_variant, fen);
    sort_tags(w->tags, n);
    write_all(w, roster, have, cstr(*marker), n);
}
