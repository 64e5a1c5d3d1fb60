/* SPDX-License-Identifier: MIT */
/* Annotation editing options shared by pgnkit fmt and convert (--strip-comments ... --fen-comments,
 * applied with pgn_game_edit), and convert --to san|lan|epd|csv. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdlib.h>
#include <string.h>

int cli_edit_option(int ch, pgn_edit_opts *e) {
    switch (ch) {
    case CLI_OPT_STRIP_COMMENTS: e->flags |= PGN_EDIT_STRIP_COMMENTS; return 1;
    case CLI_OPT_STRIP_NAGS: e->flags |= PGN_EDIT_STRIP_NAGS; return 1;
    case CLI_OPT_STRIP_VARIATIONS: e->flags |= PGN_EDIT_STRIP_VARIATIONS; return 1;
    case CLI_OPT_STRIP_CLOCK: e->flags |= PGN_EDIT_STRIP_CLOCK; return 1;
    case CLI_OPT_STRIP_EVAL: e->flags |= PGN_EDIT_STRIP_EVAL; return 1;
    case CLI_OPT_SEVEN_TAGS: e->flags |= PGN_EDIT_SEVEN_TAGS; return 1;
    case CLI_OPT_ADD_PLYCOUNT: e->flags |= PGN_EDIT_ADD_PLYCOUNT; return 1;
    case CLI_OPT_FEN_COMMENTS: e->flags |= PGN_EDIT_FEN_COMMENTS; return 1;
    case CLI_OPT_ADD_ECO: e->flags |= CLI_EDIT_ADD_ECO; return 1;
    case CLI_OPT_ADD_HASHCODE: e->flags |= PGN_EDIT_ADD_HASHCODE; return 1;
    case CLI_OPT_ADD_TERMINATION: e->flags |= PGN_EDIT_ADD_TERMINATION; return 1;
    case CLI_OPT_ADD_FEN: e->flags |= PGN_EDIT_ADD_FINAL_FEN; return 1;
    case CLI_OPT_ADD_MATERIAL: e->flags |= PGN_EDIT_ADD_MATERIAL; return 1;
    default: return 0;
    }
}

pgn_status cli_game_edit(pgn_game *g, const pgn_edit_opts *e) {
    pgn_edit_opts lib = *e;
    lib.flags &= ~CLI_EDIT_ADD_ECO;
    pgn_status st = e->flags & CLI_EDIT_ADD_ECO ? pgn_opening_tag(g, 0, NULL) : PGN_OK;
    return st == PGN_OK && lib.flags ? pgn_game_edit(g, &lib) : st;
}

/* ---- convert --to san|lan|epd|csv ---- */

typedef struct lines_ctx {
    pgn_exporter *ex;
    const pgn_edit_opts *edit;
} lines_ctx;

static pgn_status one_game(void *user, pgn_game *g) {
    lines_ctx *c = user;
    pgn_status st = c->edit->flags ? cli_game_edit(g, c->edit) : PGN_OK;
    return st == PGN_OK ? pgn_exporter_write(c->ex, g) : st;
}

/* Splits "Event,White,..." into names (pointing into list). Returns the count, 0 if one is empty.
 */
static size_t split_tags(const char *list, pgn_str **out) {
    size_t n = 1, k = 0;
    for (const char *p = list; *p; p++) {
        n += *p == ',';
    }
    pgn_str *names = calloc(n, sizeof *names);
    if (!names) {
        return 0;
    }
    const char *start = list;
    for (const char *p = list;; p++) {
        if (*p == ',' || *p == 0) {
            names[k].ptr = start;
            names[k].len = (size_t)(p - start);
            if (names[k].len == 0) {
                free(names);
                return 0;
            }
            k++;
            start = p + 1;
            if (*p == 0) {
                break;
            }
        }
    }
    *out = names;
    return n;
}

int cli_convert_lines(const cli_lines_args *a, FILE *out, uint64_t totals[3]) {
    pgn_export_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.format = (pgn_export_format)a->format;
    eo.fen_flags = a->fen_flags;
    pgn_str *names = NULL;
    if (a->tags) {
        eo.tag_count = split_tags(a->tags, &names);
        if (eo.tag_count == 0) {
            fprintf(stderr, "pgnkit convert: error: --tags takes tag names separated by commas\n");
            return EXIT_USAGE;
        }
        eo.tags = names;
    }
    lines_ctx c = {NULL, &a->edit};
    if (pgn_exporter_new(&c.ex, &eo, cli_write_file, out) != PGN_OK) {
        free(names);
        fprintf(stderr, "pgnkit: out of memory\n");
        return EXIT_RESOURCE;
    }
    int status = cli_for_each_game(a->nfiles, a->files, a->ropts, one_game, &c, totals);
    if (pgn_exporter_finish(c.ex) != PGN_OK && status != EXIT_RESOURCE) {
        fprintf(stderr, "pgnkit: error writing the output\n");
        status = EXIT_RESOURCE;
    }
    pgn_exporter_free(c.ex);
    free(names);
    return status;
}
