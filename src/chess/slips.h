/* The slip model: the legal moves a mistyped move most likely meant (docs/repair.md). */
#ifndef PGNKIT_SLIPS_H
#define PGNKIT_SLIPS_H

#include "pgnkit/chess.h"

#include <stddef.h>

/* A legal move and how far its SAN is from what was typed (in slip units: 0 = the same). */
typedef struct pgnk_slip {
    pgn_move move;
    unsigned cost;
    char san[PGN_SAN_MAX];
} pgnk_slip;

/* Moves further than this from what was typed are not offered. */
#define PGNK_SLIP_MAX_COST 6u

/* Fills out with up to cap legal moves of pos whose SAN is at most PGNK_SLIP_MAX_COST from typed,
 * nearest first (ties in SAN order). Returns the count. Allocates nothing. */
size_t pgnk_slip_candidates(const pgn_pos *pos, const char *typed, size_t len, pgnk_slip *out,
                            size_t cap);

/* The slip cost of typing typed for the SAN san. */
unsigned pgnk_slip_cost(const char *typed, size_t tlen, const char *san, size_t slen);

#endif
