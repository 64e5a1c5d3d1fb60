#!/usr/bin/env bash
# Output stability (issue 12): fmt, convert --to json|ndjson|uci|fen|san|lan|epd|csv,
# check --diag json, select and dedupe on the two TWIC issues (corpus/big/twic, through zcat) and
# on every file of corpus/edge/, and (issue 29: the source layer and the parallel reader moved into
# the library) fmt, check, uci, select and dedupe at -j 1 and -j 2 on the first TWIC issue as
# gzip, zstd (two frames after a skippable one), bzip2, xz, zip and tar.gz, run with the release
# binary; the md5 of stdout, of stderr and the exit status of
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
modes=(fmt json ndjson uci fen san lan epd csv check select dedupe)
run_mode() { # mode[-jN], input file (relative to $corpus); stdout and stderr to $tmp/out, $tmp/err
    local mode=${1%-j*} in=$2 jobs=()
    [ "$mode" = "$1" ] || jobs=(-j "${1##*-j}")
    case $mode in
    fmt) "$bin" fmt "${jobs[@]}" "$in" ;;
    check) "$bin" check "${jobs[@]}" --diag json "$in" ;;
    select) "$bin" select "${jobs[@]}" 'plies > 60 or white = "Carlsen, Magnus"' "$in" ;;
    dedupe) "$bin" dedupe "${jobs[@]}" "$in" ;;
    *) "$bin" convert "${jobs[@]}" --to "$mode" "$in" ;;
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
# the compressed and archive forms of the first TWIC issue (the tools' output is the same on every
# machine with the same versions; the files' names are what the diagnostics show)
first=${inputs[0]}
forms=()
(
    cd "$tmp/twic" || exit 1
    f=$(basename "$first")
    gzip -9 -c "$f" >"$f.gz"
    head -c 3000000 "$f" | zstd -q -3 -c >"$tmp/a.zst"
    tail -c +3000001 "$f" | zstd -q -3 -c >"$tmp/b.zst"
    { printf '\x50\x2a\x4d\x18\x04\x00\x00\x00abcd'; cat "$tmp/a.zst" "$tmp/b.zst"; } >"$f.zst"
    bzip2 -c "$f" >"$f.bz2"
    xz -c "$f" >"$f.xz"
    zip -q -X "$f.zip" "$f"
    tar --mtime=@0 --owner=0 --group=0 -czf "$f.tar.gz" "$f"
) && for ext in gz zst bz2 xz zip tar.gz; do forms+=("$first.$ext"); done
got="$tmp/got.txt"
: >"$got"
for in in "${forms[@]}"; do
    for mode in fmt-j1 fmt-j2 check-j1 check-j2 uci-j1 uci-j2 select-j1 select-j2 dedupe-j1 dedupe-j2; do
        (cd "$tmp" && run_mode "$mode" "$in")
        status=$?
        printf '%s %s %s %s %s\n' "$mode" "$in" "$(md5sum <"$tmp/out" | cut -c1-32)" \
            "$(md5sum <"$tmp/err" | cut -c1-32)" "$status" >>"$got"
    done
done
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
