/* SPDX-License-Identifier: MIT */
/* Compressed inputs (issue 16): the format of an input comes from its first bytes (RFC 1952
 * gzip, RFC 8878 zstd, bzip2, xz), decoded by the codec of zcodec.h; several gzip members, bzip2
 * streams, xz streams and zstd frames (skippable ones too) follow each other. Outputs: zout.c;
 * the frames of a zstd file: zframes.c; the first bytes: zmagic.c; archives: archive.c. */
#define _POSIX_C_SOURCE 200809L
#include "zcodec.h"
#include "zmagic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

enum { IN_CAP = 1 << 17, PEEK = 512, ZSTD_FEED = 1 << 14 };

struct cli_zin {
    FILE *f;
    cli_zformat fmt;
    unsigned char *in; /* IN_CAP bytes of the file: in[in_pos..in_len) not consumed yet */
    size_t in_pos, in_len;
    uint64_t in_off; /* offset in the file of in[0] */
    int in_eof;
    int ended;    /* the decoder ended a stream (gzip member, bzip2 stream, zstd frame) */
    int done;     /* 1: the end; -1: failed (err says why) */
    cli_zcodec c; /* the decoder */
    /* called when a stream (a zstd frame) ends: at in the file, after made more decoded bytes of
     * the current read */
    void (*on_end)(void *user, uint64_t at, size_t made);
    void *end_user;
    const char *archive;      /* what archive the bytes read are ("a zip archive"), for archive.c */
    unsigned char peek[PEEK]; /* decoded bytes read ahead to look at them */
    size_t peek_len, peek_pos;
    char err[240];
};

static const char *const format_names[] = {"plain", "gzip", "zstd", "bzip2", "xz"};

const char *cli_zformat_name(cli_zformat f) {
    return format_names[f];
}

/* ---- the input buffer ---- */

/* Makes at least n bytes available in in[in_pos..) unless the file ends first (n <= IN_CAP).
 * Returns 0, or -1 on a read error (z->err set). */
static int fill(cli_zin *z, size_t n) {
    if (z->in_len - z->in_pos >= n || z->in_eof) {
        return 0;
    }
    size_t keep = z->in_len - z->in_pos;
    memmove(z->in, z->in + z->in_pos, keep);
    z->in_off += z->in_pos;
    z->in_pos = 0;
    z->in_len = keep;
    while (z->in_len < n && !z->in_eof) {
        size_t got = fread(z->in + z->in_len, 1, IN_CAP - z->in_len, z->f);
        z->in_len += got;
        if (got == 0) {
            if (ferror(z->f)) {
                cli_set_msg(z->err, sizeof z->err, "read error at byte %llu: %s",
                            (unsigned long long)(z->in_off + z->in_len), strerror(errno));
                return -1;
            }
            z->in_eof = 1;
        }
    }
    return 0;
}

static uint64_t at_byte(const cli_zin *z) {
    return z->in_off + z->in_pos;
}

/* ---- decoders: one step each, from in[in_pos..in_len) into out ---- */

/* Sets z->err to "corrupt FORMAT data at byte N: why" and returns -1. */
static int corrupt(cli_zin *z, const char *why) {
    cli_set_msg(z->err, sizeof z->err, "corrupt %s data at byte %llu: %s", format_names[z->fmt],
                (unsigned long long)at_byte(z), why);
    return -1;
}

static int start_decoder(cli_zin *z) {
    if (!cli_zcodec_start(&z->c, z->fmt, 0)) {
        cli_set_msg(z->err, sizeof z->err, "out of memory");
        return -1;
    }
    return 0;
}

static void end_decoder(cli_zin *z) {
    cli_zcodec_end(&z->c);
}

/* One step of the decoder from in[in_pos..in_len) into out: 1 a stream ended, 0, or -1. zstd is
 * fed in small pieces, so that a failure (which leaves its input where it was) is placed within
 * ZSTD_FEED bytes after the point where the decoder found it. */
static int step(cli_zin *z, unsigned char *out, size_t cap, size_t *made) {
    size_t avail = z->in_len - z->in_pos;
    if (z->fmt == CLI_Z_ZSTD && avail > ZSTD_FEED) {
        avail = ZSTD_FEED;
    }
    cli_zstep x = {z->in + z->in_pos, avail, 0, out, cap, 0, z->in_eof, NULL};
    int r = cli_zcodec_step(&z->c, &x);
    z->in_pos += r == CLI_ZC_ERR && z->fmt == CLI_Z_ZSTD ? avail : x.used;
    *made = x.made;
    return r == CLI_ZC_ERR ? corrupt(z, x.why) : r == CLI_ZC_END;
}

/* After a stream ended with more bytes in the file: the next gzip member or bzip2 stream starts
 * (zstd frames follow each other in one decoder; xz does it itself). Anything else after the end
 * is an error: it is not the format's data. */
static int next_stream(cli_zin *z) {
    if (fill(z, 6) < 0) {
        return -1;
    }
    const cli_zmagic *m = cli_zmagic_find(z->in + z->in_pos, z->in_len - z->in_pos);
    if (m == NULL || m->fmt != (int)z->fmt) {
        cli_set_msg(z->err, sizeof z->err, "data that is not %s after the %s stream, at byte %llu",
                    format_names[z->fmt], format_names[z->fmt], (unsigned long long)at_byte(z));
        return -1;
    }
    if (z->fmt == CLI_Z_GZIP || z->fmt == CLI_Z_BZIP2) {
        end_decoder(z);
        return start_decoder(z);
    }
    return 0;
}

/* Decodes into out; > 0 bytes, 0 at the end, -1 on failure (z->err set). */
static ptrdiff_t decode_some(cli_zin *z, unsigned char *out, size_t cap) {
    for (;;) {
        if (z->done) {
            return z->done < 0 ? -1 : 0;
        }
        if (fill(z, 1) < 0) {
            z->done = -1;
            continue;
        }
        int empty = z->in_pos == z->in_len;
        if (z->ended && empty) {
            z->done = 1;
            continue;
        }
        if (z->ended) {
            z->ended = 0;
            if (next_stream(z) < 0) {
                z->done = -1;
                continue;
            }
        }
        size_t made = 0;
        int r = step(z, out, cap, &made);
        if (r < 0) {
            z->done = -1;
        } else if (r == 1) {
            z->ended = 1;
            if (z->on_end != NULL) {
                z->on_end(z->end_user, at_byte(z), made);
            }
        } else if (made == 0 && z->in_eof && z->in_pos == z->in_len) {
            cli_set_msg(z->err, sizeof z->err, "truncated %s data: the file ends at byte %llu",
                        format_names[z->fmt], (unsigned long long)at_byte(z));
            z->done = -1;
        }
        if (made > 0) {
            return (ptrdiff_t)made;
        }
    }
}

/* Copies what is left of src[*pos..len) into buf (up to cap bytes); the count. */
static ptrdiff_t take(const unsigned char *src, size_t *pos, size_t len, void *buf, size_t cap) {
    size_t n = len - *pos < cap ? len - *pos : cap;
    memcpy(buf, src + *pos, n);
    *pos += n;
    return (ptrdiff_t)n;
}

ptrdiff_t cli_zin_read(void *ctx, void *buf, size_t cap) {
    cli_zin *z = ctx;
    if (z->peek_pos < z->peek_len) {
        return take(z->peek, &z->peek_pos, z->peek_len, buf, cap);
    }
    if (z->fmt != CLI_Z_PLAIN) {
        return decode_some(z, buf, cap);
    }
    if (z->in_pos < z->in_len) {
        return take(z->in, &z->in_pos, z->in_len, buf, cap);
    }
    size_t got = fread(buf, 1, cap, z->f);
    z->in_off += got;
    if (got == 0 && ferror(z->f)) {
        cli_set_msg(z->err, sizeof z->err, "read error at byte %llu: %s",
                    (unsigned long long)z->in_off, strerror(errno));
        return -1;
    }
    return (ptrdiff_t)got;
}

pgn_status cli_zin_open(cli_zin **out, FILE *f, int plain, char *msg, size_t cap) {
    *out = NULL;
    cli_zin *z = calloc(1, sizeof *z);
    if (z == NULL || (z->in = malloc(IN_CAP)) == NULL) {
        free(z);
        cli_set_msg(msg, cap, "out of memory");
        return PGN_E_NOMEM;
    }
    z->f = f;
    if (fill(z, PEEK) < 0) {
        cli_set_msg(msg, cap, "%s", z->err);
        cli_zin_free(z);
        return PGN_E_IO;
    }
    const cli_zmagic *m = plain ? NULL : cli_zmagic_find(z->in, z->in_len);
    if (m != NULL && cli_zmagic_refuse(m, NULL, msg, cap) < 0) {
        cli_zin_free(z);
        return PGN_E_IO;
    }
    if (m == NULL || m->fmt < 0) {
        z->archive = m != NULL ? m->what : NULL;
        *out = z;
        return PGN_OK;
    }
    z->fmt = (cli_zformat)m->fmt;
    if (start_decoder(z) < 0) {
        cli_set_msg(msg, cap, "out of memory");
        cli_zin_free(z);
        return PGN_E_NOMEM;
    }
    /* the decoded text's first bytes: compressed again is refused, an archive (a .tar.gz) is
     * read by archive.c; a decoding failure this early is kept for the reader (it gets -1 after
     * these bytes) */
    ptrdiff_t n;
    while (z->peek_len < PEEK &&
           (n = decode_some(z, z->peek + z->peek_len, PEEK - z->peek_len)) > 0) {
        z->peek_len += (size_t)n;
    }
    const cli_zmagic *m2 = cli_zmagic_find(z->peek, z->peek_len);
    if (m2 != NULL && cli_zmagic_refuse(m2, format_names[z->fmt], msg, cap) < 0) {
        cli_zin_free(z);
        return PGN_E_IO;
    }
    z->archive = m2 != NULL ? m2->what : NULL;
    *out = z;
    return PGN_OK;
}

const char *cli_zin_error(const cli_zin *z) {
    return z->err[0] ? z->err : NULL;
}

int64_t cli_zin_seek(cli_zin *z, int64_t off, int whence) {
    struct stat sb;
    if (whence == SEEK_CUR) {
        off += (int64_t)at_byte(z);
        whence = SEEK_SET;
    }
    if (z->fmt != CLI_Z_PLAIN || fstat(fileno(z->f), &sb) != 0 || !S_ISREG(sb.st_mode) ||
        fseeko(z->f, (off_t)off, whence) != 0) {
        return -1;
    }
    off_t at = ftello(z->f);
    z->in_off = (uint64_t)at;
    z->in_pos = z->in_len = z->peek_len = z->peek_pos = 0;
    z->in_eof = 0;
    return (int64_t)at;
}

const char *cli_zin_archive(const cli_zin *z) {
    return z->archive;
}

cli_zformat cli_zin_format(const cli_zin *z) {
    return z->fmt;
}

uint64_t cli_zin_consumed(const cli_zin *z) {
    return at_byte(z);
}

void cli_zin_free(cli_zin *z) {
    if (z != NULL) {
        end_decoder(z);
        free(z->in);
        free(z);
    }
}

int cli_zin_restart(cli_zin *z, void (*on_end)(void *user, uint64_t at, size_t made), void *user,
                    char *msg, size_t cap) {
    /* decode again from the start, without the bytes read ahead to recognise the format */
    if (fseeko(z->f, 0, SEEK_SET) != 0) {
        cli_set_msg(msg, cap, "cannot seek: %s", strerror(errno));
        return -1;
    }
    end_decoder(z);
    z->in_pos = z->in_len = z->peek_len = z->peek_pos = 0;
    z->in_off = 0;
    z->in_eof = z->done = z->ended = 0;
    z->on_end = on_end;
    z->end_user = user;
    if (start_decoder(z) < 0) {
        cli_set_msg(msg, cap, "out of memory");
        return -1;
    }
    return 0;
}
