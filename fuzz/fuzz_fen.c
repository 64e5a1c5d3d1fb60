/* SPDX-License-Identifier: MIT */
/* Fuzz target: FEN parse -> write -> parse (STYLE C11). Byte 0 chooses the parse flags (strict,
 * Chess960), the write flags (Shredder castling, en passant conventions) and the variant (bits
 * 5-7; its FEN dialect, written with the pocket rank and lichess's check counters when bits 0
 * and 1 are set); the rest is the FEN.
 * For every FEN that parses: the Zobrist key is the one computed from scratch, the written FEN
 * parses under PGN_FEN_STRICT to the same position, and writing that gives the same text (a fixed
 * point). */
#include "fuzz_common.h"

#ifndef FUZZ_ENTRY
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

static int fen_same_pos(const pgn_pos *a, const pgn_pos *b) {
    return memcmp(a->by_color, b->by_color, sizeof a->by_color) == 0 &&
           memcmp(a->by_type, b->by_type, sizeof a->by_type) == 0 &&
           memcmp(a->board, b->board, 64) == 0 && a->castle == b->castle && a->side == b->side &&
           a->halfmove == b->halfmove && a->fullmove == b->fullmove && a->chess960 == b->chess960 &&
           a->variant == b->variant && a->promoted == b->promoted &&
           memcmp(a->checks, b->checks, sizeof a->checks) == 0 &&
           memcmp(a->pocket, b->pocket, sizeof a->pocket) == 0;
}

int FUZZ_ENTRY(const uint8_t *data, size_t size) {
    if (size < 1) {
        return 0;
    }
    uint32_t pflags = data[0] & (PGN_FEN_STRICT | PGN_FEN_CHESS960);
    uint32_t wflags =
        (uint32_t)(data[0] >> 2) & (PGN_FEN_SHREDDER | PGN_FEN_EP_ALWAYS | PGN_FEN_EP_PSEUDO);
    pgn_variant v = (pgn_variant)(((unsigned)data[0] >> 5) % PGN_VARIANT_COUNT);
    if (v != PGN_VARIANT_STANDARD) {
        wflags |=
            (data[0] & 1 ? PGN_FEN_POCKET_RANK : 0) | (data[0] & 2 ? PGN_FEN_LICHESS_CHECKS : 0);
    }
    const char *fen = (const char *)data + 1;
    size_t len = size - 1;
    pgn_pos p, q;
    pgn_fen_diag d;
    if (pgn_fen_parse_variant(&p, v, fen, len, pflags, &d) != PGN_OK) {
        FUZZ_CHECK(d.code == PGN_E_BAD_FEN && d.column >= 1 && d.column <= len + 1 &&
                       d.field >= 1 && d.field <= 6 && d.reason != NULL,
                   "a failed parse without its diagnostic");
        return 0;
    }
    FUZZ_CHECK(p.key == pgn_pos_compute_key(&p), "key");
    char a[PGN_FEN_MAX], b[PGN_FEN_MAX];
    size_t an = pgn_fen_write(&p, wflags, a, sizeof a);
    FUZZ_CHECK(an > 0 && an < sizeof a && a[an] == 0, "written FEN length");
    uint32_t again = PGN_FEN_STRICT | (p.chess960 ? PGN_FEN_CHESS960 : 0);
    if (pgn_fen_parse_variant(&q, v, a, an, again, &d) != PGN_OK) {
        fprintf(stderr, "written FEN '%s' does not parse: %s (column %u)\n", a, d.reason, d.column);
        FUZZ_FAIL("the written FEN does not parse strictly");
    }
    FUZZ_CHECK(fen_same_pos(&p, &q), "the written FEN is another position");
    FUZZ_CHECK(pgn_pos_count_legal(&p) == pgn_pos_count_legal(&q), "legal moves differ");
    size_t bn = pgn_fen_write(&q, wflags, b, sizeof b);
    FUZZ_CHECK(an == bn && memcmp(a, b, an) == 0, "FEN write is not a fixed point");
    return 0;
}
