#!/usr/bin/env bash
# The Python package's pytest suite (python/tests, issue 19), run with Debian's Python on the
# extension that `make python` built in place (test_asan.py runs one script on the ASan build of
# `make python-asan`); its counts become this suite's RESULT line, so they
# are folded into make check's "N passed, N failed". With PGNKIT_SLOW=1 (make check-slow) the Dask
# test also reads the gnuchess book, and `pip install --no-build-isolation ./python` is tried into a
# temporary directory (offline: no index is reached).
set -u
py=${PYTHON:-/usr/bin/python3}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
export PGNKIT_SHARED=${PGNKIT_SHARED:-../shared}
export PGNKIT_REL_BIN=${PGNKIT_REL_BIN:-build/pgnkit}
case $PGNKIT_REL_BIN in /*) ;; *) PGNKIT_REL_BIN=$PWD/$PGNKIT_REL_BIN ;; esac
case $PGNKIT_SHARED in /*) ;; *) PGNKIT_SHARED=$PWD/$PGNKIT_SHARED ;; esac
# the package with its extension under ASan+UBSan (make python-asan), for tests/test_asan.py
export PGNKIT_PY_ASAN=${PGNKIT_PY_ASAN:-build/python-asan}
case $PGNKIT_PY_ASAN in /*) ;; *) PGNKIT_PY_ASAN=$PWD/$PGNKIT_PY_ASAN ;; esac
extra_fail=0 extra_pass=0
if [ -n "${PGNKIT_SLOW:-}" ]; then
    t=$(mktemp -d)
    if "$py" -m pip install -q --no-build-isolation --no-index --target "$t/site" ./python >"$t/pip.log" 2>&1 &&
        PYTHONPATH="$t/site" "$py" -c 'import pgnkit, sys; sys.exit(pgnkit.Board().legal_moves().__len__() != 20)'; then
        extra_pass=1
    else
        extra_fail=1; echo "FAIL pip install --no-build-isolation ./python:"; tail -n 20 "$t/pip.log"
    fi
    rm -rf "$t"
fi
(cd python && "$py" -m pytest -q -p no:cacheprovider tests) >"$log" 2>&1
status=$?
cat "$log" | tail -n 40
last=$(grep -E '^[=]* ?[0-9]+ (passed|failed)|^[0-9]+ (passed|failed|error)' "$log" | tail -n 1)
p=$(grep -oE '[0-9]+ passed' <<<"$last" | grep -oE '[0-9]+' || echo 0)
f=$(grep -oE '[0-9]+ failed' <<<"$last" | grep -oE '[0-9]+' || echo 0)
e=$(grep -oE '[0-9]+ error' <<<"$last" | grep -oE '[0-9]+' || echo 0)
s=$(grep -oE '[0-9]+ skipped' <<<"$last" | grep -oE '[0-9]+' || echo 0)
f=$((f + e + extra_fail))
p=$((p + extra_pass))
# pytest exits 5 when it collected no test: that is a failure here, never a pass
if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "FAIL pytest exited $status"; fi
echo "RESULT $p $f $s"
