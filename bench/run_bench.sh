#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench`: perft speed of pgnkit (with and without bulk counting at the leaves) beside
# Stockfish's `go perft N`, then SAN parse+play throughput on the TWIC issues. Every figure is the
# median of RUNS runs. Prints a table; writes no files and installs nothing.
#
# Environment (set by the Makefile): BUILD (build dir holding bench_perft), SHARED (the shared
# corpus root), PGNKIT (the CLI; only reported). Optional: RUNS (default 5), DEPTHS (default
# "5 6"), NOBULK_MAX (deepest depth also timed without bulk counting, default 5: Kiwipete depth 6
# without bulk counting is 8e9 played moves, about 3 minutes a run), STOCKFISH (default
# /usr/games/stockfish, else `stockfish` on PATH).
#
# Stockfish is timed with the wall clock around the whole process (`position ...`, `go perft N`,
# `quit` on stdin), so its time includes process start-up; the start-up alone (`quit` only) is
# measured too and shown. Stockfish's perft counts the last ply's moves without playing them,
# which is pgnkit's "bulk" mode. ratio = pgnkit nodes/s / Stockfish nodes/s (>1: pgnkit faster).
set -euo pipefail

BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
PGNKIT=${PGNKIT:-$BUILD/pgnkit}
RUNS=${RUNS:-5}
DEPTHS=${DEPTHS:-"5 6"}
NOBULK_MAX=${NOBULK_MAX:-5}
BENCH=$BUILD/bench_perft

if [ ! -x "$BENCH" ]; then
    echo "run_bench.sh: $BENCH not built (run make bench)" >&2
    exit 2
fi

SF=${STOCKFISH:-}
if [ -z "$SF" ]; then
    if [ -x /usr/games/stockfish ]; then
        SF=/usr/games/stockfish
    else
        SF=$(command -v stockfish 2>/dev/null || true)
    fi
fi
if [ -n "$SF" ] && [ ! -x "$SF" ]; then
    SF=
fi

# median of the numbers on stdin (one per line)
median() {
    sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) { print "nan"; exit }
        if (NR % 2) print a[(NR + 1) / 2]; else printf "%.6f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# value of key=VALUE in the lines on stdin, one per line
field() {
    tr ' ' '\n' | sed -n "s/^$1=//p"
}

now() {
    if [ -n "${EPOCHREALTIME:-}" ]; then
        echo "${EPOCHREALTIME/,/.}"
    else
        date +%s.%N
    fi
}

mnps() { # nodes seconds -> millions of nodes per second
    awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f", n / s / 1e6; else print "n/a" }'
}

ratio() { # a_nps b_nps
    awk -v a="$1" -v b="$2" 'BEGIN { if (a != "n/a" && b != "n/a" && b > 0) printf "%.2f", a / b; else print "n/a" }'
}

START_FEN='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
KIWIPETE_FEN='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'

echo "pgnkit bench: $(date -u +%Y-%m-%dT%H:%MZ), $RUNS runs per figure (medians), depths $DEPTHS"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //') ($(nproc 2>/dev/null || echo '?') cores)"
echo "compiler: $(${CC:-cc} --version 2>/dev/null | head -n 1)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown); bench binary: $BENCH; CLI: $PGNKIT"
sf_startup=
if [ -n "$SF" ]; then
    echo "Stockfish: $SF, $(echo quit | "$SF" 2>/dev/null | head -n 1) (1 thread, default options)"
    sf_startup=$(for _ in $(seq "$RUNS"); do
        t0=$(now); echo quit | "$SF" >/dev/null 2>&1; t1=$(now)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }'
    done | median)
    echo "Stockfish start-up alone (quit only): ${sf_startup}s (included in its times below)"
else
    echo "Stockfish not found (Debian package stockfish, /usr/games/stockfish): its columns are n/a."
fi
echo

status=0
rows=()
for pos in start kiwipete; do
    if [ "$pos" = start ]; then fen=$START_FEN; else fen=$KIWIPETE_FEN; fi
    for d in $DEPTHS; do
        echo "... $pos depth $d" >&2
        out=$("$BENCH" perft --fen "$fen" -n "$RUNS" "$d")
        nodes=$(echo "$out" | field nodes | head -n 1)
        t_bulk=$(echo "$out" | field seconds | median)
        if [ "$d" -le "$NOBULK_MAX" ]; then
            out=$("$BENCH" perft --fen "$fen" --no-bulk -n "$RUNS" "$d")
            nodes_nb=$(echo "$out" | field nodes | head -n 1)
            t_nobulk=$(echo "$out" | field seconds | median)
        else
            nodes_nb=$nodes t_nobulk=0
        fi
        if [ "$nodes_nb" != "$nodes" ]; then
            echo "NODE COUNT MISMATCH $pos depth $d: bulk $nodes, no-bulk $nodes_nb" >&2
            status=1
        fi
        nps_bulk=$(mnps "$nodes" "$t_bulk")
        nps_nobulk=$(mnps "$nodes" "$t_nobulk")
        t_sf=n/a nps_sf=n/a nps_sf_net=n/a
        if [ -n "$SF" ]; then
            times=()
            for _ in $(seq "$RUNS"); do
                t0=$(now)
                sfout=$(printf 'position fen %s\ngo perft %s\nquit\n' "$fen" "$d" | "$SF" 2>&1)
                t1=$(now)
                times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')")
                sf_nodes=$(echo "$sfout" | sed -n 's/^Nodes searched: *//p' | tail -n 1)
                if [ "$sf_nodes" != "$nodes" ]; then
                    echo "NODE COUNT MISMATCH $pos depth $d: pgnkit $nodes, Stockfish '${sf_nodes}'" >&2
                    status=1
                fi
            done
            t_sf=$(printf '%s\n' "${times[@]}" | median | awk '{ printf "%.3f", $1 }')
            nps_sf=$(mnps "$nodes" "$t_sf")
            nps_sf_net=$(mnps "$nodes" "$(awk -v a="$t_sf" -v b="$sf_startup" 'BEGIN { printf "%.6f", a - b }')")
        fi
        rows+=("$(printf '| %-8s | %d | %13s | %8.3f | %7s | %8.3f | %7s | %8s | %7s | %7s | %5s | %5s |' \
            "$pos" "$d" "$nodes" "$t_bulk" "$nps_bulk" "$t_nobulk" "$nps_nobulk" "$t_sf" "$nps_sf" \
            "$nps_sf_net" "$(ratio "$nps_bulk" "$nps_sf")" "$(ratio "$nps_nobulk" "$nps_sf")")")
    done
done

echo "perft (seconds and millions of nodes/s; SF = Stockfish wall clock incl. start-up, SF net = minus start-up;"
echo "ratio = pgnkit nodes/s / Stockfish nodes/s, > 1 means pgnkit is faster)"
echo
echo "| position | d | nodes | bulk s | bulk M/s | no-bulk s | no-bulk M/s | SF s | SF M/s | SF net M/s | bulk/SF | no-bulk/SF |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
echo

twic1=$SHARED/corpus/big/twic/twic1427.pgn.gz
twic2=$SHARED/corpus/big/twic/twic1428.pgn.gz
echo "... SAN throughput" >&2
if out=$("$BENCH" san -n "$RUNS" "$twic1" "$twic2"); then
    plies=$(echo "$out" | field plies | head -n 1)
    games=$(echo "$out" | field games | head -n 1)
    errors=$(echo "$out" | field errors | sort -n | tail -n 1)
    t_san=$(echo "$out" | field seconds | median)
    echo "SAN parse + play (pgn_san_parse flags 0 + pgn_pos_play; decompression and tokenizing not timed)"
    echo
    echo "| input | games | plies | errors | s | plies/s |"
    echo "|---|---:|---:|---:|---:|---:|"
    printf '| twic1427+1428 | %s | %s | %s | %.3f | %s |\n' "$games" "$plies" "$errors" "$t_san" \
        "$(awk -v n="$plies" -v s="$t_san" 'BEGIN { printf "%.0f", n / s }')"
    if [ "$errors" != 0 ]; then
        status=1
    fi
else
    echo "SAN benchmark failed (inputs: $twic1 $twic2)"
    status=1
fi
exit "$status"
