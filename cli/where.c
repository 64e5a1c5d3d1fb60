/* SPDX-License-Identifier: MIT */
/* --where EXPR (issue 13) and select's expression: compiled once, its errors with a caret. The
 * selection itself is the library's pgn_query_filter (include/pgnkit/query.h); the driver's step
 * under --where is in reading.c. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <stdio.h>

/* Prints the expression, a caret under the offending token and what was expected. */
static void print_query_error(const char *text, size_t len, const pgn_query_error *e) {
    cli_error(NULL, "error in the expression, column %u: %s", e->column, e->message);
    if (cli_diag_json()) {
        return;
    }
    size_t line_start = 0, col = e->column ? e->column - 1 : 0;
    for (size_t i = 0; i < col && i < len; i++) {
        if (text[i] == '\n') {
            line_start = i + 1;
        }
    }
    size_t line_end = line_start;
    while (line_end < len && text[line_end] != '\n') {
        line_end++;
    }
    fprintf(stderr, "  %.*s\n  ", (int)(line_end - line_start), text + line_start);
    for (size_t i = line_start; i < col; i++) {
        fputc(text[i] == '\t' ? '\t' : ' ', stderr);
    }
    fputs("^", stderr);
    for (uint32_t i = 1; i < e->length && col + i < line_end; i++) {
        fputc('~', stderr);
    }
    fputc('\n', stderr);
    if (e->expected[0]) {
        fprintf(stderr, "  expected: %s\n", e->expected);
    }
}

int cli_query_compile(const char *text, size_t len, pgn_query **out) {
    pgn_query_error e;
    pgn_status st = pgn_query_compile(out, text, len, NULL, &e);
    if (st == PGN_E_NOMEM) {
        cli_error(NULL, "out of memory");
        return EXIT_RESOURCE;
    }
    if (st != PGN_OK) {
        print_query_error(text, len, &e);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}
