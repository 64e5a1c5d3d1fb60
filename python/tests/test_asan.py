# SPDX-License-Identifier: MIT
"""Every method of the extension's types, on every object they can produce, under ASan+UBSan
(issue 36). `make python-asan` builds the package with its extension instrumented into
build/python-asan/lib and names the sanitizer runtime in build/python-asan.preload; the script
asan_methods.py runs in a child Python with that runtime preloaded (an instrumented extension
cannot be loaded otherwise) and Python's allocator switched to malloc, so that the sanitizer
sees the Python objects too. A missing build fails: it is never skipped."""
import os
import subprocess
import sys

from conftest import ROOT

ASAN = os.environ.get("PGNKIT_PY_ASAN") or os.path.join(ROOT, "build", "python-asan")
HERE = os.path.dirname(os.path.abspath(__file__))


def test_every_method_under_asan():
    lib = os.path.join(ASAN, "lib")
    pre = ASAN + ".preload"
    assert os.path.exists(pre), f"{pre} is missing: run make python-asan"
    with open(pre) as f:
        runtime = f.read().strip()
    assert os.path.isabs(runtime) and os.path.exists(runtime), \
        f"the sanitizer runtime {runtime!r} was not found (make python-asan with gcc)"
    so = [n for n in os.listdir(os.path.join(lib, "pgnkit")) if n.startswith("_pgnkit")]
    assert len(so) == 1, so
    with open(os.path.join(lib, "pgnkit", so[0]), "rb") as f:
        assert b"__asan_report" in f.read(), "the extension is not built with ASan"
    env = dict(os.environ, LD_PRELOAD=runtime, PYTHONPATH=lib, PYTHONMALLOC="malloc",
               ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    r = subprocess.run([sys.executable, os.path.join(HERE, "asan_methods.py")], env=env,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-6000:]
    assert "ERROR: AddressSanitizer" not in r.stderr and "runtime error" not in r.stderr, r.stderr
    assert "pgnkit asan methods: ok" in r.stdout and os.path.join(lib, "pgnkit") in r.stdout, \
        r.stdout
