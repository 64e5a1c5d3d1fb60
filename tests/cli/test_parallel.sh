#!/usr/bin/env bash
# -j N (issue 16): -j 1, -j 2 and -j 4 give byte-identical stdout, stderr (diagnostics and the
# summary) and exit status for check --diag json, fmt, convert and select: on every corpus edge/
# file cut into many small batches (PGNKIT_BATCH, so that most games start a batch), on games whose
# comments hold lines starting with '[', on text whose encoding a batch cannot know alone, on a big
# file (plain, gzip, multi-frame zstd, bzip2, xz) and on truncated compressed inputs; peak memory
# stays bounded (-j 4 not proportional to the file). Prints "RESULT passed failed skipped".
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

# same BIN FILE JOBS... -- CMD...: the outputs of CMD at -j 1 and at each of JOBS are the same.
same() {
    local b=$1 f=$2
    shift 2
    local jobs=()
    while [ "$1" != -- ]; do jobs+=("$1"); shift; done
    shift
    "$b" "$@" -j 1 "$f" >o1 2>e1
    local s1=$? j
    for j in "${jobs[@]}"; do
        "$b" "$@" -j "$j" "$f" >oj 2>ej
        local sj=$?
        if cmp -s o1 oj && cmp -s e1 ej && [ "$s1" = "$sj" ]; then ok; else
            bad "$* -j $j $(basename "$f"): differs from -j 1 (status $s1/$sj)"
            diff e1 ej | head -n 4
        fi
    done
}

cmds=("check --diag json" "fmt" "convert --to json" "convert --to uci" "select plies>30"
    "select --offsets --limit 7 plies>10")

# 1. every edge/ file, cut into batches of about 300 bytes: -j 2 under the sanitizers (PGNKIT_BIN)
# for check and fmt, -j 4 with the release build for the others (every command both ways under
# PGNKIT_SLOW=1, make check-slow)
export PGNKIT_BATCH=300
asan_cmds=("${cmds[@]:0:2}") rel_cmds=("${cmds[@]:2}")
if [ "${PGNKIT_SLOW:-0}" = 1 ]; then asan_cmds=("${cmds[@]}") rel_cmds=("${cmds[@]}"); fi
while IFS= read -r f; do
    for c in "${asan_cmds[@]}"; do
        # shellcheck disable=SC2086
        same "$bin" "$f" 2 -- $c
    done
    for c in "${rel_cmds[@]}"; do
        # shellcheck disable=SC2086
        same "$rel" "$f" 4 -- $c
    done
done < <(find "$shared/corpus/edge" -name '*.pgn' | sort)

# 2. comments holding lines that start with '[' (a clock, a tag-like line that ends the comment
# as unterminated, a bracket), games without results, CRLF, skipped text between games
python3 - <<'EOF'
import random
random.seed(16)
parts = []
for i in range(400):
    k = random.randrange(7)
    parts.append('[Event "g%d"]\n[Site "s"]\n\n1. e4 {a\n[%%clk 0:01:00] b} e5 2. Nf3 ' % i)
    if k == 0:
        parts.append('{x\n[Event "inside"]\n} Nc6 ')
    elif k == 1:
        parts.append('{\n[not a tag\n} Nc6 ')
    elif k == 2:
        parts.append('; line {\n[Site "y"] Nc6 ')
    elif k == 3:
        parts.append('Nc6 \n\nsome text between games\n')
    parts.append(random.choice(['1-0', '0-1', '1/2-1/2', '*', '']) + '\n\n')
text = ''.join(parts)
open('brackets.pgn', 'w').write(text)
open('crlf.pgn', 'wb').write(text.replace('\n', '\r\n').encode())
# encodings: a string that cannot tell CP437 from Windows-1252 is read as the last one that could
out = []
for i in range(200):
    k = random.choice(['Andr\x82 X', 'Caf\xe9 de la paix', '\xe1', 'plain', 'M\xe1laga'])
    out.append('[Event "%s"]\n[White "a"]\n\n1. e4 e5 {c\xe1} %s\n\n' % (k, random.choice(['1-0', '*'])))
open('enc.pgn', 'wb').write(''.join(out).encode('latin-1'))
EOF
export PGNKIT_BATCH=120
for f in brackets.pgn crlf.pgn enc.pgn; do
    for c in "${cmds[@]}"; do
        # shellcheck disable=SC2086
        same "$bin" "$f" 2 4 -- $c
    done
done
# batches of some thousand bytes: the splitter's fast path (whole lines before the batch size,
# cli/splitter.c plain_lines) meets comments, CRs and bytes that are not UTF-8 in them
export PGNKIT_BATCH=3000
for f in brackets.pgn crlf.pgn enc.pgn; do
    for c in "check --diag json" "fmt"; do
        # shellcheck disable=SC2086
        same "$bin" "$f" 2 -- $c
    done
done
unset PGNKIT_BATCH

# 3. a big file, plain and compressed (the release build: the sanitizer one is slow)
big=$shared/corpus/big/gnuchess-book_1.02.pgn.gz
twic=$shared/corpus/big/twic/twic1427.pgn.gz
if [ -f "$big" ]; then
    gzip -dc "$big" >big.pgn
    for c in "check --diag json" "fmt"; do
        # shellcheck disable=SC2086
        same "$rel" big.pgn 2 -- $c
    done
    same "$rel" "$big" 4 -- check --diag json
    # peak memory: -j 4 within a bound that does not grow with the file (85 MB of text)
    if [ -x /usr/bin/time ]; then
        for c in check fmt; do
            /usr/bin/time -f %M "$rel" $c -j 1 --quiet big.pgn >/dev/null 2>m1
            /usr/bin/time -f %M "$rel" $c -j 4 --quiet big.pgn >/dev/null 2>m4
            k1=$(tail -n 1 m1) k4=$(tail -n 1 m4)
            echo "peak RSS $c: -j 1 $k1 KB, -j 4 $k4 KB"
            if [ "$k4" -lt $((k1 + 65536)) ]; then ok; else bad "$c -j 4 peak RSS $k4 KB (-j 1: $k1 KB)"; fi
        done
    else
        echo "SKIP no /usr/bin/time"
        skip=$((skip + 1))
    fi
else
    echo "SKIP $big missing"
    skip=$((skip + 1))
fi
if [ -f "$twic" ]; then
    gzip -dc "$twic" >twic.pgn
    forms=(twic.pgn "$twic")
    if command -v zstd >/dev/null; then
        head -c 1500000 twic.pgn >a.pgn
        tail -c +1500001 twic.pgn >b.pgn
        { zstd -q -c a.pgn; zstd -q -c b.pgn; } >twic.zst # two frames
        forms+=(twic.zst)
        head -c 600000 twic.zst >trunc.zst
        forms+=(trunc.zst)
    fi
    command -v bzip2 >/dev/null && bzip2 -c twic.pgn >twic.bz2 && forms+=(twic.bz2)
    command -v xz >/dev/null && xz -c twic.pgn >twic.xz && forms+=(twic.xz)
    head -c 500000 "$twic" >trunc.gz
    forms+=(trunc.gz)
    export PGNKIT_BATCH=50000
    for f in "${forms[@]}"; do
        for c in "check --diag json" "fmt"; do
            # shellcheck disable=SC2086
            same "$rel" "$f" 2 -- $c
        done
    done
    unset PGNKIT_BATCH
    # without -j: one thread per core on a regular file (cli/parallel.c jobs_of), the same output
    for f in twic.pgn "$twic"; do
        for c in "check --diag json" "fmt" "convert --to uci" "select plies>30"; do
            # shellcheck disable=SC2086
            "$rel" $c -j 1 "$f" >o1 2>e1
            s1=$?
            # shellcheck disable=SC2086
            "$rel" $c "$f" >o2 2>e2
            s2=$?
            if cmp -s o1 o2 && cmp -s e1 e2 && [ $s1 = $s2 ]; then ok; else
                bad "$c $(basename "$f") without -j: differs from -j 1"
            fi
        done
    done
else
    echo "SKIP $twic missing"
    skip=$((skip + 1))
fi

# 4. the option
"$bin" check -j x /dev/null >/dev/null 2>err.txt
if [ $? -eq 2 ] && grep -q -- "-j takes a number of threads or auto" err.txt; then ok; else bad "-j x"; fi
for v in 0 auto 3; do
    if "$bin" check -j "$v" --quiet /dev/null 2>/dev/null; then ok; else bad "-j $v refused"; fi
done

echo "RESULT $pass $fail $skip"
[ $fail -eq 0 ]
