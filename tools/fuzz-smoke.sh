#!/usr/bin/env bash
# make fuzz-smoke: runs each fuzz target for FUZZ_TIME seconds on seeds made at run time in a temp
# directory (corpus/edge files of ../shared, as PGN or as pgnkit's NDJSON, FENs of corpus/perft, the
# regression files), with the PGN dictionary (JSON: fuzz/json.dict), and prints libFuzzer's final
# stats. A crash leaves its input in build/fuzz/artifacts/ and fails the run; add it to
# tests/fuzz-regress/<target>/. The mutation seed is fixed (FUZZ_SEED, default 1), which makes runs
# alike but not identical (libFuzzer is not fully deterministic); longer or random-seed runs
# (FUZZ_TIME=600 FUZZ_SEED=0) find new bugs. FUZZ_JOBS targets (default 2) run at once, each for
# FUZZ_TIME seconds; their reports are printed in the order of FUZZ_TARGETS.
set -u
: "${BUILD:=build}" "${SHARED:=../shared}" "${FUZZ_TIME:=60}" "${FUZZ_MAX_LEN:=4096}" "${FUZZ_SEED:=1}"
: "${FUZZ_JOBS:=2}"
targets=${FUZZ_TARGETS:-reader roundtrip fen san json query scan}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$BUILD/fuzz/artifacts"
edge=$(find "$SHARED/corpus/edge" -name '*.pgn' | sort)
[ -n "$edge" ] || { echo "fuzz-smoke: no seeds under $SHARED/corpus/edge"; exit 1; }

# The seeds of target $1 in $tmp/$1/.
make_seeds() { # target
    local t=$1 seeds=$tmp/$1 i=0 f s m fen x line
    mkdir -p "$seeds"
    case $t in
    reader)
        for f in $edge; do
            i=$((i + 1))
            { printf '\x04\x40'; head -c "$FUZZ_MAX_LEN" "$f"; } >"$seeds/edge$i"
            { printf '\x00\x07'; head -c 4000 "$f"; } >"$seeds/edge$i-chunk8"
        done ;;
    roundtrip)
        for f in $edge; do i=$((i + 1)); head -c "$FUZZ_MAX_LEN" "$f" >"$seeds/edge$i"; done ;;
    repair)
        # the edge files, and real games with slips (a square, a piece letter, a pawn capture off)
        for f in $edge; do i=$((i + 1)); head -c "$FUZZ_MAX_LEN" "$f" >"$seeds/edge$i"; done
        misc="$SHARED/corpus/big/misc/mliebelt-twic-01-232games.pgn"
        for s in 's/ Nf3 / Nf4 /' 's/ Bb5 / Bc5 /' 's/ Nc3 / Bc3 /' 's/ exd5 / exd6 /' 's/ Be7 / e7 /' 's/ O-O / O-O-O /'; do
            i=$((i + 1))
            [ -r "$misc" ] && head -c "$FUZZ_MAX_LEN" "$misc" | sed "$s" >"$seeds/slip$i"
        done ;;
    scan)
        # batches cut after 16 + 4 x the first byte; the second byte's low bit: the UTF-8 test
        for f in $edge; do
            i=$((i + 1))
            { printf '\x08\x01'; head -c "$FUZZ_MAX_LEN" "$f"; } >"$seeds/edge$i"
            { printf '\x40\x00'; head -c "$FUZZ_MAX_LEN" "$f"; } >"$seeds/edge$i-big"
        done ;;
    fen)
        grep -vh '^#' "$SHARED"/corpus/perft/*/*.epd | cut -d';' -f1 | sed 's/ *$//' | grep . | head -n 400 |
            while IFS= read -r fen; do i=$((i + 1)); printf '\x00%s' "$fen" >"$seeds/fen$i"; done ;;
    json)
        # pgnkit's own NDJSON of the edge files (two games of each; the per-move "fen" members,
        # which the reader does not read, dropped so that whole games fit in FUZZ_MAX_LEN)
        for f in $edge; do
            "$BUILD/pgnkit" convert --to ndjson "$f" 2>/dev/null |
                sed -E 's/("uci":"[a-h0-9qrbn]+"),"fen":"[^"]*"/\1/g' |
                awk -v m=$((FUZZ_MAX_LEN - 1)) 'length($0) < m' | head -n 2 >"$tmp/games"
            while IFS= read -r line; do
                i=$((i + 1))
                printf '\x40%s\n' "$line" >"$seeds/game$i"
                printf '\x06%s\n' "$line" >"$seeds/game$i-chunk7"
            done <"$tmp/games"
        done ;;
    query)
        # the examples of docs/query.md, one expression per seed
        grep -h '^    ' docs/query.md | sed 's/^    //' | grep . |
            while IFS= read -r x; do i=$((i + 1)); printf '%s' "$x" >"$seeds/q$i"; done ;;
    san)
        for m in e4 Nf3 O-O O-O-O exd6 e8=Q Qxb7+ Nbd7 a8=N# 0-0 e2e4 e1g1 -- Z0 Pe4 nf3 Ng1f3; do
            for s in 0 1 5 7; do i=$((i + 1)); printf "\\x0$s\\x03\\x01\\x02\\x03%s" "$m" >"$seeds/san$i"; done
        done ;;
    db)
        # small databases made by pgnkit db import of an edge file each (a page is 4 KiB, so the
        # inputs of this target may be longer: DB_MAX_LEN)
        for f in $(echo "$edge" | head -n 4); do
            i=$((i + 1))
            "$BUILD/pgnkit" db import --quiet --db "$tmp/seed$i.db" "$f" 2>/dev/null &&
                "$BUILD/pgnkit" db export --db "$tmp/seed$i.db" >/dev/null 2>&1 &&
                cp "$tmp/seed$i.db" "$seeds/db$i"
        done ;;
    esac
    if [ -d "tests/fuzz-regress/$t" ]; then
        cp tests/fuzz-regress/"$t"/* "$seeds"/ 2>/dev/null
    fi
}

# One target: its report in $tmp/$1.out, its exit status in $tmp/$1.st, a failure's lines in
# $tmp/$1.fail.
fuzz_one() { # target
    local t=$1 seeds=$tmp/$1 dict maxlen st a
    make_seeds "$t"
    dict=fuzz/pgn.dict
    [ "$t" = json ] && dict=fuzz/json.dict
    [ "$t" = query ] && dict=fuzz/query.dict
    maxlen=$FUZZ_MAX_LEN
    [ "$t" = db ] && maxlen=${DB_MAX_LEN:-131072}
    {
        echo "== fuzz_$t: $(ls "$seeds" | wc -l) seeds, ${FUZZ_TIME}s"
        "$BUILD/fuzz/fuzz_$t" -max_total_time="$FUZZ_TIME" -seed="$FUZZ_SEED" -print_final_stats=1 \
            -max_len="$maxlen" -dict="$dict" -artifact_prefix="$BUILD/fuzz/artifacts/$t-" -close_fd_mask=1 \
            "$seeds" >"$tmp/$t.log" 2>&1
        st=$?
        grep -E '^(stat::|Done|INFO: seed corpus)' "$tmp/$t.log"
        grep -E '^#[0-9]+.*(DONE|pulse)' "$tmp/$t.log" | tail -n 1
        if [ $st -ne 0 ]; then
            echo "fuzz_$t FAILED (exit $st):"
            grep -E 'ERROR|invariant|SUMMARY|artifact|Test unit written' "$tmp/$t.log" | head -n 20 |
                tee "$tmp/$t.fail"
            # the input that failed, as text, so that a log that keeps only its tail still shows it
            for a in $(grep -oE 'Test unit written to [^ ]+' "$tmp/$t.log" | sed 's/Test unit written to //'); do
                [ -r "$a" ] && { echo "input ($a, base64):"; head -c 4096 "$a" | base64; } >>"$tmp/$t.fail"
            done
        fi
    } >"$tmp/$t.out"
    echo "$st" >"$tmp/$t.st"
}

for t in $targets; do
    while [ "$(jobs -pr | wc -l)" -ge "$FUZZ_JOBS" ]; do wait -n; done
    fuzz_one "$t" &
done
wait
status=0
failed=""
for t in $targets; do
    cat "$tmp/$t.out"
    if [ "$(cat "$tmp/$t.st" 2>/dev/null)" != 0 ]; then
        status=1
        failed="$failed $t"
        cat "$tmp/$t.fail" >>"$tmp/failures" 2>/dev/null
    fi
done
if [ $status -eq 0 ]; then
    echo "fuzz-smoke: every target ran ${FUZZ_TIME}s without a failure"
else
    # repeated at the end: a CI log often keeps only its last lines
    echo "fuzz-smoke: FAILED:$failed"
    cat "$tmp/failures" 2>/dev/null
fi
exit $status
