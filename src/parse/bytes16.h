/* SPDX-License-Identifier: MIT */
/* The SSE2 byte tests the parse layer's 16-byte scans are built of (lexer_fast.c's skip of inert
 * lines, lexer_simd.c's movetext byte classes): a byte equal to a value, equal to one of four, or
 * within a range. Each gives 0xFF in the bytes that pass and 0 in the others. Internal; include
 * only where __SSE2__ is defined. */
#ifndef PGNKIT_PARSE_BYTES16_H
#define PGNKIT_PARSE_BYTES16_H

#include <emmintrin.h>

static inline __m128i pgnk_eq16(__m128i v, char c) {
    return _mm_cmpeq_epi8(v, _mm_set1_epi8(c));
}

static inline __m128i pgnk_eq16_any4(__m128i v, char a, char b, char c, char d) {
    return _mm_or_si128(_mm_or_si128(pgnk_eq16(v, a), pgnk_eq16(v, b)),
                        _mm_or_si128(pgnk_eq16(v, c), pgnk_eq16(v, d)));
}

/* The bytes in [lo, lo + span]: x - lo, unsigned, is its own minimum with span. */
static inline __m128i pgnk_in16(__m128i v, char lo, char span) {
    __m128i r = _mm_sub_epi8(v, _mm_set1_epi8(lo));
    return _mm_cmpeq_epi8(_mm_min_epu8(r, _mm_set1_epi8(span)), r);
}

#endif
