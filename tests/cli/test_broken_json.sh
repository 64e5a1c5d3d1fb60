#!/usr/bin/env bash
# Broken games in JSON (docs/json-format.md, Games with errors): a game an error cut short is
# written with "broken": true and its diagnostics, and convert --from json refuses it
# (E_BROKEN_GAME), so over the corpus edge/ files and the fuzz regressions of the reader, fmt of
# the JSON round trip equals fmt of the input: no cut-short game comes back as a whole one, and no
# whole game is lost. Holds whether convert --to json writes broken games (marked) or leaves them
# out (here with --keep-broken, so that they are written marked). Prints "RESULT passed failed skipped" like the C suites.
set -u
bin=${PGNKIT_REL_BIN:-${PGNKIT_BIN:-build/pgnkit}}
shared=${PGNKIT_SHARED:-../shared}
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -d "$shared/corpus/edge" ]; then
    echo "FAIL corpus not found at $shared (set PGNKIT_SHARED)"; echo "RESULT 0 1 0"; exit 1
fi
files=()
while IFS= read -r f; do files+=("$f"); done < <(find "$shared/corpus/edge" -name '*.pgn' | sort)
while IFS= read -r f; do files+=("$f"); done < <(find tests/fuzz-regress/reader tests/fuzz-regress/roundtrip -type f | sort)
skip=0
broken_seen=0
for f in "${files[@]}"; do
    # the games alone: the JSON forms carry games, not the text between them
    "$bin" fmt --quiet --games-only "$f" >"$tmp/a" 2>/dev/null
    "$bin" convert --to json --keep-broken "$f" 2>/dev/null >"$tmp/json"
    grep -q '"broken":true' "$tmp/json" && broken_seen=$((broken_seen + 1))
    "$bin" convert --from json "$tmp/json" 2>"$tmp/err" | "$bin" fmt --quiet >"$tmp/b" 2>/dev/null
    if cmp -s "$tmp/a" "$tmp/b"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL $f: fmt of the JSON round trip differs from fmt of the input"
        diff "$tmp/a" "$tmp/b" | head -n 6
    fi
done
# the check can fail: some files hold cut-short games, and each is refused by name
if [ "$broken_seen" -gt 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL no broken game seen"; fi
printf '[Event "x"]\n\n1. e4 e5 2. Ke3 Nf6 *\n' >"$tmp/cut.pgn"
"$bin" convert --to json --keep-broken "$tmp/cut.pgn" 2>/dev/null | "$bin" convert --from json >"$tmp/out" 2>"$tmp/err"; st=$?
if [ "$st" -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q 'E_BROKEN_GAME' "$tmp/err"; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL a cut-short game read back from JSON: status $st"; cat "$tmp/err"; fi
echo "RESULT $pass $fail $skip"
[ "$fail" -eq 0 ]
