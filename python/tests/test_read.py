# SPDX-License-Identifier: MIT
"""pgnkit.read, scan_tags and check agree with the pgnkit program on the corpus (issue 19)."""
import io
import json
import os
import subprocess
import threading

import pytest

import pgnkit

from conftest import CORPUS, edge_files, fuzz_files

EDGE = edge_files()


def run(bin, *args):
    return subprocess.run([bin, *args], capture_output=True)


def cli_diags(bin, path, command="check"):
    """(line, column, code) of every diagnostic `pgnkit COMMAND --diag json` prints."""
    out = []
    for line in run(bin, command, "--diag", "json", path).stderr.decode("utf-8", "replace").splitlines():
        if not line.startswith("{"):
            continue
        d = json.loads(line)
        if "code" in d:
            out.append((d["line"], d["column"], d["code"]))
    return out


@pytest.mark.parametrize("path", EDGE + ["twic"], ids=lambda p: os.path.basename(p))
def test_diagnostics_equal_cli(path, twic, pgnkit_bin):
    path = twic if path == "twic" else path
    got = [(d.line, d.column, d.code) for d in pgnkit.check(path)["diagnostics"]]
    assert got == cli_diags(pgnkit_bin, path)


@pytest.mark.parametrize("path", EDGE, ids=lambda p: os.path.basename(p))
def test_diagnostics_json_equal_cli(path, pgnkit_bin):
    """Diagnostic.to_json() is the line `pgnkit check --diag json` prints, byte for byte: one JSON
    form of a diagnostic, the C library's (issue 33)."""
    err = run(pgnkit_bin, "check", "--diag", "json", path).stderr.decode("utf-8")
    want = [line for line in err.splitlines() if line.startswith('{"file":')]
    assert [d.to_json() for d in pgnkit.check(path)["diagnostics"]] == want


def test_diagnostics_json_seen():
    """The test above compares diagnostics: the corpus has some."""
    assert any(pgnkit.check(path)["diagnostics"] for path in EDGE)


@pytest.mark.parametrize("path", EDGE + ["twic"], ids=lambda p: os.path.basename(p))
def test_read_loses_no_diagnostic(path, twic, pgnkit_bin):
    """Every diagnostic `pgnkit fmt` prints (which reads comments, as read() does; check skips
    their text, so a comment's W_ENCODING is fmt's and read()'s only) is a game's, or in read()'s
    trailing list."""
    path = twic if path == "twic" else path
    games = pgnkit.read(path)
    got = [(d.line, d.column, d.code) for g in games for d in g.diagnostics]
    got += [(d.line, d.column, d.code) for d in games.trailing]
    assert got == cli_diags(pgnkit_bin, path, "fmt")


def test_trailing_diagnostics():
    """Text that no game holds: a file of junk, a range without a game, an unterminated comment
    after the last game; strict=True raises for it."""
    games = pgnkit.read(b"junk, no game\n")
    assert list(games) == []
    assert [(d.code, d.line, d.column, d.source) for d in games.trailing] == \
        [("W_SKIPPED_TEXT", 1, 1, "<bytes>")]
    text = b"junk\n\n[Event \"a\"]\n\n1. e4 *\n"
    games = pgnkit.read(text, range=(0, 3))
    assert list(games) == [] and [d.code for d in games.trailing] == ["W_SKIPPED_TEXT"]
    games = pgnkit.read(text, range=(3, 0))
    assert len(list(games)) == 1 and games.trailing == []
    with pytest.raises(pgnkit.PgnError, match="W_SKIPPED_TEXT|skipped"):
        list(pgnkit.read(b"junk, no game\n", strict=True))
    games = pgnkit.read(b'[Event "a"]\n\n1. e4 1-0\n\n{never closed')
    got = [(d.code, d.line, d.column) for g in games for d in g.diagnostics]
    # before commit a9209a3 nothing said it; now skipped text, which the game before holds (its look-ahead
    # read it), as the program prints it
    assert got + [(d.code, d.line, d.column) for d in games.trailing] == \
        [("W_SKIPPED_TEXT", 5, 1)]


@pytest.mark.parametrize("path", EDGE + ["twic"], ids=lambda p: os.path.basename(p))
def test_to_pgn_equals_fmt(path, twic, pgnkit_bin):
    path = twic if path == "twic" else path
    # the games alone: fmt keeps the text between games in its place, a Game is one game
    want = run(pgnkit_bin, "fmt", "--games-only", path).stdout.decode("utf-8", "replace")
    got = "".join(g.to_pgn() for g in pgnkit.read(path) if not g.broken)
    assert got == want


@pytest.mark.parametrize("path", EDGE + ["twic"], ids=lambda p: os.path.basename(p))
def test_tags_and_moves_equal_cli_json(path, twic, pgnkit_bin):
    """Tags and main-line SAN against the program's NDJSON (its own JSON writer, not this
    binding's replay)."""
    path = twic if path == "twic" else path
    lines = run(pgnkit_bin, "convert", "--to", "ndjson", "--keep-broken", path).stdout
    if not lines:  # a program without --keep-broken writes every game by default
        lines = run(pgnkit_bin, "convert", "--to", "ndjson", path).stdout
    cli = [json.loads(x) for x in lines.decode().splitlines() if x.strip()]
    games = list(pgnkit.read(path))
    if len(cli) != len(games):
        games = [g for g in games if not g.broken]
    assert len(cli) == len(games)
    for j, g in zip(cli, games):
        assert g.tags == j["tags"]
        assert g.moves == [m["san"] for m in j["moves"]]
        assert g.uci == [m["uci"] for m in j["moves"]]


@pytest.mark.parametrize("path", EDGE + fuzz_files() + ["twic"], ids=lambda p: os.path.basename(p))
def test_scan_tags_equal_read(path, twic):
    """(a fuzz file has a tag value with a NUL byte in it: scan_tags keeps it whole)"""
    path = twic if path == "twic" else path
    assert list(pgnkit.scan_tags(path)) == [g.tags for g in pgnkit.read(path)]


def test_sources_agree(twic):
    """A path, bytes and a binary file object give the same games."""
    data = open(twic, "rb").read()
    a = [g.to_pgn() for g in pgnkit.read(twic)]
    assert [g.to_pgn() for g in pgnkit.read(data)] == a
    assert [g.to_pgn() for g in pgnkit.read(io.BytesIO(data))] == a


def test_text_file_is_refused(twic):
    with open(twic, "r", encoding="latin-1") as f, pytest.raises(TypeError):
        list(pgnkit.read(f))


def test_ranges_read_every_game_once(twic):
    size = os.path.getsize(twic)
    whole = [g.offset for g in pgnkit.read(twic)]
    cuts = [0] + sorted({(size * k) // 13 + k * 37 for k in range(1, 13)}) + [size]
    parts = []
    for s, e in zip(cuts[:-1], cuts[1:]):
        parts += [g.offset for g in pgnkit.read(twic, range=(s, e))]
    assert parts == whole


def test_fens_and_lazy_lists():
    g = next(pgnkit.read(b'[Event "x"]\n\n1. e4 {a} c5 $1 2. Nf3 (2. c3 d5) *\n'))
    assert list(g.fens())[-1] == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert g.comments == ["a", None, None]
    assert g.nags == [(), (1,), ()]
    assert g.variations == [(3, ["c3", "d5"])]
    assert g.result == "*"


def test_clocks_and_evals():
    pgn = b'1. e4 { [%clk 0:03:00] [%eval 0.3] } e5 { [%clk 0:02:58.5] [%eval #-2] } *\n'
    g = next(pgnkit.read(pgn))
    assert g.clocks == [180.0, 178.5]
    assert g.evals == [("cp", 30), ("mate", -2)]


def test_strict_raises_with_the_diagnostic():
    sample = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "sample.pgn")
    with pytest.raises(pgnkit.PgnError) as e:
        list(pgnkit.read(sample, strict=True))
    assert e.value.severity == "error" and e.value.code == "W_CASTLE_ZERO"  # strict: 0-0 errs


def test_lax_broken_game_is_marked():
    g = next(pgnkit.read(b"1. e4 e5 2. Ke3 Nc6 *\n"))
    assert g.broken and g.moves == ["e4", "e5"]
    assert [d.code for d in g.diagnostics] == ["E_ILLEGAL_MOVE"]
    assert g.diagnostics[0].message


def test_cut_game_is_broken():
    """Issue 34: a game cut short is broken, never read as whole (E_TRUNCATED)."""
    head = b'[Event "t"]\n[Result "1-0"]\n\n'
    for cut in (b"1. e4 e5 2. Nf3 Rxd", b"1. e4 e5 2.", b"1. e4 e5 2. Nf3", b"1. e4 e5 1/2-"):
        g = next(pgnkit.read(head + cut))
        assert g.broken, cut
        assert [d.code for d in g.diagnostics] == ["E_TRUNCATED"], cut
    g = next(pgnkit.read(b"1. e4 e5 2. Nf3"))  # typed, without a Result tag: whole
    assert not g.broken and g.moves == ["e4", "e5", "Nf3"]


@pytest.mark.parametrize("path", fuzz_files(), ids=lambda p: os.path.basename(p))
def test_hostile_inputs_never_crash(path):
    data = open(path, "rb").read()
    for g in pgnkit.read(data):
        g.to_pgn(), g.to_json(), g.moves, list(g.fens())
    pgnkit.check(data)


def test_threads_read_in_parallel(twic):
    """The GIL is released while C code runs: two threads reading at once get the right games."""
    want = [g.to_pgn() for g in pgnkit.read(twic)]
    got = [None, None]

    def work(i):
        got[i] = [g.to_pgn() for g in pgnkit.read(twic)]

    ts = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert got == [want, want]


def rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_memory_steady(twic):
    """No leak: RSS after 10 passes over TWIC within 5% of after 1."""
    def one_pass():
        for g in pgnkit.read(twic):
            g.moves, g.tags, g.to_pgn()
        pgnkit.check(twic)

    one_pass()
    after1 = rss_kib()
    for _ in range(9):
        one_pass()
    assert rss_kib() <= after1 * 1.05


def test_tags_frame_types(twic):
    df = pgnkit.read_tags_frame(twic)
    assert len(df) == sum(1 for _ in pgnkit.scan_tags(twic))
    assert str(df["WhiteElo"].dtype) == "Int64"
    assert str(df["Date"].dtype).startswith("datetime64")


@pytest.mark.parametrize("path", EDGE + fuzz_files() + ["twic"], ids=lambda p: os.path.basename(p))
def test_tags_frame_columns_equal_rows(path, twic):
    """read_tags_frame's columns, built in C, equal the frame pandas builds from scan_tags' dicts
    (pandas.to_numeric for the integers, column order and missing values as from_records gives
    them); one row per game."""
    import pandas as pd

    path = twic if path == "twic" else path
    got = pgnkit.read_tags_frame(path)
    rows = list(pgnkit.scan_tags(path))
    assert len(got) == len(rows)
    if any(rows):  # (pandas makes no row at all of dicts that are all empty)
        pd.testing.assert_frame_equal(got, pgnkit.tags_frame(rows))
    cat = pgnkit.read_tags_frame(path, categorical=True)
    pd.testing.assert_frame_equal(cat.astype(object), got.astype(object))


DATES = ["2023.01.05", "2023.1.5", "2023.01. 5", "2023. 1.05", "2011", "2011.05", "2011.??.??",
         "2023.02.29", "2024.02.29", "1900.02.29", "2000.02.29", "2023.04.31", "2023.13.01",
         "2023.00.10", "2023.10.00", "1677.09.21", "1677.09.22", "2262.04.11", "2262.04.12",
         "02023.01.01", "2023.01.01 ", " 2023.01.01", "2023-01-01", "", "????.??.??"]
INTS = ["2700", " 2700 ", "+12", "-5", "0", "007", "", "-", "?", "12a", "2700.5", "0x10",
        "123456789012", "--1", "+"]


def test_tags_frame_typed_values():
    """Dates as Python's datetime.strptime(v, "%Y.%m.%d") reads them, where datetime64[ns] holds
    them; integers as pandas.to_numeric reads them (decimal integers only: "1e3" is missing)."""
    import datetime

    import pandas as pd

    pgn = "".join(f'[Date "{d}"]\n[WhiteElo "{i}"]\n\n*\n\n'
                  for d, i in zip(DATES, INTS + [""] * len(DATES)))
    df = pgnkit.read_tags_frame(pgn.encode())
    assert len(df) == len(DATES)
    lo, hi = pd.Timestamp.min, pd.Timestamp.max
    for d, got in zip(DATES, df["Date"]):
        try:
            want = pd.Timestamp(datetime.datetime.strptime(d, "%Y.%m.%d"))
            want = want if lo <= want <= hi else pd.NaT
        except ValueError:
            want = pd.NaT
        assert (got is pd.NaT and want is pd.NaT) or got == want, d
    num = pd.to_numeric(pd.Series(INTS), errors="coerce")
    for i, want, got in zip(INTS, num, df["WhiteElo"]):
        if pd.isna(want) or want != int(want):
            assert got is pd.NA, i
        else:
            assert got == int(want), i
    assert pgnkit.read_tags_frame(b'[PlyCount "1e3"]\n\n*\n')["PlyCount"][0] is pd.NA


WHERE = ["WhiteElo >= 2600 and at (Pd4 and Pe5)", "mate", "count(Q) = 0 and plies > 60",
         "player ~ \"^Carlsen\" or (ECO >= \"B20\" and ECO <= \"B99\")"]


@pytest.mark.parametrize("expr", WHERE)
def test_where_expression_equals_select(expr, twic, pgnkit_bin):
    """where= with an expression picks the games `pgnkit select` picks (same ordinals, offsets
    and trees), and a bad expression is a ValueError naming its column."""
    out = run(pgnkit_bin, "select", "--offsets", expr, twic).stdout.decode().splitlines()
    want = [(j["game"], j["offset"]) for j in map(json.loads, out)]
    games = list(pgnkit.read(twic, where=expr))
    assert [(g.ordinal, g.offset) for g in games] == want
    assert want, "the expression matches no game: the test would prove nothing"
    every = {g.ordinal: g for g in pgnkit.read(twic)}
    assert all(g.to_pgn() == every[g.ordinal].to_pgn() for g in games)


def test_where_expression_errors():
    with pytest.raises(ValueError, match="column 6"):
        list(pgnkit.read(b"[White \"a\"]\n\n1. e4 *\n", where="mate frobnicate"))
    assert [g.tags["White"] for g in pgnkit.read(b"[White \"a\"]\n\n1. e4 *\n\n[White \"b\"]\n\n1. d4 *\n",
                                                 where="move d4")] == ["b"]


@pytest.mark.parametrize("path", EDGE, ids=lambda p: os.path.basename(p))
def test_lazy_parts_agree(path):
    """The main line's parts are made when first asked for (SAN alone for moves): in whatever
    order they are asked, they equal the parts made all at once."""
    names = ("moves", "uci", "comments", "nags", "clocks", "evals")
    for a, b in zip(pgnkit.read(path), pgnkit.read(path)):
        whole = a._c.mainline(15)
        got_b = {n: getattr(b, n) for n in reversed(names)}
        assert [getattr(a, n) for n in names] == [getattr(whole, n) for n in ("san", "uci", "comments", "nags", "clocks", "evals")]
        assert [got_b[n] for n in names] == [getattr(a, n) for n in names]
        assert a.plies == len(whole.san) and list(a.fens())[1:] == a._c.mainline(4).fens


def test_line_of(tmp_path):
    """line_of counts LF, CRLF and a lone CR as one break each, the LF of a CRLF on the CR's line,
    as the C library counts them (tests/unit/test_range.c, line_of), from bytes and from a path
    read in 4 MiB chunks (a CRLF cut between two chunks, at 4 MiB, counts once)."""
    import random

    rnd = random.Random(7)
    edge = 4 << 20
    data = bytes(rnd.choice(b"\r\n\r\nab") for _ in range(edge + 4096))
    data = data[:edge - 1] + b"\r\n" + data[edge + 1:]  # a CRLF across the chunk edge
    path = tmp_path / "lines.txt"
    path.write_bytes(data)
    ats = [0, 1, 2, 3, 100, 5000] + list(range(edge - 3, edge + 4)) + [len(data) - 1]
    want, line = {}, 1  # one walk, byte by byte: the line of each byte
    for i, c in enumerate(data):
        if i in ats:
            want[i] = line
        if c == 10 or (c == 13 and data[i + 1:i + 2] != b"\n"):  # a CRLF: at its LF
            line += 1
    for at in ats:
        assert pgnkit.line_of(data, at) == want[at], at
        assert pgnkit.line_of(str(path), at) == want[at], at


def test_scan_tags_dicts_made_in_c():
    """scan_tags builds its dicts in C from batches of 64 games, with cached strs and the last
    new dict as a template: over games whose tag sets change, repeat a name, hold more than 64
    tags, have values longer than the cache keeps, and more than two batches, every dict equals
    read()'s tags, and a dict the caller empties changes none after it."""
    import random

    rnd = random.Random(29)
    games = []
    for i in range(1300):
        names = [f"T{j}" for j in range(rnd.choice([3, 7, 7, 7, 70]))]
        if i % 11 == 0:
            names.append("T1")  # given twice: the last value, at the first place
        if i % 13 == 0:
            rnd.shuffle(names)
        values = ["a", "b", "\u00e9t\u00e9", "x" * 50, str(i), "", "\u00ff" * 30]
        games.append("".join(f'[{n} "{rnd.choice(values)}"]\n' for n in names) + "\n1. e4 *\n\n")
    data = "".join(games).encode()
    want = [g.tags for g in pgnkit.read(data)]
    got = []
    for d in pgnkit.scan_tags(data):
        got.append((list(d.items())))
        d.clear()
    assert got == [list(w.items()) for w in want] and len(got) == 1300


def test_scan_tags_templates():
    """scan_tags starts a game's dict from a copy of one of the last tag sets' dicts and sets only
    the values that differ from that copy's: over 12 tag sets in turn (more than the 8 it keeps),
    runs of games that keep a value (an Event for 7 games, a Result twice) and values that change
    every game, a name with a non-ASCII letter, and names of the same lengths and ends, every dict
    equals read()'s tags, in order."""
    import random

    rnd = random.Random(4)
    base = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    extra = ["WhiteTitle", "BlackTitle", "WhiteElo", "BlackElo", "ECO", "Opening", "T\u00e9am",
             "Annotator", "XtX", "XuX"]
    sets = [base + extra[:k] for k in range(0, 10, 2)] + [base + [e] for e in extra]
    games = []
    for i in range(2000):
        names = sets[(i // 3 + i % 2) % len(sets)] if i % 5 else rnd.choice(sets)
        values = {"Event": f"ev{i // 7}", "Result": ["1-0", "0-1", "1/2-1/2"][i // 2 % 3],
                  "Round": str(i), "White": rnd.choice(["a", "b", "c"])}
        games.append("".join(f'[{n} "{values.get(n, n.lower())}"]\n' for n in names)
                     + "\n1. e4 *\n\n")
    data = "".join(games).encode()
    want = [list(g.tags.items()) for g in pgnkit.read(data)]
    assert [list(d.items()) for d in pgnkit.scan_tags(data)] == want and len(want) == 2000


def test_suggestions_and_fix():
    # issue 28 (docs/repair.md): 3. Bc5 cannot be played; the game's own next move 4. Ba4 is
    # legal only after Bb5, the move of the Ruy Lopez the rest of the game follows
    text = b'[Event "t"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc5 a6 4. Ba4 Nf6 5. O-O Be7 *\n'
    d = pgnkit.check(text)["diagnostics"][0]
    assert d.code == "E_ILLEGAL_MOVE" and d.token == "Bc5"
    assert d.suggestions[0] == "Bb5" and len(d.suggestions) <= 5 and d.replacement is None
    fixed = pgnkit.check(text, fix=True)
    assert fixed["errors"] == 0
    d = fixed["diagnostics"][0]
    assert (d.code, d.token, d.replacement) == ("W_REPAIRED_MOVE", "Bc5", "Bb5")
    g = next(iter(pgnkit.read(text, fix=True)))
    assert list(g.moves) == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]
    # on threads (the library's parallel reader) the same repair, the same diagnostics
    one = [(g.moves, [tuple(d) for d in g.diagnostics]) for g in pgnkit.read(text * 3, fix=True)]
    assert one == [(g.moves, [tuple(d) for d in g.diagnostics])
                   for g in pgnkit.read(text * 3, fix=True, threads=2)]
    assert [m for m, _ in one] == [g.moves] * 3


def test_drops_without_variant_tag():
    # issue 28 point 7: pychess's crazyhouse games without their Variant tag read as with it
    # (a game with a drop: the same start, UCI main line and FEN after every ply, and one
    # W_DROP_CRAZYHOUSE at its first drop, in its place among the other diagnostics), on one
    # thread and on two
    path = os.path.join(CORPUS, "edge", "variants", "pychess-zh.pgn")
    with open(path, "rb") as f:
        tagged = f.read()
    untagged = b"".join(l for l in tagged.splitlines(True) if not l.startswith(b"[Variant "))
    want = [g for g in pgnkit.read(tagged) if any("@" in m for m in g.uci)]
    assert len(want) > 50
    for threads in (1, 2):
        got = [g for g in pgnkit.read(untagged, threads=threads) if any("@" in m for m in g.uci)]
        assert [(g.start_fen, g.uci, list(g.fens())) for g in got] == \
            [(g.start_fen, g.uci, list(g.fens())) for g in want]
        for g, w in zip(got, want):
            drops = [d for d in g.diagnostics if d.code == "W_DROP_CRAZYHOUSE"]
            assert len(drops) == 1 and "@" in drops[0].token
            assert [d.code for d in g.diagnostics if d.code != "W_DROP_CRAZYHOUSE"] == \
                [d.code for d in w.diagnostics]
            where = [(d.line, d.column) for d in g.diagnostics]
            assert where == sorted(where)


@pytest.mark.parametrize("path", EDGE + ["twic"], ids=lambda p: os.path.basename(p))
def test_read_on_threads_equals_one(path, twic, pgnkit_bin, tmp_path):
    """read(threads=2) goes through the library's parallel reader (pgn_parallel_read): the games
    of one thread, in order, and every diagnostic `pgnkit fmt` prints, from the plain file and
    from its gzip form (issue 29 point 4)."""
    import gzip

    path = twic if path == "twic" else path
    gz = tmp_path / "x.gz"
    gz.write_bytes(gzip.compress(open(path, "rb").read()))
    want = [(g.ordinal, g.offset, g.length, g.broken, g.to_pgn()) for g in pgnkit.read(path)]
    for src in (path, str(gz)):
        games = pgnkit.read(src, threads=2)
        got, diags = [], []
        for g in games:
            got.append((g.ordinal, g.offset, g.length, g.broken, g.to_pgn()))
            diags += [(d.line, d.column, d.code) for d in g.diagnostics]
        diags += [(d.line, d.column, d.code) for d in games.trailing]
        assert got == want
        assert diags == cli_diags(pgnkit_bin, path, "fmt")


def test_read_on_threads_stops_when_closed(twic):
    games = pgnkit.read(twic, threads=2)
    first = [next(games).offset for _ in range(3)]
    games.close()  # the reading thread ends (its queue drained), nothing left running
    assert first == [g.offset for _, g in zip(range(3), pgnkit.read(twic))]
    assert not [t for t in threading.enumerate() if t.name == "pgnkit-parallel"]
    with pytest.raises(ValueError, match="threads"):
        pgnkit.read(twic, threads=-1)
