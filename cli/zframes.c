/* SPDX-License-Identifier: MIT */
/* The frames of a zstd file (pgnkit frames, --range on zstd files): the file decoded once, each
 * frame's place in the file and in the text and the line of its first byte. */
#include "zcodec.h"

#include <stdlib.h>
#include <string.h>

enum { OUT_CAP = 1 << 16 };

typedef struct frame_walk {
    cli_zframe fr;
    uint64_t plain;  /* decoded bytes so far */
    uint64_t breaks; /* line breaks so far (a CR waiting for its LF not yet) */
    int cr;          /* the last byte was a CR */
    size_t made;     /* decoded bytes of the current read that end the frame */
    int ended, stop;
    cli_zframe_fn fn;
    void *user;
} frame_walk;

/* Counts the line breaks of p[0..n): LF, CRLF and a lone CR are one each. */
static void count_breaks(frame_walk *w, const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (w->cr && p[i] != '\n') {
            w->breaks++; /* a lone CR */
        }
        w->cr = p[i] == '\r';
        w->breaks += p[i] == '\n';
    }
    w->plain += n;
}

/* The frame ends here (its decoded bytes all counted): report it, start the next. */
static void finish_frame(frame_walk *w) {
    w->fr.plain_size = w->plain - w->fr.plain_offset;
    w->fr.skippable = w->fr.plain_size == 0;
    w->stop = w->stop || w->fn(w->user, &w->fr) != 0;
    w->fr.offset += w->fr.size;
    w->fr.plain_offset = w->plain;
    w->fr.line = w->breaks + 1;
}

static void frame_end(void *user, uint64_t at, size_t made) {
    frame_walk *w = user;
    w->fr.size = at - w->fr.offset;
    if (made == 0) {
        finish_frame(w); /* the read goes on: nothing of it belongs to this frame */
    } else {
        w->made = made; /* the read returns these bytes now: the caller counts them first */
        w->ended = 1;
    }
}

int cli_zstd_frames(FILE *f, cli_zframe_fn fn, void *user, char *msg, size_t cap) {
    cli_zin *z;
    if (cli_zin_open(&z, f, 0, msg, cap) != PGN_OK) {
        return -1;
    }
    if (cli_zin_format(z) != CLI_Z_ZSTD) {
        cli_set_msg(msg, cap, "not a zstd file");
        cli_zin_free(z);
        return -1;
    }
    frame_walk w;
    memset(&w, 0, sizeof w);
    w.fr.line = 1;
    w.fn = fn;
    w.user = user;
    unsigned char *buf = malloc(OUT_CAP);
    int status = buf && cli_zin_restart(z, frame_end, &w, msg, cap) == 0 ? 0 : -1;
    if (buf == NULL) {
        cli_set_msg(msg, cap, "out of memory");
    }
    while (status == 0 && !w.stop) {
        ptrdiff_t n = cli_zin_read(z, buf, OUT_CAP);
        if (n < 0) {
            cli_set_msg(msg, cap, "%s", cli_zin_error(z));
            status = -1;
        } else if (n == 0) {
            break;
        } else if (w.ended) {
            w.ended = 0;
            count_breaks(&w, buf, w.made);
            finish_frame(&w);
            count_breaks(&w, buf + w.made, (size_t)n - w.made);
        } else {
            count_breaks(&w, buf, (size_t)n);
        }
    }
    free(buf);
    cli_zin_free(z);
    return status < 0 ? -1 : w.stop;
}
