/* SPDX-License-Identifier: MIT */
/* dlsym into function pointers (dynlib.h). */
#include "dynlib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

void *cli_dl_open(const char *soname, const char *who, const char *name, const char *package,
                  char *err, size_t errsz) {
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        snprintf(err, errsz,
                 "%s needs %s (%s), which cannot be opened: %s (Debian: apt-get install %s)", who,
                 name, soname, why ? why : "not found", package);
    }
    return lib;
}

int cli_dl_take(void *lib, const char *soname, const char *name, void *fn, size_t size, char *err,
                size_t errsz) {
    void *p = dlsym(lib, name);
    if (!p || size != sizeof p) {
        snprintf(err, errsz, "%s has no %s", soname, name);
        return -1;
    }
    memcpy(fn, &p, size);
    return 0;
}
