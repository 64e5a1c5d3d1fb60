/* SPDX-License-Identifier: MIT */
/* Shared declarations of the pgnkit command-line program. */
#ifndef PGNKIT_CLI_H
#define PGNKIT_CLI_H

#include "pgnkit.h"

/* Exit statuses (STYLE C9). */
enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_RESOURCE = 3 };

#include <stdio.h>

int cmd_perft(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_convert(int argc, char **argv);
/* cmd_json.c: convert --to json|ndjson and --from json (cli_convert_is_json tells which). */
int cli_convert_is_json(int argc, char **argv);
int cmd_convert_json(int argc, char **argv);
int cmd_fmt(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_fen(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_nag(int argc, char **argv);
int cmd_svg(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_html(int argc, char **argv);

/* Sets *pos from --fen text (NULL: the start position), forcing Chess960 if asked; prints a
 * diagnostic naming the field and column and returns EXIT_INPUT on a bad FEN. */
int cli_position(pgn_pos *pos, const char *fen, int chess960);

/* Prints "pgnkit CMD: error: ..." style usage errors; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *usage, const char *msg);

/* Prints each warning bit in `warnings` about `token` to stderr. */
void cli_print_warnings(const char *token, uint32_t warnings);

/* Inputs: "-" is stdin. Prints a message and returns NULL when a file cannot be opened. */
FILE *cli_open_input(const char *path);
void cli_close_input(FILE *f);

typedef struct cli_diag_ctx {
    int json;
    int quiet_warnings;
} cli_diag_ctx;

/* A pgn_diag_fn printing GCC-style lines (or JSON lines) on stderr; ctx is a cli_diag_ctx. */
void cli_print_diag(void *ctx, const pgn_diag *d);
typedef struct cli_output {
    FILE *file;
    const char *path; /* NULL: stdout */
} cli_output;

/* Opens -o OUT (NULL or "-": stdout) with a large buffer; prints a message and returns 0 on
 * failure. */
int cli_open_output(cli_output *o, const char *path);
/* Flushes and closes; a write error (disk full) is reported and gives EXIT_RESOURCE, else status.
 */
int cli_close_output(cli_output *o, int status);
/* A pgn_write_fn writing to the FILE * in ctx; -1 on a write error. */
ptrdiff_t cli_write_file(void *ctx, const void *data, size_t len);
/* A growable output buffer (not NUL-terminated); cli_membuf_write is a pgn_write_fn appending to
 * the cli_membuf in ctx, -1 when out of memory. */
typedef struct cli_membuf {
    char *p;
    size_t len, cap;
} cli_membuf;
ptrdiff_t cli_membuf_write(void *ctx, const void *data, size_t len);
/* Reads every game of every file (none: stdin) through v (NULL: check only); adds the games, errors
 * and warnings to totals; returns the exit status (1 if any error). */
int cli_for_each_input(int nfiles, char **files, const pgn_reader_opts *ropts, const pgn_visitor *v,
                       void *user, uint64_t totals[3]);

/* auto, utf-8, latin-1, cp1252, cp437; returns 0 for an unknown name. */
int cli_parse_encoding(const char *name, pgn_encoding *out);

/* ---- annotation editing (cli/annot.c), shared by fmt and convert ---- */

/* getopt_long values of the editing options (above any short option character). */
enum {
    CLI_OPT_STRIP_COMMENTS = 1000,
    CLI_OPT_STRIP_NAGS,
    CLI_OPT_STRIP_VARIATIONS,
    CLI_OPT_STRIP_CLOCK,
    CLI_OPT_STRIP_EVAL,
    CLI_OPT_SEVEN_TAGS,
    CLI_OPT_ADD_PLYCOUNT,
    CLI_OPT_FEN_COMMENTS
};
/* The long options of the editing flags, for a struct option array. */
#define CLI_EDIT_LONG_OPTIONS                                                                      \
    {"strip-comments", no_argument, NULL, CLI_OPT_STRIP_COMMENTS},                                 \
        {"strip-nags", no_argument, NULL, CLI_OPT_STRIP_NAGS},                                     \
        {"strip-variations", no_argument, NULL, CLI_OPT_STRIP_VARIATIONS},                         \
        {"strip-clock", no_argument, NULL, CLI_OPT_STRIP_CLOCK},                                   \
        {"strip-eval", no_argument, NULL, CLI_OPT_STRIP_EVAL},                                     \
        {"seven-tags", no_argument, NULL, CLI_OPT_SEVEN_TAGS},                                     \
        {"add-plycount", no_argument, NULL, CLI_OPT_ADD_PLYCOUNT}, {                               \
        "fen-comments", no_argument, NULL, CLI_OPT_FEN_COMMENTS                                    \
    }
#define CLI_EDIT_USAGE                                                                             \
    "Editing: --strip-comments --strip-nags --strip-variations --strip-clock (clk emt egt mct)\n"  \
    "         --strip-eval --seven-tags (and FEN/SetUp) --add-plycount --fen-comments\n"
/* Sets the edit flag of option ch; returns 1 if ch is an editing option. */
int cli_edit_option(int ch, pgn_edit_opts *e);

/* Called with each game read (broken ones too); a status other than PGN_OK stops the reading. */
typedef pgn_status (*cli_game_fn)(void *user, pgn_game *game);
/* Like cli_for_each_input, building each game's tree. */
int cli_for_each_game(int nfiles, char **files, const pgn_reader_opts *ropts, cli_game_fn fn,
                      void *user, uint64_t totals[3]);

typedef struct cli_lines_args {
    int format; /* pgn_export_format */
    uint32_t fen_flags;
    const char *tags; /* CSV: "Event,White,..." or NULL */
    pgn_edit_opts edit;
    const pgn_reader_opts *ropts;
    int nfiles;
    char **files;
} cli_lines_args;
/* convert --to san|lan|epd|csv: games through pgn_game_edit and a pgn_exporter to out. */
int cli_convert_lines(const cli_lines_args *a, FILE *out, uint64_t totals[3]);

#endif
