/* SPDX-License-Identifier: MIT */
/* test_bits.c with bits.h's portable C code forced (PGNKIT_PLAIN_BITS), on every machine. */
#define PGNKIT_PLAIN_BITS 1
#include "test_bits.c"
