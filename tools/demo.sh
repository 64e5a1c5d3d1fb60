#!/usr/bin/env bash
# make demo: the main job on bundled sample positions (until the PGN reader lands: perft, moves
# and fen on the standard start, "Kiwipete" and a Chess960 position; counts from the Chess
# Programming Wiki's "Perft Results" page).
set -euo pipefail
bin=${PGNKIT:-build/pgnkit}
kiwi="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
say() { printf '\n$ pgnkit %s\n' "$*"; }
say perft 5; "$bin" perft 5
say perft --fen "'$kiwi'" --divide 2 "| tail -n 3"; "$bin" perft --fen "$kiwi" --divide 2 | tail -n 3
fen960="bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
say perft --chess960 --fen "'$fen960'" 4; "$bin" perft --chess960 --fen "$fen960" 4
say moves --fen "'$kiwi'" "| head -n 5"; "$bin" moves --fen "$kiwi" | head -n 5
say fen e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O; "$bin" fen e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O
say fen e2-e4 e7e5 nf3 Nb8-c6 Bc4 Bc5 0-0; "$bin" fen e2-e4 e7e5 nf3 Nb8-c6 Bc4 Bc5 0-0 2>&1
say fen e4 Nf3; "$bin" fen e4 Nf3 2>&1 || echo "(exit status $?)"
