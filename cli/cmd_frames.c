/* SPDX-License-Identifier: MIT */
/* pgnkit frames: the frames of a zstd file (RFC 8878 §3.1: a file is frames one after another;
 * pzstd and the lichess database write many, independent, after a skippable frame), each with
 * its place in the file and in the text: the natural --range boundaries for splitting work. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "usage: pgnkit frames FILE\n"
    "Lists the frames of a zstd file, one line each: offset and size in the file, offset and\n"
    "size in the decoded text, the line number of its first byte, and 'skippable' for a frame\n"
    "without text. Any offset listed (and the file's size) is a boundary that --range takes on\n"
    "this file, with --line-base LINE for its start: pgnkit check --range OFFSET:NEXT FILE.\n";

static int print_frame(void *user, const pgn_frame *fr) {
    (void)user;
    printf("%llu %llu %llu %llu %llu%s\n", (unsigned long long)fr->offset,
           (unsigned long long)fr->size, (unsigned long long)fr->text_offset,
           (unsigned long long)fr->text_size, (unsigned long long)fr->line,
           fr->skippable ? " skippable" : "");
    return 0;
}

int cmd_frames(int argc, char **argv) {
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage_text, stdout);
            return EXIT_OK;
        }
        return cli_usage_error("frames", usage_text, NULL);
    }
    if (argc - optind != 1 || strcmp(argv[optind], "-") == 0) {
        return cli_usage_error("frames", usage_text, "expected one FILE (not stdin)");
    }
    const char *path = argv[optind];
    cli_input in;
    printf("offset size plain_offset plain_size line\n");
    if (cli_input_open(&in, path, 0) != EXIT_OK) { /* said why */
        return EXIT_RESOURCE;
    }
    pgn_source *src = in.src;
    pgn_status st = pgn_source_frames(src, print_frame, NULL);
    if (st != PGN_OK) {
        cli_error(path, "%s", pgn_source_error(src));
    }
    pgn_source_free(src);
    if (st != PGN_OK) {
        return EXIT_RESOURCE;
    }
    return fflush(stdout) == 0 ? EXIT_OK : EXIT_RESOURCE;
}
