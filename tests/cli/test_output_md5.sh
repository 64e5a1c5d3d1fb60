#!/usr/bin/env bash
# Output stability (issue 12): fmt, convert --to json|ndjson|uci|fen|san|lan|epd|csv and
# check --diag json on the two TWIC issues (corpus/big/twic, through zcat) and on every file of
# corpus/edge/, run with the release binary; the md5 of stdout, of stderr and the exit status of
# each run are compared with tests/data/output-md5.txt. The list was made by the code before the
# refactoring of issue 12 (/work/baseline/pgnkit); an intended change of output regenerates it
# with one command: make output-md5-update (UPDATE=1 here). Prints "RESULT passed failed skipped".
set -u
bin=${PGNKIT_REL_BIN:-${PGNKIT_BIN:-build/pgnkit}}
shared=${PGNKIT_SHARED:-../shared}
list=${OUTPUT_MD5_LIST:-$(cd "$(dirname "$0")/../data" && pwd)/output-md5.txt}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-md5.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
corpus="$shared/corpus"
if [ ! -d "$corpus/edge" ] || [ ! -d "$corpus/big/twic" ]; then
    # a missing corpus is a failure, never a skip: this suite is the proof of issue 12
    echo "FAIL corpus not found under $corpus (set PGNKIT_SHARED)"
    echo "RESULT 0 1 0"
    exit 1
fi
modes=(fmt json ndjson uci fen san lan epd csv check)
run_mode() { # mode, input file (relative to $corpus); stdout and stderr to $tmp/out, $tmp/err
    local mode=$1 in=$2
    case $mode in
    fmt) "$bin" fmt "$in" ;;
    check) "$bin" check --diag json "$in" ;;
    *) "$bin" convert --to "$mode" "$in" ;;
    esac >"$tmp/out" 2>"$tmp/err"
}
inputs=()
for gz in "$corpus"/big/twic/*.pgn.gz; do
    name=twic/$(basename "$gz" .gz)
    mkdir -p "$tmp/twic"
    zcat "$gz" >"$tmp/$name"
    inputs+=("$name")
done
while IFS= read -r f; do inputs+=("$f"); done < <(cd "$corpus" && find edge -type f -name '*.pgn' | LC_ALL=C sort)
got="$tmp/got.txt"
: >"$got"
for in in "${inputs[@]}"; do
    case $in in twic/*) dir=$tmp ;; *) dir=$corpus ;; esac
    for mode in "${modes[@]}"; do
        (cd "$dir" && run_mode "$mode" "$in")
        status=$?
        printf '%s %s %s %s %s\n' "$mode" "$in" "$(md5sum <"$tmp/out" | cut -c1-32)" \
            "$(md5sum <"$tmp/err" | cut -c1-32)" "$status" >>"$got"
    done
done
if [ "${UPDATE:-0}" = 1 ]; then
    { echo "# mode input md5(stdout) md5(stderr) exit-status; made by tests/cli/test_output_md5.sh (make output-md5-update)"
      cat "$got"; } >"$list"
    echo "wrote $(wc -l <"$got") lines to $list"
    echo "RESULT $(wc -l <"$got") 0 0"
    exit 0
fi
if [ ! -f "$list" ]; then
    echo "FAIL no list $list (make output-md5-update)"
    echo "RESULT 0 1 0"
    exit 1
fi
pass=0 fail=0
want="$tmp/want.txt"
grep -v '^#' "$list" >"$want"
if [ "$(wc -l <"$want")" -ne "$(wc -l <"$got")" ]; then
    echo "FAIL the list has $(wc -l <"$want") runs, this run made $(wc -l <"$got") (corpus or modes changed?)"
    fail=$((fail + 1))
fi
# one pass: each run's line against the list's line for the same mode and input
while read -r verdict line; do
    if [ "$verdict" = ok ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $line"
    fi
done < <(awk 'NR == FNR { want[$1 " " $2] = $0; next }
              { k = $1 " " $2; if (want[k] == $0) print "ok"; else print "bad", $1, $2 ": got", $3, $4, $5 ", want", (k in want ? want[k] : "(no line)") }' "$want" "$got")
echo "RESULT $pass $fail 0"
[ "$fail" -eq 0 ]
