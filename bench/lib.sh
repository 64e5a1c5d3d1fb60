# SPDX-License-Identifier: MIT
# Helpers of the timing scripts (bench_io.sh, bench_query.sh), sourced with $tmp, $CPURUN, $RUNS,
# $bytes and $games set: runs of a command under bench/cpurun.c, their medians, a table row.

median() {
    sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.6f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# once NAME CMD...: one timed run of CMD, appended to $tmp/times.NAME as "user sys wall rss_kb"
once() {
    local name=$1
    shift
    "$CPURUN" "$tmp/t" "$@" > /dev/null 2> "$tmp/err" || {
        echo "bench: '$name' failed: $(tail -n 3 "$tmp/err")" >&2
        exit 1
    }
    cat "$tmp/t" >> "$tmp/times.$name"
}

# stats NAME: sets cpu (median s), wall (median s or nan), rss (max KB) of the runs of NAME
stats() {
    local f="$tmp/times.$1"
    cpu=$(awk '{ print $1 + $2 }' "$f" | median)
    if grep -q nan "$f"; then wall=nan; else wall=$(awk '{ print $3 }' "$f" | median); fi
    rss=$(awk '{ if ($4 > m) m = $4 } END { print m }' "$f")
}

# run NAME CMD...: RUNS runs in a row (the memory rows below); sets cpu, wall, rss
run() {
    local name=$1 i
    shift
    rm -f "$tmp/times.$name"
    for i in $(seq "$RUNS"); do once "$name" "$@"; done
    stats "$name"
}

row() { # label reference-cpu
    awk -v l="$1" -v c="$cpu" -v w="$wall" -v r="$rss" -v b="$bytes" -v g="$games" -v ref="$2" 'BEGIN {
        ratio = ref > 0 ? sprintf("%.1f", ref / c) : "-"
        printf "| %s | %.3f | %s | %.1f | %.0f | %.1f | %s |\n", l, c, (w == "nan" ? "-" : sprintf("%.3f", w)),
            b / c / 1e6, g / c, r / 1024, ratio }'
}

