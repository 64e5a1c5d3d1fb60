/* SPDX-License-Identifier: MIT */
/* Opening inputs and printing diagnostics for the commands that read PGN (check, fmt, convert). */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "compress.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

int cli_range_option(int ch, const char *arg, pgn_reader_opts *ro) {
    char *end;
    errno = 0;
    if (ch == CLI_OPT_LINE_BASE) {
        unsigned long long n = strtoull(arg, &end, 10);
        ro->line_base = (uint32_t)n;
        return errno == 0 && *end == 0 && n >= 1 && n <= UINT32_MAX && arg[0] != '-';
    }
    unsigned long long a = strtoull(arg, &end, 10), b = 0;
    if (end == arg || *end != ':' || arg[0] == '-' || errno != 0) {
        return 0;
    }
    const char *p = end + 1;
    if (*p != 0) {
        b = strtoull(p, &end, 10);
        if (end == p || *end != 0 || *p == '-' || errno != 0 || b <= a) {
            return 0;
        }
    }
    ro->range_start = a;
    ro->range_end = b;
    return 1;
}

/* The line number of byte at of f (LF, CRLF and a lone CR end a line; at the LF of a CRLF, one
 * less, as pgn_reader_opts.line_base wants it), reading f from its start. 0 on a read error. */
static uint32_t line_of(FILE *f, uint64_t at) {
    unsigned char buf[1 << 16];
    uint64_t breaks = 0, left = at + 1; /* the byte at itself: is a CR before it followed by LF? */
    int cr = 0;
    while (left > 0) {
        size_t n = fread(buf, 1, left < sizeof buf ? (size_t)left : sizeof buf, f);
        if (n == 0) {
            break;
        }
        size_t upto = n == left ? n - 1 : n; /* breaks before the byte at */
        for (size_t i = 0; i < n; i++) {
            if (cr && buf[i] != '\n') {
                breaks++;
            }
            cr = buf[i] == '\r';
            breaks += buf[i] == '\n' && i < upto;
        }
        left -= n;
    }
    if (ferror(f)) {
        return 0;
    }
    return breaks + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(breaks + 1);
}

typedef struct frame_find {
    uint64_t start, end; /* --range in the file */
    uint64_t plain_total, last_line;
    cli_source *s;
    int found_start, found_end;
} frame_find;

static int find_frames(void *user, const cli_zframe *fr) {
    frame_find *ff = user;
    ff->plain_total = fr->plain_offset + fr->plain_size;
    ff->last_line = fr->line;
    if (fr->offset == ff->start) {
        ff->s->range_start = fr->plain_offset;
        ff->s->line_base = (uint32_t)fr->line;
        ff->found_start = 1;
    }
    if (ff->end && fr->offset == ff->end) {
        ff->s->range_end = fr->plain_offset;
        ff->found_end = 1;
    }
    return ff->found_start && (ff->found_end || !ff->end);
}

/* --range on a zstd file: START and END must be frame boundaries; sets the plain range. */
static int zstd_range(cli_source *s, const pgn_reader_opts *ro, char *msg, size_t cap) {
    frame_find ff = {ro->range_start, ro->range_end, 0, 1, s, 0, 0};
    if (cli_zstd_frames(s->file, find_frames, &ff, msg, cap) < 0) {
        return 0;
    }
    uint64_t size = (uint64_t)(fseeko(s->file, 0, SEEK_END) == 0 ? ftello(s->file) : 0);
    ff.found_end |= ff.end == size;
    ff.found_start |= ff.start == size;
    if (!ff.found_start || (ff.end && !ff.found_end)) {
        snprintf(msg, cap,
                 "--range %llu:%llu: not frame boundaries of this zstd file (pgnkit "
                 "frames FILE lists them)",
                 (unsigned long long)ro->range_start, (unsigned long long)ro->range_end);
        return 0;
    }
    if (ff.start == size) { /* an empty range: nothing after the last frame */
        s->range_start = ff.plain_total;
        s->range_end = 0;
        s->line_base = (uint32_t)ff.last_line;
    }
    /* frames without text (skippable ones) make an empty range (range_end 0 would be "to the end")
     */
    s->empty = ff.end && ff.end < size && s->range_end <= s->range_start;
    if (ro->line_base) {
        s->line_base = ro->line_base;
    }
    return 1;
}

/* Positions s at the start of ro's byte range (cli_source_open). Returns 1, or 0 with msg. */
static int seek_range(cli_source *s, const pgn_reader_opts *ro, char *msg, size_t cap) {
    cli_zformat fmt = cli_zin_format(s->z);
    cli_zin_free(s->z);
    s->z = NULL;
    if (s->file == stdin || fseeko(s->file, 0, SEEK_SET) != 0) {
        snprintf(msg, cap, "--range needs a file (it reads from a byte offset)");
        return 0;
    }
    if (fmt == CLI_Z_ZSTD) {
        if (!zstd_range(s, ro, msg, cap)) {
            return 0;
        }
    } else if (fmt != CLI_Z_PLAIN) {
        snprintf(msg, cap,
                 "--range reads plain files and zstd files at frame boundaries, not %s "
                 "data",
                 cli_zformat_name(fmt));
        return 0;
    } else {
        s->range_start = ro->range_start;
        s->range_end = ro->range_end;
        s->line_base = ro->line_base ? ro->line_base : line_of(s->file, s->range_start);
    }
    uint64_t at = fmt == CLI_Z_ZSTD ? ro->range_start : s->range_start;
    if (fseeko(s->file, (off_t)at, SEEK_SET) != 0) {
        snprintf(msg, cap, "cannot seek to byte %llu: %s", (unsigned long long)at, strerror(errno));
        return 0;
    }
    return cli_zin_open(&s->z, s->file, fmt == CLI_Z_PLAIN, msg, cap) == PGN_OK;
}

int cli_source_open(cli_source *s, const char *path, const pgn_reader_opts *ro) {
    char msg[300];
    memset(s, 0, sizeof *s);
    s->name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    s->file = cli_open_input(path);
    if (s->file == NULL) {
        return 0;
    }
    if (cli_zin_open(&s->z, s->file, 0, msg, sizeof msg) != PGN_OK ||
        ((ro->range_start || ro->range_end) && !seek_range(s, ro, msg, sizeof msg))) {
        fprintf(stderr, "pgnkit: %s: %s\n", s->name, msg);
        cli_source_close(s);
        return 0;
    }
    return 1;
}

static ptrdiff_t read_nothing(void *ctx, void *buf, size_t cap) {
    (void)ctx;
    (void)buf;
    (void)cap;
    return 0;
}

pgn_status cli_source_reader(cli_source *s, const pgn_reader_opts *ro, pgn_reader **r) {
    pgn_reader_opts o = *ro;
    if (s->empty) {
        return pgn_reader_new(r, &o, read_nothing, NULL);
    }
    o.source_name = s->name;
    o.range_start = s->range_start;
    o.range_end = s->range_end;
    o.line_base = s->line_base;
    return pgn_reader_new(r, &o, cli_zin_read, s->z);
}

int cli_source_failed(const cli_source *s, pgn_status st) {
    const char *why = st == PGN_E_IO && s->z ? cli_zin_error(s->z) : NULL;
    fprintf(stderr, "pgnkit: %s: %s\n", s->name, why ? why : pgn_status_message(st));
    return EXIT_RESOURCE;
}

void cli_source_close(cli_source *s) {
    cli_zin_free(s->z);
    s->z = NULL;
    cli_close_input(s->file);
    s->file = NULL;
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
        fprintf(stderr,
                ",\"line\":%u,\"column\":%u,\"offset\":%llu,\"game\":%llu,\"severity\":\"%s\","
                "\"code\":\"%s\","
                "\"message\":",
                d->at.line, d->at.column, (unsigned long long)d->at.offset,
                (unsigned long long)d->game, sev, pgn_status_name(d->code));
        json_string(stderr, pgn_status_message(d->code));
        fprintf(stderr, ",\"token\":");
        json_string(stderr, d->token);
        fprintf(stderr, "}\n");
        return;
    }
    fprintf(stderr, "%s:%u:%u: %s: %s", file, d->at.line, d->at.column, sev,
            pgn_status_message(d->code));
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
    } names[] = {{"auto", PGN_ENC_AUTO},     {"utf-8", PGN_ENC_UTF8},
                 {"utf8", PGN_ENC_UTF8},     {"latin-1", PGN_ENC_LATIN1},
                 {"latin1", PGN_ENC_LATIN1}, {"iso-8859-1", PGN_ENC_LATIN1},
                 {"cp1252", PGN_ENC_CP1252}, {"windows-1252", PGN_ENC_CP1252},
                 {"cp437", PGN_ENC_CP437}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            *out = names[i].enc;
            return 1;
        }
    }
    return 0;
}

int cli_open_output(cli_output *o, const char *path) {
    char msg[200];
    o->path = path && strcmp(path, "-") != 0 ? path : NULL;
    o->file = o->under = o->path ? fopen(o->path, "wb") : stdout;
    if (!o->file) {
        fprintf(stderr, "pgnkit: cannot write '%s': %s\n", path, strerror(errno));
        return 0;
    }
    setvbuf(o->file, NULL, _IOFBF, 1 << 20);
    o->file = cli_zout_open(o->under, cli_zformat_of_name(o->path), msg, sizeof msg);
    if (o->file == NULL) {
        fprintf(stderr, "pgnkit: %s: %s\n", o->path ? o->path : "standard output", msg);
        if (o->path) {
            fclose(o->under);
            remove(o->path); /* nothing was written: leave no empty file */
        }
        return 0;
    }
    return 1;
}

int cli_close_output(cli_output *o, int status) {
    int bad = fflush(o->file) != 0 || ferror(o->file);
    bad |= cli_zout_close(o->file, o->under) != 0;
    o->file = o->under;
    bad |= fflush(o->file) != 0 || ferror(o->file);
    if (o->path && fclose(o->file) != 0) {
        bad = 1;
    }
    if (bad) {
        fprintf(stderr, "pgnkit: error writing %s: %s\n", o->path ? o->path : "standard output",
                strerror(errno));
        return EXIT_RESOURCE;
    }
    return status;
}

ptrdiff_t cli_write_file(void *ctx, const void *data, size_t len) {
    return fwrite(data, 1, len, ctx) == len ? (ptrdiff_t)len : -1;
}

ptrdiff_t cli_membuf_write(void *ctx, const void *data, size_t len) {
    cli_membuf *b = ctx;
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap < b->len + len) {
            cap *= 2;
        }
        char *p = realloc(b->p, cap);
        if (!p) {
            return -1;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, len);
    b->len += len;
    return (ptrdiff_t)len;
}

/* One step of reading: the next game of r through ctx; PGN_OK to go on. */
typedef pgn_status (*read_step)(pgn_reader *r, void *ctx);

/* Reads every file (none: stdin) with step until it stops; adds the games, errors and warnings
 * to totals; returns the exit status (1 if any error). */
static int read_inputs(int nfiles, char **files, const pgn_reader_opts *ropts, read_step step,
                       void *ctx, uint64_t totals[3]) {
    static char dash[] = "-";
    char *stdin_only[] = {dash};
    int status = EXIT_OK;
    if (nfiles <= 0) {
        files = stdin_only;
        nfiles = 1;
    }
    for (int i = 0; i < nfiles && status != EXIT_RESOURCE; i++) {
        cli_source in;
        if (!cli_source_open(&in, files[i], ropts)) {
            status = EXIT_RESOURCE;
            break;
        }
        pgn_reader *r;
        if (cli_source_reader(&in, ropts, &r) != PGN_OK) {
            cli_source_close(&in);
            fprintf(stderr, "pgnkit: out of memory\n");
            return EXIT_RESOURCE;
        }
        pgn_status st;
        while ((st = step(r, ctx)) == PGN_OK) {
        }
        uint64_t g, e, w;
        pgn_reader_totals(r, &g, &e, &w);
        totals[0] += g;
        totals[1] += e;
        totals[2] += w;
        pgn_reader_free(r);
        if (st != PGN_END && st != PGN_E_LIMIT) {
            status = cli_source_failed(&in, st);
        } else if (st == PGN_E_LIMIT) {
            status = EXIT_INPUT;
        }
        cli_source_close(&in);
    }
    if (status == EXIT_OK && totals[1]) {
        status = EXIT_INPUT;
    }
    return status;
}

typedef struct visit_ctx {
    const pgn_visitor *v;
    void *user;
} visit_ctx;

static pgn_status visit_step(pgn_reader *r, void *ctx) {
    visit_ctx *c = ctx;
    return pgn_reader_visit(r, c->v, c->user);
}

int cli_for_each_input(int nfiles, char **files, const pgn_reader_opts *ropts, const pgn_visitor *v,
                       void *user, uint64_t totals[3]) {
    visit_ctx c = {v, user};
    return read_inputs(nfiles, files, ropts, visit_step, &c, totals);
}

typedef struct game_ctx {
    pgn_game *g;
    cli_game_fn fn;
    void *user;
} game_ctx;

static pgn_status game_step(pgn_reader *r, void *ctx) {
    game_ctx *c = ctx;
    pgn_status st = pgn_reader_next(r, c->g);
    return st == PGN_OK ? c->fn(c->user, c->g) : st;
}

int cli_for_each_game(int nfiles, char **files, const pgn_reader_opts *ropts, cli_game_fn fn,
                      void *user, uint64_t totals[3]) {
    game_ctx c = {NULL, fn, user};
    if (pgn_game_new(&c.g, NULL) != PGN_OK) {
        fprintf(stderr, "pgnkit: out of memory\n");
        return EXIT_RESOURCE;
    }
    int status = read_inputs(nfiles, files, ropts, game_step, &c, totals);
    pgn_game_free(c.g);
    return status;
}
