#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The viewer page of a big collection (issue 36): `pgnkit html` of the GNU Chess book of
# $SHARED/corpus/big (145,716 games, 85.7 MB), its size against the PGN, and the wall time Debian's
# headless Chromium takes to show its first board and game list and to show the last game (from
# tests/tools/browser_html_big.py, RUNS times; medians). A benchmark, not a test: the goal (shown
# within 5 s) depends on the machine and its load; tests/cli/test_html.sh checks that the page
# works, with the page-load bound of Selenium only.
# Environment: BUILD, SHARED, PGNKIT, RUNS (default 3), PYTHON (default /usr/bin/python3).
set -euo pipefail

BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
PGNKIT=${PGNKIT:-$BUILD/pgnkit}
RUNS=${RUNS:-3}
PY=${PYTHON:-/usr/bin/python3}
GOAL=5
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x "$PGNKIT" ]; then
    echo "bench_html.sh: $PGNKIT missing (make $PGNKIT)" >&2
    exit 2
fi
if ! "$PY" -c 'import selenium' 2>/dev/null || ! command -v chromedriver >/dev/null; then
    echo "bench_html.sh: needs python3-selenium and chromium-driver (tools/deps.sh installs them)" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gzip -dc "$SHARED/corpus/big/gnuchess-book_1.02.pgn.gz" >"$tmp/book.pgn"
start=$(date +%s.%N)
"$PGNKIT" html "$tmp/book.pgn" -o "$tmp/book.html" 2>/dev/null
made=$(echo "$(date +%s.%N) - $start" | bc)
games=$(grep -ac '^\[Event ' "$tmp/book.pgn")
last=$(grep -a '^\[White ' "$tmp/book.pgn" | tail -n 1 | sed 's/^\[White "//; s/"\]$//')
pgn_bytes=$(wc -c <"$tmp/book.pgn")
html_bytes=$(wc -c <"$tmp/book.html")
# a small page for the script's required first argument (the checks of the small page are the
# test's; here only the big page's times are read)
head -c 20000 "$tmp/book.pgn" | awk '/^\[Event /{n++} n<=3' >"$tmp/small.pgn"
"$PGNKIT" html "$tmp/small.pgn" -o "$tmp/small.html" 2>/dev/null
: >"$tmp/last"
shown=() lastg=()
for _ in $(seq "$RUNS"); do
    out=$(cd "$here/tests/tools" && "$PY" browser_html_big.py "$tmp/small.html" "$tmp/last" \
        --big "$tmp/book.html" 3600 "$games" "$last" 2>&1 || true)
    s=$(sed -n 's/^big page shown in \([0-9.]*\) s$/\1/p' <<<"$out")
    l=$(sed -n 's/^big page: the last game shown in \([0-9.]*\) s$/\1/p' <<<"$out")
    if [ -z "$s" ] || [ -z "$l" ]; then
        echo "bench_html.sh: the browser run gave no times:" >&2
        tail -n 10 <<<"$out" >&2
        exit 1
    fi
    shown+=("$s") lastg+=("$l")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ms=$(median "${shown[@]}") ml=$(median "${lastg[@]}")
printf 'html of the book: %d games, %d bytes of PGN, %d bytes of page (%.2fx), made in %.1f s wall\n' \
    "$games" "$pgn_bytes" "$html_bytes" "$(echo "$html_bytes / $pgn_bytes" | bc -l)" "$made"
printf 'first board and list shown: median %s s of %d runs (%s); goal <= %s s: %s\n' "$ms" "$RUNS" \
    "${shown[*]}" "$GOAL" "$(awk -v a="$ms" -v g="$GOAL" 'BEGIN { print (a <= g) ? "met" : "not met" }')"
printf 'last game shown: median %s s (%s)\n' "$ml" "${lastg[*]}"
