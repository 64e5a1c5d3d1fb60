# SPDX-License-Identifier: MIT
"""pgnkit on Dask: PGN files as a dask.bag of games or a dask.dataframe of tags and summary
columns, one task per byte range of each file.

The ranges use the library's range semantics (pgn_reader_opts.range_start/range_end): a reader
started at byte s skips to the next tag section and reads the games that start at or before its
range's end, so consecutive ranges [0, s), [s, t), ... read every game exactly once, in order.
Compressed files (.gz, .bz2, .xz) cannot be split: each is one task.
"""
import glob as _glob
import os

from . import read as _read
from . import tags_frame as _tags_frame

_COMPRESSED = {".gz": "gzip", ".bz2": "bz2", ".xz": "lzma"}


def _paths(urlpath):
    if isinstance(urlpath, (list, tuple)):
        out = []
        for p in urlpath:
            out.extend(_paths(p))
        return out
    p = os.fspath(urlpath)
    if p.startswith("file://"):
        p = p[len("file://"):]
    found = sorted(_glob.glob(p)) if _glob.has_magic(p) else [p]
    if not found:
        raise FileNotFoundError(urlpath)
    return found


def _blocks(path, blocksize):
    """[(start, end)] byte ranges of a file; (0, 0) is the whole file (compressed files)."""
    if os.path.splitext(path)[1] in _COMPRESSED or not blocksize:
        return [(0, 0)]
    size = os.path.getsize(path)
    if size <= blocksize:
        return [(0, 0)]
    edges = list(range(0, size, blocksize)) + [size]
    return list(zip(edges[:-1], edges[1:]))


def _open(path):
    kind = _COMPRESSED.get(os.path.splitext(path)[1])
    if kind is None:
        return path
    import importlib

    return importlib.import_module(kind).open(path, "rb")


def game_record(g):
    """A game as a plain dict (what read_pgn's bag holds)."""
    return {
        "source": g.source,
        "offset": g.offset,
        "tags": g.tags,
        "result": g.result,
        "moves": g.moves,
        "plies": g.plies,
        "final_fen": g.final_fen,
        "broken": g.broken,
        "diagnostics": [d.as_dict() for d in g.diagnostics],
    }


def _read_part(path, start, end, where, encoding):
    src = _open(path)
    try:
        rng = None if (start, end) == (0, 0) else (start, end)
        return [game_record(g) for g in _read(src, range=rng, where=where, encoding=encoding)]
    finally:
        if not isinstance(src, str):
            src.close()


DEFAULT_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteElo",
                "BlackElo", "ECO", "Opening", "TimeControl", "Termination", "Variant")
SUMMARY = ("source", "offset", "plies", "result", "final_fen", "broken", "errors")


def _frame_part(path, start, end, where, encoding, tags=DEFAULT_TAGS):
    import pandas as pd

    rows = []
    for rec in _read_part(path, start, end, where, encoding):
        row = {t: rec["tags"].get(t) for t in tags}
        row.update(source=rec["source"], offset=rec["offset"], plies=rec["plies"],
                   result=rec["result"], final_fen=rec["final_fen"], broken=rec["broken"],
                   errors=sum(d["severity"] == "error" for d in rec["diagnostics"]))
        rows.append(row)
    df = _tags_frame(rows) if rows else pd.DataFrame(columns=list(tags) + list(SUMMARY))
    return _typed(df.reindex(columns=list(tags) + list(SUMMARY)))


def _typed(df):
    """The same column types whatever the rows (so that every partition fits one meta)."""
    import pandas as pd

    for col in df.columns:
        if col in ("WhiteElo", "BlackElo", "plies", "errors", "offset"):
            df[col] = pd.to_numeric(df[col], errors="coerce").astype("Int64")
        elif col == "Date":
            df[col] = pd.to_datetime(df[col], format="%Y.%m.%d", errors="coerce")
        elif col == "broken":
            df[col] = df[col].astype("boolean")
        else:
            df[col] = df[col].astype("object")
    return df


def _parts(urlpath, blocksize, fn, where, encoding, *extra):
    from dask import delayed
    from dask.utils import parse_bytes

    bs = parse_bytes(blocksize) if isinstance(blocksize, str) else blocksize
    out = []
    for path in _paths(urlpath):
        for start, end in _blocks(path, bs):
            out.append(delayed(fn, pure=True)(path, start, end, where, encoding, *extra))
    return out


def read_pgn(urlpath, blocksize="64MiB", where=None, encoding=None):
    """A dask.bag of game dicts (source, offset, tags, result, moves, plies, final_fen, broken,
    diagnostics) from one path, a glob or a list of them, one partition per byte range."""
    import dask.bag as db

    return db.from_delayed(_parts(urlpath, blocksize, _read_part, where, encoding))


def read_pgn_frame(urlpath, blocksize="64MiB", where=None, encoding=None, tags=DEFAULT_TAGS):
    """A dask.dataframe with a row per game: the tags named in tags as columns (missing: None;
    Elo as integers, complete dates as datetimes), then source, offset, plies, result, final_fen,
    broken and errors."""
    import dask.dataframe as dd

    tags = tuple(tags)
    parts = _parts(urlpath, blocksize, _frame_part, where, encoding, tags)
    meta = _typed(__import__("pandas").DataFrame(columns=list(tags) + list(SUMMARY)))
    return dd.from_delayed(parts, meta=meta)
