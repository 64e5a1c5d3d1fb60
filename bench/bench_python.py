# SPDX-License-Identifier: MIT
"""make bench-python: pgnkit's Python package beside python-chess on the same files, and
pgnkit.dask with 2 worker processes beside 1.

Files: TWIC 1427 (4.2 MB, 4,742 games) and the gnuchess book (85.7 MB, 145,716 games), both
decompressed to a temporary directory. Medians of RUNS runs: CPU seconds of this process (the
machine may be shared), wall-clock seconds for Dask (the work is in its workers).

- read: pgnkit.read with the moves resolved (SAN) vs python-chess read_game + mainline_moves, on
  TWIC (python-chess needs minutes for the book);
- scan_tags: pgnkit.scan_tags (a dict a game, built in C) vs python-chess read_headers (a dict a
  game), on TWIC, one thread (issue 29's goal: 10x);
- tags: read_tags_frame vs python-chess read_headers + DataFrame.from_records, on both files: on
  one thread (CPU time) and on every core (wall-clock; python-chess runs on one, so its CPU time is
  its wall-clock), with the floor of pgnkit's tag scan on one thread (the C reader alone, no Python
  object: the ceiling of a one-thread ratio is python-chess's time over that floor);
- Dask: read_pgn(book, blocksize=BLOCKSIZE).count() with 1 then 2 worker processes (one thread
  each): the games are read and made into dicts on the workers, only the counts come back, so
  the work (seconds) dominates the scheduling; then the same with read_pgn_frame's row count.

python-chess is pure Python and not in Debian 12: point PYTHON_CHESS_DIR at a copy of its source
(/work/shared/bench/README.md: how to get one); without it those rows are skipped and said so.
DASK_FILE=path replaces the book for the Dask rows; BLOCKSIZE (default 4MiB) sets the ranges."""
import gzip
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import pgnkit  # noqa: E402
from pgnkit import _pgnkit  # noqa: E402

RUNS = int(os.environ.get("RUNS", "3"))
SHARED = os.environ.get("SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared"))
BLOCKSIZE = os.environ.get("BLOCKSIZE", "4MiB")


def median_time(fn, clock=time.process_time, runs=RUNS):
    """Median of runs runs; CPU time of this process by default (the machine is shared)."""
    ts = []
    for _ in range(runs):
        t = clock()
        n = fn()
        ts.append(clock() - t)
    return statistics.median(ts), n


def unpack(tmp, rel, name):
    path = os.path.join(tmp, name)
    with gzip.open(os.path.join(SHARED, "corpus", "big", rel)) as s, open(path, "wb") as d:
        shutil.copyfileobj(s, d)
    return path


def scan_floor(path):
    """The C tag scan alone: every game's tags read, the movetext skipped, no Python object."""
    return _pgnkit.Reader(path, path, tags_only=True).check_all().games


def python_chess():
    pc = os.environ.get("PYTHON_CHESS_DIR")
    if not pc:
        print("python-chess: PYTHON_CHESS_DIR not set; its rows are skipped", file=sys.stderr)
        return None
    sys.path.insert(0, pc)
    import chess.pgn

    return chess


def pc_read(chess, path):
    k = 0
    with open(path, encoding="latin-1") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            [m for m in g.mainline_moves()]
            k += 1
    return k


def pc_header_dicts(chess, path):
    out = []
    with open(path, encoding="latin-1") as f:
        while (h := chess.pgn.read_headers(f)) is not None:
            out.append(dict(h))
    return len(out)


def pc_headers(chess, path):
    import pandas as pd

    out = []
    with open(path, encoding="latin-1") as f:
        while (h := chess.pgn.read_headers(f)) is not None:
            out.append(dict(h))
    return len(pd.DataFrame.from_records(out))


def local_rows(chess, twic, book):
    """(rows, ratios): the single-process figures."""
    rows, ratios = [], []
    t_read, n = median_time(lambda: sum(1 for g in pgnkit.read(twic) if g.moves is not None))
    rows.append(("TWIC pgnkit.read, SAN moves", t_read, n))
    if chess:
        t_pc, n_pc = median_time(lambda: pc_read(chess, twic), runs=1 if RUNS < 3 else 3)
        rows.append((f"TWIC python-chess {chess.__version__} read_game", t_pc, n_pc))
        ratios.append(f"read (python-chess / pgnkit, TWIC): {t_pc / t_read:.1f}x (goal 50x)")
    t_scan, n_scan = median_time(lambda: len(list(pgnkit.scan_tags(twic))))
    rows.append(("TWIC pgnkit.scan_tags, dicts", t_scan, n_scan))
    if chess:
        t_pcs, n_pcs = median_time(lambda: pc_header_dicts(chess, twic))
        rows.append(("TWIC python-chess read_headers, dicts", t_pcs, n_pcs))
        ratios.append(f"scan_tags (python-chess read_headers / pgnkit, TWIC, 1 thread): "
                      f"{t_pcs / t_scan:.1f}x (goal 10x)")
    cores = os.cpu_count() or 1
    for label, path in (("TWIC", twic), ("book", book)):
        t_tags, n_tags = median_time(lambda: len(pgnkit.read_tags_frame(path, jobs=1)))
        rows.append((f"{label} pgnkit.read_tags_frame, 1 thread", t_tags, n_tags))
        # on every core: wall-clock (CPU time would add up the threads)
        t_all, n_all = median_time(lambda: len(pgnkit.read_tags_frame(path)), time.perf_counter)
        rows.append((f"{label} read_tags_frame, {cores} threads (wall)", t_all, n_all))
        t_floor, n_floor = median_time(lambda: scan_floor(path))
        rows.append((f"{label} pgnkit C tag scan alone (floor)", t_floor, n_floor))
        if chess:
            t_pch, n_pch = median_time(lambda: pc_headers(chess, path))
            rows.append((f"{label} python-chess read_headers + DataFrame", t_pch, n_pch))
            ratios.append(f"tags frame ({label}): 1 thread {t_pch / t_tags:.1f}x (goal 20x), "
                          f"{cores} threads {t_pch / t_all:.1f}x (one thread's ceiling, "
                          f"python-chess / C scan floor: {t_pch / t_floor:.1f}x)")
    return rows, ratios


def dask_rows(path):
    from distributed import Client, LocalCluster

    import pgnkit.dask as pkd

    rows, times = [], {}
    nblocks = len(pkd._blocks(path, pkd._parse_size(BLOCKSIZE)))
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as c, Client(c):
            pkd.read_pgn(path, blocksize="255KiB").take(1)  # the workers import pgnkit
            # wall-clock (the work is in the worker processes); each run a new graph (a new
            # blocksize), so that no result of an earlier run is reused
            sizes = iter(range(pkd._parse_size(BLOCKSIZE), 1 << 40, 1000))
            t, nd = median_time(lambda: pkd.read_pgn(path, blocksize=next(sizes)).count().compute(),
                                time.perf_counter)
            rows.append((f"dask read_pgn(...).count(), {workers} worker(s)", t, nd))
            times[("bag", workers)] = t
            t, nf = median_time(
                lambda: int(pkd.read_pgn_frame(path, blocksize=next(sizes))
                            .map_partitions(len).compute().sum()), time.perf_counter)
            rows.append((f"dask read_pgn_frame rows, {workers} worker(s)", t, nf))
            times[("frame", workers)] = t
    ratios = [f"dask 2 workers / 1 ({os.path.basename(path)}, {nblocks} ranges of {BLOCKSIZE}): "
              f"bag {times['bag', 1] / times['bag', 2]:.2f}x, frame "
              f"{times['frame', 1] / times['frame', 2]:.2f}x (goal 1.7x)"]
    return rows, ratios


def main():
    tmp = tempfile.mkdtemp()
    try:
        twic = unpack(tmp, "twic/twic1427.pgn.gz", "twic1427.pgn")
        book = unpack(tmp, "gnuchess-book_1.02.pgn.gz", "book.pgn")
        import pandas  # noqa: F401  (imported before any timing)

        chess = python_chess()
        rows, ratios = local_rows(chess, twic, book)
        r2, q2 = dask_rows(os.environ.get("DASK_FILE") or book)
        rows += r2
        ratios += q2
        print(f"{'what':50} {'s':>8} {'games':>7} {'games/s':>9}")
        for name, t, k in rows:
            print(f"{name:50} {t:8.3f} {k:7d} {k / t:9.0f}")
        for r in ratios:
            print("ratio " + r)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
