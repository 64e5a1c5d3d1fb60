#!/usr/bin/env bash
# Variant perft against independent implementations (issue 17, "What must be shown"):
# `pgnkit perft --variant NAME --fen FEN DEPTH` must equal
# - Fairy-Stockfish's `go perft` (Debian fairy-stockfish, GPL-3.0; `setoption name UCI_Variant`)
#   for crazyhouse, antichess, three-check, king of the hill, horde and racing kings, and
# - chessops's perft (npm chessops, GPL-3.0-or-later, lichess's rules; tests/tools/chessops_perft.mjs)
#   for every variant, atomic included (Debian's Fairy-Stockfish has no atomic).
# Positions: at least 50 per variant. Crazyhouse, atomic and antichess: positions of the real games
# of ../shared/corpus/edge/variants/ (pgnkit convert --to fen; every k-th so that they spread over
# all the games). Three-check, king of the hill, horde and racing kings have no real games in the
# corpus: positions reached by random legal moves from the variant's start (pgnkit moves and
# pgnkit fen; seeded, the seed printed). Small depths, so that it runs in seconds.
# A missing oracle is a SKIP with its reason, never a silent pass. PGNKIT_SLOW=1: one ply deeper.
# Prints "RESULT passed failed skipped" like the C suites.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${PGNKIT_REL_BIN:-${PGNKIT_BIN:-build/pgnkit}}")
shared=$(realpath "${PGNKIT_SHARED:-../shared}")
fsf=${FAIRY_STOCKFISH:-$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)}
chessops=${CHESSOPS:-$root/build/npm/node_modules/chessops}
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
edge=$shared/corpus/edge/variants
want=50
extra=0
[ "${PGNKIT_SLOW:-0}" = 1 ] && extra=1
seed=${PGNKIT_PERFT_SEED:-$(date +%s)}
echo "seed $seed (PGNKIT_PERFT_SEED=$seed repeats this run)"
RANDOM=$seed

have_fsf=0 have_chessops=0
if [ -x "$fsf" ]; then
    have_fsf=1
else
    echo "SKIP Fairy-Stockfish comparisons: no fairy-stockfish (Debian package fairy-stockfish;" \
        "tools/deps.sh installs it)"
    skip=$((skip + 1))
fi
if command -v node >/dev/null 2>&1 && [ -f "$chessops/package.json" ]; then
    have_chessops=1
else
    echo "SKIP chessops comparisons: no node or no chessops in $chessops (npm chessops;" \
        "tools/deps.sh installs it in build/npm)"
    skip=$((skip + 1))
fi

# Every k-th of the main-line positions of the games of variant $1 in files $2..., about $want.
game_positions() {
    local variant=$1
    shift
    "$bin" convert --to fen "$@" 2>/dev/null | grep -v '^$' >"$tmp/all.fen"
    local n k
    n=$(wc -l <"$tmp/all.fen")
    k=$((n / (want + 5)))
    [ "$k" -lt 1 ] && k=1
    awk -v k="$k" 'NR % k == 0' "$tmp/all.fen" >"$tmp/$variant.fen"
}

# $want positions of variant $1 reached by random legal moves from its start, games of at most
# 40 plies, each position 1 to 40 plies deep.
random_positions() {
    local variant=$1 fen moves ply=0
    fen=$("$bin" fen --variant "$variant")
    : >"$tmp/$variant.fen"
    while [ "$(wc -l <"$tmp/$variant.fen")" -lt "$want" ]; do
        mapfile -t moves < <("$bin" moves --variant "$variant" --fen "$fen" 2>/dev/null)
        if [ "${#moves[@]}" -eq 0 ] || [ "$ply" -ge 40 ]; then
            fen=$("$bin" fen --variant "$variant") ply=0 # game over: a new game
            continue
        fi
        local uci=${moves[RANDOM % ${#moves[@]}]#* }
        fen=$("$bin" fen --variant "$variant" --fen "$fen" "$uci" 2>/dev/null) || {
            bad "$variant: pgnkit fen refuses its own legal move $uci"
            return
        }
        ply=$((ply + 1))
        echo "$fen" >>"$tmp/$variant.fen"
    done
}

# pgnkit's counts for variant $1 at depth $2, one per position of $tmp/$1.fen.
pgnkit_counts() {
    local fen
    while IFS= read -r fen; do
        "$bin" perft --variant "$1" --fen "$fen" "$2" 2>&1 | tail -n 1
    done <"$tmp/$1.fen" >"$tmp/$1.pgnkit"
}

# Fairy-Stockfish's FEN: three-check counts as checks left before the clocks (3+3), where lichess
# writes the checks given after them (+0+0).
fsf_fen() {
    if [ "$1" = 3check ]; then
        awk 'NF == 7 && $7 ~ /^\+[0-3]\+[0-3]$/ {
            split($7, g, "+"); print $1, $2, $3, $4, (3 - g[2]) "+" (3 - g[3]), $5, $6; next } 1'
    else
        cat
    fi
}

# Fairy-Stockfish's counts for variant $1 (its UCI_Variant name $2) at depth $3.
fsf_counts() {
    {
        echo "setoption name UCI_Variant value $2"
        fsf_fen "$1" <"$tmp/$1.fen" | while IFS= read -r fen; do
            echo "position fen $fen"
            echo "go perft $3"
        done
        echo quit
    } | timeout 600 "$fsf" 2>/dev/null | sed -n 's/^Nodes searched: //p' >"$tmp/$1.oracle"
}

# chessops's counts for variant $1 (its rules name $2) at depth $3.
chessops_counts() {
    sed "s/^/$2\t/; s/\$/\t$3/" "$tmp/$1.fen" |
        CHESSOPS=$chessops timeout 600 node "$root/tests/tools/chessops_perft.mjs" >"$tmp/$1.oracle" 2>&1
}

# Compares pgnkit's counts with the oracle's ($2: its name), position by position.
compare() {
    local variant=$1 who=$2 depth=$3 n
    n=$(wc -l <"$tmp/$variant.fen")
    if [ "$n" -lt "$want" ]; then
        bad "$variant: only $n positions (want $want)"
        return
    fi
    if [ "$(wc -l <"$tmp/$variant.oracle")" -ne "$n" ]; then
        bad "$variant: $who answered $(wc -l <"$tmp/$variant.oracle") of $n positions"
        head -n 3 "$tmp/$variant.oracle"
        return
    fi
    local diffs
    diffs=$(paste "$tmp/$variant.fen" "$tmp/$variant.pgnkit" "$tmp/$variant.oracle" |
        awk -F'\t' '$2 != $3')
    if [ -n "$diffs" ]; then
        bad "$variant: perft $depth differs from $who on $(echo "$diffs" | wc -l) of $n positions" \
            "(FEN, pgnkit, $who):"
        echo "$diffs" | head -n 5
    else
        ok
        echo "ok $variant: perft $depth equal to $who on $n positions" \
            "($(awk '{s += $1} END {print s}' "$tmp/$variant.pgnkit") nodes)"
    fi
}

# variant, Fairy-Stockfish name (- none), chessops name, depth, source of the positions
cases=(
    "crazyhouse crazyhouse crazyhouse 2 games"
    "atomic - atomic 3 games"
    "antichess antichess antichess 3 games"
    "3check 3check 3check 3 random"
    "kingofthehill kingofthehill kingofthehill 3 random"
    "horde horde horde 3 random"
    "racingkings racingkings racingkings 3 random"
)
for c in "${cases[@]}"; do
    read -r variant fname cname depth source <<<"$c"
    depth=$((depth + extra))
    case $variant in
    crazyhouse) game_positions "$variant" "$edge/pychess-zh.pgn" "$edge/python-chess-saturs-jannlee-zh-lichess.pgn" \
        "$edge/python-chess-knightvuillaume-jannlee-zh-lichess.pgn" ;;
    atomic) game_positions "$variant" "$edge/pychess-atomic.pgn" ;;
    antichess) game_positions "$variant" "$edge/python-chess-antichess-programfox.pgn" ;;
    *) random_positions "$variant" ;;
    esac
    t0=$(date +%s%N)
    pgnkit_counts "$variant" "$depth"
    t1=$(date +%s%N)
    if [ "$have_fsf" = 1 ] && [ "$fname" != - ]; then
        fsf_counts "$variant" "$fname" "$depth"
        t2=$(date +%s%N)
        compare "$variant" Fairy-Stockfish "$depth"
        echo "  time: pgnkit $(((t1 - t0) / 1000000)) ms, Fairy-Stockfish $(((t2 - t1) / 1000000)) ms" \
            "(processes included; a busy machine)"
    fi
    if [ "$have_chessops" = 1 ]; then
        t1=$(date +%s%N)
        chessops_counts "$variant" "$cname" "$depth"
        t2=$(date +%s%N)
        compare "$variant" chessops "$depth"
        echo "  time: chessops $(((t2 - t1) / 1000000)) ms"
    fi
done
echo "RESULT $pass $fail $skip"
