/* SPDX-License-Identifier: MIT */
/* bench_read: times the PGN reader's tag-only scan (STYLE C12).
 *
 *   bench_read [-n RUNS] FILE.pgn
 *       Reads FILE through pgn_reader_new_file with a visitor that receives every tag pair and
 *       answers PGN_FLOW_SKIP at end_tags, so the movetext is only skipped, never resolved. One
 *       line per run: tags bytes=B games=G tags=T seconds=S mb_per_s=X games_per_s=Y
 *       and at the end: maxrss_kb=K (the process's peak resident set). */
#define _POSIX_C_SOURCE 200809L

#include <pgnkit.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct counts {
    unsigned long long games, tags, name_bytes;
} counts;

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    counts *c = user;
    c->tags++;
    c->name_bytes += name.len + value.len; /* touch the strings, as a real caller would */
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_end_tags(void *user, const pgn_pos *start) {
    (void)user;
    (void)start;
    return PGN_FLOW_SKIP;
}

static pgn_flow on_end_game(void *user, pgn_result result, const pgn_game_summary *summary) {
    (void)result;
    (void)summary;
    ((counts *)user)->games++;
    return PGN_FLOW_CONTINUE;
}

int main(int argc, char **argv) {
    int runs = 5;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else {
            path = argv[i];
        }
    }
    if (!path || runs < 1) {
        fprintf(stderr, "usage: bench_read [-n RUNS] FILE.pgn\n");
        return 2;
    }
    pgn_visitor v;
    memset(&v, 0, sizeof v);
    v.tag = on_tag;
    v.end_tags = on_end_tags;
    v.end_game = on_end_game;
    for (int run = 0; run < runs; run++) {
        FILE *f = fopen(path, "rb");
        if (!f) {
            perror(path);
            return 1;
        }
        pgn_reader_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.flags = PGN_READ_NO_BOARD;
        pgn_reader *r = NULL;
        if (pgn_reader_new_file(&r, &opts, f) != PGN_OK) {
            fprintf(stderr, "bench_read: out of memory\n");
            return 1;
        }
        counts c = {0, 0, 0};
        double t0 = now_seconds();
        pgn_status st;
        while ((st = pgn_reader_visit(r, &v, &c)) == PGN_OK) {
        }
        double t = now_seconds() - t0;
        long bytes = ftell(f);
        pgn_reader_free(r);
        fclose(f);
        if (st != PGN_END) {
            fprintf(stderr, "bench_read: %s\n", pgn_status_name(st));
            return 1;
        }
        printf("tags bytes=%ld games=%llu tags=%llu seconds=%.4f mb_per_s=%.1f games_per_s=%.0f\n",
               bytes, c.games, c.tags, t, (double)bytes / t / 1e6, (double)c.games / t);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("maxrss_kb=%ld\n", ru.ru_maxrss);
    return 0;
}
