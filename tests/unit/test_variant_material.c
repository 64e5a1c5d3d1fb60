/* SPDX-License-Identifier: MIT */
/* Insufficient material and the game's end in the lichess variants, against python-chess
 * (tests/data/variant-material-python-chess.tsv, made by tests/tools/variant_material_oracle.py
 * from python-chess's public source): at every position of the table, for both sides,
 * pgn_pos_insufficient_material_for must say what has_insufficient_material says, and
 * pgn_pos_outcome what outcome() says: the same winner (or a draw, or no end), and insufficient
 * material exactly where python-chess gives it (pgnkit names a position that is also stalemate
 * stalemate, python-chess insufficient material: both are draws). The positions come from random
 * play, random low material, and, for horde, shakmaty's sample of S. Papazis's horde test suite
 * (the table's header names the sources). Every variant must have rows; a missing table fails. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "pgnkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORACLE "tests/data/variant-material-python-chess.tsv"
#define MAX_FIELDS 7

typedef struct tally {
    unsigned long rows[PGN_VARIANT_COUNT];
    unsigned long insufficient[PGN_VARIANT_COUNT]; /* rows where a side is short */
} tally;

/* Splits line at tabs into at most MAX_FIELDS fields; returns their number. */
static size_t split_tabs(char *line, char **f) {
    size_t n = 0;
    f[n++] = line;
    for (char *s = line; *s && n < MAX_FIELDS; s++) {
        if (*s == '\t') {
            *s = '\0';
            f[n++] = s + 1;
        }
    }
    return n;
}

static int python_winner(const char *w) {
    return strcmp(w, "white") == 0 ? PGN_WHITE : strcmp(w, "black") == 0 ? PGN_BLACK : -1;
}

/* pgnkit's outcome against python-chess's termination and winner. */
static void check_outcome(const pgn_pos *p, const char *term, const char *win, const char *fen) {
    pgn_outcome o = pgn_pos_outcome(p, 1);
    if (o == PGN_OUTCOME_FIFTY_MOVES || o == PGN_OUTCOME_THREEFOLD_REPETITION) {
        o = PGN_OUTCOME_NONE; /* claimable only: outcome() without claim_draw does not end */
    }
    int ended = strcmp(term, "none") != 0;
    if ((o != PGN_OUTCOME_NONE) != ended) {
        harness_fail(__FILE__, __LINE__, "%s: pgnkit %s, python-chess %s", fen, pgn_outcome_name(o),
                     term);
        return;
    }
    harness_counts.passed++;
    CHECK_EQ_INT(pgn_outcome_winner(p, o), python_winner(win));
    int py_short = strcmp(term, "insufficient_material") == 0;
    if (o == PGN_OUTCOME_INSUFFICIENT_MATERIAL ? !py_short
                                               : py_short && o != PGN_OUTCOME_STALEMATE) {
        harness_fail(__FILE__, __LINE__, "%s: pgnkit %s, python-chess %s", fen, pgn_outcome_name(o),
                     term);
    }
}

static void check_row(char **f, tally *t) {
    pgn_variant v;
    int c960 = 0;
    if (!pgn_variant_from_name(f[0], strlen(f[0]), &v, &c960) || v == PGN_VARIANT_STANDARD) {
        harness_fail(__FILE__, __LINE__, "unknown variant %s", f[0]);
        return;
    }
    pgn_pos p;
    pgn_fen_diag d;
    if (pgn_fen_parse_variant(&p, v, f[1], strlen(f[1]), 0, &d) != PGN_OK) {
        harness_fail(__FILE__, __LINE__, "%s %s: FEN refused: %s", f[0], f[1], d.reason);
        return;
    }
    int w = pgn_pos_insufficient_material_for(&p, PGN_WHITE);
    int b = pgn_pos_insufficient_material_for(&p, PGN_BLACK);
    if (w != atoi(f[2]) || b != atoi(f[3])) {
        harness_fail(__FILE__, __LINE__, "%s %s (%s): insufficient W%d B%d, python-chess W%s B%s",
                     f[0], f[1], f[6], w, b, f[2], f[3]);
    } else {
        harness_counts.passed++;
    }
    CHECK_EQ_INT(pgn_pos_is_insufficient_material(&p), w && b);
    check_outcome(&p, f[4], f[5], f[1]);
    t->rows[v]++;
    t->insufficient[v] += w || b;
}

int main(void) {
    FILE *in = fopen(ORACLE, "r");
    if (in == NULL) {
        harness_fail(__FILE__, __LINE__, "cannot open %s (run from the repository root)", ORACLE);
        return harness_finish();
    }
    tally t;
    memset(&t, 0, sizeof t);
    char line[1024];
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *f[MAX_FIELDS];
        if (line[0] == '#' || line[0] == '\0') {
            continue;
        }
        if (split_tabs(line, f) != MAX_FIELDS) {
            harness_fail(__FILE__, __LINE__, "bad row in %s: %s", ORACLE, line);
            continue;
        }
        check_row(f, &t);
    }
    fclose(in);
    for (unsigned v = PGN_VARIANT_STANDARD + 1; v < PGN_VARIANT_COUNT; v++) {
        printf("INFO %s: %lu positions, %lu with a side short of material\n",
               pgn_variant_uci_name((pgn_variant)v), t.rows[v], t.insufficient[v]);
        CHECK(t.rows[v] >= 100);
    }
    return harness_finish();
}
