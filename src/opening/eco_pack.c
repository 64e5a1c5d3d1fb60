/* SPDX-License-Identifier: MIT */
/* Packing a position as the opening table stores it (EPD fields 1-4, PGN §16.1.3): used by the
 * lookup and by the table's generator (tools/gen_eco.c), so both pack the same way. */
#include "../base/bits.h"
#include "opening_internal.h"

#include <string.h>

static const uint64_t CORNERS[4] = {UINT64_C(1), UINT64_C(1) << 7, UINT64_C(1) << 56,
                                    UINT64_C(1) << 63};

void pgnk_eco_pack(const pgn_pos *pos, pgnk_eco_pos *out) {
    memset(out, 0, sizeof *out);
    out->key = pgn_pos_identity_key(pos);
    out->occ = pos->by_type[0];
    unsigned n = 0;
    for (uint64_t occ = out->occ; occ; occ &= occ - 1, n++) {
        unsigned sq = bits_ctz(occ);
        uint64_t nib = (uint64_t)(pos->board[sq] & 15u) << (4 * (n & 15));
        if (n < 16) {
            out->lo |= nib;
        } else {
            out->hi |= nib;
        }
    }
    unsigned meta = pos->side & 1u;
    for (unsigned i = 0; i < 4; i++) {
        meta |= (pos->castle & CORNERS[i]) ? 2u << i : 0u;
    }
    meta |= (pos->ep != PGN_SQ_NONE && pgn_pos_has_legal_ep(pos) ? pos->ep : 64u) << 5;
    out->meta = (uint16_t)meta;
}
