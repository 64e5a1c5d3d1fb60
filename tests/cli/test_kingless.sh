#!/usr/bin/env bash
# Positions where one side or both have no king (issue 28 point 4; docs/pgn-dialect.md), against
# outside truth: tests/data/kingless-python-chess.tsv holds the games of tests/data/kingless.pgn
# (set-ups written for this test: no king at all, one king, captures, promotions, en passant,
# castling, pins, checks and mates against the side that has a king) as python-chess reads them,
# and perft counts of such positions by python-chess's move generator (made by
# tests/tools/kingless_oracle.py). pgnkit reads every game with no error, and its UCI main lines,
# SAN with check and mate marks, final FENs, mates and stalemates and perft counts are
# python-chess's. Prints "RESULT passed failed skipped" like the C suites.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${PGNKIT_BIN:-build/pgnkit}")
pgn=$root/tests/data/kingless.pgn
oracle=$root/tests/data/kingless-python-chess.tsv
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # name, want, got
    if [ "$2" == "$3" ]; then ok; else
        bad "$1"
        diff <(echo "$2") <(echo "$3") | head -n 6
    fi
}
games=$(awk -F'\t' '$1 == "game"' "$oracle")
n=$(echo "$games" | grep -c .)
[ "$n" -ge 15 ] || bad "only $n game rows in $oracle"
check "python-chess read every game whole" "$(echo "$games" | awk -F'\t' '{print 0}')" \
    "$(echo "$games" | cut -f3)"

"$bin" check "$pgn" >/dev/null 2>"$tmp/check.err"
check "check: every game read" "$n games, 0 errors" "$(tail -n 1 "$tmp/check.err" | sed 's/, [0-9]* warnings//')"
"$bin" convert --to uci "$pgn" >"$tmp/uci" 2>/dev/null
check "UCI main lines = python-chess" "$(echo "$games" | cut -f8)" "$(cat "$tmp/uci")"
"$bin" convert --to san "$pgn" >"$tmp/san" 2>/dev/null
check "SAN with check and mate marks = python-chess" "$(echo "$games" | cut -f7)" "$(cat "$tmp/san")"
"$bin" convert --to fen "$pgn" 2>/dev/null |
    awk 'NF {last = $0; n++} !NF {print n ? last : "-"; n = 0}' >"$tmp/final"
check "final positions = python-chess" "$(echo "$games" | cut -f5)" "$(cat "$tmp/final")"
# the games whose final position is a mate, a stalemate (by Event tag: "kingless N: ...")
for end in checkmate stalemate; do
    "$bin" select "ends = $end" "$pgn" 2>/dev/null |
        sed -n 's/^\[Event "kingless \([0-9]*\):.*/\1/p' >"$tmp/$end"
    check "ends = $end: python-chess's games" \
        "$(echo "$games" | awk -F'\t' -v e="$end" '$6 == e {print $2}')" "$(cat "$tmp/$end")"
done
# fmt reads back to the same main lines (the FEN tag of a kingless position is kept)
"$bin" fmt "$pgn" >"$tmp/a.pgn" 2>/dev/null
check "fmt keeps the main lines" "$(cat "$tmp/uci")" "$("$bin" convert --to uci "$tmp/a.pgn" 2>/dev/null)"

# perft from kingless positions = python-chess's counts
while IFS=$'\t' read -r kind fen depth nodes; do
    [ "$kind" == perft ] || continue
    got=$("$bin" perft --fen "$fen" "$depth" 2>&1 | tail -n 1)
    check "perft $depth $fen" "$nodes" "$got"
done <"$oracle"
[ "$(grep -c '^perft' "$oracle")" -ge 8 ] || bad "too few perft rows in $oracle"

echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
