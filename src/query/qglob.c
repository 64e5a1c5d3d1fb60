/* SPDX-License-Identifier: MIT */
/* The glob patterns of `glob` (docs/query.md, issue 31): `*` any run of characters, `?` one
 * character (a whole UTF-8 sequence), `[abc]`, `[a-z]`, `[!x]` or `[^x]` one character of a
 * class, `\x` the character x; anchored at both ends, as fnmatch(3) in a UTF-8 locale. fnmatch
 * itself is not used: it needs NUL-terminated text, and tag values are not. The loop keeps one
 * backtrack point (the last `*`), so the time is at most the product of the two lengths, with no
 * recursion and no allocation. */
#include <stdint.h>
#include <string.h>

#include "query_internal.h"

/* The length of the UTF-8 sequence that starts with byte c, at most left. */
static size_t char_len(unsigned char c, size_t left) {
    size_t n = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    return n < left ? n : left;
}

/* The character (code point; a byte that does not start valid UTF-8 is itself) at s[*i], *i
 * moved past it. */
static uint32_t next_char(const char *s, size_t n, size_t *i) {
    const unsigned char *p = (const unsigned char *)s + *i;
    size_t len = char_len(p[0], n - *i);
    uint32_t c = len == 1 ? p[0] : (uint32_t)(p[0] & (0x7fu >> len));
    for (size_t k = 1; k < len; k++) {
        c = c << 6 | (p[k] & 0x3f);
    }
    *i += len;
    return c;
}

static uint32_t fold(uint32_t c, int icase) {
    return icase && c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* The class at g[i] = '[': 1 if character c is in it (*end past its ']'), 0 if not, -1 if it
 * has no ']' (the '[' is then an ordinary character). */
static int class_has(const char *g, size_t gn, size_t i, uint32_t c, int icase, size_t *end) {
    size_t k = i + 1;
    int neg = k < gn && (g[k] == '!' || g[k] == '^'), in = 0;
    k += (size_t)neg;
    for (size_t first = k; k < gn && (g[k] != ']' || k == first);) {
        uint32_t lo = next_char(g, gn, &k), hi = lo;
        if (k + 1 < gn && g[k] == '-' && g[k + 1] != ']') {
            k++;
            hi = next_char(g, gn, &k);
        }
        in |= (fold(lo, icase) <= fold(c, icase) && fold(c, icase) <= fold(hi, icase)) ||
              (lo <= c && c <= hi);
    }
    if (k >= gn) {
        return -1;
    }
    *end = k + 1;
    return in != neg;
}

/* One element of the pattern at g[*gi] against the text at s[*si] (*si < sn): 1 and both moved
 * past it, or 0. */
static int match_one(const char *g, size_t gn, size_t *gi, const char *s, size_t sn, size_t *si,
                     int icase) {
    unsigned char c = (unsigned char)g[*gi], t = (unsigned char)s[*si];
    size_t end = *gi + 1, next = *si;
    uint32_t tc = next_char(s, sn, &next);
    if (c == '?') {
        *si = next;
        *gi = end;
        return 1;
    }
    int in = c == '[' ? class_has(g, gn, *gi, tc, icase, &end) : -1;
    if (in >= 0) {
        *si = in ? next : *si;
        *gi = end;
        return in;
    }
    if (c == '\\' && end < gn) {
        c = (unsigned char)g[end++];
    }
    if (fold(c, icase) != fold(t, icase)) {
        return 0;
    }
    (*si)++;
    *gi = end;
    return 1;
}

int pgnk_qglob_match(const char *g, size_t gn, const char *s, size_t sn, int icase) {
    size_t gi = 0, si = 0, star = SIZE_MAX, mark = 0;
    while (si < sn) {
        if (gi < gn && g[gi] == '*') {
            star = ++gi;
            mark = si;
            continue;
        }
        size_t g2 = gi, s2 = si;
        if (gi < gn && match_one(g, gn, &g2, s, sn, &s2, icase)) {
            gi = g2;
            si = s2;
        } else if (star == SIZE_MAX) {
            return 0;
        } else { /* the last '*' takes one more character */
            mark += char_len((unsigned char)s[mark], sn - mark);
            si = mark;
            gi = star;
        }
    }
    while (gi < gn && g[gi] == '*') {
        gi++;
    }
    return gi == gn;
}
