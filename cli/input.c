/* SPDX-License-Identifier: MIT */
/* Inputs of the program: the one function that opens an input (a file, stdin, a compressed
 * stream: cli/compress.c), --range on it, and the names of the input encodings. The outputs are
 * in output.c. */
#define _POSIX_C_SOURCE 200809L
#include "archive.h"
#include "cli.h"
#include "compress.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_range_option(int line_base, const char *arg, pgn_reader_opts *ro) {
    char *end;
    errno = 0;
    if (line_base) {
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
    cli_input *s;
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
static int zstd_range(cli_input *s, const pgn_reader_opts *ro, char *msg, size_t cap) {
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

/* Positions s at the start of ro's byte range (cli_input_open). Returns 1, or 0 with msg. */
static int seek_range(cli_input *s, const pgn_reader_opts *ro, char *msg, size_t cap) {
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

int cli_input_next(cli_input *in) {
    char skipped[200] = "";
    for (int k; in->arc != NULL && (k = cli_arc_next(in->arc)) != CLI_ARC_END;) {
        const char *m = cli_arc_member(in->arc);
        if (k == CLI_ARC_ERROR) {
            cli_error(in->outer, "%s", cli_arc_error(in->arc));
            return -1;
        }
        if (k == CLI_ARC_SKIPPED) { /* named below if no member is read at all */
            size_t used = strlen(skipped);
            if (in->skipped++ < 3) {
                snprintf(skipped + used, sizeof skipped - used, "%s%s", used ? ", " : "", m);
            }
            continue;
        }
        char *name = malloc(strlen(in->outer) + strlen(m) + 3);
        if (name == NULL) {
            cli_error(in->outer, "out of memory");
            return -1;
        }
        sprintf(name, "%s(%s)", in->outer, m);
        free(in->member);
        in->name = in->member = name;
        in->read = cli_arc_read;
        in->ctx = in->arc;
        in->members++;
        return 1;
    }
    if (in->arc != NULL && in->members == 0) {
        cli_error(in->outer, "no member named *%s in %s%s%s%s", in->kind, cli_zin_archive(in->z),
                  in->skipped ? " (it holds " : "", skipped,
                  in->skipped > 3 ? ", ...)"
                  : in->skipped   ? ")"
                                  : "");
        return -1;
    }
    return 0;
}

/* The archive in->z holds, at its first member to read. */
static int open_archive(cli_input *in, int json) {
    static const char *const pgn_ext[] = {".pgn", NULL};
    static const char *const json_ext[] = {".json", ".jsonl", ".ndjson", NULL};
    const char *const *exts = json ? json_ext : pgn_ext;
    char msg[300];
    in->kind = exts[0];
    in->outer = in->name;
    if (cli_arc_open(&in->arc, in->z, exts, msg, sizeof msg) != PGN_OK) {
        cli_error(in->name, "%s: %s", cli_zin_archive(in->z), msg);
        return EXIT_RESOURCE;
    }
    return cli_input_next(in) == 1 ? EXIT_OK : EXIT_RESOURCE;
}

int cli_input_open(cli_input *in, const char *path, int json) {
    char msg[300];
    memset(in, 0, sizeof *in);
    in->path = path;
    if (strcmp(path, "-") == 0) {
        in->name = "<stdin>";
        in->file = stdin;
    } else {
        in->name = path;
        in->file = fopen(path, "rb");
        struct stat sb;
        int err = errno;
        if (in->file && fstat(fileno(in->file), &sb) == 0 && S_ISDIR(sb.st_mode)) {
            fclose(in->file);
            in->file = NULL;
            err = EISDIR;
        }
        if (!in->file) {
            cli_error(path, "%s", strerror(err));
            return EXIT_RESOURCE;
        }
    }
    /* plain or compressed: told by the first bytes (cli/compress.c) */
    if (cli_zin_open(&in->z, in->file, 0, msg, sizeof msg) != PGN_OK) {
        cli_error(in->name, "%s", msg);
        cli_input_close(in);
        return EXIT_RESOURCE;
    }
    in->read = cli_zin_read;
    in->ctx = in->z;
    if (cli_zin_archive(in->z) && open_archive(in, json) != EXIT_OK) {
        cli_input_close(in);
        return EXIT_RESOURCE;
    }
    return EXIT_OK;
}

int cli_input_range(cli_input *in, const pgn_reader_opts *ro) {
    char msg[300];
    if (in->arc != NULL) {
        cli_error(in->outer, "--range reads plain files and zstd files at frame boundaries, not %s",
                  cli_zin_archive(in->z));
        return EXIT_RESOURCE;
    }
    if (!seek_range(in, ro, msg, sizeof msg)) {
        cli_error(in->name, "%s", msg);
        return EXIT_RESOURCE;
    }
    in->read = cli_zin_read;
    in->ctx = in->z;
    return EXIT_OK;
}

const char *cli_input_error(const cli_input *in) {
    const char *why = in->z ? cli_zin_error(in->z) : NULL;
    return why == NULL && in->arc != NULL ? cli_arc_error(in->arc) : why;
}

void cli_input_close(cli_input *in) {
    cli_arc_free(in->arc);
    in->arc = NULL;
    free(in->member);
    in->member = NULL;
    cli_zin_free(in->z);
    in->z = NULL;
    if (in->file && in->file != stdin) {
        fclose(in->file);
    }
    in->file = NULL;
}
