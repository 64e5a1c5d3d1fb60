/* SPDX-License-Identifier: MIT */
/* Shared declarations of the pgnkit command-line program. */
#ifndef PGNKIT_CLI_H
#define PGNKIT_CLI_H

#include "driver.h"
#include "pgnkit.h"

#include <stdio.h>

int cmd_perft(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_fmt(int argc, char **argv);
int cmd_moves(int argc, char **argv);
int cmd_fen(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_nag(int argc, char **argv);
int cmd_frames(int argc, char **argv);
int cmd_select(int argc, char **argv);
int cmd_eco(int argc, char **argv);
int cmd_dedupe(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_split(int argc, char **argv);
int cmd_sort(int argc, char **argv);
int cmd_svg(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_db(int argc, char **argv);

/* Sets *pos from --fen text (NULL: the start position), forcing Chess960 if asked; prints a
 * diagnostic naming the field and column and returns EXIT_INPUT on a bad FEN. */
int cli_position(pgn_pos *pos, const char *fen, int chess960);
/* cli_position in the variant named variant (NULL: standard chess; pgn_variant_from_name's names):
 * its start position, or fen read in its dialect. An unknown name is a usage error (EXIT_USAGE). */
int cli_position_variant(pgn_pos *pos, const char *fen, int chess960, const char *variant);
/* The options of the start position (fen, moves, perft): a command's cli_run_args options begin
 * with CLI_POSITION_OPTIONS and its own take values from CLI_OPT_POSITION_END up. */
#define CLI_POSITION_OPTIONS "fen:", "chess960", "variant:"
enum { CLI_OPT_FEN = CLI_OPT_COMMAND, CLI_OPT_CHESS960, CLI_OPT_VARIANT, CLI_OPT_POSITION_END };
typedef struct cli_position_args {
    const char *fen, *variant; /* --fen, --variant (NULL: not given) */
    int chess960;              /* --chess960 */
} cli_position_args;
/* cli_run_args for a command that reads no games: the position options into *a, the command's
 * own to fn(user, ch, arg). Returns EXIT_OK, CLI_HELP or EXIT_USAGE; the operands from optind. */
int cli_position_parse(cli_position_args *a, int argc, char **argv, const char *usage,
                       const char *const *spec, cli_opt_fn fn, void *user);

/* A usage error through cli_usage (one line and "try 'pgnkit CMD --help'"); cmd and usage are
 * unused (kept for the commands not yet on the driver). Returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *usage, const char *msg);
/* Keeps the running command's argv (main), so that cli_usage_error can name a refused option. */
void cli_set_argv(char **argv);
/* While on, cli_usage keeps the first usage error instead of printing it; turning it off prints
 * that one (cli_run_parse: --diag json may come after the bad option). */
void cli_defer_usage(int on);
/* The summary line of a run, text or JSON (cli_run_finish). */
void cli_print_summary(const cli_run *r, cli_summary kind);

/* ---- --where (cli/where.c) ---- */

/* Compiles an expression of the selection language; a bad one is reported (column, caret, what
 * was expected). EXIT_OK, EXIT_USAGE or EXIT_RESOURCE. */
int cli_query_compile(const char *text, size_t len, pgn_query **out);
/* Prints each warning bit in `warnings` about `token` to stderr. */
void cli_print_warnings(const char *token, uint32_t warnings);

/* Prints d (not a warning under quiet), with detail (more about it, may be NULL) after the
 * message. */
void cli_print_diag_detail(const pgn_diag *d, int quiet, const char *detail);
/* fn(ctx, d) for every diagnostic cli_print_diag_detail is given (under --quiet too), on the main
 * thread and in input order whether the reading ran on threads or not (stats counts them by code;
 * a reader on_diag of the command's own would keep -j N off). NULL: none. */
void cli_diag_observe(pgn_diag_fn fn, void *ctx);
/* The growable output buffers are the library's pgn_membuf (include/pgnkit/writer.h), with libc
 * (alloc NULL: the callers free ptr). */
/* The whole file path as a malloc'd NUL-terminated string (its length in *len), or NULL after a
 * message (select -f). */
char *cli_read_text(const char *path, size_t *len);

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
    CLI_OPT_FEN_COMMENTS,
    CLI_OPT_FIX_RESULTS,
    CLI_OPT_ADD_ECO,
    CLI_OPT_ADD_HASHCODE,
    CLI_OPT_ADD_TERMINATION,
    CLI_OPT_ADD_FEN,
    CLI_OPT_ADD_MATERIAL
};
/* An edit of the program's own in pgn_edit_opts.flags, above the library's PGN_EDIT_* bits:
 * --add-eco (pgn_opening_tag). cli_game_edit applies it, then pgn_game_edit the others. */
#define CLI_EDIT_ADD_ECO 0x40000000u
#define CLI_EDIT_USAGE                                                                             \
    "Editing: --strip-comments --strip-nags --strip-variations --strip-clock (clk emt egt mct)\n"  \
    "         --strip-eval --seven-tags (and FEN/SetUp) --add-plycount --fen-comments\n"           \
    "         --fix-results (marker and Result tag from a final mate or stalemate, else the\n"     \
    "         marker)\n"                                                                           \
    "         --add-eco (ECO, Opening, Variation by position, as pgnkit eco)\n"                    \
    "         --add-hashcode --add-termination --add-fen (FinalFEN) --add-material: tags of the\n" \
    "         final position\n"
/* Sets the edit flag of option ch; returns 1 if ch is an editing option. */
int cli_edit_option(int ch, pgn_edit_opts *e);
/* Applies the edits of e to g: the program's own (CLI_EDIT_*), then pgn_game_edit. */
pgn_status cli_game_edit(pgn_game *g, const pgn_edit_opts *e);

#endif
