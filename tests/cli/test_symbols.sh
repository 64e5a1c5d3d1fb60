#!/usr/bin/env bash
# Exported names (STYLE C3, issue 12): every global symbol that nm shows defined in libpgnkit.a
# starts with pgn_, PGN_ or pgnk_ (internal), and libpgnkit.so exports pgn_/PGN_ names only
# (pgnk_ names are hidden by -fvisibility=hidden). The Makefile hands the library paths in
# PGNKIT_LIB_A and PGNKIT_LIB_SO; a missing path or library is a failure, never a skip.
# Prints "RESULT passed failed skipped".
set -u
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
libs_a=${PGNKIT_LIB_A:-}
libs_so=${PGNKIT_LIB_SO:-}
[ -n "$libs_a" ] || bad "PGNKIT_LIB_A is not set (make check sets it)"
[ -n "$libs_so" ] || bad "PGNKIT_LIB_SO is not set (make check sets it)"
command -v nm >/dev/null || bad "nm not found (binutils)"
check() { # kind (a|so), library, allowed-name regex
    local kind=$1 lib=$2 allow=$3 syms stray
    if [ ! -f "$lib" ]; then
        bad "$lib: no such library"
        return
    fi
    if [ "$kind" = so ]; then
        syms=$(nm -D --defined-only "$lib" | awk 'NF == 3 { print $3 }')
    else
        syms=$(nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }')
    fi
    # an empty list would mean nm read nothing: the test must be able to fail
    if [ "$(grep -c '^pgn_' <<<"$syms")" -lt 50 ]; then
        bad "$lib: nm found fewer than 50 pgn_ names (nm output unreadable?)"
        return
    fi
    stray=$(grep -Ev "$allow" <<<"$syms" | sort -u)
    if [ -n "$stray" ]; then
        bad "$lib exports names outside the allowed prefixes: $(tr '\n' ' ' <<<"$stray")"
    else
        ok
    fi
}
# AddressSanitizer adds a one-definition-rule indicator __odr_asan.NAME beside each global
# variable NAME of the ASan build: the name after the dot is what must carry the prefix.
for lib in $libs_a; do check a "$lib" '^(__odr_asan[.])?(pgn_|PGN_|pgnk_)'; done
for lib in $libs_so; do check so "$lib" '^(pgn_|PGN_)'; done
# the check itself: a bare name must be caught (a test that cannot fail is a defect)
if grep -Ev '^(pgn_|PGN_|pgnk_)' <<<$'pgn_reader_new\narena_alloc' | grep -q '^arena_alloc$'; then
    ok
else
    bad "the prefix filter lets arena_alloc through"
fi
# The library never prints, exits or aborts by itself, has no mutable globals and calls nothing
# that is not thread-safe (STYLE: "never crashes, aborts or prints"; docs/design.md): its
# undefined symbols hold no stdio stream or print call, no exit/abort, no libc function that POSIX
# marks as not thread-safe; and no object of it sits in a writable data section (.data, .bss; a
# table of pointers is const and goes to .data.rel.ro). assert (programmer errors, STYLE) is allowed.
forbidden='^(exit|_exit|_Exit|abort|quick_exit|printf|vprintf|puts|putchar|perror|stdout|stderr|stdin'
forbidden+='|strerror|strtok|localtime|gmtime|ctime|asctime|rand|srand|getenv|setlocale|readdir|tmpnam)$'
forbidden_in() { nm -u "$1" 2>/dev/null | awk '{ print $2 }' | sed 's/@.*//' | grep -E "$forbidden" | sort -u; }
writable_in() { objdump -t "$1" 2>/dev/null |
    awk '$3 == "O" && $4 ~ /^\.(data|bss|tbss|tdata)/ && $4 !~ /rel\.ro/ { print $NF }' | sort -u; }
for lib in $libs_a; do
    case $lib in *asan*) continue;; esac # ASan's build adds its own globals
    [ -f "$lib" ] || continue
    if [ "$(nm -u "$lib" | grep -c ' U ')" -lt 20 ]; then
        bad "$lib: nm -u found fewer than 20 undefined names (unreadable?)"
        continue
    fi
    calls=$(forbidden_in "$lib")
    if [ -n "$calls" ]; then bad "$lib calls what the library must not: $(tr '\n' ' ' <<<"$calls")"; else ok; fi
    data=$(writable_in "$lib")
    if [ -n "$data" ]; then bad "$lib has mutable globals: $(tr '\n' ' ' <<<"$data")"; else ok; fi
done
# the checks themselves must be able to fail: an object that prints and keeps a counter
probe=$(mktemp -d)
printf '#include <stdio.h>\nint counter;\nvoid f(void) { counter++; puts("x"); }\n' >"$probe/p.c"
if cc -c -O1 -o "$probe/p.o" "$probe/p.c" 2>/dev/null; then
    if [ "$(forbidden_in "$probe/p.o")" = puts ] && [ "$(writable_in "$probe/p.o")" = counter ]; then
        ok
    else
        bad "the print/global probe was not caught: '$(forbidden_in "$probe/p.o")' '$(writable_in "$probe/p.o")'"
    fi
else
    bad "cannot compile the probe object"
fi
rm -rf "$probe"
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
