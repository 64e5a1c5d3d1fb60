/* SPDX-License-Identifier: MIT */
/* The one driver of the commands that read games (STYLE C9, issue 12 item 2): the inputs (files,
 * '-', none = stdin), one reader per input, a per-game callback or a visitor, the outputs (-o and
 * --rejects written to a temporary file and renamed into place), the shared options, the totals,
 * the summary line and the exit status, and every message the program prints.
 *
 * A command that reads games is one small file:
 *
 *     static pgn_status one(cli_run *r, void *user, const cli_game *g) {
 *         if (g->summary->broken) {
 *             return cli_run_reject(r, g);         // counted; raw bytes to --rejects
 *         }
 *         ... write g->game to r->out.file ...;
 *         r->written++;
 *         return PGN_OK;                            // PGN_E_IO / PGN_E_NOMEM stop the run
 *     }
 *     int cmd_x(int argc, char **argv) {
 *         cli_run r;
 *         cli_run_init(&r, CLI_READS | CLI_WRITES | CLI_REJECTS);
 *         int st = cli_run_parse(&r, argc, argv, usage_text, my_opts, "", my_opt_fn, &mine);
 *         if (st != EXIT_OK) {
 *             return st == CLI_HELP ? EXIT_OK : st;
 *         }
 *         if ((st = cli_run_open(&r)) != EXIT_OK) {
 *             return st;
 *         }
 *         cli_run_games(&r, one, &mine);
 *         return cli_run_finish(&r, CLI_SUMMARY_WRITE);
 *     }
 *
 * Messages: every line on stderr starts "pgnkit COMMAND: " (main sets the command), or, under
 * --diag json, is one JSON object: {"file":...,"code":...} diagnostics, {"error":{...}} and
 * {"summary":{...}} (docs/diagnostics.schema.json). The program is single-threaded where it uses
 * these (analyze's threads print through its own lock), so the message settings are one static
 * record in driver.c, set once by main and by the option parser. */
#ifndef PGNKIT_CLI_DRIVER_H
#define PGNKIT_CLI_DRIVER_H

#include "pgnkit.h"

#include <getopt.h>
#include <stdio.h>

/* Exit statuses (STYLE C9); the worst one wins. */
enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_RESOURCE = 3 };
/* cli_run_parse: --help was printed; the command returns EXIT_OK. */
enum { CLI_HELP = -1 };

/* ---- messages ---- */

/* Names the running command for every message ("pgnkit fmt: ..."); main calls it. */
void cli_set_command(const char *name);
/* The running command's name ("pgnkit" before one is chosen). */
const char *cli_command(void);
/* --diag json: every stderr line is a JSON object from then on. */
void cli_set_diag_json(int on);
int cli_diag_json(void);
/* An error, I/O or otherwise: "pgnkit CMD: FILE: TEXT" (FILE may be NULL) or
 * {"error":{"command":CMD,"file":FILE,"message":TEXT}}. printf-style. */
void cli_error(const char *file, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A usage error: "pgnkit CMD: TEXT" and "try 'pgnkit CMD --help'" (or one JSON error with
 * "usage":true). Returns EXIT_USAGE. */
int cli_usage(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The one number parser (cli/number.c): the decimal digits at the start of text (at least one;
 * no sign, no space) into *out; the end of the digits, or NULL when there are none or they
 * overflow 64 bits. For the numbers inside an option's value (--range 5:9, --games 1-3). */
const char *cli_parse_digits(const char *text, uint64_t *out);
/* A number through cli_parse_digits: text is a whole decimal number (digits only: no sign,
 * space or suffix) from min to max; 1 and *out set, else 0 (*out untouched). */
int cli_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);
/* A numeric option's value through cli_parse_u64: EXIT_OK, or a usage error naming option
 * ("--top takes a whole number from 0 to 1000000, not 'x'") and EXIT_USAGE. */
int cli_number(const char *option, const char *arg, uint64_t min, uint64_t max, uint64_t *out);
/* The move after a move number in a move list typed on the command line ("1.e4", "12...Nf6";
 * "1." alone gives ""), else m itself (fen and db explore). */
const char *cli_skip_move_number(const char *m);
/* Writes s (len bytes, any bytes) to f as a JSON string with its quotes, through
 * pgn_json_write_string (the escaper of pgn_json_escape): never a byte that is not valid UTF-8. */
void cli_json_string(FILE *f, const char *s, size_t len);
/* Copies user text (src, len bytes) for a terminal into dst (cap > 0, NUL-terminated): every
 * control character (C0, DEL, and C1 as UTF-8: U+0080-U+009F) becomes a space, so that no
 * escape sequence of a PGN reaches the terminal (window title, screen clear; issue 36). Stops
 * when dst is full; *used (if not NULL) is the number of bytes of src consumed. Returns the
 * length written. */
size_t cli_term_text(char *dst, size_t cap, const char *src, size_t len, size_t *used);
/* Writes user text (len bytes) to f through cli_term_text, padded with spaces to width bytes. */
void cli_term_put(FILE *f, const char *s, size_t len, size_t width);

/* ---- inputs: the one place an input is opened ---- */

typedef struct cli_input {
    const char *path; /* as given: "-" is stdin */
    const char *name; /* for messages and diagnostics: the path, "<stdin>", or ARCHIVE(MEMBER) */
    pgn_read_fn read; /* bytes of the input, decoded (pgn_source_read) */
    void *ctx;
    pgn_source *src;                 /* the library's source (include/pgnkit/source.h) */
    uint64_t range_start, range_end; /* --range, in the decoded text */
    uint32_t line_base;
} cli_input;

/* Opens path ("-": stdin) for reading as a pgn_source and sets in->read and in->ctx. A missing,
 * unreadable or directory input gets one message with the system's reason ("pgnkit check: x: Is
 * a directory") and EXIT_RESOURCE; else EXIT_OK. An archive (zip, 7z, RAR, tar, a compressed tar)
 * is opened at its first member named *.pgn (json: *.json, *.jsonl, *.ndjson), named
 * "path(member)" as GNU ld names an archive's members; an archive without one is EXIT_RESOURCE
 * after a message. */
int cli_input_open(cli_input *in, const char *path, int json);
/* An archive's next member to read (cli_input_open is at the first): 1, with in->name set for it;
 * 0 when none is left (and for any other input); -1 after a message (the archive is damaged: the
 * members before it were read). */
int cli_input_next(cli_input *in);
/* --range in ro (range_start/range_end in the file, line_base): pgn_source_range, then in's range
 * for the reader. EXIT_OK, or EXIT_RESOURCE after a message (stdin, another compressed format, not
 * a frame boundary). */
int cli_input_range(cli_input *in, const pgn_reader_opts *ro);
/* NULL, or what made the input's read fail: decoding (format, byte offset, reason) or reading. */
const char *cli_input_error(const cli_input *in);
/* --range START:END (line_base 0) or --line-base N (1) into ro; 1, or 0 for a bad value. */
int cli_range_option(int line_base, const char *arg, pgn_reader_opts *ro);
/* Help text of --range and --line-base, for the usage of the commands that read games. */
#define CLI_RANGE_USAGE                                                                            \
    "  --range START:END  the games that start in bytes START to END of each file (END empty: "    \
    "to\n"                                                                                         \
    "                  the end; a .zst file at frame boundaries, see pgnkit frames); "             \
    "consecutive\n"                                                                                \
    "                  ranges read every game once. --line-base N: the line of byte START\n"       \
    "                  (default: counted), for true line numbers\n"
void cli_input_close(cli_input *in);
/* Help text of the shared reading options and of --where, for the usage of the commands. */
#define CLI_READ_USAGE                                                                             \
    "Reading: --strict (quirks are errors), --max-errors N (stop after N errors over all the\n"    \
    "  files), --diag text|json, --quiet (no warnings, no summary line; errors still shown),\n"    \
    "  --input-encoding auto|utf-8|latin-1|cp1252|cp437, --fix (replace a mistyped move by the\n"  \
    "  one clearly meant: W_REPAIRED_MOVE, docs/repair.md)\n"
#define CLI_WHERE_USAGE                                                                            \
    "  --where EXPR    only the games that match EXPR (docs/query.md, as pgnkit select); the\n"    \
    "                  others are skipped, not rejected, and the summary counts the matches\n"

/* ---- outputs: stdout, or a file replaced only when complete ---- */

typedef struct cli_output {
    FILE *file;      /* write here */
    pgn_output *out; /* what file writes to (NULL: standard output) */
    char *vbuf; /* file's stdio buffer, malloc'd, freed after fclose (NULL: stdout's or none) */
} cli_output;

/* Opens path for writing (NULL or "-": stdout, with a large buffer). A regular file is written to
 * an unnamed (O_TMPFILE) or hidden temporary file in the same directory, with the mode of the file
 * it replaces (new files: 0666 less the umask), and renamed over path by cli_output_close only
 * when complete: an interrupted run never leaves half a file, nor a temporary one. A device or
 * FIFO (/dev/null, /dev/full) is written directly. Returns EXIT_OK, or EXIT_RESOURCE after a
 * message. */
int cli_output_open(cli_output *o, const char *path);
/* Flushes, fsyncs and closes; with commit and no write error, renames the file into place. A
 * write error is reported naming the output ("standard output" or the path) and gives
 * EXIT_RESOURCE; without commit the temporary file is removed and the target left untouched.
 * Returns the worse of status and what happened here. Accepts an output never opened. */
int cli_output_close(cli_output *o, int commit, int status);
/* A pgn_write_fn writing to the cli_output in ctx; -1 on a write error. */
ptrdiff_t cli_output_write(void *ctx, const void *data, size_t len);

/* ---- the shared options and the run ---- */

/* Groups of shared options a command takes (cli_run_init). */
#define CLI_READS                                                                                  \
    0x01u                 /* --quiet --diag text|json --strict --max-errors N --input-encoding E   \
                             --range START:END --line-base N -j N --progress --no-progress */
#define CLI_WRITES 0x02u  /* -o/--output FILE */
#define CLI_REJECTS 0x04u /* --rejects FILE */
#define CLI_WHERE 0x08u   /* --where EXPR: only the games that match are given to the command */
#define CLI_EDITS 0x10u   /* the editing options of CLI_EDIT_USAGE, given to the command's fn */

/* getopt_long values of the shared options; a command's own long options use values below 1000
 * (letters) or from CLI_OPT_COMMAND up. Short options -o, -q and -h are the driver's. */
enum { CLI_OPT_COMMON = 2000, CLI_OPT_COMMAND = 3000 };

typedef struct cli_game {
    pgn_game *game;                  /* the built tree; NULL in visitor mode */
    const pgn_game_summary *summary; /* errors, warnings, broken, ordinal, start */
    pgn_str raw;            /* the original bytes (with CLI_RAW or --rejects), else empty */
    const cli_input *input; /* where it came from (input->name for messages) */
    uint64_t ordinal;       /* 1-based over all the run's inputs (games --where skipped count) */
    pgn_str product;        /* -j N: what the command's prepare hook made (cli_par_product) */
    int has_product;        /* product is set (it may be empty) */
    /* with raw, read on one thread: the end of raw after the game's own text (the text between
     * games), and before the first game the text before it (PGN_READ_KEEP_LEAD); else empty */
    pgn_str between, lead;
} cli_game;

/* A count of a command's own for the summary line ("3 distinct"; JSON "distinct":3). */
typedef struct cli_count {
    const char *key;  /* JSON name (docs/diagnostics.schema.json) */
    const char *text; /* words after the number in the text line */
    uint64_t n;
} cli_count;

typedef struct cli_run cli_run;
/* Called after each game (broken ones too). PGN_OK goes on; PGN_E_IO, PGN_E_NOMEM or any other
 * status stops the run with a message (the output is then not committed). */
typedef pgn_status (*cli_each_fn)(cli_run *r, void *user, const cli_game *g);
/* A command's own option: ch as getopt_long returned it, arg its optarg. Returns EXIT_OK, or
 * cli_usage(...) (EXIT_USAGE) for a bad value. */
typedef int (*cli_opt_fn)(void *user, int ch, const char *arg);

struct cli_run {
    /* the shared options, as parsed (read-only for commands, except ropts.flags) */
    pgn_reader_opts ropts; /* flags (strict, ...), encoding; on_diag set by the driver */
    uint64_t max_errors;   /* --max-errors: over the whole run; 0: no limit */
    const char *out_path, *rejects_path;
    int quiet;         /* --quiet: warnings and the summary line are not printed (errors are) */
    const char *where; /* --where EXPR (CLI_WHERE) */
    struct pgn_query *query; /* compiled by cli_run_open, freed by cli_run_finish */
    unsigned groups;
    int raw; /* CLI_RAW: give every game its raw bytes (fmt -i, fmt --check) */
    /* NULL, or why an archive is no input here (fmt -i: its output would replace the archive) */
    const char *no_archives;
    /* operands: the inputs ("-" when none were given) */
    int nfiles;
    char **files;
    /* outputs, opened by cli_run_open: out (stdout without -o) and rejects (file NULL without) */
    cli_output out, rejects;
    /* totals: games read, written by the command, rejected, errors and warnings reported */
    uint64_t games, written, rejected, errors, warnings;
    uint64_t matched;    /* games that matched --where (the only ones given to the command) */
    cli_count counts[4]; /* the command's own counts for the summary (cli_run_count) */
    size_t ncounts;
    int stopped; /* reading stopped early at --max-errors */
    int aborted; /* an I/O or memory failure stopped the run: outputs are not committed */
    int status;  /* the worst exit status so far */
    int jobs;    /* -j: 0 not given (cli/parallel.c: jobs_of), -1 the number of cores */
    const pgn_par_hooks *par; /* what the command does on the workers (may be NULL) */
};

/* Zeroes r and notes which shared option groups the command takes. */
void cli_run_init(cli_run *r, unsigned groups);
/* Parses argv with getopt_long: the command's opts (may be NULL) and shortopts (may be "") plus
 * the shared options of r's groups and -h/--help. The command's options go to fn(user, ch, arg).
 * A bad option or value prints one line and "try 'pgnkit CMD --help'" (in JSON under --diag json,
 * wherever --diag comes). Sets r->files/nfiles to the operands. Returns EXIT_OK, CLI_HELP after
 * printing usage to stdout, or EXIT_USAGE. */
int cli_run_parse(cli_run *r, int argc, char **argv, const char *usage, const struct option *opts,
                  const char *shortopts, cli_opt_fn fn, void *user);
/* cli_run_parse with the command's long options declared by name: spec, NULL-terminated, holds
 * "name" for an option without a value and "name:" for one with a value; the i-th is given to
 * fn as CLI_OPT_COMMAND + i, so the command's enum lists them in the same order. */
int cli_run_args(cli_run *r, int argc, char **argv, const char *usage, const char *const *spec,
                 const char *shortopts, cli_opt_fn fn, void *user);
/* Before reading anything: compiles --where (a bad expression: its column, a caret and what was
 * expected, EXIT_USAGE), refuses (EXIT_USAGE, one line) an -o or --rejects that is the same
 * file as an input (device and inode: hard links, symlinks and ./x count) or as each other, then
 * opens them. Returns EXIT_OK, EXIT_USAGE or EXIT_RESOURCE. */
int cli_run_open(cli_run *r);
/* Refuses (EXIT_USAGE) writing path when it is the same file as an input; for outputs a command
 * opens itself (fmt -i checks nothing: it replaces its input on purpose). */
int cli_run_check_output(cli_run *r, const char *what, const char *path);
/* Nonzero, after a message naming both, when outputs a and b (what_a, what_b: their options; "-":
 * standard output; NULL: none) are the same file, existing or to be made (issue 36: dedupe -o X
 * --report X lost the report). */
int cli_outputs_clash(const char *what_a, const char *a, const char *what_b, const char *b);
/* Reads every input, building each game, and calls fn after each. Missing, unreadable and
 * directory inputs are reported and skipped; --max-errors stops the run. Returns r->status.
 * With --where (r->query set by cli_run_open) fn sees only the games that match, built by reading
 * their raw bytes again; the others are read, counted in r->games and dropped unseen, with their
 * diagnostics (the library's pgn_query_filter). The same holds for cli_run_visit, whose v then
 * sees only matches. */
int cli_run_games(cli_run *r, cli_each_fn fn, void *user);
/* The same in visitor mode (no tree: check, convert --to uci|fen): v (may be NULL) sees each game
 * as it streams; then fn (may be NULL) is called with g->game NULL. */
int cli_run_visit(cli_run *r, const pgn_visitor *v, void *vuser, cli_each_fn fn, void *user);
/* The same for JSON input (docs/json-format.md, convert --from json): each game the JSON reader
 * accepts comes to fn built, with a clean summary; each one it refuses, after its diagnostic, with
 * g->game NULL and summary->broken set (no raw bytes): a rejected game for the command. */
int cli_run_json(cli_run *r, cli_each_fn fn, void *user);
/* Counts g as rejected and writes its raw bytes to --rejects when given. PGN_OK or PGN_E_IO. */
pgn_status cli_run_reject(cli_run *r, const cli_game *g);

/* Writes a game's raw bytes (len bytes) to f (NULL: nowhere), with a line break after them when
 * they lack one (the last game of a file), so that games written in another order never run
 * together. PGN_OK or PGN_E_IO. */
pgn_status cli_write_raw(FILE *f, const char *raw, size_t len);
/* Does t hold anything but white space? (The text between games that a rewrite keeps in its place,
 * cli_game.between and .lead: white space alone is not kept; issue 34 point 5.) */
int cli_has_text(pgn_str t);
/* Adds a count of the command's own to the summary line, after the games (at most 4). */
void cli_run_count(cli_run *r, const char *key, const char *text, uint64_t n);

/* The summary line cli_run_finish prints: none under --quiet (nor for CLI_SUMMARY_NONE), but
 * "pgnkit CMD: reading stopped after N errors (--max-errors)" then when reading stopped.
 * With --where ", N matched" follows the games. */
typedef enum cli_summary {
    CLI_SUMMARY_NONE,
    CLI_SUMMARY_CHECK, /* "N games, N errors, N warnings" */
    CLI_SUMMARY_WRITE, /* "N games, N written, N rejected, N errors" */
    CLI_SUMMARY_COUNTS /* "N games, <the command's counts>, N errors" */
} cli_summary;
/* Closes the outputs (renamed into place unless a write failed or the run stopped on a resource
 * failure), prints the summary ("...; reading stopped at --max-errors N" when it did; a
 * {"summary":{...}} line under --diag json) and returns the exit status: 3 for an I/O or memory
 * failure, else 1 if any error was reported or a game rejected, else 0. */
int cli_run_finish(cli_run *r, cli_summary kind);

/* ---- for the driver's files: reading.c (the reading) and parallel.c (-j) call driver.c ---- */

/* A pgn_diag_fn (ctx: the cli_run) printing a diagnostic (warnings not under --quiet). */
void cli_run_diag(void *ctx, const pgn_diag *d);
/* Raises r->status to status when that is worse. */
void cli_run_worst(cli_run *r, int status);

#endif
