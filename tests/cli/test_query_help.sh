#!/usr/bin/env bash
# The selection language's summary (issue 31): 'pgnkit select --help', 'pgnkit help query' and the
# man page show the same examples, and every example, read from the program's own --help so that
# none can drift, runs on real games (Carlsen's pgnmentor file, TWIC 1427, a TCEC final) and
# selects some of them but not all. Prints "RESULT passed failed skipped" like the C suites.
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
shared=${PGNKIT_SHARED:-../shared}
pass=0 fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
same() { # name, want, got
    if [ "$2" == "$3" ]; then ok; else bad "$1: want [$2] got [$3]"; fi
}

"$bin" select --help >"$t/select.txt" 2>&1
same "select --help exits 0" 0 $?
"$bin" help query >"$t/query.txt" 2>&1
same "help query exits 0" 0 $?
grep '^  pgnkit select ' "$t/select.txt" >"$t/ex.txt"
same "the summary in select --help is help query's" "$(cat "$t/query.txt")" \
    "$(sed -n '/^The language/,$p' "$t/select.txt")"
[ "$(wc -l <"$t/query.txt")" -le 30 ] && ok || bad "help query is over one screen: $(wc -l <"$t/query.txt") lines"
# each kind the issue names has an example
for kind in 'player ~' 'elo.avg >=' 'Date >=' 'fen "' 'at (' 'pattern "' 'material "' 'imbalance "' \
    'move ' ' then ' 'ends = checkmate' 'has comment' 'has nag' ' or ' 'not (' 'flip '; do
    grep -qF -- "$kind" "$t/ex.txt" && ok || bad "no example with '$kind'"
done
# the man page shows the same examples (scdoc source: the same lines in a literal block)
while IFS= read -r line; do
    grep -qxF -- "${line#  }" "$(dirname "$0")/../../man/pgnkit.1.scd" && ok ||
        bad "man/pgnkit.1.scd lacks the example: ${line#  }"
done <"$t/ex.txt"

{
    gzip -dc "$shared/corpus/big/pgnmentor-players/Carlsen.pgn.gz"
    echo
    gzip -dc "$shared/corpus/big/twic/twic1427.pgn.gz"
    echo
    gzip -dc "$shared/corpus/big/tcec/TCEC_Cup_10_Final.pgn.gz"
} >"$t/games.pgn"
total=$("$bin" select --count --quiet 'plies >= 0' "$t/games.pgn" 2>/dev/null)
n=0
while IFS= read -r line; do
    expr=$(printf '%s\n' "$line" | sed -n "s/^  pgnkit select '\(.*\)' games.pgn\$/\1/p")
    [ -n "$expr" ] || { bad "an example not of the form pgnkit select 'EXPR' games.pgn: $line"; continue; }
    n=$((n + 1))
    got=$("$bin" select --count --quiet "$expr" "$t/games.pgn" 2>"$t/err")
    st=$?
    if [ $st -eq 0 ] && [ "${got:-0}" -ge 1 ] && [ "$got" -lt "$total" ]; then
        ok
    else
        bad "example '$expr': exit $st, $got of $total games ($(head -c 300 "$t/err"))"
    fi
    echo "query help: $got of $total games: $expr"
done <"$t/ex.txt"
[ $n -ge 15 ] && ok || bad "only $n examples"
echo "RESULT $pass $fail 0"
[ $fail -eq 0 ]
