/* SPDX-License-Identifier: MIT */
/* The PGN lexer (PGN §7 tokens, §6 escape lines, §5 comments): works in place on the reader's
 * input window, never copies a token, and counts lines (LF, CRLF and lone CR) and columns. */
#ifndef PGNKIT_LEXER_H
#define PGNKIT_LEXER_H

#include "pgnkit/reader.h"

#include "../base/bits.h"

typedef enum tok_kind {
    TOK_EOF = 0,
    TOK_LBRACKET,
    TOK_RBRACKET,
    TOK_LPAREN,
    TOK_RPAREN,
    TOK_STRING,       /* text between the quotes, escapes not yet resolved */
    TOK_SYMBOL,       /* letters, digits and _+#=:-/ (and e.p. dots) */
    TOK_PERIODS,      /* one or more '.' */
    TOK_NAG,          /* $n; value holds n (saturated) */
    TOK_STAR,         /* * */
    TOK_COMMENT,      /* {text}: text between the braces */
    TOK_LINE_COMMENT, /* ;text up to the end of the line */
    TOK_ANNOTATION,   /* ! ? !! ?? !? ?!; value holds the NAG (0: other combination) */
    TOK_BAD           /* a run of bytes that start no token */
} tok_kind;

typedef struct token {
    tok_kind kind;
    const char *ptr; /* borrowed from the window; valid until the next lexer call */
    size_t len;
    pgn_loc at;
    unsigned value;       /* TOK_NAG, TOK_ANNOTATION: the NAG; TOK_SYMBOL: the pgn_result of an odd
                           * termination marker (½-½, 1–0 with an en dash), else 0 (also for
                           * castling with a Unicode dash, O–O: high set) */
    uint8_t line_start;   /* first token on its line */
    uint8_t unterminated; /* a string or comment reached the end of the input */
    uint8_t too_long;     /* longer than max_token: text dropped */
    uint8_t high;         /* holds bytes >= 0x80 */
    uint8_t blank_before; /* an empty line comes between this token and the one before */
} token;

/* White space before a token: its last two line breaks (UINT64_MAX: none), which tell whether an
 * empty line comes before the token and where (a range boundary, pgnk_lexer_range_boundary). */
typedef struct lexer_ws {
    uint64_t brk, brk_prev;
} lexer_ws;

typedef struct lexer {
    const pgn_allocator *alloc;
    pgn_read_fn read;
    void *ctx;
    char *buf;
    size_t cap, len, pos; /* window [0, len), next byte at pos */
    uint64_t base;        /* stream offset of buf[0] */
    uint64_t keep;        /* earliest stream offset the window must keep */
    uint64_t hold;  /* set by the reader: keep everything from here (raw games); or UINT64_MAX */
    uint64_t limit; /* a refill reads no byte at or past this stream offset (a bounded look ahead,
                     * which sees the end of the input there); UINT64_MAX: none */
    lexer_ws ws;    /* the white space before the last token */
    uint64_t ws_again_at; /* pgnk_lexer_rewind_ws's token, whose white space is kept */
    uint64_t line_off;    /* stream offset where the current line starts */
    uint32_t line;
    size_t max_token;
    uint8_t eof, external, at_line_start, last_cr, nested_comments;
    pgn_status error; /* PGN_E_IO or PGN_E_NOMEM once the input failed */
} lexer;

void pgnk_lexer_init(lexer *lx, const pgn_allocator *alloc, pgn_read_fn read, void *ctx,
                     size_t max_token);
void pgnk_lexer_init_mem(lexer *lx, const void *data, size_t len, size_t max_token);
void pgnk_lexer_free(lexer *lx);
/* The ASCII form of an odd symbol's n bytes at p (Unicode dashes as '-', the one-half sign as
 * "1/2") into out (cap bytes): its length, 0 if it does not fit. */
size_t pgnk_dash_ascii(const char *p, size_t n, char *out, size_t cap);
/* Reads the next token into *t. TOK_EOF at the end or after an input error (lx->error). */
void pgnk_lexer_next(lexer *lx, token *t);
/* The stream offset of the next unread byte. */
static inline uint64_t lexer_offset(const lexer *lx) {
    return lx->base + lx->pos;
}
/* Byte classes: symbol continuation, symbol start, white space, digit. */
enum { C_SYM = 1, C_START = 2, C_SPACE = 4, C_DIGIT = 8 };
extern const uint8_t pgnk_lexer_byte_class[256];
static inline unsigned char_class(unsigned char c) {
    return pgnk_lexer_byte_class[c];
}
static inline void set_keep(lexer *lx, uint64_t off) {
    lx->keep = off < lx->hold ? off : lx->hold;
}

/* Reads more input after the window, keeping bytes from lx->keep on. Returns 0 at the end. */
int pgnk_lexer_fill(lexer *lx);
/* Makes byte *i available, refilling if needed (i is relative to the window and is adjusted). */
static inline int lexer_have(lexer *lx, size_t *i) {
    if (*i < lx->len) {
        return 1;
    }
    size_t off = *i - lx->pos;
    int got = pgnk_lexer_fill(lx);
    *i = lx->pos + off; /* the fill may have moved the window even when it read nothing */
    return got && *i < lx->len;
}
/* Counts the line break c at stream offset off (the LF of a CRLF ending at *cr_end is not a
 * second one). */
static inline void lexer_count_newline(lexer *lx, uint64_t off, unsigned char c, uint64_t *cr_end) {
    if (c == '\n' && *cr_end == off) {
        lx->line_off = off + 1; /* the LF of a CRLF */
        return;
    }
    lx->line++;
    lx->line_off = off + 1;
    if (c == '\r') {
        *cr_end = off + 1;
    }
}
/* The location of window index i, on the current line. */
static inline pgn_loc lexer_loc_at(const lexer *lx, size_t i) {
    pgn_loc at;
    at.offset = lx->base + i;
    at.line = lx->line;
    at.column = (uint32_t)(at.offset - lx->line_off + 1);
    return at;
}

/* Where a fast token may start: past white space with at most one line break and no escape line,
 * from lx->pos, within the window. Fills the position (*i, and the line it is on); 0 if the fast
 * paths must leave it to pgnk_lexer_next (an empty line, a % line, a lone CR, the stream's start,
 * the window's end). */
typedef struct fast_at {
    size_t i;
    uint32_t line;
    uint64_t line_off;
    int at_start;
} fast_at;

static inline int lexer_fast_space(const lexer *lx, fast_at *f) {
    const unsigned char *b = (const unsigned char *)lx->buf;
    size_t i = lx->pos, len = lx->len;
    f->line = lx->line;
    f->line_off = lx->line_off;
    f->at_start = lx->at_line_start;
    if (lx->last_cr || lx->base + i == 0) {
        return 0;
    }
    for (; i < len; i++) {
        unsigned char c = b[i];
        if (c == ' ' || c == '\t') {
            continue;
        }
        if (c != '\n' && c != '\r') {
            break;
        }
        if (f->line != lx->line) {
            return 0; /* a second line break: perhaps an empty line */
        }
        if (c == '\r') {
            if (i + 1 >= len) {
                return 0;
            }
            i += b[i + 1] == '\n';
        }
        f->line++;
        f->line_off = lx->base + i + 1;
        f->at_start = 1;
        if (i + 1 < len && b[i + 1] == '%') {
            return 0;
        }
    }
    f->i = i;
    return i < len;
}

/* Fills t's common fields for a fast token at window index s on f's line, and moves the lexer to
 * window index end. */
static inline void lexer_fast_take(lexer *lx, token *t, const fast_at *f, size_t s, size_t end) {
    t->ptr = lx->buf + s;
    t->value = 0;
    t->unterminated = t->too_long = t->high = 0;
    t->blank_before = 0;
    t->line_start = (uint8_t)f->at_start;
    t->at.offset = lx->base + s;
    t->at.line = f->line;
    t->at.column = (uint32_t)(lx->base + s - f->line_off + 1);
    lx->line = f->line;
    lx->line_off = f->line_off;
    lx->at_line_start = 0;
    lx->pos = end;
    set_keep(lx, lx->base + end);
}

/* A '[' after white space with at most one line break, as movetext.c's fast path reads moves: the
 * tag section's tokens between tag pairs. Returns 0, having moved nothing, for anything else. */
static inline int lexer_next_bracket(lexer *lx, token *t) {
    fast_at f;
    size_t i = lx->pos;
    if (i + 1 < lx->len && lx->buf[i] == '\n' && lx->buf[i + 1] == '[' && !lx->last_cr &&
        lx->base + i != 0) {
        /* the common case, the next tag pair on the next line: as lexer_fast_space finds it */
        f.i = i + 1;
        f.line = lx->line + 1;
        f.line_off = lx->base + i + 1;
        f.at_start = 1;
    } else if (!lexer_fast_space(lx, &f) || lx->buf[f.i] != '[') {
        return 0;
    }
    t->kind = TOK_LBRACKET;
    t->len = 0;
    lexer_fast_take(lx, t, &f, f.i, f.i + 1);
    t->ptr = NULL; /* as pgnk_lexer_next: single-byte tokens carry no text */
    return 1;
}
/* The length of the termination marker at p (1-0, 0-1, 1/2-1/2, *; room bytes there) when white
 * space follows it within them, as the token reader would end it; 0 for anything else. */
static inline size_t lexer_marker_len(const char *p, size_t room) {
    size_t n =
        p[0] == '*' ? 1
        : room > 3 && p[1] == '-' && ((p[0] == '1' && p[2] == '0') || (p[0] == '0' && p[2] == '1'))
            ? 3
        : room > 7 && p[0] == '1' && p[1] == '/' && p[2] == '2' && p[3] == '-' && p[4] == '1' &&
                p[5] == '/' && p[6] == '2'
            ? 7
            : 0;
    if (n > 1 && p[n] != ' ' && p[n] != '\n' && p[n] != '\r' && p[n] != '\t') {
        return 0;
    }
    return n;
}

/* A termination marker after white space with at most one line break (as lexer_next_bracket reads
 * a '['): the token where the movetext's fast path stops at a game's end, read without the token
 * reader (issue 32). Returns 0, having moved nothing, for anything else. */
static inline int lexer_next_marker(lexer *lx, token *t) {
    fast_at f;
    if (!lexer_fast_space(lx, &f)) {
        return 0;
    }
    size_t n = lexer_marker_len(lx->buf + f.i, lx->len - f.i);
    if (n == 0 || n > lx->max_token) {
        return 0;
    }
    t->kind = n == 1 ? TOK_STAR : TOK_SYMBOL;
    lexer_fast_take(lx, t, &f, f.i, f.i + n);
    set_keep(lx, t->at.offset);   /* as pgnk_lexer_next keeps it */
    lx->ws_again_at = UINT64_MAX; /* (its white space: the next token's notes it anew) */
    t->len = n == 1 ? 0 : n;
    t->ptr = n == 1 ? NULL : t->ptr; /* (single-byte tokens carry no text) */
    return 1;
}

/* Does the window hold, from lx->pos, the LF that ends a line, an empty line's LF and one more
 * byte (the common white space between a game's tags, its movetext and the next game)? */
static inline int lexer_at_empty_line(const lexer *lx) {
    size_t i = lx->pos;
    return lx->len - i >= 3 && lx->buf[i] == '\n' && lx->buf[i + 1] == '\n' && !lx->last_cr &&
           lx->base + i != 0;
}

/* Passes those two LFs as pgnk_lexer_next's white space would: the lines, the breaks noted. */
static inline void lexer_pass_empty_line(lexer *lx) {
    uint64_t off = lx->base + lx->pos; /* the first LF */
    lx->ws.brk_prev = off;
    lx->ws.brk = off + 1;
    lx->ws_again_at = UINT64_MAX;
    lx->line += 2;
    lx->line_off = off + 2;
    lx->at_line_start = 1;
    lx->pos += 2;
    set_keep(lx, off + 2);
}

/* After a game's tags, an empty line and a digit (the first move number): the lexer moved to the
 * digit, so that the movetext's fast path reads it rather than the token reader (issue 32: about
 * 400 instructions a game); 0, nothing moved, for anything else. */
static inline int lexer_movetext_start(lexer *lx) {
    if (!lexer_at_empty_line(lx) || (unsigned)((unsigned char)lx->buf[lx->pos + 2] - '0') >= 10u) {
        return 0;
    }
    lexer_pass_empty_line(lx);
    return 1;
}

/* After a game, an empty line and a '[' (the next game's tags): the '[' read as pgnk_lexer_next
 * reads it (issue 32); 0, nothing moved, for anything else. */
static inline int lexer_next_game_bracket(lexer *lx, token *t) {
    if (!lexer_at_empty_line(lx) || lx->buf[lx->pos + 2] != '[') {
        return 0;
    }
    lexer_pass_empty_line(lx);
    fast_at f = {lx->pos, lx->line, lx->line_off, 1};
    t->kind = TOK_LBRACKET;
    t->len = 0;
    lexer_fast_take(lx, t, &f, f.i, f.i + 1);
    set_keep(lx, t->at.offset);
    t->ptr = NULL;
    t->blank_before = 1;
    return 1;
}

/* In a line of movetext whose tokens are ignored (a SKIP, a dead line), moves past the tokens that
 * cannot change the reader's state: symbols that start with a letter, move numbers, periods,
 * NAGs, annotations, ; comments and { } comments without a line that could be a tag pair. It
 * stops before anything else and at the end of the window, leaving that to pgnk_lexer_next. Returns
 * nonzero if it moved. The tag-only scan's fast path. *tail: the last token passed that sets the
 * movetext's tail, as pgnk_tag_skip's (tag_skip.h). */
int pgnk_lexer_skip_inert(lexer *lx, token *tail);
/* The rest of a plain tag pair after its '[', all on one line in the window: a name of letters,
 * digits and '_', a string of printable ASCII without backslashes, then ']', with spaces or tabs
 * between. Fills *tag and returns the window index just past the ']', or 0 (anything else: the
 * tokens then read it). Moves nothing; pgnk_lexer_take(lx, end) then moves past it. The tag
 * section's fast path: one scan instead of three tokens. */
typedef struct lexer_tag {
    pgn_str name, value;
    pgn_loc name_at, value_at; /* value_at: the opening quote, as for a TOK_STRING */
    /* block: nonzero when the pair from its name to its ']' lies in the block of that many bytes
     * (32 or 64) from name.ptr, all in the window (a copy of the block holds name and value) */
    uint8_t block;
} lexer_tag;
size_t pgnk_lexer_peek_tag(const lexer *lx, lexer_tag *tag);
/* The same by its byte scan alone. */
size_t pgnk_lexer_peek_tag_scan(const lexer *lx, lexer_tag *tag);
static inline void pgnk_lexer_take(lexer *lx, size_t end) {
    lx->pos = end;
    lx->at_line_start = 0;
    set_keep(lx, lx->base + end);
}
/* With lx->pos just past a '[': the window index past a forum wrapper's "pgn]" or "/pgn]" (any
 * case) there, 0 if none (issue 28 point 7). Moves nothing; pgnk_lexer_take then moves past it. */
size_t pgnk_lexer_wrapper(lexer *lx);
/* With lx->pos at a tag value's opening quote: the window index just past the first `"`, blanks
 * and `]` after it on the same line, and in *value the bytes between the two quotes (quotes left
 * unescaped inside: [White ""Socrates Expert""]); 0 if the line ends first. Fills the window
 * (the caller holds it from the quote on). */
size_t pgnk_lexer_lax_value(lexer *lx, pgn_str *value);
/* Moves back to stream offset off, which must still be in the window (off >= keep). */
void pgnk_lexer_rewind(lexer *lx, uint64_t off, pgn_loc at, uint8_t line_start);
/* The same, back to a token that ws preceded: lexing it again keeps ws, as if the white space
 * before it were read again (the range end needs it). */
void pgnk_lexer_rewind_ws(lexer *lx, uint64_t off, pgn_loc at, uint8_t line_start, lexer_ws ws);
/* Does the line whose first byte is window index i look like a tag pair: blanks, [, a name, blanks
 * and a quote? 0 too when the input ends first. It may move the window (keep the bytes needed). */
int pgnk_lexer_tag_line_ahead(lexer *lx, size_t i);
/* For a reader starting inside a file: skips the partial first line, then to the first range
 * boundary (a line that looks like a tag pair right after an empty line; docs/design.md, Byte
 * ranges). Returns 0, the lexer at the end, when there is none before the second line break at or
 * after end (end 0: none), where a boundary would end the range before its game. */
int pgnk_lexer_skip_to_range_start(lexer *lx, uint64_t end);
/* Is the [ at stream offset off, the token just read, a boundary that ends a range at end (the
 * first byte the next range's start scan takes)? The white space before it holds an empty line
 * whose first line break lies at or after end, and its line looks like a tag pair. A game after
 * end that starts elsewhere (without tags, within a line, with a comment, after a line that is not
 * empty) is the range's: the next range's scan passes it. end 0: never. */
int pgnk_lexer_range_boundary(lexer *lx, uint64_t off, uint64_t end);
/* 1 if the stream starts with a UTF-16 byte order mark (FF FE or FE FF). */
int pgnk_lexer_utf16_bom(lexer *lx);
/* The byte classes of the n bytes at p (lexer_simd.c), 64 at most: bit k of *sym is set when p[k]
 * is a symbol byte (C_SYM), of *digit when it is a digit; bits from n on are clear. Many bytes at
 * a time (SSE2, AVX2 chosen at run time) or one by one (PGNKIT_PLAIN_BITS, CPUs other than
 * x86-64): the same masks. */
void pgnk_lexer_masks(const unsigned char *p, size_t n, uint64_t *sym, uint64_t *digit);
/* All the classes the movetext pass reads of 64 bytes (movetext_pass.c), bit k for byte k: symbol
 * bytes and digits as pgnk_lexer_masks, ASCII letters, periods, blanks (space, tab), LF and CR. */
typedef struct lexer_masks {
    uint64_t sym, digit, letter, period, blank, lf, cr;
} lexer_masks;
/* The classes of the 64 bytes at p (all must be readable), the same way as pgnk_lexer_masks. */
void pgnk_lexer_masks_all(const unsigned char *p, lexer_masks *out);
/* Of the 32 bytes at p (all must be readable), bit k for byte k: in *name the tag name bytes
 * (letters, digits, '_'), in *stop the bytes that end a plain tag value (below 0x20, from 0x7f on,
 * '"', '\\'). AVX2, SSE2 or plain C, the same masks, chosen as pgnk_lexer_masks_all chooses. The
 * tag-pair scan's common case (pgnk_lexer_peek_tag). */
void pgnk_lexer_tag_masks(const unsigned char *p, uint32_t *name, uint32_t *stop);

/* lexer_peek_tag's common case, in one pass over the masks of the 32 bytes from lx->pos (all
 * in the window): a name right there, one space, the value, '"' and ']' right after it, all in
 * those bytes. Its answer then, else 0 (the byte scan decides). */
static inline size_t lexer_peek_tag32(const lexer *lx, lexer_tag *tag) {
    size_t p = lx->pos;
    const unsigned char *b = (const unsigned char *)lx->buf + p;
    uint32_t name, stop;
    pgnk_lexer_tag_masks(b, &name, &stop);
    unsigned e = bits_ctz(~(uint64_t)name); /* 32 if all are name bytes */
    if (e == 0 || e > 28 || b[e] != ' ' || b[e + 1] != '"' || e > lx->max_token) {
        return 0;
    }
    uint32_t rest = stop >> (e + 2);
    unsigned ve = e + 2 + (rest ? bits_ctz(rest) : 32);
    if (ve > 30 || b[ve] != '"' || b[ve + 1] != ']' || ve - e - 2 > lx->max_token) {
        return 0;
    }
    tag->name.ptr = (const char *)b;
    tag->name.len = e;
    tag->name_at = lexer_loc_at(lx, p);
    tag->value_at = lexer_loc_at(lx, p + e + 1);
    tag->value.ptr = (const char *)b + e + 2;
    tag->value.len = ve - e - 2;
    tag->block = 32; /* [name, ']'] within 32 bytes, all in the window */
    return p + ve + 2;
}

/* pgnk_lexer_peek_tag, its common case inline. */
static inline size_t lexer_peek_tag(const lexer *lx, lexer_tag *tag) {
    size_t end;
    if (lx->len - lx->pos >= 32 && !lx->last_cr && (end = lexer_peek_tag32(lx, tag))) {
        return end;
    }
    return pgnk_lexer_peek_tag_scan(lx, tag);
}
/* The window bytes [from, to) as a string; both offsets must be in the window. */
pgn_str pgnk_lexer_span(const lexer *lx, uint64_t from, uint64_t to);
pgn_loc pgnk_lexer_loc(const lexer *lx);

#endif
