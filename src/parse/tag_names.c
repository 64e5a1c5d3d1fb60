/* SPDX-License-Identifier: MIT */
/* The tag names a game's tag section has had, for W_DUPLICATE_TAG (parse.h, pgnk_seen_tag): kept
 * exactly, the first 16 bytes of each as two words, the rest of a longer one in a buffer; a
 * one-word filter of their bits. Split from reader.c. */
#include "parse.h"

#include <string.h>

/* Bytes as little-endian words, whatever the machine's order (compilers make one load of it
 * where the order is little-endian). */
static uint64_t le64(const unsigned char *p) {
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

static uint64_t le32(const unsigned char *p) {
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
}

/* A tag name's first 16 bytes as two words, zeros past its end, read without a byte past it
 * (overlapping loads: byte k always lands at bits 8k to 8k + 7). */
static void name_words(const char *name, size_t n, uint64_t w[2]) {
    const unsigned char *p = (const unsigned char *)name;
    w[1] = 0;
    if (n >= 16) {
        w[0] = le64(p);
        w[1] = le64(p + 8);
    } else if (n >= 8) {
        w[0] = le64(p);
        w[1] = n > 8 ? le64(p + n - 8) >> (8 * (16 - n)) : 0;
    } else if (n >= 4) {
        w[0] = le32(p) | le32(p + n - 4) << (8 * (n - 4));
    } else {
        w[0] = n ? (uint64_t)p[0] | (uint64_t)p[n / 2] << (8 * (n / 2)) |
                       (uint64_t)p[n - 1] << (8 * (n - 1))
                 : 0;
    }
}

int pgnk_seen_tag(pgn_reader *r, const char *p, size_t n) {
    uint64_t w[2];
    name_words(p, n, w);
    uint64_t bit = (uint64_t)1 << ((((w[0] + w[1] * UINT64_C(0x9E3779B97F4A7C15)) ^ n) *
                                    UINT64_C(0xFF51AFD7ED558CCD)) >>
                                   58);
    r->tag_fresh = 0;
    for (unsigned i = 0; (r->tag_filter & bit) && i < r->tag_seen_count; i++) {
        if (r->tag_seen[i].w[0] == w[0] && r->tag_seen[i].w[1] == w[1] && r->tag_seen[i].len == n &&
            (n <= 16 || memcmp(r->tag_tails.ptr + r->tag_seen[i].tail, p + 16, n - 16) == 0)) {
            return 1;
        }
    }
    unsigned k = r->tag_seen_count;
    if (k < sizeof r->tag_seen / sizeof r->tag_seen[0]) {
        r->tag_seen[k].tail = r->tag_tails.len;
        if (n > 16 && !pgnk_scratch_put(r, &r->tag_tails, p + 16, n - 16)) {
            return 0;
        }
        r->tag_seen[k].w[0] = w[0];
        r->tag_seen[k].w[1] = w[1];
        r->tag_seen[k].len = n;
        r->tag_seen_count = k + 1;
        r->tag_filter |= bit;
        r->tag_fresh = 1; /* every earlier name was recorded too: certainly a new name */
    }
    return 0;
}
