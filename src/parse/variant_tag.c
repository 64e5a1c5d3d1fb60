/* SPDX-License-Identifier: MIT */
/* The Variant tag's value: which rules it names, for the PGN reader (reader.c) and the JSON reader
 * (json_game.c). Split from reader.c. */
#include "parse.h"

#include <string.h>

/* The Variant tag: 1 standard, 2 Chess960, 3 wild/N (read as standard), 4 a variant of pgn_variant
 * (*variant; pgn_variant_from_name's spellings, docs/variants.md), 0 unsupported (digest §7.6,
 * T85). */
int pgnk_reader_variant_kind(const char *v, size_t n, pgn_variant *variant) {
    static const char *const c960[] = {
        "chess960",       "chess 960", "fischerandom", "fischerrandom",
        "fischer random", "freestyle", "960"};
    static const char *const standard[] = {"standard", "chess",         "classical", "normal",
                                           "regular",  "from position", "illegal",   ""};
    char low[32];
    int is960 = 0;
    *variant = PGN_VARIANT_STANDARD;
    if (n >= sizeof low) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        low[i] = (char)(v[i] >= 'A' && v[i] <= 'Z' ? v[i] + 32 : v[i]);
    }
    low[n] = 0;
    for (size_t i = 0; i < sizeof c960 / sizeof c960[0]; i++) {
        if (strcmp(low, c960[i]) == 0) {
            return 2;
        }
    }
    for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++) {
        if (strcmp(low, standard[i]) == 0) {
            return 1;
        }
    }
    if (strncmp(low, "wild/", 5) == 0) {
        return 3;
    }
    if (!pgn_variant_from_name(v, n, variant, &is960)) {
        return 0;
    }
    return is960 ? 2 : *variant == PGN_VARIANT_STANDARD ? 1 : 4;
}
