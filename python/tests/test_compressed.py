# SPDX-License-Identifier: MIT
"""Compressed sources in Python, recognised by their first bytes as the program recognises them
(issues 16 and 19): gzip, zstd (one frame, several, a leading skippable frame), bzip2 and xz read
as the plain text, from a path, bytes or a file object; the games before a cut or a corrupt block
are given (as many as `pgnkit check` counts) and then CompressedError; zip and tar archives (a
compressed tar too) give each *.pgn member as the program does; 7z, RAR and data compressed twice
are refused with what to do."""
import bz2
import gzip
import io
import lzma
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import threading
import zipfile

import pytest

import pgnkit
import pgnkit.dask as pkd

from conftest import CORPUS, zstd


def zstd_frames(data, cuts=5):
    """data as a skippable frame then `cuts` zstd frames (as pzstd and the lichess files are)."""
    out = struct.pack("<II", 0x184D2A50, 4) + b"pgnk"
    step = len(data) // cuts + 1
    for i in range(0, len(data), step):
        out += zstd(data[i:i + step])
    return out


def two_members(compress, data):
    """data compressed as two members (gzip) or streams (bzip2, xz), cut inside a game."""
    half = len(data) // 2 + 7
    return compress(data[:half]) + compress(data[half:])


FORMATS = {
    "gz": lambda d: two_members(gzip.compress, d),
    "bz2": lambda d: two_members(bz2.compress, d),
    "xz": lambda d: two_members(lzma.compress, d),
    "zst": zstd,
    "zst-frames": zstd_frames,
}


@pytest.fixture(scope="module")
def packed(twic, tmp_path_factory):
    """{format: path} of TWIC 1427 compressed each way, named .dat (the name says nothing)."""
    d = tmp_path_factory.mktemp("packed")
    data = open(twic, "rb").read()
    out = {}
    for fmt, compress in FORMATS.items():
        p = d / f"{fmt}.dat"
        p.write_bytes(compress(data))
        out[fmt] = str(p)
    return out


def games(src):
    return [(g.offset, g.to_pgn(), [tuple(x) for x in g.diagnostics]) for g in pgnkit.read(src)]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_same_games_as_the_plain_text(fmt, packed, twic):
    want = games(twic)
    assert len(want) == 4742
    path = packed[fmt]
    assert games(path) == want
    assert games(open(path, "rb").read()) == want
    with open(path, "rb") as f:
        assert games(f) == want
    with open(path, "rb") as f:  # a file object that cannot peek: seek tells the format
        assert games(io.BytesIO(f.read())) == want
    assert pgnkit.check(path) == pgnkit.check(twic)
    assert list(pgnkit.scan_tags(path)) == list(pgnkit.scan_tags(twic))
    assert pgnkit.read_tags_frame(path).equals(pgnkit.read_tags_frame(twic))


@pytest.mark.parametrize("name", ["gnuchess-book_1.02.pgn.gz", "twic/twic1428.pgn.gz",
                                  "pgnmentor-players/Capablanca.pgn.gz"])
def test_corpus_gz_equals_the_program(name, pgnkit_bin, tmp_path):
    """The corpus's own .gz files: the diagnostics (line, column, code) and the game count of
    `pgnkit check` on the same file; `fmt` of the decoded text equals to_pgn."""
    path = os.path.join(CORPUS, "big", name)
    if "gnuchess" in name and not os.environ.get("PGNKIT_SLOW"):
        path = str(tmp_path / "head.pgn.gz")  # its first 8 MB in make check, whole in check-slow
        with gzip.open(os.path.join(CORPUS, "big", name)) as f:
            head = f.read(8 << 20)
        with gzip.open(path, "wb") as f:
            f.write(head)
    report = pgnkit.check(path)
    run = subprocess.run([pgnkit_bin, "check", "--diag", "json", path], capture_output=True)
    import json

    cli = [json.loads(x) for x in run.stderr.decode("utf-8", "replace").splitlines()
           if x.startswith("{")]
    assert [(d.line, d.column, d.code) for d in report["diagnostics"]] == \
        [(d["line"], d["column"], d["code"]) for d in cli if "code" in d]
    assert report["games"] == sum(1 for _ in pgnkit.scan_tags(path))
    fmt = subprocess.run([pgnkit_bin, "fmt", path], capture_output=True).stdout.decode("utf-8")
    assert "".join(g.to_pgn() for g in pgnkit.read(path) if not g.broken) == fmt


def cli_games(pgnkit_bin, path):
    """(games `pgnkit check` counts, its message about the compressed data)."""
    err = subprocess.run([pgnkit_bin, "check", path], capture_output=True).stderr.decode()
    lines = err.strip().splitlines()
    return int(lines[-1].split()[0]), lines[-2]


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("frac", [0.3, 0.77, 0.999])
def test_cut_short(fmt, frac, packed, twic, pgnkit_bin, tmp_path):
    data = open(packed[fmt], "rb").read()
    path = str(tmp_path / "cut.dat")
    open(path, "wb").write(data[:int(len(data) * frac)])
    got = []
    with pytest.raises(pgnkit.CompressedError, match=r"cut\.dat: truncated .* data: the file ends at byte") as e:
        for g in pgnkit.read(path):
            got.append(g.to_pgn())
    assert isinstance(e.value, ValueError)
    n, msg = cli_games(pgnkit_bin, path)
    assert "truncated" in msg
    assert len(got) == n > 0
    assert got == [g.to_pgn() for g in pgnkit.read(twic)][:n]
    with pytest.raises(pgnkit.CompressedError):
        pgnkit.read_tags_frame(path)


@pytest.mark.parametrize("fmt", ["gz", "zst", "xz", "bz2"])
def test_corrupt(fmt, packed, pgnkit_bin, tmp_path):
    data = bytearray(open(packed[fmt], "rb").read())
    at = len(data) // 2
    data[at:at + 64] = bytes(64)
    path = str(tmp_path / "bad.dat")
    open(path, "wb").write(data)
    n = 0
    with pytest.raises(pgnkit.CompressedError, match=r"bad\.dat: (corrupt|cut short) "):
        for _ in pgnkit.read(path):
            n += 1
    cli, msg = cli_games(pgnkit_bin, path)
    assert "corrupt" in msg or "truncated" in msg
    assert 0 < n <= cli  # each decoder stops at its own step: never a game the program lacks


def test_refused(twic, tmp_path):
    data = open(twic, "rb").read()
    # a 7z archive is read by libarchive, as the program reads it: this one holds nothing
    with pytest.raises(pgnkit.CompressedError, match=r"^<bytes>: .*7z archive"):
        pgnkit.check(b"7z\xbc\xaf\x27\x1c\x00\x04" + bytes(300))
    with pytest.raises(pgnkit.CompressedError, match=r"gzip data inside xz data \(compressed twice"):
        list(pgnkit.read(lzma.compress(gzip.compress(data))))
    with pytest.raises(ValueError, match="range=: the range reads plain files and zstd files at frame boundaries, not gzip data"):
        list(pgnkit.read(gzip.compress(data), range=(0, 1000)))


@pytest.fixture(scope="module")
def archived(twic, tmp_path_factory):
    """(plain members [(name, path)], {kind: archive path}): TWIC and a broken edge file as .pgn
    members (one upper-case, in a folder) beside a readme, in a zip, a tar and compressed tars."""
    d = tmp_path_factory.mktemp("archives")
    broken = os.path.join(CORPUS, "edge", "malformed", "chesslab-games-01-with-three-invalid.pgn")
    members = [("twic.pgn", twic), ("sub/Broken.PGN", broken)]
    readme = d / "readme.txt"
    readme.write_text("not games")
    out = {}
    with zipfile.ZipFile(d / "a.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(readme, "readme.txt")
        for name, path in members:
            z.write(path, name)
    out["zip"] = str(d / "a.zip")
    with tarfile.open(d / "a.tar", "w") as t:
        for name, path in members:
            t.add(path, arcname=name)
        t.add(readme, arcname="readme.txt")
    out["tar"] = str(d / "a.tar")
    tar = (d / "a.tar").read_bytes()
    for kind, pack in (("tar.gz", gzip.compress), ("tar.xz", lzma.compress),
                       ("tar.zst", zstd_frames)):
        (d / ("a." + kind)).write_bytes(pack(tar))
        out[kind] = str(d / ("a." + kind))
    return members, out


def _as_read(src):
    return [(g.source, g.ordinal, g.tags, [tuple(x) for x in g.diagnostics])
            for g in pgnkit.read(src)]


@pytest.mark.parametrize("kind", ["zip", "tar", "tar.gz", "tar.xz", "tar.zst"])
def test_archives(archived, kind, pgnkit_bin):
    """Each *.pgn member is read as its plain file is, named ARCHIVE(MEMBER), its games numbered
    from 1 (as the program numbers a file's); the same from a path, bytes and a file object;
    check() as the program."""
    members, archives = archived
    path = archives[kind]
    want = []
    for name, plain in members:
        want += [(f"{path}({name})", o, t, d) for _, o, t, d in _as_read(plain)]
    n = len(want)
    assert _as_read(path) == want
    for src, label in ((open(path, "rb").read(), "<bytes>"), (open(path, "rb"), path)):
        got = _as_read(src)
        assert got == [(s.replace(path, label), o, t, d) for s, o, t, d in want]
    report = pgnkit.check(path)
    assert report["games"] == n
    run = subprocess.run([pgnkit_bin, "check", "--diag", "json", path], capture_output=True)
    import json

    cli = [json.loads(x) for x in run.stderr.decode("utf-8", "replace").splitlines()]
    assert [(d.source, d.line, d.column, d.code, d.game) for d in report["diagnostics"]] == \
        [(d["file"], d["line"], d["column"], d["code"], d["game"]) for d in cli if "code" in d]
    assert cli[-1]["summary"]["games"] == n
    frame = pgnkit.read_tags_frame(path)
    assert len(frame) == n and list(frame["White"]) == [g[2].get("White") for g in want]
    assert [t["White"] for t in pgnkit.scan_tags(path)] == list(frame["White"])


def test_member_bytes_as_they_are(tmp_path, pgnkit_bin):
    """A member named *.pgn that holds gzip data is read as it is, by the binding as by the
    program (junk, said): an archive's members are texts, not files to sniff again."""
    z = tmp_path / "g.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("g.pgn", gzip.compress(b'[Event "a"]\n\n1. e4 e5 1-0\n'))
    report = pgnkit.check(str(z))
    run = subprocess.run([pgnkit_bin, "check", "--diag", "json", str(z)], capture_output=True)
    import json

    cli = [json.loads(x) for x in run.stderr.decode("utf-8", "replace").splitlines()]
    assert report["diagnostics"] and \
        [(d.line, d.column, d.code) for d in report["diagnostics"]] == \
        [(d["line"], d["column"], d["code"]) for d in cli if "code" in d]
    assert report["games"] == cli[-1]["summary"]["games"]


def test_archive_failures(archived, tmp_path):
    _, archives = archived
    with pytest.raises(ValueError, match="range=: the range reads plain files and zstd files at frame boundaries, not a zip archive"):
        list(pgnkit.read(archives["zip"], range=(0, 1000)))
    z = tmp_path / "none.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("notes.txt", "x")
        f.writestr("games/", "")
    with pytest.raises(pgnkit.CompressedError,
                       match=r"none\.zip: no member named \*\.pgn in a zip archive \(it holds notes\.txt\)"):
        pgnkit.check(str(z))
    # a zip streams from a pipe by its members' local headers (libarchive, as `pgnkit check -`
    # reads it); one cut short there gives the games before, then the error naming the member
    data = open(archives["zip"], "rb").read()
    for cut, want in ((len(data), pgnkit.check(archives["zip"])), (60000, None)):
        r, w = os.pipe()
        t = threading.Thread(target=lambda: (os.write(w, data[:cut]), os.close(w)))
        t.start()
        with open(r, "rb") as f:
            if want is not None:
                got = pgnkit.check(f)
                assert (got["games"], got["errors"]) == (want["games"], want["errors"])
                assert [(d.source, d.line, d.code) for d in got["diagnostics"]] == \
                    [(d.source.replace(archives["zip"], "<stream>"), d.line, d.code)
                     for d in want["diagnostics"]]
            else:
                seen = []
                with pytest.raises(pgnkit.CompressedError, match=r"<stream>\(twic\.pgn\): "):
                    seen += pgnkit.read(f)
        t.join()
    # a member cut short or damaged: the games before, then CompressedError naming the member
    bad = bytearray(data)
    at = bad.find(b"twic.pgn", 40) + 5000
    bad[at:at + 64] = bytes(64)
    seen = []
    with pytest.raises(pgnkit.CompressedError, match=r"<bytes>\(twic\.pgn\): "):
        for g in pgnkit.read(bytes(bad)):
            seen.append(g)
    # an encrypted member (the flag set by hand: Python's zipfile writes no encryption)
    enc = bytearray(data)
    for sig, off, name_at in ((b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)):
        i = enc.find(sig)
        while i >= 0:
            if enc[i + name_at:i + name_at + 8] == b"twic.pgn":
                enc[i + off] |= 1
            i = enc.find(sig, i + 4)
    with pytest.raises(pgnkit.CompressedError, match=r"<bytes>\(twic\.pgn\): .*([Pp]assphrase|[Ee]ncrypt)"):
        pgnkit.check(bytes(enc))


def test_archive_dask(archived):
    """Dask reads a tar as one task and a zip as a task per member, with the members' names and
    lines, as read() reads them."""
    members, archives = archived
    for kind, tasks in (("tar.gz", 1), ("zip", len(members))):
        bag = pkd.read_pgn(archives[kind], blocksize=1 << 16)
        assert bag.npartitions == tasks
        got = [(r["source"], r["tags"], r["diagnostics"]) for r in bag.compute()]
        assert got == [(g.source, g.tags, [d.as_dict() for d in g.diagnostics])
                       for g in pgnkit.read(archives[kind])]
    frame = pkd.read_pgn_frame(archives["zip"]).compute()
    assert list(frame["White"].fillna("")) == \
        [g.tags.get("White", "") for g in pgnkit.read(archives["zip"])]


def test_archive_member(archived):
    """read(member=...) reads that member alone."""
    members, archives = archived
    for kind in ("zip", "tar.xz"):
        path = archives[kind]
        for name, plain in members:
            got = [(g.source, g.ordinal, g.tags) for g in pgnkit.read(path, member=name)]
            assert got == [(f"{path}({name})", g.ordinal, g.tags) for g in pgnkit.read(plain)]
        with pytest.raises(pgnkit.CompressedError, match=r"no member named nothing\.pgn in a"):
            list(pgnkit.read(path, member="nothing.pgn"))
    with pytest.raises(ValueError, match="member= names a member of an archive"):
        list(pgnkit.read(members[0][1], member="x.pgn"))


def test_no_thread_left(packed):
    """A decoder's thread ends with the iterator, read to the end or dropped half way."""
    before = threading.active_count()
    for fmt in FORMATS:
        it = pgnkit.read(packed[fmt])
        next(it)
        it.close()
        sum(1 for _ in pgnkit.scan_tags(packed[fmt]))
    assert threading.active_count() == before
    with open(packed["gz"], "rb") as f:  # the caller's file stays open
        it = pgnkit.read(f)
        next(it)
        it.close()
        assert not f.closed


def test_dask_reads_by_first_bytes(twic, packed, tmp_path):
    """pgnkit.dask: a gzip file named .pgn is one task, a plain file named .gz is split into
    ranges, the skippable-frame zstd file named .dat is split at its frames."""
    want = [(g.offset, g.moves) for g in pgnkit.read(twic)]
    gz_named_pgn = tmp_path / "gz.pgn"
    shutil.copy(packed["gz"], gz_named_pgn)
    plain_named_gz = tmp_path / "plain.pgn.gz"
    shutil.copy(twic, plain_named_gz)
    for path, parts in ((gz_named_pgn, 1), (plain_named_gz, 21), (packed["zst-frames"], 5)):
        bag = pkd.read_pgn(str(path), blocksize="200KiB")
        assert bag.npartitions == parts
        assert [(r["offset"], r["moves"]) for r in bag.compute(scheduler="sync")] == want


BLOCKED = ("zstandard", "zlib", "gzip", "bz2", "_bz2", "lzma", "_lzma", "zipfile", "tarfile")


def test_no_python_decoder(packed, archived, twic):
    """Every format and archive is decoded by the C source layer (issue 29 point 4): a child
    Python with zstandard and Python's own decoders and archive modules blocked (None in
    sys.modules: importing one raises ImportError) reads each as many games as this one does, and
    the package's sources name none of them and hold no magic bytes."""
    _, archives = archived
    paths = [packed[f] for f in sorted(FORMATS)] + [archives[k] for k in sorted(archives)]
    code = ("import sys\n"
            f"for m in {BLOCKED!r}:\n"
            "    sys.modules[m] = None\n"
            "import pgnkit\n"
            "for p in sys.argv[1:]:\n"
            "    print(pgnkit.check(p)['games'], sum(1 for _ in pgnkit.read(p)),\n"
            "          sum(1 for _ in pgnkit.read(p, threads=2)))\n"
            "print(sorted(m for m in " + repr(BLOCKED) + " if sys.modules.get(m) is not None))\n")
    out = subprocess.run([sys.executable, "-c", code, *paths], capture_output=True, text=True,
                         cwd=os.path.dirname(pgnkit.__path__[0]))
    assert out.returncode == 0, out.stderr
    rows = out.stdout.splitlines()
    want = [pgnkit.check(p)["games"] for p in paths]
    assert [tuple(int(x) for x in r.split()) for r in rows[:-1]] == [(n, n, n) for n in want]
    assert min(want) >= 4742 and rows[-1] == "[]"  # TWIC at least, none of them loaded
    pkg = pgnkit.__path__[0]
    for name in os.listdir(pkg):
        if name.endswith(".py"):
            text = open(os.path.join(pkg, name), encoding="utf-8").read().lower()
            for word in ("zlib", "bz2", "lzma", "zstandard", "zipfile", "tarfile", "\\x1f\\x8b",
                         "\\x28\\xb5", "28 b5 2f fd"):
                assert word not in text, (name, word)


@pytest.mark.parametrize("fmt", ["plain", "gz"])
def test_a_pipe_by_its_path(fmt, packed, twic, tmp_path):
    """A FIFO named by its path (it cannot seek back after its first bytes are looked at): plain
    or compressed, the games of the file."""
    data = open(twic if fmt == "plain" else packed["gz"], "rb").read()
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(data))
    writer.start()
    try:
        assert games(str(fifo)) == games(twic)
    finally:
        writer.join()
