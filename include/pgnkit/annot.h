/* SPDX-License-Identifier: MIT */
/* pgnkit embedded commands in comments (PGN Specification Supplement §3.2 "[%cmd ...]", §4 clock
 * commands; the de facto [%eval], [%csl], [%cal]; digest §10). Commands stay in the comment text;
 * these functions parse them on demand without copying, and edit them on a node. */
#ifndef PGNKIT_ANNOT_H
#define PGNKIT_ANNOT_H

#include "base.h"
#include "game.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a piece of a comment is. */
typedef enum pgn_cmd_kind {
    PGN_CMD_TEXT = 0, /* plain text between commands (white space included, as written) */
    PGN_CMD_CLK,      /* [%clk 1:55:21]: the mover's clock after the move */
    PGN_CMD_EMT,      /* [%emt 0:05:42]: time spent on the move */
    PGN_CMD_EGT,      /* [%egt 1:25:42]: total time used so far */
    PGN_CMD_MCT,      /* [%mct 17:10:42]: a mechanical clock's display */
    PGN_CMD_EVAL,     /* [%eval 0.35], [%eval #-3], [%eval 0.35,18] */
    PGN_CMD_CSL,      /* [%csl Ga4,Rb5]: coloured squares */
    PGN_CMD_CAL,      /* [%cal Ge2e4]: coloured arrows */
    PGN_CMD_OTHER,    /* a well-formed command pgnkit does not know ([%foo bar]): kept as text */
    PGN_CMD_BAD       /* "[%" that is no well-formed command, or a known one with bad operands:
                         kept as text; the reader reports PGN_W_BAD_COMMAND */
} pgn_cmd_kind;

/** A bit per kind, for the masks below. */
#define PGN_CMD_BIT(kind) (1u << (unsigned)(kind))
/** The kinds that hold a time (clk, emt, egt, mct). */
#define PGN_CMD_TIMES                                                                              \
    (PGN_CMD_BIT(PGN_CMD_CLK) | PGN_CMD_BIT(PGN_CMD_EMT) | PGN_CMD_BIT(PGN_CMD_EGT) |              \
     PGN_CMD_BIT(PGN_CMD_MCT))

typedef enum pgn_eval_kind { PGN_EVAL_CP = 0, PGN_EVAL_MATE = 1 } pgn_eval_kind;

/** An evaluation, always from White's point of view. A complete value type. */
typedef struct pgn_eval {
    pgn_eval_kind kind;
    int32_t value; /* CP: centipawns (0.35 -> 35); MATE: moves to mate, negative when Black mates
                      (#0: the side to move is mated) */
    int32_t depth; /* search depth; -1 when not given */
} pgn_eval;

/** One piece of a comment, as pgn_cmd_next returns it. Read-only; strings borrow the comment. */
typedef struct pgn_cmd {
    pgn_cmd_kind kind;
    pgn_str raw;   /* the bytes of this piece: the text, or the whole "[%...]" */
    size_t offset; /* of raw.ptr from the start of the comment */
    pgn_str name;  /* commands (not TEXT): the name without "%", e.g. "clk" */
    pgn_str args;  /* commands: the operands, white space around them trimmed */
    int64_t ms;    /* CLK EMT EGT MCT: the time in milliseconds (finer fractions rounded) */
    pgn_eval eval; /* EVAL */
    size_t marks;  /* CSL CAL: how many squares or arrows (read them with pgn_mark_next) */
} pgn_cmd;

/** An iterator over the pieces of a comment; init it with pgn_cmd_iter_init. */
typedef struct pgn_cmd_iter {
    pgn_str comment;
    size_t pos;
} pgn_cmd_iter;

/** Starts iterating over comment, which must outlive the iterator (nothing is copied). */
PGN_API void pgn_cmd_iter_init(pgn_cmd_iter *it, pgn_str comment);
/**
 * Sets *out to the next piece of the comment: a run of text up to the next "[%", or one command.
 * Concatenating the raw strings of all pieces gives back the comment. Returns 1, or 0 at the end.
 * Operands are checked: clock times are H:MM:SS with optional decimals (minutes and seconds below
 * 60), evals are pawns with at most two decimals or #N mates, each with an optional ",depth";
 * squares and arrows are [RGYB] and one or two squares, comma separated.
 */
PGN_API int pgn_cmd_next(pgn_cmd_iter *it, pgn_cmd *out);

/** The first command of the given kind in comment; 1 and *out set if found, else 0. */
PGN_API int pgn_cmd_find(pgn_str comment, pgn_cmd_kind kind, pgn_cmd *out);

/** A coloured square (from == to) or arrow of [%csl]/[%cal]. Squares are 0..63, a1 = 0. */
typedef struct pgn_mark {
    char color; /* 'R', 'G', 'Y' or 'B' */
    uint8_t from, to;
} pgn_mark;

/** Reads the next mark from *args (a CSL or CAL command's args) and advances it; 1, or 0 at the
 * end or at a mark that is not well formed. */
PGN_API int pgn_mark_next(pgn_str *args, pgn_mark *out);

/**
 * Writes comment without its commands whose kind is in mask (PGN_CMD_BIT...) to out, which must
 * hold comment.len bytes, and returns the length written. A removed command takes one space next
 * to it along; white space at both ends is trimmed. Nothing else changes.
 */
PGN_API size_t pgn_comment_remove(pgn_str comment, uint32_t mask, char *out);

/** Longest text pgn_eval_write and pgn_clock_write produce, with the NUL. */
#define PGN_CMD_MAX 48
/** Writes "[%eval 0.35]", "[%eval -0.42,18]" or "[%eval #-3]" (two decimals, as python-chess)
 * with a NUL to out (PGN_CMD_MAX bytes) and returns its length. */
PGN_API size_t pgn_eval_write(const pgn_eval *eval, char *out);
/** Writes the time command "[%NAME H:MM:SS]" (with up to three decimals when ms is not whole
 * seconds; negative times as 0) with a NUL to out (PGN_CMD_MAX bytes); kind is one of CLK EMT EGT
 * MCT. Returns its length. */
PGN_API size_t pgn_clock_write(pgn_cmd_kind kind, int64_t ms, char *out);

/* ---- per node: the comment after the node's move ---- */

/** The node's [%clk] in milliseconds; 1 and *ms set if its comment has one, else 0. */
PGN_API int pgn_node_clock(const pgn_node *node, int64_t *ms);
/** The node's [%eval]; 1 and *eval set if its comment has one, else 0. */
PGN_API int pgn_node_eval(const pgn_node *node, pgn_eval *eval);
/** 1 when a node of the game's main line (its start or a move) has an [%eval], else 0: whether
 * an evaluation graph has anything to draw (pgnkit html and serve draw none without). */
PGN_API int pgn_game_has_evals(const pgn_game *game);
/**
 * Sets the node's [%eval]: replaces the first well-formed one in place (removing any other), or
 * appends it to the comment after a space. eval NULL removes them all. The comment is rebuilt in
 * the game's arena. Returns PGN_OK or PGN_E_NOMEM.
 */
PGN_API PGN_NODISCARD pgn_status pgn_node_set_eval(pgn_game *game, pgn_node *node,
                                                   const pgn_eval *eval);
/** Sets the node's [%clk] like pgn_node_set_eval; ms < 0 removes it. PGN_OK or PGN_E_NOMEM. */
PGN_API PGN_NODISCARD pgn_status pgn_node_set_clock(pgn_game *game, pgn_node *node, int64_t ms);
/** Removes the commands whose kind is in mask from the node's comment and pre-comment (see
 * pgn_comment_remove). Returns PGN_OK or PGN_E_NOMEM. */
PGN_API PGN_NODISCARD pgn_status pgn_node_remove_commands(pgn_game *game, pgn_node *node,
                                                          uint32_t mask);

/* ---- editing a whole game (pgnkit fmt/convert --strip-... and friends) ---- */

#define PGN_EDIT_STRIP_COMMENTS 0x01u   /* every comment (pre-comments and the game comment too) */
#define PGN_EDIT_STRIP_NAGS 0x02u       /* every NAG */
#define PGN_EDIT_STRIP_VARIATIONS 0x04u /* every RAV: only the main line is left */
#define PGN_EDIT_STRIP_CLOCK 0x08u      /* [%clk], [%emt], [%egt], [%mct] */
#define PGN_EDIT_STRIP_EVAL 0x10u       /* [%eval] */
#define PGN_EDIT_SEVEN_TAGS 0x20u       /* only the Seven Tag Roster (and FEN/SetUp) is kept */
#define PGN_EDIT_ADD_PLYCOUNT 0x40u     /* sets PlyCount to the main line's plies */
#define PGN_EDIT_FEN_COMMENTS                                                                      \
    0x80u /* appends the FEN after each move to its comment, in                                    \
             variations too (pgn-extract --fencomments) */
#define PGN_EDIT_FIX_RESULTS                                                                       \
    0x1000u /* result and Result tag from the main line's final position where it decides the      \
              game (checkmate, stalemate), else from the marker as read (pgn_game_marker) */

#define PGN_EDIT_ADD_HASHCODE                                                                      \
    0x100u /* HashCode: the final position's Polyglot key, 16 hex digits */
#define PGN_EDIT_ADD_TERMINATION                                                                                         \
    0x200u                            /* Termination: "checkmate", "stalemate", "threefold                               \
  repetition", "fifty-move rule", "insufficient material" ... (pgn_outcome_name) when the final \
  position decides the game; otherwise the tag is left as it is */
#define PGN_EDIT_ADD_FINAL_FEN 0x400u /* FinalFEN: the final position (written with fen_flags) */
#define PGN_EDIT_ADD_MATERIAL                                                                      \
    0x800u /* Material: "KQR2B2N2P8 v KQR2BN2P7" of the final position                             \
            */

typedef struct pgn_edit_opts {
    uint32_t flags;     /* PGN_EDIT_* */
    uint32_t fen_flags; /* pgn_fen_write flags for PGN_EDIT_FEN_COMMENTS */
} pgn_edit_opts;

/**
 * Applies the edits of opts to game, in the order the flags are listed. The tree is walked with
 * pgn_iter (no recursion); new text comes from the game's arena.
 * Returns PGN_OK or PGN_E_NOMEM (the game is then partly edited).
 */
PGN_API PGN_NODISCARD pgn_status pgn_game_edit(pgn_game *game, const pgn_edit_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
