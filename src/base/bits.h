/* SPDX-License-Identifier: MIT */
/* Bit intrinsics for 64-bit boards, with portable fallbacks. Internal header. */
#ifndef PGNKIT_BITS_H
#define PGNKIT_BITS_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
static inline unsigned bits_ctz(uint64_t b) {
    return (unsigned)__builtin_ctzll(b);
}
static inline unsigned bits_clz(uint64_t b) {
    return (unsigned)__builtin_clzll(b);
}
static inline unsigned bits_popcount(uint64_t b) {
    return (unsigned)__builtin_popcountll(b);
}
static inline uint64_t bits_bswap(uint64_t b) {
    return __builtin_bswap64(b);
}
#else
static inline unsigned bits_ctz(uint64_t b) {
    unsigned n = 0;
    while (!(b & 1)) {
        b >>= 1;
        n++;
    }
    return n;
}
static inline unsigned bits_clz(uint64_t b) {
    unsigned n = 0;
    while (!(b & (UINT64_C(1) << 63))) {
        b <<= 1;
        n++;
    }
    return n;
}
static inline unsigned bits_popcount(uint64_t b) {
    unsigned n = 0;
    for (; b; b &= b - 1) {
        n++;
    }
    return n;
}
static inline uint64_t bits_bswap(uint64_t b) {
    b = ((b & UINT64_C(0x00FF00FF00FF00FF)) << 8) | ((b >> 8) & UINT64_C(0x00FF00FF00FF00FF));
    b = ((b & UINT64_C(0x0000FFFF0000FFFF)) << 16) | ((b >> 16) & UINT64_C(0x0000FFFF0000FFFF));
    return (b << 32) | (b >> 32);
}
#endif

/* Index of the lowest set bit, which is then cleared. b must be nonzero. */
static inline unsigned bits_pop(uint64_t *b) {
    unsigned s = bits_ctz(*b);
    *b &= *b - 1;
    return s;
}

static inline uint64_t bits_sq(unsigned sq) {
    return UINT64_C(1) << sq;
}

/* More than one bit set. */
static inline int bits_many(uint64_t b) {
    return (b & (b - 1)) != 0;
}

#endif
