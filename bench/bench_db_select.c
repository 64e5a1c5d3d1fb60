/* SPDX-License-Identifier: MIT */
/* bench_db_select: pgn_db_select in one process, many queries (issue 30), the figure a program
 * or the Python package meets once the database is open; bench/bench_db.sh prints it beside the
 * per-process times of `pgnkit db select`.
 *
 *   bench_db_select [-n RUNS] DB EXPR
 *       Opens DB (read-only) and compiles EXPR once, then asks RUNS times (default 200) for the
 *       count (pgn_db_select_count) and RUNS times for the games (pgn_db_select, each hit's bytes
 *       given to a callback that adds their length). One line:
 *       games=G bytes=B count_ms=X select_ms=Y   (process CPU time per query, in ms)
 *       and, once: open_ms=Z (pgn_db_open and the compile, then the first count). */
#define _POSIX_C_SOURCE 200809L

#include <pgnkit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int on_hit(void *user, const pgn_db_hit *hit) {
    *(unsigned long long *)user += hit->raw.len;
    return 0;
}

int main(int argc, char **argv) {
    long runs = 200;
    int a = 1;
    if (argc > 2 && strcmp(argv[1], "-n") == 0) {
        runs = strtol(argv[2], NULL, 10);
        a = 3;
    }
    if (argc - a != 2 || runs < 1) {
        fputs("usage: bench_db_select [-n RUNS] DB EXPR\n", stderr);
        return 2;
    }
    char msg[512];
    double t0 = now_ms();
    pgn_db *db = NULL;
    pgn_query *q = NULL;
    if (pgn_db_open(&db, argv[a], PGN_DB_READONLY, msg, sizeof msg) != PGN_OK) {
        fprintf(stderr, "bench_db_select: %s: %s\n", argv[a], msg);
        return 1;
    }
    if (pgn_query_compile(&q, argv[a + 1], strlen(argv[a + 1]), NULL, NULL) != PGN_OK) {
        fprintf(stderr, "bench_db_select: cannot compile %s\n", argv[a + 1]);
        pgn_db_close(db);
        return 1;
    }
    uint64_t n = 0, first = 0;
    int ok = pgn_db_select_count(db, q, &first, NULL, msg, sizeof msg) == PGN_OK;
    double t1 = now_ms();
    for (long i = 0; ok && i < runs; i++) {
        ok = pgn_db_select_count(db, q, &n, NULL, msg, sizeof msg) == PGN_OK && n == first;
    }
    double t2 = now_ms();
    unsigned long long bytes = 0;
    for (long i = 0; ok && i < runs; i++) {
        bytes = 0;
        ok = pgn_db_select(db, q, on_hit, &bytes, NULL, msg, sizeof msg) == PGN_OK;
    }
    double t3 = now_ms();
    pgn_query_free(q);
    pgn_db_close(db);
    if (!ok) {
        fprintf(stderr, "bench_db_select: a query failed: %s\n", msg);
        return 1;
    }
    printf("games=%llu bytes=%llu count_ms=%.4f select_ms=%.4f open_ms=%.3f\n",
           (unsigned long long)first, bytes, (t2 - t1) / (double)runs, (t3 - t2) / (double)runs,
           t1 - t0);
    return 0;
}
