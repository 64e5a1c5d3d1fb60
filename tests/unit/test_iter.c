/* SPDX-License-Identifier: MIT */
/* The game-tree iterator (pgn_iter, include/pgnkit/game.h). Truth: the event order of PGN §8.2.5
 * written out by hand for small games (a RAV follows the move it replaces and is an alternative
 * to it), the FEN of each position from the standard's own example (PGN §16.1.4: after 1. e4 and
 * 1... c5 2. Nf3), and, on every game of the edge corpus, a second walk written here from the
 * node links alone (each node's position found by replaying its path from the root), which must
 * see the same nodes in the same order with the same positions and the same side and move
 * number. Also: the main-line flag, the leave-less flag, PGN_END, and a stack deeper than its
 * first growth. */
#include "harness.h"
#include "testutil.h"
#include "pgnkit.h"

#include <dirent.h>
#include <stdlib.h>

static pgn_game *read_one(const char *text) {
    pgn_game *g = NULL;
    pgn_reader *r = NULL;
    if (pgn_game_new(&g, NULL) != PGN_OK ||
        pgn_reader_new_mem(&r, NULL, text, strlen(text)) != PGN_OK ||
        pgn_reader_next(r, g) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "cannot read %s", text);
    }
    pgn_reader_free(r);
    return g;
}

/* The events as text: G< M(san) V( ) M> G> ... with the SAN of each event's node. */
static void events(pgn_game *g, uint32_t flags, buf *out) {
    pgn_iter *it = NULL;
    pgn_iter_event ev;
    pgn_status st;
    static const char *const names[] = {"", "G<", "M<", "V<", "V>", "M>", "G>"};
    if (pgn_iter_new(&it, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "pgn_iter_new");
        return;
    }
    pgn_iter_reset(it, g, flags | PGN_ITER_BOARD);
    while ((st = pgn_iter_next(it, &ev)) == PGN_OK) {
        char san[PGN_SAN_MAX + 1] = "";
        if (ev != PGN_ITER_GAME_ENTER && ev != PGN_ITER_GAME_LEAVE) {
            san[pgn_san_write(pgn_iter_pos(it), pgn_node_move(pgn_iter_node(it)), san)] = 0;
        }
        buf_printf(out, "%s%s%s ", names[ev], san,
                   ev == PGN_ITER_MOVE_ENTER && pgn_iter_has_variations(it) ? "*" : "");
    }
    CHECK_EQ_INT(st, PGN_END);
    CHECK_EQ_INT(pgn_iter_next(it, &ev), PGN_END); /* and from then on */
    pgn_iter_free(it);
}

static void check_events(const char *pgn, uint32_t flags, const char *want) {
    pgn_game *g = read_one(pgn);
    buf b = {0};
    events(g, flags, &b);
    buf_put(&b, "", 0);
    CHECK_EQ_STR(b.p, want);
    buf_free(&b);
    pgn_game_free(g);
}

static void test_order(void) {
    check_events("1. e4 (1. d4 d5) e5 *", 0,
                 "G< M<e4* V<d4 M<d4 M>d4 M<d5 M>d5 V>d4 M>e4 M<e5 M>e5 G> ");
    /* two alternatives, one nested inside the other's line, one after the first move of a line */
    check_events("1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) 2... d6) (1... e6) 2. Nf3 *", 0,
                 "G< M<e4 M>e4 M<e5* V<c5 M<c5 M>c5 M<Nf3* V<c3 M<c3 M>c3 M<d5 M>d5 V>c3 M>Nf3 "
                 "M<d6 M>d6 V>c5 V<e6 M<e6 M>e6 V>e6 M>e5 M<Nf3 M>Nf3 G> ");
    check_events("1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) 2... d6) (1... e6) 2. Nf3 *",
                 PGN_ITER_MAIN_LINE, "G< M<e4 M>e4 M<e5 M>e5 M<Nf3 M>Nf3 G> ");
    check_events("1. e4 (1. d4 d5) e5 *", PGN_ITER_NO_MOVE_LEAVE,
                 "G< M<e4* V<d4 M<d4 M<d5 V>d4 M<e5 G> ");
    check_events("[Event \"e\"]\n\n*", 0, "G< G> ");
    /* a variation of a variation's first move: the alternatives of the alternative are siblings
     * of the main move, so they are entered from the main move, in input order */
    check_events("1. e4 (1. d4) (1. c4) *", 0,
                 "G< M<e4* V<d4 M<d4 M>d4 V>d4 V<c4 M<c4 M>c4 V>c4 M>e4 G> ");
}

/* PGN §16.1.4's example FENs, the side to move and the move number, with and without the board. */
static void test_positions(void) {
    pgn_game *g = read_one("1. e4 c5 2. Nf3 *");
    static const char *const fen[] = {
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"};
    static const uint32_t number[] = {1, 1, 2};
    pgn_iter *it = NULL;
    pgn_iter_event ev;
    CHECK_EQ_INT(pgn_iter_new(&it, NULL), PGN_OK);
    for (int board = 0; board < 2; board++) {
        size_t k = 0;
        pgn_iter_reset(it, g, board ? PGN_ITER_BOARD : 0);
        while (pgn_iter_next(it, &ev) == PGN_OK) {
            if (ev != PGN_ITER_MOVE_ENTER) {
                continue;
            }
            CHECK_EQ_INT(pgn_iter_side(it), k % 2 ? PGN_BLACK : PGN_WHITE);
            CHECK_EQ_INT(pgn_iter_fullmove(it), number[k]);
            CHECK_EQ_INT(pgn_iter_ply(it), k);
            if (board) {
                char f[PGN_FEN_MAX];
                pgn_fen_write(pgn_iter_pos_after(it), 0, f, sizeof f);
                CHECK_EQ_STR(f, fen[k]);
            }
            k++;
        }
        CHECK_EQ_INT(k, 3);
    }
    pgn_iter_free(it);
    pgn_game_free(g);
}

/* Variations nested 100 deep (built through the API; no board is kept, so the moves need not be
 * legal): the stack grows past its first allocation, and the depth is reported. Each level's
 * alternative b holds the next level's main move a and its alternative. */
static void test_deep(void) {
    pgn_game *g = NULL;
    pgn_node *parent, *a, *b;
    pgn_loc at = {0, 0, 0};
    CHECK_EQ_INT(pgn_game_new(&g, NULL), PGN_OK);
    parent = pgn_game_root(g);
    for (int i = 0; i < 100; i++) {
        if (pgn_node_add(g, parent, (pgn_move)(i + 1), at, &a) != PGN_OK ||
            pgn_node_add(g, parent, (pgn_move)(i + 1000), at, &b) != PGN_OK) {
            harness_fail(__FILE__, __LINE__, "pgn_node_add");
            break;
        }
        parent = b;
    }
    pgn_iter *it = NULL;
    pgn_iter_event ev;
    size_t most = 0, enters = 0, leaves = 0, moves = 0;
    CHECK_EQ_INT(pgn_iter_new(&it, NULL), PGN_OK);
    pgn_iter_reset(it, g, 0);
    while (pgn_iter_next(it, &ev) == PGN_OK) {
        most = pgn_iter_depth(it) > most ? pgn_iter_depth(it) : most;
        enters += ev == PGN_ITER_VARIATION_ENTER;
        leaves += ev == PGN_ITER_VARIATION_LEAVE;
        moves += ev == PGN_ITER_MOVE_ENTER;
        if (ev == PGN_ITER_VARIATION_LEAVE) {
            CHECK_EQ_INT(pgn_iter_ply(it), pgn_iter_depth(it) - 1);
        }
    }
    CHECK_EQ_INT(most, 100);
    CHECK_EQ_INT(enters, 100);
    CHECK_EQ_INT(leaves, 100);
    CHECK_EQ_INT(moves, 200);
    pgn_iter_free(it);
    pgn_game_free(g);
}

/* The reference walk: PGN order from the links alone. Visits node, then (if it is its parent's
 * first child) its alternatives' lines, then its child; an explicit list of pending work. */
static void ref_pos(const pgn_game *g, const pgn_node *n, pgn_pos *pos) {
    const pgn_node *path[4096];
    size_t k = 0;
    *pos = *pgn_game_start(g);
    for (const pgn_node *p = n; pgn_node_parent(p) != NULL && k < 4096; p = pgn_node_parent(p)) {
        path[k++] = p;
    }
    while (k-- > 0) {
        pgn_pos_play(pos, pgn_node_move(path[k]));
    }
}

/* Lists the moves in PGN order into out (at most cap); returns the count. */
static size_t ref_walk(const pgn_game *g, const pgn_node **out, size_t cap) {
    const pgn_node **todo = malloc(sizeof *todo * 65536);
    size_t n = 0, t = 0;
    if (pgn_node_child(pgn_game_root(g)) != NULL) {
        todo[t++] = pgn_node_child(pgn_game_root(g));
    }
    while (t > 0 && n < cap) {
        const pgn_node *x = todo[--t];
        out[n++] = x;
        /* what comes after x, pushed in reverse: its child, then its alternatives' lines */
        if (pgn_node_child(x) != NULL && t < 65536) {
            todo[t++] = pgn_node_child(x);
        }
        if (pgn_node_child(pgn_node_parent(x)) == x) {
            const pgn_node *alts[256];
            size_t a = 0;
            for (const pgn_node *s = pgn_node_sibling(x); s != NULL && a < 256;
                 s = pgn_node_sibling(s)) {
                alts[a++] = s;
            }
            while (a-- > 0 && t < 65536) {
                todo[t++] = alts[a];
            }
        }
    }
    free(todo);
    return n;
}

/* The iterator against the reference walk: the same moves in the same order, each with the
 * position before it (board walk: the FEN; light walk: side to move and move number). */
static void compare_game(const pgn_game *g, pgn_iter *it, const char *where) {
    static const pgn_node *ref[100000];
    size_t n = ref_walk(g, ref, 100000);
    for (int board = 0; board < 2; board++) {
        size_t k = 0;
        int bad = 0;
        pgn_iter_event ev;
        pgn_iter_reset(it, g, board ? PGN_ITER_BOARD : 0);
        while (!bad && pgn_iter_next(it, &ev) == PGN_OK) {
            pgn_pos want;
            if (ev != PGN_ITER_MOVE_ENTER) {
                continue;
            }
            if (k >= n || pgn_iter_node(it) != ref[k]) {
                bad = 1;
                break;
            }
            ref_pos(g, pgn_node_parent(ref[k]), &want);
            if (pgn_iter_side(it) != (pgn_color)want.side ||
                pgn_iter_fullmove(it) != want.fullmove) {
                bad = 2;
            }
            if (board) {
                char a[PGN_FEN_MAX], b[PGN_FEN_MAX];
                pgn_fen_write(pgn_iter_pos(it), 0, a, sizeof a);
                pgn_fen_write(&want, 0, b, sizeof b);
                bad = strcmp(a, b) != 0 ? 3 : bad;
            }
            k++;
        }
        if (bad || k != n) {
            harness_fail(__FILE__, __LINE__, "%s (board %d): move %zu of %zu differs (%d)", where,
                         board, k, n, bad);
            return;
        }
        harness_counts.passed++;
    }
}

/* Every game of every file under corpus/edge/. */
static void test_corpus(void) {
    const char *edge = harness_shared("corpus/edge");
    DIR *top = opendir(edge);
    pgn_iter *it = NULL;
    pgn_game *g = NULL;
    unsigned long games = 0;
    if (top == NULL || pgn_iter_new(&it, NULL) != PGN_OK || pgn_game_new(&g, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "cannot open %s", edge);
        return;
    }
    for (struct dirent *d; (d = readdir(top)) != NULL;) {
        char dir[1024];
        DIR *sub;
        if (d->d_name[0] == '.') {
            continue;
        }
        snprintf(dir, sizeof dir, "%s/%s", edge, d->d_name);
        if ((sub = opendir(dir)) == NULL) {
            continue;
        }
        for (struct dirent *e; (e = readdir(sub)) != NULL;) {
            char path[2048];
            pgn_reader *r = NULL;
            if (strstr(e->d_name, ".pgn") == NULL) {
                continue;
            }
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            FILE *f = fopen(path, "rb");
            if (f == NULL || pgn_reader_new_file(&r, NULL, f) != PGN_OK) {
                harness_fail(__FILE__, __LINE__, "cannot read %s", path);
            }
            while (r != NULL && pgn_reader_next(r, g) == PGN_OK) {
                compare_game(g, it, path);
                games++;
            }
            pgn_reader_free(r);
            if (f != NULL) {
                fclose(f);
            }
        }
        closedir(sub);
    }
    closedir(top);
    printf("edge corpus: %lu games walked\n", games);
    CHECK(games > 1000);
    pgn_game_free(g);
    pgn_iter_free(it);
}

/* The iterator's stack comes from the caller's allocator; a half-filled one is refused. */
static void test_alloc(void) {
    limit_alloc fa = {-1, 0};
    pgn_allocator al = limit_allocator(&fa);
    pgn_iter *it = NULL;
    CHECK_EQ_INT(pgn_iter_new(&it, &al), PGN_OK);
    pgn_iter_free(it);
    CHECK_EQ_INT(fa.live, 0);
    al.free = NULL;
    it = (pgn_iter *)&al;
    CHECK_EQ_INT(pgn_iter_new(&it, &al), PGN_E_BAD_ALLOCATOR);
    CHECK(it == NULL);
}

int main(void) {
    test_order();
    test_positions();
    test_deep();
    test_corpus();
    test_alloc();
    return harness_finish();
}
