#!/usr/bin/env bash
# Fails when a file or function is over the house limits (docs/design.md, "The CLI driver"; STYLE):
# a file of cli/ over 350 lines, a file of src/ over 800, a file of python/src/ over 500 (issue 33),
# a function of src/, cli/ or python/src/ over 60.
# Usage: tools/check-size.sh [DIR]   (DIR: the tree to check, default .)
set -u
cd "${1:-.}" || exit 2
bad=0
over() { # limit files...
    local lim=$1 f n; shift
    for f in "$@"; do
        n=$(wc -l <"$f")
        [ "$n" -le "$lim" ] || { echo "check-size: $f has $n lines (limit $lim)"; bad=1; }
    done
}
over 350 cli/*.c cli/*.h
over 800 src/*/*.c src/*/*.h
over 500 python/src/*.c python/src/*.h
long=$(awk -v MAX=60 -f tools/funclen.awk src/*/*.c cli/*.c python/src/*.c)
[ -z "$long" ] || { printf 'check-size: function over 60 lines: %s\n' "$long"; bad=1; }
exit $bad
