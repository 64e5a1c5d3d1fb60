/* SPDX-License-Identifier: MIT */
/* The frames of a zstd source (source.h: pgn_source_frames, and ranges of a zstd file): the file
 * decoded once, each frame's place in the file and in the text and the line of its first byte. */
#include "source_int.h"

#include "../base/alloc.h"

#include <string.h>

enum { OUT_CAP = 1 << 16 };

typedef struct frame_walk {
    pgn_frame fr;
    uint64_t plain;  /* decoded bytes so far */
    uint64_t breaks; /* line breaks so far (a CR waiting for its LF not yet) */
    int cr;          /* the last byte was a CR */
    size_t made;     /* decoded bytes of the current read that end the frame */
    int ended, stop;
    pgn_frame_fn fn;
    void *user;
} frame_walk;

/* Counts the line breaks of p[0..n): LF, CRLF and a lone CR are one each. */
static void count_breaks(frame_walk *w, const unsigned char *p, size_t n) {
    if (n > 0 && w->cr && p[0] == '\n' && w->plain == w->fr.text_offset) {
        w->fr.line--; /* the frame starts at the LF of a CRLF: on the CR's line */
    }
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
    w->fr.text_size = w->plain - w->fr.text_offset;
    w->fr.skippable = w->fr.text_size == 0;
    w->stop = w->stop || w->fn(w->user, &w->fr) != 0;
    w->fr.offset += w->fr.size;
    w->fr.text_offset = w->plain;
    w->fr.line = w->breaks + 1 + (uint64_t)w->cr; /* after a CR, unless an LF comes next */
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

pgn_status pgn_source_frames(pgn_source *s, pgn_frame_fn fn, void *user) {
    if (s->fmt != PGN_FORMAT_ZSTD || s->arc != NULL) {
        pgnk_source_fail(s, "not a zstd file");
        return PGN_E_IO;
    }
    frame_walk w;
    memset(&w, 0, sizeof w);
    w.fr.line = 1;
    w.fn = fn;
    w.user = user;
    unsigned char *buf = pgnk_malloc(&s->alloc, OUT_CAP);
    pgn_status st = buf == NULL                            ? PGN_E_NOMEM
                    : pgnk_zrestart(s, frame_end, &w) == 0 ? PGN_OK
                                                           : PGN_E_IO;
    if (buf == NULL) {
        pgnk_source_fail(s, "out of memory");
    }
    while (st == PGN_OK && !w.stop) {
        ptrdiff_t n = pgnk_zread(s, buf, OUT_CAP);
        if (n < 0) {
            st = PGN_E_IO;
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
    pgnk_free(&s->alloc, buf);
    s->on_end = NULL;
    return st;
}
