/* SPDX-License-Identifier: MIT */
/* Clock and eval commands on real files (issue 4, "Clock/eval parsing on the lichess and TCEC
 * files"), against an outside truth: tests/data/annot-python-chess.tsv holds what python-chess
 * reads from the same files (node.clock(), node.eval() of every main-line node; made once by
 * tests/tools/annot_oracle.py). For each file of the table pgnkit's rows must be the same:
 * games and main-line plies, then every clock and eval in order.
 * - Every game is read whole, the lichess crazyhouse games too (their Variant tag selects the
 *   crazyhouse rules, docs/variants.md): the tree (pgn_reader_next) and the node getters
 *   pgn_node_clock and pgn_node_eval (include/pgnkit/annot.h).
 * - TCEC engine comments ({d=34, sd=50, mt=..., wv=...}) must stay plain text: no command and no
 *   W_BAD_COMMAND in the whole file. */
#include "harness.h"
#include "testutil.h"

#include <pgnkit.h>

#include <stdlib.h>

#define ORACLE "tests/data/annot-python-chess.tsv"

typedef struct counts {
    unsigned long bad_commands;
} counts;

static void on_diag(void *ctx, const pgn_diag *d) {
    counts *c = ctx;
    c->bad_commands += d->code == PGN_W_BAD_COMMAND;
}

static void eval_row(buf *out, const char *rel, uint64_t game, size_t ply, const pgn_eval *e) {
    buf_printf(out, "%s\t%llu\t%zu\teval\t%s\t%ld\t%ld\n", rel, (unsigned long long)game, ply,
               e->kind == PGN_EVAL_MATE ? "mate" : "cp", (long)e->value, (long)e->depth);
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
    o.on_diag = on_diag;
    o.diag_ctx = c;
    buf_put(&rows, "", 0);
    if (pgn_reader_new_mem(&r, &o, text->p, text->len) != PGN_OK ||
        pgn_game_new(&g, NULL) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "out of memory");
        return;
    }
    pgn_status st;
    while ((st = pgn_reader_next(r, g)) == PGN_OK) {
        games++;
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
    counts c = {0};
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
