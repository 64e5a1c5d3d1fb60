/* SPDX-License-Identifier: MIT */
/* The movetext scan's byte classes, 64 bytes at a time (issue 32): which bytes are symbol bytes
 * (C_SYM: letters, digits, # + - / : = @ _) and which are digits, as bit masks the fast path
 * (movetext.c, fast_tokens) finds a token's end in with one count of trailing ones instead of a
 * loop that stops at an unforeseeable byte.
 * Three ways, one answer: AVX2 (two 32-byte rounds) where the CPU has it, chosen at run time by one
 * test of the feature bits libgcc reads at start-up (as src/base/bits.h chooses POPCNT); SSE2
 * (four 16-byte rounds) on every other x86-64; plain C (a table) elsewhere, and everywhere under
 * PGNKIT_PLAIN_BITS (make PLAIN_BITS=1), so that the portable code is tested on any machine
 * (tests/unit/test_reader_fast_plain.c links this file built so). */
#include "lexer.h"

#include <stdbool.h>
#include <string.h>

#if defined(__x86_64__) && defined(__SSE2__) && !defined(PGNKIT_PLAIN_BITS) &&                     \
    (defined(__GNUC__) || defined(__clang__))
#define SCAN_X86 1
#include <immintrin.h>

#include "bytes16.h"
#endif

#if defined(SCAN_X86)
/* The symbol bytes and the digits of the 16 bytes at p, as the low 16 bits of *sym and *digit. */
static inline void classify16(const unsigned char *p, unsigned *sym, unsigned *digit) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i letter = pgnk_in16(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z' - 'a');
    __m128i dig = pgnk_in16(v, '0', 9);
    __m128i m = _mm_or_si128(letter, pgnk_in16(v, '/', ':' - '/')); /* / 0-9 : */
    m = _mm_or_si128(m, pgnk_eq16_any4(v, '#', '+', '-', '='));
    m = _mm_or_si128(m, _mm_or_si128(pgnk_eq16(v, '@'), pgnk_eq16(v, '_')));
    *sym = (unsigned)_mm_movemask_epi8(m);
    *digit = (unsigned)_mm_movemask_epi8(dig);
}

static void masks_sse2(const unsigned char *p, uint64_t *sym, uint64_t *digit) {
    uint64_t s = 0, d = 0;
    for (unsigned k = 0; k < 64; k += 16) {
        unsigned s16, d16;
        classify16(p + k, &s16, &d16);
        s |= (uint64_t)s16 << k;
        d |= (uint64_t)d16 << k;
    }
    *sym = s;
    *digit = d;
}

/* All six classes of the 16 bytes at p (lexer_masks), into the bits from k on. */
static inline void classify16_all(const unsigned char *p, unsigned k, lexer_masks *out) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    unsigned sym, digit;
    classify16(p, &sym, &digit);
    out->sym |= (uint64_t)sym << k;
    out->digit |= (uint64_t)digit << k;
    __m128i letter = pgnk_in16(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z' - 'a');
    out->letter |= (uint64_t)(unsigned)_mm_movemask_epi8(letter) << k;
    out->period |= (uint64_t)(unsigned)_mm_movemask_epi8(pgnk_eq16(v, '.')) << k;
    __m128i blank = _mm_or_si128(pgnk_eq16(v, ' '), pgnk_eq16(v, '\t'));
    out->blank |= (uint64_t)(unsigned)_mm_movemask_epi8(blank) << k;
    out->lf |= (uint64_t)(unsigned)_mm_movemask_epi8(pgnk_eq16(v, '\n')) << k;
    out->cr |= (uint64_t)(unsigned)_mm_movemask_epi8(pgnk_eq16(v, '\r')) << k;
}

static void masks_all_sse2(const unsigned char *p, lexer_masks *out) {
    memset(out, 0, sizeof *out);
    for (unsigned k = 0; k < 64; k += 16) {
        classify16_all(p + k, k, out);
    }
}

/* The tag name bytes and the value's stop bytes of the 16 bytes at p (pgnk_lexer_tag_masks). */
static inline void tag16(const unsigned char *p, unsigned *name, unsigned *stop) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i nm = _mm_or_si128(pgnk_in16(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 'z' - 'a'),
                              _mm_or_si128(pgnk_in16(v, '0', 9), pgnk_eq16(v, '_')));
    __m128i st = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)), pgnk_eq16(v, 0x7f));
    st = _mm_or_si128(st, _mm_or_si128(pgnk_eq16(v, '"'), pgnk_eq16(v, '\\')));
    *name = (unsigned)_mm_movemask_epi8(nm);
    *stop = (unsigned)_mm_movemask_epi8(st);
}

static void tag_masks_sse2(const unsigned char *p, uint32_t *name, uint32_t *stop) {
    unsigned n0, s0, n1, s1;
    tag16(p, &n0, &s0);
    tag16(p + 16, &n1, &s1);
    *name = n0 | n1 << 16;
    *stop = s0 | s1 << 16;
}

#define AVX2 __attribute__((target("avx2")))
AVX2 static inline __m256i in_range32(__m256i x, char lo, char span) {
    __m256i r = _mm256_sub_epi8(x, _mm256_set1_epi8(lo));
    return _mm256_cmpeq_epi8(_mm256_min_epu8(r, _mm256_set1_epi8(span)), r);
}

AVX2 static inline __m256i eq32(__m256i x, char c) {
    return _mm256_cmpeq_epi8(x, _mm256_set1_epi8(c));
}

/* As classify16, 32 bytes. */
AVX2 static inline void classify32(const unsigned char *p, uint32_t *sym, uint32_t *digit) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i letter = in_range32(_mm256_or_si256(v, _mm256_set1_epi8(0x20)), 'a', 'z' - 'a');
    __m256i m = _mm256_or_si256(letter, in_range32(v, '/', ':' - '/'));
    m = _mm256_or_si256(m, _mm256_or_si256(eq32(v, '#'), eq32(v, '+')));
    m = _mm256_or_si256(m, _mm256_or_si256(eq32(v, '-'), eq32(v, '=')));
    m = _mm256_or_si256(m, _mm256_or_si256(eq32(v, '@'), eq32(v, '_')));
    *sym = (uint32_t)_mm256_movemask_epi8(m);
    *digit = (uint32_t)_mm256_movemask_epi8(in_range32(v, '0', 9));
}

AVX2 static void masks_avx2(const unsigned char *p, uint64_t *sym, uint64_t *digit) {
    uint32_t s0, d0, s1, d1;
    classify32(p, &s0, &d0);
    classify32(p + 32, &s1, &d1);
    *sym = (uint64_t)s0 | (uint64_t)s1 << 32;
    *digit = (uint64_t)d0 | (uint64_t)d1 << 32;
}

/* The bytes of x that equal the entry of table t (in each 16-byte lane) their low 4 bits pick; a
 * byte >= 0x80 picks 0, and an entry 0x80 no ASCII byte. */
AVX2 static inline __m256i by_nibble32(__m256i x, __m256i t) {
    return _mm256_cmpeq_epi8(_mm256_shuffle_epi8(t, x), x);
}

/* The AVX2 rounds' constants, read from memory: built in registers, each would cost three
 * instructions a call (the table is made opaque to the compiler where read, k_table). */
#define REP32(c)                                                                                   \
    {                                                                                              \
        (long long)(UINT64_C(0x0101010101010101) * (c)),                                           \
            (long long)(UINT64_C(0x0101010101010101) * (c)),                                       \
            (long long)(UINT64_C(0x0101010101010101) * (c)),                                       \
            (long long)(UINT64_C(0x0101010101010101) * (c))                                        \
    }
enum {
    K_CASE,
    K_A,
    K_LETTERS,
    K_ZERO,
    K_DIGITS,
    K_UNDER,
    K_SPACE,
    K_DEL,
    K_QUOTE,
    K_BS,
    K_PERIOD,
    K_TAB,
    K_LF,
    K_CR
};
static const __m256i avx2_k[] = {REP32(0x20), REP32('a'),  REP32(25),   REP32('0'), REP32(9),
                                 REP32('_'),  REP32(' '),  REP32(0x7f), REP32('"'), REP32('\\'),
                                 REP32('.'),  REP32('\t'), REP32('\n'), REP32('\r')};
#undef REP32

/* The table, which the compiler must read (not fold back into broadcasts). */
static inline const __m256i *k_table(void) {
    const __m256i *k = avx2_k;
    __asm__("" : "+r"(k));
    return k;
}

/* All six classes of the 32 bytes at p (lexer_masks), into bits k on: the symbol bytes as letters,
 * digits and # + - / : = @ _ found by their low 4 bits (two tables, as two of them share their low
 * bits with others: - =, / _). */
AVX2 static inline void all32(const unsigned char *p, unsigned k, lexer_masks *out) {
    const __m256i t1 = _mm256_setr_epi8(
        '@', -128, -128, '#', -128, -128, -128, -128, -128, -128, ':', '+', -128, '-', -128, '/',
        '@', -128, -128, '#', -128, -128, -128, -128, -128, -128, ':', '+', -128, '-', -128, '/');
    const __m256i t2 =
        _mm256_setr_epi8(-128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128, -128,
                         -128, '=', -128, '_', -128, -128, -128, -128, -128, -128, -128, -128, -128,
                         -128, -128, -128, -128, '=', -128, '_');
    const __m256i *c = k_table();
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i l = _mm256_sub_epi8(_mm256_or_si256(v, c[K_CASE]), c[K_A]);
    __m256i d = _mm256_sub_epi8(v, c[K_ZERO]);
    __m256i letter = _mm256_cmpeq_epi8(_mm256_min_epu8(l, c[K_LETTERS]), l);
    __m256i digit = _mm256_cmpeq_epi8(_mm256_min_epu8(d, c[K_DIGITS]), d);
    __m256i punct = _mm256_or_si256(by_nibble32(v, t1), by_nibble32(v, t2));
    __m256i sym = _mm256_or_si256(_mm256_or_si256(letter, digit), punct);
    __m256i blank =
        _mm256_or_si256(_mm256_cmpeq_epi8(v, c[K_SPACE]), _mm256_cmpeq_epi8(v, c[K_TAB]));
    out->sym |= (uint64_t)(uint32_t)_mm256_movemask_epi8(sym) << k;
    out->digit |= (uint64_t)(uint32_t)_mm256_movemask_epi8(digit) << k;
    out->letter |= (uint64_t)(uint32_t)_mm256_movemask_epi8(letter) << k;
    out->period |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c[K_PERIOD])) << k;
    out->blank |= (uint64_t)(uint32_t)_mm256_movemask_epi8(blank) << k;
    out->lf |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c[K_LF])) << k;
    out->cr |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c[K_CR])) << k;
}

AVX2 static void masks_all_avx2(const unsigned char *p, lexer_masks *out) {
    memset(out, 0, sizeof *out);
    all32(p, 0, out);
    all32(p + 32, 32, out);
}

/* As tag_masks_sse2, in one round (a byte from 0x80 on is below 0x20 as a signed one). */
AVX2 static void tag_masks_avx2(const unsigned char *p, uint32_t *name, uint32_t *stop) {
    const __m256i *k = k_table();
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i l = _mm256_sub_epi8(_mm256_or_si256(v, k[K_CASE]), k[K_A]);
    __m256i d = _mm256_sub_epi8(v, k[K_ZERO]);
    __m256i nm = _mm256_cmpeq_epi8(_mm256_min_epu8(l, k[K_LETTERS]), l);
    nm = _mm256_or_si256(nm, _mm256_cmpeq_epi8(_mm256_min_epu8(d, k[K_DIGITS]), d));
    nm = _mm256_or_si256(nm, _mm256_cmpeq_epi8(v, k[K_UNDER]));
    __m256i st = _mm256_cmpgt_epi8(k[K_SPACE], v);
    st = _mm256_or_si256(st, _mm256_cmpeq_epi8(v, k[K_DEL]));
    st = _mm256_or_si256(st, _mm256_cmpeq_epi8(v, k[K_QUOTE]));
    st = _mm256_or_si256(st, _mm256_cmpeq_epi8(v, k[K_BS]));
    *name = (uint32_t)_mm256_movemask_epi8(nm);
    *stop = (uint32_t)_mm256_movemask_epi8(st);
}
#else
/* The portable way: one table look-up a byte. */
static void masks_plain(const unsigned char *p, uint64_t *sym, uint64_t *digit) {
    uint64_t s = 0, d = 0;
    for (unsigned k = 0; k < 64; k++) {
        unsigned c = char_class(p[k]);
        s |= (uint64_t)((c & C_SYM) != 0) << k;
        d |= (uint64_t)((c & C_DIGIT) != 0) << k;
    }
    *sym = s;
    *digit = d;
}

static void masks_all_plain(const unsigned char *p, lexer_masks *out) {
    memset(out, 0, sizeof *out);
    for (unsigned k = 0; k < 64; k++) {
        unsigned c = char_class(p[k]);
        out->sym |= (uint64_t)((c & C_SYM) != 0) << k;
        out->digit |= (uint64_t)((c & C_DIGIT) != 0) << k;
        out->letter |= (uint64_t)((unsigned)((p[k] | 0x20) - 'a') < 26u) << k;
        out->period |= (uint64_t)(p[k] == '.') << k;
        out->blank |= (uint64_t)(p[k] == ' ' || p[k] == '\t') << k;
        out->lf |= (uint64_t)(p[k] == '\n') << k;
        out->cr |= (uint64_t)(p[k] == '\r') << k;
    }
}

static void tag_masks_plain(const unsigned char *p, uint32_t *name, uint32_t *stop) {
    uint32_t n = 0, s = 0;
    for (unsigned k = 0; k < 32; k++) {
        unsigned c = p[k];
        unsigned letter = (c | 0x20) - 'a' < 26u, digit = c - '0' < 10u;
        n |= (uint32_t)(letter || digit || c == '_') << k;
        s |= (uint32_t)(c < 0x20 || c >= 0x7f || c == '"' || c == '\\') << k;
    }
    *name = n;
    *stop = s;
}
#endif

#if defined(SCAN_X86)
/* AVX2 when the CPU has it. PGNKIT_NO_AVX2: SSE2 alone, for the test of that path on machines that
 * have AVX2 (tests/unit/test_reader_fast_sse2.c). */
static inline bool use_avx2(void) {
#if defined(PGNKIT_NO_AVX2)
    return false;
#else
    return __builtin_cpu_supports("avx2");
#endif
}
#endif

static void masks64(const unsigned char *p, uint64_t *sym, uint64_t *digit) {
#if defined(SCAN_X86)
    if (use_avx2()) {
        masks_avx2(p, sym, digit);
    } else {
        masks_sse2(p, sym, digit);
    }
#else
    masks_plain(p, sym, digit);
#endif
}

void pgnk_lexer_masks_all(const unsigned char *p, lexer_masks *out) {
#if defined(SCAN_X86)
    if (use_avx2()) {
        masks_all_avx2(p, out);
    } else {
        masks_all_sse2(p, out);
    }
#else
    masks_all_plain(p, out);
#endif
}

void pgnk_lexer_tag_masks(const unsigned char *p, uint32_t *name, uint32_t *stop) {
#if defined(SCAN_X86)
    if (use_avx2()) {
        tag_masks_avx2(p, name, stop);
    } else {
        tag_masks_sse2(p, name, stop);
    }
#else
    tag_masks_plain(p, name, stop);
#endif
}

void pgnk_lexer_masks(const unsigned char *p, size_t n, uint64_t *sym, uint64_t *digit) {
    if (n >= 64) {
        masks64(p, sym, digit);
        return;
    }
    unsigned char tail[64]; /* the window's last bytes; a NUL is in neither class */
    memset(tail, 0, sizeof tail);
    memcpy(tail, p, n);
    masks64(tail, sym, digit);
}
