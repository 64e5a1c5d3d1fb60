/* SPDX-License-Identifier: MIT */
/* libmicrohttpd opened at run time by serve (serve_http.h says why). */
#ifdef PGNKIT_HAVE_MHD

#include "serve_http.h"

#include <dlfcn.h>
#include <string.h>
#include <stdio.h>

#ifndef PGNKIT_MHD_SONAME
#define PGNKIT_MHD_SONAME "libmicrohttpd.so.12"
#endif

serve_mhd_api serve_mhd;

/* dlsym's answer into a function pointer: POSIX makes the conversion valid, ISO C does not name
 * it, so it goes through memcpy. */
static int take(void *lib, const char *name, void *fn, size_t size, char *err, size_t errsz) {
    void *p = dlsym(lib, name);
    if (!p) {
        snprintf(err, errsz, "%s has no %s", PGNKIT_MHD_SONAME, name);
        return -1;
    }
    memcpy(fn, &p, size);
    return 0;
}

#define TAKE(member, name) take(lib, name, &serve_mhd.member, sizeof serve_mhd.member, err, errsz)

int serve_mhd_load(char *err, size_t errsz) {
    void *lib = dlopen(PGNKIT_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(err, errsz,
                 "serve needs libmicrohttpd (%s), which cannot be opened: %s (Debian: apt-get "
                 "install libmicrohttpd12)",
                 PGNKIT_MHD_SONAME, why ? why : "not found");
        return -1;
    }
    if (TAKE(start_daemon, "MHD_start_daemon") || TAKE(stop_daemon, "MHD_stop_daemon") ||
        TAKE(queue_response, "MHD_queue_response") ||
        TAKE(destroy_response, "MHD_destroy_response") ||
        TAKE(add_response_header, "MHD_add_response_header") ||
        TAKE(lookup_connection_value, "MHD_lookup_connection_value") ||
        TAKE(suspend_connection, "MHD_suspend_connection") ||
        TAKE(resume_connection, "MHD_resume_connection") ||
        TAKE(create_response_from_callback, "MHD_create_response_from_callback") ||
        TAKE(create_response_from_buffer, "MHD_create_response_from_buffer")) {
        dlclose(lib);
        return -1;
    }
    return 0; /* the library stays open for the life of the process */
}

#else
typedef int serve_mhd_unused; /* ISO C: a translation unit is not empty */
#endif
