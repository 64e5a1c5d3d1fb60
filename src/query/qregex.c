/* SPDX-License-Identifier: MIT */
/* The regular expressions of `~` (docs/query.md): a small subset (literals, ., [..], [^..], * + ?,
 * ^ $, \ escapes, | between whole branches), compiled to byte classes and run as a Thompson NFA
 * over a 64-bit state set: linear time, no backtracking, no recursion, no allocation while
 * matching. POSIX <regex.h> is not used: it allocates through malloc, not the caller's allocator.
 */
#include <string.h>

#include "query_internal.h"

static void set_add(uint8_t *set, unsigned c, int icase) {
    set[c >> 3] = (uint8_t)(set[c >> 3] | (1u << (c & 7)));
    if (icase && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
        unsigned o = c ^ 0x20u;
        set[o >> 3] = (uint8_t)(set[o >> 3] | (1u << (o & 7)));
    }
}

static int set_has(const uint8_t *set, unsigned char c) {
    return (set[c >> 3] >> (c & 7)) & 1;
}

/* Reads a class [..] starting after '['; returns the index after ']' or 0 if unterminated. */
static size_t read_class(const char *s, size_t n, size_t i, uint8_t *set, int icase) {
    int neg = i < n && s[i] == '^';
    uint8_t tmp[32];
    memset(tmp, 0, sizeof tmp);
    i += (size_t)neg;
    for (int first = 1; i < n && (s[i] != ']' || first); first = 0) {
        unsigned char lo = (unsigned char)s[i];
        if (lo == '\\' && i + 1 < n) {
            lo = (unsigned char)s[++i];
        }
        unsigned char hi = lo;
        if (i + 2 < n && s[i + 1] == '-' && s[i + 2] != ']') {
            hi = (unsigned char)s[i + 2];
            i += 2;
        }
        for (unsigned c = lo; c <= hi; c++) {
            set_add(tmp, c, icase);
        }
        i++;
    }
    if (i >= n) {
        return 0;
    }
    for (int k = 0; k < 32; k++) {
        set[k] = neg ? (uint8_t)~tmp[k] : tmp[k];
    }
    return i + 1;
}

static const char *compile_branch(const char *s, size_t n, int icase, qre_branch *b) {
    size_t i = 0;
    if (i < n && s[i] == '^') {
        b->bol = 1;
        i++;
    }
    while (i < n) {
        if (s[i] == '$' && i + 1 == n) {
            b->eol = 1;
            break;
        }
        if (b->n == QRE_MAX_ITEMS) {
            return "regular expression too long (63 items at most):";
        }
        qre_item *it = &b->items[b->n++];
        memset(it, 0, sizeof *it);
        unsigned char c = (unsigned char)s[i];
        if (c == '*' || c == '+' || c == '?') {
            return "nothing to repeat in";
        } else if (c == '(' || c == ')' || c == '{') {
            return "groups and counted repeats are not supported in";
        } else if (c == '.') {
            memset(it->set, 0xff, sizeof it->set);
            i++;
        } else if (c == '[') {
            i = read_class(s, n, i + 1, it->set, icase);
            if (!i) {
                return "unterminated [ in";
            }
        } else {
            if (c == '\\') {
                if (++i >= n) {
                    return "a trailing backslash in";
                }
                c = (unsigned char)s[i];
            }
            set_add(it->set, c, icase);
            i++;
        }
        if (i < n && (s[i] == '*' || s[i] == '+' || s[i] == '?')) {
            it->quant = (uint8_t)s[i++];
        }
    }
    return NULL;
}

const char *pgnk_qre_compile(arena *a, const char *s, size_t n, int icase, qre **out) {
    uint32_t nb = 1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\') {
            i++;
        } else if (s[i] == '|') {
            nb++;
        }
    }
    if (nb > 16) {
        return "more than 16 alternatives in";
    }
    qre *re = pgnk_arena_alloc(a, sizeof *re);
    qre_branch *br = pgnk_arena_calloc(a, nb, sizeof *br);
    qre_item *items = pgnk_arena_calloc(a, (size_t)nb * QRE_MAX_ITEMS, sizeof *items);
    if (!re || !br || !items) {
        return "out of memory compiling";
    }
    re->branches = br;
    re->n = nb;
    size_t start = 0;
    for (uint32_t b = 0; b < nb; b++) {
        size_t end = start;
        while (end < n && s[end] != '|') {
            end += s[end] == '\\' && end + 1 < n ? 2 : 1;
        }
        br[b].items = items + (size_t)b * QRE_MAX_ITEMS;
        const char *m = compile_branch(s + start, end - start, icase, &br[b]);
        if (m) {
            return m;
        }
        start = end + 1;
    }
    *out = re;
    return NULL;
}

/* States are bit i = "about to match item i"; bit n = accepted. */
static uint64_t closure(const qre_branch *b, uint64_t st) {
    for (uint32_t i = 0; i < b->n; i++) {
        if ((st >> i) & 1 && (b->items[i].quant == '*' || b->items[i].quant == '?')) {
            st |= UINT64_C(1) << (i + 1);
        }
    }
    return st;
}

static int match_branch(const qre_branch *b, const char *s, size_t len) {
    uint64_t accept = UINT64_C(1) << b->n, start = closure(b, 1);
    uint64_t st = start;
    for (size_t k = 0;; k++) {
        if ((st & accept) && (!b->eol || k == len)) {
            return 1;
        }
        if (k == len) {
            return 0;
        }
        unsigned char c = (unsigned char)s[k];
        uint64_t nx = 0;
        for (uint32_t i = 0; i < b->n; i++) {
            if ((st >> i) & 1 && set_has(b->items[i].set, c)) {
                uint8_t qn = b->items[i].quant;
                nx |= UINT64_C(1) << (i + 1);
                if (qn == '*' || qn == '+') {
                    nx |= UINT64_C(1) << i;
                }
            }
        }
        st = closure(b, nx);
        if (!b->bol) {
            st |= start;
        }
        if (!st) {
            return 0;
        }
    }
}

int pgnk_qre_match(const qre *re, const char *s, size_t len) {
    for (uint32_t b = 0; b < re->n; b++) {
        if (match_branch(&re->branches[b], s, len)) {
            return 1;
        }
    }
    return 0;
}
