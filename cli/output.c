/* SPDX-License-Identifier: MIT */
/* Outputs of the program: standard output, or a stdio stream over the library's pgn_output (a
 * temporary file beside the target, mode kept, compressed by the name's extension, renamed over
 * the target only when complete: include/pgnkit/tempfile.h), with its messages. The inputs are
 * in input.c. */
#define _GNU_SOURCE /* fopencookie */
#include "cli.h"
#include "tempfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdio_ext.h> /* __fbufsize (glibc, musl) */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OUT_BUFFER = 1 << 20 };

/* Gives f a buffer of OUT_BUFFER bytes, malloc'd (kept in *keep, freed once f is closed):
 * setvbuf(f, NULL, _IOFBF, size) is not enough, glibc then ignores the size and uses the
 * file's block size, 4 KiB for a regular file or /dev/null (fmt wrote 22,156 4 KiB writes for
 * the 90 MB of the gnuchess book, each a system call). Standard output keeps its buffer to the
 * end of the process (reachable from stdout), and gets it once. A terminal keeps its line
 * buffering, so that a person sees each game as it is written. Out of memory: the default. */
static void big_buffer(FILE *f, char **keep) {
    if (isatty(fileno(f)) || __fbufsize(f) >= OUT_BUFFER) {
        return;
    }
    char *b = malloc(OUT_BUFFER);
    if (b && setvbuf(f, b, _IOFBF, OUT_BUFFER) == 0) {
        *keep = f == stdout ? NULL : b;
        return;
    }
    free(b);
    setvbuf(f, NULL, _IOFBF, 0);
}

static ssize_t cookie_write(void *cookie, const char *data, size_t len) {
    return pgn_output_write(cookie, data, len) < 0 ? -1 : (ssize_t)len;
}

int cli_output_open(cli_output *o, const char *path) {
    char msg[1024] = "";
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->file = stdout;
        big_buffer(stdout, &o->vbuf);
        return EXIT_OK;
    }
    const char *named = getenv("PGNKIT_NAMED_TEMP"); /* as macOS, vfat or NFS (for the tests) */
    pgn_output_opts opts = {.hooks = cli_temp_hooks};
    opts.flags = named && strcmp(named, "1") == 0 ? PGN_OUTPUT_NAMED_TEMP : 0;
    if (pgn_output_new(&o->out, &opts) == PGN_OK &&
        pgn_output_open(o->out, path, msg, sizeof msg) == PGN_OK) {
        cookie_io_functions_t io = {NULL, cookie_write, NULL, NULL};
        if ((o->file = fopencookie(o->out, "w", io)) != NULL) {
            big_buffer(o->file, &o->vbuf);
            return EXIT_OK;
        }
    }
    if (!msg[0]) { /* out of memory */
        snprintf(msg, sizeof msg, "cannot write '%s': %s", path, strerror(ENOMEM));
    }
    cli_error(o->out ? pgn_output_about(o->out) : NULL, "%s", msg);
    pgn_output_free(o->out); /* nothing written: no file left */
    memset(o, 0, sizeof *o);
    return EXIT_RESOURCE;
}

int cli_output_close(cli_output *o, int commit, int status) {
    char msg[1024];
    if (!o->file) {
        return status;
    }
    if (o->out) {
        fclose(o->file); /* its last bytes to the pgn_output, which keeps a failure */
        if (pgn_output_close(o->out, commit, msg, sizeof msg) != PGN_OK) {
            cli_error(NULL, "%s", msg);
            status = EXIT_RESOURCE;
        }
        pgn_output_free(o->out);
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error(NULL, "error writing standard output: %s", strerror(errno ? errno : EIO));
        status = EXIT_RESOURCE;
    }
    free(o->vbuf); /* f's, now closed (never stdout's) */
    memset(o, 0, sizeof *o);
    return status;
}

ptrdiff_t cli_output_write(void *ctx, const void *data, size_t len) {
    cli_output *o = ctx;
    return fwrite(data, 1, len, o->file) == len ? (ptrdiff_t)len : -1;
}

pgn_status cli_write_raw(FILE *f, const char *raw, size_t len) {
    if (!f || len == 0) {
        return PGN_OK;
    }
    int ok = fwrite(raw, 1, len, f) == len && (raw[len - 1] == '\n' || fputc('\n', f) != EOF);
    return ok ? PGN_OK : PGN_E_IO;
}
