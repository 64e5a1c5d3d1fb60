# SPDX-License-Identifier: MIT
"""The Python findings of issue 36's security review, each as a test: a Board that never ran
Board.__init__ holds the start position (test_asan.py calls every method under ASan); one reader
is never run by two threads or re-entered from its file's read(); Ctrl-C stops check() and the
tag scan within a chunk, not at the end of the file; range= values are checked, never wrapped; file
names as bytes (an os.PathLike that gives bytes) and names that are not UTF-8 are read."""
import io
import os
import pathlib
import signal
import threading

import pytest

import pgnkit
from pgnkit import _pgnkit

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
PGN = (b'[Event "e"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n[WhiteElo "2600"]\n\n'
       b'1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
       b'[Event "f"]\n[White "C"]\n[Black "D"]\n[Result "*"]\n\n1. d4 Zz9 *\n')


def test_board_without_init():
    class NoInit(pgnkit.Board):
        def __init__(self):  # forgets super().__init__()
            pass

    for b in (NoInit(), pgnkit.Board.__new__(pgnkit.Board), _pgnkit.CBoard.__new__(NoInit)):
        assert b.fen() == START
        assert len(b.legal_moves()) == 20 and not b.is_check() and b.turn == "white"
        assert b.push_san("e4") == "e2e4"
        b.pop()
        with pytest.raises(IndexError):
            b.pop()


def test_board_init_refused_keeps_the_position():
    b = pgnkit.Board()
    b.push_san("e4")
    with pytest.raises(pgnkit.PgnError):
        b.__init__("8/8/8/8/8/8/8/KK6 w - - 0 1")  # two white kings
    assert b.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    b.__init__()
    assert b.fen() == START
    with pytest.raises(IndexError):  # a new position: no move to take back
        b.pop()


def test_games_cannot_be_made_empty():
    for make in (lambda: _pgnkit.CGame(), lambda: _pgnkit.CGame.__new__(_pgnkit.CGame)):
        with pytest.raises(TypeError):
            make()


class _Gate(io.RawIOBase):
    """A file object whose first read() once armed waits until released (another thread then
    runs). The reads before (the constructor's, which look at the first bytes for the format)
    pass."""

    def __init__(self, data):
        self.data, self.started, self.release, self.reader = data, threading.Event(), \
            threading.Event(), None
        self.armed = False

    def readable(self):
        return True

    def read(self, n=-1):
        if self.armed and not self.started.is_set():
            self.started.set()
            self.release.wait(30)
        n = 256 if n < 0 else min(n, 256)  # a pipe's short reads: the data lasts
        out, self.data = self.data[:n], self.data[n:]
        return out


def test_reader_refuses_a_second_thread():
    f = _Gate(PGN * 40)  # more than the constructor looks at: the reader reads on
    r = _pgnkit.Reader(f, "gate")
    assert f.data  # (else the thread would never call read())
    f.armed = True
    got = []
    t = threading.Thread(target=lambda: got.extend(rec.ordinal for rec in r))
    t.start()
    assert f.started.wait(30)
    for call in (lambda: next(r), r.check_all, r.trailing):
        with pytest.raises(RuntimeError, match="in use"):
            call()
    f.release.set()
    t.join(30)
    assert got == list(range(1, 81))  # the first thread read on, undisturbed


def test_reader_refuses_reentry_from_read():
    class Reenter(io.RawIOBase):
        def __init__(self):
            self.data, self.reader, self.refused = PGN, None, 0

        def readable(self):
            return True

        def read(self, n=-1):
            # (the first read comes from the constructor, which sniffs the format: no reader yet)
            for call in (lambda r: next(r), lambda r: r.check_all(), lambda r: r.tag_columns((), ())):
                try:
                    if self.reader is not None:
                        call(self.reader)
                except RuntimeError:
                    self.refused += 1
            out, self.data = self.data[:n], self.data[n:]
            return out

    f = Reenter()
    f.reader = r = _pgnkit.Reader(f, "re")
    assert [rec.ordinal for rec in r] == [1, 2]
    assert f.refused >= 3 and f.refused % 3 == 0


def test_scan_mode_read_ahead_is_not_skipped():
    """A tags-only reader reads games ahead for next(): a call that reads the rest at once would
    skip them, so it is refused until they are taken."""
    r = _pgnkit.Reader(PGN, "s", tags_only=True)
    assert next(r)["Event"] == "e"
    for call in (r.check_all, lambda: r.tag_columns((), ())):
        with pytest.raises(ValueError, match="ahead"):
            call()
    assert next(r)["Event"] == "f"
    assert r.check_all().games == 2


def _interrupted(tmp_path, data, call):
    """Runs call(fifo) while a thread writes data into the FIFO and sends SIGINT to this process
    once 2 MiB are written. Returns (bytes written, whether call raised KeyboardInterrupt): a call
    that honours Ctrl-C within a chunk stops reading, and the writer meets a broken pipe long before
    the end; one that waited for the end of its input would have read it all."""
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    written = [0]

    def feed():
        sent = False
        try:
            with open(fifo, "wb") as f:
                for i in range(0, len(data), 1 << 16):
                    f.write(data[i:i + (1 << 16)])
                    f.flush()
                    written[0] += len(data[i:i + (1 << 16)])
                    if written[0] >= 2 << 20 and not sent:
                        sent = True
                        os.kill(os.getpid(), signal.SIGINT)
        except BrokenPipeError:
            pass

    t = threading.Thread(target=feed)
    t.start()
    raised = False
    try:
        call(fifo)
    except KeyboardInterrupt:
        raised = True
    t.join(60)
    return written[0], raised


@pytest.mark.parametrize("how", ["Reader.check_all", "Reader.tag_columns", "check",
                                 "read_tags_frame"])
def test_ctrl_c_within_a_chunk(tmp_path, twic, how):
    with open(twic, "rb") as f:
        data = f.read() * 6  # 25 MB
    calls = {
        "Reader.check_all": lambda p: _pgnkit.Reader(p, p).check_all(),
        "Reader.tag_columns": lambda p: _pgnkit.Reader(p, p, tags_only=True).tag_columns((), ()),
        "check": pgnkit.check,  # a pipe: read through its file object
        "read_tags_frame": pgnkit.read_tags_frame,
    }
    written, raised = _interrupted(tmp_path, data, calls[how])
    assert raised
    assert written < len(data) // 2, (written, len(data))


@pytest.mark.parametrize("rng", [(-1, 10), (10, 5), (0, 1 << 64), (1 << 64, 0), (-5, None)])
def test_range_out_of_bounds(rng):
    for call in (lambda: list(pgnkit.read(PGN, range=rng)),
                 lambda: list(pgnkit.scan_tags(PGN, range=rng)),
                 lambda: pgnkit.read_tags_frame(PGN, range=rng)):
        with pytest.raises(ValueError, match="range"):
            call()


@pytest.mark.parametrize("rng", [(1.5, 3), ("a", 4), (1,), 5, (1, 2, 3)])
def test_range_not_offsets(rng):
    with pytest.raises(TypeError, match="range"):
        list(pgnkit.read(PGN, range=rng))


def test_range_end_none_reads_to_the_end():
    assert [g.ordinal for g in pgnkit.read(PGN, range=(0, None))] == [1, 2]
    assert [g.tags["Event"] for g in pgnkit.read(PGN, range=(1, None))] == ["f"]


def test_reader_numbers_never_wrap():
    for kw in (dict(range_start=-1), dict(range_end=1 << 64), dict(line_base=1 << 32),
               dict(line_base=-1)):
        with pytest.raises(OverflowError):
            _pgnkit.Reader(PGN, **kw)
    with pytest.raises(TypeError):
        _pgnkit.Reader(PGN, range_start=1.0)


def test_file_names_as_bytes_and_not_utf8(tmp_path):
    import gzip

    d = os.fsencode(str(tmp_path))
    plain = os.path.join(d, b"caf\xe9 \xff.pgn")  # Latin-1 bytes: not UTF-8
    with open(plain, "wb") as f:
        f.write(PGN)
    with open(os.path.join(d, b"gz\xe9.pgn.gz"), "wb") as f:
        f.write(gzip.compress(PGN))

    class BytesPath:
        def __init__(self, p):
            self.p = p

        def __fspath__(self):
            return self.p

    want = [g.tags["Event"] for g in pgnkit.read(PGN)]
    entries = sorted(os.scandir(d), key=lambda e: e.name)  # DirEntry: an os.PathLike of bytes
    assert len(entries) == 2
    for e in entries:
        name = os.fsdecode(e.path)
        for src in (e, BytesPath(e.path), name, pathlib.Path(name)):
            games = list(pgnkit.read(src))
            assert [g.tags["Event"] for g in games] == want
            assert games[0].source == name
            assert [t["Event"] for t in pgnkit.scan_tags(src)] == want
            assert list(pgnkit.read_tags_frame(src)["Event"]) == want
            report = pgnkit.check(src)
            assert report["games"] == 2 and report["errors"] == 1
            assert {d.source for d in report["diagnostics"]} == {name}
    name = os.fsdecode(plain)
    assert [t["Event"] for t in _pgnkit.Reader(name, name, tags_only=True)] == want
    got = _pgnkit.tag_columns(name, name, None, 0, 0, 1, 0, (), ())
    assert got.rows == 2
    with pytest.raises(FileNotFoundError):
        list(pgnkit.read(os.path.join(d, b"missing\xe9.pgn").decode("utf-8", "surrogateescape")))
