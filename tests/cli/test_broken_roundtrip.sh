#!/usr/bin/env bash
# issue 11.2: `convert --to json | convert --from json` never turns a broken game into a clean one:
# for every corpus edge/ file, fmt of the round trip equals fmt of the input (broken games are left
# out of both, by the one policy of the driver), and the counts add up: games = written + rejected.
# Uses the release build (PGNKIT_REL_BIN) when set, for speed. Prints "RESULT passed failed skipped".
set -u
bin=${PGNKIT_REL_BIN:-${PGNKIT_BIN:-build/pgnkit}}
shared=${PGNKIT_SHARED:-../shared}
pass=0 fail=0
files=("$shared"/corpus/edge/*/*)
if [ ! -e "${files[0]}" ]; then
    echo "FAIL the corpus is missing: $shared/corpus/edge"
    echo "RESULT 0 1 0"
    exit 1
fi
for f in "${files[@]}" examples/sample.pgn; do
    want=$("$bin" fmt --quiet --games-only "$f" 2>/dev/null | md5sum) # the games, not the notes between
    got=$("$bin" convert --to json "$f" 2>/dev/null | "$bin" convert --from json 2>/dev/null | md5sum)
    if [ "$want" == "$got" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL round trip of $f differs from fmt"
    fi
    sum=$("$bin" convert --to ndjson "$f" 2>&1 >/dev/null | tail -n 1)
    if [[ "$sum" =~ ^([0-9]+)\ games,\ ([0-9]+)\ written,\ ([0-9]+)\ rejected ]] &&
        [ "${BASH_REMATCH[1]}" -eq $((BASH_REMATCH[2] + BASH_REMATCH[3])) ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL $f: summary '$sum'"
    fi
done
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
