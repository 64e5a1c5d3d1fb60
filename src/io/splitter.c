/* SPDX-License-Identifier: MIT */
/* The splitter of -j N (splitter.h): a scan of the text, one byte at a time with a little state
 * (comment, string, ';' or '%' line), for the places where the serial reader surely starts a
 * game. It mirrors the lexer (src/parse/lexer.c) where that matters and errs towards fewer cuts:
 * a comment ends at '}' or, as in the lexer, at a line that looks like a tag pair after an LF
 * (the lexer's own test, src/parse/game_start.h; the lexer also ends it after a lone CR, where
 * this scan keeps the comment: fewer cuts). Two paths skip many bytes at a time (scan_blocks.c):
 * whole lines of plain text before the batch size, where only line breaks are counted
 * (pgnk_plain_lines), and the bytes a state does not stop at (pgnk_skip_blocks). */
#include "scan_blocks.h"
#include "splitter.h"

#include "../parse/game_start.h"

#include <string.h>

/* Does the line at d[i..n) look like a tag pair ([Name "), the line that ends a comment in the
 * lexer? The reader's own test (src/parse/game_start.h). 1, 0, or -1: the bytes end first. */
static int tag_line(const unsigned char *d, size_t i, size_t n) {
    pgnk_tag_scan scan = {0, 0};
    return pgnk_tag_line_scan(&scan, d + i, n - i);
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
 * found no such cut) and lies in the batch; sets the cut and its line's first byte. After a
 * marker, the serial reader has nothing pending: no skipped text, comment or tag section belongs
 * to the next game. */
static int cut_here(pgnk_scanner *sc, const pgnk_text *b, size_t s, int weak) {
    const unsigned char *d = (const unsigned char *)b->buf;
    size_t i = s;
    while (i > 0 && is_blank(d[i - 1])) {
        i--;
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
    size_t ls = s; /* the first byte of the cut's line */
    while (d[ls - 1] == ' ' || d[ls - 1] == '\t') {
        ls--;
    }
    sc->cut = b->start + s;
    sc->cut_from = b->start + ls;
    sc->cut_line = (uint32_t)(sc->breaks + 1);
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
    K_LF = 1 << 0,
    K_CR = 1 << 1,
    K_OPEN = 1 << 2,
    K_CLOSE = 1 << 3,
    K_SEMI = 1 << 4,
    K_QUOTE = 1 << 5,
    K_ESC = 1 << 6,
    K_HIGH = 1 << 7
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

/* At the first byte d[i] of a line: a cut (1), more bytes needed (-1), or on (0) with the line's
 * start handled: a tag-like line ends a comment, '%' starts an escape line. */
static int line_start(pgnk_scanner *sc, const pgnk_text *b, size_t i, size_t min, int eof,
                      int weak) {
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

int pgnk_scan(pgnk_scanner *sc, const pgnk_text *b, size_t min, int eof) {
    const unsigned char *d = (const unsigned char *)b->buf;
    size_t n = b->len, i = (size_t)(sc->pos - b->start);
    int weak = b->len > PGNK_WEAK_AFTER; /* no game ended with a marker for that long */
    unsigned high = sc->check_utf8 ? K_HIGH : 0;
    int r = PGNK_SCAN_MORE;
    while (i < n) {
        size_t to = sc->bol && sc->lf && sc->state == S_TEXT && i + 16 < min
                        ? pgnk_plain_lines(d, i, min < n ? min : n, high != 0, &sc->breaks)
                        : i;
        if (to > i) { /* whole lines in text state before min: no cut, only line breaks */
            i = to;
            sc->lf = 1;
            continue;
        }
        int ls = sc->bol ? line_start(sc, b, i, min, eof, weak) : 0;
        if (ls != 0) {
            r = ls > 0 ? PGNK_SCAN_CUT : PGNK_SCAN_MORE;
            break;
        }
        unsigned mask = masks[sc->state] | high;
        i = pgnk_skip_blocks(d, i, n, sc->state, high != 0);
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
