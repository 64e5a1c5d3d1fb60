#!/usr/bin/env bash
# The peers' own test assertions (issue 35): every case of ../shared/corpus/peers/suites/*/cases.json
# (python-chess, chessops, chess.js, scalachess, pgn-extract, @mliebelt/pgn-parser, Fairy-Stockfish;
# 2,371 cases, provenance in their SOURCES.md) replayed against pgnkit by tests/tools/peer_cases.py.
# A case agrees, or is listed with its reason in tests/data/peer-differences.tsv (docs/conformance.md);
# any other difference fails, and so does a listed case that agrees. Prints "RESULT passed failed
# skipped" like the C suites.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(realpath "${1:-${PGNKIT_BIN:-build/pgnkit}}")
shared=$(realpath "${SHARED:-${PGNKIT_SHARED:-../shared}}")
suites=$shared/corpus/peers/suites
if [ ! -d "$suites" ]; then
    echo "FAIL no peer suites at $suites"
    echo "RESULT 0 1 0"
    exit 1
fi
exec /usr/bin/python3 "$root/tests/tools/peer_cases.py" "$bin" "$suites" \
    "$root/tests/data/peer-differences.tsv"
