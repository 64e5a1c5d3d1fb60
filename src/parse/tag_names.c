/* SPDX-License-Identifier: MIT */
/* The tag names a game's tag section has had, for W_DUPLICATE_TAG (parse.h, pgnk_seen_tag): the
 * common ones as bits of a word; the others kept exactly, the first 16 bytes of each as two words,
 * the rest of a longer one in a buffer, with a one-word filter of their bits. Split from
 * reader.c. */
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

/* The common tag names, each at its slot (the top 6 bits of name_slot's hash, which no two of
 * them share): a name found there is seen or not by one bit of r->tag_known, not compared. */
static const struct known_name {
    uint64_t w[2]; /* name_words */
    size_t len;    /* 0: no name */
} known[64] = {
    [2] = {{UINT64_C(0x6469466574696857), UINT64_C(0x644965)}, 11},          /* WhiteFideId */
    [5] = {{UINT64_C(0x6469466b63616c42), UINT64_C(0x644965)}, 11},          /* BlackFideId */
    [6] = {{UINT64_C(0x707954746e657645), UINT64_C(0x65)}, 9},               /* EventType */
    [7] = {{UINT64_C(0x7469546b63616c42), UINT64_C(0x656c)}, 10},            /* BlackTitle */
    [9] = {{UINT64_C(0x746e756f43796c50), UINT64_C(0x0)}, 8},                /* PlyCount */
    [15] = {{UINT64_C(0x0000007055746553), UINT64_C(0x0)}, 5},               /* SetUp */
    [21] = {{UINT64_C(0x7461526574696857), UINT64_C(0x66666944676e69)}, 15}, /* WhiteRatingDiff */
    [22] = {{UINT64_C(0x6f6c456574696857), UINT64_C(0x0)}, 8},               /* WhiteElo */
    [24] = {{UINT64_C(0x7461526b63616c42), UINT64_C(0x66666944676e69)}, 15}, /* BlackRatingDiff */
    [26] = {{UINT64_C(0x00000000004e4546), UINT64_C(0x0)}, 3},               /* FEN */
    [28] = {{UINT64_C(0x0000656372756f53), UINT64_C(0x0)}, 6},               /* Source */
    [29] = {{UINT64_C(0x000000746e657645), UINT64_C(0x0)}, 5},               /* Event */
    [32] = {{UINT64_C(0x0000006574696857), UINT64_C(0x0)}, 5},               /* White */
    [35] = {{UINT64_C(0x0000006b63616c42), UINT64_C(0x0)}, 5},               /* Black */
    [36] = {{UINT64_C(0x7469546574696857), UINT64_C(0x656c)}, 10},           /* WhiteTitle */
    [38] = {{UINT64_C(0x0000000065746144), UINT64_C(0x0)}, 4},               /* Date */
    [39] = {{UINT64_C(0x000000646e756f52), UINT64_C(0x0)}, 5},               /* Round */
    [40] = {{UINT64_C(0x74616e696d726554), UINT64_C(0x6e6f69)}, 11},         /* Termination */
    [43] = {{UINT64_C(0x746e6f43656d6954), UINT64_C(0x6c6f72)}, 11},         /* TimeControl */
    [44] = {{UINT64_C(0x0000000065746953), UINT64_C(0x0)}, 4},               /* Site */
    [45] = {{UINT64_C(0x6165546574696857), UINT64_C(0x6d)}, 9},              /* WhiteTeam */
    [46] = {{UINT64_C(0x00746e6169726156), UINT64_C(0x0)}, 7},               /* Variant */
    [47] = {{UINT64_C(0x6f7461746f6e6e41), UINT64_C(0x72)}, 9},              /* Annotator */
    [48] = {{UINT64_C(0x6165546b63616c42), UINT64_C(0x6d)}, 9},              /* BlackTeam */
    [50] = {{UINT64_C(0x746144746e657645), UINT64_C(0x65)}, 9},              /* EventDate */
    [51] = {{UINT64_C(0x0065746144435455), UINT64_C(0x0)}, 7},               /* UTCDate */
    [52] = {{UINT64_C(0x00000000004f4345), UINT64_C(0x0)}, 3},               /* ECO */
    [54] = {{UINT64_C(0x0000746c75736552), UINT64_C(0x0)}, 6},               /* Result */
    [56] = {{UINT64_C(0x00656d6954435455), UINT64_C(0x0)}, 7},               /* UTCTime */
    [57] = {{UINT64_C(0x6f6c456b63616c42), UINT64_C(0x0)}, 8},               /* BlackElo */
    [60] = {{UINT64_C(0x6f69746169726156), UINT64_C(0x6e)}, 9},              /* Variation */
    [63] = {{UINT64_C(0x00676e696e65704f), UINT64_C(0x0)}, 7},               /* Opening */
};

/* The slot of a name of n bytes whose first 16 bytes are w (name_words). */
static inline unsigned name_slot(const uint64_t w[2], size_t n) {
    return (unsigned)((((w[0] + w[1] * UINT64_C(0x9E3779B97F4A7C15)) ^ n) *
                       UINT64_C(0x400B3B8230390365)) >>
                      58);
}

/* A name that is not a common one (pgnk_seen_tag), out of line: the common ones' path then saves
 * no registers. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static int
seen_other(pgn_reader *r, const char *p, size_t n, const uint64_t w[2], uint64_t bit) {
    r->tag_slot = PGNK_SLOT_NONE;
    for (unsigned i = 0; (r->tag_filter & bit) && i < r->tag_other_count; i++) {
        if (r->tag_seen[i].w[0] == w[0] && r->tag_seen[i].w[1] == w[1] && r->tag_seen[i].len == n &&
            (n <= 16 || memcmp(r->tag_tails.ptr + r->tag_seen[i].tail, p + 16, n - 16) == 0)) {
            return 1;
        }
    }
    unsigned i = r->tag_other_count;
    if (r->tag_seen_count < PGNK_SEEN_TAGS) {
        r->tag_seen[i].tail = r->tag_tails.len;
        if (n > 16 && !pgnk_scratch_put(r, &r->tag_tails, p + 16, n - 16)) {
            return 0;
        }
        r->tag_seen[i].w[0] = w[0];
        r->tag_seen[i].w[1] = w[1];
        r->tag_seen[i].len = n;
        r->tag_other_count = i + 1;
        r->tag_seen_count++;
        r->tag_filter |= bit;
        r->tag_fresh = 1; /* every earlier name was recorded too: certainly a new name */
    }
    return 0;
}

int pgnk_seen_tag(pgn_reader *r, const char *p, size_t n) {
    uint64_t w[2];
    name_words(p, n, w);
    unsigned slot = name_slot(w, n);
    uint64_t bit = (uint64_t)1 << slot;
    const struct known_name *k = &known[slot];
    r->tag_fresh = 0;
    if (k->w[0] != w[0] || k->w[1] != w[1] || k->len != n || n == 0) {
        return seen_other(r, p, n, w, bit);
    }
    r->tag_slot = (uint8_t)slot;
    if (r->tag_known & bit) {
        return 1;
    }
    if (r->tag_seen_count < PGNK_SEEN_TAGS) { /* within the first 64 names, as any other */
        r->tag_known |= bit;
        r->tag_seen_count++;
        r->tag_fresh = 1;
    }
    return 0;
}
