#!/usr/bin/env bash
# issue 11.3: with --diag json every stderr line is one JSON object, valid UTF-8, that validates
# against docs/diagnostics.schema.json (python3-jsonschema, like tests/json/validate.py). Runs
# `check --diag json` on every corpus file (edge/ with the sanitizer build; big/ through gzip -dc
# with the release build, PGNKIT_REL_BIN, when set) and every tests/fuzz-regress file, plus runs
# with I/O and usage errors. Prints "RESULT passed failed skipped".
set -u
bin=${PGNKIT_BIN:-build/pgnkit}
rel=${PGNKIT_REL_BIN:-$bin}
shared=${PGNKIT_SHARED:-../shared}
py=python3
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import jsonschema' >/dev/null 2>&1; then py=$p; break; fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-diag.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 n=0
run() { # name, then the command whose stderr is kept
    local name=$1; shift
    n=$((n + 1))
    "$@" 2>"$tmp/$n.$name.jsonl" >/dev/null
}
edge=("$shared"/corpus/edge/*/*)
if [ ! -e "${edge[0]}" ]; then
    echo "FAIL the corpus is missing: $shared/corpus/edge"
    echo "RESULT 0 1 0"
    exit 1
fi
for f in "${edge[@]}" tests/fuzz-regress/*/*; do
    run "$(basename "$f")" "$bin" check --diag json "$f"
done
for f in "$shared"/corpus/big/*.gz "$shared"/corpus/big/*/*; do
    case $f in
    *.gz) run "$(basename "$f")" bash -c 'gzip -dc "$1" | "$2" check --diag json' _ "$f" "$rel" ;;
    *) run "$(basename "$f")" "$rel" check --diag json "$f" ;;
    esac
done
# the other lines: I/O errors, a bad option, --max-errors, fmt and convert, JSON input
run missing "$bin" check --diag json no/such.pgn /
n=$((n + 1))
"$bin" check --bogus --diag json 2>"$tmp/usage.txt"
run max-errors "$bin" check --diag json --max-errors 1 examples/sample.pgn
run fmt "$bin" fmt --diag json --check examples/sample.pgn
run convert "$bin" convert --diag json --to uci examples/sample.pgn
# every command on the driver: a missing input, --max-errors, --where (issue 11.5, 13)
for c in eco dedupe stats "sort --by Event" "split --pattern $tmp/split-{n}.pgn"; do
    run "${c%% *}" $bin $c --diag json --max-errors 1 no/such.pgn examples/sample.pgn
    run "${c%% *}-where" $bin $c --diag json --where 'Event ~ Club' examples/sample.pgn
done
run fmt-where "$bin" fmt --diag json --where 'not check' examples/sample.pgn
# --fix: W_REPAIRED_MOVE with its replacement, the summary's repaired count (issue 28)
run check-fix "$bin" check --diag json --fix examples/sample.pgn
run convert-fix "$bin" convert --diag json --fix --to san examples/sample.pgn
printf '{"tags":{},"moves":[{"san":"e5"}],"result":"*"}\n{"tags" 1}' >"$tmp/bad.ndjson"
run from-json "$bin" convert --diag json --from json "$tmp/bad.ndjson"
printf '[Event "Br\x81ssel"]\n\n1. e4 N\xfff3 *\n' >"$tmp/bytes.pgn"
run bytes "$bin" check --diag json --input-encoding utf-8 "$tmp/bytes.pgn"
out=$("$py" tests/json/validate_lines.py docs/diagnostics.schema.json "$tmp"/*.jsonl 2>&1)
echo "$out" | tail -n 12
if echo "$out" | grep -q '^lines [0-9]* invalid 0$'; then
    pass=$((pass + 1))
else
    echo "FAIL the streams of $n runs: $(echo "$out" | tail -n 1)"
    fail=$((fail + 1))
fi
# a usage error is the one line of its run (no summary)
out=$("$py" tests/json/validate_lines.py --no-summary docs/diagnostics.schema.json "$tmp/usage.txt" 2>&1)
[ "$out" = "lines 1 invalid 0" ] && pass=$((pass + 1)) || { echo "FAIL usage: $out"; fail=$((fail + 1)); }
grep -c '"error"' "$tmp"/*.missing.jsonl | grep -qx 2 && pass=$((pass + 1)) || { echo "FAIL missing: two error lines"; fail=$((fail + 1)); }
grep -q '"stopped_early":true' "$tmp"/*.max-errors.jsonl && pass=$((pass + 1)) || { echo "FAIL max-errors: stopped_early"; fail=$((fail + 1)); }
grep -q '"written":0,"rejected":2' "$tmp"/*.from-json.jsonl && pass=$((pass + 1)) || { echo "FAIL from-json: rejected"; fail=$((fail + 1)); }
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
