#!/usr/bin/env bash
# --range START:END (issue 16): consecutive ranges cut at random points read every game exactly
# once, in order, with the same diagnostics at the file's true lines, columns and offsets (the
# "(game N)" ordinal counts from the range's first game, so it is left out of the comparison);
# ranges at the frame boundaries that `pgnkit frames` lists do the same on a multi-frame zstd
# file. 100 random split points in make check (25 in each of 4 files; seeded, printed on failure),
# more files and points in make check-slow. Prints "RESULT passed failed skipped".
set -u
bin=$(realpath "${PGNKIT_BIN:-build/pgnkit}")
shared=$(realpath "${PGNKIT_SHARED:-../shared}")
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
edge=$shared/corpus/edge
big=$shared/corpus/big
files=("$edge/lichess-export/scalachess-FWWRC.pgn" "$edge/variants/pychess-schess-seirawan.pgn"
    "$edge/malformed/chesslab-games-01-with-three-invalid.pgn" "big:$big/pgnmentor-players/Capablanca.pgn.gz")
points=25
if [ "${PGNKIT_SLOW:-0}" = 1 ]; then
    files+=("$edge/annotated/pychess-world_matches.pgn" "big:$big/fics/fics_02_standard_humans_2000_2199.pgn.gz"
        "big:$big/tcec/TCEC_Cup_10_Final.pgn.gz" "big:$big/twic/twic1427.pgn.gz")
    points=100
fi
seed=${PGNKIT_RANGE_SEED:-$(date +%s)}
echo "seed $seed (PGNKIT_RANGE_SEED=$seed repeats this run)"

# Diagnostics without the summary line and without the game ordinal.
diags() { grep -v '^[0-9]* games, ' | sed 's/ (game [0-9]*)$//'; }

# Reads $1 whole, then in the ranges cut at the sorted points $2 (a file of offsets), and compares.
check_splits() {
    local f=$1 cuts=$2 what=$3
    "$bin" check "$f" 2>&1 >/dev/null | diags >whole.diag
    "$bin" fmt "$f" >whole.fmt 2>/dev/null
    local whole_games
    whole_games=$("$bin" check "$f" 2>&1 | tail -n 1 | cut -d' ' -f1)
    : >parts.diag
    : >parts.fmt
    local games=0 prev=0 s n
    while read -r s; do
        "$bin" check --range "$prev:$s" "$f" 2>&1 >/dev/null | diags >>parts.diag
        "$bin" fmt --range "$prev:$s" "$f" >>parts.fmt 2>/dev/null
        n=$("$bin" check --range "$prev:$s" "$f" 2>&1 | tail -n 1 | cut -d' ' -f1)
        games=$((games + n))
        prev=$s
    done <"$cuts"
    "$bin" check --range "$prev:" "$f" 2>&1 >/dev/null | diags >>parts.diag
    "$bin" fmt --range "$prev:" "$f" >>parts.fmt 2>/dev/null
    n=$("$bin" check --range "$prev:" "$f" 2>&1 | tail -n 1 | cut -d' ' -f1)
    games=$((games + n))
    if [ "$games" -eq "$whole_games" ]; then ok; else bad "$what: $games games in the ranges, $whole_games in the whole (cuts: $(tr '\n' ' ' <"$cuts"))"; fi
    if cmp -s whole.fmt parts.fmt; then ok; else bad "$what: fmt of the ranges differs from fmt of the whole"; fi
    # the edge files have diagnostics to compare; a clean big file may have none
    if cmp -s whole.diag parts.diag && { [ -s whole.diag ] || [ "${4:-}" = clean-ok ]; }; then ok; else
        bad "$what: diagnostics of the ranges differ ($(wc -l <whole.diag) whole, $(wc -l <parts.diag) in ranges)"
        diff whole.diag parts.diag | head -n 6
    fi
}

i=0
for spec in "${files[@]}"; do
    i=$((i + 1))
    f=${spec#big:}
    if [ "$spec" != "$f" ]; then
        zcat "$f" >"big$i.pgn"
        f=big$i.pgn
    fi
    size=$(stat -c %s "$f")
    awk -v n="$points" -v size="$size" -v seed="$((seed + i))" \
        'BEGIN { srand(seed); for (k = 0; k < n; k++) print int(rand() * size) }' | sort -n -u >cuts
    check_splits "$f" cuts "$(basename "$f") at $points random points" "$([ "$spec" = "$f" ] || echo clean-ok)"
done

# --line-base N gives the line of byte START instead of counting it
f=$edge/variants/pychess-schess-seirawan.pgn
s=200000
line=$(($(head -c $s "$f" | tr -cd '\n' | wc -c) + 1))
"$bin" check --range "$s:" "$f" 2>counted.err >/dev/null
"$bin" check --range "$s:" --line-base "$line" "$f" 2>given.err >/dev/null
"$bin" check --range "$s:" --line-base 1 "$f" 2>one.err >/dev/null
l1=$(head -n 1 counted.err | cut -d: -f2)
l2=$(head -n 1 one.err | cut -d: -f2)
if cmp -s counted.err given.err && [ $((l1 - l2 + 1)) -eq "$line" ]; then ok; else bad "--line-base $line: $(head -n 1 given.err) / counted: $(head -n 1 counted.err) / base 1: $(head -n 1 one.err)"; fi

# a multi-frame zstd file (a skippable frame, then frames cutting games anywhere, CRLF text):
# the frames listed cover the file, and ranges at every boundary read every game once
zcat "$big/pgnmentor-players/Capablanca.pgn.gz" >capa.pgn
{
    printf 'P*M\030\004\000\000\000skip'
    split -b 40000 capa.pgn piece.
    for p in piece.*; do zstd -q -c "$p"; done
} >capa.zst
"$bin" frames capa.zst >frames.txt
nframes=$(($(wc -l <frames.txt) - 1))
want=$((($(stat -c %s capa.pgn) + 39999) / 40000 + 1))
last=$(tail -n 1 frames.txt)
read -r off sz poff psz _ <<<"$last"
if [ "$nframes" -eq "$want" ] && [ $((off + sz)) -eq "$(stat -c %s capa.zst)" ] &&
    [ $((poff + psz)) -eq "$(stat -c %s capa.pgn)" ] && sed -n 2p frames.txt | grep -q ' skippable$'; then ok; else
    bad "frames: $nframes frames (want $want); last: $last"
fi
# each frame's line is the line of its first byte in the text
lines_ok=1
while read -r off sz poff psz line _; do
    want_line=$(($(head -c "$poff" capa.pgn | tr -d '\r' | tr -cd '\n' | wc -c) + 1))
    # a frame that starts with the LF of a CRLF: that LF is counted from it
    [ "$(head -c "$poff" capa.pgn | tail -c 1 | od -An -c | tr -d ' ')" = '\r' ] && want_line=$((want_line - 1))
    [ "$line" -eq "$want_line" ] || { lines_ok=0; echo "frame at $off: line $line, want $want_line"; }
done < <(tail -n +2 frames.txt)
if [ $lines_ok = 1 ]; then ok; else bad "frames: line numbers"; fi
tail -n +3 frames.txt | cut -d' ' -f1 >cuts
"$bin" check capa.pgn 2>&1 >/dev/null | diags | sed 's/^capa\.pgn:/capa.zst:/' >whole.diag
"$bin" fmt capa.pgn >whole.fmt 2>/dev/null
: >parts.diag
: >parts.fmt
prev=0
total=$(stat -c %s capa.zst)
while read -r s; do
    "$bin" check --range "$prev:$s" capa.zst 2>&1 >/dev/null | diags >>parts.diag
    "$bin" fmt --range "$prev:$s" capa.zst >>parts.fmt 2>/dev/null
    prev=$s
done < <(cat cuts; echo "$total")
if cmp -s whole.fmt parts.fmt; then ok; else bad "zstd frames as ranges: fmt differs"; fi
if cmp -s whole.diag parts.diag; then ok; else bad "zstd frames as ranges: diagnostics differ"; diff whole.diag parts.diag | head -n 6; fi

# what --range refuses
expect_err() { # name, regex, command...
    local name=$1 re=$2; shift 2
    "$@" >/dev/null 2>err.txt
    local st=$?
    if [ $st -ne 0 ] && grep -qE -- "$re" err.txt; then ok; else bad "$name: status $st: $(head -n 2 err.txt)"; fi
}
gzip -c capa.pgn >capa.gz
expect_err "gzip range" "capa.gz: --range reads plain files and zstd files at frame boundaries, not gzip" "$bin" check --range 10:20 capa.gz
expect_err "not a frame" "not frame boundaries of this zstd file" "$bin" check --range 13: capa.zst
expect_err "stdin" "--range needs a file" "$bin" check --range 10: - <capa.pgn
expect_err "bad range" "--range takes START:END" "$bin" check --range 20:10 capa.pgn
expect_err "frames of text" "capa.pgn: not a zstd file" "$bin" frames capa.pgn

echo "RESULT $pass $fail $skip"
[ $fail -eq 0 ]
