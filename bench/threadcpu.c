/* SPDX-License-Identifier: MIT */
/* threadcpu: an LD_PRELOAD shim that reports, for each thread of a program, its CPU time and how
 * long it slept (blocked: waiting for work or for another thread), to see how a -j N run shares
 * its work on a machine too busy for wall-clock speed-ups: the sleep excludes the time a thread
 * was runnable but waited for a core (/proc/thread-self/schedstat), so it does not grow with the
 * machine's load the way wall time does.
 *
 *   cc -O2 -shared -fPIC -o build/threadcpu.so bench/threadcpu.c -ldl -pthread
 *   LD_PRELOAD=build/threadcpu.so THREADCPU_OUT=FILE CMD [ARGS...]
 *       appends to FILE one line per thread that ends, "worker USER SYS SLEPT SLEEPS PREEMPTED",
 *       and at exit "main USER SYS SLEPT SLEEPS PREEMPTED" (seconds; CPU time from
 *       getrusage(RUSAGE_THREAD); SLEPT = the thread's lifetime less its time on a core and its
 *       time waiting for one; SLEEPS and PREEMPTED: its voluntary and involuntary context
 *       switches). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

typedef struct start {
    void *(*fn)(void *);
    void *arg;
} start;

static double main_t0;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double seconds(struct timeval tv) {
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* The thread's time on a core and waiting for one (ns in schedstat), in seconds. */
static double sched_busy(void) {
    unsigned long long run = 0, wait = 0;
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    if (f) {
        if (fscanf(f, "%llu %llu", &run, &wait) != 2) {
            run = wait = 0;
        }
        fclose(f);
    }
    return (double)(run + wait) / 1e9;
}

static void report(const char *who, double t0) {
    struct rusage ru;
    const char *path = getenv("THREADCPU_OUT");
    if (!path || getrusage(RUSAGE_THREAD, &ru) != 0) {
        return;
    }
    double slept = now() - t0 - sched_busy();
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "%s %.6f %.6f %.6f %ld %ld\n", who, seconds(ru.ru_utime), seconds(ru.ru_stime),
                slept < 0 ? 0 : slept, ru.ru_nvcsw, ru.ru_nivcsw);
        fclose(f);
    }
}

static void *trampoline(void *arg) {
    start s = *(start *)arg;
    free(arg);
    double t0 = now() - sched_busy();
    void *r = s.fn(s.arg);
    report("worker", t0);
    return r;
}

int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
    static create_fn real;
    if (!real) {
        *(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
    }
    start *s = malloc(sizeof *s);
    if (!s) {
        return real(th, attr, fn, arg);
    }
    s->fn = fn;
    s->arg = arg;
    int r = real(th, attr, trampoline, s);
    if (r != 0) {
        free(s);
    }
    return r;
}

__attribute__((constructor)) static void at_start_main(void) {
    main_t0 = now() - sched_busy();
}

__attribute__((destructor)) static void at_exit_main(void) {
    report("main", main_t0);
}
