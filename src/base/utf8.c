/* SPDX-License-Identifier: MIT */
/* UTF-8 (RFC 3629 §3 and §4): the one validator, decoder, encoder and boundary cut of the
 * library, shared by the PGN reader's text decoding, the JSON reader and the JSON writer. */
#include "utf8.h"

#include <string.h>

unsigned pgnk_utf8_lead(unsigned c, unsigned *lo, unsigned *hi) {
    *lo = 0x80;
    *hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        return 2;
    }
    if (c >= 0xE0 && c <= 0xEF) {
        *lo = c == 0xE0 ? 0xA0 : 0x80; /* no overlong 3-byte form */
        *hi = c == 0xED ? 0x9F : 0xBF; /* no surrogate */
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        *lo = c == 0xF0 ? 0x90 : 0x80; /* no overlong 4-byte form */
        *hi = c == 0xF4 ? 0x8F : 0xBF; /* nothing above U+10FFFF */
        return 4;
    }
    return 0;
}

size_t pgnk_utf8_seq_len(const unsigned char *s, size_t len) {
    unsigned lo, hi;
    if (s[0] < 0x80) {
        return 1;
    }
    size_t n = pgnk_utf8_lead(s[0], &lo, &hi);
    if (n == 0 || len < n || s[1] < lo || s[1] > hi) {
        return 0;
    }
    for (size_t i = 2; i < n; i++) {
        if (s[i] < 0x80 || s[i] > 0xBF) {
            return 0;
        }
    }
    return n;
}

int pgnk_utf8_valid(const char *s, size_t len) {
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        if (*p < 0x80) {
            p++;
            continue;
        }
        size_t n = pgnk_utf8_seq_len(p, (size_t)(end - p));
        if (n == 0) {
            return 0;
        }
        p += n;
    }
    return 1;
}

uint32_t pgnk_utf8_decode(const char *s, size_t len, size_t *used) {
    const unsigned char *p = (const unsigned char *)s;
    size_t n = pgnk_utf8_seq_len(p, len);
    if (n == 0) {
        *used = 1;
        return PGNK_UTF8_REPLACEMENT;
    }
    *used = n;
    if (n == 1) {
        return p[0];
    }
    static const unsigned char lead_mask[5] = {0, 0, 0x1F, 0x0F, 0x07};
    uint32_t cp = p[0] & lead_mask[n];
    for (size_t i = 1; i < n; i++) {
        cp = (cp << 6) | (uint32_t)(p[i] & 0x3F);
    }
    return cp;
}

size_t pgnk_utf8_encode(uint32_t cp, char out[4]) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t pgnk_utf8_cut(const char *s, size_t len, size_t max) {
    if (len <= max) {
        return len;
    }
    size_t n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) {
        n--; /* s[n] would be the first byte left out: back up to the start of its character */
    }
    return n;
}

size_t pgnk_utf8_excerpt(char *out, size_t cap, const char *s, size_t len) {
    size_t n = 0;
    while (n < len && n + 1 < cap && (unsigned char)s[n] < 0x80) {
        out[n] = s[n]; /* ASCII, most excerpts whole (W_LANGUAGE in every game: issue 28) */
        n++;
    }
    for (size_t i = n; i < len;) {
        char u[4];
        size_t used;
        size_t k = pgnk_utf8_encode(pgnk_utf8_decode(s + i, len - i, &used), u);
        if (n + k > cap - 1) {
            break;
        }
        memcpy(out + n, u, k);
        n += k;
        i += used;
    }
    out[n] = 0;
    return n;
}
