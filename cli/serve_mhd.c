/* SPDX-License-Identifier: MIT */
/* libmicrohttpd opened at run time by serve (serve_http.h says why). */
#ifdef PGNKIT_HAVE_MHD

#include "dynlib.h"
#include "serve_http.h"

#include <dlfcn.h>

#ifndef PGNKIT_MHD_SONAME
#define PGNKIT_MHD_SONAME "libmicrohttpd.so.12"
#endif

serve_mhd_api serve_mhd;

#define TAKE(member, name)                                                                         \
    cli_dl_take(lib, PGNKIT_MHD_SONAME, name, &serve_mhd.member, sizeof serve_mhd.member, err,     \
                errsz)

int serve_mhd_load(char *err, size_t errsz) {
    void *lib =
        cli_dl_open(PGNKIT_MHD_SONAME, "serve", "libmicrohttpd", "libmicrohttpd12", err, errsz);
    if (!lib) {
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
        TAKE(create_response_from_buffer, "MHD_create_response_from_buffer") ||
        TAKE(get_connection_info, "MHD_get_connection_info")) {
        dlclose(lib);
        return -1;
    }
    return 0; /* the library stays open for the life of the process */
}

#else
typedef int serve_mhd_unused; /* ISO C: a translation unit is not empty */
#endif
