/* SPDX-License-Identifier: MIT */
/* The splitter of -j N (src/io/splitter.c, src/io/scan_blocks.c, linked from the library's objects)
 * on any bytes. Its vector paths must agree with a byte loop (tests/unit/test_scan_blocks.c does
 * the same on random texts), and a scan cut the way src/io/parallel.c cuts batches must only cut
 * where a line starts with '[' and give the true line numbers (LF, CRLF and a lone CR are one line
 * break each) of the cut and of its R, the last non-blank byte before it. The first two bytes
 * choose the batch size and the UTF-8 test. */
#include "../src/io/scan_blocks.h"
#include "../src/io/splitter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes each scanner state must stop at, written out here as the oracle (not taken from
 * src/io/scan_blocks.c): a line break anywhere, and what ends or opens the state's token. */
static const unsigned char stops[][5] = {[S_TEXT] = {'\n', '\r', '{', ';', '"'},
                                         [S_COMMENT] = {'\n', '\r', '}', '}', '}'},
                                         [S_STRING] = {'\n', '\r', '"', '\\', '\\'},
                                         [S_LINE] = {'\n', '\r', '\n', '\n', '\n'}};

static uint64_t line_of(const unsigned char *d, size_t x) {
    uint64_t line = 1;
    for (size_t k = 0; k < x; k++) {
        line += d[k] == '\r' || (d[k] == '\n' && !(k > 0 && d[k - 1] == '\r'));
    }
    return line;
}

static void vector_paths(const unsigned char *d, size_t n, size_t i, int high) {
    uint64_t lfs = 0, want_lfs = 0;
    size_t got = pgnk_plain_lines(d, i, n, high, &lfs), end = i + (n - i) / 16 * 16, last = i;
    for (size_t k = i; k < end; k++) {
        if (d[k] == '{' || d[k] == ';' || d[k] == '\r' || (high && d[k] >= 0x80)) {
            break;
        }
        if (d[k] == '\n') {
            want_lfs++;
            last = k + 1;
        }
    }
    if (got != last || lfs != want_lfs) {
        abort();
    }
    for (int state = S_TEXT; state <= S_LINE; state++) {
        size_t stop = pgnk_skip_blocks(d, i, n, state, high), k = i;
        while (k < end &&
               !(d[k] == stops[state][0] || d[k] == stops[state][1] || d[k] == stops[state][2] ||
                 d[k] == stops[state][3] || d[k] == stops[state][4] || (high && d[k] >= 0x80))) {
            k++;
        }
        if (stop != k) {
            abort();
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) {
        return 0;
    }
    size_t min = 16 + (size_t)data[0] * 4;
    int utf8 = data[1] & 1;
    const unsigned char *d = data + 2;
    size_t n = size - 2;
    for (size_t i = 0; i < n && i < 80; i += 1 + i / 4) {
        vector_paths(d, n, i, utf8);
    }
    pgnk_scanner sc;
    memset(&sc, 0, sizeof sc);
    sc.bol = 1;
    sc.check_utf8 = utf8;
    uint64_t start = 0;
    while (start < n) {
        pgnk_text t = {(const char *)d + start, n - start, start};
        if (pgnk_scan(&sc, &t, min, 1) != PGNK_SCAN_CUT) {
            break;
        }
        /* the cut is a '[' with only blanks before it on its line, which cut_from begins */
        if (sc.cut < sc.cut_from || sc.cut >= n || d[sc.cut] != '[' || sc.cut_from == 0 ||
            (d[sc.cut_from - 1] != '\n' && d[sc.cut_from - 1] != '\r') ||
            line_of(d, sc.cut) != sc.cut_line || line_of(d, sc.cut_from) != sc.cut_line ||
            sc.cut_from < start) {
            abort();
        }
        for (uint64_t k = sc.cut_from; k < sc.cut; k++) {
            if (d[k] != ' ' && d[k] != '\t') {
                abort();
            }
        }
        start = sc.cut_from; /* the next batch starts at the cut's line, as in src/io/parallel.c */
    }
    if (sc.pos > n) {
        abort();
    }
    return 0;
}
