# SPDX-License-Identifier: MIT
# The pgnkit Python package: a CPython extension that compiles libpgnkit's C sources (../src) in,
# so that it needs no installed library and builds offline with Debian's python3-dev and
# python3-setuptools: `make python` (in place) or `pip install --no-build-isolation ./python`.
import glob
import os
import shlex

from setuptools import Extension, setup

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
lib_sources = sorted(glob.glob(os.path.join(root, "src", "*", "*.c")))
if not lib_sources:
    raise SystemExit("pgnkit: the library sources (../src) were not found beside python/")


def rel(p):
    return os.path.relpath(p, here)


ext = Extension(
    "pgnkit._pgnkit",
    sources=[rel(p) for p in sorted(glob.glob(os.path.join(here, "src", "*.c")))]
    + [rel(p) for p in lib_sources],
    include_dirs=[rel(os.path.join(root, "include"))],
    define_macros=[("PGNKIT_BUILD", "1")],
    # PGNKIT_CFLAGS and PGNKIT_LDFLAGS come last: the Makefile gives the house warnings (with
    # -Werror under WERROR=1) and, for the sanitizer build, -fsanitize=...
    extra_compile_args=["-std=c17", "-O3", "-fvisibility=hidden", "-pthread"]
    + shlex.split(os.environ.get("PGNKIT_CFLAGS", "")),
    extra_link_args=["-pthread"] + shlex.split(os.environ.get("PGNKIT_LDFLAGS", "")),
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
