/* SPDX-License-Identifier: MIT */
/* The library version. */
#include "pgnkit.h"

const char *pgn_version(void) {
    return PGNKIT_VERSION_STRING;
}
