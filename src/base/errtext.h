/* SPDX-License-Identifier: MIT */
/* The text of an errno value, thread-safe, and a message written into a caller's buffer
 * (errtext.c). */
#ifndef PGNKIT_ERRTEXT_H
#define PGNKIT_ERRTEXT_H

#include <stddef.h>

/* The text of errno value err, written into buf (64 bytes) and returned: strerror_r (POSIX), since
 * strerror may share one buffer between threads (POSIX marks it not thread-safe). */
const char *pgnk_errno_text(int err, char buf[64]);

/* snprintf into msg, which may be NULL (or cap 0): nothing is written then. */
void pgnk_set_msg(char *msg, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
