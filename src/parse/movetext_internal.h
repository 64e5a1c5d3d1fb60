/* SPDX-License-Identifier: MIT */
/* What movetext.c (tokens, moves) and movetext_lines.c (variations, comments) share. Internal. */
#ifndef PGNKIT_MOVETEXT_INTERNAL_H
#define PGNKIT_MOVETEXT_INTERNAL_H

#include "parse.h"

/* Glyph handling runs only for tokens that are no moves: kept out of line, so that the move path
 * stays as small as it was (the attribute is a hint; other compilers simply ignore the macro). */
#if defined(__GNUC__)
#define COLD __attribute__((cold, noinline))
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define COLD
#define NOINLINE
#define ALWAYS_INLINE inline
#endif

enum { BOARD_ENGLISH = 1, BOARD_OTHER = 2 };
/* rav_level.dead while a move looked at the token after it (promotion_glyph): not dead, but the
 * fast path must stop */
enum { PEEKED = 2 };

/* mt_state.tail: the movetext's last token so far, for the end's truncation test; TAIL_UNJUDGED:
 * a symbol of a line not read (skipped, or after the visitor's SKIP), kept whole in tail_text and
 * judged (TAIL_MOVE or TAIL_INCOMPLETE) only if the movetext ends there (pgnk_mt_end): judging
 * every symbol of a skipped tail as it passed cost a quarter of a tags-only `select` (issue 31) */
enum { TAIL_NONE = 0, TAIL_NUMBER, TAIL_MOVE, TAIL_INCOMPLETE, TAIL_OTHER, TAIL_UNJUDGED };
/* mt_state.pending: an incomplete move, reported by the next token: E_BAD_SAN, or W_SKIPPED_TEXT
 * for a single letter (stray text as before); E_TRUNCATED if the movetext ends there */
enum { PENDING_BAD = 1, PENDING_WEAK = 2 };

typedef struct mt_state {
    uint32_t skip_parens; /* > 0: inside a variation being skipped */
    uint8_t skip_visible; /* that variation was reported by begin_variation */
    uint8_t board;        /* resolve SAN: BOARD_ENGLISH, BOARD_OTHER (movetext_lang.c) or 0 */
    uint8_t limit_warned, number_warned;
    uint8_t skipped, prev_skipped; /* this token, the one before it, was skipped as text */
    uint8_t move_seen;             /* the main line had a symbol shaped like a move (any mode) */
    uint8_t keys;                  /* positions reach a visitor: keep their Zobrist keys */
    uint8_t after; /* PGN_READ_MOVE_AFTER: 1, move callbacks once the move is played; 2, and no
                      key kept, so the fast path reads and plays a move in one pass */
    pgn_move_gate *gate; /* under after 2 and PGN_READ_MOVE_GATE: the visitor's (its user) */
    uint32_t san_flags;
    uint32_t quiet_plies;  /* moves fast_move played in one pass, their line's notes not yet made
                              (quiet_flush) */
    uint8_t tail;          /* TAIL_*: the last token (comments, NAGs and periods leave it) */
    uint8_t tail_mate;     /* TAIL_MOVE, TAIL_UNJUDGED: it ends with '#' */
    uint8_t pending;       /* PENDING_* for the incomplete move at tail_at */
    uint8_t pending_first; /* it starts a run of skipped text */
    uint8_t tail_len;
    char tail_text[16]; /* TAIL_NUMBER, TAIL_INCOMPLETE, TAIL_UNJUDGED: the token's first bytes,
                           and where */
    pgn_loc tail_at;
    uint64_t tag_skip_until; /* PGN_READ_TAGS_ONLY: no search before this offset */
} mt_state;

/* movetext.c: a move token played (with a glyph glued to it), a NAG read after a move. */
void pgnk_mt_play_token(pgn_reader *r, mt_state *s, rav_level *l, const token *t);
/* A move in an odd form (O–O with a Unicode dash, a pawn drop without its letter): played with its
 * warning; 1 if it was (movetext_forms.c). */
int pgnk_mt_odd_move(pgn_reader *r, mt_state *s, rav_level *l, const token *t);
/* One movetext token (consumed), in the general path (movetext_token.c). Returns 1 after the
 * game's termination marker. */
int pgnk_mt_on_token(pgn_reader *r, mt_state *s, rav_level *l, const token *t);
/* Token t could not be played (st): the length of an ASCII glyph glued to the move *res then
 * holds; PGNK_MT_REPAIRED when repaired (repair.c: *res the move); else st reported, the line
 * ended, 0. Cold: movetext_forms.c. */
#define PGNK_MT_REPAIRED ((size_t)-1)
size_t pgnk_mt_unplayable(pgn_reader *r, mt_state *s, rav_level *l, const token *t, pgn_status st,
                          pgn_san_result *res);
void pgnk_mt_on_nag(pgn_reader *r, mt_state *s, rav_level *l, const token *t, unsigned nag);

/* movetext_glyph.c: text that is no PGN token (W_SKIPPED_TEXT once for a run of it); a glyph read
 * as a NAG after a move (1), or not (0); a token that is no move: a glyph's NAG, a figurine's
 * move, else skipped text. */
void pgnk_mt_skip_text(pgn_reader *r, mt_state *s, const token *t);
int pgnk_mt_read_glyph(pgn_reader *r, mt_state *s, rav_level *l, const token *t);
COLD void pgnk_mt_glyph_or_text(pgn_reader *r, mt_state *s, rav_level *l, const token *t);
/* English or another language for a move read with its lax pawn letter (movetext_token.c). */
COLD int pgnk_mt_pawn_letter_split(pgn_reader *r, mt_state *s, rav_level *l, const token *t,
                                   const pgn_san_result *res, pgn_san_result *other);

/* movetext_lines.c */
rav_level *pgnk_mt_push_level(pgn_reader *r);
/* Room for one more move in r->line_moves; 0 when out of memory. */
int pgnk_mt_grow_line_moves(pgn_reader *r);
void pgnk_mt_on_open(pgn_reader *r, mt_state *s, rav_level *l, const token *t);
void pgnk_mt_on_close(pgn_reader *r, mt_state *s, const token *t);
void pgnk_mt_on_comment(pgn_reader *r, const token *t);

/* movetext_end.c: a game cut short (E_TRUNCATED) */
/* Is p (n bytes) the beginning of an English move or termination marker, not a whole one (Rxd,
 * Nf, e8=, O-O-, 1/2-)? */
int pgnk_move_incomplete(const char *p, size_t n);
/* Could incomplete move p (n bytes) be a word of stray text (letters only: e, be, Bad), which
 * the middle of a movetext skips with W_SKIPPED_TEXT as before? Not Rxd, Nf, e8=, O-, 1-. */
int pgnk_move_weak(const char *p, size_t n);
/* Notes token t (about to be read) as the last one: a move number, a move (an incomplete one too
 * when the line is not live: a live line's is judged as it is read, pgnk_mt_pending). */
void pgnk_mt_note_tail(mt_state *s, const token *t, int live);
/* An incomplete move t in a live line, reported once the next token tells whether the movetext
 * ends there (weak: a single letter, otherwise stray text). */
void pgnk_mt_pending(mt_state *s, const token *t, int weak);
/* The pending move is not the last: E_BAD_SAN (or W_SKIPPED_TEXT for a weak one). */
void pgnk_mt_flush_pending(pgn_reader *r, mt_state *s);
/* The movetext ends without a termination marker at t (the end of the input, a tag section, a new
 * game's move number): E_TRUNCATED, E_UNBALANCED_PAREN, W_MISSING_RESULT as they apply. */
void pgnk_mt_end(pgn_reader *r, mt_state *s, const token *t);
/* After the termination marker t: a lax 1/2 that is the input's last byte (1/2-1/2 cut). */
void pgnk_mt_after_marker(pgn_reader *r, const token *t);
/* The current token, a "1" after an empty line, is Black's first move number ("1..."): it
 * continues the game rather than starting one. */
int pgnk_mt_black_number(pgn_reader *r);

/* movetext_forms.c. Is t half of a glyph the lexer split (+ or U+2212 of +−, −+)? */
/* movetext_forms.c: a run of digits; a symbol that could be a move (a digit, or castling or the
 * null move); one that counts as a move seen (no bare number); the termination marker a symbol
 * is (*lax: a form W_RESULT_FORM names), or PGN_RESULT_NONE. */
int pgnk_mt_is_digits(const char *p, size_t n);
int pgnk_mt_could_be_move(const token *t);
int pgnk_mt_move_shaped(const token *t);
pgn_result pgnk_mt_symbol_result(const token *t, int *lax);
/* movetext_forms.c: O–O with a Unicode dash, @g2 in crazyhouse, played with their warning; 1 if t
 * was played so. */
int pgnk_mt_odd_move(pgn_reader *r, mt_state *s, rav_level *l, const token *t);
/* One movetext token (consumed), in the general path (movetext_token.c). Returns 1 after the
 * game's termination marker. */
int pgnk_mt_on_token(pgn_reader *r, mt_state *s, rav_level *l, const token *t);
int pgnk_mt_glyph_half(const token *t);
/* ChessBase's forfeit results, the 3 bytes at p: +-- and +:- 1-0, --+ and -:+ 0-1; else
 * PGN_RESULT_NONE. */
pgn_result pgnk_mt_forfeit_result(const char *p);
/* The length of the ASCII glyph glued to the end of move token t (Bb5+=), 0 if none. */
size_t pgnk_mt_glued_glyph(const token *t);
/* The glyph glued to a move: the last n bytes of t, as a token of its own. */
token pgnk_mt_glyph_part(const token *t, size_t n);
/* e8=♕, e8Ф: t and the glyph touching it as one token in *joined (text in buf, cap bytes), or t;
 * a look that found nothing leaves l->dead = PEEKED (see the definition). */
const token *pgnk_mt_promotion_glyph(pgn_reader *r, rav_level *l, const token *t, token *joined,
                                     char *buf, size_t cap);

#endif
