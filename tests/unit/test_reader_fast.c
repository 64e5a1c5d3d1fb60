/* SPDX-License-Identifier: MIT */
/* The reader's fast paths against their truth. Tag values (PGN §8.1.1, §7: a string holds the
 * characters between its quotes, with \" and \\ escapes; UTF-8 bytes are kept): every length up
 * to 24 and every place of an escape or a UTF-8 character in it, behind tag names of 1 to 8
 * bytes, so that the word-at-a-time scan meets each stop at each offset of its 8-byte words.
 * Variations (PGN §8.2.5: a RAV replaces the move before it): random legal games made with the
 * library's move generator (checked by perft elsewhere), with one, two or three alternatives
 * after every move, some nested, must read back without a diagnostic and with every move in
 * its place: a variation started from any other position than the one before the move it
 * replaces would find its first move illegal or resolve it elsewhere. */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <stdlib.h>

static pgn_game *read_text(const char *text, size_t len) {
    pgn_game *g = NULL;
    pgn_reader *r = NULL;
    if (pgn_game_new(&g, NULL) != PGN_OK || pgn_reader_new_mem(&r, NULL, text, len) != PGN_OK ||
        pgn_reader_next(r, g) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "cannot read %.60s", text);
    }
    pgn_reader_free(r);
    return g;
}

/* A tag named name_len letters whose value (written as raw) reads as want. */
static void check_tag(size_t name_len, const char *raw, const char *want) {
    char name[9] = "ABCDEFGH", text[256];
    name[name_len] = 0;
    int n = snprintf(text, sizeof text, "[%s \"%s\"]\n[Z \"z\"]\n\n1. e4 *\n", name, raw);
    pgn_game *g = read_text(text, (size_t)n);
    CHECK_EQ_INT(pgn_game_tag_count(g), 2);
    pgn_str v = pgn_game_tag_value(g, 0), z = pgn_game_tag_value(g, 1);
    if (v.len != strlen(want) || memcmp(v.ptr, want, v.len) != 0) {
        harness_fail(__FILE__, __LINE__, "[%s \"%s\"] read as \"%.*s\", not \"%s\"", name, raw,
                     (int)v.len, v.ptr, want);
    } else {
        harness_counts.passed++;
    }
    CHECK(z.len == 1 && z.ptr[0] == 'z');
    pgn_game_free(g);
}

static void test_tag_values(void) {
    static const struct {
        const char *raw, *read;
    } specials[] = {{"\\\"", "\""}, {"\\\\", "\\"}, {"\xC3\xA9", "\xC3\xA9"}};
    char raw[64], want[64];
    for (size_t name_len = 1; name_len <= 8; name_len++) {
        for (size_t len = 0; len <= 24; len++) {
            for (size_t i = 0; i < len; i++) {
                raw[i] = (char)('a' + i % 26);
            }
            raw[len] = 0;
            check_tag(name_len, raw, raw);
            for (size_t k = 0; k < len; k++) {
                for (size_t s = 0; s < sizeof specials / sizeof specials[0]; s++) {
                    size_t rl = strlen(specials[s].raw), wl = strlen(specials[s].read);
                    memcpy(want, raw, k);
                    memcpy(want + k, specials[s].read, wl);
                    strcpy(want + k + wl, raw + k + 1);
                    char r2[64];
                    memcpy(r2, raw, k);
                    memcpy(r2 + k, specials[s].raw, rl);
                    strcpy(r2 + k + rl, raw + k + 1);
                    check_tag(name_len, r2, want);
                }
            }
        }
    }
}

/* Appends the SAN of mv in pos and a space. */
static void put_move(buf *b, const pgn_pos *pos, pgn_move mv) {
    char san[PGN_SAN_MAX + 1];
    size_t n = pgn_san_write(pos, mv, san);
    if (pos->side == PGN_WHITE) {
        buf_printf(b, "%u. ", (unsigned)pos->fullmove);
    } else {
        buf_printf(b, "%u... ", (unsigned)pos->fullmove);
    }
    buf_put(b, san, n);
    buf_put(b, " ", 1);
}

/* A random legal game of up to plies moves, each followed by up to three variations (their first
 * move another legal move from the same position, some with a second move and a nested
 * variation). Returns the number of moves written (main line and variations). */
static size_t make_game(buf *b, unsigned seed, int plies) {
    pgn_pos pos, alt;
    pgn_movelist ml, ml2;
    size_t moves = 0;
    srand(seed);
    pgn_pos_init(&pos);
    buf_printf(b, "[Event \"rav %u\"]\n\n", seed);
    for (int p = 0; p < plies; p++) {
        pgn_pos_legal_moves(&pos, &ml);
        if (ml.count == 0) {
            break;
        }
        pgn_move mv = ml.moves[(unsigned)rand() % ml.count];
        put_move(b, &pos, mv);
        moves++;
        int vars = rand() % 4;
        for (int v = 0; v < vars && ml.count > 1; v++) {
            pgn_move other = ml.moves[(unsigned)rand() % ml.count];
            if (other == mv) {
                continue;
            }
            buf_put(b, "(", 1);
            put_move(b, &pos, other);
            moves++;
            alt = pos;
            pgn_pos_play(&alt, other);
            pgn_pos_legal_moves(&alt, &ml2);
            if (ml2.count > 1 && rand() % 2) {
                pgn_move a = ml2.moves[0], c = ml2.moves[ml2.count - 1];
                put_move(b, &alt, a);
                buf_put(b, "(", 1); /* nested: replaces a */
                put_move(b, &alt, c);
                buf_put(b, ") ", 2);
                moves += 2;
            }
            buf_put(b, ") ", 2);
        }
        pgn_pos_play(&pos, mv);
    }
    buf_put(b, "*\n", 2);
    return moves;
}

static size_t count_moves(const pgn_node *n) {
    size_t c = 0;
    for (const pgn_node *k = pgn_node_child(n); k; k = pgn_node_sibling(k)) {
        c += 1 + count_moves(k);
    }
    return c;
}

static void test_variations(void) {
    for (unsigned seed = 1; seed <= 40; seed++) {
        buf b = {0};
        size_t moves = make_game(&b, seed, 20 + (int)(seed * 7 % 160));
        pgn_game *g = read_text(b.p, b.len);
        uint64_t dropped = 0;
        size_t diags = pgn_game_diag_count(g, &dropped);
        if (diags != 0) {
            const pgn_diag *d = pgn_game_diag(g, 0);
            harness_fail(__FILE__, __LINE__, "seed %u: %zu diagnostics, first %s at %u:%u '%s'",
                         seed, diags, pgn_status_name(d->code), d->at.line, d->at.column, d->token);
        } else {
            harness_counts.passed++;
        }
        CHECK_EQ_INT(count_moves(pgn_game_root(g)), moves);
        pgn_game_free(g);
        buf_free(&b);
    }
}

int main(void) {
    test_tag_values();
    test_variations();
    return harness_finish();
}
