#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench` (second part; alone: `make bench-io`): reading and writing PGN beside Debian's
# pgn-extract on the same file in the same run.
#
# Input: the TWIC issues of $SHARED/corpus/big/twic/ gunzipped once into a temporary file (about
# 8 MB, 9,416 games), and that file 4 times over (33 MB) for the timings. The commands run in RUNS
# rounds (default 5), each round running every command once, in the table's order, so that a
# change in the machine's speed during the benchmark touches pgn-extract and pgnkit alike; the
# table gives medians. Time is the process's CPU time (user + sys, to the microsecond from wait4,
# by bench/cpurun.c; pgnkit runs at -j 1, one core: threads are bench_parallel.sh's): the
# machines are shared, and CPU time is what another process's load disturbs least; the median
# wall time is shown beside it. MB/s and games/s are computed from the CPU time. Peak RSS is
# the largest of the runs.
#
# Rows:
#   pgn-extract -s -o /dev/null        its check-and-rewrite pass, the reference for check and fmt
#   pgnkit check                       every move checked, diagnostics
#   pgnkit fmt -o /dev/null            read, check, write the export format
#   pgnkit check --syntax-only         the syntax scan alone, no board (issue 32: >= 800 MB/s)
#   tag-only scan                      bench_read: a visitor taking every tag pair and answering
#                                      SKIP at end_tags (no board, the movetext skipped)
#   pgn-extract --json / pgnkit convert --to ndjson
#   pgn-extract --fencomments / pgnkit convert --to fen
# Then the gnuchess book's first 50 MB (issue 32): pgn-extract -s, check, fmt and the syntax
# scan, in rounds.
# Then compressed input (issue 16): the same 33 MB as gzip (-6) and zstd (-3), read by pgnkit
# directly and by pgn-extract through zcat / zstdcat (the pipeline's CPU: the shell, the
# decompressor and pgn-extract, from wait4), beside the plain file.
# A second table (issue 14): pgn-extract -e (its ECO file) / pgnkit eco, pgn-extract -D /
# pgnkit dedupe (the input holds every game four times: 3 of 4 are duplicates, each confirmed
# against the first copy's line record), pgn-extract -s (a plain run) / pgnkit stats; each
# pgnkit command at -j 1 (ratio of CPU times) and at its default, one thread per core (ratio of
# median wall times: pgn-extract has one thread; meaningful on a quiet machine only).
# Then peak RSS of pgnkit check and fmt on the 8 MB file and on one 12 times larger (100 MB, the
# same games repeated): memory is bounded by the largest game, not the file.
#
# Environment: BUILD, SHARED, PGNKIT (set by the Makefile); RUNS; PGN_EXTRACT (default
# /usr/games/pgn-extract, else on PATH); BOOK=0 leaves the book out; KEEP_TMP=1 keeps the temporary
# files.
set -euo pipefail

BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
PGNKIT=${PGNKIT:-$BUILD/pgnkit}
RUNS=${RUNS:-5}
READ=$BUILD/bench_read
CPURUN=$BUILD/cpurun

PX=${PGN_EXTRACT:-}
if [ -z "$PX" ]; then
    if [ -x /usr/games/pgn-extract ]; then PX=/usr/games/pgn-extract; else PX=$(command -v pgn-extract || true); fi
fi
if [ ! -x "$READ" ] || [ ! -x "$PGNKIT" ] || [ ! -x "$CPURUN" ]; then
    echo "bench_io.sh: $READ, $CPURUN or $PGNKIT not built (run make bench)" >&2
    exit 2
fi

tmp=$(mktemp -d)
[ "${KEEP_TMP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
gzip -dc "$SHARED"/corpus/big/twic/*.pgn.gz > "$tmp/twic1.pgn"
# timed input: the two issues 4 times over (about 33 MB)
for _ in 1 2 3 4; do cat "$tmp/twic1.pgn"; done > "$tmp/twic.pgn"
for _ in 1 2 3; do cat "$tmp/twic.pgn"; done > "$tmp/twic12.pgn"
bytes1=$(wc -c < "$tmp/twic1.pgn")
bytes=$(wc -c < "$tmp/twic.pgn")
games=$(grep -c '^\[Event ' "$tmp/twic.pgn")
bytes12=$(wc -c < "$tmp/twic12.pgn")

. "$(dirname "$0")/lib.sh"

# the tag-only scan measures itself (process CPU time around the reading loop): one run of it
once_read() {
    "$READ" -n 1 "$1" > "$tmp/read"
    local s r
    s=$(grep '^tags ' "$tmp/read" | tr ' ' '\n' | sed -n 's/^seconds=//p')
    r=$(sed -n 's/^maxrss_kb=//p' "$tmp/read")
    echo "$s 0 nan $r" >> "$tmp/times.$2"
}

# run_read FILE: the tag-only scan on FILE, RUNS runs in a row; sets cpu, wall, rss
run_read() {
    rm -f "$tmp/times.read1"
    for _ in $(seq "$RUNS"); do once_read "$1" read1; done
    stats read1
}

echo
echo "## Reading and writing PGN ($(date -u +%Y-%m-%d), $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo
echo "Input: TWIC 1427 + 1428 four times over, $bytes bytes, $games games; $RUNS rounds of every"
echo "command in turn, medians;"
echo "CPU = user + sys."
echo "pgn-extract: $($PX --version 2>&1 | head -n 1 || true); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | CPU s | wall s | MB/s | games/s | peak RSS MiB | x pgn-extract |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for _ in $(seq "$RUNS"); do
    if [ -n "$PX" ]; then once px "$PX" -s -o /dev/null "$tmp/twic.pgn"; fi
    once check "$PGNKIT" check -j 1 "$tmp/twic.pgn"
    once fmt "$PGNKIT" fmt -j 1 -o /dev/null "$tmp/twic.pgn"
    once syn "$PGNKIT" check -j 1 --syntax-only "$tmp/twic.pgn"
    once_read "$tmp/twic.pgn" read
    if [ -n "$PX" ]; then once pxj "$PX" -s --json -o /dev/null "$tmp/twic.pgn"; fi
    once ndjson "$PGNKIT" convert --to ndjson -o /dev/null "$tmp/twic.pgn"
    if [ -n "$PX" ]; then once pxf "$PX" -s --fencomments -o /dev/null "$tmp/twic.pgn"; fi
    once fen "$PGNKIT" convert -j 1 --to fen -o /dev/null "$tmp/twic.pgn"
done
ref_s=0 ref_j=0 ref_f=0
if [ -n "$PX" ]; then
    stats px
    ref_s=$cpu
    row "pgn-extract -s -o /dev/null" 0
fi
stats check
row "pgnkit check" "$ref_s"
stats fmt
row "pgnkit fmt -o /dev/null" "$ref_s"
stats syn
row "pgnkit check --syntax-only" "$ref_s"
stats read
row "tag-only scan (bench_read, SKIP)" "$ref_s"
if [ -n "$PX" ]; then
    stats pxj
    ref_j=$cpu
    row "pgn-extract --json" 0
fi
stats ndjson
row "pgnkit convert --to ndjson" "$ref_j"
if [ -n "$PX" ]; then
    stats pxf
    ref_f=$cpu
    row "pgn-extract --fencomments" 0
fi
stats fen
row "pgnkit convert --to fen" "$ref_f"

# The gnuchess book's first 50 MB, cut before the last game that starts in them (issue 32's second
# input: long opening lines, few tags): check and fmt at -j 1 beside pgn-extract -s, in rounds as
# above. BOOK=0 leaves it out.
book_gz=$SHARED/corpus/big/gnuchess-book_1.02.pgn.gz
if [ "${BOOK:-1}" = 1 ] && [ -f "$book_gz" ]; then
    { gzip -dc "$book_gz" || true; } | head -c 50000000 > "$tmp/book50"
    last=$(grep -n '^\[Event ' "$tmp/book50" | tail -n 1 | cut -d: -f1)
    head -n $((last - 1)) "$tmp/book50" > "$tmp/book.pgn"
    rm -f "$tmp/book50"
    for _ in $(seq "$RUNS"); do
        if [ -n "$PX" ]; then once bpx "$PX" -s -o /dev/null "$tmp/book.pgn"; fi
        once bcheck "$PGNKIT" check -j 1 "$tmp/book.pgn"
        once bfmt "$PGNKIT" fmt -j 1 -o /dev/null "$tmp/book.pgn"
        once bsyn "$PGNKIT" check -j 1 --syntax-only "$tmp/book.pgn"
    done
    twic_bytes=$bytes twic_games=$games
    bytes=$(wc -c < "$tmp/book.pgn")
    games=$(grep -c '^\[Event ' "$tmp/book.pgn")
    echo
    echo "The gnuchess book's first 50 MB: $bytes bytes, $games games; $RUNS rounds, medians:"
    echo
    echo "| command | CPU s | wall s | MB/s | games/s | peak RSS MiB | x pgn-extract |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    ref_b=0
    if [ -n "$PX" ]; then
        stats bpx
        ref_b=$cpu
        row "pgn-extract -s -o /dev/null (book)" 0
    fi
    stats bcheck
    row "pgnkit check (book)" "$ref_b"
    stats bfmt
    row "pgnkit fmt -o /dev/null (book)" "$ref_b"
    stats bsyn
    row "pgnkit check --syntax-only (book)" "$ref_b"
    bytes=$twic_bytes games=$twic_games
fi

gzip -6 -c "$tmp/twic.pgn" > "$tmp/twic.pgn.gz"
zstd -q -3 -c "$tmp/twic.pgn" > "$tmp/twic.pgn.zst"
for _ in $(seq "$RUNS"); do
    for z in gz zst; do
        zc=zcat
        [ $z = zst ] && zc=zstdcat
        if [ -n "$PX" ]; then once "px.$z" bash -c "$zc '$tmp/twic.pgn.$z' | '$PX' -s -o /dev/null"; fi
        once "check.$z" "$PGNKIT" check -j 1 "$tmp/twic.pgn.$z"
        once "fmt.$z" "$PGNKIT" fmt -j 1 -o /dev/null "$tmp/twic.pgn.$z"
    done
    once check.plain "$PGNKIT" check -j 1 "$tmp/twic.pgn"
    once fmt.plain "$PGNKIT" fmt -j 1 -o /dev/null "$tmp/twic.pgn"
done
echo
echo "Compressed input: the same games as gzip -6 ($(wc -c < "$tmp/twic.pgn.gz") bytes) and zstd -3"
echo "($(wc -c < "$tmp/twic.pgn.zst") bytes); MB/s of the plain text; 'x pgn-extract' against pgn-extract fed"
echo "by zcat / zstdcat in the same rounds; 'vs plain' = CPU against the same command on the plain file."
echo
echo "| command | CPU s | wall s | MB/s | x pgn-extract | vs plain |"
echo "|---|---:|---:|---:|---:|---:|"
zrow() { # label reference-cpu plain-cpu
    awk -v l="$1" -v c="$cpu" -v w="$wall" -v b="$bytes" -v ref="$2" -v p="$3" 'BEGIN {
        printf "| %s | %.3f | %s | %.1f | %s | %s |\n", l, c, (w == "nan" ? "-" : sprintf("%.3f", w)), b / c / 1e6,
            (ref > 0 ? sprintf("%.1f", ref / c) : "-"), (p > 0 ? sprintf("%+.0f%%", (c / p - 1) * 100) : "-") }'
}
for c in check fmt; do
    stats "$c.plain"
    plain=$cpu
    zrow "pgnkit $c (plain)" 0 0
    for z in gz zst; do
        zc=zcat
        [ $z = zst ] && zc=zstdcat
        ref=0
        if [ -n "$PX" ]; then
            stats "px.$z"
            ref=$cpu
            [ $c = check ] && zrow "$zc .$z \| pgn-extract -s" 0 0
        fi
        stats "$c.$z"
        zrow "pgnkit $c .$z" "$ref" "$plain"
    done
done

echo
echo "Keeping a collection clean (same input and rounds):"
echo
echo "| command | CPU s | wall s | MB/s | games/s | peak RSS MiB | x pgn-extract |"
echo "|---|---:|---:|---:|---:|---:|---:|"
eco_file=/usr/share/pgn-extract/eco.pgn
for _ in $(seq "$RUNS"); do
    if [ -n "$PX" ] && [ -f "$eco_file" ]; then once pxe "$PX" -s -e"$eco_file" -o /dev/null "$tmp/twic.pgn"; fi
    once eco "$PGNKIT" eco -j 1 -o /dev/null "$tmp/twic.pgn"
    once eco.all "$PGNKIT" eco -o /dev/null "$tmp/twic.pgn"
    if [ -n "$PX" ]; then once pxd "$PX" -s -D -o /dev/null "$tmp/twic.pgn"; fi
    once dedupe "$PGNKIT" dedupe -j 1 -o /dev/null "$tmp/twic.pgn"
    once dedupe.all "$PGNKIT" dedupe -o /dev/null "$tmp/twic.pgn"
    if [ -n "$PX" ]; then once pxs "$PX" -s -o /dev/null "$tmp/twic.pgn"; fi
    once stats "$PGNKIT" stats -j 1 "$tmp/twic.pgn"
    once stats.all "$PGNKIT" stats "$tmp/twic.pgn"
done
# row_wall LABEL REF_WALL: a row of a run on every core, MB/s, games/s and the ratio from the
# median wall time (its CPU time is the sum over the threads)
row_wall() {
    awk -v l="$1" -v c="$cpu" -v w="$wall" -v r="$rss" -v b="$bytes" -v g="$games" -v ref="$2" 'BEGIN {
        ratio = ref > 0 ? sprintf("%.1f (wall)", ref / w) : "-"
        printf "| %s | %.3f | %.3f | %.1f | %.0f | %.1f | %s |\n", l, c, w, b / w / 1e6, g / w, r / 1024, ratio }'
}
for pair in "pxe eco pgn-extract_-e_eco.pgn eco_-o_/dev/null" \
    "pxd dedupe pgn-extract_-D dedupe_-o_/dev/null" "pxs stats pgn-extract_-s stats"; do
    read -r ref mine ref_label mine_label <<<"$pair"
    ref_cpu=0 ref_wall=0
    if [ -f "$tmp/times.$ref" ]; then
        stats "$ref"
        ref_cpu=$cpu ref_wall=$wall
        row "${ref_label//_/ }" 0
    fi
    stats "$mine"
    row "pgnkit ${mine_label//_/ } -j 1" "$ref_cpu"
    stats "$mine.all"
    row_wall "pgnkit ${mine_label//_/ }, all $(nproc) cores" "$ref_wall"
done

echo
echo "Peak RSS against input size (memory is bounded by the largest game):"
echo
echo "| command | $((bytes1 / 1000000)) MB input | $((bytes12 / 1000000)) MB input |"
echo "|---|---:|---:|"
for c in check fmt; do
    args=("$c" -j 1)
    [ "$c" = fmt ] && args=(fmt -j 1 -o /dev/null)
    RUNS=1 run "$c small" "$PGNKIT" "${args[@]}" "$tmp/twic1.pgn"
    small=$rss
    RUNS=1 run "$c big" "$PGNKIT" "${args[@]}" "$tmp/twic12.pgn"
    awk -v c="${args[*]}" -v a="$small" -v b="$rss" 'BEGIN { printf "| pgnkit %s | %.1f MiB | %.1f MiB |\n", c, a / 1024, b / 1024 }'
done
run_read "$tmp/twic12.pgn"
awk -v r="$rss" -v b="$bytes12" -v c="$cpu" 'BEGIN { printf "| tag-only scan | - | %.1f MiB (%.0f MB/s) |\n", r / 1024, b / c / 1e6 }'
