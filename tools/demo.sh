#!/usr/bin/env bash
# make demo: the main job on the bundled sample (examples/sample.pgn, sources and licence in its
# header): check it, then write it in the export format with the broken game set aside.
set -uo pipefail
bin=${PGNKIT:-build/pgnkit}
rejects=${TMPDIR:-/tmp}/pgnkit-demo-rejects.$$.pgn
say() { printf '\n$ pgnkit %s\n' "$*"; }
say check examples/sample.pgn
"$bin" check examples/sample.pgn
echo "(exit status $?: 1 means the input has errors)"
say fmt --rejects rejects.pgn examples/sample.pgn
"$bin" fmt --quiet --rejects "$rejects" examples/sample.pgn
echo "(exit status $?)"
say "rejects.pgn holds the broken game verbatim:"
cat "$rejects"
rm -f "$rejects"
say convert --to uci examples/sample.pgn
"$bin" convert --to uci examples/sample.pgn 2>/dev/null | cut -c1-100
say perft 5
"$bin" perft 5
exit 0
