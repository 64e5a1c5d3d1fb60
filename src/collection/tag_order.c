/* SPDX-License-Identifier: MIT */
/* Ordering tag values for sorting: dates (PGN §8.1.1.3, "YYYY.MM.DD" with '?' for unknown
 * digits), rounds (§8.1.1.4, dot-separated numbers, "?" and "-"), whole numbers, else bytes; in
 * every field text ("?", "-") sorts before numbers. */
#include "pgnkit/collection.h"

#include <string.h>

static int cmp_u64(uint64_t a, uint64_t b) {
    return a < b ? -1 : a > b;
}

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Reads a whole number at *p (advancing it); 0 when there are no digits (*ok = 0). */
static uint64_t number(const char **p, const char *end, int *ok) {
    uint64_t v = 0;
    *ok = *p < end && is_digit(**p);
    for (; *p < end && is_digit(**p); (*p)++) {
        v = v < UINT64_MAX / 10 ? v * 10 + (uint64_t)(**p - '0') : UINT64_MAX;
    }
    return v;
}

/* Compares dot-separated fields: numbers by value, an unknown field ("?", "??", "-", empty)
 * before any known one, other text by bytes. */
static int cmp_fields(pgn_str a, pgn_str b) {
    const char *p = a.ptr, *pe = a.ptr + a.len, *q = b.ptr, *qe = b.ptr + b.len;
    while (p < pe || q < qe) {
        int oka, okb;
        const char *p0 = p, *q0 = q;
        uint64_t x = number(&p, pe, &oka), y = number(&q, qe, &okb);
        int enda = p == pe || *p == '.', endb = q == qe || *q == '.';
        if (oka && okb && enda && endb) {
            if (x != y) {
                return cmp_u64(x, y);
            }
        } else if ((oka && enda) != (okb && endb)) {
            return oka && enda ? 1 : -1; /* a known number after an unknown field */
        } else {
            const char *pd = memchr(p0, '.', (size_t)(pe - p0)),
                       *qd = memchr(q0, '.', (size_t)(qe - q0));
            size_t la = (size_t)((pd ? pd : pe) - p0), lb = (size_t)((qd ? qd : qe) - q0);
            int c = memcmp(p0, q0, la < lb ? la : lb);
            if (c != 0 || la != lb) {
                return c != 0 ? (c < 0 ? -1 : 1) : cmp_u64(la, lb);
            }
            p = p0 + la;
            q = q0 + lb;
        }
        p += p < pe;
        q += q < qe;
    }
    return 0;
}

static int all_digits(pgn_str s) {
    for (size_t i = 0; i < s.len; i++) {
        if (!is_digit(s.ptr[i])) {
            return 0;
        }
    }
    return s.len > 0;
}

int pgn_tag_compare(const char *name, pgn_str a, pgn_str b) {
    if (strcmp(name, "Date") == 0 || strcmp(name, "EventDate") == 0 ||
        strcmp(name, "UTCDate") == 0 || strcmp(name, "Round") == 0) {
        return cmp_fields(a, b);
    }
    if (all_digits(a) != all_digits(b)) {
        return all_digits(a) ? 1 : -1; /* text ("?", "-", names) before numbers */
    }
    if (all_digits(a)) {
        int ok;
        const char *p = a.ptr, *q = b.ptr;
        uint64_t x = number(&p, a.ptr + a.len, &ok), y = number(&q, b.ptr + b.len, &ok);
        return cmp_u64(x, y);
    }
    int c = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
    return c != 0 ? (c < 0 ? -1 : 1) : cmp_u64(a.len, b.len);
}
