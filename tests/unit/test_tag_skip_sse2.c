/* SPDX-License-Identifier: MIT */
/* test_tag_skip.c with the line search's SSE2 code alone, also where the CPU has AVX2: the
 * Makefile links this test with src/parse/tag_skip.c built under PGNKIT_NO_AVX2 (issue 32). */
#include "test_tag_skip.c"
