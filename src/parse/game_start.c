/* SPDX-License-Identifier: MIT */
/* Where a game starts: the tag-line test of game_start.h. */
#include "game_start.h"

#include "lexer.h"

int pgnk_tag_line_scan(pgnk_tag_scan *s, const unsigned char *line, size_t n) {
    for (; s->at < n; s->at++) {
        unsigned char c = line[s->at];
        int blank = c == ' ' || c == '\t';
        switch (s->stage) {
        case 0:
            if (c == '[') {
                s->stage = 1;
            } else if (!blank) {
                return 0;
            }
            break;
        case 1:
            if ((char_class(c) & (C_START | C_SYM)) != (C_START | C_SYM)) {
                return 0;
            }
            s->stage = 2;
            break;
        case 2:
            if (blank) {
                s->stage = 3;
            } else if (!(char_class(c) & C_SYM)) {
                return 0;
            }
            break;
        default:
            if (!blank) {
                return c == '"';
            }
        }
    }
    return -1;
}
