/* SPDX-License-Identifier: MIT */
/* Opening inputs and printing diagnostics for the commands that read PGN (check, fmt, convert). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

FILE *cli_open_input(const char *path) {
    if (strcmp(path, "-") == 0) {
        return stdin;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "pgnkit: cannot open '%s': %s\n", path, strerror(errno));
    }
    return f;
}

void cli_close_input(FILE *f) {
    if (f && f != stdin) {
        fclose(f);
    }
}

static void json_string(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(out, "\\%c", c);
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
        } else {
            fputc(c, out);
        }
    }
    fputc('"', out);
}

/* Prints one diagnostic GCC-style, or as a JSON line when ctx->json. */
void cli_print_diag(void *ctx, const pgn_diag *d) {
    cli_diag_ctx *c = ctx;
    const char *sev = d->severity == PGN_SEV_ERROR ? "error" : "warning";
    const char *file = d->source ? d->source : "<stdin>";
    if (c->quiet_warnings && d->severity != PGN_SEV_ERROR) {
        return;
    }
    if (c->json) {
        fprintf(stderr, "{\"file\":");
        json_string(stderr, file);
        fprintf(stderr, ",\"line\":%u,\"column\":%u,\"offset\":%llu,\"game\":%llu,\"severity\":\"%s\",\"code\":\"%s\","
                        "\"message\":",
                d->at.line, d->at.column, (unsigned long long)d->at.offset, (unsigned long long)d->game, sev,
                pgn_status_name(d->code));
        json_string(stderr, pgn_status_message(d->code));
        fprintf(stderr, ",\"token\":");
        json_string(stderr, d->token);
        fprintf(stderr, "}\n");
        return;
    }
    fprintf(stderr, "%s:%u:%u: %s: %s", file, d->at.line, d->at.column, sev, pgn_status_message(d->code));
    if (d->token[0]) {
        fprintf(stderr, " '");
        for (const char *p = d->token; *p; p++) {
            fputc((unsigned char)*p < 0x20 ? ' ' : *p, stderr);
        }
        fprintf(stderr, "'");
    }
    fprintf(stderr, " [%s] (game %llu)\n", pgn_status_name(d->code), (unsigned long long)d->game);
}

int cli_parse_encoding(const char *name, pgn_encoding *out) {
    static const struct {
        const char *name;
        pgn_encoding enc;
    } names[] = {{"auto", PGN_ENC_AUTO},     {"utf-8", PGN_ENC_UTF8},   {"utf8", PGN_ENC_UTF8},
                 {"latin-1", PGN_ENC_LATIN1}, {"latin1", PGN_ENC_LATIN1}, {"iso-8859-1", PGN_ENC_LATIN1},
                 {"cp1252", PGN_ENC_CP1252}, {"windows-1252", PGN_ENC_CP1252}, {"cp437", PGN_ENC_CP437}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].enc;
            return 1;
        }
    }
    return 0;
}
