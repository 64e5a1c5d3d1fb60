/* SPDX-License-Identifier: MIT */
/* Byte ranges of a source (source.h: pgn_source_range; issue 16's --range, from cli/input.c): a
 * plain file cut anywhere, with the line of the range's first byte counted so that diagnostics
 * give true line numbers; a zstd file cut at frame boundaries, turned into the frames' text
 * offsets (the frames before START are walked to learn them). */
#include "source_int.h"

#include <string.h>

/* The line number of byte at of s's file (LF, CRLF and a lone CR end a line; at the LF of a CRLF,
 * one less, as pgn_reader_opts.line_base wants it), reading from its start. 0 on a read error. */
static uint32_t line_of(pgn_source *s, uint64_t at) {
    unsigned char *buf = s->in; /* the input buffer: the decoding starts afresh after this */
    uint64_t breaks = 0, left = at + 1; /* the byte at itself: is a CR before it followed by LF? */
    int cr = 0;
    while (left > 0) {
        ptrdiff_t got = pgnk_raw_read(s, buf, left < PGNK_IN_CAP ? (size_t)left : PGNK_IN_CAP);
        if (got <= 0) {
            if (got < 0) {
                return 0;
            }
            break;
        }
        size_t n = (size_t)got;
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
    return breaks + 1 > UINT32_MAX ? UINT32_MAX : (uint32_t)(breaks + 1);
}

typedef struct frame_find {
    uint64_t start, end; /* the range in the file */
    uint64_t plain_total, last_line;
    pgn_reader_opts *ro;
    int found_start, found_end;
} frame_find;

static int find_frames(void *user, const pgn_frame *fr) {
    frame_find *ff = user;
    ff->plain_total = fr->text_offset + fr->text_size;
    ff->last_line = fr->line;
    if (fr->offset == ff->start) {
        ff->ro->range_start = fr->text_offset;
        ff->ro->line_base = (uint32_t)fr->line;
        ff->found_start = 1;
    }
    if (ff->end && fr->offset == ff->end) {
        ff->ro->range_end = fr->text_offset;
        ff->found_end = 1;
    }
    return ff->found_start && (ff->found_end || !ff->end);
}

/* A range of a zstd file: START and END must be frame boundaries; sets ro's text range. */
static pgn_status zstd_range(pgn_source *s, uint64_t start, uint64_t end, uint32_t line_base,
                             pgn_reader_opts *ro) {
    frame_find ff = {start, end, 0, 1, ro, 0, 0};
    ro->range_start = ro->range_end = 0;
    pgn_status st = pgn_source_frames(s, find_frames, &ff);
    if (st != PGN_OK) {
        return st;
    }
    uint64_t size = s->size;
    ff.found_end |= ff.end == size;
    ff.found_start |= ff.start == size;
    if (!ff.found_start || (ff.end && !ff.found_end)) {
        pgnk_source_fail(s,
                         "the range %llu:%llu: not frame boundaries of this zstd file (pgnkit "
                         "frames FILE lists them)",
                         (unsigned long long)start, (unsigned long long)end);
        return PGN_E_IO;
    }
    if (ff.start == size) { /* an empty range: nothing after the last frame */
        ro->range_start = ff.plain_total;
        ro->range_end = 0;
        ro->line_base = (uint32_t)ff.last_line;
    }
    /* frames without text (skippable ones) make an empty range (range_end 0 would be "to the
     * end") */
    s->empty = ff.end && ff.end < size && ro->range_end <= ro->range_start;
    if (line_base) {
        ro->line_base = line_base;
    }
    return PGN_OK;
}

pgn_status pgn_source_range(pgn_source *s, uint64_t start, uint64_t end, uint32_t line_base,
                            pgn_reader_opts *ro) {
    char msg[PGNK_ERR];
    pgn_format fmt = s->fmt;
    if (s->arc != NULL) {
        pgnk_source_fail(s,
                         "the range reads plain files and zstd files at frame boundaries, not %s",
                         s->archive);
        return PGN_E_IO;
    }
    if (s->no_range || pgnk_raw_seek(s, 0) < 0) {
        pgnk_source_fail(s, "the range needs a file (it reads from a byte offset)");
        return PGN_E_IO;
    }
    if (fmt != PGN_FORMAT_PLAIN && fmt != PGN_FORMAT_ZSTD) {
        pgnk_source_fail(s,
                         "the range reads plain files and zstd files at frame boundaries, not %s "
                         "data",
                         pgn_format_name(fmt));
        return PGN_E_IO;
    }
    pgn_status st = PGN_OK;
    if (fmt == PGN_FORMAT_ZSTD) {
        st = zstd_range(s, start, end, line_base, ro);
    } else {
        ro->range_start = start;
        ro->range_end = end;
        ro->line_base = line_base ? line_base : line_of(s, start);
    }
    pgnk_zreset(s);
    if (st != PGN_OK) {
        return st;
    }
    if (pgnk_raw_seek(s, start) < 0) {
        pgnk_source_fail(s, "cannot seek to byte %llu", (unsigned long long)start);
        return PGN_E_IO;
    }
    if ((st = pgnk_zstart(s, fmt == PGN_FORMAT_PLAIN, msg, sizeof msg)) != PGN_OK) {
        pgnk_source_fail(s, "%s", msg);
    }
    return st;
}
