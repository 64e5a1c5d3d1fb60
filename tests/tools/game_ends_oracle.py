#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes tests/data/game-ends-python-chess.tsv: for each PGN text of tests/data/game-ends.pgn.txt
(one game per line, \\n escaped), python-chess's reading: games read, the main line in UCI, the
result its final position decides (Board.outcome(), '*' if none) and whether that position is a
stalemate (Board.is_stalemate()). Run with PYTHONPATH pointing at a python-chess source tree (1.11.2
was used, 2026-12-05); none of its code is in pgnkit. tests/cli/test_game_ends.sh reads the TSV."""
import io
import sys

import chess
import chess.pgn

src, out = sys.argv[1], sys.argv[2]
with open(src, encoding="utf-8") as fh, open(out, "w", encoding="utf-8") as w:
    w.write("# made by tests/tools/game_ends_oracle.py with python-chess %s\n" % chess.__version__)
    for line in fh:
        if not line.strip() or line.startswith("#"):
            continue
        text = line.rstrip("\n").replace("\\n", "\n")
        f = io.StringIO(text)
        games = []
        while True:
            g = chess.pgn.read_game(f)
            if g is None:
                break
            games.append(g)
        g = games[0]
        b = g.end().board()
        o = b.outcome()
        ucis = " ".join(m.uci() for m in g.mainline_moves()) or "-"
        w.write("%s\t%d\t%s\t%s\t%d\n" % (line.rstrip("\n"), len(games), ucis,
                                          o.result() if o else "*", b.is_stalemate()))
