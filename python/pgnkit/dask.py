# SPDX-License-Identifier: MIT
"""pgnkit on Dask: PGN files as a dask.bag of games or a dask.dataframe of tags and summary
columns, one task per byte range of each file.

The ranges use the library's range semantics (pgn_reader_opts.range_start/range_end): a reader
started at byte s skips to the next tag section that follows an empty line and reads the games
before the first such section after its range's end, so consecutive ranges [0, s), [s, t), ...
read every game exactly once, in order.
Compressed files are recognised by their first bytes, not by their names. gzip, bzip2 and xz
files cannot be split: each is one task, and so is a tar archive; a zip is a task per *.pgn
member. A zstd file is split at its
frame boundaries (a file written in several frames, as pzstd, `zstd -B` or lichess-style tools
write it): a task decodes from the first frame of its group on, and reads, with the same range
semantics on the decoded text, the games that start in its group's decoded bytes (the last one to
its end, into the next frames). A file of one frame is one task. Needs the zstandard module
(Debian python3-zstandard).
"""
import glob as _glob
import io
import os

from . import _compressed
from . import _chunks, _sum_breaks
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
    """[(offset, size, decoded_size)] of the frames of a zstd file (RFC 8878 §3.1), skippable
    frames included with decoded_size 0. Reads the frame and block headers only; a frame whose
    header does not give its decoded size is decoded to measure it."""
    out = []
    with open(path, "rb") as f:
        end = f.seek(0, os.SEEK_END)
        pos = 0
        while pos < end:
            f.seek(pos)
            head = f.read(18)  # magic, descriptor, window, dictionary id, content size
            magic = int.from_bytes(head[:4], "little")
            if magic & 0xFFFFFFF0 == 0x184D2A50:  # a skippable frame
                size = 8 + int.from_bytes(head[4:8], "little")
                out.append((pos, size, 0))
                pos += size
                continue
            if magic != 0xFD2FB528 or len(head) < 6:
                raise ValueError(f"{path}: not a zstd frame at byte {pos}")
            fhd = head[4]
            single, checksum, dict_flag, fcs_flag = fhd >> 5 & 1, fhd >> 2 & 1, fhd & 3, fhd >> 6
            p = 5 + (0 if single else 1) + (0, 1, 2, 4)[dict_flag]
            fcs_len = (1 if single else 0, 2, 4, 8)[fcs_flag]
            decoded = None
            if fcs_len:
                decoded = int.from_bytes(head[p:p + fcs_len], "little") + (256 if fcs_len == 2 else 0)
            p = pos + p + fcs_len
            while True:  # the blocks: a 3-byte header each (last, type, size)
                f.seek(p)
                h = int.from_bytes(f.read(3), "little")
                last, kind, bsize = h & 1, h >> 1 & 3, h >> 3
                p += 3 + (1 if kind == 1 else bsize)
                if last or p >= end:
                    break
            p += 4 if checksum else 0
            if decoded is None:
                import zstandard

                f.seek(pos)
                decoded = 0  # (the frame's compressed bytes in memory: such frames are rare)
                with zstandard.ZstdDecompressor().stream_reader(f.read(p - pos)) as r:
                    while chunk := r.read(1 << 20):
                        decoded += len(chunk)
            out.append((pos, p - pos, decoded))
            pos = p
    return out


def _zst_blocks(path, blocksize):
    """[(start, end, decoded_start, decoded_end)]: groups of whole frames of about blocksize
    decoded bytes (decoded_end 0 for the last group)."""
    groups, start, dstart, dpos = [], 0, 0, 0
    for off, size, dsize in zst_frames(path):
        if dpos - dstart >= blocksize:
            groups.append((start, off, dstart, dpos))
            start, dstart = off, dpos
        dpos += dsize
    groups.append((start, 0, dstart, 0))
    return groups


def _format(path):
    """The compression format of a file by its first bytes (None: plain text)."""
    with open(path, "rb") as f:
        return _compressed.sniff(f.read(_compressed.HEAD), path)


def _blocks(path, blocksize):
    """[(start, end)] byte ranges of a file; (0, 0) is the whole file (compressed files). For a
    zstd file, [(start, end, decoded_start, decoded_end)] (see _zst_blocks); for a zip,
    [(0, 0, member)], a task per *.pgn member (each read by its own reader, as read() reads it)."""
    fmt = _format(path)
    if fmt == "zstd" and blocksize:
        return _zst_blocks(path, blocksize)
    if fmt == "zip":
        members = _compressed.zip_members(path)
        if members:  # else one task, which raises read()'s error
            return [(0, 0, m) for m in members]
    if fmt is not None or not blocksize:
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


def _block_breaks(path, start, end, dstart=None, dend=None):
    """breaks() of a block's text: the bytes [start, end) of a plain file (end 0: to its end), or
    the decoded text of a group of a zstd file's frames."""
    with open(path, "rb") as f:
        f.seek(start)
        if dstart is None:
            return _sum_breaks(_chunks(f, end - start if end else None))
        raw = io.BytesIO(f.read(end - start)) if end else f
        with _compressed.Decoded(_compressed._Unclosed(raw), "zstd", path) as text:
            return _sum_breaks(_chunks(text))


def _next_base(base, block, next_block):
    """The line of the next block's first byte: this block's line breaks on from base, less one
    for a CRLF cut between the two blocks (its LF is on the CR's line)."""
    return base + block[0] - (block[2] and next_block[1])


def _read_part(path, start, end, where, encoding, dstart=None, dend=None, line_base=1,
               member=None):
    src = path  # read() decodes gzip, bzip2, xz and a zstd file read whole itself
    if dstart is not None:  # a group of a zstd file's frames (_zst_blocks)
        f = open(path, "rb")
        f.seek(start)
        src = _compressed.Decoded(f, "zstd", path)  # closes f
        start, end = dstart, dend
    try:
        rng = None if (start, end) == (0, 0) else (start, end)
        recs = [game_record(g) for g in _read(src, range=rng, where=where, encoding=encoding,
                                              line_base=line_base, member=member)]
        if dstart is not None:
            for r in recs:
                r["source"] = path  # a decoder's stream has no name
        return recs
    finally:
        if not isinstance(src, str):
            src.close()


DEFAULT_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteElo",
                "BlackElo", "ECO", "Opening", "TimeControl", "Termination", "Variant")
SUMMARY = ("source", "offset", "plies", "result", "final_fen", "broken", "errors")


def _frame_part(path, start, end, where, encoding, tags=DEFAULT_TAGS, dstart=None, dend=None,
                member=None):
    import pandas as pd

    rows = []
    for rec in _read_part(path, start, end, where, encoding, dstart, dend, member=member):
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
        dparts = [dict(dstart=b[2], dend=b[3]) if len(b) == 4 else
                  dict(member=b[2]) if len(b) == 3 else {} for b in blocks]
        members = len(blocks[0]) == 3  # each its own text: its lines count from 1
        counts = ([delayed(_block_breaks, pure=True)(path, b[0], b[1], **d)
                   for b, d in zip(blocks, dparts)] if lines and len(blocks) > 1 and not members
                  else [])
        base = 1
        for i, (b, d) in enumerate(zip(blocks, dparts)):
            if i > 0 and counts:
                base = delayed(_next_base, pure=True)(base, counts[i - 1], counts[i])
            kw = dict(d, line_base=base) if lines else d
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
