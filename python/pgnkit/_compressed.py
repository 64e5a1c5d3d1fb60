# SPDX-License-Identifier: MIT
"""Compressed sources, recognised by their first bytes (never by the file name), as the pgnkit
program recognises them (cli/compress.c): gzip, zstd (a leading skippable frame too), bzip2 and
xz are decoded with Python's own modules (zlib, bz2, lzma) and Debian's python3-zstandard; a zip
or tar archive (a tar compressed too) is read by zipfile and tarfile, each member named *.pgn a
text of its own named ARCHIVE(MEMBER), as the program names them (cli/archive.c); a 7z or RAR
archive or lz4 data is refused with a message that says how to take the games out, and so is
data compressed twice.

The decoded text is read ahead on a thread (the decoders release the GIL), so that decoding and
pgnkit's reader, which runs without the GIL too, use two cores: at most QUEUED chunks of CHUNK
bytes wait, whatever the size of the file.
"""
import importlib.util
import io
import os
import queue
import stat
import threading

# (magic, offset, format or None when refused, what it is, how to get the text out)
_MAGICS = (
    (b"\x1f\x8b", 0, "gzip", "gzip data", "zcat"),
    (b"\x28\xb5\x2f\xfd", 0, "zstd", "zstd data", "zstdcat"),
    (b"BZh", 0, "bzip2", "bzip2 data", "bzcat"),
    (b"\xfd7zXZ\x00", 0, "xz", "xz data", "xzcat"),
    (b"PK\x03\x04", 0, "zip", "a zip archive", "unzip -p FILE"),
    (b"PK\x05\x06", 0, "zip", "a zip archive", "unzip -p FILE"),
    (b"7z\xbc\xaf\x27\x1c", 0, None, "a 7z archive", "7z x -so FILE, or the pgnkit program"),
    (b"Rar!\x1a\x07", 0, None, "a RAR archive", "unrar p FILE, or the pgnkit program"),
    (b"\x04\x22\x4d\x18", 0, None, "lz4 data", "lz4cat FILE"),
    (b"ustar", 257, "tar", "a tar archive", "tar -xOf FILE"),
)
HEAD = 262  # enough bytes to see every magic (tar's is at byte 257)
CHUNK = 1 << 20
QUEUED = 4


ARCHIVES = ("zip", "tar")
MEMBER_EXT = ".pgn"


class CompressedError(ValueError):
    """Compressed data that pgnkit cannot read: a 7z or RAR archive, data compressed twice, a
    missing decoder, a stream that is corrupt or cut short (the games before it were given), or an
    archive that is damaged, encrypted or holds no *.pgn member."""


def _magic(head):
    """The _MAGICS entry that head starts with, or None. A zstd skippable frame (magic
    0x184D2A5?, which pzstd and the lichess files put first) counts as zstd; bzip2 needs its block
    size digit."""
    if len(head) >= 4 and head[0] & 0xF0 == 0x50 and head[1:4] == b"\x2a\x4d\x18":
        return _MAGICS[1]
    for m in _MAGICS:
        magic, at, fmt = m[0], m[1], m[2]
        if head[at:at + len(magic)] == magic and (fmt != "bzip2" or head[3:4] in b"123456789"):
            return m
    return None


def sniff(head, name, inside=None):
    """The compression format of data starting with head ("gzip", "zstd", "bzip2", "xz"), or an
    archive's ("zip", "tar"; a tar inside a compressed format too), or None for text; raises
    CompressedError for what cannot be read."""
    m = _magic(head)
    if m is None:
        return None
    _, _, fmt, what, hint = m
    where = f" inside {inside}" if inside else ""
    if fmt in ARCHIVES and (fmt == "tar" or not inside):
        return fmt
    if fmt in ARCHIVES:  # a zip is read by its index at the end: not in a stream
        raise CompressedError(f"{name}: {what}{where}: decompress it first ({hint})")
    if fmt is None:
        raise CompressedError(f"{name}: {what}{where}: pgnkit reads PGN text, plain or compressed "
                              f"once (gzip, zstd, bzip2, xz); take the games out first ({hint})")
    if inside:
        raise CompressedError(f"{name}: {what} inside {inside} (compressed twice): decompress it "
                              "once first")
    return fmt


def _decoder(raw, fmt, name):
    if fmt == "zstd" and importlib.util.find_spec("zstandard") is None:
        raise CompressedError(f"{name}: zstd data, but the Python module zstandard is missing: "
                              "install python3-zstandard, or pipe it through zstdcat")
    return _Streams(raw, fmt)


def _decompressor(fmt):
    if fmt == "gzip":
        import zlib

        return zlib.decompressobj(31)  # a gzip member: header, deflate data, CRC-32 and size
    if fmt == "bzip2":
        import bz2

        return bz2.BZ2Decompressor()
    if fmt == "xz":
        import lzma

        return lzma.LZMADecompressor(lzma.FORMAT_XZ)
    import zstandard

    return zstandard.ZstdDecompressor().decompressobj()


class _Streams:
    """The streams of one format one after the other (gzip members, bzip2 and xz streams, zstd
    frames, skippable ones too), decoded a step at a time: read1 gives what one step decoded, at
    most CHUNK bytes (zstd: what STEP_ZSTD input bytes make). As the program does (cli/compress.c),
    data after a stream that starts no other stream of the format is an error, and so is a file
    that ends inside a stream (EOFError); Python's BZ2File and LZMAFile would end quietly at such
    data, and zstandard's stream_reader at such an end."""

    STEP = 1 << 14
    STEP_ZSTD = 1 << 12  # zstandard's decompressobj has no output bound: a small input bounds it

    def __init__(self, raw, fmt):
        self._raw, self._fmt = raw, fmt
        self._obj = None  # the current stream's decompressor
        self._more = False  # bzip2, xz: it holds input that gives more output
        self._left = b""  # input that no decompressor has taken yet

    def _start(self, data):
        """Starts the stream that data begins (after xz's padding), or raises ValueError."""
        if self._fmt == "xz":
            data = data.lstrip(b"\0")  # stream padding (xz file format 1.2.1, section 2.2)
            if not data:
                return data
        while len(data) < HEAD and (more := self._raw.read(self.STEP)):
            data += more
        m = _magic(data[:HEAD])
        if m is None or m[2] != self._fmt:
            raise ValueError(f"data that is not {self._fmt} after the {self._fmt} stream")
        self._obj = _decompressor(self._fmt)
        return data

    def read1(self):
        """The text of the next decoding step (b"" at the end)."""
        while True:
            if self._more:
                data = b""
            else:
                data = self._left or self._raw.read(self.STEP_ZSTD if self._fmt == "zstd"
                                                    else self.STEP)
                self._left = b""
                if not data:
                    if self._obj is not None:
                        raise EOFError(f"the data ends inside a {self._fmt} stream")
                    return b""
                if self._obj is None:
                    data = self._start(data)
                    if not data:
                        continue
            obj = self._obj
            out = obj.decompress(data) if self._fmt == "zstd" else obj.decompress(data, CHUNK)
            if self._fmt == "gzip":
                self._left = obj.unconsumed_tail
            elif self._fmt != "zstd":
                self._more = not obj.eof and not obj.needs_input
            if obj.eof:
                self._left, self._obj, self._more = obj.unused_data + self._left, None, False
            if out:
                return out

    def tell(self):
        """How far into the compressed bytes decoding has got."""
        return self._raw.tell() - len(self._left)


class Decoded(io.RawIOBase):
    """The decoded text of compressed data in raw (a binary file object, closed with this one),
    read ahead on a thread. A decoder's error is raised by read() as CompressedError, with the
    file's name and how far into the compressed bytes the decoder had read."""

    def __init__(self, raw, fmt, name):
        super().__init__()
        self.name, self.format, self._raw = name, fmt, raw
        self.archive = None
        self._dec = _decoder(raw, fmt, name)
        self._queue = queue.Queue(QUEUED)
        self._stop = threading.Event()
        self._chunk, self._pos, self._done = b"", 0, False
        self._thread = threading.Thread(target=self._run, name="pgnkit-decode", daemon=True)
        self._thread.start()
        try:
            first = self._fill()
            # a tar inside: an Archive reads it from this stream
            self.archive = sniff(self._chunk[:HEAD], name, inside=f"{fmt} data") if first else None
        except BaseException:
            self.close()
            raise

    def _run(self):
        # one decoding step at a time, so that an error loses nothing decoded before it
        end = False
        while not end and not self._stop.is_set():
            parts, n, err = [], 0, None
            try:
                while n < CHUNK:
                    data = self._dec.read1()
                    if not data:
                        end = True
                        break
                    parts.append(data)
                    n += len(data)
            except BaseException as e:  # noqa: BLE001 (given to the reader's thread, as it is)
                err, end = e, True
            if parts:
                self._put(b"".join(parts))
            if end:
                self._put(err if err is not None else b"")

    def _put(self, item):
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return
            except queue.Full:
                continue

    def _error(self, e):
        try:
            at = self._dec.tell()
        except (OSError, ValueError):
            at = None
        what = "cut short" if isinstance(e, EOFError) else "corrupt"
        near = f" (decoding stopped near byte {at})" if at is not None else ""
        return CompressedError(f"{self.name}: {what} {self.format} data{near}: {e}")

    def _fill(self):
        """Takes the next chunk; False at the end of the data."""
        if self._done:
            return False
        item = self._queue.get()
        if isinstance(item, BaseException):
            self._done = True
            raise self._error(item) from item
        self._chunk, self._pos = item, 0
        self._done = not item
        return bool(item)

    def readable(self):
        return True

    def read(self, n=-1):
        if n is None or n < 0:
            parts = []
            while self._pos < len(self._chunk) or self._fill():
                parts.append(self._chunk[self._pos:])
                self._pos = len(self._chunk)
            return b"".join(parts)
        if self._pos >= len(self._chunk) and not self._fill():
            return b""
        if self._pos == 0 and n >= len(self._chunk):
            self._pos = len(self._chunk)
            return self._chunk
        out = self._chunk[self._pos:self._pos + n]
        self._pos += len(out)
        return out

    def readinto(self, b):
        data = self.read(len(b))
        b[:len(data)] = data
        return len(data)

    def close(self):
        if self.closed:
            return
        self._stop.set()
        self._thread.join()
        try:
            self._raw.close()
        finally:
            super().close()


def _head_of(f):
    """The first HEAD bytes of a binary file object, leaving its position as it was, or None when
    it can neither peek nor seek."""
    if hasattr(f, "peek"):
        try:
            return f.peek(HEAD)[:HEAD]
        except (OSError, ValueError):
            pass
    try:
        seekable = f.seekable()
    except (AttributeError, OSError, ValueError):
        return None
    if seekable:
        pos = f.tell()
        head = f.read(HEAD)
        f.seek(pos)
        return head
    return None


def open_path(path):
    """A path's text: the path itself when it is a plain file of text, else a Decoded over the
    opened file; a pipe or a device (a FIFO, /dev/stdin), which cannot seek back, as the opened
    file (its first bytes peeked at), or a Decoded over it."""
    raw = open(path, "rb")
    try:
        if not stat.S_ISREG(os.fstat(raw.fileno()).st_mode):
            fmt = sniff(raw.peek(HEAD)[:HEAD], path)
            return raw if fmt is None else _opened(raw, fmt, path)
        fmt = sniff(raw.read(HEAD), path)
        if fmt is None:
            raw.close()
            return path
        raw.seek(0)
        return _opened(raw, fmt, path)
    except BaseException:
        raw.close()
        raise


def wrap(src, name):
    """bytes or a binary file object, decoded when compressed (a Decoded), an Archive when it is
    one, else as they are. A file object that can neither peek nor seek is taken as text."""
    if isinstance(src, bytes):
        fmt = sniff(src[:HEAD], name)
        return src if fmt is None else _opened(io.BytesIO(src), fmt, name)
    head = _head_of(src)
    fmt = sniff(head, name) if head else None
    if fmt is None:
        return src
    return _opened(_Unclosed(src), fmt, name)


def _opened(raw, fmt, name):
    """A Decoded over raw, or an Archive (over the Decoded text of a compressed tar)."""
    if fmt in ARCHIVES:
        return Archive(raw, fmt, name)
    dec = Decoded(raw, fmt, name)
    return dec if dec.archive is None else Archive(dec, dec.archive, name)


class _Unclosed(io.RawIOBase):
    """The caller's file object, which stays open when the Decoded over it closes."""

    def __init__(self, f):
        super().__init__()
        self._f = f

    def readable(self):
        return True

    def read(self, n=-1):
        return self._f.read(n)

    def readinto(self, b):
        data = self._f.read(len(b))
        b[:len(data)] = data
        return len(data)

    def tell(self):
        return self._f.tell()

    def seekable(self):
        return self._f.seekable()

    def seek(self, pos, whence=0):
        return self._f.seek(pos, whence)


class Archive:
    """A zip or tar archive in raw (a binary file object, closed with this one; a tar may be a
    Decoded stream): members() gives the text of each member named *.pgn (any case), in the
    archive's order, as (file object, "ARCHIVE(MEMBER)"): its bytes as they are, as the program
    reads them. A damaged or encrypted member raises CompressedError after the games before it."""

    def __init__(self, raw, fmt, name):
        self.name, self.format, self._raw = name, fmt, raw
        self.closed = False

    def _zip_members(self):
        import zipfile

        try:
            self._raw.seek(0)
            zf = zipfile.ZipFile(self._raw)
        except (OSError, ValueError, zipfile.BadZipFile) as e:
            raise CompressedError(f"{self.name}: a zip archive that cannot be read ({e}); a zip "
                                  "is read by its index at its end: give a file, not a pipe") from e
        with zf:
            infos = [i for i in zf.infolist() if not i.is_dir()]
            for info in infos:
                yield info.filename, lambda info=info: zf.open(info)

    def _tar_members(self):
        import tarfile

        try:
            tf = tarfile.open(fileobj=self._raw, mode="r|")
        except (tarfile.TarError, OSError) as e:
            raise CompressedError(f"{self.name}: a tar archive that cannot be read ({e})") from e
        with tf:
            while True:
                try:
                    info = tf.next()
                except (tarfile.TarError, OSError, EOFError) as e:
                    raise CompressedError(f"{self.name}: a damaged tar archive ({e})") from e
                if info is None:
                    return
                if info.isfile():
                    yield info.name, lambda info=info: tf.extractfile(info)

    def members(self, only=None):
        """only: the one member to give (by its name in the archive, whatever its ending)."""
        read, others = 0, []
        walk = self._zip_members() if self.format == "zip" else self._tar_members()
        for member, opener in walk:
            if (member != only) if only is not None else not read_member(member):
                others.append(member)
                continue
            name = f"{self.name}({member})"
            try:
                f = opener()
            except (RuntimeError, NotImplementedError, OSError, ValueError) as e:
                raise CompressedError(f"{name}: {e}") from e
            read += 1
            try:  # its bytes as they are, as the program reads a member
                yield _Member(f, name), name
            finally:
                f.close()
        if not read:
            held = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
            wanted = only if only is not None else "*" + MEMBER_EXT
            raise CompressedError(f"{self.name}: no member named {wanted} in a "
                                  f"{self.format} archive" + (f" (it holds {held})" if held else ""))

    def close(self):
        if not self.closed:
            self.closed = True
            self._raw.close()


def read_member(name):
    """Whether members() reads the member of that name: *.pgn, any case."""
    return name.lower().endswith(MEMBER_EXT)


def zip_members(path):
    """The names of the members of the zip file at path that members() reads, in order."""
    with open(path, "rb") as f:
        return [m for m, _ in Archive(f, "zip", path)._zip_members() if read_member(m)]


class _Member(io.RawIOBase):
    """A member's file object whose failures (a CRC mismatch, a cut archive) are CompressedError."""

    def __init__(self, f, name):
        super().__init__()
        self._f, self.name = f, name

    def readable(self):
        return True

    def read(self, n=-1):
        import zlib
        import zipfile

        try:
            return self._f.read(n)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as e:
            raise CompressedError(f"{self.name}: {e}") from e

    def readinto(self, b):
        data = self.read(len(b))
        b[:len(data)] = data
        return len(data)
