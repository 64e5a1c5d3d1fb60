/* SPDX-License-Identifier: MIT */
/* A game's result: the termination marker against the Result tag, and both against what the main
 * line's final position decides (mate, stalemate, a variant's own endings). Split from reader.c. */
#include "parse.h"

#include <string.h>

/* What a variant's final position decides (pgn_pos_outcome): its own endings (a king exploded,
 * third check, ...), mate and stalemate as the variant scores them (antichess: stalemate wins). */
static pgn_result variant_final_result(const pgn_pos *pos) {
    pgn_outcome o = pgn_pos_outcome(pos, 1);
    if (o != PGN_OUTCOME_CHECKMATE && o != PGN_OUTCOME_STALEMATE && o < PGN_OUTCOME_KING_EXPLODED) {
        return PGN_RESULT_NONE;
    }
    int winner = pgn_outcome_winner(pos, o);
    return winner < 0            ? PGN_RESULT_DRAW
           : winner == PGN_WHITE ? PGN_RESULT_WHITE_WINS
                                 : PGN_RESULT_BLACK_WINS;
}

/* What the main line's final position decides if it contradicts res: a win for the side that
 * mated, a draw after stalemate (a variant's: variant_final_result); PGN_RESULT_NONE otherwise or
 * if no board was kept. Stalemate is looked for only after a decisive result and mate only in
 * check, so that most games cost one attack test. */
static pgn_result final_result(const pgn_reader *r, pgn_result res) {
    if ((r->opts.flags & PGN_READ_NO_BOARD) || r->skip_movetext || r->depth == 0 ||
        r->levels[0].dead) {
        return PGN_RESULT_NONE;
    }
    const pgn_pos *pos = &r->levels[0].pos;
    if (pos->variant != PGN_VARIANT_STANDARD) {
        return variant_final_result(pos);
    }
    if (pgn_pos_in_check(pos)) {
        if (!pgn_pos_is_checkmate(pos)) {
            return PGN_RESULT_NONE;
        }
        return pos->side == PGN_WHITE ? PGN_RESULT_BLACK_WINS : PGN_RESULT_WHITE_WINS;
    }
    return res != PGN_RESULT_DRAW && pgn_pos_is_stalemate(pos) ? PGN_RESULT_DRAW : PGN_RESULT_NONE;
}

/* A result (the marker, else the Result tag tr) that the final position contradicts: a draw or a
 * loss for the side that mated, a decisive result after stalemate (docs/pgn-dialect.md, Results).
 * "*" contradicts nothing (an unfinished record; W_RESULT_AFTER_MATE covers it, strict only). */
static void check_final_result(pgn_reader *r, pgn_result tr) {
    int marked = r->marker != PGN_RESULT_NONE && r->marker != PGN_RESULT_UNKNOWN;
    pgn_result res = marked ? r->marker : tr;
    if (res == PGN_RESULT_NONE || res == PGN_RESULT_UNKNOWN) {
        return;
    }
    pgn_result fin = final_result(r, res);
    if (fin != PGN_RESULT_NONE && fin != res) {
        const char *m = pgn_result_str(res);
        pgnk_reader_diag(r, PGN_W_RESULT_CONTRADICTS, marked ? r->marker_at : r->sum.start, m,
                         strlen(m));
    }
}

static pgn_result tag_result(const pgn_reader *r) {
    return r->tag_result.len ? pgn_result_parse(r->tag_result.ptr, r->tag_result.len)
                             : PGN_RESULT_NONE;
}

/* Digest T65: under strict reading, a "*" result after a checkmate on the main line is reported, as
 * pgn-extract does, but only as a warning: the game is not broken and keeps its "*". Lax reading
 * says nothing (the digest asks for no more; results are otherwise never compared with the board,
 * digest §9). Only checkmate: the digest names no other ending (stalemate, dead position). */
static void check_mate_result(pgn_reader *r) {
    if ((r->opts.flags & PGN_READ_NO_BOARD) || r->skip_movetext || r->depth == 0 ||
        r->levels[0].dead || !pgn_pos_is_checkmate(&r->levels[0].pos)) {
        return;
    }
    if (r->marker == PGN_RESULT_UNKNOWN) {
        pgnk_reader_diag_sev(r, PGN_W_RESULT_AFTER_MATE, PGN_SEV_WARNING, r->marker_at, "*", 1);
    } else { /* no marker: the Result tag gave the "*" */
        pgnk_reader_diag_sev(r, PGN_W_RESULT_AFTER_MATE, PGN_SEV_WARNING, r->sum.start,
                             r->tag_result.ptr, r->tag_result.len);
    }
}

/* The game's result: the termination marker, else the Result tag; a marker that disagrees with
 * the tag is reported there and the tag's result kept. */
static pgn_result game_result(pgn_reader *r, pgn_result tr) {
    pgn_result res = r->marker;
    if (res == PGN_RESULT_NONE || res == PGN_RESULT_UNKNOWN) {
        res = tr != PGN_RESULT_NONE ? tr : res;
    } else if (tr != PGN_RESULT_NONE && tr != PGN_RESULT_UNKNOWN && tr != res) {
        const char *m = pgn_result_str(res); /* reported at the marker, kept from the tag */
        pgnk_reader_diag(r, PGN_W_RESULT_MISMATCH, r->marker_at, m, strlen(m));
        res = tr;
    }
    return res;
}

/* The result of the game just read, with its diagnostics: the marker against the tag
 * (game_result), "*" after mate under strict reading, a result the final position contradicts. */
pgn_result pgnk_reader_result(pgn_reader *r) {
    pgn_result tr = tag_result(r), res = game_result(r, tr);
    if (res == PGN_RESULT_UNKNOWN && (r->opts.flags & PGN_READ_STRICT)) {
        check_mate_result(r);
    }
    check_final_result(r, tr);
    return res;
}
