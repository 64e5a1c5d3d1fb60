/* SPDX-License-Identifier: MIT */
/* The tags-only read's skip of a movetext (tag_skip.h): 16 bytes at a time, each block's bytes
 * sorted into line breaks, braces and stops by SSE2 compares (or a loop where there is no SSE2,
 * and under PGNKIT_PLAIN_BITS); only the line breaks are looked at one by one. Where the CPU has
 * AVX2 (chosen at run time, as lexer_simd.c; not under PGNKIT_NO_AVX2), runs of blocks with
 * nothing to look at but plain lines pass 32 bytes a round. */
#include "tag_skip.h"

#include "../base/bits.h"

#include <stdbool.h>

#if defined(__SSE2__) && !defined(PGNKIT_PLAIN_BITS)
#define SKIP_SSE2 1
#include <emmintrin.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(PGNKIT_NO_AVX2)
#define SKIP_AVX2 1
#include <immintrin.h>
#endif
#endif

/* A block's 16 bytes (bit k: byte i + k): line feeds, braces that open and close, and stops. */
typedef struct block {
    unsigned lf, open, close, stop;
} block;

#if defined(SKIP_SSE2)
static inline __m128i eq(__m128i v, char c) {
    return _mm_cmpeq_epi8(v, _mm_set1_epi8(c));
}

/* The bytes of v that are digits, or + and : (a forfeit marker's neighbours of a -). */
static inline __m128i digit_or(__m128i v, __m128i other) {
    __m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    return _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d), other);
}

/* The 16 bytes at b + i that need classify, but their line feeds (*lf): bytes below 0x20 or above
 * 0x7F (one signed compare) but LF, " ( ) * - / ; and [ { ] } (or'ed with 0x20: a ] is let
 * through to classify). Most blocks of moves have none: one test for them. */
static inline unsigned hard(const unsigned char *b, size_t i, unsigned *lf) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
    __m128i r = _mm_sub_epi8(v, _mm_set1_epi8('('));
    __m128i nl = eq(v, '\n');
    __m128i m = _mm_or_si128(_mm_andnot_si128(nl, _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))),
                             _mm_cmpeq_epi8(_mm_min_epu8(r, _mm_set1_epi8(2)), r)); /* ( ) * */
    m = _mm_or_si128(m, _mm_or_si128(_mm_or_si128(eq(v, '"'), eq(v, ';')),
                                     _mm_or_si128(eq(v, '-'), eq(v, '/'))));
    __m128i low = _mm_or_si128(v, _mm_set1_epi8(0x20));
    m = _mm_or_si128(m, _mm_or_si128(eq(low, '{'), eq(low, '}')));
    *lf = (unsigned)_mm_movemask_epi8(nl);
    return (unsigned)_mm_movemask_epi8(m);
}

static inline void classify(const unsigned char *b, size_t i, block *k) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
    __m128i stop =
        _mm_or_si128(_mm_or_si128(eq(v, '*'), eq(v, '(')), _mm_or_si128(eq(v, ')'), eq(v, '"')));
    stop = _mm_or_si128(
        stop, _mm_or_si128(_mm_or_si128(eq(v, ';'), eq(v, '\r')),
                           _mm_or_si128(eq(v, 0), _mm_cmplt_epi8(v, _mm_setzero_si128()))));
    __m128i dash = eq(v, '-'), slash = eq(v, '/'), bracket = eq(v, '[');
    k->lf = (unsigned)_mm_movemask_epi8(eq(v, '\n'));
    k->open = (unsigned)_mm_movemask_epi8(eq(v, '{'));
    k->close = (unsigned)_mm_movemask_epi8(eq(v, '}'));
    k->stop = (unsigned)_mm_movemask_epi8(stop);
    if (!_mm_movemask_epi8(_mm_or_si128(dash, _mm_or_si128(slash, bracket)))) {
        return; /* most blocks: no byte whose neighbours decide (a castling's or a marker's -) */
    }
    __m128i p1 = _mm_loadu_si128((const __m128i *)(const void *)(b + i - 1));
    __m128i p2 = _mm_loadu_si128((const __m128i *)(const void *)(b + i - 2));
    __m128i n1 = _mm_loadu_si128((const __m128i *)(const void *)(b + i + 1));
    __m128i p1_sign = _mm_or_si128(eq(p1, '+'), eq(p1, ':'));
    __m128i n1_sign = _mm_or_si128(eq(n1, '+'), eq(n1, ':'));
    dash = _mm_and_si128(dash, _mm_or_si128(digit_or(p1, p1_sign), n1_sign));
    slash = _mm_and_si128(slash, digit_or(p1, _mm_setzero_si128()));
    __m128i cmd = _mm_or_si128(eq(p1, '{'), _mm_and_si128(eq(p1, ' '), eq(p2, '{')));
    bracket = _mm_andnot_si128(cmd, bracket);
    k->stop |= (unsigned)_mm_movemask_epi8(_mm_or_si128(dash, _mm_or_si128(slash, bracket)));
}
#else
static int is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}

static int is_stop(const unsigned char *p) {
    unsigned char c = p[0], b1 = p[-1];
    int sign = b1 == '+' || b1 == ':' || p[1] == '+' || p[1] == ':';
    switch (c) {
    case '*':
    case '(':
    case ')':
    case '"':
    case ';':
    case '\r':
    case 0: return 1;
    case '-': return is_digit(b1) || sign;
    case '/': return is_digit(b1);
    case '[': return b1 != '{' && !(b1 == ' ' && p[-2] == '{');
    default: return c >= 0x80;
    }
}

static unsigned hard(const unsigned char *b, size_t i, unsigned *lf) {
    (void)b;
    (void)i;
    *lf = 0;
    return 1; /* every block classified */
}

static void classify(const unsigned char *b, size_t i, block *k) {
    k->lf = k->open = k->close = k->stop = 0;
    for (unsigned j = 0; j < 16; j++) {
        unsigned char c = b[i + j];
        k->lf |= (unsigned)(c == '\n') << j;
        k->open |= (unsigned)(c == '{') << j;
        k->close |= (unsigned)(c == '}') << j;
        k->stop |= (unsigned)is_stop(b + i + j) << j;
    }
}
#endif

/* Whether a comment is open after the braces of bits [from, to) of k, open before them: the last
 * brace decides (comments do not nest: a { inside one is text, a } outside one stray text). */
static inline int comment_open(const block *k, unsigned from, unsigned to, int open) {
    unsigned range = (to >= 16 ? 0xFFFFu : (1u << to) - 1u) & ~((1u << from) - 1u);
    unsigned braces = (k->open | k->close) & range;
    if (!braces) {
        return open;
    }
    unsigned last = 63u - bits_clz(braces);
    return (int)((k->open >> last) & 1u);
}

/* The line that starts at j: 1 if the search may go on into it (not empty, no % line, no line
 * that starts with [), 0 if not or if the window ends first. */
static inline int plain_line(const unsigned char *b, size_t j, size_t len) {
    size_t e = j;
    while (e < len && (b[e] == ' ' || b[e] == '\t')) {
        e++;
    }
    return e < len && b[e] != '\n' && b[e] != '\r' && b[e] != '[' && b[j] != '%';
}

/* Whether every line that starts after a line feed of lf (bits of the block at i) is plain. */
static inline int lines_plain(const unsigned char *b, size_t i, unsigned lf, size_t len) {
    for (; lf; lf &= lf - 1) {
        if (!plain_line(b, i + bits_ctz(lf) + 1, len)) {
            return 0;
        }
    }
    return 1;
}

#if defined(SKIP_AVX2)
#define AVX2 __attribute__((target("avx2")))
/* hard's bytes, 32 at a time, by a look-up of each byte's two halves (nibbles): a bit of the
 * low nibble's entry and of the high nibble's entry for each kind of them (0x00-0x1F but LF:
 * bits 0 and 1; " ( ) * - /: bit 2; ;: bit 3; [ ] { }: bit 4; 0x80-0xFF: bit 5). */
#define NIBBLES_LO                                                                                 \
    0x23, 0x23, 0x27, 0x23, 0x23, 0x23, 0x23, 0x23, 0x27, 0x27, 0x26, 0x3B, 0x23, 0x37, 0x23, 0x27
#define NIBBLES_HI                                                                                 \
    0x01, 0x02, 0x04, 0x08, 0, 0x10, 0, 0x10, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20

/* The rounds of 32 bytes from i that hold nothing hard and whose line feeds all start plain
 * lines, while a round and the byte after it are in the window: the index of the first other
 * round. *line counts their line feeds, *lf_end is one past the last (untouched if none). */
AVX2 static size_t easy_rounds(const unsigned char *b, size_t i, size_t len, uint32_t *line,
                               size_t *lf_end) {
    const __m256i lo_t = _mm256_setr_epi8(NIBBLES_LO, NIBBLES_LO);
    const __m256i hi_t = _mm256_setr_epi8(NIBBLES_HI, NIBBLES_HI);
    const __m256i nibble = _mm256_set1_epi8(0x0F), lf_byte = _mm256_set1_epi8('\n');
    for (; i + 33 <= len; i += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(b + i));
        __m256i lo = _mm256_shuffle_epi8(lo_t, _mm256_and_si256(v, nibble));
        __m256i hi = _mm256_shuffle_epi8(hi_t, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
        __m256i none = _mm256_cmpeq_epi8(_mm256_and_si256(lo, hi), _mm256_setzero_si256());
        unsigned lf = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, lf_byte));
        if (~(unsigned)_mm256_movemask_epi8(none) || !lines_plain(b, i, lf, len)) {
            break;
        }
        if (lf) {
            *line += (uint32_t)bits_popcount(lf);
            *lf_end = i + (63u - bits_clz(lf)) + 1;
        }
    }
    return i;
}

static inline bool use_avx2(void) {
    return __builtin_cpu_supports("avx2");
}
#endif

/* Where the search leaves the lexer: the start of a line outside every comment, or of a symbol on
 * it, and the line's number and start. */
typedef struct commit {
    size_t at;
    uint32_t line;
    uint64_t line_off;
    int at_start; /* only blanks before it on its line (the lexer's at_line_start) */
} commit;

/* The last symbol (a token that starts with a letter or a digit) that starts after a blank outside
 * every comment in [from, to), from a token boundary outside comments on the line of to; from if
 * there is none. The lexer reads from there: that symbol is the movetext's last one before to (as
 * the byte-wise reading of the whole line would see it: the same E_TRUNCATED or not), or the
 * termination marker whose bytes stopped the search. */
static size_t last_symbol(const unsigned char *b, size_t from, size_t to) {
    size_t at = from;
    int open = 0;
    for (size_t j = from; j + 1 < to; j++) {
        unsigned char ch = b[j];
        if (open || ch == '{') {
            open = ch != '}';
        } else if ((ch == ' ' || ch == '\t') && (char_class(b[j + 1]) & C_START)) {
            at = j + 1;
        }
    }
    return at;
}

/* last_symbol where [from, to) holds no brace (no comment to step over): looked for from the end,
 * where it mostly is (the termination marker's digit right before the stop). */
static size_t last_symbol_plain(const unsigned char *b, size_t from, size_t to) {
    for (size_t at = to - 1; at > from; at--) {
        if ((b[at - 1] == ' ' || b[at - 1] == '\t') && (char_class(b[at]) & C_START)) {
            return at;
        }
    }
    return from;
}

/* One past the last brace of bits below `below` of k (a block at i), or none if there is none. */
static inline size_t brace_end(const block *k, size_t i, unsigned below, size_t none) {
    unsigned braces = (k->open | k->close) & (below >= 16 ? 0xFFFFu : (1u << below) - 1u);
    return braces ? i + (63u - bits_clz(braces)) + 1 : none;
}

/* The stop at `to` is on the line of commit c: c moves to that line's last symbol before it
 * (braces: the line has a brace before the stop). */
static void stop_line(const unsigned char *b, commit *c, size_t to, int braces) {
    size_t at = braces ? last_symbol(b, c->at, to) : last_symbol_plain(b, c->at, to);
    size_t blank = c->at;
    while (blank < at && (b[blank] == ' ' || b[blank] == '\t')) {
        blank++;
    }
    c->at_start = c->at_start && blank == at;
    c->at = at;
}

void pgnk_skip_last_token(const lexer *lx, size_t from, uint32_t line, uint64_t line_off, size_t to,
                          token *out) {
    lexer scan;
    pgnk_lexer_init_mem(&scan, lx->buf + from, to - from, lx->max_token);
    scan.base = lx->base + from;
    scan.line = line;
    scan.line_off = line_off;
    scan.at_line_start = 0;
    for (;;) {
        token t;
        pgnk_lexer_next(&scan, &t);
        if (t.kind == TOK_EOF) {
            return;
        }
        if (t.kind == TOK_SYMBOL || t.kind == TOK_LPAREN || t.kind == TOK_RPAREN ||
            t.kind == TOK_BAD) {
            *out = t;
        }
    }
}

void pgnk_skip_tail(const lexer *lx, const skip_mark *start, const skip_mark *last, size_t to,
                    token *tail) {
    tail->kind = TOK_EOF;
    if (to == start->at || pgnk_skip_tail_next(lx, to)) {
        return;
    }
    if (last->at < to) {
        pgnk_skip_last_token(lx, last->at, last->line, last->line_off, to, tail);
    }
    if (tail->kind == TOK_EOF && start->at < last->at) { /* (rare: that part has none) */
        pgnk_skip_last_token(lx, start->at, start->line, start->line_off, last->at, tail);
    }
}

/* The search's state: the commit and the one before it (the last tokens passed are after it),
 * the line of the current block, whether a comment is open before it, one past the last brace of
 * the blocks before it. */
typedef struct search {
    commit c;
    size_t prev_at;
    uint32_t line;
    int open;
    size_t braces_end;
    uint64_t base;
} search;

/* The line at j starts plain outside every comment: the commit moves there. */
static inline void commit_line(search *s, size_t j) {
    s->prev_at = s->c.at;
    s->c = (commit){j, s->line, s->base + j, 1};
}

/* The block at i that needs a look (classify): 1 if the search stops in it. */
static inline int look_block(const unsigned char *b, size_t i, size_t len, search *s) {
    block k;
    classify(b, i, &k);
    unsigned from = 0, ev = k.lf | k.stop;
    for (; ev; ev &= ev - 1) {
        unsigned bit = bits_ctz(ev);
        size_t j = i + bit + 1;
        if (((k.stop >> bit) & 1u) || !plain_line(b, j, len)) {
            if (s->c.line == s->line) {
                stop_line(b, &s->c, i + bit, brace_end(&k, i, bit, s->braces_end) > s->c.at);
            }
            return 1;
        }
        s->open = comment_open(&k, from, bit, s->open);
        from = bit + 1;
        s->line++;
        if (!s->open) {
            commit_line(s, j);
        }
    }
    s->open = comment_open(&k, from, 16, s->open);
    s->braces_end = brace_end(&k, i, 16, s->braces_end);
    return 0;
}

/* The search from i: the index of the block where it stopped, or where the window ends. */
static inline size_t search_lines(const unsigned char *b, size_t i, size_t len, search *s) {
#if defined(SKIP_AVX2)
    size_t wide = use_avx2() ? i : SIZE_MAX; /* the next round (not the blocks of a hard one) */
#endif
    for (; i + 17 <= len; i += 16) {
#if defined(SKIP_AVX2)
        if (i >= wide) { /* as the easy 16-byte blocks below, two at a time */
            size_t lf_end = 0;
            uint32_t lines = 0; /* (a local: s stays in registers) */
            i = easy_rounds(b, i, len, &lines, &lf_end);
            s->line += lines;
            wide = i + 32; /* this round's two blocks one by one */
            if (lf_end && !s->open) {
                commit_line(s, lf_end);
            }
            if (i + 17 > len) {
                break;
            }
        }
#endif
        unsigned lf;
        if (!hard(b, i, &lf) && lines_plain(b, i, lf, len)) {
            /* no comment opens or closes, nothing stops: the lines end, the last one commits */
            if (lf) {
                s->line += (uint32_t)bits_popcount(lf);
                if (!s->open) {
                    commit_line(s, i + (63u - bits_clz(lf)) + 1);
                }
            }
        } else if (look_block(b, i, len, s)) {
            return i + 16;
        }
    }
    return i;
}

/* *tail for the skip from lx->pos to s->c (tag_skip.h). */
static void search_tail(const lexer *lx, const search *s, token *tail) {
    skip_mark from = {lx->pos, lx->line, lx->line_off}, last = from;
    if (s->prev_at != lx->pos) { /* a line's start: its number, counted back */
        uint32_t lines = 0;
        for (size_t j = s->prev_at; j < s->c.at; j++) {
            lines += lx->buf[j] == '\n';
        }
        last = (skip_mark){s->prev_at, s->c.line - lines, lx->base + s->prev_at};
    }
    pgnk_skip_tail(lx, &from, &last, s->c.at, tail);
}

int pgnk_tag_skip(lexer *lx, uint64_t *until, token *tail) {
    const unsigned char *b = (const unsigned char *)lx->buf;
    size_t i = lx->pos;
    tail->kind = TOK_EOF;
    if (lx->base + i < *until || lx->last_cr || lx->nested_comments || i < 2 || lx->base + i == 0) {
        return 0;
    }
    search s = {{i, lx->line, lx->line_off, lx->at_line_start}, i, lx->line, 0, 0, lx->base};
    i = search_lines(b, i, lx->len, &s);
    *until = lx->base + i; /* the block where the search stopped, or the window's end */
    if (s.c.at == lx->pos) {
        return 0;
    }
    if (!pgnk_skip_tail_next(lx, s.c.at)) {
        search_tail(lx, &s, tail);
    }
    lx->pos = s.c.at;
    lx->line = s.c.line;
    lx->line_off = s.c.line_off;
    lx->at_line_start = (uint8_t)s.c.at_start;
    lx->last_cr = 0;
    set_keep(lx, lx->base + s.c.at);
    return 1;
}
