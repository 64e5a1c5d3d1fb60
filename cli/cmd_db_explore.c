/* SPDX-License-Identifier: MIT */
/* pgnkit db explore and pgnkit db games (issue 30): the opening explorer and the games at a
 * position, answered from the database's index. */
#define _POSIX_C_SOURCE 200809L
#include "db.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char explore_usage[] =
    "usage: pgnkit db explore [--db FILE] [--json] [FEN | MOVES... | -]\n"
    "The moves played from the position (a FEN, or moves from the start; none: the start; -:\n"
    "one position a line from stdin), the most played first: games, white wins, draws, black\n"
    "wins, average Elo of the mover, last date. --json: one object a position.\n";
static const char games_usage[] =
    "usage: pgnkit db games [--db FILE] [--count | --ids] [FEN | MOVES...]\n"
    "The games whose main line reaches the position, as imported (--count: their number;\n"
    "--ids: their ids), in import order.\n";

typedef struct ex_out {
    const pgn_pos *pos;
    int json, table, first;
} ex_out;

static int print_move(void *user, const pgn_db_move *m) {
    ex_out *o = user;
    char san[PGN_SAN_MAX] = "?", uci[PGN_UCI_MAX] = "?";
    if (pgn_pos_is_legal(o->pos, m->move)) {
        pgn_san_write(o->pos, m->move, san);
        pgn_uci_write(o->pos, m->move, uci);
    }
    double elo = m->elo_games ? (double)m->elo_sum / (double)m->elo_games : 0.0;
    int64_t d = m->last_date;
    if (o->json) {
        printf("%s{\"san\":\"%s\",\"uci\":\"%s\",\"games\":%" PRIu64 ",\"white\":%" PRIu64
               ",\"draws\":%" PRIu64 ",\"black\":%" PRIu64 ",\"elo\":%.0f,\"last\":",
               o->first ? "" : ",", san, uci, m->games, m->white, m->draws, m->black, elo);
        if (d) {
            printf("\"%04d.%02d.%02d\"}", (int)(d / 10000), (int)(d / 100 % 100), (int)(d % 100));
        } else {
            printf("null}");
        }
    } else if (o->table) {
        printf("%-7s %-5s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %6.0f  ", san, uci,
               m->games, m->white, m->draws, m->black, elo);
        if (d) {
            printf("%04d.%02d.%02d\n", (int)(d / 10000), (int)(d / 100 % 100), (int)(d % 100));
        } else {
            printf("-\n");
        }
    } else {
        printf(" %s %" PRIu64 " %" PRIu64 "/%" PRIu64 "/%" PRIu64, san, m->games, m->white,
               m->draws, m->black);
    }
    o->first = 0;
    return 0;
}

/* Answers one position; EXIT_OK or EXIT_RESOURCE. */
static int explore_one(pgn_db *db, const pgn_pos *pos, int json, int table) {
    char fen[PGN_FEN_MAX], msg[512];
    pgn_fen_write(pos, 0, fen, sizeof fen);
    ex_out o = {pos, json, table, 1};
    uint64_t games;
    if (json) {
        printf("{\"fen\":\"%s\",\"moves\":[", fen);
    } else if (table) {
        printf("%-7s %-5s %8s %8s %8s %8s %6s  %s\n", "move", "uci", "games", "white", "draws",
               "black", "elo", "last");
    } else {
        printf("%s\t", fen);
    }
    pgn_status s = pgn_db_explore(db, pos, print_move, &o, &games, msg, sizeof msg);
    if (s != PGN_OK) {
        printf("\n");
        cli_error(NULL, "error: db explore: %s", msg);
        return EXIT_RESOURCE;
    }
    if (json) {
        printf("],\"games\":%" PRIu64 "}\n", games);
    } else if (table) {
        printf("%" PRIu64 " games\n", games);
    } else {
        printf("\t%" PRIu64 "\n", games);
    }
    return EXIT_OK;
}

/* Options common to explore and games: --db, --json, --count, --ids. */
static int parse(int argc, char **argv, const char *usage, const char *cmd, const char **path,
                 int *json, int *count, int *ids) {
    static const struct option opts[] = {
        {"db", required_argument, NULL, 'd'}, {"json", no_argument, NULL, 'J'},
        {"count", no_argument, NULL, 'c'},    {"ids", no_argument, NULL, 'i'},
        {"help", no_argument, NULL, 'h'},     {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': *path = optarg; break;
        case 'J': *json = 1; break;
        case 'c': *count = 1; break;
        case 'i': *ids = 1; break;
        case 'h': fputs(usage, stdout); return CLI_HELP;
        default: return cli_usage_error(cmd, usage, NULL);
        }
    }
    return EXIT_OK;
}

/* The position of argv[first..argc): one FEN, or moves; none: the start. */
static int args_position(pgn_pos *pos, int argc, char **argv, int first, const char *cmd) {
    char text[4096];
    size_t n = 0;
    text[0] = '\0';
    for (int i = first; i < argc; i++) {
        int k = snprintf(text + n, sizeof text - n, "%s%s", n ? " " : "", argv[i]);
        if (k < 0 || (size_t)k >= sizeof text - n) {
            cli_error(NULL, "error: db %s: the position is too long", cmd);
            return -1;
        }
        n += (size_t)k;
    }
    return cli_db_position(pos, text, cmd);
}

int cli_db_explore(int argc, char **argv) {
    const char *path = "games.db";
    int json = 0, count = 0, ids = 0;
    int st = parse(argc, argv, explore_usage, "db explore", &path, &json, &count, &ids);
    if (st != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    pgn_db *db;
    if ((st = cli_db_open(&db, path, PGN_DB_READONLY, "explore")) != EXIT_OK) {
        return st;
    }
    pgn_pos pos;
    if (optind == argc - 1 && strcmp(argv[optind], "-") == 0) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t len;
        while (st == EXIT_OK && (len = getline(&line, &cap, stdin)) >= 0) {
            while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) {
                line[--len] = '\0';
            }
            if (cli_db_position(&pos, line, "explore") != 0) {
                st = EXIT_INPUT;
                printf(json ? "{\"error\":\"not a position\"}\n" : "error\n");
                st = EXIT_OK; /* one answer line per position; the status says below */
                count++;
                continue;
            }
            st = explore_one(db, &pos, json, 0);
        }
        free(line);
        st = st == EXIT_OK && count ? EXIT_INPUT : st;
    } else if (args_position(&pos, argc, argv, optind, "explore") != 0) {
        st = EXIT_INPUT;
    } else {
        st = explore_one(db, &pos, json, !json);
    }
    pgn_db_close(db);
    if (fflush(stdout) != 0 && st == EXIT_OK) {
        cli_error(NULL, "error: db explore: cannot write the output");
        st = EXIT_RESOURCE;
    }
    return st;
}

typedef struct games_ctx {
    pgn_db *db;
    int count_only, ids;
    uint64_t n;
    int failed;
    char msg[512];
} games_ctx;

static int write_game(void *user, int64_t id, pgn_str raw) {
    (void)user;
    (void)id;
    return fwrite(raw.ptr, 1, raw.len, stdout) != raw.len;
}

static int each_id(void *user, int64_t id) {
    games_ctx *g = user;
    g->n++;
    if (g->ids) {
        printf("%" PRId64 "\n", id);
    } else if (!g->count_only) {
        if (pgn_db_game(g->db, id, write_game, NULL, g->msg, sizeof g->msg) != PGN_OK) {
            g->failed = 1;
            return 1;
        }
    }
    return 0;
}

int cli_db_games(int argc, char **argv) {
    const char *path = "games.db";
    int json = 0, count = 0, ids = 0;
    int st = parse(argc, argv, games_usage, "db games", &path, &json, &count, &ids);
    if (st != EXIT_OK) {
        return st == CLI_HELP ? EXIT_OK : st;
    }
    pgn_pos pos;
    if (args_position(&pos, argc, argv, optind, "games") != 0) {
        return EXIT_INPUT;
    }
    games_ctx g;
    memset(&g, 0, sizeof g);
    if ((st = cli_db_open(&g.db, path, PGN_DB_READONLY, "games")) != EXIT_OK) {
        return st;
    }
    g.count_only = count;
    g.ids = ids;
    pgn_status s = pgn_db_games_at(g.db, &pos, each_id, &g, g.msg, sizeof g.msg);
    pgn_db_close(g.db);
    if (s != PGN_OK || g.failed) {
        cli_error(NULL, "error: db games: %s", g.msg);
        return EXIT_RESOURCE;
    }
    if (count) {
        printf("%" PRIu64 "\n", g.n);
    }
    if (fflush(stdout) != 0) {
        cli_error(NULL, "error: db games: cannot write the output");
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}
