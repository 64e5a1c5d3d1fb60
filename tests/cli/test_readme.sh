#!/usr/bin/env bash
# The README's install steps work as they stand there (issue 34 point 9): its Python lines (a
# virtual environment that sees Debian's packages, pip install of ./python, the import) run one by
# one in a temporary home on a copy of the sources, and its C example compiles as pasted against
# the built library and prints the FEN its comment gives. Prints "RESULT passed failed skipped".
set -u
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
same() { # name, want, got
    if [ "$2" == "$3" ]; then ok; else bad "$1: want [$2] got [$3]"; fi
}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
readme=$root/README.md

# ---- the C example, as pasted ----
sed -n '/## The library in five lines/,/^```$/p' "$readme" | sed '1,/^```c$/d; /^```$/d' >"$tmp/example.c"
want=$(sed -n 's|.*puts(fen); */\* \(.*\) \*/.*|\1|p' "$tmp/example.c")
same "the README's C example names the FEN it prints" 1 "$(grep -c . <<<"$want")"
if ${CC:-cc} -std=c17 -Wall -Werror -I"$root/include" -o "$tmp/example" "$tmp/example.c" \
    "$build/libpgnkit.a" -lm 2>"$tmp/cc.log"; then
    ok
    same "the README's C example prints its FEN" "$want" "$("$tmp/example" 2>&1)"
else
    bad "the README's C example does not compile as pasted: $(head -n 5 "$tmp/cc.log")"
fi

# ---- the Python install, line by line, as pasted (Debian's python3 first on PATH) ----
lines=$(awk '/PEP 668/ {seen = 1} seen && /^```sh$/ {on = 1; next} on && /^```$/ {exit} on' "$readme")
same "the README's Python install: three lines" 3 "$(grep -c . <<<"$lines")"
mkdir -p "$tmp/home" "$tmp/src"
cp -r "$root/src" "$root/include" "$tmp/src/"
mkdir "$tmp/src/python" && (cd "$root/python" && cp -r setup.py pgnkit src "$tmp/src/python/")
rm -f "$tmp/src/python/pgnkit/"*.so
if ! /usr/bin/python3 -c 'import ensurepip, setuptools' 2>/dev/null; then
    skip=$((skip + 1))
    echo "SKIP the README's Python install: python3-venv or python3-setuptools missing (tools/deps.sh)"
else
    n=0 last=
    while IFS= read -r line; do
        n=$((n + 1))
        last=$(cd "$tmp/src" && HOME=$tmp/home PATH=/usr/bin:$PATH PIP_NO_INDEX=1 bash -c "$line" 2>"$tmp/err.$n")
        st=$?
        same "the README's Python line $n runs: $line" "0" "$st$( [ $st = 0 ] || tail -n 3 "$tmp/err.$n")"
    done <<<"$lines"
    same "the README's Python install imports pgnkit and prints its version" \
        "$(sed -n 's/^#define PGNKIT_VERSION_STRING "\(.*\)"/\1/p' "$root/include/pgnkit.h")" "$last"
fi
echo "RESULT $pass $fail $skip"
