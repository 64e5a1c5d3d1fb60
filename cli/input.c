/* SPDX-License-Identifier: MIT */
/* Inputs of the program: the one function that opens an input (a file, stdin, a compressed
 * stream, an archive's members: the library's pgn_source), --range on it, and the names of the
 * input encodings. The outputs are in output.c. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_range_option(int line_base, const char *arg, pgn_reader_opts *ro) {
    uint64_t a = 0, b = 0;
    if (line_base) {
        if (!cli_parse_u64(arg, 1, UINT32_MAX, &a)) {
            return 0;
        }
        ro->line_base = (uint32_t)a;
        return 1;
    }
    const char *end = cli_parse_digits(arg, &a);
    if (!end || *end != ':') {
        return 0;
    }
    if (end[1] != 0 && !cli_parse_u64(end + 1, a + 1, UINT64_MAX, &b)) {
        return 0;
    }
    ro->range_start = a;
    ro->range_end = b;
    return 1;
}

int cli_input_next(cli_input *in) {
    pgn_status st = pgn_source_next(in->src);
    if (st == PGN_OK) {
        in->name = pgn_source_name(in->src);
        return 1;
    }
    if (st != PGN_END) {
        cli_error(pgn_source_outer_name(in->src), "%s", pgn_source_error(in->src));
        return -1;
    }
    return 0;
}

int cli_input_open(cli_input *in, const char *path, int json) {
    static const char *const json_ext[] = {".json", ".jsonl", ".ndjson", NULL};
    char msg[300];
    memset(in, 0, sizeof *in);
    in->path = path;
    pgn_source_opts so;
    memset(&so, 0, sizeof so);
    so.members = json ? json_ext : NULL;
    if (pgn_source_open_path(&in->src, path, &so, msg, sizeof msg) != PGN_OK) {
        cli_error(strcmp(path, "-") == 0 ? "<stdin>" : path, "%s", msg);
        return EXIT_RESOURCE;
    }
    in->name = pgn_source_name(in->src);
    in->read = pgn_source_read;
    in->ctx = in->src;
    return EXIT_OK;
}

int cli_input_range(cli_input *in, const pgn_reader_opts *ro) {
    pgn_reader_opts got = *ro;
    if (pgn_source_range(in->src, ro->range_start, ro->range_end, ro->line_base, &got) != PGN_OK) {
        const char *why = pgn_source_error(in->src);
        const char *range = "the range ";
        int ours = strncmp(why, range, strlen(range)) == 0; /* the library's words for --range */
        cli_error(pgn_source_outer_name(in->src), "%s%s", ours ? "--range " : "",
                  ours ? why + strlen(range) : why);
        return EXIT_RESOURCE;
    }
    in->range_start = got.range_start;
    in->range_end = got.range_end;
    in->line_base = got.line_base;
    return EXIT_OK;
}

const char *cli_input_error(const cli_input *in) {
    return in->src ? pgn_source_error(in->src) : NULL;
}

void cli_input_close(cli_input *in) {
    pgn_source_free(in->src);
    in->src = NULL;
}

char *cli_read_text(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error(path, "%s", strerror(errno));
        return NULL;
    }
    pgn_membuf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && pgn_membuf_write(&b, chunk, n) >= 0) {
    }
    fclose(f);
    if (pgn_membuf_write(&b, "", 1) < 0) {
        free(b.ptr);
        cli_error(NULL, "out of memory");
        return NULL;
    }
    *len = b.len - 1;
    return b.ptr;
}
