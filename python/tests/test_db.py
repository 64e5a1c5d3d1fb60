# SPDX-License-Identifier: MIT
"""pgnkit.db (issue 30): import_, explore and select over the C API. The truth: the games read
one by one with pgnkit.read (the moves played first and the results, counted here) and the
pgnkit program (select on the same file, db explore --json on the same database)."""
import collections
import json
import subprocess

import pytest

import pgnkit
import pgnkit.db


@pytest.fixture(scope="module")
def database(twic, tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "twic.db"
    with pgnkit.db.open(path) as db:
        got = db.import_(twic, keep_duplicates=True)
    return str(path), got


def first_moves(twic, plies):
    """{move after plies: [games, white, draws, black]} over the games whose main line has them."""
    count = collections.defaultdict(lambda: [0, 0, 0, 0])
    for g in pgnkit.read(twic):
        if g.tags.get("Variant") or g.tags.get("FEN") or len(g.moves) <= len(plies):
            continue
        if g.moves[:len(plies)] != plies:
            continue
        c = count[g.moves[len(plies)]]
        c[0] += 1
        c[1] += g.tags.get("Result") == "1-0"
        c[2] += g.tags.get("Result") == "1/2-1/2"
        c[3] += g.tags.get("Result") == "0-1"
    return dict(count)


def test_import_counts_every_game(database, twic):
    _, got = database
    n = sum(1 for _ in pgnkit.read(twic))
    assert got.games == n and got.stored == n and got.duplicates == 0
    assert got.positions > 50 * n


@pytest.mark.parametrize("plies", [[], ["e4"], ["d4", "Nf6"]])
def test_explore_equals_the_games(database, twic, plies):
    path, _ = database
    with pgnkit.db.open(path, readonly=True) as db:
        ex = db.explore(" ".join(plies) or None)
    want = first_moves(twic, plies)
    got = {m.san: [m.games, m.white, m.draws, m.black] for m in ex.moves}
    assert got == want
    assert ex.games == sum(c[0] for c in want.values())
    assert [m.games for m in ex.moves] == sorted((m.games for m in ex.moves), reverse=True)


def test_explore_equals_the_program(database, pgnkit_bin):
    path, _ = database
    fen = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    out = subprocess.run([pgnkit_bin, "db", "explore", "--db", path, "--json", fen],
                         capture_output=True, text=True, check=True).stdout
    j = json.loads(out)
    with pgnkit.db.open(path, readonly=True) as db:
        ex = db.explore(fen)
    assert ex.fen == j["fen"] and ex.games == j["games"]
    assert [(m.san, m.uci, m.games, m.white, m.draws, m.black, m.last) for m in ex.moves] == \
        [(m["san"], m["uci"], m["games"], m["white"], m["draws"], m["black"], m["last"])
         for m in j["moves"]]
    assert all(m.elo is None or round(m.elo) == jm["elo"] for m, jm in zip(ex.moves, j["moves"]))


@pytest.mark.parametrize("expr", [
    'opening "1. e4 c5 2. Nf3 d6"',
    'fen "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" and elo >= 2400',
    'player ~ "Carlsen"',
    'ends = checkmate',
    'at (Pd4 and Pe5)',
])
def test_select_equals_the_program(database, twic, pgnkit_bin, expr):
    path, _ = database
    out = subprocess.run([pgnkit_bin, "select", "--offsets", expr, twic],
                         capture_output=True, text=True).stdout
    want = [(j["game"], j["ply"]) for j in map(json.loads, out.splitlines())]
    with pgnkit.db.open(path, readonly=True) as db:
        hits = db.select(expr)
        assert [(h.id, h.ply) for h in hits] == want
        assert len(db.select(expr, limit=2)) == min(2, len(want))
    raw = subprocess.run([pgnkit_bin, "select", expr, twic], capture_output=True).stdout
    assert b"".join(h.pgn for h in hits).replace(b"\n", b"") == raw.replace(b"\n", b"")


def test_errors(database, tmp_path, twic):
    path, _ = database
    with pgnkit.db.open(path, readonly=True) as db:
        with pytest.raises(ValueError, match="column 17"):
            db.select('White ~ "x" and Qz9')
        with pytest.raises(ValueError, match="no legal move"):
            db.explore("e4 e4")
        with pytest.raises(OSError, match="reading only"):
            db.import_(twic)  # opened for reading only: refused, though every game is a duplicate
    with pytest.raises(ValueError, match="closed"):
        db.explore()
    text = tmp_path / "not.db"
    text.write_text("hello, not a database\n" * 100)
    with pytest.raises(OSError, match="not a database"):
        pgnkit.db.open(text)
    with pytest.raises(OSError):
        pgnkit.db.open(tmp_path / "missing.db", create=False)
    assert pgnkit.db is pgnkit.db  # reachable as pgnkit.db after import pgnkit
    assert pgnkit.db.open.__module__ == "pgnkit.db"
