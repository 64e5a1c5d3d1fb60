#!/usr/bin/env bash
# Runs every test program given on the command line, JOBS at a time, keeps each one's log in
# build/test-logs/, prints one line per suite in the order of the command line (each as soon as it
# and every suite before it are done), and ends with the one summary line
# "N passed, N failed[, N skipped]". A program that crashes or exits without its RESULT line counts
# as one failure; so does a nonzero exit status (for example valgrind's --error-exitcode) after a
# clean RESULT line.
# JOBS: how many suites run at once; unset, make's -jN (MAKEFLAGS), else the number of CPUs. A
# suite whose script says "# run_tests: alone" in its first 30 lines runs with no other.
# The suites start longest first, by their times of the last run (LOGDIR/times), else by
# tests/suite-times (a committed measure); the order of the lines does not depend on it.
set -u
logdir=${LOGDIR:-build/test-logs}
mkdir -p "$logdir"
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${JOBS:-}" ]; then
    JOBS=$(sed -nE 's/^(.* )?-j([0-9]+)( .*)?$/\2/p' <<<" ${MAKEFLAGS:-} ")
    [ -n "$JOBS" ] || JOBS=$(nproc 2>/dev/null || echo 2)
fi
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
run=$(mktemp -d "$logdir/.run.XXXXXX")
trap 'kill $(jobs -pr) 2>/dev/null; rm -rf "$run"' EXIT
trap 'exit 130' INT TERM

names=() paths=()
for t in "$@"; do
    name=$(basename "$t")
    # the same suite against the library built with PLAIN_BITS=1 (make check: build/plain/)
    case "$t" in */plain/asan/tests/*) name="$name.plain" ;; esac
    names+=("$name") paths+=("$t")
done

# One suite: its log, then in $run/NAME.out the lines to print and in $run/NAME.sum
# "passed failed skipped seconds".
run_one() { # path, name
    local t=$1 name=$2 log="$logdir/$2.log" start status secs line p f s
    start=$(date +%s)
    # TEST_WRAPPER (make check-valgrind): a command the test runs under, e.g. valgrind; in a
    # subshell, so that the shell's note of a crash ("Segmentation fault") goes to the log too
    (${TEST_WRAPPER:-} "$t"; exit $?) >"$log" 2>&1
    status=$?
    secs=$(($(date +%s) - start))
    line=$(grep '^RESULT ' "$log" | tail -n 1)
    {
        if [ -z "$line" ]; then
            echo "$name: no RESULT line (exit $status), see $log"
            tail -n 20 "$log"
            p=0 f=1 s=0
        else
            read -r _ p f s <<<"$line"
            if [ "$f" -ne 0 ] || [ "$status" -ne 0 ]; then
                echo "$name: $p passed, $f failed (exit $status, ${secs}s), see $log"
                grep -E '^(FAIL|SKIP)' "$log" | head -n 20
                [ "$f" -eq 0 ] && f=1
            else
                echo "$name: $p passed, $s skipped (${secs}s)"
                grep '^SKIP' "$log" | head -n 5
            fi
        fi
    } >"$run/$name.out"
    echo "$p $f ${s:-0} $secs" >"$run/$name.tmp" && mv "$run/$name.tmp" "$run/$name.sum"
}

# The order of starting: longest first by the last known times (a suite not listed: 10 s).
times_file=$logdir/times
[ -s "$times_file" ] || times_file=$here/suite-times
order=$(for i in "${!names[@]}"; do
    secs=$(awk -v n="${names[$i]}" '$1 == n { print $2; exit }' "$times_file" 2>/dev/null)
    echo "${secs:-10} $i"
done | sort -k1,1nr -k2,2n | cut -d' ' -f2)

alone() { # path: does the script ask to run with no other suite?
    case "$1" in *.sh) head -n 30 "$1" | grep -q '^# run_tests: alone' ;; *) false ;; esac
}

passed=0 failed=0 skipped=0 printed=0 running=0
print_done() { # the lines of the suites done, in list order, up to the first one still running
    while [ "$printed" -lt "${#names[@]}" ] && [ -e "$run/${names[$printed]}.sum" ]; do
        cat "$run/${names[$printed]}.out"
        read -r p f s _ <"$run/${names[$printed]}.sum"
        passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
        printed=$((printed + 1))
    done
}
wait_one() {
    wait -n 2>/dev/null
    running=$(jobs -pr | wc -l)
    print_done
}
for i in $order; do
    if alone "${paths[$i]}"; then
        while [ "$running" -gt 0 ]; do wait_one; done
        run_one "${paths[$i]}" "${names[$i]}"
        print_done
        continue
    fi
    while [ "$running" -ge "$JOBS" ]; do wait_one; done
    run_one "${paths[$i]}" "${names[$i]}" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do wait_one; done
print_done

# this run's times, for the order of the next one (suites not run this time keep theirs)
for n in "${names[@]}"; do
    read -r _ _ _ secs <"$run/$n.sum" && echo "$n $secs"
done >"$run/times"
[ -e "$logdir/times" ] && awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' "$run/times" \
    "$logdir/times" >>"$run/times"
mv "$run/times" "$logdir/times"

if [ "$skipped" -ne 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
