/* SPDX-License-Identifier: MIT */
/* Const lookup tables written as the rule that gives each entry instead of as a block of numbers:
 * PGNK_TABLE64(F) expands to F(0), F(1), ..., F(63) and PGNK_TABLE256(F) to F(0), ..., F(255),
 * where F is a macro whose expansion is a constant expression of its argument, so that the table
 * stays `static const` with nothing computed at run time (STYLE C1, C8). A macro because an
 * initialiser cannot call a function. Internal. */
#ifndef PGNKIT_TABLE_H
#define PGNKIT_TABLE_H

#define PGNK_TABLE_4(F, i) F(i), F((i) + 1), F((i) + 2), F((i) + 3)
#define PGNK_TABLE_16(F, i)                                                                        \
    PGNK_TABLE_4(F, i), PGNK_TABLE_4(F, (i) + 4), PGNK_TABLE_4(F, (i) + 8),                        \
        PGNK_TABLE_4(F, (i) + 12)
#define PGNK_TABLE_64(F, i)                                                                        \
    PGNK_TABLE_16(F, i), PGNK_TABLE_16(F, (i) + 16), PGNK_TABLE_16(F, (i) + 32),                   \
        PGNK_TABLE_16(F, (i) + 48)

#define PGNK_TABLE64(F) PGNK_TABLE_64(F, 0)
#define PGNK_TABLE256(F)                                                                           \
    PGNK_TABLE_64(F, 0), PGNK_TABLE_64(F, 64), PGNK_TABLE_64(F, 128), PGNK_TABLE_64(F, 192)

#endif
