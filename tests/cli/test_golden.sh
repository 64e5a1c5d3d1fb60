#!/usr/bin/env bash
# Golden CLI tests (STYLE C10): every case in tests/golden/<command>/<case>/ runs in a fresh
# temporary directory holding copies of the case's in* files, and its stdout, stderr and exit
# status must equal the case's out, err and status files byte for byte. A case is either
#   args  the arguments of one pgnkit run (shell words, stdin from in.pgn if there is one), or
#   cmd   a bash script; `pgnkit` runs the program under test, $SHARED is the corpus directory;
#         what it prints after the run (md5sum, ls) is part of its out.
# GOLDEN_UPDATE=1 (make golden-update) writes out, err and status from this run, for review.
# Prints "RESULT passed failed skipped" like the other suites.
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
case "$bin" in /*) ;; *) bin=$PWD/$bin ;; esac
shared=${PGNKIT_SHARED:-../shared}
case "$shared" in /*) ;; *) shared=$PWD/$shared ;; esac
root=$PWD/tests/golden
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for dir in "$root"/*/*/; do
    dir=${dir%/}
    name=${dir#"$root"/}
    work=$tmp/work
    rm -rf "$work" && mkdir -p "$work"
    for f in "$dir"/in*; do [ -e "$f" ] && cp -p "$f" "$work/"; done
    if [ -f "$dir/cmd" ]; then
        (cd "$work" && PGNKIT="$bin" SHARED="$shared" CASE="$dir" bash -c \
            'pgnkit() { "$PGNKIT" "$@"; }; export -f pgnkit; . "$CASE/cmd"') \
            >"$tmp/out" 2>"$tmp/err"
        status=$?
    else
        stdin=/dev/null
        [ -f "$work/in.pgn" ] && stdin=$work/in.pgn
        (cd "$work" && eval "set -- $(cat "$dir/args")" && exec "$bin" "$@" <"$stdin") \
            >"$tmp/out" 2>"$tmp/err"
        status=$?
    fi
    echo "$status" >"$tmp/status"
    if [ -n "${GOLDEN_UPDATE:-}" ]; then
        cp "$tmp/out" "$dir/out"; cp "$tmp/err" "$dir/err"; cp "$tmp/status" "$dir/status"
        echo "updated $name"
        pass=$((pass + 1))
        continue
    fi
    bad=
    for part in out err status; do
        if ! cmp -s "$tmp/$part" "$dir/$part"; then
            bad="$bad $part"
        fi
    done
    if [ -z "$bad" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name:$bad differ"
        for part in $bad; do
            diff "$dir/$part" "$tmp/$part" | head -n 10
        done
    fi
done
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
