/* SPDX-License-Identifier: MIT */
/* The one number parser of the command line (issue 33 item 2): every numeric option and every
 * number the CLI reads from a header or an operand goes through cli_parse_u64, so that "abc",
 * "3x", "-1", "" and a value out of range are refused alike instead of read as 0 or 3. */
#include "cli.h"

#include <inttypes.h>

const char *cli_parse_digits(const char *text, uint64_t *out) {
    uint64_t v = 0;
    const char *p = text;
    for (; p && *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) {
            return NULL;
        }
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (!p || p == text) {
        return NULL;
    }
    *out = v;
    return p;
}

int cli_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out) {
    uint64_t v = 0;
    const char *end = cli_parse_digits(text, &v);
    if (!end || *end || v < min || v > max) {
        return 0;
    }
    *out = v;
    return 1;
}

int cli_number(const char *option, const char *arg, uint64_t min, uint64_t max, uint64_t *out) {
    if (cli_parse_u64(arg, min, max, out)) {
        return EXIT_OK;
    }
    if (max == UINT64_MAX) {
        return cli_usage("%s takes a whole number from %" PRIu64 " up, not '%s'", option, min,
                         arg ? arg : "");
    }
    return cli_usage("%s takes a whole number from %" PRIu64 " to %" PRIu64 ", not '%s'", option,
                     min, max, arg ? arg : "");
}

const char *cli_skip_move_number(const char *m) {
    const char *p = m;
    while (*p >= '0' && *p <= '9') {
        p++;
    }
    if (p == m || *p != '.') {
        return m;
    }
    while (*p == '.') {
        p++;
    }
    return p;
}
