#!/usr/bin/env bash
# Where a game's end is judged, the variant's own ending is asked first (issue 35), and a game with
# no tags and no moves is a game, against python-chess's readings (tests/data/game-ends-python-chess.tsv,
# made by tests/tools/game_ends_oracle.py from tests/data/game-ends.pgn.txt):
# - `check` reads as many games as python-chess, `convert --to uci` its main line;
# - `fmt --fix-results` writes the result python-chess's Board.outcome() gives (a won race, an
#   exploded king, an antichess side without moves or pieces, the third check, the hill...);
# - `select 'ends = stalemate'` matches exactly where python-chess's is_stalemate() holds;
# - `select 'result != final'` matches none of the fixed games, and each game marked with a result
#   other than the true one (1/2-1/2, or 1-0 for a true draw).
# Prints "RESULT passed failed skipped" like the C suites.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${1:-${PGNKIT_BIN:-build/pgnkit}}")
oracle=$root/tests/data/game-ends-python-chess.tsv
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # name, want, got
    if [ "$2" == "$3" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL $1: want '$2', got '$3'"
    fi
}
rows=0
while IFS=$'\t' read -r text games uci result stalemate; do
    case "$text" in '#'*) continue ;; esac
    rows=$((rows + 1))
    printf '%b\n' "${text//\\n/\\n}" >"$tmp/g.pgn"
    name="game $rows ($(head -c 60 "$tmp/g.pgn" | tr '\n' ' '))"
    got=$("$bin" check "$tmp/g.pgn" 2>&1 | sed -n 's/^\([0-9]*\) games.*/\1/p')
    check "$name: games" "$games" "$got"
    got=$("$bin" convert --to uci --quiet "$tmp/g.pgn" 2>/dev/null | head -n 1)
    check "$name: main line" "$uci" "${got:--}"
    got=$("$bin" select 'ends = stalemate' --count --quiet "$tmp/g.pgn")
    check "$name: ends = stalemate" "$stalemate" "$got"
    [ "$result" == "*" ] && continue
    "$bin" fmt --fix-results --quiet "$tmp/g.pgn" >"$tmp/fixed.pgn"
    got=$(sed -n 's/^\[Result "\(.*\)"\]$/\1/p' "$tmp/fixed.pgn")
    check "$name: fmt --fix-results" "$result" "$got"
    got=$("$bin" select 'result != final' --count --quiet "$tmp/fixed.pgn")
    check "$name: result != final after the fix" "0" "$got"
    wrong="1/2-1/2"
    [ "$result" == "1/2-1/2" ] && wrong="1-0"
    sed "s|^\\[Result \".*\"\\]\$|[Result \"$wrong\"]|; s| $result\$| $wrong|" "$tmp/fixed.pgn" >"$tmp/wrong.pgn"
    got=$("$bin" select 'result != final' --count --quiet "$tmp/wrong.pgn")
    check "$name: result != final with $wrong" "1" "$got"
done <"$oracle"
check "rows of $oracle" "15" "$rows"
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
