/* SPDX-License-Identifier: MIT */
/* src/base/bits.h (popcount, ctz, clz, bswap) against plain one-bit-at-a-time loops, on every
 * single bit, every run of ones, their complements and a million pseudo-random words of every
 * density. Built as it is (the POPCNT instruction chosen at run time on x86-64) and, through
 * test_bits_plain.c, with PGNKIT_PLAIN_BITS (the portable C code). */
#include "harness.h"

#include "../../src/base/bits.h"

#include <stdint.h>

static unsigned ref_popcount(uint64_t b) {
    unsigned n = 0;
    for (unsigned i = 0; i < 64; i++) {
        n += (unsigned)(b >> i) & 1u;
    }
    return n;
}

static unsigned ref_ctz(uint64_t b) {
    unsigned i = 0;
    while (!((b >> i) & 1u)) {
        i++;
    }
    return i;
}

static unsigned ref_clz(uint64_t b) {
    unsigned i = 0;
    while (!((b >> (63 - i)) & 1u)) {
        i++;
    }
    return i;
}

static uint64_t ref_bswap(uint64_t b) {
    uint64_t r = 0;
    for (unsigned i = 0; i < 8; i++) {
        r |= ((b >> (8 * i)) & 0xffu) << (8 * (7 - i));
    }
    return r;
}

static unsigned long bad;

static void one(uint64_t b) {
    int ok = bits_popcount(b) == ref_popcount(b) && bits_bswap(b) == ref_bswap(b) &&
             bits_many(b) == (ref_popcount(b) > 1);
    if (b) {
        uint64_t c = b;
        ok = ok && bits_ctz(b) == ref_ctz(b) && bits_clz(b) == ref_clz(b) &&
             bits_pop(&c) == ref_ctz(b) && c == (b & (b - 1));
    }
    if (!ok && bad++ < 10) {
        harness_fail(__FILE__, __LINE__, "bits of 0x%016" PRIx64 " differ from the reference", b);
    }
}

static void test_bits(void) {
    one(0);
    for (unsigned i = 0; i < 64; i++) {
        for (unsigned j = i; j < 64; j++) {
            uint64_t run = (bits_sq(j) - bits_sq(i)) | bits_sq(j); /* bits i..j */
            one(run);
            one(~run);
            one(bits_sq(i) | bits_sq(j));
        }
    }
    uint64_t s = UINT64_C(0x9e3779b97f4a7c15);
    for (unsigned n = 0; n < 1000000; n++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        uint64_t t = s * UINT64_C(0x2545f4914f6cdd1d);
        switch (n & 3) { /* sparse, dense and even words */
        case 0: one(s & t); break;
        case 1: one(s | t); break;
        case 2: one(s & t & (t >> 7)); break;
        default: one(s); break;
        }
    }
    CHECK_EQ_INT(bad, 0);
}

int main(void) {
    test_bits();
    return harness_finish();
}
