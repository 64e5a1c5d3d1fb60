/* SPDX-License-Identifier: MIT */
/* Bit intrinsics for 64-bit boards. Internal header.
 * ctz, clz and bswap: the compiler's builtins (bsf, bsr and bswap are in every x86-64 CPU).
 * popcount: the POPCNT instruction is not in the x86-64 baseline, and a build for it turned
 * __builtin_popcountll into a call of libgcc's __popcountdi2 (issue 32). On x86-64 the count is
 * POPCNT when the CPU has it, chosen at run time: one test of the feature bits libgcc reads at
 * start-up (__builtin_cpu_supports; a branch that always goes the same way), else branch-free C.
 * A build for a CPU that has it (-mpopcnt, -march=...) uses the builtin alone.
 * PGNKIT_PLAIN_BITS (make PLAIN_BITS=1) forces the portable C code for all four, so that it is
 * tested on machines that would never run it; tests/unit/test_bits_plain.c tests it always. */
#ifndef PGNKIT_BITS_H
#define PGNKIT_BITS_H

#include <stdint.h>

/* The portable code: a SWAR count (no loop, no branch), ctz and clz through it. */
static inline unsigned bits_popcount_c(uint64_t b) {
    b -= (b >> 1) & UINT64_C(0x5555555555555555);
    b = (b & UINT64_C(0x3333333333333333)) + ((b >> 2) & UINT64_C(0x3333333333333333));
    b = (b + (b >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (unsigned)((b * UINT64_C(0x0101010101010101)) >> 56);
}
/* b must be nonzero (as for the builtins): the bits below the lowest one, counted */
static inline unsigned bits_ctz_c(uint64_t b) {
    return bits_popcount_c((b & (~b + 1)) - 1);
}
/* b must be nonzero: 64 less the bits from the highest one down, counted */
static inline unsigned bits_clz_c(uint64_t b) {
    b |= b >> 1;
    b |= b >> 2;
    b |= b >> 4;
    b |= b >> 8;
    b |= b >> 16;
    b |= b >> 32;
    return 64u - bits_popcount_c(b);
}
static inline uint64_t bits_bswap_c(uint64_t b) {
    b = ((b & UINT64_C(0x00FF00FF00FF00FF)) << 8) | ((b >> 8) & UINT64_C(0x00FF00FF00FF00FF));
    b = ((b & UINT64_C(0x0000FFFF0000FFFF)) << 16) | ((b >> 16) & UINT64_C(0x0000FFFF0000FFFF));
    return (b << 32) | (b >> 32);
}

#if (defined(__GNUC__) || defined(__clang__)) && !defined(PGNKIT_PLAIN_BITS)
static inline unsigned bits_ctz(uint64_t b) {
    return (unsigned)__builtin_ctzll(b);
}
static inline unsigned bits_clz(uint64_t b) {
    return (unsigned)__builtin_clzll(b);
}
static inline uint64_t bits_bswap(uint64_t b) {
    return __builtin_bswap64(b);
}
#if defined(__POPCNT__) || !defined(__x86_64__)
static inline unsigned bits_popcount(uint64_t b) {
    return (unsigned)__builtin_popcountll(b);
}
#else
static inline unsigned bits_popcount(uint64_t b) {
    if (__builtin_cpu_supports("popcnt")) {
        uint64_t n;
        __asm__("popcntq %1, %0" : "=r"(n) : "rm"(b) : "cc");
        return (unsigned)n;
    }
    return bits_popcount_c(b);
}
#endif
#else
static inline unsigned bits_ctz(uint64_t b) {
    return bits_ctz_c(b);
}
static inline unsigned bits_clz(uint64_t b) {
    return bits_clz_c(b);
}
static inline unsigned bits_popcount(uint64_t b) {
    return bits_popcount_c(b);
}
static inline uint64_t bits_bswap(uint64_t b) {
    return bits_bswap_c(b);
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
