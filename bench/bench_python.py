# SPDX-License-Identifier: MIT
"""make bench-python: pgnkit's Python package beside python-chess on the same file (TWIC 1427,
plain), and pgnkit.dask with 2 worker processes beside 1. Medians of RUNS runs: CPU seconds of
this process (the machine is shared), wall-clock seconds for Dask (the work is in its workers). python-chess is pure Python and not in
Debian 12: point PYTHON_CHESS_DIR at a copy of its source (bench/README: how to get one); without
it those rows are skipped and said so."""
import gzip
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import pgnkit  # noqa: E402

RUNS = int(os.environ.get("RUNS", "3"))
SHARED = os.environ.get("SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "shared"))


def median_time(fn, clock=time.process_time):
    """Median of RUNS runs; CPU time of this process by default (the machine is shared)."""
    ts = []
    for _ in range(RUNS):
        t = clock()
        n = fn()
        ts.append(clock() - t)
    return statistics.median(ts), n


def main():
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "twic1427.pgn")
    with gzip.open(os.path.join(SHARED, "corpus", "big", "twic", "twic1427.pgn.gz")) as s, \
            open(path, "wb") as d:
        shutil.copyfileobj(s, d)
    import pandas  # noqa: F401  (imported before any timing)

    rows = []
    t_read, n = median_time(lambda: sum(1 for g in pgnkit.read(path) if g.moves is not None))
    rows.append(("pgnkit.read, SAN moves", t_read, n))
    t_tags, n_tags = median_time(lambda: len(pgnkit.read_tags_frame(path)))
    rows.append(("pgnkit.read_tags_frame", t_tags, n_tags))
    pc = os.environ.get("PYTHON_CHESS_DIR")
    if pc:
        sys.path.insert(0, pc)
        import chess.pgn

        def pc_read():
            k = 0
            with open(path, encoding="latin-1") as f:
                while (g := chess.pgn.read_game(f)) is not None:
                    [m for m in g.mainline_moves()]
                    k += 1
            return k

        def pc_headers():
            import pandas as pd

            out = []
            with open(path, encoding="latin-1") as f:
                while (h := chess.pgn.read_headers(f)) is not None:
                    out.append(dict(h))
            return len(pd.DataFrame.from_records(out))

        t_pc, n_pc = median_time(pc_read)
        rows.append((f"python-chess {chess.__version__} read_game", t_pc, n_pc))
        t_pch, n_pch = median_time(pc_headers)
        rows.append(("python-chess read_headers + DataFrame", t_pch, n_pch))
    else:
        print("python-chess: PYTHON_CHESS_DIR not set; its rows are skipped", file=sys.stderr)
    from distributed import Client, LocalCluster

    import pgnkit.dask as pkd

    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as c, Client(c):
            pkd.read_pgn(path, blocksize="255KiB").count().compute()  # warm the workers
            # wall-clock: the work is in the worker processes; a new blocksize each run so that
            # no result of an earlier run is reused
            sizes = iter(range(256 * 1024, 256 * 1024 + RUNS * 1000, 1000))
            t, nd = median_time(lambda: pkd.read_pgn(path, blocksize=next(sizes)).count().compute(),
                                time.perf_counter)
            rows.append((f"pgnkit.dask read_pgn, {workers} worker(s)", t, nd))
    print(f"{'what':45} {'s':>8} {'games':>7} {'games/s':>9}")
    for name, t, k in rows:
        print(f"{name:45} {t:8.3f} {k:7d} {k / t:9.0f}")
    by = {r[0].split(",")[0] if "dask" not in r[0] else r[0]: r for r in rows}
    if pc:
        print(f"ratio read (pgnkit/python-chess games/s): {t_pc / t_read:.1f}x (goal 50x)")
        print(f"ratio tags frame: {t_pch / t_tags:.1f}x (goal 200x)")
    d1 = [r for r in rows if "1 worker" in r[0]][0][1]
    d2 = [r for r in rows if "2 worker" in r[0]][0][1]
    print(f"ratio dask 2 workers / 1: {d1 / d2:.2f}x (goal 1.7x)")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
