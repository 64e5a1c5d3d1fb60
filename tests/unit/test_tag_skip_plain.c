/* SPDX-License-Identifier: MIT */
/* test_tag_skip.c with the line search's portable code (a loop a byte), whatever the CPU: the
 * Makefile links this test with src/parse/tag_skip.c built under PGNKIT_PLAIN_BITS (issue 32). */
#include "test_tag_skip.c"
