# SPDX-License-Identifier: MIT
"""pgnkit.dask on a LocalCluster of 2 worker processes: many byte ranges give exactly the games
of a single-process read, in order (issue 19)."""
import os

import pytest

import pgnkit
import pgnkit.dask as pkd

from conftest import CORPUS


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
