# SPDX-License-Identifier: MIT
"""read_tags_frame on several threads: a path or bytes cut into byte ranges, each read by its own
reader (the library's range semantics), gives the frame of one reader, or reads again with one
reader when the ranges cannot (issue 19)."""
import os

import pandas as pd
import pytest

import pgnkit

from conftest import edge_files, fuzz_files


def frame(src, jobs=1, part=0, guess=True):
    """(frame, parts) of pgnkit._tags_frame, the function under read_tags_frame."""
    return pgnkit._tags_frame(src, None, None, False, jobs, part, guess)


@pytest.mark.parametrize("jobs,part,guess", [(2, 4 << 20, True), (3, 1 << 20, False),
                                              (8, 256 << 10, False)])
def test_parts_equal_one_reader(book, twic, jobs, part, guess):
    """The book's names are CP437 (a part that begins with a name that cannot tell is read again
    from the state the parts before it left; guess=False starts every part from AUTO, as when
    all start at once) and TWIC's UTF-8; every cut lands where the parts agree, so no part falls
    back to one reader."""
    for path in (book, twic):
        want, one = frame(path)
        got, parts = frame(path, jobs, part, guess)
        n = min(4 * jobs, os.path.getsize(path) // part)  # up to 4 parts a thread
        assert (one, parts) == (1, n if n >= 2 else 1)
        pd.testing.assert_frame_equal(got, want)


def test_default_jobs_is_the_cores(twic):
    got = pgnkit.read_tags_frame(twic)
    pd.testing.assert_frame_equal(got, frame(twic)[0])
    if (os.cpu_count() or 1) > 1:
        assert pgnkit._tags_frame(twic, None, None, False, 2, 1 << 20)[1] >= 2


@pytest.mark.parametrize("path", edge_files() + fuzz_files(), ids=lambda p: os.path.basename(p))
def test_small_parts_of_odd_files(path):
    """Parts of 64 bytes over every edge and fuzz-regression file (broken games, comments, CRLF,
    encodings, tag-less games): the frame of one reader, whether the parts agreed or not."""
    want, _ = frame(path)
    data = open(path, "rb").read()
    for src in (path, data):
        got, parts = frame(src, 7, 64, False)
        assert 1 <= parts <= 28
        pd.testing.assert_frame_equal(got, want)


def filler(n, tag="Event"):
    return "".join(f'[{tag} "g{i}"]\n[Result "*"]\n\n1. e4 e5 *\n\n' for i in range(n))


def test_cp437_state_crosses_a_cut():
    """A name that tells CP437 (\\x81: ü) in the first half, one that cannot tell (\\xE1: CP437's
    ß, Windows-1252's á) in the second: the reader of the second half reads it again from CP437."""
    text = (filler(1) + '[White "Br\x81ssel"]\n\n*\n\n' + filler(400) +
            '[White "M\xe1laga"]\n\n*\n\n' + filler(10)).encode("latin-1")
    want, _ = frame(text)
    assert want["White"].iloc[-11] == "Mßlaga"
    for guess in (True, False):
        got, parts = frame(text, 2, len(text) // 2, guess)
        assert parts == 2
        pd.testing.assert_frame_equal(got, want)


def test_comment_with_bracket_lines_across_the_cut():
    """A comment holding lines that start with '[' (clocks, after empty lines too), and the cut
    inside it: such a line is no range boundary (not a tag pair), so the second reader starts at
    the next game and the two parts agree (before commit d717571 they did not, and one reader read all)."""
    inner = "".join(f"move {i}\n\n[%clk 0:{i % 60:02d}:00] and more\n" for i in range(300))
    text = (filler(200) + '[Event "long"]\n\n1. e4 {' + inner + '} e5 *\n\n' + filler(200)).encode()
    want, _ = frame(text)
    assert len(want) == 401
    cut = text.index(b"move 150")
    got, parts = frame(text, 2, cut)
    assert parts == 2
    pd.testing.assert_frame_equal(got, want)


def test_games_without_tags_across_the_cut():
    """Games without tags (a "1." after an empty line) around the cut: no range boundary, so the
    first reader reads them on past its end, up to the tag section where the second starts."""
    text = (filler(100) + "1. e4 e5 *\n\n" * 300 + filler(100)).encode()
    want, _ = frame(text)
    assert len(want) == 500
    got, parts = frame(text, 2, len(text) // 2)
    assert parts == 2
    pd.testing.assert_frame_equal(got, want)


def test_tag_section_split_by_an_empty_line():
    """The range semantics' caveat: [Event], an empty line, then tags the game lacks (ChessBase
    writes such files: python-chess-chessbase-empty-line.pgn) is one game, whose second tag line a
    range starting inside it takes for a boundary; the parts disagree, and one reader reads all."""
    game = '[Event "e{0}"]\n\n[Date "2017.12.04"]\n[Round "{0}"]\n\n1. e4 e5 *\n\n'
    text = "".join(game.format(i) for i in range(400)).encode()
    pad = len(text) - 2 * text.index(b'"e200"')  # a comment first, so that the middle cut is there
    text = b"{" + b"x" * (pad - 3) + b"}\n" + text
    assert text.index(b'"e200"') == len(text) // 2
    want, _ = frame(text)
    assert len(want) == 400 and want["Date"].notna().all()
    got, parts = frame(text, 2, len(text) // 2)
    assert parts == 1
    pd.testing.assert_frame_equal(got, want)


def test_range_is_cut_too(twic):
    """A range given to read_tags_frame is itself cut into parts: the same games as one reader of
    that range."""
    size = os.path.getsize(twic)
    for rng in ((0, size // 2), (size // 3, 0), (size // 4, size // 2)):
        want = pgnkit.read_tags_frame(twic, range=rng)
        got, parts = pgnkit._tags_frame(twic, None, rng, False, 3, 128 << 10)
        assert parts >= 2
        pd.testing.assert_frame_equal(got, want)


def test_read_bytes_range_equals_path(twic):
    """A range over bytes reads what the same range of the file reads (it read from byte 0)."""
    data = open(twic, "rb").read()
    mid = len(data) // 2
    for rng in ((0, mid), (mid, 0), (mid // 2, mid)):
        want = [g.tags for g in pgnkit.read(twic, range=rng)]
        assert [g.tags for g in pgnkit.read(data, range=rng)] == want
        assert list(pgnkit.scan_tags(data, range=rng)) == want


def test_take_objects_fills_by_code_and_refuses_bad_input():
    """_pgnkit.take_objects, which makes read_tags_frame's object columns: values by code, the
    missing object for -1, and errors (not a crash) for a code out of range, a length mismatch and
    an array that does not hold objects."""
    import numpy as np

    from pgnkit import _pgnkit

    out = np.empty(4, dtype=object)
    codes = np.array([1, -1, 0, 1], np.int32).tobytes()
    _pgnkit.take_objects(out, ["a", "b"], codes, np.nan)
    assert out[0] == "b" and out[2] == "a" and out[3] == "b" and out[1] is np.nan
    two = np.array([0, 1], np.int32).tobytes()
    with pytest.raises(ValueError):  # code 1 of one value
        _pgnkit.take_objects(np.empty(2, dtype=object), ["a"], two, None)
    with pytest.raises(ValueError):  # 3 items, 2 codes
        _pgnkit.take_objects(np.empty(3, dtype=object), ["a", "b"], two, None)
    with pytest.raises(TypeError):  # not objects
        _pgnkit.take_objects(np.empty(2, np.int64), ["a", "b"], two, None)
