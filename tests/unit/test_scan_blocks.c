/* SPDX-License-Identifier: MIT */
/* The splitter's vector paths (src/io/scan_blocks.c, compiled in here) against a byte-at-a-time
 * truth: pgnk_plain_lines (64 bytes at a time with SSE2's movemask on x86-64, then 16 at a time)
 * and pgnk_skip_blocks (16 at a time), on random texts of plain letters, spaces and LFs with the
 * bytes that stop a scan ('{', ';', CR, '"', '\\', '}', bytes >= 0x80) scattered at random,
 * from every start offset and to every end, with and without the test for high bytes. Both
 * look only at whole blocks of 16 bytes from their start (the caller's byte loop does the
 * rest), so the truth looks at the same bytes. */
#include "harness.h"
#include "testutil.h"

#include "../../src/io/scan_blocks.c"

#include <stdlib.h>

static int hard_byte(unsigned char c, int high) {
    return c == '{' || c == ';' || c == '\r' || (high && c >= 0x80);
}

/* The truth of pgnk_plain_lines: the bytes [i, i + 16k) for the largest k that fits before e,
 * up to the first hard byte; the LFs there and the end of the last one (i if none). */
static size_t plain_truth(const unsigned char *d, size_t i, size_t e, int high, uint64_t *lfs) {
    size_t end = i + (e - i) / 16 * 16, last = i;
    for (size_t k = i; k < end && !hard_byte(d[k], high); k++) {
        if (d[k] == '\n') {
            ++*lfs;
            last = k + 1;
        }
    }
    return last;
}

static int stop_byte(unsigned char c, int state, int high) {
    const unsigned char *s = stops[state];
    return c == s[0] || c == s[1] || c == s[2] || c == s[3] || c == s[4] || (high && c >= 0x80);
}

/* The truth of pgnk_skip_blocks: the first stop in the whole blocks from i, else their end. */
static size_t skip_truth(const unsigned char *d, size_t i, size_t n, int state, int high) {
    size_t end = i + (n - i) / 16 * 16;
    for (size_t k = i; k < end; k++) {
        if (stop_byte(d[k], state, high)) {
            return k;
        }
    }
    return end;
}

/* A text of n bytes: mostly move-like letters and spaces, an LF every 40 bytes or so, and a
 * stopping byte with odds 1 in `rare`. */
static void make_text(unsigned char *d, size_t n, unsigned rare) {
    static const unsigned char stoppers[] = {'{', ';', '\r', '"', '\\', '}', 0x80, 0xC3, 0xFF};
    static const char plain[] = "abcdefghNBRQKx12345678O-+# .";
    for (size_t k = 0; k < n; k++) {
        unsigned r = (unsigned)rand();
        d[k] = r % rare == 0 ? stoppers[(r / rare) % sizeof stoppers]
               : r % 40 == 1 ? '\n'
                             : (unsigned char)plain[(r / 40) % (sizeof plain - 1)];
    }
}

static void check_text(const unsigned char *d, size_t n) {
    for (size_t i = 0; i < n; i++) {
        for (size_t e = i; e <= n; e += 1 + (e - i) / 8) {
            for (int high = 0; high < 2; high++) {
                uint64_t got_lfs = 7, want_lfs = 7;
                size_t got = pgnk_plain_lines(d, i, e, high, &got_lfs);
                size_t want = plain_truth(d, i, e, high, &want_lfs);
                if (got != want || got_lfs != want_lfs) {
                    harness_fail(
                        __FILE__, __LINE__,
                        "plain_lines [%zu, %zu) high %d: %zu and %llu LFs, not %zu and %llu", i, e,
                        high, got, (unsigned long long)(got_lfs - 7), want,
                        (unsigned long long)(want_lfs - 7));
                    return;
                }
                harness_counts.passed++;
            }
        }
        for (int state = S_TEXT; state <= S_LINE; state++) {
            for (int high = 0; high < 2; high++) {
                size_t got = pgnk_skip_blocks(d, i, n, state, high),
                       want = skip_truth(d, i, n, state, high);
                if (got != want) {
                    harness_fail(__FILE__, __LINE__,
                                 "skip_blocks from %zu state %d high %d: %zu, not %zu", i, state,
                                 high, got, want);
                    return;
                }
                harness_counts.passed++;
            }
        }
    }
}

int main(void) {
    enum { N = 700 };
    static unsigned char d[N];
    srand(20261202);
    /* stopping bytes from never (whole 64-byte runs) to every 8 bytes or so */
    static const unsigned rare[] = {1000000, 2000, 300, 60, 8};
    for (size_t r = 0; r < sizeof rare / sizeof rare[0]; r++) {
        for (int round = 0; round < 3; round++) {
            make_text(d, N, rare[r]);
            check_text(d, N);
        }
    }
    /* a hard byte at each place of a 64-byte block, after LFs before and after it */
    for (size_t at = 0; at < 128; at++) {
        memset(d, 'a', 256);
        for (size_t k = 5; k < 256; k += 23) {
            d[k] = '\n';
        }
        d[at] = '{';
        check_text(d, 256);
        d[at] = 0xE9;
        check_text(d, 256);
    }
    return harness_finish();
}
