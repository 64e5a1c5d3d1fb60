# SPDX-License-Identifier: MIT
"""The truth for tests/cli/test_db.sh: the explorer counts and the games at each position, found
by scanning the games as `pgnkit convert --to csv --per-ply` (each ply's move and the FEN after
it) and `--to csv --tags Result,FEN` (each game's result and start) write them.

usage: db_truth.py PLIES.csv GAMES.csv SAMPLE_OUT TRUTH_OUT
Writes SAMPLE_OUT: the positions to ask (FEN), the start and, for each ply 1..60, up to 4 positions
reached at that ply by games picked at random (seeded); and TRUTH_OUT: per sampled position one
line "FEN<TAB>games<TAB>uci:games:white:draws:black ...<TAB>id id ...", moves sorted by UCI, ids
sorted: the games whose main line reaches the position."""
import csv
import random
import sys

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def key(fen):
    return " ".join(fen.split()[:4])


def main():
    plies_csv, games_csv, sample_out, truth_out = sys.argv[1:5]
    games = {}
    with open(games_csv, newline="") as f:
        for i, row in enumerate(csv.DictReader(f), 1):
            games[i] = (row["Result"], key(row["FEN"]) if row["FEN"] else START)
    lines = {g: [] for g in games}
    with open(plies_csv, newline="") as f:
        for row in csv.DictReader(f):
            lines[int(row["game"])].append((row["uci"], key(row["fen"])))
    moves = {}  # position -> uci -> [games, white, draws, black]
    at = {}  # position -> set of game ids
    by_ply = {}
    for g, (result, start) in games.items():
        seen = set()
        pos = start
        for ply, (uci, after) in enumerate(lines[g] + [(None, None)]):
            if pos not in seen:
                seen.add(pos)
                at.setdefault(pos, set()).add(g)
                by_ply.setdefault(ply, []).append(pos)
                if uci is not None:
                    c = moves.setdefault(pos, {}).setdefault(uci, [0, 0, 0, 0])
                    c[0] += 1
                    c[1] += result == "1-0"
                    c[2] += result == "1/2-1/2"
                    c[3] += result == "0-1"
            pos = after
    rnd = random.Random(30)
    sample = [START]
    for ply in range(1, 61):
        cands = sorted(set(by_ply.get(ply, [])))
        sample += rnd.sample(cands, min(4, len(cands)))
    with open(sample_out, "w") as s, open(truth_out, "w") as t:
        for pos in sample:
            s.write(pos + " 0 1\n")
            ms = moves.get(pos, {})
            total = sum(c[0] for c in ms.values())
            desc = " ".join("%s:%d:%d:%d:%d" % (u, *ms[u]) for u in sorted(ms))
            ids = " ".join(str(i) for i in sorted(at.get(pos, ())))
            t.write("%s\t%d\t%s\t%s\n" % (pos, total, desc, ids))


main()
