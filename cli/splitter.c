/* SPDX-License-Identifier: MIT */
/* The splitter of -j N (splitter.h): a scan of the text, one byte at a time with a little state
 * (comment, string, ';' or '%' line), for the places where the serial reader surely starts a
 * game. It mirrors the lexer (src/parse/lexer.c) where that matters and errs towards fewer cuts:
 * a comment ends at '}' or, as in the lexer, at a line that looks like a tag pair after an LF
 * (tested more strictly here than there). Two paths skip 16 bytes at a time (GNU C vectors): whole
 * lines of plain text before the batch size, where only line breaks are counted (plain_lines),
 * and the bytes a state does not stop at (skip_blocks); the scan of TWIC 1427+1428 went from 10.6
 * to 3.0 instructions a byte (callgrind). */
#include "splitter.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h> /* movemask: 64 bytes to a 64-bit mask (x86-64 always has SSE2) */
#endif

enum { S_TEXT, S_COMMENT, S_STRING, S_LINE };

static int name_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Does the line at d[i..n) look like a tag pair ([Name "), the line that ends a comment in the
 * lexer (tag_line_ahead)? Stricter than the lexer's test, never looser. 1, 0, or -1: the bytes
 * end first. */
static int tag_line(const unsigned char *d, size_t i, size_t n) {
    while (i < n && (d[i] == ' ' || d[i] == '\t')) {
        i++;
    }
    if (i < n && d[i] != '[') {
        return 0;
    }
    if (++i < n && !name_char(d[i])) {
        return 0;
    }
    while (i < n && name_char(d[i])) {
        i++;
    }
    size_t s = i;
    while (i < n && (d[i] == ' ' || d[i] == '\t')) {
        i++;
    }
    if (i >= n) {
        return -1;
    }
    return i > s && d[i] == '"';
}

static int is_blank(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Does the line d[j..e) end with a termination marker (PGN §8.2.6) as its own token, with no ';'
 * comment before it? */
static int ends_with_marker(const unsigned char *d, size_t j, size_t e) {
    static const char *const markers[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (size_t k = j; k < e; k++) {
        if (d[k] == ';') {
            return 0;
        }
    }
    for (size_t m = 0; m < 4; m++) {
        size_t n = strlen(markers[m]);
        if (e - j >= n && memcmp(d + e - n, markers[m], n) == 0 &&
            (e - j == n || is_blank(d[e - n - 1]) || d[e - n - 1] == '}' || d[e - n - 1] == ')')) {
            return 1;
        }
    }
    return 0;
}

/* At a '[' starting a line at d[s] (b's bytes): a cut when the last non-blank line before it ends
 * with a termination marker (weak: neither starts with '[' nor ends with ']'; for a batch that
 * found no such cut) and lies in the batch; sets the cut and its R. After a marker, the serial
 * reader has nothing pending: no skipped text, comment or tag section belongs to the next game. */
static int cut_here(cli_scanner *sc, const cli_text *b, size_t s, int weak) {
    const unsigned char *d = (const unsigned char *)b->buf;
    size_t i = s;
    uint64_t between = 0;
    while (i > 0 && is_blank(d[i - 1])) {
        i--;
        between += d[i] == '\r' || (d[i] == '\n' && !(i > 0 && d[i - 1] == '\r'));
    }
    if (i == 0 || d[i - 1] == ']') {
        return 0;
    }
    size_t j = i - 1;
    while (j > 0 && d[j - 1] != '\n' && d[j - 1] != '\r') {
        j--;
    }
    if (j == 0) {
        return 0; /* the line's start is before the batch: unknown */
    }
    size_t lead = j;
    while (d[lead] == ' ' || d[lead] == '\t') {
        lead++;
    }
    if (d[lead] == '[' || d[lead] == '%' || !(weak || ends_with_marker(d, lead, i))) {
        return 0;
    }
    sc->cut = b->start + s;
    sc->cut_from = b->start + i - 1;
    sc->cut_line = (uint32_t)(sc->breaks - between + 1);
    sc->cut_first_line = (uint32_t)(sc->breaks + 1);
    return 1;
}

/* The length of the valid UTF-8 sequence at d[i..n), 0 if invalid, -1 if the bytes end first. */
static int utf8_len(const unsigned char *d, size_t i, size_t n) {
    unsigned char c = d[i];
    int len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (len == 0) {
        return 0;
    }
    for (int k = 1; k < len; k++) {
        if (i + (size_t)k >= n) {
            return -1;
        }
        unsigned char t = d[i + (size_t)k];
        if ((t & 0xC0) != 0x80 ||
            (k == 1 && ((c == 0xE0 && t < 0xA0) || (c == 0xED && t > 0x9F) ||
                        (c == 0xF0 && t < 0x90) || (c == 0xF4 && t > 0x8F)))) {
            return 0;
        }
    }
    return len;
}

/* Byte classes of the scan: a state's loop skips every byte outside its mask. */
enum {
    K_LF = 1,
    K_CR = 2,
    K_OPEN = 4,
    K_CLOSE = 8,
    K_SEMI = 16,
    K_QUOTE = 32,
    K_ESC = 64,
    K_HIGH = 128
};
#define H16                                                                                        \
    K_HIGH, K_HIGH, K_HIGH, K_HIGH, K_HIGH, K_HIGH, K_HIGH, K_HIGH, K_HIGH, K_HIGH, K_HIGH,        \
        K_HIGH, K_HIGH, K_HIGH, K_HIGH, K_HIGH
static const unsigned char klass[256] = {['\n'] = K_LF,
                                         ['\r'] = K_CR,
                                         ['{'] = K_OPEN,
                                         ['}'] = K_CLOSE,
                                         [';'] = K_SEMI,
                                         ['"'] = K_QUOTE,
                                         ['\\'] = K_ESC,
                                         [128] = H16,
                                         H16,
                                         H16,
                                         H16,
                                         H16,
                                         H16,
                                         H16,
                                         H16};
#undef H16
static const unsigned char masks[] = {[S_TEXT] = K_LF | K_CR | K_OPEN | K_SEMI | K_QUOTE,
                                      [S_COMMENT] = K_LF | K_CR | K_CLOSE,
                                      [S_STRING] = K_LF | K_CR | K_QUOTE | K_ESC,
                                      [S_LINE] = K_LF | K_CR};

/* The bytes each state stops at (masks, without K_HIGH), repeated to fill five. */
static const unsigned char stops[][5] = {[S_TEXT] = {'\n', '\r', '{', ';', '"'},
                                         [S_COMMENT] = {'\n', '\r', '}', '}', '}'},
                                         [S_STRING] = {'\n', '\r', '"', '\\', '\\'},
                                         [S_LINE] = {'\n', '\r', '\n', '\n', '\n'}};

/* GNU C vectors (gcc, clang): 16 bytes compared at once, SSE2 on x86-64, NEON on arm64. */
typedef unsigned char vbytes __attribute__((vector_size(16)));
typedef signed char vsigned __attribute__((vector_size(16)));

/* The first byte from i on where the scan in state must stop (one of stops[state], or with high
 * a byte >= 0x80), or (big-endian, or fewer than 16 bytes left) a byte before it from which the
 * byte loop of cli_scan goes on. Most of a PGN text (moves, tag values, comment
 * words) holds none, and this skips it 16 bytes at a time. */
static size_t skip_blocks(const unsigned char *d, size_t i, size_t n, int state, int high) {
    const unsigned char *s = stops[state];
    vbytes c0 = {0}, c1 = {0}, c2 = {0}, c3 = {0}, c4 = {0}, hi = {0};
    c0 += s[0];
    c1 += s[1];
    c2 += s[2];
    c3 += s[3];
    c4 += s[4];
    hi += (unsigned char)(high ? 0x80 : 0); /* v & hi is v's high bit, when tested */
    for (; n - i >= 16; i += 16) {
        vbytes v;
        memcpy(&v, d + i, sizeof v);
        vsigned hit = (v == c0) | (v == c1) | (v == c2) | (v == c3) | (v == c4) | ((v & hi) != 0);
        uint64_t w[2];
        memcpy(w, &hit, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (w[0] | w[1]) { /* the first byte of the block that is set: the stop */
            return i + (w[0] ? (size_t)__builtin_ctzll(w[0]) / 8
                             : 8 + (size_t)__builtin_ctzll(w[1]) / 8);
        }
#else
        if (w[0] | w[1]) {
            break;
        }
#endif
    }
    return i;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The set bytes (0xFF each) of a compare's half: how many. */
static uint64_t set_bytes(uint64_t w) {
    return ((w & 0x0101010101010101u) * 0x0101010101010101u) >> 56;
}

/* Keeps the LF bytes lf[] before byte p of their block (0..15). */
static void before(uint64_t lf[2], unsigned p) {
    if (p < 8) {
        lf[0] &= p ? (UINT64_C(1) << (8 * p)) - 1 : 0;
        lf[1] = 0;
    } else {
        lf[1] &= p > 8 ? (UINT64_C(1) << (8 * (p - 8))) - 1 : 0;
    }
}

/* From a line start in text state after an LF (so that an LF at i is a line break of its own),
 * before e: the end of the last LF before the first byte that can change the scan's state or
 * count (a '{', ';', CR, or with high a byte >= 0x80), the LFs counted in *lfs; i when there is
 * none. Up to there every line starts in text state and ends in an LF ('"' strings and '%' lines
 * end with their line), and no cut is looked for before min. */
#if defined(__SSE2__)
/* The bits set in w. */
static unsigned bit_count(uint64_t w) {
    w -= (w >> 1) & 0x5555555555555555u;
    w = (w & 0x3333333333333333u) + ((w >> 2) & 0x3333333333333333u);
    w = (w + (w >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    return (unsigned)((w * 0x0101010101010101u) >> 56);
}

/* One 16-byte block of plain_blocks: its LF bytes in bits 0-15, its hard bytes ('{', ';', CR;
 * with high_mask 0xFFFF, bytes >= 0x80) in bits 16-31. */
static inline uint32_t block_bits(const unsigned char *p, unsigned high_mask) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    const __m128i h = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('{')), _mm_cmpeq_epi8(v, _mm_set1_epi8(';'))),
        _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
    unsigned hard = (unsigned)_mm_movemask_epi8(h) | ((unsigned)_mm_movemask_epi8(v) & high_mask);
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))) | hard << 16;
}

/* plain_lines over 64 bytes at a time with SSE2's movemask (fewer instructions a byte than the
 * 16-byte loop below, which goes on from where this stops): *i moves past the blocks without a
 * hard byte; 1 when one was found (the LFs before it counted, *last set). */
static int plain_blocks(const unsigned char *d, size_t *i, size_t e, int high, uint64_t *lfs,
                        size_t *last) {
    const unsigned high_mask = high ? 0xFFFFu : 0;
    for (; e - *i >= 64; *i += 64) {
        const unsigned char *p = d + *i;
        uint64_t b0 = block_bits(p, high_mask), b1 = block_bits(p + 16, high_mask),
                 b2 = block_bits(p + 32, high_mask), b3 = block_bits(p + 48, high_mask);
        uint64_t lfm =
            (b0 & 0xFFFF) | (b1 & 0xFFFF) << 16 | (b2 & 0xFFFF) << 32 | (b3 & 0xFFFF) << 48;
        uint64_t hard = b0 >> 16 | (b1 >> 16) << 16 | (b2 >> 16) << 32 | (b3 >> 16) << 48;
        if (hard) {
            lfm &= (hard & (0 - hard)) - 1; /* the LFs before the first hard byte */
        }
        if (lfm) {
            *lfs += bit_count(lfm);
            *last = *i + 64 - (size_t)__builtin_clzll(lfm);
        }
        if (hard) {
            return 1;
        }
    }
    return 0;
}
#endif

static size_t plain_lines(const unsigned char *d, size_t i, size_t e, int high, uint64_t *lfs) {
    size_t last = i;
#if defined(__SSE2__)
    if (plain_blocks(d, &i, e, high, lfs, &last)) {
        return last;
    }
#endif
    vbytes lf_v = {0}, open_v = {0}, semi_v = {0}, cr_v = {0}, hi = {0};
    lf_v += '\n';
    open_v += '{';
    semi_v += ';';
    cr_v += '\r';
    hi += (unsigned char)(high ? 0x80 : 0);
    for (; e - i >= 16; i += 16) {
        vbytes v;
        memcpy(&v, d + i, sizeof v);
        vsigned hard = (v == open_v) | (v == semi_v) | (v == cr_v) | ((v & hi) != 0);
        vsigned is_lf = v == lf_v;
        uint64_t h[2], lf[2];
        memcpy(h, &hard, sizeof h);
        memcpy(lf, &is_lf, sizeof lf);
        if (h[0] | h[1]) {
            before(lf, h[0] ? (unsigned)__builtin_ctzll(h[0]) / 8
                            : 8 + (unsigned)__builtin_ctzll(h[1]) / 8);
        }
        *lfs += set_bytes(lf[0]) + set_bytes(lf[1]);
        if (lf[1] | lf[0]) {
            last = i + (lf[1] ? 16 - (size_t)__builtin_clzll(lf[1]) / 8
                              : 8 - (size_t)__builtin_clzll(lf[0]) / 8);
        }
        if (h[0] | h[1]) {
            break;
        }
    }
    return last;
}
#else
static size_t plain_lines(const unsigned char *d, size_t i, size_t e, int high, uint64_t *lfs) {
    (void)d, (void)e, (void)high, (void)lfs;
    return i;
}
#endif

/* At the first byte d[i] of a line: a cut (1), more bytes needed (-1), or on (0) with the line's
 * start handled: a tag-like line ends a comment, '%' starts an escape line. */
static int line_start(cli_scanner *sc, const cli_text *b, size_t i, size_t min, int eof, int weak) {
    const unsigned char *d = (const unsigned char *)b->buf;
    if (d[i] == '\n' || d[i] == '\r') {
        return 0; /* an empty line: still at a line start after it */
    }
    if (sc->state == S_COMMENT && sc->lf) {
        int t = tag_line(d, i, b->len);
        if (t < 0 && !eof) {
            return -1;
        }
        sc->state = t > 0 ? S_TEXT : S_COMMENT; /* not a cut: the comment is unterminated */
    } else if (sc->state == S_TEXT && d[i] == '[' && i >= min && cut_here(sc, b, i, weak)) {
        return 1;
    } else if (sc->state == S_TEXT && d[i] == '%') {
        sc->state = S_LINE;
    }
    sc->bol = 0;
    return 0;
}

int cli_scan(cli_scanner *sc, const cli_text *b, size_t min, int eof) {
    const unsigned char *d = (const unsigned char *)b->buf;
    size_t n = b->len, i = (size_t)(sc->pos - b->start);
    int weak = b->len > CLI_WEAK_AFTER; /* no game ended with a marker for that long */
    unsigned high = sc->check_utf8 ? K_HIGH : 0;
    int r = CLI_SCAN_MORE;
    while (i < n) {
        size_t to = sc->bol && sc->lf && sc->state == S_TEXT && i + 16 < min
                        ? plain_lines(d, i, min < n ? min : n, high != 0, &sc->breaks)
                        : i;
        if (to > i) { /* whole lines in text state before min: no cut, only line breaks */
            i = to;
            sc->lf = 1;
            continue;
        }
        int ls = sc->bol ? line_start(sc, b, i, min, eof, weak) : 0;
        if (ls != 0) {
            r = ls > 0 ? CLI_SCAN_CUT : CLI_SCAN_MORE;
            break;
        }
        unsigned mask = masks[sc->state] | high;
        i = skip_blocks(d, i, n, sc->state, high != 0);
        while (i < n && !(klass[d[i]] & mask)) {
            i++;
        }
        if (i >= n) {
            break;
        }
        unsigned char c = d[i];
        if (c == '\n' || c == '\r') {
            int cr_before = i > 0 ? d[i - 1] == '\r' : sc->prev_cr;
            sc->breaks += c == '\r' || !cr_before;
            sc->lf = c == '\n';
            sc->bol = 1;
            sc->state = sc->state == S_COMMENT ? S_COMMENT : S_TEXT;
            i++;
        } else if (c >= 0x80) {
            int len = utf8_len(d, i, n);
            if (len < 0 && !eof) {
                break;
            }
            sc->dirty |= len <= 0;
            i += len > 0 ? (size_t)len : 1;
        } else if (sc->state == S_STRING && c == '\\') {
            if (i + 1 >= n && !eof) {
                break;
            }
            i += i + 1 < n && (d[i + 1] == '"' || d[i + 1] == '\\') ? 2 : 1;
        } else {
            sc->state = c == '{'                          ? S_COMMENT
                        : c == '"' && sc->state == S_TEXT ? S_STRING
                        : c == ';'                        ? S_LINE
                                                          : S_TEXT;
            i++;
        }
    }
    sc->pos = b->start + i;
    sc->prev_cr = i > 0 ? d[i - 1] == '\r' : sc->prev_cr;
    return r;
}
