#!/usr/bin/env bash
# Every public function is documented (STYLE C4, issue 12): in include/pgnkit.h and
# include/pgnkit/*.h, each PGN_API declaration has a comment ending on the line right before it
# (its ownership and errors are stated there). Also fails when no declaration is found at all.
# Prints "RESULT passed failed skipped".
set -u
pass=0 fail=0
for h in include/pgnkit.h include/pgnkit/*.h; do
    out=$(awk -v h="$h" '
        /^PGN_API/ {
            name = $0
            sub(/\(.*/, "", name)
            n = split(name, w, /[ *]+/)
            name = w[n]
            if (prev ~ /\*\/[ \t]*$/) { print "ok " name } else { print "bad " h ":" NR ": " name }
        }
        { prev = $0 }' "$h")
    while read -r verdict what; do
        [ -n "$verdict" ] || continue
        if [ "$verdict" = ok ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL no comment right before the public function $what"
        fi
    done <<<"$out"
done
if [ $pass -lt 100 ]; then
    fail=$((fail + 1))
    echo "FAIL only $pass documented public functions found: the check finds no declarations"
fi
echo "RESULT $pass $fail 0"
