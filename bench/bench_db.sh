#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench-db` (issue 30): the game database, `pgnkit db`, on the gnuchess book (145,716 games,
# $SHARED/corpus/big/gnuchess-book_1.02.pgn.gz) and on TWIC 1427 + 1428 ($SHARED/corpus/big/twic/),
# each gunzipped first (the import reads plain PGN; decompression is not measured).
#
# For each input, RUNS rounds (default 3) of:
#   read floor    pgnkit check -j 2 --quiet FILE: reading every game on 2 cores, nothing stored
#   import        pgnkit db import -j 2 --quiet --db NEW FILE: a new database, the position index
#                 and the explorer built
# then, on the database of the last round:
#   size          the database file (and its -wal, empty once closed) against the plain PGN
#   explore       pgnkit db explore --json - with 3,000 FENs sampled evenly from TWIC's main lines
#                 (every ply; pgnkit convert --to csv --per-ply), one process: the mean per position
#                 includes the start-up; and 3,000 FENs of plies 1-10 (the positions with most rows)
# Medians of CPU time (user + sys, bench/cpurun.c) and of wall time; the machine is shared, so the
# wall times are loose and the CPU times the steadier figure.
# The issue's goals: import >= 100,000 games/s on 2 cores, the database no larger than the PGN,
# explore <= 5 ms a position. Published figures beside (not measured here; docs/database.md):
#   ocgdb (SQLite): about 115k games/s; its position table 8-14 GB for 3.45M games (2.3-4 KB/game)
#   Scid: 47-56 bytes of index a game plus about a byte a move (no position index)
#
# Environment: BUILD, SHARED, PGNKIT (set by the Makefile); RUNS; KEEP_TMP=1 keeps the files.
set -euo pipefail

BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
PGNKIT=${PGNKIT:-$BUILD/pgnkit}
RUNS=${RUNS:-3}
CPURUN=$BUILD/cpurun
if [ ! -x "$PGNKIT" ] || [ ! -x "$CPURUN" ] || [ ! -x "$BUILD/bench_db_select" ]; then
    echo "bench_db.sh: $CPURUN, $BUILD/bench_db_select or $PGNKIT not built (run make bench-db)" >&2
    exit 2
fi

tmp=$(mktemp -d)
[ "${KEEP_TMP:-0}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
gzip -dc "$SHARED"/corpus/big/twic/twic1427.pgn.gz "$SHARED"/corpus/big/twic/twic1428.pgn.gz > "$tmp/twic.pgn"
gzip -dc "$SHARED"/corpus/big/gnuchess-book_1.02.pgn.gz > "$tmp/book.pgn"

. "$(dirname "$0")/lib.sh"

# the FENs asked: evenly spaced lines of the per-ply table (field 5), all plies and plies 1-10
"$PGNKIT" convert --to csv --per-ply "$tmp/twic.pgn" 2> /dev/null | tail -n +2 > "$tmp/plies.csv"
sample() { # awk filter -> 3000 FENs
    awk -F, "$1" "$tmp/plies.csv" | cut -d, -f5 > "$tmp/cand"
    awk -v n="$(wc -l < "$tmp/cand")" 'BEGIN { step = n / 3000; next_at = 0 }
        NR - 1 >= next_at && c < 3000 { print; c++; next_at += step }' "$tmp/cand"
}
sample '1' > "$tmp/fen.all"
sample '$2 <= 10' > "$tmp/fen.open"

echo "bench-db: pgnkit db import, size and explore ($RUNS rounds; medians; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
echo
echo "| input | games | PGN MB | read floor cpu s | import cpu s | import wall s | games/s (wall) | games/s (cpu) | database MB | size / PGN | explore ms (all plies) | explore ms (plies 1-10) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for name in book twic; do
    f=$tmp/$name.pgn
    bytes=$(wc -c < "$f")
    games=$(grep -c '^\[Event ' "$f" || true)
    rm -f "$tmp/times.read.$name" "$tmp/times.imp.$name"
    for _ in $(seq "$RUNS"); do
        once "read.$name" "$PGNKIT" check -j 2 --quiet "$f"
        rm -f "$tmp/$name.db" "$tmp/$name.db-wal" "$tmp/$name.db-shm"
        once "imp.$name" "$PGNKIT" db import -j 2 --quiet --db "$tmp/$name.db" "$f"
    done
    stats "read.$name"
    rcpu=$cpu
    stats "imp.$name"
    dbbytes=0
    for part in "$tmp/$name.db" "$tmp/$name.db-wal"; do
        [ -e "$part" ] && dbbytes=$((dbbytes + $(stat -c %s "$part")))
    done
    rm -f "$tmp/times.ex.$name" "$tmp/times.eo.$name"
    for _ in $(seq "$RUNS"); do
        "$CPURUN" "$tmp/t" "$PGNKIT" db explore --json --db "$tmp/$name.db" - < "$tmp/fen.all" > /dev/null
        cat "$tmp/t" >> "$tmp/times.ex.$name"
        "$CPURUN" "$tmp/t" "$PGNKIT" db explore --json --db "$tmp/$name.db" - < "$tmp/fen.open" > /dev/null
        cat "$tmp/t" >> "$tmp/times.eo.$name"
    done
    ex=$(awk '{ print $3 }' "$tmp/times.ex.$name" | median)
    eo=$(awk '{ print $3 }' "$tmp/times.eo.$name" | median)
    awk -v n="$name" -v g="$games" -v b="$bytes" -v r="$rcpu" -v c="$cpu" -v w="$wall" -v d="$dbbytes" \
        -v ex="$ex" -v eo="$eo" 'BEGIN {
        printf "| %s | %d | %.1f | %.2f | %.2f | %.2f | %.0f | %.0f | %.1f | %.2f | %.3f | %.3f |\n",
            n, g, b / 1e6, r, c, w, g / w, g / c, d / 1e6, d / b, ex * 1000 / 3000, eo * 1000 / 3000 }'
done
echo
# db select on a position against pgnkit select on the same plain file (2 cores each; CPU
# medians): a common position (the Sicilian after 1. e4 c5 2. Nf3 d6) and a rare one (a ply-24
# position of the book's); games: select's count / db select's (the import skips duplicates)
fens=("rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"
      "2rq1rk1/pb1nppbp/1pnp2p1/8/2P1PP2/1NN1BB2/PP4PP/R2Q1RK1 w - - 3 13")
echo "| input | position | games | select cpu s | db select cpu s | ratio |"
echo "|---|---|---|---|---|---|"
for name in book twic; do
    for k in 0 1; do
        expr="fen \"${fens[$k]}\""
        rm -f "$tmp/times.sel" "$tmp/times.dsel"
        for _ in $(seq "$RUNS"); do
            "$CPURUN" "$tmp/t" "$PGNKIT" select -j 2 --count "$expr" "$tmp/$name.pgn" > "$tmp/n1" 2> /dev/null
            cat "$tmp/t" >> "$tmp/times.sel"
            "$CPURUN" "$tmp/t" "$PGNKIT" db select --count --db "$tmp/$name.db" "$expr" > "$tmp/n2" 2> /dev/null
            cat "$tmp/t" >> "$tmp/times.dsel"
        done
        a=$(awk '{ print $1 + $2 }' "$tmp/times.sel" | median)
        b=$(awk '{ print $1 + $2 }' "$tmp/times.dsel" | median)
        awk -v n="$name" -v k="$k" -v g="$(cat "$tmp/n1") / $(cat "$tmp/n2")" -v a="$a" -v b="$b" 'BEGIN {
            printf "| %s | %s | %s | %.3f | %.3f | %.0f |\n", n, k ? "rare (book ply 24)" : "Sicilian 2... d6", g, a, b, a / (b > 0 ? b : 1e-3) }'
        echo "$a" > "$tmp/sel.$name.$k"
    done
done
# The same questions in one process (bench/bench_db_select.c: the database opened and the
# expression compiled once, then 50 counts and 50 selects that hand each game's bytes to a
# callback; CPU per query): what a program or the Python package meets, without the process's
# start. A select of TWIC takes about 0.02 s, so 100x means 0.2 ms: below any process's start
# (the floor below), reachable in one process only.
echo
echo "| input | position | count ms (one process) | games' bytes ms (one process) | ratio to select (count) |"
echo "|---|---|---|---|---|"
for name in book twic; do
    for k in 0 1; do
        r=$("$BUILD/bench_db_select" -n 50 "$tmp/$name.db" "fen \"${fens[$k]}\"")
        awk -v n="$name" -v k="$k" -v r="$r" -v a="$(cat "$tmp/sel.$name.$k")" 'BEGIN {
            split(r, f, /[ =]/); c = f[6]; s = f[8]
            printf "| %s | %s | %.3f | %.3f | %.0f |\n", n, k ? "rare (book ply 24)" : "Sicilian 2... d6", c, s, a * 1000 / (c > 0 ? c : 1e-3) }'
    done
done
# the floor of any one command: a process that starts and exits (pgnkit --version), which db
# select on a position cannot go below (a fen's --count is answered from the index alone)
rm -f "$tmp/times.ver"
for _ in $(seq "$RUNS"); do
    "$CPURUN" "$tmp/t" "$PGNKIT" --version > /dev/null
    cat "$tmp/t" >> "$tmp/times.ver"
done
echo
echo "Process floor (pgnkit --version): $(awk '{ print $1 + $2 }' "$tmp/times.ver" | median) s CPU"
echo
echo "Where the bytes go (last database of each input; SQLite's dbstat):"
for name in book twic; do
    /usr/bin/python3 - "$tmp/$name.db" "$name" << 'PY' || echo "  $name: dbstat not available"
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
rows = c.execute("select name, sum(pgsize) from dbstat group by name order by 2 desc").fetchall()
print("  %s: " % sys.argv[2] + ", ".join("%s %.1f MB" % (n, s / 1e6) for n, s in rows))
PY
done
echo
echo "Beside (published, not measured here): ocgdb about 115,000 games/s into SQLite, its position"
echo "table 8-14 GB for 3.45M games (2.3-4 KB a game); Scid 47-56 bytes of index a game and about a"
echo "byte a move, no position index (a position search replays the games, about 1 s on 5M games)."
echo "Goals (issue 30): import >= 100,000 games/s on 2 cores; size / PGN <= 1; explore <= 5 ms."
