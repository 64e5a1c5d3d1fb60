/* SPDX-License-Identifier: MIT */
/* Clock and eval commands on real files (issue 4, "Clock/eval parsing on the lichess and TCEC
 * files"), against an outside truth: tests/data/annot-python-chess.tsv holds what python-chess
 * reads from the same files (node.clock(), node.eval() of every main-line node; made once by
 * tests/tools/annot_oracle.py). For each file of the table pgnkit's rows must be the same:
 * games and main-line plies, then every clock and eval in order.
 * - Games pgnkit reads: the tree (pgn_reader_next) and the node getters pgn_node_clock and
 *   pgn_node_eval (include/pgnkit/annot.h).
 * - Games of a variant pgnkit refuses (the lichess crazyhouse games, E_UNSUPPORTED_VARIANT): the
 *   reader skips their movetext, comments included (checked below), so the test takes the game's
 *   raw bytes, blanks its Variant tag, and reads the movetext with the visitor under
 *   PGN_READ_NO_BOARD (moves are only text, so drops such as N@f7 do not matter), parsing each
 *   main-line comment with pgn_cmd_find.
 * - TCEC engine comments ({d=34, sd=50, mt=..., wv=...}) must stay plain text: no command and no
 *   W_BAD_COMMAND in the whole file. */
#include "harness.h"
#include "testutil.h"

#include <pgnkit.h>

#include <stdlib.h>

#define ORACLE "tests/data/annot-python-chess.tsv"

typedef struct counts {
    unsigned long bad_commands, variant_refused;
} counts;

static void on_diag(void *ctx, const pgn_diag *d) {
    counts *c = ctx;
    c->bad_commands += d->code == PGN_W_BAD_COMMAND;
    c->variant_refused += d->code == PGN_E_UNSUPPORTED_VARIANT;
}

static void eval_row(buf *out, const char *rel, uint64_t game, size_t ply, const pgn_eval *e) {
    buf_printf(out, "%s\t%llu\t%zu\teval\t%s\t%ld\t%ld\n", rel, (unsigned long long)game, ply,
               e->kind == PGN_EVAL_MATE ? "mate" : "cp", (long)e->value, (long)e->depth);
}

/* ---- a refused game's movetext through the visitor ---- */

typedef struct zh_state {
    const char *rel;
    uint64_t game;
    size_t depth, ply, clk_ply, eval_ply;
    unsigned long comments;
    buf *rows;
} zh_state;

static pgn_flow zh_move(void *user, const pgn_pos *before, pgn_move mv, pgn_str san, pgn_loc at) {
    zh_state *z = user;
    (void)before, (void)mv, (void)san, (void)at;
    z->ply += z->depth == 0;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow zh_comment(void *user, pgn_str text) {
    zh_state *z = user;
    pgn_cmd c;
    z->comments++;
    if (z->depth != 0 || z->ply == 0) {
        return PGN_FLOW_CONTINUE; /* python-chess: a variation's, or the game's comment */
    }
    /* a move's comments count as one text (python-chess joins them): its first clock and eval */
    if (z->clk_ply != z->ply && pgn_cmd_find(text, PGN_CMD_CLK, &c)) {
        z->clk_ply = z->ply;
        buf_printf(z->rows, "%s\t%llu\t%zu\tclk\t%lld\n", z->rel, (unsigned long long)z->game,
                   z->ply, (long long)c.ms);
    }
    if (z->eval_ply != z->ply && pgn_cmd_find(text, PGN_CMD_EVAL, &c)) {
        z->eval_ply = z->ply;
        eval_row(z->rows, z->rel, z->game, z->ply, &c.eval);
    }
    return PGN_FLOW_CONTINUE;
}

static pgn_flow zh_begin(void *user) {
    ((zh_state *)user)->depth++;
    return PGN_FLOW_CONTINUE;
}

static pgn_flow zh_end(void *user) {
    ((zh_state *)user)->depth--;
    return PGN_FLOW_CONTINUE;
}

static const pgn_visitor zh_visitor = {NULL, NULL,     NULL,   zh_move, zh_comment,
                                       NULL, zh_begin, zh_end, NULL};

/* Reads one game's bytes with the visitor; returns its main-line plies. */
static size_t zh_visit(const char *raw, size_t len, uint32_t flags, zh_state *z) {
    pgn_reader *r;
    pgn_reader_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    z->depth = z->ply = z->clk_ply = z->eval_ply = 0;
    z->comments = 0;
    if (pgn_reader_new_mem(&r, &o, raw, len) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        return 0;
    }
    CHECK_EQ_INT(pgn_reader_visit(r, &zh_visitor, z), PGN_OK);
    pgn_reader_free(r);
    return z->ply;
}

/* A refused game (raw bytes): its clocks and evals with the Variant tag blanked. */
static size_t refused_game(const char *rel, uint64_t game, pgn_str raw, buf *rows) {
    zh_state z;
    buf copy = {NULL, 0, 0};
    memset(&z, 0, sizeof z);
    z.rel = rel;
    z.game = game;
    z.rows = rows;
    buf_put(&copy, raw.ptr, raw.len);
    /* as read: the movetext is skipped, comments too (so the reader alone cannot show them) */
    buf scratch = {NULL, 0, 0};
    z.rows = &scratch;
    CHECK_EQ_INT(zh_visit(copy.p, copy.len, 0, &z), 0);
    CHECK_EQ_INT(z.comments, 0);
    buf_free(&scratch);
    z.rows = rows;
    char *v = strstr(copy.p, "[Variant ");
    CHECK(v != NULL);
    for (; v != NULL && *v != '\n' && *v != 0; v++) {
        *v = ' ';
    }
    size_t plies = zh_visit(copy.p, copy.len, PGN_READ_NO_BOARD, &z);
    CHECK(z.comments > 0);
    buf_free(&copy);
    return plies;
}

/* ---- pgnkit's rows for one file ---- */

static void pgnkit_rows(const char *rel, const buf *text, buf *out, counts *c) {
    pgn_reader *r;
    pgn_game *g;
    pgn_reader_opts o;
    buf rows = {NULL, 0, 0};
    uint64_t games = 0;
    size_t plies = 0;
    memset(&o, 0, sizeof o);
    o.flags = PGN_READ_KEEP_RAW;
    o.on_diag = on_diag;
    o.diag_ctx = c;
    buf_put(&rows, "", 0);
    if (pgn_reader_new_mem(&r, &o, text->p, text->len) != PGN_OK ||
        pgn_game_new(&g, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        return;
    }
    pgn_status st;
    unsigned long refused = 0;
    for (; (st = pgn_reader_next(r, g)) == PGN_OK; refused = c->variant_refused) {
        games++;
        if (pgn_reader_summary(r)->broken && c->variant_refused > refused) {
            plies += refused_game(rel, games, pgn_reader_raw(r), &rows);
            continue;
        }
        CHECK(!pgn_reader_summary(r)->broken);
        size_t ply = 0;
        for (const pgn_node *n = pgn_node_child(pgn_game_root(g)); n; n = pgn_node_child(n)) {
            int64_t ms;
            pgn_eval e;
            ply++;
            if (pgn_node_clock(n, &ms)) {
                buf_printf(&rows, "%s\t%llu\t%zu\tclk\t%lld\n", rel, (unsigned long long)games, ply,
                           (long long)ms);
            }
            if (pgn_node_eval(n, &e)) {
                eval_row(&rows, rel, games, ply, &e);
            }
        }
        plies += ply;
    }
    CHECK_EQ_INT(st, PGN_END);
    buf_printf(out, "%s\tgames\t%llu\t%zu\n%s", rel, (unsigned long long)games, plies, rows.p);
    buf_free(&rows);
    pgn_game_free(g);
    pgn_reader_free(r);
}

/* TCEC: comments are there, with their fields, and none holds a command. */
static void tcec_text_only(const char *rel, const buf *text) {
    pgn_reader *r;
    pgn_game *g;
    unsigned long with_fields = 0, commands = 0;
    if (pgn_reader_new_mem(&r, NULL, text->p, text->len) != PGN_OK ||
        pgn_game_new(&g, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        return;
    }
    while (pgn_reader_next(r, g) == PGN_OK) {
        for (const pgn_node *n = pgn_node_child(pgn_game_root(g)); n; n = pgn_node_child(n)) {
            pgn_str cm = pgn_node_comment(n);
            pgn_cmd_iter it;
            pgn_cmd c;
            char tmp[4096];
            size_t k = cm.len < sizeof tmp - 1 ? cm.len : sizeof tmp - 1;
            memcpy(tmp, cm.ptr, k);
            tmp[k] = 0;
            with_fields += strstr(tmp, "d=") && strstr(tmp, "mt=") && strstr(tmp, "wv=");
            pgn_cmd_iter_init(&it, cm);
            while (pgn_cmd_next(&it, &c)) {
                commands += c.kind != PGN_CMD_TEXT;
            }
        }
    }
    printf("%s: %lu main-line comments with d=, mt=, wv=; %lu commands\n", rel, with_fields,
           commands);
    CHECK(with_fields > 1000); /* nearly every one of the 1620 moves */
    CHECK_EQ_INT(commands, 0);
    pgn_game_free(g);
    pgn_reader_free(r);
}

/* One file of the table: pgnkit's rows must be want (python-chess's). */
static void check_file(const char *rel, const char *want) {
    buf text = {NULL, 0, 0}, got = {NULL, 0, 0};
    counts c = {0, 0};
    char path[600];
    snprintf(path, sizeof path, "corpus/%s", rel);
    if (!buf_load_shared(path, &text)) {
        return;
    }
    pgnkit_rows(rel, &text, &got, &c);
    CHECK_EQ_INT(c.bad_commands, 0);
    if (strstr(rel, "/tcec/") != NULL) {
        tcec_text_only(rel, &text);
    }
    buf_put(&got, "", 0);
    if (strcmp(want, got.p) != 0) {
        harness_fail(__FILE__, __LINE__, "%s differs:\n-- python-chess\n%s-- pgnkit\n%s", rel, want,
                     got.p);
    } else {
        harness_counts.passed++;
    }
    buf_free(&text);
    buf_free(&got);
}

int main(void) {
    buf oracle = {NULL, 0, 0}, want = {NULL, 0, 0};
    if (!buf_read_path(ORACLE, &oracle)) {
        harness_fail(__FILE__, __LINE__, "cannot read %s", ORACLE);
        return harness_finish();
    }
    /* the table's rows, file by file: each file starts with its "games" row */
    char rel[512] = "";
    unsigned files = 0;
    unsigned long clocks = 0, evals = 0;
    buf_put(&want, "", 0);
    for (char *line = oracle.p, *next; line != NULL; line = next) {
        next = strchr(line, '\n');
        if (next) {
            *next++ = 0;
        }
        char *tab = strchr(line, '\t');
        if (next == NULL || (tab != NULL && strncmp(tab, "\tgames\t", 7) == 0)) {
            if (rel[0]) {
                check_file(rel, want.p);
            }
            want.len = 0;
            buf_put(&want, "", 0);
            if (tab == NULL) {
                break;
            }
            snprintf(rel, sizeof rel, "%.*s", (int)(tab - line), line);
            files++;
        }
        if (line[0] == '#' || line[0] == 0) {
            continue;
        }
        clocks += strstr(line, "\tclk\t") != NULL;
        evals += strstr(line, "\teval\t") != NULL;
        buf_str(&want, line);
        buf_str(&want, "\n");
    }
    printf("%s: %u files, %lu clocks, %lu evals\n", ORACLE, files, clocks, evals);
    CHECK(files >= 6 && clocks >= 48 && evals >= 53);
    buf_free(&want);
    buf_free(&oracle);
    return harness_finish();
}
