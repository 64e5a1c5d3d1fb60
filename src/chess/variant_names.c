/* SPDX-License-Identifier: MIT */
/* Variant names: the spellings of lichess's Variant tag, pychess, python-chess's aliases and
 * Fairy-Stockfish's UCI_Variant values, matched in any case with spaces, hyphens and underscores
 * ignored; and each variant's starting position. */
#include "san.h"
#include "variants.h"

#include <string.h>

typedef struct variant_alias {
    const char *name; /* lower case, no spaces or hyphens */
    uint8_t variant;
    uint8_t chess960;
} variant_alias;

static const variant_alias ALIASES[] = {
    {"standard", PGN_VARIANT_STANDARD, 0},
    {"chess", PGN_VARIANT_STANDARD, 0},
    {"classical", PGN_VARIANT_STANDARD, 0},
    {"normal", PGN_VARIANT_STANDARD, 0},
    {"fromposition", PGN_VARIANT_STANDARD, 0},
    {"chess960", PGN_VARIANT_STANDARD, 1},
    {"fischerandom", PGN_VARIANT_STANDARD, 1},
    {"fischerrandom", PGN_VARIANT_STANDARD, 1},
    {"crazyhouse", PGN_VARIANT_CRAZYHOUSE, 0},
    {"zh", PGN_VARIANT_CRAZYHOUSE, 0},
    {"house", PGN_VARIANT_CRAZYHOUSE, 0},
    {"atomic", PGN_VARIANT_ATOMIC, 0},
    {"atom", PGN_VARIANT_ATOMIC, 0},
    {"atomicchess", PGN_VARIANT_ATOMIC, 0},
    {"antichess", PGN_VARIANT_ANTICHESS, 0},
    {"anti", PGN_VARIANT_ANTICHESS, 0},
    {"giveaway", PGN_VARIANT_ANTICHESS, 0},
    {"giveawaychess", PGN_VARIANT_ANTICHESS, 0},
    {"threecheck", PGN_VARIANT_THREECHECK, 0},
    {"threecheckchess", PGN_VARIANT_THREECHECK, 0},
    {"3check", PGN_VARIANT_THREECHECK, 0},
    {"kingofthehill", PGN_VARIANT_KOTH, 0},
    {"koth", PGN_VARIANT_KOTH, 0},
    {"horde", PGN_VARIANT_HORDE, 0},
    {"hordechess", PGN_VARIANT_HORDE, 0},
    {"racingkings", PGN_VARIANT_RACINGKINGS, 0},
    {"racing", PGN_VARIANT_RACINGKINGS, 0},
    {"race", PGN_VARIANT_RACINGKINGS, 0},
};

int pgn_variant_from_name(const char *name, size_t len, pgn_variant *out, int *chess960) {
    char norm[24];
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (c == ' ' || c == '-' || c == '_') {
            continue;
        }
        if (n + 1 >= sizeof norm) {
            return 0;
        }
        norm[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    norm[n] = 0;
    for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++) {
        if (strcmp(norm, ALIASES[i].name) == 0) {
            *out = (pgn_variant)ALIASES[i].variant;
            if (chess960) {
                *chess960 = ALIASES[i].chess960;
            }
            return 1;
        }
    }
    return 0;
}

const char *pgn_variant_name(pgn_variant v) {
    static const char *const NAMES[PGN_VARIANT_COUNT] = {
        "Standard",    "Crazyhouse",       "Atomic", "Antichess",
        "Three-check", "King of the Hill", "Horde",  "Racing Kings"};
    return (unsigned)v < PGN_VARIANT_COUNT ? NAMES[v] : "unknown";
}

const char *pgn_variant_uci_name(pgn_variant v) {
    static const char *const NAMES[PGN_VARIANT_COUNT] = {"chess",     "crazyhouse", "atomic",
                                                         "antichess", "3check",     "kingofthehill",
                                                         "horde",     "racingkings"};
    return (unsigned)v < PGN_VARIANT_COUNT ? NAMES[v] : "unknown";
}

/* Puts the pieces of an 8-character rank string ("qrbnNBRQ") on rank r. */
static void put_rank(pgn_pos *pos, const char *pieces, unsigned r) {
    for (unsigned f = 0; f < 8; f++) {
        char c = pieces[f];
        if (c == '.') {
            continue;
        }
        pgn_color color = c >= 'a' ? PGN_BLACK : PGN_WHITE;
        unsigned type = (unsigned)piece_from_letter((char)(c >= 'a' ? c - 'a' + 'A' : c));
        pgnk_chess_put_piece(pos, PGN_PIECE(color, type), PGN_SQ(f, r));
    }
}

void pgn_pos_init_variant(pgn_pos *pos, pgn_variant v) {
    if (v == PGN_VARIANT_HORDE) {
        pgnk_chess_clear(pos);
        put_rank(pos, "rnbqkbnr", 7);
        put_rank(pos, "pppppppp", 6);
        put_rank(pos, ".PP..PP.", 4);
        for (unsigned r = 0; r < 4; r++) {
            put_rank(pos, "PPPPPPPP", r);
        }
        pos->castle = bits_sq(56) | bits_sq(63);
    } else if (v == PGN_VARIANT_RACINGKINGS) {
        pgnk_chess_clear(pos);
        put_rank(pos, "krbnNBRK", 1);
        put_rank(pos, "qrbnNBRQ", 0);
    } else {
        pgn_pos_init(pos);
        if (v == PGN_VARIANT_ANTICHESS) {
            pos->castle = 0;
        }
    }
    pos->variant = (uint8_t)((unsigned)v < PGN_VARIANT_COUNT ? v : PGN_VARIANT_STANDARD);
    if (v == PGN_VARIANT_THREECHECK) {
        pos->checks[0] = pos->checks[1] = 3;
    }
    if (pos->variant != PGN_VARIANT_STANDARD) {
        pos->key = pgn_pos_compute_key(pos); /* pgn_pos_init set the standard start's key */
    }
}
