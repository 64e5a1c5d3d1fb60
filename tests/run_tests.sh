#!/usr/bin/env bash
# Runs every test program given on the command line, keeps each one's log in build/test-logs/,
# and ends with the one summary line "N passed, N failed[, N skipped]". A program that crashes or
# exits without its RESULT line counts as one failure; so does a nonzero exit status (for example
# valgrind's --error-exitcode) after a clean RESULT line.
set -u
logdir=${LOGDIR:-build/test-logs}
mkdir -p "$logdir"
passed=0 failed=0 skipped=0
for t in "$@"; do
    name=$(basename "$t")
    # the same suite against the library built with PLAIN_BITS=1 (make check: build/plain/)
    case "$t" in */plain/asan/tests/*) name="$name.plain" ;; esac
    log="$logdir/$name.log"
    start=$(date +%s)
    # TEST_WRAPPER (make check-valgrind): a command the test runs under, e.g. valgrind
    ${TEST_WRAPPER:-} "$t" >"$log" 2>&1
    status=$?
    secs=$(( $(date +%s) - start ))
    line=$(grep '^RESULT ' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$name: no RESULT line (exit $status), see $log"
        tail -n 20 "$log"
        failed=$((failed + 1))
        continue
    fi
    read -r _ p f s <<<"$line"
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    if [ "$f" -ne 0 ] || [ "$status" -ne 0 ]; then
        echo "$name: $p passed, $f failed (exit $status, ${secs}s), see $log"
        grep -E '^(FAIL|SKIP)' "$log" | head -n 20
        [ "$f" -eq 0 ] && failed=$((failed + 1))
    else
        echo "$name: $p passed, $s skipped (${secs}s)"
        grep '^SKIP' "$log" | head -n 5
    fi
done
if [ "$skipped" -ne 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
