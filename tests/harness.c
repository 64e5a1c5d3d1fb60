/* SPDX-License-Identifier: MIT */
/* The test harness (see harness.h). */
#include "harness.h"

#include <stdarg.h>
#include <stdlib.h>

test_counts harness_counts;

void harness_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    harness_counts.failed++;
    if (harness_counts.failed > 50) {
        return; /* keep logs readable; the count is still right */
    }
    fprintf(stdout, "FAIL %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
}

const char *harness_shared(const char *rel) {
    static char buf[4096];
    const char *root = getenv("PGNKIT_SHARED");
    snprintf(buf, sizeof buf, "%s/%s", root && *root ? root : "../shared", rel);
    return buf;
}

int harness_finish(void) {
    printf("RESULT %lu %lu %lu\n", harness_counts.passed, harness_counts.failed,
           harness_counts.skipped);
    return harness_counts.failed ? 1 : 0;
}
