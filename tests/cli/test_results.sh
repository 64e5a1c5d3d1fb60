#!/usr/bin/env bash
# Results (docs/pgn-dialect.md, Results): a Result tag that disagrees with the termination marker is
# reported at the marker (the lines pgn-extract's log names for the same file); a result the final
# position contradicts warns (Qh4# 1/2-1/2), and is an error under --strict; fmt --fix-results sets
# marker and tag as pgn-extract --fixresulttags does (its output in corpus/expected), else from
# the marker. Prints "RESULT passed failed skipped" like the C suites.
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
shared=${PGNKIT_SHARED:-../shared}
px=$shared/corpus/expected/pgn-extract
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check_eq() { # name, want, got
    if [ "$2" == "$3" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL $1"; diff <(echo "$2") <(echo "$3") | head -n 10; fi
}
if [ ! -d "$px" ]; then
    echo "FAIL corpus not found at $shared (set PGNKIT_SHARED)"; echo "RESULT 0 1 0"; exit 1
fi
# W_RESULT_MISMATCH at the marker, on the lines of pgn-extract's "Inconsistent result strings" log
# (pgn-extract also logs a "*" tag against a marker, which pgnkit settles silently: digest T78)
"$bin" check "$px/infiles/test-nobadresults.pgn" >/dev/null 2>"$tmp/err"
check_eq "mismatch lines = pgn-extract's" \
    "$(grep -B1 'Inconsistent result strings [^*]' "$px/outfiles/test-nobadresults-log.txt" | sed -n 's/.*Line number: \([0-9]*\)$/\1/p')" \
    "$(sed -n 's/^[^:]*:\([0-9]*\):[0-9]*: warning: .*W_RESULT_MISMATCH.*/\1/p' "$tmp/err")"
check_eq "mismatch column: the marker" "4:19: warning: Result tag and termination marker disagree '0-1' [W_RESULT_MISMATCH] (game 4)" \
    "$(grep -o '4:19: .*' "$tmp/err")"
# a result the final position contradicts
printf '[Event "e"]\n\n1. f3 e5 2. g4 Qh4# 1/2-1/2\n' >"$tmp/mate.pgn"
"$bin" check "$tmp/mate.pgn" >/dev/null 2>"$tmp/err"; st=$?
check_eq "Qh4# 1/2-1/2 warns (lax)" "$tmp/mate.pgn:3:21: warning: result contradicted by the final position (checkmate or stalemate) '1/2-1/2' [W_RESULT_CONTRADICTS] (game 1)
0" "$(head -n 1 "$tmp/err")
$st"
"$bin" check --strict "$tmp/mate.pgn" >/dev/null 2>"$tmp/err"; st=$?
check_eq "Qh4# 1/2-1/2 is an error under --strict" "error 1" "$(grep -o 'error' "$tmp/err" | head -n 1) $st"
# fmt --fix-results: Result tags and markers as pgn-extract --fixresulttags wrote them
"$bin" fmt --fix-results --quiet "$px/infiles/test-fixresulttags-in.pgn" >"$tmp/fixed" 2>/dev/null
results() { grep -o '^\[Result "[^"]*"\]\|\(1-0\|0-1\|1/2-1/2\|\*\)$' "$1" | tr '\n' ' '; }
check_eq "--fix-results = pgn-extract --fixresulttags" "$(results "$px/outfiles/test-fixresulttags-out.pgn")" "$(results "$tmp/fixed")"
"$bin" check "$tmp/fixed" >/dev/null 2>"$tmp/err"
check_eq "--fix-results output reads without a warning" "" "$(grep -c W_RESULT "$tmp/err" | grep -v '^0$')"
# no decision on the board: the marker as read wins over the tag (plain fmt keeps the tag)
printf '[Result "1-0"]\n\n1. e4 e5 0-1\n' >"$tmp/clash.pgn"
check_eq "fmt keeps the tag" "1. e4 e5 1-0" "$("$bin" fmt --quiet "$tmp/clash.pgn" 2>/dev/null | grep -v '^$' | tail -n 1)"
check_eq "--fix-results takes the marker" '[Result "0-1"] 1. e4 e5 0-1' \
    "$("$bin" fmt --fix-results --quiet "$tmp/clash.pgn" 2>/dev/null | grep -v '^$' | sed -n '/^\[Result/p;$p' | tr '\n' ' ' | sed 's/ $//')"
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
