# SPDX-License-Identifier: MIT
"""pgnkit on Dask: PGN files as a dask.bag of games or a dask.dataframe of tags and summary
columns, one task per byte range of each file.

The ranges use the library's range semantics (pgn_reader_opts.range_start/range_end): a reader
started at byte s skips to the next tag section that follows an empty line and reads the games
before the first such section after its range's end, so consecutive ranges [0, s), [s, t), ...
read every game exactly once, in order.
Compressed files are recognised by their first bytes, not by their names (the C source layer,
include/pgnkit/source.h). gzip, bzip2 and xz files cannot be split: each is one task, and so is a
tar archive; a zip (or 7z, RAR) is a task per *.pgn member. A zstd file is split at its frame
boundaries (a file written in several frames, as pzstd, `zstd -B` or lichess-style tools write
it): the C layer lists the frames, with the line of each frame's first decoded byte, and a task
reads a group of whole frames as a byte range of the file (the range semantics on the decoded
text: the games that start in its group, the last one to its end, into the next frames). A file
of one frame is one task.
"""
import glob as _glob
import os

from . import _chunks, _pgnkit, _sum_breaks
from . import read as _read
from . import tags_frame as _tags_frame

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


def zst_frames(path):
    """The frames of a zstd file (skippable frames included), as _pgnkit.Frame records: offset and
    size in the file, text_offset and text_size in the decoded text, the line of the first decoded
    byte. The C source layer decodes the file once to measure them (pgn_source_frames)."""
    return _pgnkit.zstd_frames(path)


def _zst_blocks(path, blocksize):
    """[(start, end, line)]: groups of whole frames of about blocksize decoded bytes, as byte
    ranges of the file (end 0 for the last group), with the line of each group's first byte."""
    groups, start, dstart, line = [], 0, 0, 1
    for fr in zst_frames(path):
        if fr.text_offset - dstart >= blocksize:
            groups.append((start, fr.offset, line))
            start, dstart, line = fr.offset, fr.text_offset, fr.line
    groups.append((start, 0, line))
    return groups


def _format(path):
    """(what the C source layer says the file holds: "plain", "zstd", "a zip archive"..., the
    names ARCHIVE(MEMBER) of an archive's *.pgn members, else [])."""
    r = _pgnkit.Reader(path, path, tags_only=True)
    fmt, names = r.source_format(), []
    if fmt.endswith(" archive"):
        names.append(r.name())
        while (name := r.next_member()) is not None:
            names.append(name)
    return fmt, names


def _blocks(path, blocksize):
    """[(start, end)] byte ranges of a file; (0, 0) is the whole file (compressed files). For a
    zstd file, [(start, end, line)] (see _zst_blocks); for a zip, 7z or RAR archive,
    [(0, 0, member)], a task per *.pgn member (each read by its own reader, as read() reads it)."""
    try:
        fmt, names = _format(path)
    except ValueError:
        return [(0, 0)]  # one task, which raises read()'s error
    if fmt == "zstd" and blocksize:
        return _zst_blocks(path, blocksize)
    if names and fmt != "a tar archive":
        prefix = f"{path}("
        return [(0, 0, n[len(prefix):-1]) for n in names]
    if fmt != "plain" or not blocksize:
        return [(0, 0)]
    size = os.path.getsize(path)
    if size <= blocksize:
        return [(0, 0)]
    edges = list(range(0, size, blocksize)) + [size]
    return list(zip(edges[:-1], edges[1:]))


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


def _block_breaks(path, start, end):
    """breaks() of the bytes [start, end) of a plain file (end 0: to its end)."""
    with open(path, "rb") as f:
        f.seek(start)
        return _sum_breaks(_chunks(f, end - start if end else None))


def _next_base(base, block, next_block):
    """The line of the next block's first byte: this block's line breaks on from base, less one
    for a CRLF cut between the two blocks (its LF is on the CR's line)."""
    return base + block[0] - (block[2] and next_block[1])


def _read_part(path, start, end, where, encoding, line_base=1, member=None):
    """The game records of a task: the byte range [start, end) of a plain file or a zstd file's
    frames ((0, 0): the whole file), or an archive's member."""
    rng = None if (start, end) == (0, 0) else (start, end)
    return [game_record(g) for g in _read(path, range=rng, where=where, encoding=encoding,
                                          line_base=line_base, member=member)]


DEFAULT_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteElo",
                "BlackElo", "ECO", "Opening", "TimeControl", "Termination", "Variant")
SUMMARY = ("source", "offset", "plies", "result", "final_fen", "broken", "errors")


def _frame_part(path, start, end, where, encoding, tags=DEFAULT_TAGS, line_base=1, member=None):
    import pandas as pd

    rows = []
    for rec in _read_part(path, start, end, where, encoding, line_base, member):
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


def _parse_size(blocksize):
    """A blocksize as bytes: an int, or a str such as "64MiB" (dask.utils.parse_bytes)."""
    from dask.utils import parse_bytes

    return parse_bytes(blocksize) if isinstance(blocksize, str) else blocksize


def _parts(urlpath, blocksize, fn, where, encoding, *extra, lines=False):
    """A delayed fn per block. lines: each block is given the line number of its first byte
    (line_base), from tasks that count the line breaks of the blocks before it (a pass over the
    bytes, or the decoded text of a zstd group, far faster than reading the games)."""
    from dask import delayed

    bs = _parse_size(blocksize)
    out = []
    for path in _paths(urlpath):
        blocks = _blocks(path, bs)
        zstd = len(blocks[0]) == 3 and isinstance(blocks[0][2], int)  # (start, end, line)
        members = len(blocks[0]) == 3 and not zstd  # each its own text: its lines count from 1
        counts = ([delayed(_block_breaks, pure=True)(path, b[0], b[1]) for b in blocks]
                  if lines and len(blocks) > 1 and not members and not zstd else [])
        base = 1
        for i, b in enumerate(blocks):
            if i > 0 and counts:
                base = delayed(_next_base, pure=True)(base, counts[i - 1], counts[i])
            kw = dict(member=b[2]) if members else {}
            if zstd:
                kw["line_base"] = b[2]
            elif lines:
                kw["line_base"] = base
            out.append(delayed(fn, pure=True)(path, b[0], b[1], where, encoding, *extra, **kw))
    return out


def read_pgn(urlpath, blocksize="64MiB", where=None, encoding=None):
    """A dask.bag of game dicts (source, offset, tags, result, moves, plies, final_fen, broken,
    diagnostics) from one path, a glob or a list of them, one partition per byte range."""
    import dask.bag as db

    return db.from_delayed(_parts(urlpath, blocksize, _read_part, where, encoding, lines=True))


def read_pgn_frame(urlpath, blocksize="64MiB", where=None, encoding=None, tags=DEFAULT_TAGS):
    """A dask.dataframe with a row per game: the tags named in tags as columns (missing: None;
    Elo as integers, complete dates as datetimes), then source, offset, plies, result, final_fen,
    broken and errors."""
    import dask.dataframe as dd

    tags = tuple(tags)
    parts = _parts(urlpath, blocksize, _frame_part, where, encoding, tags)
    meta = _typed(__import__("pandas").DataFrame(columns=list(tags) + list(SUMMARY)))
    return dd.from_delayed(parts, meta=meta)
