/* SPDX-License-Identifier: MIT */
/* Optional system libraries opened at run time (dlopen) rather than linked, so that the commands
 * that do not need them do not load them: libmicrohttpd for serve (serve_mhd.c). (libarchive is
 * the library's, src/io/archive.c.) */
#ifndef PGNKIT_CLI_DYNLIB_H
#define PGNKIT_CLI_DYNLIB_H

#include <stddef.h>

/* dlopen(soname) (RTLD_NOW | RTLD_LOCAL): the library, or NULL with "WHO needs NAME (SONAME),
 * which cannot be opened: REASON (Debian: apt-get install PACKAGE)" in err. */
void *cli_dl_open(const char *soname, const char *who, const char *name, const char *package,
                  char *err, size_t errsz);
/* dlsym(lib, name) into the function pointer at fn (size bytes): POSIX makes the conversion
 * valid, ISO C does not name it, so it goes through memcpy. 0, or -1 with "SONAME has no NAME" in
 * err. */
int cli_dl_take(void *lib, const char *soname, const char *name, void *fn, size_t size, char *err,
                size_t errsz);

#endif
