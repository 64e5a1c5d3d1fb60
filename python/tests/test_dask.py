# SPDX-License-Identifier: MIT
"""pgnkit.dask on a LocalCluster of 2 worker processes: many byte ranges give exactly the games
of a single-process read, in order (issue 19)."""
import os

import pytest

import pgnkit
import pgnkit.dask as pkd

from conftest import CORPUS, zstd


from distributed import Client, LocalCluster  # noqa: E402  (a failing import fails the suite)


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as c:
        yield c


def files(twic):
    out = [twic]
    if os.environ.get("PGNKIT_SLOW"):
        out.append(os.path.join(CORPUS, "big", "gnuchess-book_1.02.pgn.gz"))
    return out


def test_bag_equals_single_read(client, twic):
    for path in files(twic):
        bag = pkd.read_pgn(path, blocksize="200KiB")
        assert path.endswith(".gz") or bag.npartitions > 10
        got = [(r["offset"], r["moves"], r["tags"]) for r in bag.compute()]
        want = [(g.offset, g.moves, g.tags) for g in pgnkit.read(path if not path.endswith(".gz")
                                                                  else __import__("gzip").open(path))]
        assert got == want


def test_frame_equals_single_read(client, twic):
    df = pkd.read_pgn_frame(twic, blocksize="300KiB").compute()
    games = list(pgnkit.read(twic))
    assert list(df["offset"]) == [g.offset for g in games]
    assert list(df["White"]) == [g.tags.get("White") for g in games]
    assert list(df["plies"]) == [g.plies for g in games]
    assert str(df["WhiteElo"].dtype) == "Int64"


def test_glob_of_files(client, twic, tmp_path):
    a, b = tmp_path / "a.pgn", tmp_path / "b.pgn"
    data = open(twic, "rb").read()
    a.write_bytes(data[: len(data) // 2])
    b.write_bytes(data[: len(data) // 3])
    got = pkd.read_pgn(str(tmp_path / "*.pgn"), blocksize="100KiB").pluck("offset").compute()
    want = [g.offset for p in (a, b) for g in pgnkit.read(str(p))]
    assert got == want


def test_where_expression_on_the_cluster(client, twic):
    """where= with a query expression runs in each task and gives the games of a single read."""
    expr = "WhiteElo >= 2600 and at (Pd4 and Pe5)"
    got = pkd.read_pgn(twic, blocksize="200KiB", where=expr).pluck("offset").compute()
    want = [g.offset for g in pgnkit.read(twic, where=expr)]
    assert got == want and len(want) > 0


def test_zst_split_at_frames(client, twic, tmp_path):
    """A .zst file of many frames (cut anywhere, not at game boundaries, as pzstd does) is read
    one task per group of frames, and gives the games of the plain file, in order."""
    data = open(twic, "rb").read()
    z = tmp_path / "twic.pgn.zst"
    cut = 150_001  # an odd size: frames end inside games, lines and tokens
    with open(z, "wb") as f:
        for i in range(0, len(data), cut):
            f.write(zstd(data[i:i + cut]))
    frames = pkd.zst_frames(str(z))
    assert len(frames) == (len(data) + cut - 1) // cut
    assert sum(fr.text_size for fr in frames) == len(data)
    bag = pkd.read_pgn(str(z), blocksize="300KiB")
    assert bag.npartitions >= 5
    got = [(r["offset"], r["moves"], r["tags"]) for r in bag.compute()]
    want = [(g.offset, g.moves, g.tags) for g in pgnkit.read(twic)]
    assert got == want
    df = pkd.read_pgn_frame(str(z), blocksize="300KiB").compute()
    assert list(df["offset"]) == [g.offset for g in pgnkit.read(twic)]


def test_zst_frames_equal_the_program(tmp_path, pgnkit_bin):
    """The frame list (a frame without its decoded size in the header, a skippable frame) is the
    one `pgnkit frames` gives."""
    import subprocess

    d = b'[Event "x"]\n\n1. e4 *\n' * 1000
    z = tmp_path / "t.pgn.zst"
    with open(z, "wb") as f:
        f.write(zstd(d[:5000], content_size=False))
        f.write((0x184D2A5A).to_bytes(4, "little") + (3).to_bytes(4, "little") + b"abc")
        f.write(zstd(d[5000:], checksum=True))
    out = subprocess.run([pgnkit_bin, "frames", str(z)], capture_output=True, check=True)
    want = [tuple(int(x) for x in line.split()[:4]) for line in out.stdout.decode().splitlines()[1:]]
    got = [(fr.offset, fr.size, fr.text_offset, fr.text_size) for fr in pkd.zst_frames(str(z))]
    assert got == want
    assert [g.offset for g in pgnkit.read(d)] == [
        r["offset"] for r in pkd.read_pgn(str(z), blocksize=3000).compute(scheduler="sync")]


@pytest.mark.parametrize("eol", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
def test_diagnostics_at_true_lines(client, tmp_path, eol):
    """Every task's diagnostics give the file's true lines: each block is given the line of its
    first byte from tasks that count the line breaks before it (blocks cut inside CRLFs too), the
    same as one read of the file, and as `pgnkit.read` of a range counts them itself. Plain and
    zstd (frames cut anywhere)."""
    game = (b'[Event "e"]\n[White "a"]\n\n1. e4 e5 2. Nf3 Qxe5 {illegal} 3. Bc4 *\n\n'
            b'[Event "f"]\n\n1. d4 {open comment\n\n2. c4 *\n\n1. f4 *\n\n')
    data = (game * 1500).replace(b"\n", eol)
    plain = tmp_path / "errs.pgn"
    plain.write_bytes(data)
    z = tmp_path / "errs.zst"
    with open(z, "wb") as f:
        for i in range(0, len(data), 20_001):
            f.write(zstd(data[i:i + 20_001]))
    want = [(g.offset, [(d.line, d.column, d.code) for d in g.diagnostics])
            for g in pgnkit.read(str(plain))]
    assert sum(len(d) for _, d in want) >= 4500 and want[-1][1][0][0] > 15000
    for path in (plain, z):
        bag = pkd.read_pgn(str(path), blocksize="20KiB")
        assert bag.npartitions >= 5
        got = [(r["offset"], [(d["line"], d["column"], d["code"]) for d in r["diagnostics"]])
               for r in bag.compute()]
        assert got == want
    cut = len(data) // 3 + 1  # a range read by pgnkit.read counts its own line base
    part = [(g.offset, [(d.line, d.column, d.code) for d in g.diagnostics])
            for g in pgnkit.read(str(plain), range=(cut, 0))]
    assert part and cut < part[0][0] < cut + len(game) and part == [w for w in want if w[0] >= part[0][0]]
