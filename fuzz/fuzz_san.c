/* SPDX-License-Identifier: MIT */
/* Fuzz target: SAN against positions (STYLE C11). Byte 0 picks a seed position and the parse
 * flags, byte 1 how many of the following bytes choose legal moves to play first (low 4 bits; so
 * positions vary) and a variant (bits 4-6: nonzero plays from that variant's start instead of the
 * seed), the rest is a move text. A move that parses is legal, and its canonical SAN and UCI
 * parse (strictly) back to it; for every legal move of the position, SAN (in the chosen
 * language, descriptive included) and UCI round-trip. Variants use English (drops). An English
 * text reads the same with and without the fast path (PGN_SAN_NO_FAST). */
#include "fuzz_common.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

static const char *const san_seeds[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2r1k2r/8/8/8/8/8/8/R3K1R1 w GAhc - 0 1",
    "4k3/1P6/8/3pP3/8/8/6p1/R3K2R w KQ d6 0 1",
    "N3k2N/8/8/8/8/8/8/N3K2N w - - 0 1",
    "k7/8/8/8/8/8/8/1Q1Q1KQ1 w - - 0 1",
};

static void san_all_moves(const pgn_pos *pos, pgn_lang lang) {
    pgn_movelist ml;
    pgn_pos_legal_moves(pos, &ml);
    for (uint32_t i = 0; i < ml.count; i++) {
        char san[PGN_SAN_MAX], uci[PGN_UCI_MAX];
        pgn_san_result r;
        pgn_move m;
        size_t n = pgn_san_write(pos, ml.moves[i], san);
        FUZZ_CHECK(n > 0 && n < PGN_SAN_MAX, "SAN length");
        FUZZ_CHECK(pgn_san_parse(pos, san, n, PGN_SAN_STRICT, &r) == PGN_OK &&
                       r.move == ml.moves[i] && r.warnings == 0,
                   "canonical SAN does not parse back strictly");
        if (pgn_lang_is_descriptive(lang)) {
            char d[PGN_DESC_MAX];
            size_t dn = pgn_desc_write(pos, lang, ml.moves[i], d, sizeof d);
            FUZZ_CHECK(dn > 0 && pgn_desc_parse(pos, lang, d, dn, NULL, &m) == PGN_OK &&
                           m == ml.moves[i],
                       "descriptive does not parse back");
        } else {
            char other[PGN_SAN_LANG_MAX];
            size_t tn = pgn_san_translate(lang, san, n, other, sizeof other);
            FUZZ_CHECK(tn > 0 &&
                           pgn_san_parse_lang(pos, lang, other, tn, PGN_SAN_STRICT, &r) == PGN_OK &&
                           r.move == ml.moves[i],
                       "SAN in another language does not parse back");
        }
        n = pgn_uci_write(pos, ml.moves[i], uci);
        FUZZ_CHECK(n >= 4 && n < PGN_UCI_MAX, "UCI length");
        FUZZ_CHECK(pgn_uci_parse(pos, uci, n, &m) == PGN_OK && m == ml.moves[i],
                   "UCI does not parse back");
    }
}

int FUZZ_ENTRY(const uint8_t *data, size_t size) {
    if (size < 2) {
        return 0;
    }
    size_t nseeds = sizeof san_seeds / sizeof san_seeds[0];
    const char *fen = san_seeds[(data[0] & 0x0F) % nseeds];
    uint32_t flags = (uint32_t)(data[0] >> 4) &
                     (PGN_SAN_STRICT | PGN_SAN_NULL_MOVES | PGN_SAN_NO_VERIFY | PGN_SAN_AUTO_QUEEN);
    pgn_pos pos;
    pgn_variant variant = (pgn_variant)(((unsigned)data[1] >> 4 & 7u) % PGN_VARIANT_COUNT);
    if (variant != PGN_VARIANT_STANDARD) {
        pgn_pos_init_variant(&pos, variant);
    } else if (pgn_fen_parse(&pos, fen, strlen(fen), 0, NULL) != PGN_OK) {
        FUZZ_FAIL("seed FEN");
        return 0;
    }
    size_t plies = data[1] % 16, i = 2;
    for (size_t k = 0; k < plies && i < size; k++, i++) {
        pgn_movelist ml;
        pgn_pos_legal_moves(&pos, &ml);
        if (ml.count == 0) {
            break;
        }
        pgn_pos_play(&pos, ml.moves[data[i] % ml.count]);
    }
    FUZZ_CHECK(pos.key == pgn_pos_compute_key(&pos), "incremental key");
    pgn_lang lang = variant != PGN_VARIANT_STANDARD
                        ? PGN_LANG_ENGLISH
                        : (pgn_lang)((data[0] ^ data[1]) % PGN_LANG_COUNT);
    san_all_moves(&pos, lang);
    pgn_san_result r;
    memset(&r, 0, sizeof r);
    pgn_status st;
    if (pgn_lang_is_descriptive(lang)) {
        st = pgn_desc_parse(&pos, lang, (const char *)data + i, size - i, NULL, &r.move);
    } else {
        st = lang == PGN_LANG_ENGLISH
                 ? pgn_san_parse(&pos, (const char *)data + i, size - i, flags, &r)
                 : pgn_san_parse_lang(&pos, lang, (const char *)data + i, size - i, flags, &r);
    }
    if (lang == PGN_LANG_ENGLISH) { /* the fast path (san_fast.c) never decides otherwise */
        pgn_san_result g;
        memset(&g, 0, sizeof g);
        pgn_status sg =
            pgn_san_parse(&pos, (const char *)data + i, size - i, flags | PGN_SAN_NO_FAST, &g);
        FUZZ_CHECK(sg == st && g.move == r.move && g.warnings == r.warnings,
                   "fast and general SAN paths differ");
    }
    if (st != PGN_OK) {
        FUZZ_CHECK(st == PGN_E_BAD_SAN || st == PGN_E_ILLEGAL_MOVE || st == PGN_E_AMBIGUOUS_MOVE,
                   "unexpected status");
        return 0;
    }
    if (r.move == PGN_MOVE_NULL) {
        FUZZ_CHECK(flags & PGN_SAN_NULL_MOVES, "a null move without PGN_SAN_NULL_MOVES");
        return 0;
    }
    FUZZ_CHECK(pgn_pos_is_legal(&pos, r.move), "parsed move is not legal");
    FUZZ_CHECK(!(flags & PGN_SAN_STRICT) || r.warnings == 0, "warnings under PGN_SAN_STRICT");
    return 0;
}
