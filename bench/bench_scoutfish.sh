#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 13: pgnkit select beside Scoutfish (github.com/mcostalba/scoutfish, GPL-3.0: built here
# from its public source, never vendored; only its results and times are compared) on the GNU Chess
# book source of $SHARED/corpus/big, for the rule kinds both have: sub-fen, material, imbalance,
# sequence and streak. Scoutfish answers from an index (`scoutfish make`, timed apart), pgnkit
# reads the PGN each time.
#
# Environment: SCOUTFISH (a built scoutfish binary) or SCOUTFISH_SRC (a checkout of its source,
# built here into a temporary directory with `make build ARCH=x86-64`); without either the script
# says how to get it and exits 2. BUILD, SHARED, PGNKIT, RUNS (default 3) as bench_query.sh.
# Prints one row per query: both match counts (games), and the medians of CPU time (user + sys).
set -euo pipefail

BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
PGNKIT=${PGNKIT:-$BUILD/pgnkit}
RUNS=${RUNS:-3}
CPURUN=$BUILD/cpurun
if [ ! -x "$PGNKIT" ] || [ ! -x "$CPURUN" ]; then
    echo "bench_scoutfish.sh: $CPURUN or $PGNKIT missing (make $CPURUN $PGNKIT)" >&2
    exit 2
fi
tmp=$(mktemp -d)
[ "${KEEP_TMP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
SF=${SCOUTFISH:-}
if [ -z "$SF" ]; then
    if [ -z "${SCOUTFISH_SRC:-}" ] || [ ! -f "$SCOUTFISH_SRC/src/Makefile" ]; then
        echo "bench_scoutfish.sh: set SCOUTFISH=binary or SCOUTFISH_SRC=checkout of" \
            "https://github.com/mcostalba/scoutfish" >&2
        exit 2
    fi
    cp -r "$SCOUTFISH_SRC/src" "$tmp/sf"
    make -C "$tmp/sf" -j2 build ARCH=x86-64 > "$tmp/sf.log" 2>&1 || {
        echo "bench_scoutfish.sh: scoutfish did not build: $(tail -n 3 "$tmp/sf.log")" >&2
        exit 2
    }
    SF=$tmp/sf/scoutfish
fi
gzip -dc "$SHARED/corpus/big/gnuchess-book_1.02.pgn.gz" > "$tmp/book.pgn"
bytes=$(wc -c < "$tmp/book.pgn")
games=$(grep -c '^\[Event ' "$tmp/book.pgn")
. "$(dirname "$0")/lib.sh"

# the index, timed once per round (it is rebuilt each time)
for _ in $(seq "$RUNS"); do
    rm -f "$tmp/book.scout"
    once sfmake "$SF" make "$tmp/book.pgn"
done

names=(subfen material imbalance sequence streak)
sf_q=('{"sub-fen": "8/8/8/4P3/3P4/8/8/8"}'
    '{"material": "KQRKQR"}'
    '{"imbalance": "PPvN"}'
    '{"sequence": [{"sub-fen": "8/8/8/8/3P4/8/8/8"}, {"sub-fen": "8/8/8/3P4/8/8/8/8"}]}'
    '{"streak": [{"imbalance": "vP"}, {"imbalance": "vP"}, {"imbalance": "vP"}]}')
pk_q=('at (Pd4 and Pe5)' 'material "KQRkqr"' 'imbalance "PPvN"' 'Pd4 then Pd5'
    'persist 3 imbalance "vP"')
for i in "${!names[@]}"; do
    a=$("$SF" scout "$tmp/book.scout" "${sf_q[$i]}" | sed -n 's/.*"match count": *\([0-9]*\).*/\1/p')
    b=$("$PGNKIT" select -j 1 --count "${pk_q[$i]}" "$tmp/book.pgn" 2> /dev/null)
    counts[i]="$a / $b"
done
for _ in $(seq "$RUNS"); do
    for i in "${!names[@]}"; do
        once "sf${names[$i]}" "$SF" scout "$tmp/book.scout" "${sf_q[$i]}"
        once "pk${names[$i]}" "$PGNKIT" select -j 1 "${pk_q[$i]}" -o /dev/null "$tmp/book.pgn"
    done
done

echo
echo "## pgnkit select beside Scoutfish ($(date -u +%Y-%m-%d), $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo
echo "Input: gnuchess-book_1.02.pgn, $bytes bytes, $games games; $RUNS rounds, medians of CPU time"
echo "(user + sys); Scoutfish one thread, its index built apart; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
stats sfmake
echo "scoutfish make (index): $cpu s CPU, $(wc -c < "$tmp/book.scout") bytes"
echo
echo "| rule | Scoutfish query | pgnkit expression | games (Scoutfish / pgnkit) | Scoutfish s | pgnkit s | Scoutfish + index s |"
echo "|---|---|---|---:|---:|---:|---:|"
stats sfmake
make_cpu=$cpu
for i in "${!names[@]}"; do
    stats "sf${names[$i]}"
    sf_cpu=$cpu
    stats "pk${names[$i]}"
    awk -v n="${names[$i]}" -v a="${sf_q[$i]}" -v b="${pk_q[$i]}" -v c="${counts[$i]}" -v s="$sf_cpu" \
        -v p="$cpu" -v m="$make_cpu" 'BEGIN { printf "| %s | `%s` | `%s` | %s | %.3f | %.3f | %.3f |\n", n, a, b, c, s, p, s + m }'
done
