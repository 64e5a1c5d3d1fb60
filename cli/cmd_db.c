/* SPDX-License-Identifier: MIT */
/* pgnkit db SUBCOMMAND (issue 30): the game database. import, export, stats and check here;
 * explore and games in cmd_db_explore.c, select in cmd_db_select.c. */
#define _POSIX_C_SOURCE 200809L
#include "db.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage_text[] =
    "usage: pgnkit db import [--db FILE] [-j N] [--batch N] [--keep-duplicates] [--quiet]\n"
    "                        GAMES...\n"
    "       pgnkit db explore [--db FILE] [--json] [FEN | MOVES... | -]\n"
    "       pgnkit db games [--db FILE] [--count | --ids] [FEN | MOVES...]\n"
    "       pgnkit db select [--db FILE] [--count | --json] [--limit N] EXPR\n"
    "       pgnkit db export [--db FILE]\n"
    "       pgnkit db stats [--db FILE]\n"
    "       pgnkit db check [--db FILE]\n"
    "A game database in one SQLite file (docs/database.md; default games.db): import once,\n"
    "then ask.\n"
    "  import    stores each game of the files (any input pgnkit reads: compressed, archives,\n"
    "            - for stdin) with its original bytes, its positions and its moves; the same\n"
    "            game twice (dedupe --by moves+tags) is skipped and counted. One transaction\n"
    "            per batch of games: an import stopped keeps the batches committed.\n"
    "  explore   the moves played from a position (a FEN, or moves from the start; - reads\n"
    "            one position a line from stdin, one answer line each), with their games and\n"
    "            results (white wins, draws, black wins), average Elo of the mover, last date\n"
    "  games     the games whose main line reaches the position: their bytes, --count or --ids\n"
    "  select    the games that match EXPR (pgnkit select's language), from the database\n"
    "  export    every stored game, byte for byte as it was imported, in import order\n"
    "  stats     what the database holds; check: SQLite's integrity check\n";

typedef struct import_ctx {
    int quiet;
    double t0;
    const char *name;
} import_ctx;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress(void *user, uint64_t games, uint64_t consumed) {
    const import_ctx *c = user;
    if (!c->quiet) {
        fprintf(stderr, "pgnkit db import: %s: %llu games, %.1f MB read, %.1f s\n", c->name,
                (unsigned long long)games, (double)consumed / 1e6, now() - c->t0);
    }
}

typedef struct import_args {
    unsigned threads, batch;
    int keep, quiet;
} import_args;

static int db_import(const char *path, int argc, char **argv, const import_args *a) {
    pgn_db *db;
    int st = cli_db_open(&db, path, PGN_DB_CREATE, "import");
    if (st != EXIT_OK) {
        return st;
    }
    pgn_db_import_totals all = {0, 0, 0, 0, 0};
    double t0 = now();
    for (int i = 0; i < argc && st == EXIT_OK; i++) {
        cli_input in;
        char msg[512];
        int more = 0;
        if (cli_input_open(&in, argv[i], 0) != EXIT_OK) { /* said why */
            st = EXIT_RESOURCE;
            break;
        }
        do {
            import_ctx c = {a->quiet, t0, in.name};
            pgn_db_import_opts o = {a->threads, a->batch, a->keep, progress, &c};
            pgn_db_import_totals t;
            pgn_status s = pgn_db_import(db, in.src, &o, &t, msg, sizeof msg);
            all.games += t.games;
            all.stored += t.stored;
            all.duplicates += t.duplicates;
            all.broken += t.broken;
            all.positions += t.positions;
            if (s != PGN_OK) {
                cli_error(NULL, "error: db import: %s: %s", in.name, msg);
                st = EXIT_RESOURCE;
            }
        } while (st == EXIT_OK && (more = cli_input_next(&in)) == 1);
        if (more < 0) { /* a damaged archive after its good members: said by cli_input_next */
            st = EXIT_RESOURCE;
        }
        cli_input_close(&in);
    }
    pgn_db_close(db);
    double dt = now() - t0;
    fprintf(stderr,
            "pgnkit db import: %llu games read, %llu stored (%llu broken), %llu duplicates "
            "skipped, %llu positions indexed, %.2f s (%.0f games/s)\n",
            (unsigned long long)all.games, (unsigned long long)all.stored,
            (unsigned long long)all.broken, (unsigned long long)all.duplicates,
            (unsigned long long)all.positions, dt, dt > 0 ? (double)all.games / dt : 0.0);
    return st != EXIT_OK ? st : all.broken ? EXIT_INPUT : EXIT_OK;
}

/* *out <- the decimal count s, 1..max; 0 when it is not one. */
/* A count option's value through the CLI's one number parser (issue 33 point 2). */
static int count_arg(const char *s, uint64_t max, unsigned *out) {
    uint64_t v = 0;
    if (!cli_parse_u64(s, 1, max, &v)) {
        return 0;
    }
    *out = (unsigned)v;
    return 1;
}

static int write_raw(void *user, int64_t id, pgn_str raw) {
    (void)user;
    (void)id;
    return fwrite(raw.ptr, 1, raw.len, stdout) != raw.len;
}

static int db_simple(const char *path, const char *sub) {
    pgn_db *db;
    int st = cli_db_open(&db, path, PGN_DB_READONLY, sub);
    if (st != EXIT_OK) {
        return st;
    }
    char msg[512];
    pgn_status s = PGN_OK;
    if (strcmp(sub, "export") == 0) {
        s = pgn_db_games(db, 1, write_raw, NULL, msg, sizeof msg);
        if (fflush(stdout) != 0 && s == PGN_OK) {
            snprintf(msg, sizeof msg, "cannot write the output");
            s = PGN_E_IO;
        }
    } else if (strcmp(sub, "check") == 0) {
        if ((s = pgn_db_check(db, msg, sizeof msg)) == PGN_OK) {
            printf("%s: ok\n", path);
        }
    } else {
        pgn_db_stats t;
        if ((s = pgn_db_get_stats(db, &t, msg, sizeof msg)) == PGN_OK) {
            printf("schema %d\ngames %llu\nbroken %llu\nwhite wins %llu\ndraws %llu\n"
                   "black wins %llu\nexplorer rows about %llu\npositions about %llu\nposition "
                   "index bytes "
                   "%llu\n",
                   t.schema, (unsigned long long)t.games, (unsigned long long)t.broken,
                   (unsigned long long)t.white, (unsigned long long)t.draws,
                   (unsigned long long)t.black, (unsigned long long)t.explorer_rows,
                   (unsigned long long)t.position_keys, (unsigned long long)t.position_bytes);
        }
    }
    pgn_db_close(db);
    if (s != PGN_OK) {
        cli_error(NULL, "error: db %s: %s: %s", sub, path, msg);
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}

int cmd_db(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    const char *sub = argv[1];
    int (*const own[])(int, char **) = {cli_db_explore, cli_db_games, cli_db_select};
    static const char *const own_names[] = {"explore", "games", "select"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        if (strcmp(sub, own_names[i]) == 0) {
            return own[i](argc - 1, argv + 1);
        }
    }
    static const struct option opts[] = {{"db", required_argument, NULL, 'd'},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"batch", required_argument, NULL, 'b'},
                                         {"keep-duplicates", no_argument, NULL, 'k'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *path = "games.db";
    import_args a = {0, 0, 0, 0};
    int c;
    optind = 1;
    while ((c = getopt_long(argc - 1, argv + 1, "j:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'd': path = optarg; break;
        case 'j':
            if (!count_arg(optarg, 256, &a.threads)) {
                return cli_usage_error("db", usage_text, "-j takes 1 to 256");
            }
            break;
        case 'b':
            if (!count_arg(optarg, 10000000, &a.batch)) {
                return cli_usage_error("db", usage_text, "--batch takes 1 to 10000000");
            }
            break;
        case 'k': a.keep = 1; break;
        case 'q': a.quiet = 1; break;
        case 'h': fputs(usage_text, stdout); return EXIT_OK;
        default: return cli_usage_error("db", usage_text, NULL);
        }
    }
    int rest = argc - 1 - optind;
    char **args = argv + 1 + optind;
    if (strcmp(sub, "import") == 0) {
        if (rest < 1) {
            return cli_usage_error("db", usage_text, "db import needs the files to import");
        }
        return db_import(path, rest, args, &a);
    }
    if (strcmp(sub, "export") == 0 || strcmp(sub, "stats") == 0 || strcmp(sub, "check") == 0) {
        if (rest > 0) {
            return cli_usage_error("db", usage_text, "too many arguments");
        }
        return db_simple(path, sub);
    }
    return cli_usage_error("db", usage_text, "unknown db subcommand");
}
