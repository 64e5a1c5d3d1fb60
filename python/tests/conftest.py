# SPDX-License-Identifier: MIT
"""Shared fixtures: the corpus (../shared, or PGNKIT_SHARED) and the pgnkit program."""
import gzip
import os
import shutil
import subprocess
import sys

import pytest

# the package built in place by `make python`, wherever pytest is started from
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("PGNKIT_SHARED") or os.path.join(os.path.dirname(ROOT), "shared")
CORPUS = os.path.join(SHARED, "corpus")
BIN = os.environ.get("PGNKIT_REL_BIN") or os.path.join(ROOT, "build", "pgnkit")


def edge_files():
    out = []
    for d, _, files in os.walk(os.path.join(CORPUS, "edge")):
        out += [os.path.join(d, f) for f in files if f.endswith(".pgn")]
    return sorted(out)


def fuzz_files():
    out = []
    for d, _, files in os.walk(os.path.join(ROOT, "tests", "fuzz-regress")):
        out += [os.path.join(d, f) for f in files]
    return sorted(out)


@pytest.fixture(scope="session")
def twic(tmp_path_factory):
    """TWIC 1427 as a plain file."""
    p = tmp_path_factory.mktemp("twic") / "twic1427.pgn"
    with gzip.open(os.path.join(CORPUS, "big", "twic", "twic1427.pgn.gz")) as src, open(p, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return str(p)


@pytest.fixture(scope="session")
def book(tmp_path_factory):
    """The gnuchess book (85.7 MB, 145,716 games, its names in CP437) as a plain file."""
    p = tmp_path_factory.mktemp("book") / "gnuchess-book_1.02.pgn"
    with gzip.open(os.path.join(CORPUS, "big", "gnuchess-book_1.02.pgn.gz")) as src, open(p, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return str(p)


@pytest.fixture(scope="session")
def pgnkit_bin():
    if not os.access(BIN, os.X_OK):
        pytest.fail(f"the pgnkit program is not built: {BIN}")
    return BIN


def zstd(data, level=3, content_size=True, checksum=False):
    """data as one zstd frame, made by the zstd program (tools/deps.sh installs it), so that no
    test needs the Python module zstandard."""
    args = ["zstd", "-q", "-c", f"-{level}", "--content-size" if content_size else "--no-content-size",
            "--check" if checksum else "--no-check"]
    return subprocess.run(args, input=data, capture_output=True, check=True).stdout
