# SPDX-License-Identifier: MIT
"""Calls every method of every type of pgnkit._pgnkit, on every kind of object the type can
produce, with good and bad arguments (issue 36: a Board subclass whose __init__ never called
Board's crashed the interpreter). test_asan.py runs this script with the extension built under
ASan+UBSan (make python-asan) and the sanitizer runtime preloaded: a memory error aborts it.
Python exceptions are expected and ignored; the script prints how many calls it made."""
import io
import os
import random
import sys
import threading

import pgnkit
from pgnkit import _pgnkit

GAMES = (b'[Event "a"]\n[White "W"]\n[Black "B"]\n[Result "1-0"]\n[WhiteElo "2700"]\n'
         b'[Date "2024.01.02"]\n\n'
         b'{start} 1. e4 $1 {[%clk 0:01:00] [%eval 0.3]} (1. d4 d5 (1... Nf6)) e5 2. Qh5 Nc6 '
         b'3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
         b'[FEN "8/8/8/8/8/8/8/K1k5 w - - 0 1"]\n[SetUp "1"]\n\n1. Kb1 *\n\n'
         b'1. e4 Ke7 2. Zz9 {broken} *\n\n\xff\xfe junk [ { ( ) \n')
ARGS = [(), ("e4",), ("e2e4",), ("e7e8q",), ("O-O",), ("",), ("\x00",), ("e4\x00x",),
        ("\udcff",), (None,), (0,), (-1,), (2 ** 70,), (15,), (4,), (255,), ("e4", "e5"),
        (b"e4",), ([],), ((), ()), ("WhiteElo", "Date"), (("WhiteElo",), ("Date",))]
FENS = [None, "", "x", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "bnrkqbnr/pppppppp/8/8/8/8/PPPPPPPP/BNRKQBNR w KQkq - 0 1", "\udcff", 5]
calls = 0


def methods(obj):
    """The names of obj's methods (its type's and its bases' in the extension), dunders left out
    but for __init__, __repr__ and __next__."""
    names = set()
    for t in type(obj).__mro__:
        names |= {n for n, v in vars(t).items() if callable(v) and not n.startswith("__")}
    return sorted(names) + ["__init__", "__repr__", "__next__", "__iter__"]


def call_all(obj, extra=()):
    global calls
    for name in methods(obj):
        f = getattr(obj, name, None)
        for args in list(ARGS) + list(extra):
            if f is None:
                break
            calls += 1
            try:
                f(*args)
            except Exception:
                pass
    for prop in ("turn",):
        try:
            getattr(obj, prop)
        except Exception:
            pass


class NoInit(pgnkit.Board):
    def __init__(self):  # never calls Board.__init__
        pass


class NoInitC(_pgnkit.CBoard):
    def __init__(self, *args):
        pass


def boards():
    yield NoInit()
    yield NoInitC()
    yield pgnkit.Board.__new__(pgnkit.Board)
    yield _pgnkit.CBoard.__new__(_pgnkit.CBoard)
    yield _pgnkit.CBoard.__new__(NoInit)
    for fen in FENS:
        for c960 in (False, True):
            try:
                yield pgnkit.Board(fen, c960)
            except Exception:
                pass
    b = pgnkit.Board()
    try:
        b.__init__("not a fen")  # refused: the position it had stays
    except Exception:
        pass
    assert b.fen().startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"), b.fen()
    yield b


def play_out(b, rnd):
    """Random legal moves to the end, then every move taken back, and once more."""
    global calls
    n = 0
    while n < 300:
        moves = b.legal_moves()
        if not moves:
            break
        m = rnd.choice(moves)
        san = b.san(m)
        assert b.uci(san) == m, (b.fen(), m, san)
        b.push_uci(m)
        b.state()
        b.polyglot_key()
        n += 1
    for _ in range(n + 1):
        calls += 1
        try:
            b.pop()
        except IndexError:
            pass


def games():
    out = []
    for src in (GAMES, GAMES * 3):
        out += [g._c for g in pgnkit.read(src)]
        out += [g._c for g in pgnkit.read(src, where="WhiteElo >= 2600")]
    for make in (lambda: _pgnkit.CGame(), lambda: _pgnkit.CGame.__new__(_pgnkit.CGame)):
        try:
            out.append(make())
        except TypeError:
            pass
    return out


class BadFile(io.RawIOBase):
    """A file object whose read() fails, returns str, returns too much, or calls its reader: from
    the first read (early: the constructor's, which looks at the first bytes for the format), or
    once the reader is made."""

    def __init__(self, how, early=False):
        self.how, self.reader, self.n, self.early = how, None, 0, early

    def readable(self):
        return True

    def read(self, n=-1):
        self.n += 1
        bad = self.early or self.reader is not None
        if self.how == "raise" and bad:
            raise OSError("disk on fire")
        if self.how == "str" and bad:
            return "text"
        if self.how == "big" and bad:
            return b"x" * (n + 10)
        if self.how == "reenter" and self.reader is not None:
            for f in (lambda r: next(r), lambda r: r.check_all(), lambda r: r.trailing(),
                      lambda r: r.tag_columns((), ())):
                try:
                    f(self.reader)
                    raise AssertionError("a reader called from its file's read() ran")
                except RuntimeError:
                    pass
        return GAMES[:n] if self.n == 1 or (self.reader is None and self.n < 4) else b""


def scan_mode():
    """Scan mode's batches (64 games) and caches, with the dicts emptied as they come."""
    for src in (GAMES * 300, GAMES * 2):
        n = 0
        for d in _pgnkit.Reader(src, "s", tags_only=True):
            d.clear()
            d["x"] = n
            n += 1
        assert n == 4 * len(src) // len(GAMES) or n > 0


def readers():
    kinds = [GAMES, GAMES * 300, b"", b"\xff\xfe[\x00", os.devnull, __file__]
    for src in kinds:
        for tags_only in (False, True):
            for rng in ((0, 0), (5, 0), (5, 40), (1 << 40, 0), (40, 5)):
                for where in (None, "WhiteElo >= 2600", "at (Pd4"):
                    try:
                        yield _pgnkit.Reader(src, "n", None, False, tags_only, rng[0], rng[1],
                                             where, 7)
                    except Exception:
                        pass
    for bad in (dict(range_start=-1), dict(range_end=1 << 64), dict(line_base=1 << 32),
                dict(encoding="ebcdic"), dict(encoding=3), dict(name=5), dict(line_base=-1)):
        try:
            _pgnkit.Reader(GAMES, **bad)
            raise AssertionError(f"Reader took {bad}")
        except (TypeError, ValueError, OverflowError):
            pass
    for how in ("raise", "str", "big"):
        try:
            _pgnkit.Reader(BadFile(how, early=True), "f")
            raise AssertionError(f"Reader took a file whose first read() does {how}")
        except (OSError, TypeError):
            pass
    for how in ("raise", "str", "big", "reenter"):
        for tags_only in (False, True):
            f = BadFile(how)
            r = _pgnkit.Reader(f, "f", tags_only=tags_only)
            f.reader = r
            yield r


def two_threads():
    """A second thread on a reader that is reading is refused. The file's reads pass in pieces
    of 256 bytes until armed (the constructor's look at the first bytes), then the first one waits
    until released."""
    started, release, armed = threading.Event(), threading.Event(), threading.Event()
    data = [GAMES * 40]

    class Slow(io.RawIOBase):
        def readable(self):
            return True

        def read(self, n=-1):
            if armed.is_set() and not started.is_set():
                started.set()
                release.wait(10)
            n = 256 if n < 0 else min(n, 256)
            out, data[0] = data[0][:n], data[0][n:]
            return out

    r = _pgnkit.Reader(Slow(), "slow")
    assert data[0], "the constructor read it all: the thread would never call read()"
    armed.set()
    t = threading.Thread(target=lambda: list(r))
    t.start()
    started.wait(10)
    refused = 0
    for f in (lambda: next(r), r.check_all, r.trailing):
        try:
            f()
        except RuntimeError:
            refused += 1
    release.set()
    t.join()
    assert refused == 3, refused


def module_functions():
    global calls
    for f in (_pgnkit.status_message, _pgnkit.version):
        for args in ARGS:
            calls += 1
            try:
                f(*args)
            except Exception:
                pass
    good = dict(source=GAMES, name="b", encoding=None, range_start=0, range_end=0, jobs=2,
                part_bytes=64, int_tags=("WhiteElo",), date_tags=("Date",))
    for change in ({}, dict(source=__file__), dict(source="/nonexistent"), dict(source=5),
                   dict(range_start=-1), dict(range_end=3), dict(jobs=-5), dict(jobs=64),
                   dict(part_bytes=1), dict(int_tags=5), dict(encoding="cp437"),
                   dict(source=GAMES * 200, part_bytes=1 << 10), dict(name="\udcff")):
        calls += 1
        try:
            _pgnkit.tag_columns(**dict(good, **change))
        except Exception:
            pass


def main():
    rnd = random.Random(36)
    for b in boards():
        call_all(b, [(f,) for f in FENS] + [(f, True) for f in FENS])
        play_out(b, rnd)
    for g in games():
        call_all(g)
    for r in readers():
        call_all(r)
    two_threads()
    scan_mode()
    module_functions()
    print(f"pgnkit asan methods: ok, {calls} calls; extension {_pgnkit.__file__}")


if __name__ == "__main__":
    sys.exit(main())
