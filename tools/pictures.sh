#!/usr/bin/env bash
# make pictures: docs/board.png and docs/graph.png for the README, drawn by pgnkit itself from
# Kasparov - Deep Blue, New York 1997, game 1 (../shared/corpus/edge/annotated), analysed by
# Stockfish at a fixed node count on one thread, and rendered by rsvg-convert.
set -eu
pgnkit=${PGNKIT:-build/pgnkit}
shared=${SHARED:-../shared}
build=${BUILD:-build}
sf=/usr/games/stockfish
for t in rsvg-convert "$sf"; do
    command -v "$t" >/dev/null || { echo "pictures: $t is missing (tools/deps.sh)" >&2; exit 1; }
done
mkdir -p "$build/pictures"
game=$build/pictures/game.pgn
awk '/^\[Event /{k++} k==1' "$shared/corpus/edge/annotated/python-chess-kasparov-deep-blue-1997.pgn" |
    tr -d '\r' > "$game"
"$pgnkit" analyze --engine "$sf" --nodes 50000 --threads 1 --quiet "$game" -o "$build/pictures/analysed.pgn"
# the position after 37... b5, with an arrow for White's next move (the game's) and Black's
# advanced bishop circled
ply=74
next=$("$pgnkit" convert --to uci "$game" | cut -d' ' -f$((ply + 1)))
"$pgnkit" svg --coords --ply $ply --size 360 --arrow "G$next" --square Rf3 \
    "$build/pictures/analysed.pgn" -o "$build/pictures/board.svg"
"$pgnkit" graph --width 720 --height 180 "$build/pictures/analysed.pgn" -o "$build/pictures/graph.svg"
rsvg-convert "$build/pictures/board.svg" -o docs/board.png
rsvg-convert "$build/pictures/graph.svg" -o docs/graph.png
echo "pictures: docs/board.png docs/graph.png"
