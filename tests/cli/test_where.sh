#!/usr/bin/env bash
# --where EXPR, the driver's shared selection (issue 13), against real truth on TWIC 1427: for each
# expression the number of matches of check, fmt, convert, stats, eco, sort and split equals
# `pgnkit select --count` and pgn-extract's tag criteria (-t) on the same file; fmt --where writes
# exactly what select --fmt writes, convert --where what select piped into convert writes; E and
# not E together are every game. The sanitizer build runs on a slice, the release build
# (PGNKIT_REL_BIN) on the whole file. Prints "RESULT passed failed skipped".
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
rel=${PGNKIT_REL_BIN:-$bin}
shared=${PGNKIT_SHARED:-../shared}
pe=/usr/games/pgn-extract
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-where.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
eq() { # name, expected, actual
    if [ "$2" == "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: expected [$2], got [$3]"; fi
}
if [ ! -x "$pe" ]; then
    echo "pgn-extract is missing at $pe (apt-get install pgn-extract): the suite cannot run"
    echo "RESULT 0 1 0"
    exit 1
fi
zcat "$shared/corpus/big/twic/twic1427.pgn.gz" > "$tmp/twic.pgn" || { echo "FAIL no TWIC 1427"; echo "RESULT 0 1 0"; exit 1; }
awk '/^\[Event /{n++} n<=300' "$tmp/twic.pgn" > "$tmp/slice.pgn"
games() { grep -c '^\[Event ' "$@" || true; }
matched() { sed -n 's/^[0-9]* games, \([0-9]*\) matched.*/\1/p' "$1"; }

# expression | the same criterion for pgn-extract -t
cases=('WhiteElo >= 2600|WhiteElo >= "2600"'
       'Result = "1-0"|Result "1-0"'
       'BlackElo < 2200|BlackElo < "2200"')
for b in "$bin:slice" "$rel:twic"; do
    exe=${b%%:*} f=$tmp/${b##*:}.pgn
    case "$exe" in /*) ;; *) exe=$PWD/$exe ;; esac
    total=$(games "$f")
    for c in "${cases[@]}"; do
        e=${c%%|*} crit=${c#*|}
        name="${b##*:} '$e'"
        want=$("$exe" select --count "$e" "$f" 2>/dev/null)
        printf '%s\n' "$crit" > "$tmp/crit"
        eq "$name: pgn-extract -t" "$want" "$("$pe" -s -t "$tmp/crit" "$f" 2>/dev/null | games)"
        "$exe" check --where "$e" "$f" 2> "$tmp/check.err"
        eq "$name: check --where" "$want" "$(matched "$tmp/check.err")"
        "$exe" check --where "not ($e)" "$f" 2> "$tmp/not.err"
        eq "$name: E + not E = every game" "$total" "$(( $(matched "$tmp/check.err") + $(matched "$tmp/not.err") ))"
        "$exe" fmt --where "$e" "$f" > "$tmp/fmt" 2> "$tmp/fmt.err"
        "$exe" select --fmt "$e" "$f" > "$tmp/sel" 2>/dev/null
        eq "$name: fmt --where = select --fmt" "$(md5sum < "$tmp/sel")" "$(md5sum < "$tmp/fmt")"
        eq "$name: fmt --where summary" "$want" "$(matched "$tmp/fmt.err")"
        eq "$name: convert --where = select | convert" \
            "$("$exe" select "$e" "$f" 2>/dev/null | "$exe" convert --to uci 2>/dev/null | md5sum)" \
            "$("$exe" convert --to uci --where "$e" "$f" 2>/dev/null | md5sum)"
        eq "$name: stats --where" "$want" \
            "$("$exe" stats --json --where "$e" "$f" 2>/dev/null | sed -n 's/^{"games":\([0-9]*\),.*/\1/p')"
        eq "$name: sort --where" "$want" "$("$exe" sort --by Date --where "$e" "$f" 2>/dev/null | games)"
        eq "$name: eco --where" "$want" "$("$exe" eco --where "$e" "$f" 2>/dev/null | games)"
        (cd "$tmp" && rm -rf sp && mkdir sp && "$exe" split --games 50 --pattern 'sp/{n}.pgn' --where "$e" "$f" 2>/dev/null)
        eq "$name: split --where" "$want" "$(cat "$tmp"/sp/*.pgn 2>/dev/null | games)"
    done
done
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
