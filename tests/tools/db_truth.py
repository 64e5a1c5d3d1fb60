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
    return " ".join(fen.split(" ", 4)[:4])


def plies(path):
    """(game, uci, position key) of each row of the per-ply CSV; a row without a quote (every row
    of a standard game: SAN, UCI and FEN hold no comma) is split by hand, which is several times
    faster than the csv module on the book's 11 million rows."""
    with open(path, newline="") as f:
        cols = next(csv.reader([f.readline()]))
        gi, ui, fi = cols.index("game"), cols.index("uci"), cols.index("fen")
        last = max(gi, ui, fi)
        for line in f:
            row = line.split(",", last + 1) if '"' not in line else next(csv.reader([line]))
            yield int(row[gi]), row[ui], key(row[fi])


def main():
    plies_csv, games_csv, sample_out, truth_out = sys.argv[1:5]
    games = {}
    with open(games_csv, newline="") as f:
        for i, row in enumerate(csv.DictReader(f), 1):
            games[i] = (row["Result"], key(row["FEN"]) if row["FEN"] else START)
    lines = {g: [] for g in games}
    for g, uci, after in plies(plies_csv):
        lines[g].append((uci, after))
    # the positions each ply 1..60 first reaches in some game (a position met again later in the
    # same game counts at its first ply), then the sample among them
    by_ply = {}
    for g, (result, start) in games.items():
        seen = {start}
        for ply, (uci, after) in enumerate(lines[g][:60], 1):
            if after not in seen:
                seen.add(after)
                by_ply.setdefault(ply, set()).add(after)
    rnd = random.Random(30)
    sample = [START]
    for ply in range(1, 61):
        cands = sorted(by_ply.get(ply, ()))
        sample += rnd.sample(cands, min(4, len(cands)))
    # the games and moves of the sampled positions alone: each game counted once a position, with
    # the move it played there the first time
    wanted = set(sample)
    moves = {}  # position -> uci -> [games, white, draws, black]
    at = {}  # position -> set of game ids
    for g, (result, start) in games.items():
        seen = set()
        pos = start
        for uci, after in lines[g] + [(None, None)]:
            if pos in wanted and pos not in seen:
                seen.add(pos)
                at.setdefault(pos, set()).add(g)
                if uci is not None:
                    c = moves.setdefault(pos, {}).setdefault(uci, [0, 0, 0, 0])
                    c[0] += 1
                    c[1] += result == "1-0"
                    c[2] += result == "1/2-1/2"
                    c[3] += result == "0-1"
            pos = after
    with open(sample_out, "w") as s, open(truth_out, "w") as t:
        for pos in sample:
            s.write(pos + " 0 1\n")
            ms = moves.get(pos, {})
            total = sum(c[0] for c in ms.values())
            desc = " ".join("%s:%d:%d:%d:%d" % (u, *ms[u]) for u in sorted(ms))
            ids = " ".join(str(i) for i in sorted(at.get(pos, ())))
            t.write("%s\t%d\t%s\t%s\n" % (pos, total, desc, ids))


main()
