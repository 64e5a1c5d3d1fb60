/* SPDX-License-Identifier: MIT */
/* A small test harness: CHECK macros that report file and line, counters, and the summary
 * line "RESULT passed failed skipped" that tests/run_tests.sh adds up. */
#ifndef PGNKIT_HARNESS_H
#define PGNKIT_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct test_counts {
    unsigned long passed, failed, skipped;
} test_counts;

extern test_counts harness_counts;

void harness_fail(const char *file, int line, const char *fmt, ...);
/* Path of a file under ../shared (PGNKIT_SHARED overrides); never NULL. */
const char *harness_shared(const char *rel);
/* Prints the RESULT line; returns the process exit status. */
int harness_finish(void);

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (cond) {                                                                                \
            harness_counts.passed++;                                                               \
        } else {                                                                                   \
            harness_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);                                  \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                         \
    do {                                                                                           \
        long long va_ = (long long)(a), vb_ = (long long)(b);                                      \
        if (va_ == vb_) {                                                                          \
            harness_counts.passed++;                                                               \
        } else {                                                                                   \
            harness_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, va_, vb_);          \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                                         \
    do {                                                                                           \
        uint64_t va_ = (uint64_t)(a), vb_ = (uint64_t)(b);                                         \
        if (va_ == vb_) {                                                                          \
            harness_counts.passed++;                                                               \
        } else {                                                                                   \
            harness_fail(__FILE__, __LINE__, "%s == %s: %" PRIu64 " != %" PRIu64, #a, #b, va_,     \
                         vb_);                                                                     \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                         \
    do {                                                                                           \
        const char *va_ = (a), *vb_ = (b);                                                         \
        if (va_ && vb_ && strcmp(va_, vb_) == 0) {                                                 \
            harness_counts.passed++;                                                               \
        } else {                                                                                   \
            harness_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,                 \
                         va_ ? va_ : "(null)", vb_ ? vb_ : "(null)");                              \
        }                                                                                          \
    } while (0)

#endif
