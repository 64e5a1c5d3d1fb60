/* SPDX-License-Identifier: MIT */
/* Suggestions and repairs of mistyped moves (issue 28; docs/repair.md) measured on real games:
 * the main lines of ../shared/corpus/big/misc (232 TWIC games) are rewritten with realistic slips
 * (a file or rank one off, another or a missing piece letter, two characters swapped, a dropped
 * disambiguation, another language's letter, a lowercase piece letter), each one a move that
 * cannot be played where it stands (pgn_san_parse refuses it: illegal, ambiguous or unreadable).
 * The true move is the game's own, so the truth is the real game. Measured:
 *   - the true move first among the suggestions of the error (>= 92% of single slips), among the
 *     first three (>= 98%);
 *   - PGN_READ_FIX reads exactly the true main line for >= 90% of the single-slip games and >= 70%
 *     of the games with two slips >= 10 plies apart, and never a different game whole;
 *   - the same on a held-out set: the other half of the games, with another seed;
 *   - a clean game is never changed by PGN_READ_FIX.
 * The figures are printed (docs/repair.md quotes them). SLIPS_SEED=N xors N into both seeds, to
 * measure on other slips; SLIPS_VERBOSE=1 prints the games repaired to another game. */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <stdlib.h>
#include <string.h>

#define CORPUS "corpus/big/misc/mliebelt-twic-01-232games.pgn"
#define MAX_PLIES 600

typedef struct line {
    size_t n;
    pgn_move moves[MAX_PLIES];
    char san[MAX_PLIES][PGN_SAN_MAX];
    pgn_pos before[MAX_PLIES];
} line;

typedef struct tally {
    unsigned slipped, first, top3, fixed, wrong;
    unsigned doubles, dfixed, dwrong;
} tally;

static uint64_t rng;
static unsigned next_rand(unsigned n) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* The main line of game into *l (from the standard start only). 0 if it has another start. */
static int main_line(const pgn_game *game, line *l) {
    pgn_pos pos = *pgn_game_start(game);
    if (!pgn_pos_is_standard_start(&pos)) {
        return 0;
    }
    l->n = 0;
    for (pgn_node *n = pgn_node_child(pgn_game_root(game)); n && l->n < MAX_PLIES;
         n = pgn_node_child(n)) {
        l->before[l->n] = pos;
        l->moves[l->n] = pgn_node_move(n);
        pgn_san_write(&pos, l->moves[l->n], l->san[l->n]);
        pgn_pos_play(&pos, l->moves[l->n]);
        l->n++;
    }
    return l->n >= 20;
}

static const char *const files = "abcdefgh";

/* A slip of san into out; 0 if this kind does not apply. */
static int make_slip(const char *san, unsigned kind, char *out) {
    size_t n = strlen(san);
    strcpy(out, san);
    size_t sq = n; /* the destination square: the last file-rank pair */
    for (size_t i = 0; i + 1 < n; i++) {
        if (san[i] >= 'a' && san[i] <= 'h' && san[i + 1] >= '1' && san[i + 1] <= '8') {
            sq = i;
        }
    }
    int piece = strchr("KQRBN", san[0]) != NULL;
    switch (kind) {
    case 0: /* file one off */
    case 1: /* rank one off */
        if (sq == n) {
            return 0;
        } else {
            size_t at = sq + (kind == 1);
            int d = next_rand(2) ? 1 : -1;
            char c = (char)(out[at] + d);
            if ((kind == 0 && (c < 'a' || c > 'h')) || (kind == 1 && (c < '1' || c > '8'))) {
                c = (char)(out[at] - d);
            }
            out[at] = c;
        }
        return 1;
    case 2: /* another piece letter */
        if (!piece || san[0] == 'K') {
            return 0;
        }
        out[0] = "QRBN"[next_rand(4)];
        return out[0] != san[0];
    case 3: /* piece letter missing */
        if (!piece) {
            return 0;
        }
        memmove(out, out + 1, n);
        return 1;
    case 4: { /* two neighbouring characters swapped */
        if (n < 3) {
            return 0;
        }
        size_t i = next_rand((unsigned)n - 1);
        if (out[i] == out[i + 1] || out[i] == '+' || out[i + 1] == '+') {
            return 0;
        }
        char c = out[i];
        out[i] = out[i + 1];
        out[i + 1] = c;
        return 1;
    }
    case 5: /* disambiguation dropped */
        if (!piece || sq < 2 || out[1] == 'x' || sq == 1) {
            return 0;
        }
        memmove(out + 1, out + 2, n - 1);
        return 1;
    case 6: /* another language's letter */
        if (!piece) {
            return 0;
        } else {
            const char *en = "KQRBN", *de = "KDTLS";
            out[0] = de[strchr(en, san[0]) - en];
            return out[0] != san[0];
        }
    case 7: /* lowercase piece letter */
        if (!piece || san[0] == 'B') {
            return 0;
        }
        out[0] = (char)(out[0] + ('a' - 'A'));
        return 1;
    case 8: /* pawn capture file off */
        if (piece || n < 4 || san[1] != 'x') {
            return 0;
        }
        out[0] = (char)(out[0] == 'a'   ? 'b'
                        : out[0] == 'h' ? 'g'
                                        : out[0] + (next_rand(2) ? 1 : -1));
        return 1;
    default: return 0;
    }
    (void)files;
}

/* A slip at ply i that pgn_san_parse refuses there; 0 if none found. */
static int slip_at(const line *l, size_t i, char *out) {
    for (int tries = 0; tries < 40; tries++) {
        if (!make_slip(l->san[i], next_rand(9), out)) {
            continue;
        }
        pgn_san_result res;
        int readable = 0; /* in some language's letters: not a slip where it stands */
        for (int lang = 0; lang < PGN_LANG_COUNT && !readable; lang++) {
            readable = pgn_san_parse_lang(&l->before[i], (pgn_lang)lang, out, strlen(out), 0,
                                          &res) == PGN_OK;
        }
        if (!readable) {
            return 1;
        }
    }
    return 0;
}

static void write_game(buf *b, const line *l, size_t a, const char *sa, size_t c, const char *sc) {
    buf_str(b, "[Event \"slip\"]\n\n");
    for (size_t i = 0; i < l->n; i++) {
        if (i % 2 == 0) {
            buf_printf(b, "%zu. ", i / 2 + 1);
        }
        buf_str(b, i == a ? sa : i == c ? sc : l->san[i]);
        buf_str(b, " ");
    }
    buf_str(b, "*\n");
}

typedef struct diags {
    char first_sugg[48];
    int have;
} diags;

static void on_diag(void *ctx, const pgn_diag *d) {
    diags *g = ctx;
    if (d->severity == PGN_SEV_ERROR && !g->have) {
        memcpy(g->first_sugg, d->suggestions, sizeof g->first_sugg);
        g->have = 1;
    }
}

/* Reads text; *same: the game read whole is the main line l; returns the game's errors. */
static unsigned read_back(const buf *b, uint32_t flags, const line *l, diags *dg, int *same,
                          int *whole) {
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.on_diag = on_diag;
    o.diag_ctx = dg;
    pgn_reader *r;
    pgn_game *g;
    if (pgn_reader_new_mem(&r, &o, b->p, b->len) != PGN_OK || pgn_game_new(&g, NULL) != PGN_OK) {
        exit(1);
    }
    unsigned errors = 0;
    *same = *whole = 0;
    if (pgn_reader_next(r, g) == PGN_OK) {
        errors = pgn_reader_summary(r)->errors;
        *whole = errors == 0;
        size_t k = 0;
        int eq = 1;
        for (pgn_node *n = pgn_node_child(pgn_game_root(g)); n; n = pgn_node_child(n), k++) {
            eq = eq && k < l->n && pgn_node_move(n) == l->moves[k];
        }
        *same = eq && k == l->n;
    }
    pgn_game_free(g);
    pgn_reader_free(r);
    return errors;
}

/* The rank (1-based) of san among the space-separated suggestions, 0 if absent. */
static int rank_of(const char *sugg, const char *san) {
    int k = 1;
    size_t n = strlen(san);
    for (const char *p = sugg; *p; k++) {
        size_t w = strcspn(p, " ");
        if (w == n && memcmp(p, san, n) == 0) {
            return k;
        }
        p += w + (p[w] == ' ');
    }
    return 0;
}

static void measure(const line *l, tally *t) {
    char sa[32], sc[32];
    buf b = {0};
    diags dg;
    int same, whole;
    /* one slip */
    size_t a = 2 + next_rand((unsigned)l->n - 2);
    if (slip_at(l, a, sa)) {
        write_game(&b, l, a, sa, SIZE_MAX, "");
        memset(&dg, 0, sizeof dg);
        if (read_back(&b, 0, l, &dg, &same, &whole) > 0 && dg.have) {
            t->slipped++;
            int k = rank_of(dg.first_sugg, l->san[a]);
            t->first += k == 1;
            t->top3 += k >= 1 && k <= 3;
            if (k != 1 && getenv("SLIPS_VERBOSE")) {
                printf("ply %zu: typed %s for %s: suggested '%s'\n%s\n", a, sa, l->san[a],
                       dg.first_sugg, getenv("SLIPS_VERBOSE")[0] == '2' ? b.p : "");
            }
            memset(&dg, 0, sizeof dg);
            read_back(&b, PGN_READ_FIX, l, &dg, &same, &whole);
            t->fixed += same;
            t->wrong += whole && !same;
            if (whole && !same) {
                printf("repaired to another game: ply %zu typed %s for %s\n%s", a, sa, l->san[a],
                       getenv("SLIPS_VERBOSE") ? b.p : "");
            }
        }
    }
    /* two slips >= 10 plies apart */
    if (l->n >= 24) {
        a = 2 + next_rand((unsigned)l->n - 14);
        size_t c = a + 10 + next_rand((unsigned)(l->n - a - 10));
        b.len = 0;
        if (slip_at(l, a, sa) && slip_at(l, c, sc)) {
            write_game(&b, l, a, sa, c, sc);
            memset(&dg, 0, sizeof dg);
            if (read_back(&b, 0, l, &dg, &same, &whole) > 0) {
                t->doubles++;
                read_back(&b, PGN_READ_FIX, l, &dg, &same, &whole);
                t->dfixed += same;
                t->dwrong += whole && !same;
                if (whole && !same) {
                    printf("repaired to another game: plies %zu %zu typed %s %s for %s %s\n%s", a,
                           c, sa, sc, l->san[a], l->san[c], getenv("SLIPS_VERBOSE") ? b.p : "");
                }
            }
        }
    }
    /* the clean game is never changed */
    b.len = 0;
    write_game(&b, l, SIZE_MAX, "", SIZE_MAX, "");
    read_back(&b, PGN_READ_FIX, l, &dg, &same, &whole);
    CHECK(same && whole);
    buf_free(&b);
}

static void run(const char *name, int parity, uint64_t seed) {
    size_t len;
    char *text = buf_read_file(harness_shared(CORPUS), &len);
    if (!text) {
        harness_fail(__FILE__, __LINE__, "cannot read %s", CORPUS);
        return;
    }
    rng = getenv("SLIPS_SEED") ? seed ^ strtoull(getenv("SLIPS_SEED"), NULL, 0) : seed;
    pgn_reader *r;
    pgn_game *g;
    static line l;
    tally t;
    memset(&t, 0, sizeof t);
    if (pgn_reader_new_mem(&r, NULL, text, len) != PGN_OK || pgn_game_new(&g, NULL) != PGN_OK) {
        exit(1);
    }
    for (unsigned k = 0; pgn_reader_next(r, g) == PGN_OK; k++) {
        if ((int)(k % 2) == parity && pgn_reader_summary(r)->errors == 0 && main_line(g, &l)) {
            measure(&l, &t);
        }
    }
    pgn_game_free(g);
    pgn_reader_free(r);
    free(text);
    printf("%s: %u single slips: true move first %u (%.1f%%), top 3 %u (%.1f%%); fixed %u "
           "(%.1f%%), to another game %u; %u two-slip games: fixed %u (%.1f%%), to another game "
           "%u\n",
           name, t.slipped, t.first, 100.0 * t.first / t.slipped, t.top3,
           100.0 * t.top3 / t.slipped, t.fixed, 100.0 * t.fixed / t.slipped, t.wrong, t.doubles,
           t.dfixed, 100.0 * t.dfixed / t.doubles, t.dwrong);
    CHECK(t.slipped >= 80 && t.doubles >= 60);
    CHECK(t.first * 100 >= 92 * t.slipped);
    CHECK(t.top3 * 100 >= 98 * t.slipped);
    CHECK(t.fixed * 100 >= 90 * t.slipped);
    CHECK(t.dfixed * 100 >= 70 * t.doubles);
    CHECK_EQ_INT(t.wrong, 0);
    CHECK_EQ_INT(t.dwrong, 0);
}

int main(void) {
    run("measured set", 0, 0x9e3779b97f4a7c15u);
    run("held-out set", 1, 0x243f6a8885a308d3u);
    return harness_finish();
}
