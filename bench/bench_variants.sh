#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench` (part; alone: `make bench-variants`): perft speed of each lichess variant
# (issue 17, docs/variants.md) beside Fairy-Stockfish's `go perft` on the same position and depth,
# in the same run. Both count the same tree (tests/cli/test_variant_perft.sh checks the counts);
# the table gives both counts, so a disagreement shows.
#
# Positions: each variant's start (pgnkit perft --variant V; Fairy-Stockfish UCI_Variant V,
# position startpos), at a depth of a few million nodes. Debian's Fairy-Stockfish has no atomic:
# that row has pgnkit alone. Each command runs RUNS times (default 3), alternating; the table
# gives medians of CPU time (user + sys, bench/cpurun.c). Fairy-Stockfish's time includes its
# start-up: a depth-1 run's median is subtracted (its own line). pgnkit counts the last ply in
# bulk, as Fairy-Stockfish does (`go perft` counts leaf moves without playing them).
#
# Environment: BUILD, PGNKIT (set by the Makefile); RUNS; FSF (default: fairy-stockfish on PATH
# or /usr/games/fairy-stockfish).
set -euo pipefail

BUILD=${BUILD:-build}
PGNKIT=${PGNKIT:-$BUILD/pgnkit}
RUNS=${RUNS:-3}
CPURUN=$BUILD/cpurun
FSF=${FSF:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
if [ ! -x "$PGNKIT" ] || [ ! -x "$CPURUN" ]; then
    echo "bench_variants.sh: $CPURUN or $PGNKIT not built (run make bench)" >&2
    exit 2
fi
have_fsf=1
[ -x "$FSF" ] || { have_fsf=0; echo "bench_variants.sh: Fairy-Stockfish not found (tools/deps.sh installs it); pgnkit alone"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# variant (pgnkit name), Fairy-Stockfish's UCI_Variant (- if it has none), depth
rows=(
    "crazyhouse crazyhouse 5"
    "atomic - 5"
    "antichess giveaway 5"
    "3check 3check 6"
    "kingofthehill kingofthehill 6"
    "horde horde 6"
    "racingkings racingkings 5"
)
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
cpu() { # file: user+sys of each line
    awk '{print $1 + $2}' "$1"
}
fsf_run() { # uci_variant depth out
    printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' "$1" "$2" \
        | "$CPURUN" "$tmp/t" "$FSF" > "$3"
    cat "$tmp/t" >> "$tmp/fsf-$1-$2"
}
printf '%-14s %5s %12s %12s %10s %12s %10s %7s\n' variant depth nodes FSF-nodes pgnkit-s pgnkit-Mn/s FSF-s ratio
for row in "${rows[@]}"; do
    read -r v uv d <<<"$row"
    : > "$tmp/pk"
    for ((i = 0; i < RUNS; i++)); do
        "$CPURUN" "$tmp/t" "$PGNKIT" perft --variant "$v" "$d" > "$tmp/pk-out"
        cat "$tmp/t" >> "$tmp/pk"
        if [ "$have_fsf" = 1 ] && [ "$uv" != - ]; then
            fsf_run "$uv" "$d" "$tmp/fsf-out"
            fsf_run "$uv" 1 "$tmp/fsf-out1"
        fi
    done
    nodes=$(tail -n 1 "$tmp/pk-out")
    pk=$(cpu "$tmp/pk" | median)
    if [ "$have_fsf" = 1 ] && [ "$uv" != - ]; then
        fnodes=$(sed -n 's/^Nodes searched: //p' "$tmp/fsf-out")
        f=$(awk -v a="$(cpu "$tmp/fsf-$uv-$d" | median)" -v b="$(cpu "$tmp/fsf-$uv-1" | median)" \
            'BEGIN {printf "%.4f", a - b}')
        ratio=$(awk -v a="$pk" -v b="$f" 'BEGIN {printf "%.2fx", b / a}')
    else
        fnodes=-; f=-; ratio=-
    fi
    printf '%-14s %5s %12s %12s %10.4f %12.1f %10s %7s\n' "$v" "$d" "$nodes" "$fnodes" "$pk" \
        "$(awk -v n="$nodes" -v t="$pk" 'BEGIN {print n / t / 1e6}')" "$f" "$ratio"
done
echo "ratio: Fairy-Stockfish's CPU time over pgnkit's (above 1: pgnkit faster); FSF-s is net of its depth-1 start-up"
