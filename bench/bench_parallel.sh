#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench-parallel` (also the last part of `make bench`): -j N (issue 16). The input of
# bench_io.sh (TWIC 1427 + 1428 four times over, about 33 MB), plain, gzip -6, zstd -3 (one
# frame, as zstd writes it) and a zip (as TWIC publishes, read through libarchive), in RUNS rounds (default 5) of every command in turn; medians. What -j
# changes is the wall time (the CPU time of a parallel run is the sum over its threads), so the
# ratios here are of median wall times: -j 2 against -j 1 for check and fmt, compressed against
# plain at -j 2 (issue 16's goals: .zst within 10%, .gz within 25%), and pgn-extract (fed by zcat /
# zstdcat / bsdtar -xOf for the compressed files) against pgnkit in the same rounds. On a shared machine wall
# times move with the other processes' load: the load average is printed with the table. PRIO=rt
# runs every command under `chrt -r 10` (root: real-time round-robin, so that the other jobs of a
# busy machine wait while a run has the cores; the kernel still keeps 5% of each second for them):
# on a shared 2-core machine at load 10 it reproduced the quiet machine's ratios (-j 2 1.55x and
# 1.53x, against 1.52x and 1.57x measured quiet). A second input, the gnuchess book (85.7 MB plain,
# gzip in the shared corpus; BOOK=0 leaves it out), gives check and fmt -j 1 / -j 2 on plain text
# only: a run of 0.2 s on TWIC x4 carries some 15 ms of process start and end that no thread
# divides, which weighs about 2.6 times less on the book (closer to the files of Lichess scale).
set -euo pipefail

BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
PGNKIT=${PGNKIT:-$BUILD/pgnkit}
RUNS=${RUNS:-5}
CPURUN=$BUILD/cpurun
PX=${PGN_EXTRACT:-}
if [ "$PX" = none ]; then # PGN_EXTRACT=none: pgnkit's rows only
    PX=
elif [ -z "$PX" ]; then
    if [ -x /usr/games/pgn-extract ]; then PX=/usr/games/pgn-extract; else PX=$(command -v pgn-extract || true); fi
fi
if [ ! -x "$PGNKIT" ] || [ ! -x "$CPURUN" ]; then
    echo "bench_parallel.sh: $CPURUN or $PGNKIT not built (run make bench-parallel)" >&2
    exit 2
fi
tmp=$(mktemp -d)
[ "${KEEP_TMP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
gzip -dc "$SHARED"/corpus/big/twic/*.pgn.gz >"$tmp/twic1.pgn"
for _ in 1 2 3 4; do cat "$tmp/twic1.pgn"; done >"$tmp/twic.pgn"
gzip -6 -c "$tmp/twic.pgn" >"$tmp/twic.gz"
zstd -q -3 -c "$tmp/twic.pgn" >"$tmp/twic.zst"
# a zip as TWIC publishes them (one member, deflated at zlib's level 6), read through libarchive
/usr/bin/python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED,
    compresslevel=6).write(sys.argv[2], 'twic.pgn')" "$tmp/twic.zip" "$tmp/twic.pgn"
bytes=$(wc -c <"$tmp/twic.pgn")
games=$(grep -c '^\[Event ' "$tmp/twic.pgn")
BOOK=${BOOK:-1}
if [ "$BOOK" = 1 ]; then
    gzip -dc "$SHARED"/corpus/big/gnuchess-book_1.02.pgn.gz >"$tmp/book.pgn"
    book_bytes=$(wc -c <"$tmp/book.pgn")
fi
. "$(dirname "$0")/lib.sh"
if [ "${PRIO:-}" = rt ]; then
    printf '#!/bin/sh\nexec chrt -r 10 "%s" "$@"\n' "$(realpath "$CPURUN")" >"$tmp/rtrun"
    chmod +x "$tmp/rtrun"
    CPURUN=$tmp/rtrun
fi
load0=$(cut -d' ' -f1-3 /proc/loadavg)

# The cores themselves (PIN=0 leaves it out; needs taskset and 2 cores): on the virtual machines
# measured, one vCPU sometimes ran the same job 1.5 times slower than the other for minutes
# (host contention, invisible inside: no steal time), and an unpinned -j 1 run lands on either,
# so -j 2 / -j 1 swung from 1.44 to 2.30 between rounds of one run. Each round therefore also
# times -j 1 pinned to core 0 and to core 1, alone and both at once (two processes, the machine's
# own parallel capacity), on the file of the -j 2 rows it is compared with. With the two cores'
# rates r0 and r1 alone, a perfect -j 2 takes 1 / (r0 + r1); the efficiency is that time over the
# -j 2 time, and on two equal cores -j 2 / -j 1 is twice the efficiency.
PIN=${PIN:-1}
pin_file=$tmp/twic.pgn pin_tag=twic
[ "$BOOK" = 1 ] && pin_file=$tmp/book.pgn pin_tag=book
if [ "$PIN" = 1 ] && { [ "$(nproc)" != 2 ] || ! command -v taskset >/dev/null; }; then
    echo "bench_parallel.sh: the pinned rows need taskset and 2 cores (here $(nproc)); left out" >&2
    PIN=0
fi
pinned_round() {
    local c args
    for c in check fmt; do
        args=(-j 1 "$pin_file")
        [ $c = fmt ] && args=(-j 1 -o /dev/null "$pin_file")
        once "pin.$c.0" taskset -c 0 "$PGNKIT" $c "${args[@]}"
        once "pin.$c.1" taskset -c 1 "$PGNKIT" $c "${args[@]}"
        "$CPURUN" "$tmp/b0" taskset -c 0 "$PGNKIT" $c "${args[@]}" >/dev/null 2>&1 &
        "$CPURUN" "$tmp/b1" taskset -c 1 "$PGNKIT" $c "${args[@]}" >/dev/null 2>&1 || true
        wait
        cat "$tmp/b0" >>"$tmp/times.busy.$c.0"
        cat "$tmp/b1" >>"$tmp/times.busy.$c.1"
    done
}

for _ in $(seq "$RUNS"); do
    for f in pgn gz zst zip; do
        if [ -n "$PX" ]; then
            case $f in
            pgn) once px.$f "$PX" -s -o /dev/null "$tmp/twic.pgn" ;;
            gz) once px.$f bash -c "zcat '$tmp/twic.gz' | '$PX' -s -o /dev/null" ;;
            zst) once px.$f bash -c "zstdcat '$tmp/twic.zst' | '$PX' -s -o /dev/null" ;;
            zip) once px.$f bash -c "bsdtar -xOf '$tmp/twic.zip' | '$PX' -s -o /dev/null" ;;
            esac
        fi
        for j in 1 2; do
            [ $f != pgn ] && [ $j = 1 ] && continue
            once "check.$f.$j" "$PGNKIT" check -j $j "$tmp/twic.$f"
            once "fmt.$f.$j" "$PGNKIT" fmt -j $j -o /dev/null "$tmp/twic.$f"
        done
    done
    # the decoders alone (issue 29: at -j 2 a compressed file may cost over plain text at most
    # its decoder's CPU over the cores)
    once dec.zst zstd -dc "$tmp/twic.zst"
    once dec.gz gzip -dc "$tmp/twic.gz"
    for j in 1 2; do
        [ "$BOOK" = 1 ] || continue
        once "book.check.$j" "$PGNKIT" check -j $j "$tmp/book.pgn"
        once "book.fmt.$j" "$PGNKIT" fmt -j $j -o /dev/null "$tmp/book.pgn"
    done
    [ "$PIN" = 1 ] && pinned_round
done

# median wall (s) of NAME
w() {
    stats "$1"
    echo "$wall"
}
echo
echo "## -j N ($(date -u +%Y-%m-%d), $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo
echo "Input: TWIC 1427 + 1428 four times over, $bytes bytes, $games games, plain, gzip -6, zstd -3,"
echo "zip (deflate, level 6);"
echo "$RUNS rounds, medians. $(nproc) cores; load average before: $load0, after: $(cut -d' ' -f1-3 /proc/loadavg)${PRIO:+; PRIO=$PRIO}."
echo
echo "| command | wall s | CPU s | MB/s (wall) | x -j 1 | vs plain -j 2 | x pgn-extract |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for c in check fmt; do
    one=$(w "$c.pgn.1")
    two=$(w "$c.pgn.2")
    for f in pgn gz zst zip; do
        ref=nan
        [ -n "$PX" ] && ref=$(w "px.$f")
        for j in 1 2; do
            [ $f != pgn ] && [ $j = 1 ] && continue
            stats "$c.$f.$j"
            awk -v l="pgnkit $c -j $j ($f)" -v c="$cpu" -v w="$wall" -v b="$bytes" -v one="$one" -v two="$two" \
                -v ref="$ref" -v j=$j -v f=$f 'BEGIN {
                printf "| %s | %.3f | %.3f | %.1f | %s | %s | %s |\n", l, w, c, b / w / 1e6,
                    (f == "pgn" && j == 2 ? sprintf("%.2f", one / w) : "-"),
                    (f != "pgn" ? sprintf("%+.0f%%", (w / two - 1) * 100) : "-"),
                    (ref != "nan" ? sprintf("%.2f", ref / w) : "-") }'
        done
    done
done
if [ -n "$PX" ]; then
    for f in pgn gz zst zip; do
        stats "px.$f"
        label="pgn-extract -s"
        [ $f = gz ] && label="zcat \\| pgn-extract -s"
        [ $f = zst ] && label="zstdcat \\| pgn-extract -s"
        [ $f = zip ] && label="bsdtar -xOf \\| pgn-extract -s"
        awk -v l="$label ($f)" -v c="$cpu" -v w="$wall" -v b="$bytes" 'BEGIN {
            printf "| %s | %.3f | %.3f | %.1f | - | - | - |\n", l, w, c, b / w / 1e6 }'
    done
fi
echo
echo "The decoders alone (their CPU, same rounds) and the bound they set at -j 2 (issue 29): plain"
echo "-j 2 wall + the decoder's CPU / $(nproc) cores. pgnkit decodes zstd with the same libzstd as"
echo "the zstd program; gzip with ISA-L's igzip when built with it (then gzip -dc, zlib, overstates"
echo "the decoder and the gzip bound is loose)."
echo
echo "| decoder | CPU s | command | plain -j 2 wall s | bound s | compressed -j 2 wall s | over plain | met |"
echo "|---|---:|---|---:|---:|---:|---:|---|"
for f in zst gz; do
    stats "dec.$f"
    dcpu=$cpu
    dec="zstd -dc"
    [ $f = gz ] && dec="gzip -dc"
    for c in check fmt; do
        two=$(w "$c.pgn.2")
        cw=$(w "$c.$f.2")
        awk -v d="$dec" -v dc="$dcpu" -v l="pgnkit $c -j 2 ($f)" -v two="$two" -v cw="$cw" -v n="$(nproc)" 'BEGIN {
            b = two + dc / n
            printf "| %s | %.3f | %s | %.3f | %.3f | %.3f | %+.0f%% | %s |\n", d, dc, l, two, b, cw,
                (cw / two - 1) * 100, (cw <= b ? "yes" : "no") }'
    done
done
if [ "$BOOK" = 1 ]; then
    echo
    echo "The gnuchess book, $book_bytes bytes (plain), same rounds:"
    echo
    echo "| command | wall s | CPU s | MB/s (wall) | x -j 1 |"
    echo "|---|---:|---:|---:|---:|"
    for c in check fmt; do
        one=$(w "book.$c.1")
        for j in 1 2; do
            stats "book.$c.$j"
            awk -v l="pgnkit $c -j $j (book)" -v c="$cpu" -v w="$wall" -v b="$book_bytes" -v one="$one" \
                -v j=$j 'BEGIN { printf "| %s | %.3f | %.3f | %.1f | %s |\n", l, w, c, b / w / 1e6,
                    (j == 2 ? sprintf("%.2f", one / w) : "-") }'
        done
    done
fi
if [ "$PIN" = 1 ]; then
    echo
    echo "The two cores, same rounds, on the $pin_tag file: -j 1 pinned to each core (taskset), alone and"
    echo "both at once; -j 2 (unpinned, from the rows above); the efficiency of -j 2 against the two"
    echo "cores' rates alone (stricter) and both busy; on two equal cores, -j 2 / -j 1 = 2 x efficiency."
    echo
    echo "| command | core 0 alone s | core 1 alone s | both busy s (0 / 1) | -j 2 s | efficiency (alone / busy) | -j 2 / -j 1, equal cores |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    for c in check fmt; do
        a0=$(w "pin.$c.0")
        a1=$(w "pin.$c.1")
        b0=$(w "busy.$c.0")
        b1=$(w "busy.$c.1")
        if [ "$pin_tag" = book ]; then j2=$(w "book.$c.2"); else j2=$(w "$c.pgn.2"); fi
        awk -v l="pgnkit $c ($pin_tag)" -v a0="$a0" -v a1="$a1" -v b0="$b0" -v b1="$b1" -v j2="$j2" 'BEGIN {
            ea = 1 / (1 / a0 + 1 / a1) / j2; eb = 1 / (1 / b0 + 1 / b1) / j2
            printf "| %s | %.3f | %.3f | %.3f / %.3f | %.3f | %.2f / %.2f | %.2f |\n", l, a0, a1, b0, b1, j2, ea, eb, 2 * ea }'
    done
fi
