# SPDX-License-Identifier: MIT
"""pgnkit: read, check and write chess games in PGN, at C speed (a binding of libpgnkit).

    import pgnkit
    for game in pgnkit.read("games.pgn"):
        print(game.tags["White"], game.result, game.moves[:4])

See docs/python.md for the API and a migration table from python-chess.
"""
import itertools
import operator
import os
import queue
import threading

from . import _pgnkit
from ._pgnkit import CompressedError, PgnError
from . import db  # noqa: E402 (pgnkit.db.open: the game database, issue 30)

__all__ = ["Games", "read", "scan_tags", "read_tags_frame", "check", "Board", "Game", "Diagnostic",
           "PgnError", "CompressedError", "version"]

# PgnError(message, code, severity, what): a ValueError that carries the diagnostic.
PgnError.message = property(lambda self: self.args[0] if self.args else "")
PgnError.code = property(lambda self: self.args[1] if len(self.args) > 1 else None)
PgnError.severity = property(lambda self: self.args[2] if len(self.args) > 2 else "error")
PgnError.token = property(lambda self: self.args[3] if len(self.args) > 3 else None)
PgnError.__str__ = lambda self: (f"{self.args[0]}: {self.args[3]} [{self.args[1]}]"
                                 if len(self.args) == 4 else str(self.args[0]))


def version():
    """The version of the C library."""
    return _pgnkit.version()


class Diagnostic(tuple):
    """One problem the reader found: code, severity, line, column, offset, game, token,
    suggestions, replacement (then source, for check()'s and Games.trailing's); message;
    as_dict(), to_json()."""
    __slots__ = ()
    _fields = ("code", "severity", "line", "column", "offset", "game", "token", "suggestions",
               "replacement")
    code = property(lambda self: self[0])
    severity = property(lambda self: self[1])
    line = property(lambda self: self[2])
    column = property(lambda self: self[3])
    offset = property(lambda self: self[4])
    game = property(lambda self: self[5])
    token = property(lambda self: self[6])
    # a move that cannot be played: the legal moves likely meant, best first (docs/repair.md);
    # W_REPAIRED_MOVE (fix=True): the move played for token
    suggestions = property(lambda self: self[7])
    replacement = property(lambda self: self[8])
    # check()'s and read().trailing's diagnostics name their text: the file, or "ARCHIVE(MEMBER)"
    # (None in a Game's diagnostics: the Game's source names it)
    source = property(lambda self: self[9] if len(self) > 9 else None)

    @property
    def message(self):
        return _pgnkit.status_message(self[0])

    def as_dict(self):
        d = dict(zip(self._fields, self))
        d["message"] = self.message
        return d

    def to_json(self):
        """The diagnostic as one line of `pgnkit check --diag json` gives it, without the newline
        (docs/diagnostics.schema.json): the C library's one JSON form of a diagnostic."""
        return _pgnkit.diag_json(self.code, self.severity, self.line, self.column, self.offset,
                                 self.game, self.token, tuple(self.suggestions or ()),
                                 self.replacement, self.source)

    def __repr__(self):
        return (f"Diagnostic({self.code}, {self.severity}, {self.line}:{self.column}, "
                f"game {self.game}, {self.token!r})")

    @classmethod
    def of(cls, rec, source=None):
        """The Diagnostic of the extension's DiagRecord rec; source names its text (check() and
        Games.trailing give it, a Game's diagnostics leave it out)."""
        fields = (rec.code, rec.severity, rec.line, rec.column, rec.offset, rec.game, rec.token,
                  rec.suggestions, rec.replacement)
        return cls(fields if source is None else fields + (source,))


class Game:
    """A game read by pgnkit. The C game tree stays behind it; lists are computed when first asked
    for. Attributes: tags (dict in file order), result, moves (SAN), uci, comments, nags, clocks
    (seconds), evals (("cp", n) or ("mate", n)), variations, diagnostics, ordinal, offset, length,
    broken; methods fens(), to_pgn(), to_json()."""

    __slots__ = ("_c", "_tags", "_line", "diagnostics", "ordinal", "offset", "length", "broken",
                 "source")

    def __init__(self, rec, source=None):
        """rec: the extension's GameRecord of the game."""
        self._c = rec.game
        self._tags = None
        self._line = None
        self.diagnostics = [Diagnostic.of(d) for d in rec.diagnostics]
        self.ordinal = rec.ordinal
        self.offset = rec.offset
        self.length = rec.end - rec.offset
        self.broken = rec.broken
        self.source = source

    @property
    def tags(self):
        if self._tags is None:
            self._tags = self._c.tags()
        return self._tags

    @property
    def result(self):
        return self._c.result()

    # the parts of a main line (the fields of _pgnkit.MainLine): the bit that makes each
    _BITS = {"san": 1, "uci": 2, "fens": 4, "comments": 8, "nags": 8, "clocks": 8, "evals": 8}

    def _part(self, name):
        """A part of the main line, made in C the first time it is asked for (the SAN alone for
        moves; the comments, NAGs, clocks and evals together)."""
        line = self._line
        if line is None:
            self._line = line = {}
        if name not in line:
            got = self._c.mainline(self._BITS[name])
            line.update((n, getattr(got, n)) for n in self._BITS if getattr(got, n) is not None)
        return line[name]

    moves = property(lambda self: self._part("san"), doc="main-line moves in SAN")
    uci = property(lambda self: self._part("uci"), doc="main-line moves in UCI")
    comments = property(lambda self: self._part("comments"),
                        doc="per ply: the comment after the move")
    nags = property(lambda self: self._part("nags"), doc="per ply: a tuple of NAGs")
    clocks = property(lambda self: self._part("clocks"),
                      doc="per ply: [%clk] in seconds, or None")
    evals = property(lambda self: self._part("evals"), doc="per ply: [%eval] as (kind, value)")
    plies = property(lambda self: len(self._line["uci"] if self._line and "uci" in self._line
                                      else self._part("san")))

    @property
    def game_comment(self):
        return self._c.game_comment()

    @property
    def variations(self):
        """[(ply, [SAN...])]: each alternative to the main-line move of that ply (1-based)."""
        return self._c.variations()

    @property
    def start_fen(self):
        return self._c.start_fen()

    @property
    def final_fen(self):
        """The FEN after the last main-line move."""
        return self._c.final_fen()

    def fens(self):
        """Yields the FEN of the start position, then after every main-line ply."""
        yield self._c.start_fen()
        yield from self._c.mainline(4).fens

    def to_pgn(self):
        """The game in PGN export format (what `pgnkit fmt` writes)."""
        return self._c.to_pgn()

    def to_json(self):
        """The game as one line of pgnkit JSON (docs/json-format.md)."""
        return self._c.to_json()

    def __repr__(self):
        t = self.tags
        return (f"<Game {self.ordinal}: {t.get('White', '?')} - {t.get('Black', '?')} "
                f"{self.result}, {self.plies} plies>")


def _source(src):
    """(source for the C reader, its name): a path is a str or an os.PathLike (whose path may be
    bytes: os.scandir(b"...")), opened by the extension by its bytes (a name that is not UTF-8 is
    named as os.fsdecode gives it); bytes; or a binary file object. What the bytes hold (plain
    text, gzip, zstd, bzip2, xz, an archive) the C source layer tells by their first bytes."""
    if isinstance(src, (bytes, bytearray, memoryview)):
        return bytes(src), "<bytes>"
    if isinstance(src, (str, os.PathLike)):
        return src, os.fsdecode(os.fspath(src))
    if hasattr(src, "read"):
        name = getattr(src, "name", None)  # an int for a file opened on a descriptor
        return src, os.fsdecode(name) if isinstance(name, (str, bytes)) else "<stream>"
    raise TypeError("pgnkit: a path, bytes or a binary file object is expected")


def _is_archive(fmt):
    return fmt.endswith(" archive")  # the source layer's "a zip archive", "a tar archive"...


def _readers(source, member=None, range=None, **kw):
    """A _pgnkit.Reader over each text of source: itself, or each *.pgn member of an archive
    (named ARCHIVE(MEMBER), its lines and games counted from 1), or only the member named member.
    kw: the Reader's options. range= cuts a plain file anywhere, a zstd file at its frames."""
    src, name = _source(source)
    r = _pgnkit.Reader(src, name, **kw)
    fmt = r.source_format()
    if range is not None and _is_archive(fmt):
        raise ValueError(f"{name}: range= reads a plain file or a zstd file's frames; "
                         f"this is {fmt}")
    if member is not None and not _is_archive(fmt):
        raise ValueError(f"{name}: member= names a member of an archive (zip, tar, 7z, RAR); "
                         "this is none")
    found = False
    while r is not None:
        text = r.name()
        if member is None or text == f"{name}({member})":
            found = True
            yield r, text
        if not _is_archive(fmt) or r.next_member() is None:
            break
    if member is not None and not found:
        raise CompressedError(f"{name}: no member named {member} in {fmt}")


def _byte_range(range):
    """range= as (start, end) for the C reader (end 0: to the end of the text): two integers with
    0 <= start <= end < 2**64, or end 0 or None for the rest of the text; ValueError otherwise
    (a negative or too large offset never wraps around)."""
    if range is None:
        return 0, 0
    try:
        start, end = range
        start = operator.index(start)
        end = 0 if end is None else operator.index(end)
    except (TypeError, ValueError):
        raise TypeError(f"pgnkit: range= takes (start, end), two byte offsets; got {range!r}") \
            from None
    if not 0 <= start < 1 << 64 or not 0 <= end < 1 << 64 or (end and end < start):
        raise ValueError(f"pgnkit: range=({start}, {end}): byte offsets need 0 <= start <= end "
                         "< 2**64 (end 0 or None: to the end of the text)")
    return start, end


def _where(where):
    """where= as (expression for the C reader, Python predicate): a str is an expression of the
    selection language (docs/query.md), run in C while reading; a callable is a predicate of a
    Game."""
    if where is None:
        return None, None
    if isinstance(where, str):
        return where, None
    if callable(where):
        return None, where
    raise TypeError("pgnkit: where= takes a query expression (str) or a function of a Game")


def breaks(data):
    """(line breaks, starts with LF, ends with CR) of bytes: LF, CRLF and a lone CR are one break
    each, as pgnkit counts lines. Summed over consecutive pieces, a CRLF cut between two pieces
    (one ends with CR, the next starts with LF) counts twice: take one off for each."""
    return (data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n"), data[:1] == b"\n",
            data[-1:] == b"\r")


def _chunks(f, left=None):
    """The bytes of a binary file object in chunks of 4 MiB, at most left bytes (None: all)."""
    while left is None or left > 0:
        chunk = f.read(1 << 22 if left is None else min(1 << 22, left))
        if not chunk:
            return
        left = None if left is None else left - len(chunk)
        yield chunk


def _sum_breaks(chunks):
    """breaks() of the concatenated chunks (a CRLF cut between two chunks is one break)."""
    n, first, last = 0, None, False
    for chunk in chunks:
        k, lf_first, cr_last = breaks(chunk)
        n += k - (last and lf_first)
        first = lf_first if first is None else first
        last = cr_last
    return n, bool(first), last


def line_of(source, at):
    """The line number of byte `at` of a path or bytes (the LF of a CRLF is on the CR's line): the
    line_base a range starting there needs for true line numbers."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        n, _, _ = breaks(data[:at])
        return 1 + n - (data[at - 1:at + 1] == b"\r\n" if at > 0 else 0)
    with open(os.fspath(source), "rb") as f:
        n, _, cr_last = _sum_breaks(_chunks(f, at))
        return 1 + n - (cr_last and f.read(1) == b"\n")


class Games:
    """What read() returns: an iterator of Games in file order. trailing: the diagnostics that
    belong to no game (text after the last game, or in a range= that holds no game), as Diagnostic
    with their source, complete once the iterator has ended; strict=True raises PgnError for an
    error among them."""

    def __init__(self, gen, trailing):
        self._gen, self.trailing = gen, trailing

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._gen)

    def close(self):
        """Stops reading (what a file or decoder read opened is closed)."""
        self._gen.close()


def read(source, *, encoding=None, strict=False, where=None, range=None, line_base=None,
         member=None, threads=1, fix=False):
    """An iterator of Games (Games) from a path, bytes or a binary file object. strict:
    import-format quirks are errors and a broken game raises PgnError. where: a query expression
    such as "WhiteElo >= 2600 and at (Pd4 and Pe5)" (docs/query.md; ValueError if it does not
    compile), or a predicate of a Game. range: (start, end) byte offsets of a plain file: the
    games of that range (the library's range semantics; a zstd file's at its frames). line_base:
    the line number of byte start, for true line numbers in diagnostics; counted by the C source
    layer when not given (a file object's lines count from 1 at start). member: of an archive,
    read only the member of that name. threads: read on that many threads (0: one per core) by
    the library's parallel reader, the same games in the same order (where= as an expression,
    range= and line_base= read on one). fix: a move that cannot be played is replaced by the one
    clearly meant (W_REPAIRED_MOVE; docs/repair.md). The diagnostics that belong to no game are
    in the iterator's trailing list."""
    start, end = _byte_range(range)
    expr, pred = _where(where)
    trailing = []
    threads = operator.index(threads)
    if threads < 0:
        raise ValueError(f"pgnkit: threads={threads}: a number of threads (0: one per core)")
    gen = _read(source, encoding, strict, expr, pred, range, start, end, line_base or 0, member,
                trailing, threads, fix)
    return Games(gen, trailing)


def _raise_first_error(diagnostics, name):
    first = next(d for d in diagnostics if d.severity == "error")
    raise PgnError(first.message, first.code, "error",
                   f"{name}:{first.line}:{first.column}: {first.token}")


def _parallel(r, threads):
    """The GameRecords of Reader r read on threads by the C parallel reader (Reader.parallel), run
    on a thread of its own that hands them over through a bounded queue; closing the generator
    stops the read."""
    q, stop, done = queue.Queue(256), threading.Event(), object()

    def put(rec):
        while not stop.is_set():
            try:
                q.put(rec, timeout=0.1)
                return True
            except queue.Full:
                pass
        return False

    def run():
        try:
            r.parallel(threads, put)
            put((done, None))
        except BaseException as e:  # given to the reading thread
            put((done, e))

    t = threading.Thread(target=run, name="pgnkit-parallel", daemon=True)
    t.start()
    try:
        while True:
            item = q.get()
            if isinstance(item, tuple) and item[0] is done:
                if item[1] is not None:
                    raise item[1]
                return
            yield item
    finally:
        stop.set()
        while t.is_alive():
            try:
                q.get(timeout=0.05)
            except queue.Empty:
                pass


def _read(source, encoding, strict, expr, pred, range, start, end, line_base, member, trailing,
          threads=1, fix=False):
    """read()'s generator; appends the diagnostics after each text's last game to trailing."""
    for r, name in _readers(source, member, range, encoding=encoding, strict=strict,
                            range_start=start, range_end=end, where=expr, line_base=line_base,
                            fix=fix):
        one = threads == 1 or expr is not None or range is not None or line_base
        for rec in r if one else _parallel(r, threads):  # ordinals from 1 in each member
            g = Game(rec, name)
            if strict and rec.errors:
                _raise_first_error(g.diagnostics, name)
            if rec.game is not None and (pred is None or pred(g)):
                yield g
        after = [Diagnostic.of(d, name) for d in r.trailing()]
        trailing += after
        if strict and any(d.severity == "error" for d in after):
            _raise_first_error(after, name)


def scan_tags(source, *, encoding=None, range=None):
    """The tags of every game as dicts, in file order, without resolving a move (fast)."""
    # the readers' dicts handed on by chain's C loop: a generator's yield from would add a
    # frame resume a game (issue 29 point 4); errors still come at the first next()
    return itertools.chain.from_iterable(_tag_readers(source, encoding, range))


def _tag_readers(source, encoding, range):
    start, end = _byte_range(range)
    for r, _ in _readers(source, None, range, encoding=encoding, tags_only=True,
                         range_start=start, range_end=end):
        yield r


_INT_TAGS = ("WhiteElo", "BlackElo", "PlyCount", "WhiteRatingDiff", "BlackRatingDiff",
             "WhiteFideId", "BlackFideId")
_DATE_TAGS = ("Date", "UTCDate", "EventDate")


def tags_frame(rows):
    """A pandas DataFrame of tag dicts with typed columns: Elo and counts as nullable integers,
    Date/UTCDate/EventDate as datetimes where the date is complete (NaT where it has ??)."""
    import pandas as pd

    df = pd.DataFrame.from_records(list(rows))
    for col in df.columns:
        if col in _INT_TAGS:
            df[col] = pd.to_numeric(df[col], errors="coerce").astype("Int64")
        elif col in _DATE_TAGS:
            df[col] = _dates(df[col])
    return df


# a complete date: what datetime.strptime(value, "%Y.%m.%d") accepts (pandas 1.5's to_datetime
# with that format also takes "2011" as 2011-01-01)
_DATE_RE = r"([0-9]{4})\.(1[0-2]|0?[1-9])\.(3[01]|[12][0-9]|0?[1-9]| [1-9])"


def _dates(col):
    """A column of PGN dates as datetime64[ns]: NaT where the date is not complete, not a real
    day, or outside what datetime64[ns] holds."""
    import warnings

    import pandas as pd

    ymd = col.astype("string").str.extract("^" + _DATE_RE + "$")
    ymd = ymd.apply(lambda s: pd.to_numeric(s.str.strip(), errors="coerce"))
    ymd.columns = ["year", "month", "day"]
    with warnings.catch_warnings():  # pandas casts the NaN of a missing date: said, not wrong
        warnings.simplefilter("ignore", RuntimeWarning)
        return pd.to_datetime(ymd, errors="coerce")


def read_tags_frame(source, *, encoding=None, range=None, categorical=False, jobs=None):
    """The tags of every game straight into a pandas DataFrame, a row per game and a column per tag
    name (in order of first appearance), typed as tags_frame types them: Elo and counts as nullable
    Int64 (missing where the value is not a decimal integer), Date/UTCDate/EventDate as datetimes
    where complete. The C scan builds the columns without the GIL: each distinct value becomes one
    str, a column is an array of codes into them (categorical=True: pandas Categoricals, else
    object columns sharing those strs), integers and dates are numpy arrays. A path or bytes of at
    least 8 MiB is read in byte ranges on jobs threads (default: the number of cores; 1 when range
    is given, as a Dask task's is), with the same result as one reader's."""
    _byte_range(range)
    if jobs is None:
        jobs = 1 if range is not None else (os.cpu_count() or 1)
    return _tags_frame(source, encoding, range, categorical, jobs, 4 << 20)[0]


def _tags_frame(source, encoding, range, categorical, jobs, part_bytes, guess=True):
    """read_tags_frame with its parts of at least part_bytes: (frame, number of parts read).
    guess=False: every part but the first starts in the encoding state AUTO (tests)."""
    import pandas as pd

    start, end = _byte_range(range)
    frames, parts = [], 0
    for r, name in _readers(source, None, range, encoding=encoding, tags_only=True,
                            range_start=start, range_end=end):
        if isinstance(source, (str, bytes, os.PathLike)) and r.source_format() == "plain":
            src, _ = _source(source)  # plain text: read in byte ranges on jobs threads
            got = _pgnkit.tag_columns(src, name, encoding, start, end, jobs, part_bytes,
                                      _INT_TAGS, _DATE_TAGS, guess)
        else:
            got = r.tag_columns(_INT_TAGS, _DATE_TAGS)
        frames.append(_frame_of(got, categorical))
        parts += got.parts
    if len(frames) == 1:
        return frames[0], parts
    return pd.concat(frames, ignore_index=True), parts  # an archive's members: one frame


def _frame_of(got, categorical):
    """The DataFrame of the C scan's columns (a TagColumns record; _tags_frame)."""
    import numpy as np
    import pandas as pd

    data = {}
    for col in got.columns:
        if col.kind == "i":
            data[col.name] = pd.arrays.IntegerArray(np.frombuffer(col.data, np.int64),
                                                    np.frombuffer(col.mask, np.bool_))
        elif col.kind == "d":
            data[col.name] = np.frombuffer(col.data, "M8[ns]")  # made in ns in C: no pass
        elif categorical and len(set(col.values)) == len(col.values):
            data[col.name] = pd.Categorical.from_codes(np.frombuffer(col.data, np.int32),
                                                       col.values)
        else:  # the strs by code, in C (numpy's take of objects costs several times as much):
            # NaN where the code is -1 (no such tag in that game)
            data[col.name] = out = np.empty(got.rows, dtype=object)
            _pgnkit.take_objects(out, col.values, col.data, np.nan)
    # copy=False: each column stays its own block (pandas would copy the object columns into one)
    return pd.DataFrame(data, index=pd.RangeIndex(got.rows), copy=False)


def check(source, *, encoding=None, strict=False, fix=False):
    """Checks every game: {"games", "errors", "warnings", "diagnostics": [Diagnostic]} (each
    diagnostic's source names its file, or an archive's member as "ARCHIVE(MEMBER)"). fix: as
    read()'s, reports what would be repaired."""
    out = {"games": 0, "errors": 0, "warnings": 0, "diagnostics": []}
    for r, name in _readers(source, encoding=encoding, strict=strict, fix=fix):
        got = r.check_all()
        # game numbers count from 1 in each member, as the program's do in each file
        out["diagnostics"] += [Diagnostic.of(d, name) for d in got.diagnostics]
        out["games"] += got.games
        out["errors"] += got.errors
        out["warnings"] += got.warnings
    return out


class Board(_pgnkit.CBoard):
    """A position over pgnkit's rules core: Board(fen=None, chess960=False).
    fen(), legal_moves() (UCI), push_san(san) -> uci, push_uci(uci) -> san, san(uci), uci(san),
    pop(), turn, is_check(), is_checkmate(), is_stalemate(), is_insufficient_material()."""

    @property
    def turn(self):
        return self.state()["turn"]

    def is_check(self):
        return self.state()["check"]

    def is_checkmate(self):
        return self.state()["checkmate"]

    def is_stalemate(self):
        return self.state()["stalemate"]

    def is_insufficient_material(self):
        return self.state()["insufficient_material"]

    def __repr__(self):
        return f"Board({self.fen()!r})"
