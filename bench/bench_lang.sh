#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench` (last part; alone: `make bench-lang`): reading other notations (issue 15,
# docs/notation.md) beside English on the same games in the same run.
#
# Input: TWIC 1427 + 1428 of $SHARED/corpus/big/twic/, gunzipped and written by pgnkit fmt
# (English, the reference), then by fmt --lang de (German letters), --lang descriptive and
# --lang descriptive:es: the same games, moves, variations and comments in each notation. The
# commands run in RUNS rounds (default 7), each round running every command once in the table's
# order, so that a change in the machine's speed touches every row alike; the table gives
# medians of CPU time (user + sys, bench/cpurun.c) and the ratio to English's median.
#
# Rows:
#   English                          pgnkit check -j 1 --quiet (English SAN, the fast path; one core, as bench_io.sh)
#   German, --input-lang de          the German copy, its letters named
#   German, detected                 the same, found per game (W_LANGUAGE); where two languages
#                                    read a move differently (Sd2: German, Czech), each reads the
#                                    rest of the line ahead (issue 28 point 3): no error since
#   Dutch, detected                  the Dutch copy (fmt --lang nl): its knight P is English's lax
#                                    pawn letter, so most games read ahead at their first knight move
#   descriptive, --input-lang        English descriptive (P-K4), named
#   descriptive, detected            found per game (W_DESCRIPTIVE)
#   Spanish descriptive, --input-lang
# The issue's targets: German ≤ 1.3× English, descriptive ≥ 10 MB/s.
#
# Environment: BUILD, SHARED, PGNKIT (set by the Makefile); RUNS; KEEP_TMP=1 keeps the files.
set -euo pipefail

BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
PGNKIT=${PGNKIT:-$BUILD/pgnkit}
RUNS=${RUNS:-7}
CPURUN=$BUILD/cpurun
if [ ! -x "$PGNKIT" ] || [ ! -x "$CPURUN" ]; then
    echo "bench_lang.sh: $CPURUN or $PGNKIT not built (run make bench)" >&2
    exit 2
fi

tmp=$(mktemp -d)
[ "${KEEP_TMP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
gzip -dc "$SHARED"/corpus/big/twic/*.pgn.gz > "$tmp/raw.pgn"
"$PGNKIT" fmt --quiet -o "$tmp/en.pgn" "$tmp/raw.pgn" 2>/dev/null || true
"$PGNKIT" fmt --quiet --lang de -o "$tmp/de.pgn" "$tmp/en.pgn"
"$PGNKIT" fmt --quiet --lang nl -o "$tmp/nl.pgn" "$tmp/en.pgn"
"$PGNKIT" fmt --quiet --lang descriptive -o "$tmp/desc.pgn" "$tmp/en.pgn"
"$PGNKIT" fmt --quiet --lang descriptive:es -o "$tmp/es.pgn" "$tmp/en.pgn"
games=$(grep -c '^\[Event ' "$tmp/en.pgn")

. "$(dirname "$0")/lib.sh"

# check exits 1 when a game has an error (the detected German copy has some): count it as a run
once_any() {
    local name=$1
    shift
    "$CPURUN" "$tmp/t" "$@" > /dev/null 2> "$tmp/err" || true
    cat "$tmp/t" >> "$tmp/times.$name"
}

for _ in $(seq "$RUNS"); do
    once en "$PGNKIT" check -j 1 --quiet "$tmp/en.pgn"
    once de "$PGNKIT" check -j 1 --quiet --input-lang de "$tmp/de.pgn"
    once_any deauto "$PGNKIT" check -j 1 --quiet "$tmp/de.pgn"
    once_any nlauto "$PGNKIT" check -j 1 --quiet "$tmp/nl.pgn"
    once desc "$PGNKIT" check -j 1 --quiet --input-lang descriptive "$tmp/desc.pgn"
    once descauto "$PGNKIT" check -j 1 --quiet "$tmp/desc.pgn"
    once es "$PGNKIT" check -j 1 --quiet --input-lang descriptive:es "$tmp/es.pgn"
done

echo
echo "## Reading other notations ($(date -u +%Y-%m-%d), $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo
echo "Input: TWIC 1427 + 1428 written by pgnkit fmt in each notation, $games games; $RUNS rounds,"
echo "medians; CPU = user + sys; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| pgnkit check -j 1 --quiet | CPU s | wall s | MB/s | games/s | peak RSS MiB | x English |"
echo "|---|---:|---:|---:|---:|---:|---:|"
stats en
en_cpu=$cpu
bytes=$(wc -c < "$tmp/en.pgn")
row "English SAN" 0
# the ratio column: this row's CPU over English's (row prints ref / cpu)
ratio_row() {
    bytes=$(wc -c < "$2")
    stats "$3"
    row "$1" 0 | awk -v c="$cpu" -v e="$en_cpu" 'BEGIN { FS = OFS = "|" } { $8 = sprintf(" %.2f ", c / e); print }'
}
ratio_row "German letters, --input-lang de" "$tmp/de.pgn" de
ratio_row "German letters, detected" "$tmp/de.pgn" deauto
ratio_row "Dutch letters, detected" "$tmp/nl.pgn" nlauto
ratio_row "descriptive (P-K4), --input-lang descriptive" "$tmp/desc.pgn" desc
ratio_row "descriptive, detected" "$tmp/desc.pgn" descauto
ratio_row "Spanish descriptive (P4R), --input-lang descriptive:es" "$tmp/es.pgn" es
