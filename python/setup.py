# SPDX-License-Identifier: MIT
# The pgnkit Python package: a CPython extension that compiles libpgnkit's C sources (../src) in,
# so that it needs no installed library and builds offline with Debian's python3-dev and
# python3-setuptools: `make python` (in place) or `pip install --no-build-isolation ./python`.
import ctypes.util
import glob
import os
import shlex
import subprocess

from setuptools import Extension, setup

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
lib_sources = sorted(glob.glob(os.path.join(root, "src", "*", "*.c")))
if not lib_sources:
    raise SystemExit("pgnkit: the library sources (../src) were not found beside python/")


def rel(p):
    return os.path.relpath(p, here)


def pkg_config(*args):
    """pkg-config's words for args, or None when it or the package is missing."""
    try:
        out = subprocess.run(["pkg-config", *args], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return shlex.split(out.stdout)


def io_flags():
    """(compile flags, link flags) of the source layer's codecs (src/io), found as the Makefile
    finds them: the libraries pkg-config knows (zlib, ISA-L, zstd, xz), bzip2 by its header and
    library, and libarchive opened by its soname at the first archive (dlopen). A codec missing here is
    refused with a message naming its package, as in the program."""
    cflags, libs = [], []
    for pkg, macro in (("zlib", "ZLIB"), ("libisal", "ISAL"), ("libzstd", "ZSTD"),
                       ("liblzma", "LZMA")):
        if pkg_config("--exists", pkg) is not None:
            cflags += [f"-DPGNKIT_HAVE_{macro}"] + pkg_config("--cflags", pkg)
            libs += pkg_config("--libs", pkg)
    if os.path.exists("/usr/include/bzlib.h") and ctypes.util.find_library("bz2"):
        cflags.append("-DPGNKIT_HAVE_BZ2")
        libs.append("-lbz2")
    soname = ctypes.util.find_library("archive")
    if soname and pkg_config("--exists", "libarchive") is not None:
        cflags += ["-DPGNKIT_HAVE_ARCHIVE", f'-DPGNKIT_ARCHIVE_SONAME="{soname}"']
        cflags += pkg_config("--cflags", "libarchive")
        libs.append("-ldl")
    return cflags, libs


IO_CFLAGS, IO_LIBS = io_flags()


ext = Extension(
    "pgnkit._pgnkit",
    sources=[rel(p) for p in sorted(glob.glob(os.path.join(here, "src", "*.c")))]
    + [rel(p) for p in lib_sources],
    include_dirs=[rel(os.path.join(root, "include"))],
    define_macros=[("PGNKIT_BUILD", "1")],
    # PGNKIT_CFLAGS and PGNKIT_LDFLAGS come last: the Makefile gives the house warnings (with
    # -Werror under WERROR=1) and, for the sanitizer build, -fsanitize=...
    extra_compile_args=["-std=c17", "-O3", "-fvisibility=hidden", "-pthread"]
    + IO_CFLAGS
    + shlex.split(os.environ.get("PGNKIT_CFLAGS", "")),
    extra_link_args=["-pthread"] + IO_LIBS + shlex.split(os.environ.get("PGNKIT_LDFLAGS", "")),
    libraries=["m", "sqlite3"],  # sqlite3: the game database (src/db)
)

version = "0.1.0"
with open(os.path.join(root, "include", "pgnkit.h")) as f:
    for line in f:
        if line.startswith("#define PGNKIT_VERSION_STRING"):
            version = line.split('"')[1]

setup(
    name="pgnkit",
    version=version,
    description="Read, check and write chess games in PGN (Python binding of libpgnkit)",
    license="MIT",
    packages=["pgnkit"],
    ext_modules=[ext],
    python_requires=">=3.11",
)
