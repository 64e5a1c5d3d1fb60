#!/usr/bin/env bash
# -j N for the collection commands (issue 14 on issue 16's threads): eco (and --check,
# --only-missing), dedupe (--by moves and moves+tags, --keep richest, with --dupes and --report) and stats (table,
# --json, --quiet) give at -j 2, -j 4 and without -j (one thread per core) byte-identical stdout,
# stderr (diagnostics and the summary), exit status and side files to -j 1: on every corpus edge/
# file cut into batches of about 300 bytes (PGNKIT_BATCH), on all of edge/ twice over and on TWIC
# 1427 twice over (duplicates across batches). And -j 2 really runs threads (strace: the workers'
# clone calls), so that the comparisons compare something. Prints "RESULT passed failed skipped".
set -u
bin=$(realpath "${PGNKIT_BIN:-build/pgnkit}")
rel=$(realpath "${PGNKIT_REL_BIN:-$bin}")
shared=$(realpath "${PGNKIT_SHARED:-../shared}")
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# run BIN OUT J FILE CMD...: CMD with -j J (J "def": no -j) on FILE; its stdout, stderr, status
# and side files (D, R when the command names them) concatenated into OUT.
run() {
    local b=$1 out=$2 j=$3 f=$4
    shift 4
    local jarg=(-j "$j")
    [ "$j" = def ] && jarg=()
    rm -f D R
    "$b" "$@" "${jarg[@]}" "$f" >"$out.o" 2>"$out.e"
    echo "status $?" >>"$out.e"
    for s in D R; do [ -f $s ] && { echo "== $s"; cat $s; } >>"$out.o"; done
}

# same BIN FILE JOBS... -- CMD...: the outputs of CMD at -j 1 and at each of JOBS are the same.
same() {
    local b=$1 f=$2
    shift 2
    local jobs=()
    while [ "$1" != -- ]; do jobs+=("$1"); shift; done
    shift
    run "$b" one 1 "$f" "$@"
    local j
    for j in "${jobs[@]}"; do
        run "$b" many "$j" "$f" "$@"
        if cmp -s one.o many.o && cmp -s one.e many.e; then ok; else
            bad "$* -j $j $(basename "$f"): differs from -j 1"
            diff one.e many.e | head -n 4
            diff one.o many.o | head -n 4
        fi
    done
}

cmds=("eco" "eco --check" "eco --only-missing" "dedupe --dupes D --report R"
    "dedupe --by moves+tags --dupes D --report R" "dedupe --keep richest --dupes D --report R"
    "stats" "stats --json --top 0" "stats --quiet")

# 1. every edge/ file in batches of about 300 bytes: eco, dedupe and stats at -j 4 with the
# release build; all of them at once, every command, at -j 2 under the sanitizers
export PGNKIT_BATCH=300
edge=()
while IFS= read -r f; do edge+=("$f"); done < <(find "$shared/corpus/edge" -name '*.pgn' | sort)
for f in "${edge[@]}"; do
    for c in "eco" "dedupe --dupes D --report R" "stats --json --top 0"; do
        # shellcheck disable=SC2086
        same "$rel" "$f" 4 -- $c
    done
done
cat "${edge[@]}" >edge1.pgn
for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    same "$bin" edge1.pgn 2 -- $c
done

# 2. all of edge/ twice over (every game a duplicate of one in another batch), then TWIC twice
cat "${edge[@]}" "${edge[@]}" >edge2.pgn
twic=$shared/corpus/big/twic/twic1427.pgn.gz
inputs=(edge2.pgn)
if [ -f "$twic" ]; then
    gzip -dc "$twic" >t1.pgn
    cat t1.pgn t1.pgn >twic2.pgn
    inputs+=(twic2.pgn)
else
    echo "SKIP $twic missing"
    skip=$((skip + 1))
fi
export PGNKIT_BATCH=20000
for f in "${inputs[@]}"; do
    for c in "${cmds[@]}"; do
        # shellcheck disable=SC2086
        same "$rel" "$f" 2 4 def -- $c
    done
done
unset PGNKIT_BATCH
# the default batch size, the sanitizer build
for c in "eco" "dedupe --dupes D --report R" "stats --json"; do
    # shellcheck disable=SC2086
    same "$bin" edge2.pgn 2 -- $c
done

# 3. -j 2 runs two workers (clone calls), and without -j on a machine of several cores too
threads() { # CMD...: the number of threads the command started
    strace -f -qq -e trace=clone,clone3 -o st.txt "$@" >/dev/null 2>&1
    grep -c 'clone' st.txt
}
if command -v strace >/dev/null; then
    for c in "eco" "dedupe" "stats"; do
        # shellcheck disable=SC2086
        n=$(threads "$rel" $c -j 2 edge2.pgn)
        [ "$n" -ge 2 ] && ok || bad "$c -j 2 started $n threads"
        # shellcheck disable=SC2086
        n=$(threads "$rel" $c -j 1 edge2.pgn)
        [ "$n" -eq 0 ] && ok || bad "$c -j 1 started $n threads"
        if [ "$(nproc)" -gt 1 ]; then
            # shellcheck disable=SC2086
            n=$(threads "$rel" $c edge2.pgn)
            [ "$n" -ge 2 ] && ok || bad "$c without -j started $n threads on $(nproc) cores"
        fi
    done
else
    echo "SKIP strace missing (tools/deps.sh installs it)"
    skip=$((skip + 1))
fi

echo "RESULT $pass $fail $skip"
