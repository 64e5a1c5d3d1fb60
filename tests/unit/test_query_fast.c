/* SPDX-License-Identifier: MIT */
/* pgn_query_visitor_fast (PGN_READ_MOVE_AFTER: the reader reads and plays each move in one pass,
 * the matcher tests a point at the position after its move) against pgn_query_visitor_for with
 * pgn_query_reader_flags: for each expression, over TWIC 1427, the first games of the GNU Chess
 * book and the corpus's edge files, the same games must match at the same first ply, with the same
 * plies counted and the same diagnostics (code, line, column: the same moves resolved). And the
 * reader's side of the flag: each position a move callback gets is its move played on the one
 * before (pgn_pos_play), and the last is the summary's final position. */
#include <pgnkit.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "testutil.h"

/* What one reading gave: per game the answer, and per game and diagnostic a line of text. */
typedef struct seen {
    buf text;
    unsigned long games, matched;
} seen;

static void on_diag(void *ctx, const pgn_diag *d) {
    seen *s = ctx;
    char line[96];
    int n = snprintf(line, sizeof line, "diag %s %u:%u game %llu\n", pgn_status_name(d->code),
                     d->at.line, d->at.column, (unsigned long long)d->game);
    buf_write(&s->text, line, (size_t)n);
}

/* Reads pgn with expr, fast or not, into *s; *flags gets the reader flags used. 0 on a failure. */
static int run(const char *expr, const char *pgn, size_t len, int fast, seen *s, uint32_t *flags) {
    pgn_query *q;
    pgn_query_error e;
    if (pgn_query_compile(&q, expr, strlen(expr), NULL, &e) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "'%s' does not compile: %s", expr, e.message);
        return 0;
    }
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.on_diag = on_diag;
    ro.diag_ctx = s;
    const pgn_visitor *v = fast ? pgn_query_visitor_fast(q, &ro.flags) : pgn_query_visitor_for(q);
    ro.flags |= fast ? 0 : pgn_query_reader_flags(q);
    *flags = ro.flags;
    pgn_query_matcher *m = NULL;
    pgn_reader *r = NULL;
    int ok = pgn_query_matcher_new(&m, q, NULL) == PGN_OK &&
             pgn_reader_new_mem(&r, &ro, pgn, len) == PGN_OK;
    pgn_status st;
    while (ok && (st = pgn_reader_visit(r, v, m)) == PGN_OK) {
        pgn_query_result res;
        ok = pgn_query_matcher_result(m, &res) == PGN_OK;
        char line[96];
        int n = snprintf(line, sizeof line, "game %lu: %d ply %ld plies %u\n", ++s->games,
                         res.matched, res.first_ply == UINT32_MAX ? -1L : (long)res.first_ply,
                         pgn_reader_summary(r)->plies);
        buf_write(&s->text, line, (size_t)n);
        s->matched += (unsigned long)res.matched;
    }
    ok = ok && st == PGN_END;
    if (!ok) {
        harness_fail(__FILE__, __LINE__, "'%s': out of memory or a read failure", expr);
    }
    pgn_reader_free(r);
    pgn_query_matcher_free(m);
    pgn_query_free(q);
    return ok;
}

/* Point queries on the main line (read after the move), then others (read as before). */
static const char *const after_exprs[] = {
    "pattern \"*/*/*/*/3pP3/*/*/*\"",
    "at (Pd4 and Pe5)",
    "Pd4 then Pd5",
    "persist 3 Pd5",
    "material \"KRPkr\" then material \"KRkr\"",
    "opening \"e4 c5 Nf3 d6 d4\"",
    "fen \"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"",
    "check next mate",
    "at (Pd4 and Pe5) and ends = checkmate",
    "white ~ \"^K\" and at (Pc4 and Nc3)",
    "not at (Pe4 and pe5) and plies > 40",
    "flip pattern \"?????rk?/?????ppp/*/*/*/*/*/*\"",
    "count(Q) = 0 and count(q) = 0 and imbalance \"vP\"",
    "stalemate or fifty",
};
static const char *const before_exprs[] = {
    "capture then Pd4",    "move e4 next move e5", "in variations (Pd4 and ne5)",
    "has comment and Pd4", "repetition",           "ends = checkmate",
};

static void compare(const char *what, const char *pgn, size_t len) {
    size_t na = sizeof after_exprs / sizeof after_exprs[0];
    size_t nb = sizeof before_exprs / sizeof before_exprs[0];
    for (size_t i = 0; i < na + nb; i++) {
        const char *e = i < na ? after_exprs[i] : before_exprs[i - na];
        seen a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        uint32_t fa, fb;
        if (run(e, pgn, len, 1, &a, &fa) && run(e, pgn, len, 0, &b, &fb)) {
            CHECK_EQ_INT((fa & PGN_READ_MOVE_AFTER) != 0, i < na);
            CHECK_EQ_INT((fa & PGN_READ_MOVE_GATE) != 0, i < na);
            CHECK_EQ_INT(fa & ~(PGN_READ_MOVE_AFTER | PGN_READ_MOVE_GATE), fb);
            CHECK_EQ_U64(a.text.len, b.text.len);
            CHECK(a.text.len == b.text.len && memcmp(a.text.p, b.text.p, a.text.len) == 0);
            CHECK(a.games > 0);
            printf("%s: '%s': %lu of %lu games\n", what, e, a.matched, a.games);
        }
        buf_free(&a.text);
        buf_free(&b.text);
    }
}

/* A game decided at a point followed by an illegal move, and one further on: the move after the
 * deciding point is resolved (its error reported) either way, the later one is not. */
static void test_error_after_decision(void) {
    static const char pgn[] = "[Event \"a\"]\n\n1. d4 e5 2. e3 Qxh2 3. Nf3 Ke2 *\n\n"
                              "[Event \"b\"]\n\n1. d4 e5 2. Qd8 Nf6 3. Ke2 *\n";
    const char *expr = "at (Pd4 and pe5)"; /* decided after 1... e5 */
    seen a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    uint32_t fa, fb;
    if (run(expr, pgn, sizeof pgn - 1, 1, &a, &fa) && run(expr, pgn, sizeof pgn - 1, 0, &b, &fb)) {
        CHECK(fa & PGN_READ_MOVE_AFTER);
        buf_write(&a.text, "", 1);
        CHECK_EQ_STR(a.text.p, "game 1: 1 ply 2 plies 3\n"
                               "diag E_ILLEGAL_MOVE 7:13 game 2\n"
                               "game 2: 1 ply 2 plies 2\n");
        CHECK(b.text.len + 1 == a.text.len && memcmp(a.text.p, b.text.p, b.text.len) == 0);
    }
    buf_free(&a.text);
    buf_free(&b.text);
}

/* The reader under PGN_READ_MOVE_AFTER, with a visitor of its own. */
typedef struct trail {
    pgn_pos pos;
    unsigned long moves, wrong, last_ok;
} trail;

static pgn_flow t_end_tags(void *u, const pgn_pos *start) {
    trail *t = u;
    t->pos = *start;
    return PGN_FLOW_CONTINUE;
}
static pgn_flow t_move(void *u, const pgn_pos *after, pgn_move mv, pgn_str san, pgn_loc at) {
    trail *t = u;
    (void)san;
    (void)at;
    pgn_pos want = t->pos;
    pgn_pos_play(&want, mv);
    t->wrong += memcmp(want.board, after->board, 64) != 0 || want.side != after->side ||
                want.castle != after->castle || want.ep != after->ep ||
                want.halfmove != after->halfmove || want.fullmove != after->fullmove;
    t->pos = *after;
    t->moves++;
    return PGN_FLOW_CONTINUE;
}
static pgn_flow t_begin_var(void *u) {
    (void)u;
    return PGN_FLOW_SKIP;
}
static pgn_flow t_end_game(void *u, pgn_result res, const pgn_game_summary *sum) {
    trail *t = u;
    (void)res;
    t->last_ok += sum->final_pos && memcmp(sum->final_pos->board, t->pos.board, 64) == 0 &&
                  sum->final_pos->side == t->pos.side;
    return PGN_FLOW_CONTINUE;
}

static void test_reader_after(const char *pgn, size_t len) {
    static const pgn_visitor v = {NULL, NULL,        t_end_tags, t_move,    NULL,
                                  NULL, t_begin_var, NULL,       t_end_game};
    for (int keys = 0; keys < 2; keys++) {
        trail t;
        memset(&t, 0, sizeof t);
        pgn_reader_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.flags = PGN_READ_MOVE_AFTER | (keys ? 0 : PGN_READ_NO_KEYS);
        pgn_reader *r;
        unsigned long games = 0;
        if (pgn_reader_new_mem(&r, &ro, pgn, len) != PGN_OK) {
            harness_fail(__FILE__, __LINE__, "out of memory");
            return;
        }
        while (pgn_reader_visit(r, &v, &t) == PGN_OK) {
            games++;
        }
        pgn_reader_free(r);
        CHECK(t.moves > 1000);
        CHECK_EQ_U64(t.wrong, 0);
        CHECK_EQ_U64(t.last_ok, games);
    }
}

/* The reader under PGN_READ_MOVE_GATE: a visitor whose gate opens and closes, and changes its
 * squares, as the moves come. Every move it gets is one the gate did not let pass (castling, a
 * move from or to one of its squares, the gate closed, or a pawn move or capture while pawns_open
 * is 0 or that changed the pawns on the watched squares), every move it does not get is counted in
 * passed, and the ply each position shows is the moves got and passed. With pawns (pawns_open set
 * at every call), the pawns on the watched squares at a call are those noted at the last call but
 * where the move got (not en passant) left or reached: no move that changed them was passed. */
typedef struct gated {
    pgn_move_gate gate; /* first: the reader's */
    int pawns;          /* pawns_open set */
    unsigned start2;    /* the start position's 2 * fullmove + side */
    unsigned long base; /* calls + passed at the game's start */
    unsigned long calls, passed, wrong, plies, loud;
} gated;

/* The pawns of colour c on pos. */
static uint64_t pawns_of(const pgn_pos *pos, int c) {
    return pos->by_type[PGN_PAWN] & pos->by_color[c];
}

/* Watched squares of the d and e files for White, the c and d files for Black; the pawns noted. */
static void g_note(gated *g, const pgn_pos *pos) {
    g->gate.pawns_open = (uint32_t)g->pawns;
    g->gate.watch[0] = UINT64_C(0x1818181818181818);
    g->gate.watch[1] = UINT64_C(0x0c0c0c0c0c0c0c0c);
    g->gate.pawns[0] = pawns_of(pos, PGN_WHITE);
    g->gate.pawns[1] = pawns_of(pos, PGN_BLACK);
}

/* The watched pawns of pos that differ from those noted, but on the squares in sq. */
static uint64_t g_changed(const gated *g, const pgn_pos *pos, uint64_t sq) {
    uint64_t d = ((pawns_of(pos, PGN_WHITE) ^ g->gate.pawns[0]) & g->gate.watch[0]) |
                 ((pawns_of(pos, PGN_BLACK) ^ g->gate.pawns[1]) & g->gate.watch[1]);
    return d & ~sq;
}

static pgn_flow g_end_tags(void *u, const pgn_pos *start) {
    gated *g = u;
    g->start2 = 2u * start->fullmove + start->side;
    g->base = g->calls + g->passed;
    g->gate.open = 1;
    g->gate.squares = UINT64_C(1) << PGN_SQ(3, 3); /* d4 */
    g_note(g, start);
    return PGN_FLOW_CONTINUE;
}
static pgn_flow g_move(void *u, const pgn_pos *after, pgn_move mv, pgn_str san, pgn_loc at) {
    gated *g = u;
    (void)san;
    (void)at;
    uint64_t sq = (UINT64_C(1) << PGN_MOVE_FROM(mv)) | (UINT64_C(1) << PGN_MOVE_TO(mv));
    int pawns_same = g->gate.pawns_open && !g_changed(g, after, 0);
    int passable = (after->halfmove != 0 || pawns_same) &&
                   PGN_MOVE_KIND(mv) < PGN_MOVE_EN_PASSANT && mv != PGN_MOVE_NULL &&
                   !(g->gate.squares & sq);
    if (g->gate.pawns_open && PGN_MOVE_KIND(mv) != PGN_MOVE_EN_PASSANT) {
        g->wrong += g_changed(g, after, sq) != 0; /* a move that changed them was passed */
    }
    g->loud += g->gate.open && passable; /* the reader may still call (another path read it) */
    g->wrong += !g->gate.open && g->gate.passed; /* closed: the next move comes */
    g->passed += g->gate.passed;
    g->calls++;
    g->wrong += 2u * after->fullmove + after->side - g->start2 != g->calls + g->passed - g->base;
    g->gate.passed = 0;
    g->gate.open = (g->calls % 7) != 0; /* closed now and then: the next move comes */
    g->gate.squares ^= UINT64_C(1) << PGN_MOVE_TO(mv);
    g_note(g, after);
    return PGN_FLOW_CONTINUE;
}
static pgn_flow g_end_game(void *u, pgn_result res, const pgn_game_summary *sum) {
    gated *g = u;
    (void)res;
    g->passed += g->gate.passed;
    g->gate.passed = 0;
    g->plies += sum->plies;
    return PGN_FLOW_CONTINUE;
}

/* The moves the visitor got (pawns: with pawns_open). */
static unsigned long reader_gate(const char *pgn, size_t len, int pawns) {
    static const pgn_visitor v = {NULL, NULL,        g_end_tags, g_move,    NULL,
                                  NULL, t_begin_var, NULL,       g_end_game};
    gated g;
    memset(&g, 0, sizeof g);
    g.pawns = pawns;
    pgn_reader_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = PGN_READ_MOVE_AFTER | PGN_READ_MOVE_GATE | PGN_READ_NO_KEYS;
    pgn_reader *r;
    if (pgn_reader_new_mem(&r, &ro, pgn, len) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        return 0;
    }
    while (pgn_reader_visit(r, &v, &g) == PGN_OK) {
    }
    pgn_reader_free(r);
    CHECK(g.calls > 1000);
    CHECK(g.passed > 1000); /* the gate let moves pass */
    CHECK_EQ_U64(g.wrong, 0);
    CHECK_EQ_U64(g.calls + g.passed, g.plies);
    CHECK(g.loud * 100 <= g.calls); /* the fast path reads nearly all: few get past the gate */
    printf("gate%s: %lu moves got, %lu passed, %lu got that could pass\n", pawns ? " (pawns)" : "",
           g.calls, g.passed, g.loud);
    return g.calls;
}

/* The gate with and without its pawn rule: with it, pawn moves and captures pass too. */
static void test_reader_gate(const char *pgn, size_t len) {
    unsigned long without = reader_gate(pgn, len, 0), with = reader_gate(pgn, len, 1);
    CHECK(with < without - without / 10);
}

int main(void) {
    buf b = {0}, edge = {0};
    if (buf_load_shared("corpus/big/twic/twic1427.pgn.gz", &b)) {
        compare("twic1427", b.p, slice_games(b.p, b.len, 3000));
        test_reader_after(b.p, slice_games(b.p, b.len, 1000));
        test_reader_gate(b.p, slice_games(b.p, b.len, 1000));
    }
    buf_free(&b);
    if (buf_load_shared("corpus/big/gnuchess-book_1.02.pgn.gz", &b)) {
        compare("gnuchess book, 4000 games", b.p, slice_games(b.p, b.len, 4000));
    }
    buf_free(&b);
    static const char *const dirs[] = {"corpus/edge/malformed",  "corpus/edge/annotated",
                                       "corpus/edge/long-games", "corpus/edge/misc-real",
                                       "corpus/edge/setup-fen",  "corpus/edge/null-moves"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", harness_shared(dirs[i]));
        DIR *d = opendir(path);
        CHECK(d != NULL);
        for (struct dirent *de; d && (de = readdir(d)) != NULL;) {
            char file[8192];
            size_t n = strlen(de->d_name);
            if (n > 4 && strcmp(de->d_name + n - 4, ".pgn") == 0) {
                snprintf(file, sizeof file, "%s/%s", path, de->d_name);
                buf_free(&b); /* (buf_read_path empties b without freeing it) */
                CHECK(buf_read_path(file, &b));
                buf_write(&edge, b.p, b.len);
                buf_write(&edge, "\n", 1);
            }
        }
        if (d) {
            closedir(d);
        }
    }
    buf_free(&b);
    CHECK(edge.len > 100000);
    compare("corpus/edge", edge.p, edge.len);
    buf_free(&edge);
    test_error_after_decision();
    return harness_finish();
}
