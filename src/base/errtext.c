/* SPDX-License-Identifier: MIT */
/* pgnk_errno_text (errtext.h). Built with _POSIX_C_SOURCE alone, so that strerror_r is POSIX's
 * (an int) and not GNU's (a char *). */
#define _POSIX_C_SOURCE 200809L
#include "errtext.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *pgnk_errno_text(int err, char buf[64]) {
    if (strerror_r(err, buf, 64) != 0) {
        snprintf(buf, 64, "error %d", err);
    }
    return buf;
}

void pgnk_set_msg(char *msg, size_t cap, const char *fmt, ...) {
    if (msg && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, cap, fmt, ap);
        va_end(ap);
    }
}
