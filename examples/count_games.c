/* SPDX-License-Identifier: MIT */
/* Counts the games of a file on two threads with libpgnkit's source layer
 * (include/pgnkit/source.h): the file may be plain PGN, gzip, zstd, bzip2 or xz, or an archive
 * (zip, tar, 7z, RAR) whose
 * *.pgn members are all read. Build it against the installed library:
 *
 *     cc -std=c17 -o count_games count_games.c $(pkg-config --cflags --libs pgnkit)
 *     ./count_games games.pgn.zst
 *
 * It prints "N games" (and each diagnostic's line as a compiler would, on stderr); exit status 1
 * when the file cannot be read. docs/source.md explains the calls. */
#include <pgnkit.h>
#include <stdio.h>

static void show(void *ctx, const pgn_diag *d) {
    (void)ctx;
    fprintf(stderr, "%s:%u:%u: %s\n", d->source ? d->source : "?", d->at.line, d->at.column,
            pgn_status_name(d->code));
}

int main(int argc, char **argv) {
    char msg[300];
    pgn_source *src;
    if (argc != 2) {
        fprintf(stderr, "usage: count_games FILE\n");
        return 2;
    }
    if (pgn_source_open_path(&src, argv[1], NULL, msg, sizeof msg) != PGN_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], msg);
        return 1;
    }
    uint64_t games = 0;
    pgn_status st;
    do { /* each member of an archive in turn; a plain or compressed file is one */
        pgn_parallel_opts o = {0};
        pgn_parallel_totals t;
        o.threads = 2;
        o.reader.flags = PGN_READ_NO_BOARD; /* counting needs no moves played */
        o.reader.source_name = pgn_source_name(src);
        o.reader.on_diag = show;
        st = pgn_parallel_read(src, &o, &t);
        games += t.games;
        if (st != PGN_END) {
            fprintf(stderr, "%s: %s\n", pgn_source_name(src),
                    pgn_source_error(src) ? pgn_source_error(src) : pgn_status_message(st));
            pgn_source_free(src);
            return 1;
        }
    } while ((st = pgn_source_next(src)) == PGN_OK);
    if (st != PGN_END) {
        fprintf(stderr, "%s: %s\n", argv[1], pgn_source_error(src));
        pgn_source_free(src);
        return 1;
    }
    printf("%llu games\n", (unsigned long long)games);
    pgn_source_free(src);
    return 0;
}
