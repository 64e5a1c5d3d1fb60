/* SPDX-License-Identifier: MIT */
/* test_reader_fast.c with the movetext scan's portable C code: the Makefile links this test with
 * src/parse/lexer_simd.c built under PGNKIT_PLAIN_BITS (make PLAIN_BITS=1 builds the whole library
 * so), on every machine (issue 32). */
#include "test_reader_fast.c"
