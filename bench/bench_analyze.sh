#!/usr/bin/env bash
# Positions per second of pgnkit analyze with -j 1 and -j 2 at a fixed node count (issue 6).
# Games 1, 2, 3 and 5 of TWIC 1427 (243 plies, 247 positions), Stockfish with one thread and 16 MB
# of hash per engine. Each configuration runs RUNS times, alternating, so that a change of the
# machine's load hits both; prints every run (wall s, user s, sys s: pgnkit and its engines, which
# it reaps) and the medians, and the load average before and after.
#   bench/bench_analyze.sh [PGNKIT] [NODES] [RUNS]
set -eu
pgnkit=${1:-build/pgnkit}
nodes=${2:-10000}
runs=${3:-5}
shared=${SHARED:-../shared}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
zcat "$shared/corpus/big/twic/twic1427.pgn.gz" |
    awk '/^\[Event /{n++} n==1||n==2||n==3||n==5' >"$tmp/in.pgn"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$runs"); do
    for j in 1 2; do
        /usr/bin/time -f '%e %U %S' -o "$tmp/t" "$pgnkit" analyze --nodes "$nodes" --threads 1 \
            --hash 16 -j "$j" -q "$tmp/in.pgn" >"$tmp/out$j.pgn" 2>"$tmp/err"
        pos=$(sed -n 's/.* \([0-9]*\) positions in .*/\1/p' "$tmp/err")
        echo "j$j run $r: $(cat "$tmp/t") positions $pos"
        echo "$(cat "$tmp/t") $pos" >>"$tmp/j$j"
    done
    cmp -s "$tmp/out1.pgn" "$tmp/out2.pgn" || echo "run $r: the -j 2 output differs from -j 1"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
for j in 1 2; do
    w=$(cut -d' ' -f1 "$tmp/j$j" | median)
    u=$(cut -d' ' -f2 "$tmp/j$j" | median)
    s=$(cut -d' ' -f3 "$tmp/j$j" | median)
    p=$(head -1 "$tmp/j$j" | cut -d' ' -f4)
    m=$(cut -d' ' -f1 "$tmp/j$j" | sort -n | head -1)
    echo "j$j median: wall $w s, user $u s, sys $s s, $p positions, $(awk "BEGIN{printf \"%.1f\", $p/$w}") positions/s (wall), $(awk "BEGIN{printf \"%.1f\", $p/($u+$s)}") positions per CPU second; fastest run $m s"
    eval "w$j=$w m$j=$m"
done
echo "ratio j2/j1 positions/s (wall): medians $(awk "BEGIN{printf \"%.2f\", $w1/$w2}"), fastest runs $(awk "BEGIN{printf \"%.2f\", $m1/$m2}")"
