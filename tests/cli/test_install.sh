#!/usr/bin/env bash
# make install / make uninstall (issue 11): installs into a temporary prefix (and with DESTDIR),
# checks the files, the soname and its links, builds the README's example (as pasted) through
# pkg-config against the shared and the static library, runs both, and checks the FEN they print
# (the position after 1. Nf3, as FEN in PGN 16.1.3 writes it); that it links with libc and -lm
# alone; and builds and runs examples/count_games.c (the source layer on 2 threads, issue 29) on a
# .pgn.zst, a zip and a .pgn.gz. Prints "RESULT passed failed skipped".
set -u
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { local name=$1; shift; if "$@" >/dev/null 2>&1; then ok; else bad "$name"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build=${BUILD:-build}
version=$(sed -n 's/^#define PGNKIT_VERSION_STRING "\(.*\)"/\1/p' include/pgnkit.h)
prefix=$tmp/usr
if ! make -s --no-print-directory install PREFIX="$prefix" BUILD="$build" >"$tmp/install.log" 2>&1; then
    bad "make install failed:"; tail -n 20 "$tmp/install.log"
    echo "RESULT $pass $fail 0"; exit 0
fi
lib=$prefix/lib
check "libpgnkit.so.$version is a file" test -f "$lib/libpgnkit.so.$version" -a ! -L "$lib/libpgnkit.so.$version"
check "libpgnkit.so.0 -> libpgnkit.so.$version" test "$(readlink "$lib/libpgnkit.so.0")" = "libpgnkit.so.$version"
check "libpgnkit.so -> libpgnkit.so.0" test "$(readlink "$lib/libpgnkit.so")" = libpgnkit.so.0
check "soname is libpgnkit.so.0" bash -c "readelf -d '$lib/libpgnkit.so.$version' | grep -q 'SONAME.*\[libpgnkit.so.0\]'"
check "libpgnkit.a" test -f "$lib/libpgnkit.a"
check "pgnkit.h" test -f "$prefix/include/pgnkit.h"
for h in include/pgnkit/*.h; do check "$h installed" cmp -s "$h" "$prefix/$h"; done
check "program" test -x "$prefix/bin/pgnkit"
check "program runs" bash -c "'$prefix/bin/pgnkit' --version | grep -qx 'pgnkit $version'"
check "man page" test -s "$prefix/share/man/man1/pgnkit.1"
check "man page renders" bash -c "man -l '$prefix/share/man/man1/pgnkit.1' 2>/dev/null | grep -q 'pgnkit - read'"
export PKG_CONFIG_PATH=$lib/pkgconfig
check "pkg-config version" test "$(pkg-config --modversion pgnkit)" = "$version"
# the README's example as it stands there (issue 34: it compiled only wrapped in a main)
sed -n '/## The library in five lines/,/^```$/p' README.md | sed '1,/^```c$/d; /^```$/d' >"$tmp/example.c"
want="rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
cc=${CC:-cc}
# shellcheck disable=SC2046
if $cc -std=c17 -o "$tmp/ex_shared" "$tmp/example.c" $(pkg-config --cflags --libs pgnkit) 2>"$tmp/cc.log"; then
    ok
    check "shared example needs libpgnkit.so.0" bash -c "readelf -d '$tmp/ex_shared' | grep -q 'NEEDED.*libpgnkit.so.0'"
    got=$(LD_LIBRARY_PATH=$lib "$tmp/ex_shared" 2>&1)
    [ "$got" == "$want" ] && ok || bad "shared example printed '$got'"
else
    bad "building the example against the shared library:"; cat "$tmp/cc.log"
fi
# shellcheck disable=SC2046
if $cc -std=c17 -o "$tmp/ex_static" "$tmp/example.c" $(pkg-config --cflags pgnkit) \
    "$(pkg-config --variable=libdir pgnkit)/libpgnkit.a" $(pkg-config --static --libs-only-l pgnkit | sed 's/-lpgnkit//') \
    2>"$tmp/cc.log"; then
    ok
    check "static example does not need libpgnkit.so" bash -c "! readelf -d '$tmp/ex_static' | grep -q 'libpgnkit'"
    got=$("$tmp/ex_static" 2>&1)
    [ "$got" == "$want" ] && ok || bad "static example printed '$got'"
else
    bad "building the example against the static library:"; cat "$tmp/cc.log"
fi
# the core needs libc alone (docs/design.md, "Sources: the io layer"): the README's example, which
# uses no source, links with libpgnkit.a and -lm only, without the compression libraries
check "core example links with libc and -lm alone" $cc -std=c17 -o "$tmp/ex_core" "$tmp/example.c" \
    $(pkg-config --cflags pgnkit) "$(pkg-config --variable=libdir pgnkit)/libpgnkit.a" -lm
# examples/count_games.c (issue 29): opens the file named on its command line through the source
# layer, reads it on 2 threads and prints the number of games: a .pgn.zst, a zip, a .pgn.gz, each
# the count pgnkit check gives
sample=examples/sample.pgn
want_games=$("$build/pgnkit" check --diag json "$sample" 2>&1 | sed -n 's/.*"games":\([0-9]*\).*/\1/p')
# shellcheck disable=SC2046
if $cc -std=c17 -o "$tmp/count_games" examples/count_games.c $(pkg-config --cflags --libs pgnkit) 2>"$tmp/cc.log"; then
    ok
    cp "$sample" "$tmp/s.pgn"
    (cd "$tmp" && zstd -q -f s.pgn -o s.pgn.zst && gzip -kf s.pgn && zip -q s.zip s.pgn)
    for f in s.pgn.zst s.zip s.pgn.gz; do
        if [ -f "$tmp/$f" ]; then
            got=$(LD_LIBRARY_PATH=$lib "$tmp/count_games" "$tmp/$f" 2>/dev/null)
            [ -n "$want_games" ] && [ "$got" == "$want_games games" ] && ok || bad "count_games $f printed '$got', want $want_games games"
        else
            bad "count_games: $f could not be made"
        fi
    done
else
    bad "building examples/count_games.c through pkg-config:"; cat "$tmp/cc.log"
fi
# uninstall removes exactly what install wrote
make -s --no-print-directory uninstall PREFIX="$prefix" BUILD="$build" >/dev/null 2>&1
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] && ok || bad "uninstall left: $left"
# DESTDIR staging: files under DESTDIR, pgnkit.pc names the final prefix
make -s --no-print-directory install DESTDIR="$tmp/stage" PREFIX=/opt/pgnkit BUILD="$build" >/dev/null 2>&1
check "DESTDIR install" test -f "$tmp/stage/opt/pgnkit/lib/libpgnkit.so.$version"
check "DESTDIR pc prefix" grep -qx 'prefix=/opt/pgnkit' "$tmp/stage/opt/pgnkit/lib/pkgconfig/pgnkit.pc"
make -s --no-print-directory uninstall DESTDIR="$tmp/stage" PREFIX=/opt/pgnkit BUILD="$build" >/dev/null 2>&1
left=$(find "$tmp/stage" -type f -o -type l)
[ -z "$left" ] && ok || bad "DESTDIR uninstall left: $left"
echo "RESULT $pass $fail 0"
