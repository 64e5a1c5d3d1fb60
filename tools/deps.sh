#!/usr/bin/env bash
# The one list of what pgnkit's build, tests and benchmarks need from the system, and its install
# step. .ci/run, make demo and make check all call it (make: DEPS=0 skips it). As root with apt-get
# (Debian) it installs what is missing with `apt-get install -y`; otherwise it says what is missing
# and exits 0, so that a build without an optional library still succeeds and says so.
# Each entry: "package  test-command" (the test tells whether it is there already).
set -u
quiet=${DEPS_QUIET:-0}
want=(
    "gcc            command -v cc"
    "make           command -v make"
    "gzip           command -v gzip"
    "pkg-config     command -v pkg-config"
    "clang          command -v clang"
    "libclang-rt-14-dev  fuzzer_ok"
    "clang-format   command -v clang-format"
    "stockfish      test -x /usr/games/stockfish || command -v stockfish"
    "fairy-stockfish  test -x /usr/games/fairy-stockfish || command -v fairy-stockfish"
    "nodejs         command -v node && command -v npm"
    "pgn-extract    test -x /usr/games/pgn-extract || command -v pgn-extract"
    "python3-jsonschema  py_has jsonschema"
    "binutils       command -v nm"
    "zlib1g-dev     pkg-config --exists zlib"
    "libisal-dev    pkg-config --exists libisal"
    "libzstd-dev    pkg-config --exists libzstd"
    "libbz2-dev     test -f /usr/include/bzlib.h"
    "liblzma-dev    pkg-config --exists liblzma"
    "libarchive-dev  pkg-config --exists libarchive"
    "libarchive-tools  command -v bsdtar"
    "zstd           command -v zstd"
    "bzip2          command -v bzip2"
    "xz-utils       command -v xz"
    "time           test -x /usr/bin/time"
    "strace         command -v strace"
    "librsvg2-bin   command -v rsvg-convert"
    "libxml2-utils  command -v xmllint"
    "w3c-sgml-lib   test -f /usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd"
    "python3-pil    py_has PIL"
    "chromium       test -x /usr/bin/chromium"
    "chromium-driver  test -x /usr/bin/chromedriver"
    "python3-selenium  py_has selenium"
    "libmicrohttpd-dev  pkg-config --exists libmicrohttpd"
    "curl           command -v curl"
    "scdoc          command -v scdoc"
    "man-db         command -v man"
    "python3-dev    ls /usr/include/python3*/Python.h"
    "python3-setuptools  py_has setuptools"
    "python3-pytest      py_has pytest"
    "python3-pandas      py_has pandas"
    "python3-distributed py_has distributed"
    "python3-zstandard   py_has zstandard"
    "python3-pip         py_has pip"
    "python3-venv        py_has ensurepip"
)
py_has() { /usr/bin/python3 -c "import $1" >/dev/null 2>&1; }
fuzzer_ok() {
    command -v clang >/dev/null 2>&1 || return 1
    local d; d=$(mktemp -d)
    echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }' >"$d/f.c"
    clang -fsanitize=fuzzer -o "$d/f" "$d/f.c" >/dev/null 2>&1; local s=$?
    rm -rf "$d"; return $s
}
# From npm (the one other registry): chessops, lichess's rules library, the outside truth for
# atomic perft in tests/cli/test_variant_perft.sh. Installed under build/npm (not in git).
npm_want=("chessops@0.15.1")
npm_dir=$(cd "$(dirname "$0")/.." && pwd)/build/npm
npm_deps() {
    command -v npm >/dev/null 2>&1 || { echo "deps: no npm: chessops not installed" >&2; return 0; }
    [ -f "$npm_dir/node_modules/chessops/package.json" ] && return 0
    [ "$quiet" = 1 ] || echo "deps: installing ${npm_want[*]} (npm) in $npm_dir"
    mkdir -p "$npm_dir" && npm install --silent --no-audit --no-fund --prefix "$npm_dir" \
        "${npm_want[@]}" >/dev/null 2>&1 || echo "deps: npm install ${npm_want[*]} failed" >&2
}
missing=()
for e in "${want[@]}"; do
    pkg=${e%% *}; test=${e#* }
    eval "$test" >/dev/null 2>&1 || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && { npm_deps; exit 0; }
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    [ "$quiet" = 1 ] || echo "deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null && apt-get install -y -qq "${missing[@]}" >/dev/null || {
        echo "deps: apt-get install ${missing[*]} failed" >&2; exit 1; }
else
    echo "deps: missing (install them with apt-get as root): ${missing[*]}" >&2
fi
npm_deps
exit 0
