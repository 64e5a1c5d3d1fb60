/* SPDX-License-Identifier: MIT */
/* pgnkit split: writes the games, unchanged, into files named from a pattern: N games a file
 * (--games), a file per value of a tag (--by), or one game a file. Tag values are made safe
 * before they go into a name (no '/', no leading '.', no control bytes, bounded length), and two
 * values that would give one name are numbered apart; together the files hold exactly the input's
 * games. Which game goes where, the names and the files are the library's (pgn_split_*); the
 * options, the checks before the files are put in place and the messages are here and in
 * split_files.c. */
#define _POSIX_C_SOURCE 200809L
#include "split.h"
#include "tempfile.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static const char usage_text[] =
    "usage: pgnkit split [--games N] [--by TAG|Year] [--one-per-file] [--pattern PATTERN]\n"
    "                    [--force] [--where EXPR] [reading options] [FILE...]\n"
    "Writes each game, unchanged, to a file named by PATTERN, in which {n} is the file's number\n"
    "(from 1, counted per value with --by), {value} the --by value and {TAG} any tag's value.\n"
    "  --games N        at most N games a file\n"
    "  --by TAG         a file per value of the tag (Year: the year of Date); a game without it\n"
    "                   goes with the value '_'\n"
    "  --one-per-file   one game a file (--games 1)\n"
    "  --pattern P      default: {value}.pgn with --by, else split-{n}.pgn; directories in the\n"
    "                   pattern itself are created\n"
    "In names, a value has '/', '\\', control bytes and a leading '.' replaced by '_', is cut to\n"
    "100 bytes and is '_' when empty; two values giving one name are numbered apart "
    "(name~2.pgn).\n"
    "The files are written only when all of them can be: none may be an input, and none may exist\n"
    "already unless --force (which replaces the name itself, not the file a link names); each one\n"
    "written is named on stderr.\n"
    "  --force          replace files that exist\n" CLI_WHERE_USAGE CLI_READ_USAGE CLI_RANGE_USAGE
    "exit status: 0 success, 1 the input had errors, 2 usage error or a file refused (nothing\n"
    "written), 3 I/O or memory failure\n";

/* Files kept open at once: what the limit on descriptors leaves after 48 for the program's own
 * (inputs, --rejects, the libraries'), 1024 at most (a 4 KB buffer each). With 64, `--by ECO`
 * on the gnuchess book (500 values, mixed) reopened a file for nearly every game: 1.19 s. */
static size_t open_max(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1072) {
        return 1024;
    }
    return rl.rlim_cur > 64 ? (size_t)rl.rlim_cur - 48 : 16;
}

static pgn_flow on_begin(void *user, pgn_loc at) {
    split_state *s = user;
    (void)at;
    pgn_split_begin_game(s->split);
    return PGN_FLOW_CONTINUE;
}

static pgn_flow on_tag(void *user, pgn_str name, pgn_str value) {
    split_state *s = user;
    /* out of memory: reported as a missing value, never a lost game */
    return pgn_split_tag(s->split, name, value) == PGN_OK ? PGN_FLOW_CONTINUE : PGN_FLOW_STOP;
}

static pgn_status one_game(cli_run *r, void *user, const cli_game *g) {
    split_state *s = user;
    (void)r;
    return split_write(s, g->raw.ptr, g->raw.len);
}

enum { OPT_GAMES = CLI_OPT_COMMAND, OPT_BY, OPT_ONE_PER_FILE, OPT_PATTERN, OPT_FORCE };
static const char *const options[] = {"games:", "by:", "one-per-file", "pattern:", "force", NULL};

static int split_option(void *user, int ch, const char *arg) {
    split_state *s = user;
    switch (ch) {
    case OPT_GAMES: return cli_number("--games", arg, 1, UINT64_MAX, &s->per_file);
    case OPT_BY: s->by = arg; return EXIT_OK;
    case OPT_ONE_PER_FILE: s->per_file = 1; return EXIT_OK;
    case OPT_PATTERN: s->pattern = arg; return EXIT_OK;
    case OPT_FORCE: s->force = 1; return EXIT_OK;
    default: return cli_usage("unknown option");
    }
}

/* The split (pgn_split_new: the pattern's default and its checks), after the options. */
static int split_rules(split_state *s) {
    if (s->by && strlen(s->by) == 0) {
        return cli_usage("--by takes a tag name");
    }
    char why[128] = "";
    pgn_split_opts o = {s->pattern, s->by, s->per_file, NULL};
    pgn_status st = pgn_split_new(&s->split, &o, why, sizeof why);
    if (st == PGN_E_LIMIT) {
        return cli_usage(why);
    }
    if (st != PGN_OK ||
        pgn_split_files_new(&s->files, s->split, s->open_max, &cli_temp_hooks) != PGN_OK) {
        cli_error(NULL, "out of memory");
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}

/* Puts the files in place when the reading went through (else, or when refused, none) and frees
 * the state; the status of the run. */
static int finish(split_state *s, cli_run *r, int st) {
    if (!r->aborted && s->split &&
        pgn_split_count(s->split) > 0) { /* a missing input does not stop the others */
        int c = split_commit(s, r);
        s->kept_dirs = c == EXIT_OK;
        st = c > st ? c : st;
    }
    split_discard(s);
    return st;
}

int cmd_split(int argc, char **argv) {
    split_state s;
    memset(&s, 0, sizeof s);
    s.open_max = open_max();
    cli_run r;
    cli_run_init(&r, CLI_READS | CLI_WHERE);
    int st = cli_run_args(&r, argc, argv, usage_text, options, "", split_option, &s);
    if (st == EXIT_OK && (st = split_rules(&s)) == EXIT_OK) {
        st = split_precheck(&s, &r); /* before reading, as every writer */
    }
    if (st != EXIT_OK || (st = cli_run_open(&r)) != EXIT_OK) {
        st = finish(&s, &r, st == CLI_HELP ? EXIT_OK : st);
        pgn_split_free(s.split);
        return st;
    }
    pgn_visitor v = {on_begin, on_tag, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    r.raw = 1;
    r.ropts.flags |= PGN_READ_NO_BOARD; /* only tags and the raw text are needed */
    cli_run_visit(&r, &v, &s, one_game, &s);
    r.status = finish(&s, &r, r.status);
    cli_run_count(&r, "files", "files", s.kept_dirs ? pgn_split_count(s.split) : 0);
    pgn_split_free(s.split);
    return cli_run_finish(&r, CLI_SUMMARY_COUNTS);
}
