/* SPDX-License-Identifier: MIT */
/* User text (player names, tag values, typed moves) on a terminal: every control character
 * shown as a space, so that a name cannot set the window title or clear the screen (issue 36). */
#include "driver.h"

#include <stdio.h>

size_t cli_term_text(char *dst, size_t cap, const char *src, size_t len, size_t *used) {
    const unsigned char *p = (const unsigned char *)src;
    size_t i = 0, k = 0;
    while (i < len && k + 1 < cap) {
        unsigned c = p[i];
        if (c == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f) {
            dst[k++] = ' '; /* a C1 control in UTF-8: U+009B is CSI on some terminals */
            i += 2;
        } else {
            dst[k++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
            i++;
        }
    }
    dst[k] = '\0';
    if (used) {
        *used = i;
    }
    return k;
}

void cli_term_put(FILE *f, const char *s, size_t len, size_t width) {
    char buf[256];
    size_t at = 0, shown = 0;
    while (at < len) {
        size_t used = 0;
        size_t n = cli_term_text(buf, sizeof buf, s + at, len - at, &used);
        fwrite(buf, 1, n, f);
        at += used;
        shown += n;
    }
    fprintf(f, "%*s", width > shown ? (int)(width - shown) : 0, "");
}
