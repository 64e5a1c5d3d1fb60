/* SPDX-License-Identifier: MIT */
/* test_reader_fast.c with the movetext scan's SSE2 code, also where the CPU has AVX2: the Makefile
 * links this test with src/parse/lexer_simd.c built under PGNKIT_NO_AVX2 (issue 32). */
#include "test_reader_fast.c"
