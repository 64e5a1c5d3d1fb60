/* SPDX-License-Identifier: MIT */
/* The text of an errno value, thread-safe (errtext.c). */
#ifndef PGNKIT_ERRTEXT_H
#define PGNKIT_ERRTEXT_H

/* The text of errno value err, written into buf (64 bytes) and returned: strerror_r (POSIX), since
 * strerror may share one buffer between threads (POSIX marks it not thread-safe). */
const char *pgnk_errno_text(int err, char buf[64]);

#endif
