/* SPDX-License-Identifier: MIT */
/* Internal state of the PGN reader, shared by reader.c (games and tags), movetext.c (moves,
 * comments, NAGs, variations), text.c (string decoding) and builder.c (the game-tree visitor). */
#ifndef PGNKIT_PARSE_H
#define PGNKIT_PARSE_H

#include "../base/alloc.h"
#include "../game/game_internal.h"
#include "lexer.h"
#include "pgnkit/game.h"
#include "pgnkit/reader.h"

/* One level of the variation stack: the main line is level 0. */
typedef struct rav_level {
    pgn_pos pos;  /* position before the next move of this line */
    pgn_pos base; /* an earlier position of this line: pos is base after the moves
                   * r->line_moves[first ..] (up to the next level's first, or line_count) */
    size_t first;
    uint8_t prev_side; /* the side that played the last move of this line */
    uint8_t has_move;
    uint8_t dead;    /* an error or a SKIP: ignore the rest of this line */
    uint8_t visible; /* begin_variation was reported (so end_variation is too) */
} rav_level;

typedef struct scratch {
    char *ptr;
    size_t len, cap;
} scratch;

struct pgn_reader {
    pgn_reader_opts opts; /* opts.alloc points to alloc */
    pgn_allocator alloc;  /* a copy of the caller's (all NULL: libc) */
    lexer lx;
    token tok;
    uint8_t have_tok; /* tok is read but not consumed */
    uint8_t started, finished, stop, nomem;
    const pgn_visitor *v;
    void *user;
    /* the current game */
    pgn_game_summary sum;
    pgn_pos start;
    pgn_pos std_start; /* the standard initial position, once std_start_ready */
    uint8_t std_start_ready;
    pgn_result marker;
    pgn_loc marker_at;     /* where the termination marker was read */
    uint8_t san_canonical; /* the move just reported was written in canonical SAN */
    uint8_t encoding_warned, fen_bad, variant_bad, chess960, has_fen, has_setup, skip_movetext;
    uint8_t variant;     /* pgn_variant of the Variant tag (docs/variants.md) */
    uint8_t has_variant; /* the game has a Variant tag */
    /* a game with no Variant tag and a drop (drop_ahead.c): W_DROP_CRAZYHOUSE is due at its
     * first drop played (or at the movetext's end), at drop_at with drop_text */
    uint8_t drop_warn, drop_len;
    char drop_text[16];
    pgn_loc drop_at;
    /* drop_ahead.c's search of the stream for @ (stream offsets): it covers [at_from, at_end);
     * at_next: its first @ (UINT64_MAX: none, at_eof: the input ends at at_end); at_tag: 1 + the
     * start of its last line starting with [ (not [%) before at_next or at_end, 0 if none */
    uint64_t at_from, at_end, at_next, at_tag;
    uint8_t at_eof;
    uint8_t fen_pending; /* the FEN tag is read at the end of the tags, in the game's variant */
    uint8_t fen_variant; /* the variant the FEN tag was read in (a later Variant tag may differ) */
    pgn_loc fen_at, fen_value_at; /* the FEN tag's [ and its value's opening quote */
    uint8_t bad_tag;              /* the tag section had a malformed tag pair */
    uint8_t move_skip; /* a move callback said SKIP: the rest was skipped, end_game due */
    pgn_game *build;   /* pgn_reader_next's game, which keeps the diagnostics */
    struct pgn_node **build_stack; /* the tree builder's stack and pending pre-comment, kept */
    size_t build_cap;              /* from one pgn_reader_next to the next (no malloc a game) */
    char *build_pending;
    size_t build_pending_cap;
    uint8_t enc_seen;            /* PGN_ENC_AUTO: the 8-bit encoding the last telling text had */
    uint8_t enc_told;            /* a text told (enc_seen is this reader's, not the one given) */
    uint8_t enc_assumed;         /* a text that could not tell was read before any text told */
    scratch name, value, text;   /* decoded tag name and value, decoded comment */
    pgn_str tag_name, tag_value; /* the tag pair just read: in name and value or tag_line, or (a
                                  * plain pair that no visitor sees) in the lexer's window */
    scratch tag_result;          /* the Result tag's value */
    scratch fen;                 /* the FEN tag's value */
    struct {
        uint64_t w[2];    /* the name's first 16 bytes, zeros past its end */
        size_t len, tail; /* tail: where in tag_tails a longer name's bytes from 16 on are */
    } tag_seen[64];       /* the names of this game's first 64 tags but the common ones */
    unsigned tag_seen_count, tag_other_count; /* names noted (at most 64), in tag_seen */
    scratch tag_tails;
    uint64_t tag_filter; /* each name's bit in tag_seen (seen_tag) */
    uint64_t tag_known;  /* the common names noted, a bit at each one's slot (tag_names.c) */
    uint8_t tag_slot;    /* the tag just read: its name's slot if common, else PGNK_SLOT_NONE */
    uint8_t tag_fresh;   /* the tag just read has a name the game certainly did not have */
    /* a plain tag pair's block (lexer_tag) copied for a visitor: its name and value
     * NUL-terminated there (tag_name, tag_value) */
    char tag_line[64];
    rav_level *levels;
    size_t depth, levels_cap; /* levels in use (>= 1 while reading movetext) */
    pgn_move *line_moves;     /* the moves played on the levels' lines since their base */
    size_t line_count, line_cap;
    /* where games start and end */
    uint8_t next_known;
    uint64_t next_start;
    pgn_loc next_loc;
    uint8_t next_line_start;
    uint8_t next_boundary; /* it starts after the range end at a range boundary: an empty line
                              after the end, then a line that looks like a tag pair */
    uint64_t raw_start, raw_end;
    /* pgn_reader_raw_between: where the game's own text ends (the rest of its raw bytes lie
     * between games), and where the text before it starts (the stream's start for the first game
     * of a stream read from its start: lead_kept, else raw_start) */
    uint64_t text_end, lead_start;
    uint8_t lead_kept;
    /* other languages' piece letters (movetext_lang.c), per game */
    uint64_t lead_seen;   /* bit (c & 63) for the first byte c of each move read in English */
    uint16_t moves_or;    /* the moves read in English, or-ed: promotions (movetext_lang.c) */
    uint32_t lang_cands;  /* bit per pgn_lang reading the game; 0: English */
    uint8_t lang_tainted; /* a lowercase piece (bc4) was read in English: no other language fits */
    uint8_t lang_tok_len;
    uint8_t lang_hinted; /* W_NOTATION_HINT given in this game */
    uint8_t lang_fast;   /* lang_cands is one language of ASCII letters: lang_map translates */
    char lang_map[128];  /* each ASCII byte as English writes it, 0 for none (pgnk_lang_fast) */
    uint8_t lang_map_of; /* 1 + the language lang_map is for, 0: none yet (kept across games) */
    uint8_t lang_letters_set;  /* lang_letters, lang_piece_at are filled (once per reader) */
    uint32_t lang_letters[26]; /* bit per language of one-byte letters with 'A' + i a letter */
    uint8_t lang_piece_at[PGN_LANG_COUNT][26]; /* the piece type letter 'A' + i is in it, or 0 */
    char lang_tok[16]; /* the first move English could not read, and where */
    pgn_loc lang_at;
    uint32_t lang_prior;   /* the languages of the file's games before (a prior for a tie) */
    uint8_t lang_by_prior; /* this game's language was chosen by lang_prior */
    /* a move that cannot be played (repair.c): what the next diagnostic carries */
    char diag_sugg[48];
    char diag_repl[16];
    char repair_san[16]; /* the move played for it under PGN_READ_FIX */
    /* totals */
    uint64_t games, errors, warnings;
};

/* reader.c */
void pgnk_reader_diag(pgn_reader *r, pgn_status code, pgn_loc at, const char *text, size_t len);
/* A diagnostic with the given severity; pgnk_reader_diag gives the usual one. */
void pgnk_reader_diag_sev(pgn_reader *r, pgn_status code, pgn_severity sev, pgn_loc at,
                          const char *text, size_t len);
/* repair.c: token text (len bytes at stream offset off) could not be played in pos (st). Sets
 * the suggestions of the diagnostic that follows; under PGN_READ_FIX, when one candidate is
 * clearly meant, reports W_REPAIRED_MOVE, sets *mv and returns 1 (r->repair_san is its SAN). */
int pgnk_repair_move(pgn_reader *r, const pgn_pos *pos, const char *text, size_t len, pgn_loc at,
                     uint32_t san_flags, pgn_move *mv);
/* The result of the game just read, with its diagnostics (results.c). */
pgn_result pgnk_reader_result(pgn_reader *r);
static inline void reader_next_token(pgn_reader *r) {
    if (!r->have_tok) {
        pgnk_lexer_next(&r->lx, &r->tok);
        r->have_tok = 1;
    }
}
static inline void reader_consume(pgn_reader *r) {
    r->have_tok = 0;
}
pgn_flow reader_emit_comment(pgn_reader *r, const token *t);
void *pgnk_reader_alloc(pgn_reader *r, void *old, size_t old_size, size_t size);
/* The Variant tag's value: 1 standard, 2 Chess960, 3 wild/N (read as standard), 4 a variant of
 * pgn_variant (*variant), 0 unsupported. *variant is PGN_VARIANT_STANDARD unless 4. */
int pgnk_reader_variant_kind(const char *v, size_t n, pgn_variant *variant);

/* drop_ahead.c: at the end of a game's tags, does its movetext hold a drop (P@e6, @e6) within
 * its first PGNK_DROP_AHEAD bytes, before the game's end? If so, W_DROP_CRAZYHOUSE is made due
 * (r->drop_warn; issue 28 point 7). The lexer is put back where it was (r->tok follows the
 * window); the window holds at most those bytes more, whatever the size of the reads. */
#define PGNK_DROP_AHEAD ((uint64_t)64 * 1024)
int pgnk_drop_ahead(pgn_reader *r);
/* W_DROP_CRAZYHOUSE, if due (at the first drop played, or at the movetext's end). */
void pgnk_drop_warn(pgn_reader *r);

/* movetext.c: reads the movetext up to and including the termination marker */
void pgnk_movetext_read(pgn_reader *r);

/* What the lexer holds that a reading ahead changes (the languages, the unclosed (, the repair
 * of a slip): pgnk_ahead_begin keeps it, pgnk_ahead_end puts it back. */
typedef struct pgnk_lex_place {
    uint64_t off, hold, ws_again_at, line_off;
    lexer_ws ws;
    uint32_t line;
    uint8_t at_line_start, last_cr;
    uint8_t peeked;     /* the reader had peeked at the next token: it is given back */
    uint8_t peek_blank; /* that token's blank_before (an empty line before it: a new game's 1) */
    uint8_t peek_start; /* and its line_start */
} pgnk_lex_place;
/* Puts the reader's lexer where a reading ahead starts (after the current token, or before a
 * token the reader looked at), holding the window from hold_from (own: the current token is the
 * move being judged) or from there on; *sv: where to go back. */
void pgnk_ahead_begin(pgn_reader *r, uint64_t hold_from, int own, pgnk_lex_place *sv);
/* Back where pgnk_ahead_begin found the reader; a token it had peeked at is read again, with the
 * empty line before it that only the first reading could see. */
void pgnk_ahead_end(pgn_reader *r, const pgnk_lex_place *sv);
/* movetext_lang.c: the move in t (pos before it) in the game's other language(s). Called when
 * English failed with english (or when the game is read in other languages: then english is any
 * error). Returns PGN_OK with *res, or the error to report. */
pgn_status pgnk_lang_read(pgn_reader *r, const pgn_pos *pos, const char *s, size_t n, pgn_loc at,
                          uint32_t flags, pgn_status english, pgn_san_result *res);
/* English read *s as move mv with a quirk (Pc3): if a language that agrees with the moves so far
 * reads it as another legal move, English and those languages read the rest of the line
 * (pgnk_lang_ahead). Returns 0: English stands; 2: the game is in the other language(s), *res
 * their move; 1: E_LANGUAGE_AMBIGUOUS reported. *s follows the token if the window moved. */
int pgnk_lang_split(pgn_reader *r, const pgn_pos *pos, const char **s, size_t n, pgn_loc at,
                    uint32_t flags, pgn_move mv, pgn_san_result *res);
/* lang_ahead.c: the languages of set that read move *s (n bytes at at, pos before it) and then
 * every move of the rest of its line, each from the position after its own reading, or as far as
 * the others read when one is left; *best: those that read the most of it. The lexer is put back
 * where it was; *s (and r->tok.ptr when *s is it) follow the window if it moved. */
uint32_t pgnk_lang_ahead(pgn_reader *r, const pgn_pos *pos, const char **s, size_t n, pgn_loc at,
                         uint32_t flags, uint32_t set, uint32_t *best);
/* lang_ahead.c: is the ( just read (r->tok, or before it if the reader looked at it) closed by its
 * ) before the game's end (the end of the input, a tag pair's [, a "1" after an empty line)?
 * Reads ahead at most 4,096 tokens and puts the lexer back; past them, 1. */
int pgnk_paren_closed(pgn_reader *r);
/* The move s of a game in one language of one-byte letters (r->lang_fast), translated by
 * r->lang_map and read in one pass: what pgn_san_parse_lang does, for the common move. Returns 0
 * for anything else (castling, a figurine, an error), which pgnk_lang_read reads and reports. */
int pgnk_lang_fast(const pgn_reader *r, const pgn_pos *pos, const char *s, size_t n, uint32_t flags,
                   pgn_san_result *res);
/* Movetext starts: the game's languages as the options say. */
void pgnk_lang_game_start(pgn_reader *r);
/* The move s could not be played (st, reported) and ended its line: when English cannot read it
 * either and no language reads the game, W_NOTATION_HINT names the notations whose letters or
 * descriptive form it has (P-K5: descriptive; Sf5: da/de/no/sv, pl), once per game. */
void pgnk_lang_hint(pgn_reader *r, const pgn_pos *pos, const char *s, size_t n, pgn_loc at,
                    pgn_status st);
/* Movetext ended: W_LANGUAGE (W_DESCRIPTIVE) for a game detected as written in other languages
 * (in descriptive notation). */
void pgnk_lang_game_end(pgn_reader *r);
/* A symbol without a digit in a game read in descriptive notation: 1 if it is a move (PxP, BxN),
 * 2 if it is a word printed after moves (ch, mate, dis), to be dropped; 0 otherwise. */
int pgnk_lang_word(const pgn_reader *r, const char *s, size_t n);
/* The length of the piece glyph (figurine, Cyrillic piece letter) t starts with, 0 if none. */
size_t pgnk_lang_glyph_len(const char *s, size_t n);

/* text.c */
/* The single-byte encoding of the text s (not UTF-8) under the reader's option: with
 * PGN_ENC_AUTO, CP437 or Windows-1252 as the text's bytes tell, else as the last text that told. */
pgn_encoding pgnk_text_encoding(pgn_reader *r, const char *s, size_t len);
/* Writes to out (cap >= 4 bytes) a NUL-terminated UTF-8 excerpt of s: UTF-8 kept, other bytes
 * decoded as pgnk_text_encoding says, cut on a character boundary to fit. */
void pgnk_text_excerpt(pgn_reader *r, char *out, size_t cap, const char *s, size_t len);
/* Appends s to buf, converted to UTF-8 from the single-byte encoding enc. */
int pgnk_text_append_converted(pgn_reader *r, scratch *buf, const char *s, size_t len,
                               pgn_encoding enc);
int pgnk_scratch_put(pgn_reader *r, scratch *buf, const char *s, size_t len);
/* Decodes a string token for the visitor: escapes (tag values) and encoding. */
int pgnk_text_decode(pgn_reader *r, scratch *out, const token *t, int tag_value);
/* tag_names.c. Remembers a tag name; returns 1 if the game already had it (the same bytes), and
 * sets r->tag_fresh when it is certainly new. Past 64 names, no check. Out of memory (a name
 * longer than 16 bytes): r->nomem, and 0. */
int pgnk_seen_tag(pgn_reader *r, const char *p, size_t n);
/* The slots of the common names the reader acts on (tag_names.c's table puts them there), and
 * of none. */
enum {
    PGNK_SEEN_TAGS = 64,
    PGNK_SLOT_SETUP = 15,
    PGNK_SLOT_FEN = 26,
    PGNK_SLOT_VARIANT = 46,
    PGNK_SLOT_RESULT = 54,
    PGNK_SLOT_NONE = 64
};
/* tag_values.c. The characters of a string token's data (escapes and UTF-8 sequences once). */
size_t pgnk_tag_string_chars(const token *t);
/* A tag value with unescaped quotes inside, read from its opening quote at value_at (first_len:
 * the string read before): 1 with the lexer past the ']' (W_TAG_QUOTES), else 0, as it was. */
int pgnk_tag_lax_value(pgn_reader *r, pgn_loc value_at, size_t first_len);
/* The current token, a string its line's end cut, ending with ']': 1 with the value before the
 * ']' in r->value (W_TAG_UNCLOSED) and the token consumed, else 0. */
int pgnk_tag_unclosed(pgn_reader *r, pgn_loc *value_at);

/* builder.c */
extern const pgn_visitor pgnk_builder_visitor;
/* The builder's move event without the position before it (which the builder never reads), for
 * the reader's path that reads and plays a move in one pass (movetext.c fast_play); canonical:
 * san is the move's canonical SAN, kept in its node. user: the builder. */
pgn_flow pgnk_builder_move(void *user, pgn_move mv, pgn_str san, int canonical, pgn_loc at);
typedef struct builder builder;
struct builder {
    pgn_game *game;
    struct arena *arena; /* the game's (pgnk_game_arena), for its nodes */
    pgn_node **stack;    /* current node per level */
    size_t depth, cap;
    uint8_t fresh; /* no move yet in the current line: a comment is a pre-comment */
    char *pending; /* a variation's pre-comment, until its first move exists */
    size_t pending_len, pending_cap;
    pgn_status status;
    const pgn_allocator *alloc;
    const struct pgn_reader *reader; /* for san_canonical */
    pgn_node *pool, *pool_end;       /* nodes taken from the arena a block at a time */
    /* PGN_READ_PACK_LINE: while the game is a main line of kept SANs alone, its moves go to the
     * game's packed line (pk_base..pk, room up to pk_end), not into nodes; all NULL otherwise */
    pgnk_packed *pk_base, *pk, *pk_end;
    uint8_t pack_ok; /* the reader's PGN_READ_PACK_LINE */
    uint8_t packing; /* this game's moves are packed so far */
};

/* A builder for pgn_reader_next's game, with the buffers r kept from the last one
 * (pgnk_builder_finish gives them back, and ends a packed line: PGN_READ_PACK_LINE). */
void pgnk_builder_start(builder *b, pgn_reader *r, pgn_game *game);
void pgnk_builder_finish(builder *b, pgn_reader *r);

/* pgnk_builder_move_read when the builder's block of nodes is used up, a pre-comment waits or the
 * SAN is not 1 to 7 bytes: a new block, or the call (builder.c). */
pgn_flow pgnk_builder_move_slow(void *user, pgn_move mv, pgn_str san, pgn_loc at);

/* pgnk_builder_move for a move the fast path read (its SAN canonical), inline in the reader's
 * loop: a node with its SAN kept when no pre-comment waits, from the builder's block of nodes (a
 * pointer bumped: issue 32); otherwise pgnk_builder_move_slow, as a tail call, so that the common
 * path makes no call and saves no register. */
static inline pgn_flow pgnk_builder_move_read(void *user, pgn_move mv, pgn_str san, pgn_loc at) {
    builder *b = user;
    pgnk_packed *e = b->pk;
    if (e != b->pk_end && san.len - 1 < 7) { /* packed (pk and pk_end NULL when not packing) */
        b->pk = e + 1;
        pgnk_copy_short(e->san, san.ptr, san.len);
        e->at = at;
        e->mv = mv;
        e->san_len = (uint8_t)san.len;
        return PGN_FLOW_CONTINUE;
    }
    pgn_node *n = b->pool;
    if (san.len - 1 >= 7 || b->pending_len != 0 || n == b->pool_end) {
        return pgnk_builder_move_slow(user, mv, san, at);
    }
    pgn_node **top = &b->stack[b->depth - 1];
    b->pool = n + 1;
    pgnk_node_link(n, *top, mv, at);
    pgnk_copy_short(n->san, san.ptr, san.len);
    n->san_len = (uint8_t)san.len;
    *top = n;
    b->fresh = 0;
    return PGN_FLOW_CONTINUE;
}

#endif
