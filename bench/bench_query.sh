#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench` (third part; alone: `make bench-query`): `pgnkit select` (docs/query.md) beside
# Debian's pgn-extract and beside `pgnkit check` on the same file in the same run.
#
# Input: the GNU Chess book source of $SHARED/corpus/big (85.7 MB, 145,716 games) gunzipped once;
# SAMPLE_MB=N keeps the games that start in its first N MiB.
# RUNS rounds (default 3), each running every command once in the table's order; medians of CPU
# time (user + sys, bench/cpurun.c). Every pair of rows selects the same games (the counts are
# printed and compared: a difference fails the benchmark).
#
# Rows: pgn-extract's criterion, then the pgnkit expression that selects the same games:
#   -TwKasparov                      white ~ "^Kasparov"           (tags only: the movetext skipped)
#   -Tf*/*/*/*/3pP3/*/*/*            pattern "*/*/*/*/3pP3/*/*/*"  (a FEN pattern on every position)
#   -Tf*/*/*/????P???/???P????/*/*/* at (Pd4 and Pe5)              (piece atoms on one position)
#   -x (1. e4 c5 2. Nf3 d6 3. d4)    opening "e4 c5 Nf3 d6 d4"     (decided at ply 5)
#   --checkmate                      ends = checkmate              (the final position)
# and pgnkit check, the reference for the position rows (every move resolved).
#
# Two tables: -j 1 (one thread, CPU time: the work each tool does), and the default -j (every core
# for a regular file: `select` and `check` match on worker threads; wall time, beside pgn-extract's
# wall time, which is single-threaded). Wall times mean something only on a quiet machine: the load
# average is printed with them.
#
# Order: each round runs pgnkit's -j 1 commands back to back (check, then every select), then the
# default -j ones, then pgn-extract's, so that "x check" compares runs made in the same conditions.
# (Until 2026-12-01 each select -j 1 ran right after a 3-10 s pgn-extract run and check after a
# short pgnkit run; on the quiet machine that run showed select at 1.58-1.67x check's CPU time
# where callgrind counted 1.05-1.16x the instructions: docs/query.md, "Performance".) The row
# "check -q, right after pgn-extract" repeats check right after pgn-extract's pattern run: if it is
# slower than the first row, the machine slows a process that follows a long one.
set -euo pipefail

BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
PGNKIT=${PGNKIT:-$BUILD/pgnkit}
RUNS=${RUNS:-3}
CPURUN=$BUILD/cpurun
PX=${PGN_EXTRACT:-}
if [ -z "$PX" ]; then
    if [ -x /usr/games/pgn-extract ]; then PX=/usr/games/pgn-extract; else PX=$(command -v pgn-extract || true); fi
fi
if [ ! -x "$PGNKIT" ] || [ ! -x "$CPURUN" ] || [ -z "$PX" ]; then
    echo "bench_query.sh: $CPURUN, $PGNKIT or pgn-extract missing (run make bench)" >&2
    exit 2
fi
tmp=$(mktemp -d)
[ "${KEEP_TMP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
gzip -dc "$SHARED/corpus/big/gnuchess-book_1.02.pgn.gz" > "$tmp/book.pgn"
if [ -n "${SAMPLE_MB:-}" ]; then # the games that start in the first SAMPLE_MB MiB (a busy machine)
    LC_ALL=C awk -v max=$((SAMPLE_MB * 1048576)) '/^\[Event / && n >= max { exit }
        { n += length($0) + 1; print }' "$tmp/book.pgn" > "$tmp/cut.pgn"
    mv "$tmp/cut.pgn" "$tmp/book.pgn"
fi
bytes=$(wc -c < "$tmp/book.pgn")
games=$(grep -c '^\[Event ' "$tmp/book.pgn")
echo "e4 c5 Nf3 d6 d4" > "$tmp/x.txt"
. "$(dirname "$0")/lib.sh"

names=(tag pattern pieces opening mate)
px_args=("-TwKasparov" "-Tf*/*/*/*/3pP3/*/*/*" "-Tf*/*/*/????P???/???P????/*/*/*" "-x$tmp/x.txt"
    "--checkmate")
exprs=('white ~ "^Kasparov"' 'pattern "*/*/*/*/3pP3/*/*/*"' 'at (Pd4 and Pe5)'
    'opening "e4 c5 Nf3 d6 d4"' 'ends = checkmate')
# the same selections first
for i in "${!names[@]}"; do
    a=$("$PX" --quiet "${px_args[$i]}" "$tmp/book.pgn" 2> /dev/null | grep -c '^\[Event ' || true)
    b=$("$PGNKIT" select -j 1 --count "${exprs[$i]}" "$tmp/book.pgn" 2> /dev/null)
    counts[i]="$a / $b"
    c=$("$PGNKIT" select --count "${exprs[$i]}" "$tmp/book.pgn" 2> /dev/null)
    if [ "$a" != "$b" ] || [ "$b" != "$c" ]; then
        echo "bench_query.sh: ${px_args[$i]} selects $a games, select '${exprs[$i]}' $b (default -j: $c)" >&2
        exit 1
    fi
done
cores=$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo '?')
for _ in $(seq "$RUNS"); do
    once check "$PGNKIT" check -j 1 -q "$tmp/book.pgn"
    for i in "${!names[@]}"; do
        once "pk${names[$i]}" "$PGNKIT" select -j 1 "${exprs[$i]}" -o /dev/null "$tmp/book.pgn"
    done
    once checkall "$PGNKIT" check -q "$tmp/book.pgn"
    for i in "${!names[@]}"; do
        once "all${names[$i]}" "$PGNKIT" select "${exprs[$i]}" -o /dev/null "$tmp/book.pgn"
    done
    for i in "${!names[@]}"; do
        once "px${names[$i]}" "$PX" --quiet "${px_args[$i]}" -o /dev/null "$tmp/book.pgn"
        if [ "${names[$i]}" = pattern ]; then
            once checkafter "$PGNKIT" check -j 1 -q "$tmp/book.pgn"
        fi
    done
done

echo
echo "## Selecting games ($(date -u +%Y-%m-%d), $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo
echo "Input: gnuchess-book_1.02.pgn, $bytes bytes, $games games; $RUNS rounds of every command in"
echo "turn, medians; CPU = user + sys. pgn-extract: $($PX --version 2>&1 | head -n 1 || true);"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | CPU s | wall s | MB/s | games/s | peak RSS MiB | x pgn-extract | x check |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
stats check
check_cpu=$cpu
echo "$(row "pgnkit check -q" 0) - |"
for i in "${!names[@]}"; do
    stats "px${names[$i]}"
    ref=$cpu
    echo "$(row "pgn-extract ${px_args[$i]/$tmp\//} (${counts[$i]%% *} games)" 0) - |"
    stats "pk${names[$i]}"
    echo "$(row "pgnkit select '${exprs[$i]}'" "$ref") $(awk -v a="$cpu" -v b="$check_cpu" 'BEGIN { printf "%.2f", a / b }') |"
done
stats checkafter
echo "$(row "pgnkit check -q, right after pgn-extract's pattern run" 0) $(awk -v a="$cpu" -v b="$check_cpu" 'BEGIN { printf "%.2f", a / b }') |"

echo
echo "Default -j (every core: $cores; \`select\` and \`check\` work on worker threads): wall time,"
echo "medians; pgn-extract is single-threaded (its wall time from the same rounds). Load average:"
echo "$(cut -d' ' -f1-3 /proc/loadavg) (wall times compare tools only on a quiet machine)."
echo
echo "| command | wall s | CPU s | x pgn-extract (wall) | x check (wall) |"
echo "|---|---:|---:|---:|---:|"
stats checkall
check_wall=$wall
awk -v w="$wall" -v c="$cpu" 'BEGIN { printf "| pgnkit check -q | %.3f | %.3f | - | - |\n", w, c }'
for i in "${!names[@]}"; do
    stats "px${names[$i]}"
    px_wall=$wall
    stats "all${names[$i]}"
    awk -v l="pgnkit select '${exprs[$i]}'" -v w="$wall" -v c="$cpu" -v p="$px_wall" -v k="$check_wall" \
        'BEGIN { printf "| %s | %.3f | %.3f | %.1f | %.2f |\n", l, w, c, p / w, w / k }'
done
